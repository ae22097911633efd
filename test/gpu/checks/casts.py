"""Casts between every pair of element types, bit-exact (test/gpu/casts.tile)."""
from checks.harness import bf16_from_f64, bf16_to_f64, cdiv, np, test
from checks.manifest import CAST_TYPES


NPT = {
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u32": "uint32",
    "f16": "float16",
    "bf16": "uint16",  # bf16 as raw bits
    "f32": "float32",
    "f64": "float64",
}


def is_float(ty):
    return ty in ("f16", "bf16", "f32", "f64")


def cast_inputs(rng, s, n):
    """x: values valid for every destination; xs: small values (see casts.tile).
    Returns the device-format arrays and their exact values (int64 / float64)."""
    if is_float(s):
        xv = rng.uniform(-100, 100, n)
        xv[rng.random(n) < 0.2] = 0.0
        xsv = rng.uniform(0, 1000, n)
    else:
        info = np.iinfo(NPT[s])
        xv = rng.integers(info.min, info.max, n, dtype=np.int64, endpoint=True)
        xv[rng.random(n) < 0.2] = 0
        xsv = rng.integers(
            max(info.min, -1000), min(info.max, 1000), n, dtype=np.int64, endpoint=True
        )
    return to_dev(xv, s), to_dev(xsv, s)


def to_dev(v, ty):
    if ty == "bf16":
        return bf16_from_f64(v)
    return v.astype(NPT[ty])


def exact_value(dev, ty):
    if ty == "bf16":
        return bf16_to_f64(dev)
    if is_float(ty):
        return dev.astype(np.float64)
    return dev.astype(np.int64) if ty != "u32" else dev.astype(np.int64)


def cast_ref(v, src, dst):
    """Reference of src value array v (exact, int64 or float64) cast to dst."""
    if dst == "bf16":
        return bf16_from_f64(v.astype(np.float64))
    if is_float(dst):
        if is_float(src):
            return v.astype(NPT[dst])  # numpy rounds f64 -> f16/f32 once (RNE)
        return v.astype(NPT[dst])  # int64 -> float: RNE
    if is_float(src):
        v = np.trunc(v).astype(np.int64)  # fptosi/fptoui: toward zero
    return v.astype(NPT[dst])  # integer: wraps (trunc / sext / zext)


def make_cast_test(s):
    def fn(t):
        k = t.k("cast_" + s)
        for n in t.sizes:
            x, xs = cast_inputs(t.rng, s, n)
            xv, xsv = exact_value(x, s), exact_value(xs, s)
            outs = {"o_" + d: t.out(n, NPT[d]) for d in CAST_TYPES}
            outs["o_b"] = t.out(n, np.int8)
            k((cdiv(n, 512),), px=t.inp(x), pxs=t.inp(xs), n=n, **outs)
            for d in CAST_TYPES:
                use_small = (is_float(s) and d == "u32") or (
                    not is_float(s) and d in ("f16", "bf16")
                )
                v = xsv if use_small else xv
                t.bits(
                    "n=%d %s -> %s%s" % (n, s, d, " (xs)" if use_small else ""),
                    outs["o_" + d],
                    cast_ref(v, s, d),
                )
            t.bits("n=%d %s -> i1 (as i8)" % (n, s), outs["o_b"], (xv != 0).astype(np.int8))

    return fn


for _t in CAST_TYPES:
    test("casts", "from " + _t)(make_cast_test(_t))


@test("casts", "from i1")
def t_cast_i1(t):
    k = t.k("cast_i1")
    for n in t.sizes:
        x = t.rng.integers(-128, 128, n).astype(np.int8)
        x[t.rng.random(n) < 0.4] = 0
        outs = {"o_" + d: t.out(n, NPT[d]) for d in CAST_TYPES}
        outs["o_b2"] = t.out(n, np.int32)
        k((cdiv(n, 512),), px=t.inp(x), n=n, **outs)
        b = x != 0
        for d in CAST_TYPES:
            t.bits(
                "n=%d i1 -> %s (True -> 1)" % (n, d),
                outs["o_" + d],
                cast_ref(b.astype(np.int64), "i8", d),
            )
        t.exact("n=%d x.to(int1) -> i32 / f32" % n, outs["o_b2"], b * 3)
