"""zeros, full, zeros_like (test/gpu/creation.tile)."""
from checks.harness import cdiv, np, test


@test("creation", "zeros/full/zeros_like 1-D")
def t_create_1d(t):
    k = t.k("create_1d")
    for n in t.sizes:
        o = t.outs(3, n, np.float32)
        oi, oh = t.out(n, np.int32), t.out(n, np.float16)
        x = t.randn(n)
        k((cdiv(n, 512),), out_z=o[0], out_f=o[1], out_zl=o[2], out_i=oi, out_h=oh, x=t.inp(x), n=n)
        t.exact("n=%d zeros f32" % n, o[0], np.zeros(n, np.float32))
        t.exact("n=%d full 3.5 f32" % n, o[1], np.full(n, 3.5, np.float32))
        t.exact("n=%d zeros_like + 7" % n, o[2], np.full(n, 7.0, np.float32))
        t.exact("n=%d full -5 i32" % n, oi, np.full(n, -5, np.int32))
        t.exact("n=%d full 1.25 f16" % n, oh, np.full(n, 1.25, np.float16))


@test("creation", "zeros/full 2-D")
def t_create_2d(t):
    k = t.k("create_2d")
    M, N = 77, 50
    out, outi = t.out((M, N), np.float32), t.out((M, N), np.int64)
    k((cdiv(M, 32),), out=out, outi=outi, M=M, N=N)
    r, c = np.arange(M)[:, None], np.arange(N)[None, :]
    t.exact("zeros + full(2.0)*r + c", out, (2.0 * r + c).astype(np.float32))
    t.exact("zeros(i64) + 1, * r", outi, np.broadcast_to(r, (M, N)))
