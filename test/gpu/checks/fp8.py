"""fp8 conversions, bit-exact against a float64 reference (test/gpu/fp8.tile)."""
from checks.harness import bf16_from_f64, bf16_to_f64, cdiv, np, test

# (exponent bits, mantissa bits, IEEE infinities and NaNs in the top exponent)
FORMATS = {"e4m3": (4, 3, False), "e5m2": (5, 2, True)}


def fp8_decode(bits, fmt):
    """The float64 values of fp8 bit patterns (uint8 array)."""
    eb, mb, ieee = FORMATS[fmt]
    bias = (1 << (eb - 1)) - 1
    b = bits.astype(np.int64)
    exp = (b >> mb) & ((1 << eb) - 1)
    man = b & ((1 << mb) - 1)
    top = (1 << eb) - 1
    val = np.where(
        exp == 0,
        np.ldexp(man.astype(np.float64), 1 - bias - mb),
        np.ldexp((man + (1 << mb)).astype(np.float64), exp - bias - mb),
    )
    if ieee:
        val = np.where(exp == top, np.where(man == 0, np.inf, np.nan), val)
    else:
        val = np.where((exp == top) & (man == (1 << mb) - 1), np.nan, val)
    return np.where(b & 0x80, -val, val)


def fp8_encode(v, fmt):
    """float64 values -> fp8 bits: round to f32, then to nearest even with
    saturation to the largest finite value (infinity too); NaN -> 0x7F."""
    v = np.asarray(v, np.float64).astype(np.float32).astype(np.float64)
    codes = np.arange(0x80, dtype=np.uint8)
    mags = fp8_decode(codes, fmt)
    finite = ~np.isnan(mags) & ~np.isinf(mags)
    codes, mags = codes[finite], mags[finite]  # increasing with the code
    a = np.abs(v)
    hi = np.clip(np.searchsorted(mags, a), 0, len(mags) - 1)
    lo = np.clip(hi - 1, 0, len(mags) - 1)
    dlo, dhi = np.abs(a - mags[lo]), np.abs(mags[hi] - a)
    pick_hi = (dhi < dlo) | ((dhi == dlo) & (codes[hi] % 2 == 0))
    out = np.where(pick_hi, codes[hi], codes[lo]).astype(np.uint8)
    out = np.where(a >= mags[-1], codes[-1], out)
    out = np.where(np.signbit(v), out | 0x80, out).astype(np.uint8)
    return np.where(np.isnan(v), np.uint8(0x7F), out).astype(np.uint8)


def inputs(rng, n):
    """Values that reach every rounding case: fp8 values and midpoints
    between neighbours (ties), +-0, beyond the range, subnormals, inf, NaN."""
    x = rng.standard_normal(n) * np.exp2(rng.integers(-18, 18, n))
    grid = np.concatenate([fp8_decode(np.arange(256, dtype=np.uint8), f) for f in FORMATS])
    grid = grid[np.isfinite(grid)]
    mid = (np.sort(grid)[1:] + np.sort(grid)[:-1]) / 2
    special = np.concatenate([grid, mid, [0.0, -0.0, 1e6, -1e6, np.inf, -np.inf, np.nan]])
    k = min(n, len(special))
    x[:k] = rng.permutation(special)[:k]
    return x


def check_cvt(t, variant):
    k = t.k(variant)
    for n in t.sizes:
        xv = inputs(t.rng, n)
        x = xv.astype(np.float32)
        h = xv.astype(np.float16)
        b = bf16_from_f64(xv)
        p4 = t.rng.integers(0, 256, n).astype(np.uint8)
        p5 = t.rng.integers(0, 256, n).astype(np.uint8)
        p4[: min(n, 256)] = np.arange(min(n, 256))
        p5[: min(n, 256)] = np.arange(min(n, 256))
        outs = {name: t.out(n, np.uint8) for name in ("o_e4", "o_e5", "o_e4h", "o_e5b", "o_e5s")}
        outs.update(o_f32=t.out(n, np.float32), o_f16=t.out(n, np.float16))
        outs.update(o_bf16=t.out(n, np.uint16), o_f32b=t.out(n, np.float32))
        outs.update(o_i32=t.out(n, np.int32))
        k(
            (cdiv(n, 512),),
            px=t.inp(x),
            ph=t.inp(h),
            pb=t.inp(b),
            p4=t.inp(p4),
            p5=t.inp(p5),
            n=n,
            **outs,
        )
        t.bits("n=%d f32 -> e4m3" % n, outs["o_e4"], fp8_encode(x, "e4m3"))
        t.bits("n=%d f32 -> e5m2" % n, outs["o_e5"], fp8_encode(x, "e5m2"))
        t.bits("n=%d f16 -> e4m3" % n, outs["o_e4h"], fp8_encode(h, "e4m3"))
        t.bits("n=%d bf16 -> e5m2" % n, outs["o_e5b"], fp8_encode(bf16_to_f64(b), "e5m2"))
        t.bits("n=%d store f32 in *e5m2" % n, outs["o_e5s"], fp8_encode(x, "e5m2"))
        v4, v5 = fp8_decode(p4, "e4m3"), fp8_decode(p5, "e5m2")
        t.exact("n=%d e4m3 -> f32" % n, outs["o_f32"], v4.astype(np.float32))
        t.exact("n=%d e5m2 -> f16" % n, outs["o_f16"], v5.astype(np.float16))
        got_bf16 = bf16_to_f64(t.get(outs["o_bf16"]))
        t.exact("n=%d e4m3 -> bf16" % n, got_bf16, v4)
        t.exact("n=%d e5m2 -> f32" % n, outs["o_f32b"], v5.astype(np.float32))
        finite = np.isfinite(v4)
        t.exact(
            "n=%d e4m3 -> i32" % n, outs["o_i32"], np.trunc(np.where(finite, v4, 0)), where=finite
        )


def check_scale(t, variant):
    k = t.k(variant)
    for n in t.sizes:
        x = t.rng.integers(0, 256, n).astype(np.uint8)
        x[(x & 0x7F) >= 0x7C] = 0  # finite e5m2 only
        out = t.out(n, np.uint8)
        k((cdiv(n, 512),), out=out, x=t.inp(x), s=0.01, n=n)
        ref = fp8_encode(fp8_decode(x, "e5m2").astype(np.float32) * np.float32(0.01), "e4m3")
        t.bits("n=%d e5m2 * 0.01 -> e4m3" % n, out, ref)


for _suffix, _what in (("", ""), ("_sm80", " (sm_80 code: no fp8 cvt)")):
    test("fp8", "conversions" + _what)(lambda t, v="fp8_cvt" + _suffix: check_cvt(t, v))
    test("fp8", "dtype-generic scale" + _what)(lambda t, v="fp8_scale" + _suffix: check_scale(t, v))
