"""cumsum / cumprod / associative_scan / reduce with a combine function
(test/gpu/scan.tile), against float64 (and exact integer) NumPy references."""
from checks.harness import cdiv, np, test


def running_first_max(v, reverse=False):
    """Running (max, index of its first occurrence) along axis 1 of v, from
    the end when `reverse` (the first occurrence in the suffix)."""
    m = np.empty_like(v)
    a = np.empty(v.shape, np.int32)
    cur = np.full(v.shape[0], -np.inf, v.dtype)
    idx = np.zeros(v.shape[0], np.int32)
    cols = range(v.shape[1] - 1, -1, -1) if reverse else range(v.shape[1])
    for j in cols:
        take = v[:, j] >= cur if reverse else v[:, j] > cur
        cur = np.where(take, v[:, j], cur)
        idx = np.where(take, j, idx)
        m[:, j], a[:, j] = cur, idx
    return m, a


def rcumsum(v, axis):
    return np.flip(np.cumsum(np.flip(v, axis), axis), axis)


@test("scan", "axis=1 cumsum/cumprod/running max (tuples), reversed")
def t_scan_rows(t):
    for var in ("scan_rows", "scan_rows_w1", "scan_rows_w8"):
        k = t.k(var)
        M, N, stride = 9, 500, 503
        x = t.randn((M, stride))
        ones = (1 + 0.01 * t.randn((M, stride))).astype(np.float32)
        ties = t.rng.integers(0, 10, (M, stride)).astype(np.float32)
        xi = t.rng.integers(-1000, 1001, (M, stride)).astype(np.int32)
        names = ("o_sum", "o_rsum", "o_prod", "o_isum", "o_max", "o_arg", "o_rmax", "o_rarg")
        dtypes = (np.float32,) * 3 + (np.int32, np.float32, np.int32, np.float32, np.int32)
        o = [t.out((M, stride), d) for d in dtypes]
        sizes = dict(M=M, N=N, stride=stride)
        for data, check in ((x, "sums"), (ones, "prod"), (ties, "max")):
            k((cdiv(M, 4),), x=t.inp(data), xi=t.inp(xi), **sizes, **dict(zip(names, o)))
            g = [t.get(a)[:, :N] for a in o]
            v = data[:, :N].astype(np.float64)
            if check == "sums":
                t.close("%s cumsum axis=1" % var, g[0], np.cumsum(v, 1), 1e-5)
                t.close("%s cumsum axis=1 reverse" % var, g[1], rcumsum(v, 1), 1e-5)
                t.exact("%s i32 cumsum axis=1" % var, g[3], np.cumsum(xi[:, :N], 1))
            elif check == "prod":
                t.close("%s cumprod axis=1" % var, g[2], np.cumprod(v, 1), 1e-5)
            else:
                m, a = running_first_max(data[:, :N])
                t.exact("%s running max (scan of tuples)" % var, g[4], m)
                t.exact("%s running first argmax" % var, g[5], a)
                m, a = running_first_max(data[:, :N], reverse=True)
                t.exact("%s running max reverse" % var, g[6], m)
                t.exact("%s running first argmax reverse" % var, g[7], a)


@test("scan", "axis=0 cumsum, reversed, non-commutative combine")
def t_scan_cols(t):
    for var in ("scan_cols", "scan_cols_w1", "scan_cols_w8"):
        k = t.k(var)
        M, N, stride = 250, 13, 15
        x = t.randn((M, stride))
        xi = t.rng.integers(-1000, 1001, (M, stride)).astype(np.int32)
        dtypes = (np.float32, np.float32, np.int32, np.float32)
        o = [t.out((M, stride), d) for d in dtypes]
        outs = dict(zip(("o_sum", "o_rsum", "o_isum", "o_rlast"), o))
        k((cdiv(N, 8),), x=t.inp(x), xi=t.inp(xi), M=M, N=N, stride=stride, **outs)
        g = [t.get(a)[:, :N] for a in o]
        v = x[:, :N].astype(np.float64)
        t.close("%s cumsum axis=0" % var, g[0], np.cumsum(v, 0), 1e-5)
        t.close("%s cumsum axis=0 reverse" % var, g[1], rcumsum(v, 0), 1e-5)
        t.exact("%s i32 scan axis=0 reverse" % var, g[2], rcumsum(xi[:, :N], 0))
        # combine(a, b) = b + 0 * a: a reverse scan gives each element itself.
        t.exact("%s reverse scan keeps combine's operand order" % var, g[3], x[:, :N])


@test("scan", "1-D cumsum over a whole block, reversed")
def t_scan_1d(t):
    for var, block in (("scan_1d", 4096), ("scan_1d_w1", 4096), ("scan_1d_w4", 1024)):
        k = t.k(var)
        for n in t.sizes:
            x = t.randn(n)
            o = t.outs(2, n, np.float32)
            k((cdiv(n, block),), o_sum=o[0], o_rsum=o[1], x=t.inp(x), n=n)
            pad = np.zeros(cdiv(n, block) * block)
            pad[:n] = x
            chunks = pad.reshape(-1, block)
            t.close("%s n=%d cumsum" % (var, n), o[0], np.cumsum(chunks, 1).ravel()[:n], 1e-5)
            t.close("%s n=%d reverse" % (var, n), o[1], rcumsum(chunks, 1).ravel()[:n], 1e-5)


@test("scan", "reduce with a combine function (first max, sum, xor_sum)")
def t_reduce_fn(t):
    for var in ("reduce_fn", "reduce_fn_w1", "reduce_fn_w8"):
        k = t.k(var)
        M, N = 50, 100
        x = t.rng.integers(0, 20, (M, N)).astype(np.float32)
        xi = t.rng.integers(0, 1 << 30, (M, N)).astype(np.int32)
        sizes = (M, M, N, N, 1, M, N)
        dtypes = (np.float32, np.int32, np.float32, np.int32, np.float32, np.int32, np.int32)
        o = [t.out(n, d) for n, d in zip(sizes, dtypes)]
        names = ("o_max1", "o_arg1", "o_max0", "o_arg0", "o_sum", "o_xor1", "o_xor0")
        k((1,), x=t.inp(x), xi=t.inp(xi), M=M, N=N, **dict(zip(names, o)))
        t.exact("%s max axis=1" % var, o[0], x.max(1))
        t.exact("%s first argmax axis=1" % var, o[1], x.argmax(1))
        t.exact("%s max axis=0" % var, o[2], x.max(0))
        t.exact("%s first argmax axis=0" % var, o[3], x.argmax(0))
        t.close("%s sum axis=None" % var, o[4], [x.astype(np.float64).sum()], 1e-6)
        t.exact("%s xor_sum axis=1" % var, o[5], np.bitwise_xor.reduce(xi, 1))
        t.exact("%s xor_sum axis=0" % var, o[6], np.bitwise_xor.reduce(xi, 0))
