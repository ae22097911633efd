"""What every GPU check uses: the test registry, a kernel launched through
the PTX + JSON ABI alone (Kernel), the per-test context (Ctx: poisoned
outputs in guard zones, the comparisons that record checks) and the numeric
helpers (bfloat16 rounding, ulps).

numpy and CuPy are imported on first use (np, cp below), so that the
manifest and the lists (check.py --list-kernels, --list-tests) need neither.
"""
import importlib
import json
import math
import os


class LazyModule:
    """A module imported when one of its attributes is first read."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        return getattr(importlib.import_module(self._name), attr)


np = LazyModule("numpy")
cp = LazyModule("cupy")


def cdiv(a, b):
    return (a + b - 1) // b


# --------------------------------------------------------------------------
# Test registry (order is fixed: the worker resumes by index, and the index
# seeds the test's inputs). Importing the package `checks` registers every
# test (checks/__init__.py).
# --------------------------------------------------------------------------
TESTS = []


def test(group, name=None):
    def deco(fn):
        TESTS.append((group, name or fn.__name__, fn))
        return fn

    return deco


class TestFailure(Exception):
    pass


# fmt: off
SCALAR_NP = {"i1": "bool_", "i8": "int8", "u8": "uint8", "i16": "int16",
             "u16": "uint16", "i32": "int32", "u32": "uint32", "i64": "int64",
             "u64": "uint64", "f16": "float16", "f32": "float32",
             "f64": "float64"}
# fmt: on


def ptr_dtypes():
    """{element type: the numpy dtypes of the arrays a pointer to it takes}."""
    types = {ty: (getattr(np, name),) for ty, name in SCALAR_NP.items()}
    types["i1"] = (np.bool_, np.int8, np.uint8)
    types["bf16"] = (np.uint16,)
    types["f8e4m3"] = types["f8e5m2"] = (np.uint8,)  # fp8 as raw bits
    return types


def cubin_dir():
    """Where TILEC_GPU_LOAD=cubin keeps the cubins (TILEC_CUBIN_DIR)."""
    import tempfile

    return os.environ.get("TILEC_CUBIN_DIR", os.path.join(tempfile.gettempdir(), "tilec-cubins"))


def cubin_arch(target):
    """The SASS architecture for PTX of `target` on this GPU: the target
    itself when arch-specific (sm_90a), else the GPU's own (sm_80 PTX runs
    on an sm_90 GPU; an sm_80 cubin does not)."""
    if target.endswith("a"):
        return target
    return "sm_" + cp.cuda.Device().compute_capability


def load_path(base, ptx):
    """What a kernel is loaded from: its PTX (the driver compiles it), or,
    with TILEC_GPU_LOAD=cubin, a cubin that the toolkit's ptxas (TILEC_PTXAS,
    else `ptxas` on the PATH) makes of it, as an ahead-of-time user does.
    The two compilers have disagreed on our PTX before (RESULTS.md)."""
    if os.environ.get("TILEC_GPU_LOAD", "ptx") != "cubin":
        return base + ".ptx"
    import re
    import subprocess

    target = re.search(r"^\.target\s+(\w+)", ptx, re.M)
    if not target:
        raise TestFailure("%s.ptx has no .target line" % base)
    out = os.path.join(cubin_dir(), os.path.basename(base) + ".cubin")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(base + ".ptx"):
        return out  # made by run-gpu-suite.sh, many at once
    ptxas = os.environ.get("TILEC_PTXAS", "ptxas")
    done = subprocess.run(
        [ptxas, "-arch=" + cubin_arch(target.group(1)), base + ".ptx", "-o", out],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise TestFailure("%s: %s failed: %s" % (base, ptxas, done.stderr[-2000:]))
    return out


class Kernel:
    """One compiled kernel, launched through the PTX + JSON ABI only."""

    def __init__(self, kdir, variant):
        base = os.path.join(kdir, variant)
        with open(base + ".json") as f:
            self.meta = json.load(f)
        m = self.meta
        self.name = m["kernel"]
        self.threads = 32 * int(m["num_warps"])
        if int(m.get("threads_per_block", self.threads)) != self.threads:
            raise TestFailure(
                "%s.json: threads_per_block %s != 32*num_warps"
                % (variant, m.get("threads_per_block"))
            )
        self.shared = int(m.get("shared_bytes", 0))
        with open(base + ".ptx") as f:
            ptx = f.read()
        self.ptx = ptx
        if ".visible .entry %s(" % self.name not in ptx:
            raise TestFailure("%s.ptx has no '.visible .entry %s('" % (variant, self.name))
        self.mod = cp.RawModule(path=load_path(base, ptx))
        self.fn = self.mod.get_function(self.name)
        if self.shared > 48 * 1024:
            self.fn.max_dynamic_shared_size_bytes = self.shared

    def __call__(self, grid, **kw):
        self.launch(grid, None, **kw)
        cp.cuda.runtime.deviceSynchronize()

    def launch(self, grid, stream, **kw):
        """Launches on `stream` (None: the current one) without waiting."""
        args = []
        pd = ptr_dtypes()
        for p in self.meta["params"]:
            name, ty = p["name"], p["type"]
            if name not in kw:
                raise TestFailure(
                    "kernel %s: no value for parameter '%s' (%s)" % (self.name, name, ty)
                )
            v = kw.pop(name)
            if ty.startswith("*"):
                if not isinstance(v, cp.ndarray):
                    raise TestFailure("parameter %s is %s: pass an array" % (name, ty))
                if v.dtype.type not in pd[ty[1:]]:
                    raise TestFailure(
                        "parameter %s is %s but the array is %s" % (name, ty, v.dtype)
                    )
                args.append(v)
            else:
                if ty not in SCALAR_NP:
                    raise TestFailure("no numpy scalar for %s (%s)" % (name, ty))
                args.append(getattr(np, SCALAR_NP[ty])(v))
        if kw:
            raise TestFailure(
                "kernel %s has no parameter(s) %s (params: %s)"
                % (self.name, sorted(kw), [p["name"] for p in self.meta["params"]])
            )
        grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
        if min(grid) < 1:
            raise TestFailure("empty grid %s" % (grid,))
        if stream is None:
            self.fn(grid, (self.threads, 1, 1), tuple(args), shared_mem=self.shared)
        else:  # RawKernel launches on the current stream
            with stream:
                self.fn(grid, (self.threads, 1, 1), tuple(args), shared_mem=self.shared)


# --------------------------------------------------------------------------
# Numeric helpers
# --------------------------------------------------------------------------
FMT = {  # mantissa bits, min normal exponent
    "f16": (10, -14),
    "bf16": (7, -126),
    "f32": (23, -126),
    "f64": (52, -1022),
}


def bf16_from_f64(x):
    """Round-to-nearest-even from float64 to bfloat16 bits (uint16)."""
    b = np.ascontiguousarray(x, dtype=np.float64).view(np.uint64)
    s = np.uint64(45)
    r = ((b + np.uint64((1 << 44) - 1) + ((b >> s) & np.uint64(1))) >> s) << s
    f = r.view(np.float64).astype(np.float32)
    return (f.view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def bf16_to_f64(u):
    u = np.ascontiguousarray(u, dtype=np.uint16)
    return (u.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)


def to_f64(a, fmt=None):
    a = np.asarray(a)
    if fmt == "bf16" or (fmt is None and a.dtype == np.uint16):
        return bf16_to_f64(a)
    return a.astype(np.float64)


def ulp_of(ref, fmt):
    mb, emin = FMT[fmt]
    a = np.abs(np.asarray(ref, np.float64))
    e = np.floor(np.log2(np.maximum(a, 2.0**emin)))
    return 2.0 ** (e - mb)


def loguniform(rng, lo, hi, n):
    return np.exp(rng.uniform(math.log(lo), math.log(hi), n))


def check_unary_f32(t, variant, samp, ref, bound):
    """out = f(x) on f32 inputs from samp(rng, n), one program per 1024 elements,
    against the float64 ref: exact where bound is None, else within bound ulp
    (plus 0.5 for the reference's own rounding)."""
    k = t.k(variant)
    for n in t.sizes:
        x = samp(t.rng, n).astype(np.float32)
        out = t.out(n, np.float32)
        k((cdiv(n, 1024),), out=out, x=t.inp(x), n=n)
        r = ref(x.astype(np.float64))
        if bound is None:
            t.exact("n=%d exact" % n, out, r.astype(np.float32))
        else:
            t.close("n=%d" % n, out, r, 1e-6, ulp=max(bound, 0.5) + 0.5)


def erf64(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def fmt_idx(i, shape):
    if len(shape) <= 1:
        return str(int(i))
    return str(tuple(int(v) for v in np.unravel_index(int(i), shape)))


# --------------------------------------------------------------------------
# Per-test context
# --------------------------------------------------------------------------
class Ctx:
    GUARD = 256

    def __init__(self, kdir, rng, small, group, name):
        self.kdir, self.rng, self.small = kdir, rng, small
        self.group, self.name = group, name
        self.checks = []
        self.buffers = []  # (base, guard, n) of every output, for finish()
        self.guard = 0 if small else self.GUARD
        self.sizes = [4097] if small else [1, 1000, 4097, 70001]

    # ---- kernels and buffers -------------------------------------------
    def k(self, variant):
        return Kernel(self.kdir, variant)

    def randn(self, shape):
        """float32 inputs drawn from the standard normal distribution."""
        return self.rng.standard_normal(shape).astype(np.float32)

    def inp(self, a):
        return cp.asarray(np.ascontiguousarray(a))

    def out(self, shape, dtype, fill="poison"):
        """A poisoned output (0xFF bytes: NaN for floats) inside guard zones."""
        dtype = np.dtype(dtype)
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        n = int(np.prod(shape))
        g = self.guard
        base = cp.empty(n + 2 * g, dtype)
        base.view(cp.uint8).fill(255)
        view = base[g : g + n]
        if fill == "zero":
            view.fill(0)
        self.buffers.append((base, g, n))
        return view.reshape(shape)

    def outs(self, count, shape, dtype):
        """`count` outputs as out() makes them."""
        return [self.out(shape, dtype) for _ in range(count)]

    def get(self, a):
        return cp.asnumpy(a)

    def finish(self):
        """Guard zones must still hold the poison."""
        bad = []
        for base, g, n in self.buffers:
            if g == 0:
                continue
            raw = cp.asnumpy(base).view(np.uint8)
            isz = base.dtype.itemsize
            lo, hi = raw[: g * isz], raw[(g + n) * isz :]
            if (lo != 255).any() or (hi != 255).any():
                nlo = int(np.count_nonzero((lo.reshape(g, isz) != 255).any(1)))
                nhi = int(np.count_nonzero((hi.reshape(g, isz) != 255).any(1)))
                bad.append(
                    "buffer of %d %s: %d elements written before it, "
                    "%d after it" % (n, base.dtype, nlo, nhi)
                )
        if bad:
            self.record("no out-of-bounds writes (guard zones)", False, "; ".join(bad))

    # ---- checks ---------------------------------------------------------
    def record(self, what, ok, detail=""):
        self.checks.append({"check": what, "ok": bool(ok), "detail": detail})
        full = "%s/%s: %s" % (self.group, self.name, what)
        print("%s  %-58s %s" % ("PASS" if ok else "FAIL", full, detail), flush=True)
        return ok

    def close(self, what, got, ref, tol, fmt="f32", ulp=None, where=None):
        """Relative error ||got-ref||/||ref|| <= tol on the float64 reference;
        every element where ref is finite must be written (no NaN left);
        infinities must match; optionally a max-ulp bound per element."""
        if isinstance(got, cp.ndarray):
            got = cp.asnumpy(got)
        g = to_f64(got, fmt)
        r = np.broadcast_to(np.asarray(ref, np.float64), g.shape)
        shape = g.shape
        if where is not None:
            where = np.broadcast_to(where, shape)
            idx = np.flatnonzero(where)
            g, r = g.ravel()[idx], r.ravel()[idx]
        else:
            idx = np.arange(g.size)
            g, r = g.ravel(), r.ravel()
        fin = np.isfinite(r)
        nanbad = np.isnan(g) & fin
        infbad = ~fin & ~np.isnan(r) & (g != r)
        d = np.where(fin & ~nanbad, g - r, 0.0)
        nr = float(np.linalg.norm(r[fin])) if fin.any() else 0.0
        nd = float(np.linalg.norm(d))
        rel = nd / nr if nr > 0 else nd
        ok = not nanbad.any() and not infbad.any() and rel <= tol
        detail = "rel=%.2e (tol %.0e)" % (rel, tol)
        if ulp is not None and g.size:
            u = np.abs(d) / ulp_of(r, fmt)
            mu = float(u.max())
            detail += " max_ulp=%.2f (<= %g)" % (mu, ulp)
            if mu > ulp:
                ok = False
                j = int(np.argmax(u))
                detail += " worst %s: got %r want %r" % (
                    fmt_idx(idx[j], shape),
                    float(g[j]),
                    float(r[j]),
                )
        if nanbad.any():
            bad = idx[np.flatnonzero(nanbad)]
            detail += " UNWRITTEN/NaN %d of %d, first at %s" % (
                len(bad),
                len(idx),
                ", ".join(fmt_idx(i, shape) for i in bad[:5]),
            )
        if infbad.any():
            bad = np.flatnonzero(infbad)
            detail += " inf mismatch %d, first %s: got %r want %r" % (
                len(bad),
                fmt_idx(idx[bad[0]], shape),
                float(g[bad[0]]),
                float(r[bad[0]]),
            )
        if not ok and rel > tol and d.size:
            j = int(np.argmax(np.abs(d)))
            nwrong = int(
                np.count_nonzero(np.abs(d) > max(tol, 1e-7) * np.maximum(np.abs(r), 1e-30))
            )
            detail += " worst %s: got %r want %r; %d elements off" % (
                fmt_idx(idx[j], shape),
                float(g[j]),
                float(r[j]),
                nwrong,
            )
        return self.record(what, ok, detail)

    def exact(self, what, got, ref, where=None):
        """Bit-exact equality (integers, or floats compared by value)."""
        if isinstance(got, cp.ndarray):
            got = cp.asnumpy(got)
        got = np.asarray(got)
        ref = np.broadcast_to(np.asarray(ref), got.shape)
        shape = got.shape
        if where is not None:
            where = np.broadcast_to(where, shape)
            idx = np.flatnonzero(where)
        else:
            idx = np.arange(got.size)
        g, r = got.ravel()[idx], ref.ravel()[idx]
        if g.dtype.kind == "f":
            neq = ~((g == r) | (np.isnan(g) & np.isnan(r)))
        else:
            neq = g != r
        bad = np.flatnonzero(neq)
        if len(bad) == 0:
            return self.record(what, True, "%d elements exact" % len(idx))
        ex = ", ".join("%s: got %s want %s" % (fmt_idx(idx[b], shape), g[b], r[b]) for b in bad[:4])
        return self.record(what, False, "%d of %d wrong; %s" % (len(bad), len(idx), ex))

    def bits(self, what, got, ref):
        """Bit-pattern equality (for casts), any dtype of the same size."""
        if isinstance(got, cp.ndarray):
            got = cp.asnumpy(got)
        got, ref = np.asarray(got), np.asarray(ref)
        u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
        gb = got.view(u[got.dtype.itemsize])
        rb = np.ascontiguousarray(ref).view(u[ref.dtype.itemsize])
        bad = np.flatnonzero(gb != rb)
        if len(bad) == 0:
            return self.record(what, True, "%d elements bit-exact" % got.size)
        ex = ", ".join(
            "[%d]: got %s want %s" % (b, got.ravel()[b], ref.ravel()[b]) for b in bad[:4]
        )
        return self.record(what, False, "%d of %d wrong; %s" % (len(bad), got.size, ex))

    def untouched(self, what, got, where):
        """Elements selected by `where` must still hold the 0xFF poison."""
        if isinstance(got, cp.ndarray):
            got = cp.asnumpy(got)
        got = np.ascontiguousarray(got)
        raw = got.view(np.uint8).reshape(got.size, got.dtype.itemsize)
        pois = (raw == 255).all(axis=1).reshape(got.shape)
        where = np.broadcast_to(where, got.shape)
        bad = np.flatnonzero(where & ~pois)
        if len(bad) == 0:
            return self.record(
                what, True, "%d masked-off elements untouched" % int(np.count_nonzero(where))
            )
        return self.record(
            what,
            False,
            "%d masked-off elements written, first at %s"
            % (len(bad), ", ".join(fmt_idx(b, got.shape) for b in bad[:5])),
        )
