"""sum/max/min/argmax/argmin along each axis (test/gpu/reduce.tile)."""
from checks.harness import cdiv, np, test


def reduce_along(t, axis, variants, M, N, stride, block):
    """sum/max/min/argmax/argmin along `axis` of x[:, :N] (M rows `stride`
    apart); one program per `block` outputs."""
    n_out = M if axis == 1 else N
    for var in variants:
        k = t.k(var)
        x = t.randn((M, stride))
        o = t.outs(3, n_out, np.float32)
        o += t.outs(2, n_out, np.int32)
        outs = dict(zip(("o_sum", "o_max", "o_min", "o_amax", "o_amin"), o))
        k((cdiv(n_out, block),), x=t.inp(x), M=M, N=N, stride=stride, **outs)
        v = x[:, :N].astype(np.float64)
        t.close("%s sum axis=%d" % (var, axis), o[0], v.sum(axis), 1e-5)
        t.exact("%s max axis=%d" % (var, axis), o[1], x[:, :N].max(axis))
        t.exact("%s min axis=%d" % (var, axis), o[2], x[:, :N].min(axis))
        t.exact("%s argmax axis=%d" % (var, axis), o[3], v.argmax(axis))
        t.exact("%s argmin axis=%d" % (var, axis), o[4], v.argmin(axis))


@test("reduce", "axis=1 sum/max/min/argmax/argmin")
def t_red_axis1(t):
    reduce_along(t, 1, ("red_axis1", "red_axis1_w8"), M=37, N=100, stride=103, block=16)


@test("reduce", "axis=0 sum/max/min/argmax/argmin")
def t_red_axis0(t):
    reduce_along(t, 0, ("red_axis0", "red_axis0_w1"), M=50, N=70, stride=75, block=32)


@test("reduce", "axis=None sum/max/min")
def t_red_all(t):
    for var in ("red_all", "red_all_w8"):
        k = t.k(var)
        P, M, N = 5, 20, 50
        x = t.randn((P, M, N))
        o = t.outs(3, P, np.float32)
        k((P,), o_sum=o[0], o_max=o[1], o_min=o[2], x=t.inp(x), M=M, N=N)
        t.close("%s sum axis=None" % var, o[0], x.astype(np.float64).sum((1, 2)), 1e-5)
        t.exact("%s max axis=None" % var, o[1], x.max((1, 2)))
        t.exact("%s min axis=None" % var, o[2], x.min((1, 2)))


@test("reduce", "argmax/argmin ties pick the first index")
def t_red_ties(t):
    for var in ("red_ties", "red_ties_w8", "red_ties_w1"):
        k = t.k(var)
        M, N = 50, 61
        x = t.rng.integers(0, 3, (M, N)).astype(np.float32)
        o = [t.out(M, np.int32), t.out(M, np.int32), t.out(N, np.int32), t.out(N, np.int32)]
        k((1,), o_amax1=o[0], o_amin1=o[1], o_amax0=o[2], o_amin0=o[3], x=t.inp(x), M=M, N=N)
        t.exact("%s argmax axis=1" % var, o[0], x.argmax(1))
        t.exact("%s argmin axis=1" % var, o[1], x.argmin(1))
        t.exact("%s argmax axis=0" % var, o[2], x.argmax(0))
        t.exact("%s argmin axis=0" % var, o[3], x.argmin(0))


@test("reduce", "argmax/argmin with NaN pick the first NaN")
def t_red_nan(t):
    # SPEC 1.4: a NaN is the most extreme value for argmax and argmin (as
    # NumPy's argmax/argmin, whose answers are the references here).
    for var in ("red_ties", "red_ties_w8", "red_ties_w1"):
        k = t.k(var)
        M, N = 50, 61
        x = t.rng.standard_normal((M, N)).astype(np.float32)
        x[t.rng.random((M, N)) < 0.05] = np.nan
        x[7, :] = np.nan  # an all-NaN row
        x[:, 0] = np.where(np.arange(M) % 3 == 0, np.nan, x[:, 0])  # at index 0
        o = [t.out(M, np.int32), t.out(M, np.int32), t.out(N, np.int32), t.out(N, np.int32)]
        k((1,), o_amax1=o[0], o_amin1=o[1], o_amax0=o[2], o_amin0=o[3], x=t.inp(x), M=M, N=N)
        t.exact("%s argmax axis=1 (NaN)" % var, o[0], x.argmax(1))
        t.exact("%s argmin axis=1 (NaN)" % var, o[1], x.argmin(1))
        t.exact("%s argmax axis=0 (NaN)" % var, o[2], x.argmax(0))
        t.exact("%s argmin axis=0 (NaN)" % var, o[3], x.argmin(0))


@test("reduce", "i32 sum/max/min/argmax")
def t_red_i32(t):
    k = t.k("red_i32")
    M, N = 37, 50
    x = t.rng.integers(-1000, 1001, (M, N)).astype(np.int32)
    o = t.outs(4, M, np.int32)
    tot = t.out(1, np.int32, "zero")
    k(
        (cdiv(M, 16),),
        o_sum=o[0],
        o_max=o[1],
        o_min=o[2],
        o_amax=o[3],
        o_tot=tot,
        x=t.inp(x),
        M=M,
        N=N,
    )
    t.exact("sum axis=1", o[0], x.sum(1))
    t.exact("max axis=1", o[1], x.max(1))
    t.exact("min axis=1", o[2], x.min(1))
    t.exact("argmax axis=1 (first on ties)", o[3], x.argmax(1))
    t.exact("sum axis=None (+atomic)", tot, [x.sum()])


@test("reduce", "1-D looped sum/max/argmax")
def t_red_1d(t):
    k = t.k("red_1d")
    for n in t.sizes:
        x = t.rng.uniform(0, 1, n).astype(np.float32)
        o, oi = t.out(2, np.float32), t.out(1, np.int32)
        k((1,), o=o, oi=oi, x=t.inp(x), n=n)
        og = t.get(o)
        t.close("n=%d sum" % n, og[:1], [x.astype(np.float64).sum()], 1e-5)
        t.exact("n=%d max" % n, og[1:], [x.max()])
        t.exact("n=%d argmax" % n, oi, [int(np.argmax(x))])
