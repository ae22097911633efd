"""load/store with masks, element types, gathers, atomics, addresses past 2 GiB
(test/gpu/memory.tile)."""
from checks.harness import bf16_from_f64, cdiv, cp, np, test


@test("memory", "load mask/other")
def t_load_other(t):
    k = t.k("load_other")
    for n in t.sizes:
        g = cdiv(n, 256)
        x = (t.rng.standard_normal(n) + 3).astype(np.float32)
        o, o0 = t.outs(2, g * 256, np.float32)
        k((g,), out=o, out0=o0, x=t.inp(x), n=n)
        pad = g * 256 - n
        t.exact("n=%d other=-2.5" % n, o, np.concatenate([x, np.full(pad, -2.5, np.float32)]))
        t.exact("n=%d no other -> 0" % n, o0, np.concatenate([x, np.zeros(pad, np.float32)]))


@test("memory", "store mask")
def t_store_mask(t):
    k = t.k("store_mask")
    for n in t.sizes:
        g = cdiv(n, 256)
        x = t.randn(n)
        o = t.out(g * 256, np.float32)
        k((g,), out=o, x=t.inp(x), n=n)
        i = np.arange(g * 256)
        m = (i < n) & (i % 3 != 0)
        ref = np.zeros(g * 256, np.float32)
        ref[:n] = 2 * x
        t.exact("n=%d stored lanes" % n, o, ref, where=m)
        t.untouched("n=%d masked-off lanes untouched" % n, o, ~m)


@test("memory", "load/store element types")
def t_copy_types(t):
    k = t.k("copy_types")
    rng = t.rng
    for n in t.sizes:
        x8 = rng.integers(-128, 128, n).astype(np.int8)
        x16 = rng.integers(-32768, 32768, n).astype(np.int16)
        x64 = rng.integers(-(2**62), 2**62, n, dtype=np.int64)
        xu8 = rng.integers(0, 256, n).astype(np.uint8)
        xh = rng.standard_normal(n).astype(np.float16)
        xb = bf16_from_f64(rng.standard_normal(n))
        xd = rng.standard_normal(n)
        outs = dict(
            o8=t.out(n, np.int8),
            o16=t.out(n, np.int16),
            o64=t.out(n, np.int64),
            ou8=t.out(n, np.uint8),
            oh=t.out(n, np.float16),
            ob=t.out(n, np.uint16),
            od=t.out(n, np.float64),
        )
        k(
            (cdiv(n, 512),),
            x8=t.inp(x8),
            x16=t.inp(x16),
            x64=t.inp(x64),
            xu8=t.inp(xu8),
            xh=t.inp(xh),
            xb=t.inp(xb),
            xd=t.inp(xd),
            n=n,
            **outs
        )
        t.bits("n=%d i8" % n, outs["o8"], x8)
        t.bits("n=%d i16" % n, outs["o16"], x16)
        t.bits("n=%d i64 (+1)" % n, outs["o64"], x64 + 1)
        t.bits("n=%d u8" % n, outs["ou8"], xu8)
        t.bits("n=%d f16" % n, outs["oh"], xh)
        t.bits("n=%d bf16" % n, outs["ob"], xb)
        t.bits("n=%d f64" % n, outs["od"], xd)


@test("memory", "i1 load/store (1 byte per element)")
def t_bool_io(t):
    k = t.k("bool_io")
    for n in t.sizes:
        x = t.rng.random(n) < 0.5
        o, y = t.out(n, np.bool_), t.out(n, np.int32)
        k((cdiv(n, 512),), out=o, y=y, x=t.inp(x), n=n)
        t.exact("n=%d store ~x as bytes 0/1" % n, t.get(o).view(np.uint8), (~x).astype(np.uint8))
        t.exact("n=%d x.to(i32) + 2" % n, y, x.astype(np.int32) + 2)


@test("memory", "2-D strided gather + transposed scatter")
def t_gather_2d(t):
    k = t.k("gather_2d")
    M, N, ld = 45, 70, 80
    x = t.randn((M, ld))
    o = t.out((N, M), np.float32)
    k((cdiv(M, 32), cdiv(N, 32)), outT=o, x=t.inp(x), M=M, N=N, ld=ld)
    t.exact("outT[c, r] = x[r, c]", o, x[:, :N].T)


@test("memory", "atomic_add f32/i32 masked + scalar")
def t_atomics(t):
    NB = 17
    for var, nw in (("atomics", 4), ("atomics_w1", 1)):
        k = t.k(var)
        for n in t.sizes:
            g = cdiv(n, 256)
            x = t.rng.uniform(0.1, 1.0, n).astype(np.float32)
            w = t.rng.integers(-100, 101, n).astype(np.int32)
            bins, cnt = t.out(NB, np.float32, "zero"), t.out(NB, np.int32, "zero")
            tot = t.out(1, np.float32, "zero")
            k((g,), bins=bins, cnt=cnt, total=tot, x=t.inp(x), w=t.inp(w), n=n)
            i = np.arange(n)
            t.close(
                "w%d n=%d f32 bins[i%%17] += x" % (nw, n),
                bins,
                np.bincount(i % NB, weights=x.astype(np.float64), minlength=NB),
                1e-5,
            )
            t.exact(
                "w%d n=%d i32 cnt[i%%17] += w" % (nw, n),
                cnt,
                np.bincount(i % NB, weights=w, minlength=NB).astype(np.int64),
            )
            t.close(
                "w%d n=%d scalar atomic total += sum (once per program)" % (nw, n),
                tot,
                [x.astype(np.float64).sum()],
                1e-5,
            )


