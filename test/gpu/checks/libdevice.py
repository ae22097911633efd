"""Math functions of tl.extra.cuda.libdevice / tl.math on f32 against float64,
within the ulp bounds of docs/target.md (test/gpu/libdevice.tile)."""
from checks.harness import cdiv, check_unary_f32, loguniform, np, test
from checks.manifest import LIBDEVICE_BINARY_F32, LIBDEVICE_F32


def _u(lo, hi):
    return lambda rng, n: rng.uniform(lo, hi, n)


def _quarters(rng, n):
    """Multiples of 1/4 in [-100, 100): ties of round/rint included."""
    return rng.integers(-400, 400, n) / 4


def _round_away(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


# name: (input sampler, float64 reference, documented max ulp or None=exact)
LIBDEVICE = {
    "log1p": (_u(-0.99, 100), lambda v: np.log1p(v), 1),
    "expm1": (_u(-10, 10), lambda v: np.expm1(v), 1),
    "log10": (lambda rng, n: loguniform(rng, 1e-3, 1e3, n), lambda v: np.log10(v), 2),
    "exp10": (_u(-30, 30), lambda v: np.power(10.0, v), 4),
    "asin": (_u(-1, 1), lambda v: np.arcsin(v), 2),
    "acos": (_u(-1, 1), lambda v: np.arccos(v), 2),
    "atan": (_u(-100, 100), lambda v: np.arctan(v), 2),
    "sinh": (_u(-20, 20), lambda v: np.sinh(v), 3),
    "cosh": (_u(-20, 20), lambda v: np.cosh(v), 2),
    "tan": (_u(-1.5, 1.5), lambda v: np.tan(v), 4),
    "cbrt": (_u(-1000, 1000), lambda v: np.cbrt(v), 1),
    "trunc": (_quarters, lambda v: np.trunc(v), None),
    "round": (_quarters, _round_away, None),
    "rint": (_quarters, lambda v: np.rint(v), None),
    # IEEE-rounded: the correctly rounded f32 of the float64 root, bit for bit.
    "sqrt_rn": (lambda rng, n: loguniform(rng, 1e-30, 1e30, n), lambda v: np.sqrt(v), None),
}


for _f in LIBDEVICE_F32:
    test("libdevice", _f + " f32")(lambda t, f=_f: check_unary_f32(t, "l_" + f, *LIBDEVICE[f]))


# name: (x sampler, y sampler, float64 reference, documented max ulp)
LIBDEVICE_BINARY = {
    "pow": (_u(0.01, 10), _u(-8, 8), lambda a, b: np.power(a, b), 4),
    "atan2": (_u(-100, 100), _u(-100, 100), lambda a, b: np.arctan2(a, b), 3),
    "fmod": (_u(-1000, 1000), _u(-10, 10), lambda a, b: np.fmod(a, b), 0),
}


def make_binary_test(f):
    sx, sy, ref, bound = LIBDEVICE_BINARY[f]

    def fn(t):
        k = t.k("l_" + f)
        for n in t.sizes:
            x, y = sx(t.rng, n).astype(np.float32), sy(t.rng, n).astype(np.float32)
            out = t.out(n, np.float32)
            k((cdiv(n, 1024),), out=out, x=t.inp(x), y=t.inp(y), n=n)
            r = ref(x.astype(np.float64), y.astype(np.float64))
            t.close("n=%d" % n, out, r, 1e-6, ulp=bound + 0.5)

    return fn


for _f in LIBDEVICE_BINARY_F32:
    test("libdevice", _f + " f32")(make_binary_test(_f))


@test("libdevice", "umulhi i32 (unsigned high half)")
def t_umulhi(t):
    k = t.k("l_umulhi")
    for n in t.sizes:
        x = t.rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
        y = t.rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
        out = t.out(n, np.int32)
        k((cdiv(n, 1024),), out=out, x=t.inp(x), y=t.inp(y), n=n)
        ux, uy = x.view(np.uint32).astype(object), y.view(np.uint32).astype(object)
        ref = np.array([(a * b) >> 32 for a, b in zip(ux, uy)], dtype=np.uint64)
        t.exact("n=%d" % n, t.get(out).view(np.uint32), ref)
