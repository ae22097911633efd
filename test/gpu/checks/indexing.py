"""program_id/num_programs, arange, cdiv (test/gpu/indexing.tile)."""
from checks.harness import cdiv, np, test


@test("indexing", "program_id/num_programs 1-D")
def t_pid_1d(t):
    k = t.k("pid_1d")
    for n in t.sizes:
        grid = cdiv(n, 128)
        oi, op, on = t.outs(3, n, np.int32)
        k((grid,), out_idx=oi, out_pid=op, out_np=on, n=n)
        i = np.arange(n)
        t.exact("n=%d offs (arange)" % n, oi, i)
        t.exact("n=%d program_id(0)" % n, op, i // 128)
        t.exact("n=%d num_programs(0)" % n, on, np.full(n, grid))


@test("indexing", "program_id/num_programs 2-D")
def t_pid_2d(t):
    k = t.k("pid_2d")
    M, N, stride = 37, 70, 75
    g0, g1 = cdiv(M, 16), cdiv(N, 32)
    out, info = t.out((M, stride), np.int32), t.out(g0 * g1 * 4, np.int32)
    k((g0, g1), out=out, info=info, M=M, N=N, stride=stride)
    r, c = np.arange(M)[:, None], np.arange(stride)[None, :]
    written = np.broadcast_to(c < N, (M, stride))
    t.exact("out[r,c] = r*1000+c", out, r * 1000 + c, where=written)
    t.untouched("columns >= N untouched", out, ~written)
    p0, p1 = np.meshgrid(np.arange(g0), np.arange(g1), indexing="ij")
    ref = np.stack([p0, p1, np.full_like(p0, g0), np.full_like(p0, g1)], -1)
    t.exact("(pid0, pid1, np0, np1) per program", info.reshape(g0, g1, 4), ref)


@test("indexing", "program_id/num_programs 3-D")
def t_pid_3d(t):
    k = t.k("pid_3d")
    g = (3, 4, 5)
    nprog = g[0] * g[1] * g[2]
    out, info = t.out(nprog * 64, np.int32), t.out(nprog * 6, np.int32)
    k(g, out=out, info=info)
    t.exact("out = lin*64 + i", out, np.arange(nprog * 64))
    ref = np.zeros((g[2], g[1], g[0], 6), np.int64)
    p2, p1, p0 = np.meshgrid(np.arange(g[2]), np.arange(g[1]), np.arange(g[0]), indexing="ij")
    ref[..., 0], ref[..., 1], ref[..., 2] = p0, p1, p2
    ref[..., 3], ref[..., 4], ref[..., 5] = g
    t.exact("(p0,p1,p2,n0,n1,n2) per program", info, ref.reshape(-1))


@test("indexing", "arange with start")
def t_arange(t):
    k = t.k("arange_start")
    n = 100
    out = t.out(n, np.int32)
    k((cdiv(n, 32),), out=out, n=n)
    i = np.arange(n)
    t.exact("arange(16, 48) + pid*1000", out, 16 + i % 32 + (i // 32) * 1000)


@test("indexing", "cdiv")
def t_cdiv(t):
    k = t.k("cdiv_k")
    for n in t.sizes:
        a = t.rng.integers(0, 10000, n).astype(np.int32)
        b = t.rng.integers(1, 50, n).astype(np.int32)
        out, nb = t.out(n, np.int32), t.out(2, np.int32)
        k((cdiv(n, 256),), out=out, nb=nb, a=t.inp(a), b=t.inp(b), n=n, d=7)
        t.exact("n=%d cdiv(block, block)" % n, out, (a + b - 1) // b)
        t.exact("n=%d cdiv(n, BLOCK), cdiv(n, d)" % n, nb, [cdiv(n, 256), cdiv(n, 7)])