@test("memory", "atomic_add 2-D column sums")
def t_atomic_colsum(t):
    for var in ("atomic_colsum", "atomic_colsum_w8"):
        k = t.k(var)
        M, N = 100, 50
        x = t.rng.uniform(-1, 1, (M, N)).astype(np.float32)
        cs = t.out(N, np.float32, "zero")
        k((cdiv(M, 16),), colsum=cs, x=t.inp(x), M=M, N=N)
        t.close("%s colsum[c] += sum(x[rows, c])" % var, cs, x.astype(np.float64).sum(0), 1e-5)


def outside(lead, n, tail):
    """The mask of a window of lead + n + tail elements that is True outside
    the n in the middle."""
    return np.r_[np.ones(lead, bool), np.zeros(n, bool), np.ones(tail, bool)]


@test("memory", "addresses past 2 GiB (i32 offsets, i64 base)")
def t_big(t):
    if t.small:
        t.record("skipped with --small (needs 6.5 GB)", True)
        return
    k = t.k("big_offsets")
    base, n = (1 << 29) + 12345, 5000  # base * 4 bytes > 2^31
    x, o = cp.empty(base + n, cp.float32), cp.empty(base + n + 256, cp.float32)
    xv = t.randn(n)
    x[base:] = cp.asarray(xv)
    o[base - 256 :].view(cp.uint8).fill(255)
    k((cdiv(n, 1024),), out=o, x=x, base=base, n=n)
    got = cp.asnumpy(o[base - 256 :])
    what = "f32 x[offs] + 1 at element offsets ~2^29 (bytes > 2^31)"
    t.exact(what, got[256 : 256 + n], xv + np.float32(1))
    t.untouched("f32 neighbours untouched", got, outside(256, n, 256))
    del x, o
    k2 = t.k("big_i64")
    base, n = (1 << 31) + 1000, 3000  # element offsets > 2^31
    x, o = cp.empty(base + n, cp.int8), cp.empty(base + n + 256, cp.int8)
    xv = t.rng.integers(-100, 100, n).astype(np.int8)
    x[base:] = cp.asarray(xv)
    o[base - 256 :].fill(-1)
    k2((cdiv(n, 1024),), out=o, x=x, base=base, n=n)
    got = cp.asnumpy(o[base - 256 :])
    t.exact("i8 ptr + i64 base (2^31 + 1000) + offs", got[256 : 256 + n], xv + 1)
    t.untouched("i8 neighbours untouched", got, outside(256, n, 256))
    del x, o
    # > 2^31 elements with i32 program ids/offsets (exact offsets and mask).
    k3 = t.k("huge_copy")
    n = (1 << 31) + 3000 + 7
    x = cp.empty(n, cp.int8)
    chunk = 1 << 28  # keeps temporaries small
    for i in range(0, n, chunk):
        j = min(n, i + chunk)
        x[i:j] = (cp.arange(i, j, dtype=cp.int64) % 251 - 125).astype(cp.int8)
    o = cp.empty(n + 4096, cp.int8)
    o.fill(-1)
    k3((cdiv(n, 1024),), out=o, x=x, n=n)
    cp.cuda.runtime.deviceSynchronize()
    bad = 0
    for i in range(0, n, chunk):
        j = min(n, i + chunk)
        want = (x[i:j].astype(cp.int16) + 1).astype(cp.int8)
        bad += int(cp.count_nonzero(o[i:j] != want))
    t.record("i8 copy of 2^31 + 3007 elements, i32 pid * BLOCK + arange (%d wrong)" % bad, bad == 0)
    tail = cp.asnumpy(o[n:])
    t.record("i8 poison past n untouched", bool(np.all(tail == -1)))
    del x, o
    k4 = t.k("huge_rows")
    rows, stride, ncols = 3, (1 << 30) + 4099, 1000  # row 2 starts past 2^31
    size = (rows - 1) * stride + ncols
    x = cp.empty(size, cp.int8)
    o = cp.empty(size + 256, cp.int8)
    o.fill(-1)
    xv = t.rng.integers(-60, 60, (rows, ncols)).astype(np.int8)
    for r in range(rows):
        x[r * stride : r * stride + ncols] = cp.asarray(xv[r])
    k4((rows, cdiv(ncols, 256)), out=o, x=x, stride=stride, ncols=ncols)
    for r in range(rows):
        got = cp.asnumpy(o[r * stride - (256 if r else 0) : r * stride + ncols + 256])
        lead = 256 if r else 0
        what = "i8 row %d at element %d (row * stride, i32)" % (r, r * stride)
        t.exact(what, got[lead : lead + ncols], xv[r] * 2)
        mask = outside(lead, ncols, len(got) - lead - ncols)
        t.untouched("i8 row %d neighbours untouched" % r, got, mask)
