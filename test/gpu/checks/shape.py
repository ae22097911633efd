"""trans, reshape, broadcasts, hints (test/gpu/shape.tile)."""
from checks.harness import cdiv, np, test


@test("shape", "trans")
def t_trans(t):
    for var in ("trans_k", "trans_k_w8", "trans_k_w1"):
        k = t.k(var)
        M, N = 45, 100
        x = t.randn((M, N))
        o = t.out((N, M), np.float32)
        k((cdiv(M, 32), cdiv(N, 64)), out=o, x=t.inp(x), M=M, N=N)
        t.exact("%s: trans of 32x64 tiles" % var, o, x.T)


@test("shape", "reshape")
def t_reshape(t):
    k = t.k("reshape_k")
    for n in t.sizes:
        x = t.randn(n)
        o, o1 = t.outs(2, n, np.float32)
        k((cdiv(n, 512),), out=o, out1=o1, x=t.inp(x), n=n)
        t.exact("n=%d 1-D -> (16, 32)" % n, o, 2 * x)
        t.exact("n=%d (16, 32) -> 1-D" % n, o1, x + np.float32(1))


@test("shape", "broadcast_to/expand_dims/[:, None]")
def t_bcast(t):
    k = t.k("bcast_k")
    M, N = 45, 40
    a = t.randn(M)
    b = t.randn(N)
    o = t.outs(3, (M, N), np.float32)
    k((cdiv(M, 32), cdiv(N, 32)), o1=o[0], o2=o[1], o3=o[2], a=t.inp(a), b=t.inp(b), M=M, N=N)
    ref = a.astype(np.float64)[:, None] * 10 + b[None, :]
    t.close("broadcast_to(expand_dims) + broadcast_to([None, :])", o[0], ref, 1e-6)
    t.close("expand_dims axis=1 / axis=0", o[1], ref, 1e-6)
    t.close("x[:, None] * 10 + y[None, :]", o[2], ref, 1e-6)


@test("shape", "broadcast column")
def t_bcast_col(t):
    k = t.k("bcast_col")
    M, N = 100, 10
    a = t.randn(M)
    o = t.out((M, N), np.float32)
    k((cdiv(M, 64),), out=o, a=t.inp(a), M=M, N=N)
    t.exact(
        "broadcast_to(col, (BM, BN)) + zeros((1, BN)) + 1",
        o,
        np.broadcast_to((a + np.float32(1))[:, None], (M, N)),
    )


@test("shape", "multiple_of/max_contiguous hints")
def t_hints(t):
    k = t.k("hints_copy")
    for n in t.sizes:
        x = t.randn(n)
        o = t.out(n, np.float32)
        k((cdiv(n, 1024),), out=o, x=t.inp(x), n=n)
        t.exact("n=%d hinted 1-D copy" % n, o, x + np.float32(1))
    k2 = t.k("hints_2d")
    M, N, ld = 37, 50, 64
    x = t.randn((M, ld))
    o = t.out((M, ld), np.float32)
    k2((cdiv(M, 16),), out=o, x=t.inp(x), M=M, N=N, ld=ld)
    cols = np.arange(ld)[None, :] < N
    t.exact(
        "hinted 2-D (ld multiple_of 16)", o, x * np.float32(3), where=np.broadcast_to(cols, (M, ld))
    )
    t.untouched("hinted 2-D columns >= N untouched", o, np.broadcast_to(~cols, (M, ld)))
