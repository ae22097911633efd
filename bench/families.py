"""The benchmark's main run, in one process on one GPU: per kernel family
and size, our kernels (from the bundle; correctness against a float64
reference first, the output poisoned with NaN, then the median time) and
the peers (torch / cuBLAS / cuDNN, and Triton through peers.py), timed the
same way. Each row goes to bench.json as it is measured (run_bench.py).
The same-source families (attention, mmsweep, transpose, layernorm) are
same_source.py's.
"""
import json
import subprocess
import sys
import time
import traceback

from ours import HERE, Ours, conv2d_args, load_manifest
from same_source import SameSourceFamilies
from variants import (
    CONV_SHAPES,
    GELU_SIZES,
    MATMUL_F16,
    MATMUL_F32,
    SOFTMAX_SIZES,
    TOL,
    conv_shape,
    gelu_shape,
    gelu_variant,
    mm_shape,
    softmax_variant,
)


def faster(best, row):
    """The faster of two measured rows (`best` may be None; a row without a
    time never wins)."""
    if row is None or "ms" not in row:
        return best
    return row if best is None or row["ms"] < best["ms"] else best


class Bench(SameSourceFamilies):
    """One method per family (run_bench.py's FAMILIES and SAME_SOURCE, the
    latter in same_source.py); `run` calls them."""

    def __init__(self, args, res):
        self.args, self.res = args, res
        self.T0 = time.time()
        import torch
        import cupy as cp
        import triton
        from triton.testing import do_bench

        sys.path.insert(0, args.bundle)
        sys.path.insert(0, HERE)
        import peers

        self.torch, self.cp, self.triton, self._do_bench, self.peers = (
            torch,
            cp,
            triton,
            do_bench,
            peers,
        )
        self.man = {} if args.peers_only else load_manifest(args.bundle)
        self.kern = {}
        torch.manual_seed(0)
        p = torch.cuda.get_device_properties(0)
        env = res.R["env"]
        env.update(
            device=torch.cuda.get_device_name(),
            sm_count=p.multi_processor_count,
            l2_bytes=getattr(p, "L2_cache_size", None),
            torch=torch.__version__,
            triton=triton.__version__,
            cupy=cp.__version__,
            cuda_runtime=cp.cuda.runtime.runtimeGetVersion(),
            cuda_driver=cp.cuda.runtime.driverGetVersion(),
            cudnn=torch.backends.cudnn.version(),
        )
        try:
            env["nvidia_smi"] = subprocess.run(
                [
                    "nvidia-smi",
                    "--query-gpu=name,driver_version,memory.total,clocks.sm,"
                    "clocks.max.sm,clocks.mem,power.limit,temperature.gpu",
                    "--format=csv,noheader",
                ],
                capture_output=True,
                text=True,
                timeout=20,
            ).stdout.strip()
        except Exception as ex:  # noqa: BLE001
            env["nvidia_smi"] = str(ex)
        res.save()
        print("env: " + json.dumps(env), flush=True)

    # ---------------------------------------------------------- helpers
    def elapsed(self):
        return time.time() - self.T0

    def ours(self, variant):
        if variant in self.kern:
            return self.kern[variant]
        v = self.man.get(variant)
        if v is None or v.get("rc", 0) != 0:
            raise RuntimeError("variant %s was not compiled" % variant)
        if self.args.preflight_ok is not None and not self.args.preflight_ok.get(variant, False):
            raise RuntimeError("variant %s failed the preflight check" % variant)
        k = Ours(self.cp, self.args.bundle, v)
        self.kern[variant] = k
        return k

    def event_ms(self, fn, n=1):
        torch = self.torch
        ts = []
        for _ in range(n):
            s = torch.cuda.Event(enable_timing=True)
            e = torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            ts.append(s.elapsed_time(e))
        ts.sort()
        return ts[len(ts) // 2]

    def timeit(self, fn, est_ms):
        """Median ms. do_bench (L2 flushed before each rep) unless one launch
        takes > 40 ms: then L2 does not matter, a few event-timed runs do."""
        if est_ms > 40:
            n = 5 if est_ms < 300 else (3 if est_ms < 1500 else 1)
            return self.event_ms(fn, n), "events x%d" % n
        return self._do_bench(fn, warmup=25, rep=100, return_mode="median"), "do_bench"

    def relerr(self, out, ref):
        torch = self.torch
        o = out.double()
        nan = int(torch.isnan(o).sum().item())
        o = torch.nan_to_num(o, nan=0.0)
        return ((o - ref).norm() / ref.norm()).item(), nan

    def measure(
        self,
        kernel,
        shape,
        impl,
        fn,
        ref,
        tol,
        flops=None,
        nbytes=None,
        poisoned=None,
        view=None,
        extra=None,
        max_ms=None,
    ):
        """fn() runs the implementation and returns its output tensor.
        Correctness first (the output `poisoned` with NaN where we own it),
        then time."""
        torch = self.torch
        r = dict(kernel=kernel, shape=shape, impl=impl)
        if extra:
            r.update(extra)
        try:
            if poisoned is not None:
                poisoned.fill_(float("nan"))
            out = fn()
            torch.cuda.synchronize()
            o = view(out) if view else out
            r["relerr"], r["nan"] = self.relerr(o, ref)
            r["ok"] = r["nan"] == 0 and r["relerr"] < tol
            del o, out
            est = self.event_ms(fn)
            r["est_ms"] = est
            if max_ms is not None and est > max_ms:
                r["ms"] = est
                r["timing"] = "single launch (over %.0f ms)" % max_ms
            else:
                r["ms"], r["timing"] = self.timeit(fn, est)
            if flops:
                r["tflops"] = flops / r["ms"] / 1e9
            if nbytes:
                r["gbs"] = nbytes / r["ms"] / 1e6
        except Exception as ex:  # noqa: BLE001
            r["ok"] = False
            r["error"] = "%s: %s" % (type(ex).__name__, str(ex)[:400])
            traceback.print_exc()
            try:
                torch.cuda.synchronize()
            except Exception as ex2:  # noqa: BLE001
                r["error"] += " | context: %s" % str(ex2)[:200]
        self.res.row(**r)
        return r

    def ours_extra(self, variant):
        v = self.man.get(variant, {})
        k = self.kern.get(variant)
        return {
            "variant": variant,
            "compile_s": v.get("compile_s"),
            "tilec_cmd": v.get("tilec_cmd"),
            "ptxas": v.get("ptxas"),
            "regs": getattr(k, "regs", None),
            "local_bytes": getattr(k, "local", None),
            "shared_bytes": getattr(k, "shared", None),
            "ld_global_v4": v.get("ld_global_v4"),
            "st_global_v4": v.get("st_global_v4"),
        }

    def measure_ours(self, kernel, shape, impl, var, bind, out, ref, tol, **kw):
        """Our variant `var`: bind(kernel) returns its launcher, which writes
        `out` (poisoned with NaN before the check). A variant that cannot be
        loaded or bound gets an error row. Returns measure's row, or None."""
        try:
            launch = bind(self.ours(var))
        except Exception as ex:  # noqa: BLE001
            self.res.row(
                kernel=kernel, shape=shape, impl=impl, ok=False, error=str(ex)[:300], variant=var
            )
            return None
        return self.measure(
            kernel,
            shape,
            impl,
            lambda: (launch(), out)[1],
            ref,
            tol,
            poisoned=out,
            extra=self.ours_extra(var),
            **kw
        )

    def triton_first_call(self, name, fn):
        t0 = time.perf_counter()
        fn()
        self.torch.cuda.synchronize()
        self.res.R.setdefault("triton_first_call_s", {})[name] = time.perf_counter() - t0

    # ---------------------------------------------------------- families
    def copy(self):
        torch = self.torch
        x = torch.empty(1 << 28, device="cuda", dtype=torch.float32).uniform_()
        y = torch.empty_like(x)
        ms = self._do_bench(lambda: y.copy_(x), warmup=25, rep=200, return_mode="median")
        self.res.row(
            kernel="copy",
            shape="2^28 f32",
            impl="torch",
            ms=ms,
            gbs=2 * x.numel() * 4 / ms / 1e6,
            ok=True,
        )
        self.res.R["copy_gbs"] = 2 * x.numel() * 4 / ms / 1e6

    def softmax(self):
        P = self.peers
        randn = self.torch.randn
        self.triton_first_call("softmax", lambda: P.tsoftmax(randn(64, 1000, device="cuda")))
        for M, N in SOFTMAX_SIZES:
            self.softmax_size(M, N)

    def softmax_size(self, M, N):
        torch, P = self.torch, self.peers
        shape, tol = "%dx%d f32" % (M, N), TOL["f32"]
        x = torch.randn(M, N, device="cuda")
        ref = torch.softmax(x.double(), dim=1)
        nb = 2 * M * N * 4
        y = torch.empty_like(x)

        def bind(k):
            return k.bind(
                (M,), out=y, inp=x, in_stride=x.stride(0), out_stride=y.stride(0), n_cols=N
            )

        if not self.args.peers_only:
            var = softmax_variant(N)
            self.measure_ours("softmax", shape, "tilec", var, bind, y, ref, tol, nbytes=nb)
        self.measure(
            "softmax", shape, "torch", lambda: torch.softmax(x, dim=1), ref, tol, nbytes=nb
        )
        y2 = torch.empty_like(x)
        triton = lambda: P.tsoftmax(x, y2)  # noqa: E731
        self.measure("softmax", shape, "triton", triton, ref, tol, nbytes=nb, poisoned=y2)

    def gelu(self):
        P = self.peers
        randn = self.torch.randn
        self.triton_first_call("gelu", lambda: P.tgelu(randn(1000, device="cuda")))
        for n in GELU_SIZES:
            self.gelu_size(n)

    def gelu_size(self, n):
        torch, P = self.torch, self.peers
        F = torch.nn.functional
        shape, tol = gelu_shape(n), TOL["f32"]
        x = torch.randn(n, device="cuda")
        ref = F.gelu(x.double(), approximate="tanh")
        nb = 2 * n * 4
        y = torch.empty_like(x)
        if not self.args.peers_only:
            bind = lambda k: k.bind(((n + 1023) // 1024,), out=y, inp=x, n=n)  # noqa: E731
            self.measure_ours("gelu", shape, "tilec", gelu_variant(n), bind, y, ref, tol, nbytes=nb)
        torch_gelu = lambda: F.gelu(x, approximate="tanh")  # noqa: E731
        self.measure("gelu", shape, "torch", torch_gelu, ref, tol, nbytes=nb)
        y2 = torch.empty_like(x)
        self.measure(
            "gelu", shape, "triton", lambda: P.tgelu(x, y2), ref, tol, nbytes=nb, poisoned=y2
        )

    def best_row(self, best, impl, **extra):
        """Writes again the fastest row `best` (if any) as the row of `impl`."""
        if best is not None:
            row = dict(best)
            row.update(extra)
            row["impl"] = impl
            self.res.row(**row)

    def conv2d(self):
        self.torch.backends.cudnn.benchmark = True
        ours_vars = sorted(v for v in self.man if v.startswith("conv2d_"))
        first = True
        for NB, H, C, K in CONV_SHAPES:
            first = self.conv2d_shape(NB, H, C, K, ours_vars, first)

    def conv2d_shape(self, NB, H, C, K, ours_vars, first):
        """Ours (each variant, then the fastest as "tilec"), cuDNN, Triton
        (each config, then the fastest). `first`: Triton's first conv2d call
        is still to be timed; returns whether it still is."""
        torch, P = self.torch, self.peers
        F = torch.nn.functional
        shape = conv_shape(NB, H, C, K)
        x = torch.randn(NB, C, H, H, device="cuda", dtype=torch.float16)
        w = torch.randn(K, C, 3, 3, device="cuda", dtype=torch.float16)
        try:
            ref = F.conv2d(x.double(), w.double(), padding=1)
        except Exception:  # noqa: BLE001
            ref = F.conv2d(x.float(), w.float(), padding=1).double()
        fl = 2 * NB * H * H * K * C * 9
        xn = x.permute(0, 2, 3, 1).contiguous()
        wn = w.permute(0, 2, 3, 1).contiguous()

        def nchw(o):
            return o.permute(0, 3, 1, 2)

        def bind(k):
            d = k.v["defines"]
            grid = (-(-NB * H * H // d["BLOCK_M"]), -(-K // d["BLOCK_N"]))
            return k.bind(grid, out=y, x=xn, w=wn, **conv2d_args(NB, H, C, K))

        y = torch.empty((NB, H, H, K), device="cuda", dtype=torch.float16)
        best = None
        for var in ours_vars:
            r = self.measure_ours(
                "conv2d",
                shape,
                "tilec:" + var,
                var,
                bind,
                y,
                ref,
                TOL["f16"],
                flops=fl,
                view=nchw,
                max_ms=3000,
            )
            best = faster(best, r)
        self.best_row(best, "tilec")
        xcl = x.to(memory_format=torch.channels_last)
        wcl = w.to(memory_format=torch.channels_last)
        self.measure(
            "conv2d",
            shape,
            "cudnn-nhwc",
            lambda: F.conv2d(xcl, wcl, padding=1),
            ref,
            TOL["f16"],
            flops=fl,
        )
        tbest = None
        y2 = torch.empty((NB, H, H, K), device="cuda", dtype=torch.float16)
        for cfg in P.CONV_CONFIGS:
            if cfg[2] > C:
                continue
            if first:
                self.triton_first_call("conv2d", lambda: P.tconv(xn, wn, *cfg, y=y2))
                first = False
            r = self.measure(
                "conv2d",
                shape,
                "triton%s" % (cfg,),
                lambda: P.tconv(xn, wn, *cfg, y=y2),
                ref,
                TOL["f16"],
                flops=fl,
                view=nchw,
                poisoned=y2,
            )
            tbest = faster(tbest, r)
        if tbest is not None:
            self.best_row(tbest, "triton", config=tbest["impl"][6:])
        return first

    def matmul(self):
        torch, P = self.torch, self.peers
        a = torch.randn(512, 512, device="cuda", dtype=torch.float16)
        self.triton_first_call(
            "matmul",
            lambda: P.tmatmul(
                a, a, kern=P.matmul_kernel, BM=128, BN=128, BK=64, G=8, num_warps=8, num_stages=3
            ),
        )
        for dt, sizes in [("f16", MATMUL_F16), ("f32", MATMUL_F32)]:
            vars_ = sorted(v for v in self.man if v.startswith("matmul_%s_" % dt))
            chosen = None  # after the two smallest sizes, the faster config only
            rate = {}  # variant -> TFLOP/s measured (to predict big sizes)
            for i, (M, N, K) in enumerate(sizes):
                picked = self.matmul_size(
                    dt, M, N, K, vars_ if chosen is None else [chosen], rate, choose=i == 1
                )
                chosen = picked or chosen
                torch.cuda.empty_cache()

    def matmul_size(self, dt, M, N, K, candidates, rate, choose):
        """Ours (each candidate variant that the budget allows, then the
        fastest as "tilec"; the experimental mmx_ variants at 4096), cuBLAS,
        Triton. `rate` collects each variant's TFLOP/s; with `choose`, returns
        the fastest variant so far (the only candidate of the larger sizes)."""
        torch, P = self.torch, self.peers
        tdt = torch.float16 if dt == "f16" else torch.float32
        shape = mm_shape(M, N, K, "tf32" if dt == "f32" else "f16")
        a = torch.randn(M, K, device="cuda", dtype=tdt)
        b = torch.randn(K, N, device="cuda", dtype=tdt)
        ref = a.double() @ b.double()
        fl = 2 * M * N * K
        c = torch.empty((M, N), device="cuda", dtype=tdt)
        tol = TOL["f16"] if dt == "f16" else TOL["tf32"]

        def bind(k):
            d = k.v["defines"]
            g = -(-M // d["BLOCK_M"]) * -(-N // d["BLOCK_N"])
            strides = dict(stride_am=a.stride(0), stride_bk=b.stride(0), stride_cm=c.stride(0))
            return k.bind((g,), c=c, a=a, b=b, M=M, N=N, K=K, **strides)

        best = None
        for var in candidates:
            pred = fl / (rate[var] * 1e9) if var in rate else None
            left = self.args.budget_s - self.elapsed()
            if pred is not None and (pred > 4000 or pred * 8 / 1000 > left - 60):
                self.res.row(
                    kernel="matmul",
                    shape=shape,
                    impl="tilec:" + var,
                    ok=None,
                    skipped="predicted %.0f ms per launch; %.0f s of budget left" % (pred, left),
                    variant=var,
                )
                continue
            r = self.measure_ours(
                "matmul", shape, "tilec:" + var, var, bind, c, ref, tol, flops=fl, max_ms=4000
            )
            if r is not None and "tflops" in r:
                rate[var] = r["tflops"]
                best = faster(best, r)
        self.best_row(best, "tilec")
        if dt == "f16" and (M, N, K) in [(4096, 4096, 4096), (4000, 4096, 4000)]:
            for var in sorted(v for v in self.man if v.startswith("mmx_f16")):
                self.measure_ours(
                    "matmul", shape, "exp:" + var, var, bind, c, ref, tol, flops=fl, max_ms=4000
                )
        chosen = None
        if choose and rate:
            chosen = max(rate, key=rate.get)
            self.res.note("matmul %s: config %s chosen for the larger sizes" % (dt, chosen))
        if dt == "f16":
            torch.backends.cuda.matmul.allow_tf32 = False
            self.measure("matmul", shape, "cublas", lambda: a @ b, ref, tol, flops=fl)
        else:
            torch.backends.cuda.matmul.allow_tf32 = True
            self.measure("matmul", shape, "cublas-tf32", lambda: a @ b, ref, tol, flops=fl)
            torch.backends.cuda.matmul.allow_tf32 = False
        c2 = torch.empty((M, N), device="cuda", dtype=tdt)
        P.tmatmul(a, b, c=c2)  # autotune outside the timed region
        self.measure(
            "matmul",
            shape,
            "triton",
            lambda: P.tmatmul(a, b, c=c2),
            ref,
            tol,
            flops=fl,
            poisoned=c2,
        )
        return chosen

    def run(self, fams):
        for fam in fams:
            t0 = time.time()
            print("==== %s (at %.0f s)" % (fam, self.elapsed()), flush=True)
            try:
                getattr(self, fam)()
            except Exception as ex:  # noqa: BLE001
                traceback.print_exc()
                self.res.note("family %s aborted: %s: %s" % (fam, type(ex).__name__, str(ex)[:300]))
            self.res.R.setdefault("family_s", {})[fam] = time.time() - t0
            self.res.save()
