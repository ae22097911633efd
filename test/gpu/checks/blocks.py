"""N-D permutations, join/split/interleave, bitcast, tensor descriptors and
block pointers (test/gpu/blocks.tile), against NumPy (exact where the
result is a copy, float64 for the matmul)."""
from checks.harness import cdiv, np, test


@test("blocks", "permute / trans with an order (3-D, every permutation)")
def t_permute3(t):
    for var in ("permute3", "permute3_w1", "permute3_w8"):
        k = t.k(var)
        A, B, C = 8, 16, 32
        x = t.randn((A, B, C))
        orders = ((0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
        outs = [t.out(tuple((A, B, C)[d] for d in o), np.float32) for o in orders]
        names = ["y%d%d%d" % o for o in orders]
        k((1,), x=t.inp(x), **dict(zip(names, outs)))
        for o, out in zip(orders, outs):
            t.exact("%s permute%s" % (var, o), out, np.transpose(x, o))


@test("blocks", "join / split / interleave")
def t_join_split(t):
    for var in ("join_split", "join_split_w8"):
        k = t.k(var)
        BM = BN = 64
        x = t.randn((BM, BN))
        left, right = t.outs(2, (BM, BN // 2), np.float32)
        back = t.out((BM, BN), np.float32)
        inter = t.out((BM, 2 * BN), np.float32)
        k((1,), x=t.inp(x), left=left, right=right, back=back, inter=inter)
        t.exact("%s split: left half" % var, left, x[:, : BN // 2])
        t.exact("%s split: right half" % var, right, x[:, BN // 2 :])
        ref = x.copy()
        ref[:, : BN // 2] *= np.float32(2)
        t.exact("%s join back (left half doubled)" % var, back, ref)
        t.exact("%s interleave(x, -x)" % var, inter, np.stack([x, -x], -1).reshape(BM, 2 * BN))


@test("blocks", "bitcast f32 -> i32, f16 -> i16 -> f16")
def t_bitcasts(t):
    k = t.k("bitcasts")
    for n in t.sizes:
        x = t.randn(n)
        h = t.randn(n).astype(np.float16)
        bits = t.out(n, np.int32)
        hneg = t.out(n, np.float16)
        k((cdiv(n, 1024),), x=t.inp(x), h=t.inp(h), bits=bits, hneg=hneg, n=n)
        t.exact("n=%d f32 bits" % n, bits, x.view(np.int32))
        t.exact("n=%d f16 sign flipped through i16" % n, hneg, -h)


@test("blocks", "tensor descriptor load/store (ragged, transposed)")
def t_desc_trans(t):
    for var in ("desc_trans", "desc_trans_w8"):
        k = t.k(var)
        for M, N in ((45, 100), (64, 128), (1, 3)):
            # Row strides rounded up to 16 bytes (descriptors need them).
            ldx, ldy = cdiv(N, 4) * 4, cdiv(M, 4) * 4
            x = t.randn((M, ldx))
            y = t.out((N, ldy), np.float32)
            k((cdiv(M, 32), cdiv(N, 64)), x=t.inp(x), y=y, M=M, N=N, ldx=ldx, ldy=ldy)
            t.exact("%s %dx%d: y = x^T + 1" % (var, M, N), y[:, :M], x[:, :N].T + np.float32(1))
            t.untouched("%s %dx%d: row padding" % (var, M, N), y, np.arange(ldy) >= M)


@test("blocks", "block pointers: matmul advanced along K (ragged)")
def t_bp_matmul(t):
    for var in ("bp_matmul", "bp_matmul_s1"):
        k = t.k(var)
        for M, N, K in ((100, 70, 90), (128, 128, 64), (3, 5, 20)):
            a = t.randn((M, K)).astype(np.float16)
            b = t.randn((K, N)).astype(np.float16)
            c = t.out((M, N), np.float32)
            k((cdiv(M, 64), cdiv(N, 64)), a=t.inp(a), b=t.inp(b), c=c, M=M, N=N, K=K)
            ref = a.astype(np.float64) @ b.astype(np.float64)
            t.close("%s %dx%dx%d" % (var, M, N, K), c, ref, 1e-5)


@test("blocks", "flip (last dim, dim 0), isnan / isinf / signbit")
def t_flips(t):
    for var in ("flips", "flips_w8"):
        k = t.k(var)
        x = t.randn((32, 64))
        x[0, :4] = [np.nan, np.inf, -np.inf, -0.0]
        o = t.outs(2, (32, 64), np.float32)
        c = t.outs(3, (32, 64), np.int32)
        k((1,), x=t.inp(x), last=o[0], first=o[1], nan=c[0], inf=c[1], sign=c[2])
        t.exact("%s flip last dim" % var, t.get(o[0]).view(np.int32), x[:, ::-1].view(np.int32))
        t.exact("%s flip dim 0" % var, t.get(o[1]).view(np.int32), x[::-1, :].view(np.int32))
        t.exact("%s isnan" % var, c[0], np.isnan(x).astype(np.int32))
        t.exact("%s isinf" % var, c[1], np.isinf(x).astype(np.int32))
        t.exact("%s signbit" % var, c[2], np.signbit(x).astype(np.int32))


@test("blocks", "sort (bitonic, ascending and descending)")
def t_sort(t):
    for var in ("sort_rows", "sort_rows_w8"):
        k = t.k(var)
        x = t.randn((16, 128))
        x[0, :8] = [np.inf, -np.inf, -0.0, 0.0, 1.0, 1.0, 1.0, -1.0]
        x[1] = np.round(x[1])  # many ties
        up, down = t.outs(2, (16, 128), np.float32)
        k((1,), x=t.inp(x), up=up, down=down)
        t.exact("%s ascending" % var, up, np.sort(x, 1))
        t.exact("%s descending" % var, down, -np.sort(-x, 1))


@test("blocks", "histogram, cat")
def t_hist_cat(t):
    k = t.k("hist_cat")
    x = t.rng.integers(-8, 72, 1024).astype(np.int32)
    a = t.randn((32, 16))
    h = t.out(64, np.int32)
    c = t.out((64, 16), np.float32)
    k((1,), x=t.inp(x), h=h, a=t.inp(a), c=c)
    t.exact(
        "histogram of 1024 values into 64 bins",
        h,
        np.bincount(x[(x >= 0) & (x < 64)], minlength=64),
    )
    t.exact("cat(a, 2a) along dim 0", c, np.concatenate([a, a * np.float32(2)]))


@test("blocks", "topk (largest first)")
def t_topk(t):
    k = t.k("topk_rows")
    x = t.randn((16, 128))
    top = t.out((16, 8), np.float32)
    k((1,), x=t.inp(x), top=top)
    t.exact("topk 8 of 128, largest first", top, -np.sort(-x, 1)[:, :8])


@test("blocks", "erfinv, hypot")
def t_erfinv_hypot(t):
    import math
    from statistics import NormalDist

    k = t.k("erfinv_hypot")
    n = 3000
    x = t.rng.uniform(-0.999, 0.999, n).astype(np.float32)
    y = (t.randn(n) * 1e3).astype(np.float32)
    e, h = t.outs(2, n, np.float32)
    k((cdiv(n, 1024),), x=t.inp(x), y=t.inp(y), e=e, h=h, n=n)
    ref = np.array([NormalDist().inv_cdf((float(v) + 1) / 2) / math.sqrt(2) for v in x])
    t.close("erfinv of 3000 values in (-0.999, 0.999)", e, ref, 1e-5)
    t.close("hypot", h, np.hypot(x.astype(np.float64), y.astype(np.float64)), 1e-6)


@test("blocks", "gather along axis 1 and axis 0 (ragged rows, -0.0 and NaN)")
def t_gathers(t):
    k = t.k("gathers")
    for m in (32, 19):
        x = t.randn((32, 64))
        x[0, :3] = [-0.0, np.nan, np.inf]
        i1 = t.rng.integers(0, 64, (32, 16)).astype(np.int32)
        i0 = t.rng.integers(0, 32, (8, 64)).astype(np.int32)
        i1[0, :3] = [0, 1, 2]
        g1, g0 = t.out((32, 16), np.float32), t.out((8, 64), np.float32)
        k((1,), x=t.inp(x), i1=t.inp(i1), i0=t.inp(i0), g1=g1, g0=g0, m=m)
        src = np.where(np.arange(32)[:, None] < m, x, np.float32(0.0))
        t.exact("m=%d gather axis 1" % m, g1, np.take_along_axis(src, i1, 1))
        t.exact("m=%d gather axis 0" % m, g0, np.take_along_axis(src, i0, 0))
