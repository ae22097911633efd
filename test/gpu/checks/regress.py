"""Kernels that once miscompiled (test/gpu/regress.tile)."""
from checks.harness import cdiv, np, test


@test("regress", "integer min/max of a negation (ptxas VIMNMX3)")
def t_min_of_negation(t):
    n = 2808
    x = t.rng.integers(-100, 100, n).astype(np.int32)
    w = t.rng.integers(-100, 100, n).astype(np.int32)
    y = t.out(n, np.int32)
    t.k("min_of_negation")((cdiv(n, 1024),), y=y, x=t.inp(x), w=t.inp(w), n=n)
    t.exact("min(0, min(w & 15, -x))", y, np.minimum(0, np.minimum(w & 15, -x)))
    m, cols = 24, 117
    idx = np.arange(m * cols)
    y2, z2 = t.out(m * cols, np.int32), t.out(m * cols, np.uint32)
    x2 = t.rng.integers(-100, 100, m * cols).astype(np.int32)
    w2 = t.rng.integers(-100, 100, m * cols).astype(np.int32)
    t.k("minmax_2d")((1, 2), y=y2, z=z2, x=t.inp(x2), w=t.inp(w2), m=m, n=cols)
    a = np.where(idx % 5 != 0, w2, 0) & 15
    b = np.where(idx % 3 != 0, x2, 3)
    t.exact("32x128, 8 warps: max(-7, min(a, -b))", y2, np.maximum(-7, np.minimum(a, -b)))
    t.exact("unsigned max(b, -a)", z2, np.maximum(b.astype(np.uint32), (-a).astype(np.uint32)))
