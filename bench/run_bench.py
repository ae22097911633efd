#!/usr/bin/env python3
"""tilec benchmark driver: runs ON the GPU machine, from a bundle made by
scripts/bench-bundle.sh (PTX + JSON of every variant, manifest.json).

In ONE process on one GPU: the copy-bandwidth ceiling, then for each kernel
and size our kernel (CuPy RawModule on the tilec PTX) -- correctness first
against a float64 reference with the output poisoned with NaN, then the
median time (triton.testing.do_bench, L2 flushed) -- and the peers in the
same run: torch / cuBLAS / cuDNN and the Triton 3.6 kernels of
bench/triton_baseline.py (copied into peers.py). Rows go to OUT/bench.json as
they are measured; a table is printed last and a plot written
(OUT/results.png, when matplotlib is there).

    python3 run_bench.py [--bundle DIR] [--out DIR] [--only softmax,gelu,...]
    python3 run_bench.py --peers-only --merge TB.json... [--out DIR]
    python3 run_bench.py --report OUT/bench.json     # table + plot only
    python3 run_bench.py --dry-run --out DIR         # fake rows: test table/plot

--peers-only measures the peers alone (no bundle needed) and --merge adds the
rows of tools/tile-bench (our kernels compiled by the JIT, measured the same
way in the same run: scripts/gpu-run.sh), so the table compares them.

Before the main run, each kernel family of ours is launched once at a small
size in a child process (--preflight): a kernel that faults would otherwise
poison the CUDA context of the one process and lose every later row; a family
that fails there is left out of the main run (its peers still run).
"""
import argparse
import json
import os
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = ["copy", "softmax", "gelu", "conv2d", "matmul"]

# The sizes, their labels and the tolerances are variants.py's (shared with
# tools/tile-bench).
from variants import (CONV_SHAPES, GELU_SIZES, MATMUL_F16, MATMUL_F32,  # noqa: E402
                      SOFTMAX_SIZES, TOL, conv_shape, gelu_shape, gelu_variant,
                      mm_shape, softmax_variant)

LIB_IMPLS = ("torch", "cublas", "cublas-tf32", "cudnn-nhwc")


# ================================================================ results
class Results:
    def __init__(self, path, data=None):
        self.path = path
        self.R = data or {"rows": [], "env": {}, "notes": []}

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.R, f, indent=1)
        os.replace(tmp, self.path)

    def row(self, **r):
        self.R["rows"].append(r)
        self.save()
        keys = ["kernel", "shape", "impl", "ms", "tflops", "gbs", "relerr", "ok"]
        print("ROW " + json.dumps({k: r[k] for k in keys if k in r}), flush=True)

    def note(self, s):
        print("NOTE " + s, flush=True)
        self.R["notes"].append(s)
        self.save()


# ================================================================ our kernels
def load_manifest(bundle):
    with open(os.path.join(bundle, "manifest.json")) as f:
        return {v["variant"]: v for v in json.load(f)["variants"]}


class Ours:
    """One tilec kernel, launched from its PTX + JSON alone (SPEC's ABI)."""

    def __init__(self, cp, bundle, v):
        self.cp = cp
        self.v = v
        base = os.path.join(bundle, "kernels", v["variant"])
        with open(base + ".json") as f:
            self.meta = json.load(f)
        self.threads = 32 * int(self.meta["num_warps"])
        self.shared = int(self.meta.get("shared_bytes", 0))
        self.mod = cp.RawModule(path=base + ".ptx")
        self.fn = self.mod.get_function(self.meta["kernel"])
        if self.shared > 48 * 1024:
            self.fn.max_dynamic_shared_size_bytes = self.shared
        self.regs = getattr(self.fn, "num_regs", None)
        self.local = getattr(self.fn, "local_size_bytes", None)

    def bind(self, grid, **kw):
        """Returns a no-argument launcher (async, on the legacy default stream,
        the one torch uses too). Pointers: cupy arrays or torch tensors."""
        import numpy as np
        cp = self.cp
        scal = {"i32": np.int32, "i64": np.int64, "u32": np.uint32, "f32": np.float32,
                "f64": np.float64, "f16": np.float16}
        args = []
        for p in self.meta["params"]:
            name, ty = p["name"], p["type"]
            val = kw.pop(name)
            if ty.startswith("*"):
                arr = val if isinstance(val, cp.ndarray) else cp.asarray(val)
                want = {"*f16": "float16", "*f32": "float32", "*f64": "float64",
                        "*i32": "int32"}.get(ty)
                if want and str(arr.dtype) != want:
                    raise TypeError("%s: param %s is %s, got %s" % (self.v["variant"], name, ty,
                                                                     arr.dtype))
                args.append(arr)
            else:
                args.append(scal[ty](val))
        if kw:
            raise TypeError("%s: unknown params %s" % (self.v["variant"], sorted(kw)))
        grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
        block = (self.threads, 1, 1)
        args = tuple(args)
        fn, shared = self.fn, self.shared

        def launch():
            fn(grid, block, args, shared_mem=shared)
        return launch


# ================================================================ preflight
def preflight_family(bundle, fam):
    """Child process: each of our variants of `fam` once at a small size,
    checked with numpy in float64. Prints one JSON line per variant."""
    import numpy as np
    import cupy as cp
    man = load_manifest(bundle)
    rng = np.random.default_rng(1)

    def rel(out, ref):
        out = np.asarray(out, dtype=np.float64)
        return float(np.linalg.norm(out - ref) / np.linalg.norm(ref))

    for name, v in man.items():
        mine = name.startswith(fam + "_") or (fam == "matmul" and name.startswith("mmx_"))
        if not mine or v.get("rc", 0) != 0:
            continue
        res = {"variant": name}
        try:
            k = Ours(cp, bundle, v)
            res.update(regs=k.regs, local_bytes=k.local, shared=k.shared)
            if fam == "softmax":
                n = {"softmax_4097": 4097}.get(name, int(v["defines"]["BLOCK"]))
                M = 64
                x = rng.standard_normal((M, n)).astype(np.float32)
                y = cp.full((M, n), np.nan, dtype=cp.float32)
                k.bind((M,), out=y, inp=cp.asarray(x), in_stride=n, out_stride=n, n_cols=n)()
                xd = x.astype(np.float64)
                e = np.exp(xd - xd.max(1, keepdims=True))
                ref = e / e.sum(1, keepdims=True)
                tol = TOL["f32"]
            elif fam == "gelu":
                n = (1 << 16) if name == "gelu_div16" else (1 << 16) + 123
                x = (rng.standard_normal(n) * 3).astype(np.float32)
                y = cp.full(n, np.nan, dtype=cp.float32)
                k.bind(((n + 1023) // 1024,), out=y, inp=cp.asarray(x), n=n)()
                xd = x.astype(np.float64)
                ref = 0.5 * xd * (1 + np.tanh(0.7978845608028654 * (xd + 0.044715 * xd ** 3)))
                tol = TOL["f32"]
            elif fam == "matmul":
                M, N, K = 272, 400, 336   # multiples of 16 (--divisible), not of the blocks
                dt = np.float16 if "f16" in name else np.float32
                a = rng.standard_normal((M, K)).astype(dt)
                b = rng.standard_normal((K, N)).astype(dt)
                c = cp.full((M, N), np.nan, dtype=dt)
                d = v["defines"]
                g = -(-M // d["BLOCK_M"]) * -(-N // d["BLOCK_N"])
                k.bind((g,), c=c, a=cp.asarray(a), b=cp.asarray(b), M=M, N=N, K=K,
                       stride_am=K, stride_bk=N, stride_cm=N)()
                ref = a.astype(np.float64) @ b.astype(np.float64)
                tol = TOL["f16"] if dt == np.float16 else TOL["tf32"]
                y = c
            elif fam == "conv2d":
                NB, H, C, K = 2, 10, 64, 64
                x = rng.standard_normal((NB, H, H, C)).astype(np.float16)
                w = rng.standard_normal((K, 3, 3, C)).astype(np.float16)
                y = cp.full((NB, H, H, K), np.nan, dtype=cp.float16)
                d = v["defines"]
                grid = (-(-NB * H * H // d["BLOCK_M"]), -(-K // d["BLOCK_N"]))
                k.bind(grid, out=y, x=cp.asarray(x), w=cp.asarray(w), N=NB, H=H, W=H, C=C,
                       K=K, P=H, Q=H, stride_h=1, stride_w=1, pad_h=1, pad_w=1)()
                xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
                ref = np.zeros((NB, H, H, K))
                wd = w.astype(np.float64)
                for r in range(3):
                    for s in range(3):
                        ref += np.einsum("nhwc,kc->nhwk", xp[:, r:r + H, s:s + H, :], wd[:, r, s, :])
                tol = TOL["f16"]
            else:
                continue
            cp.cuda.runtime.deviceSynchronize()
            out = cp.asnumpy(y).astype(np.float64)
            res["nan"] = int(np.isnan(out).sum())
            res["relerr"] = rel(np.nan_to_num(out, nan=0.0), ref)
            res["ok"] = res["nan"] == 0 and res["relerr"] < tol
        except Exception as ex:  # noqa: BLE001
            res["ok"] = False
            res["error"] = "%s: %s" % (type(ex).__name__, str(ex)[:300])
        print("PREFLIGHT " + json.dumps(res), flush=True)


def run_preflight(bundle, fams, res):
    """Parent: one child per family; returns {variant: ok}."""
    ok = {}
    for fam in fams:
        if fam == "copy":
            continue
        t0 = time.time()
        try:
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "--bundle", bundle,
                                "--preflight-family", fam], capture_output=True, text=True,
                               timeout=120)
            lines, rc, err = p.stdout.splitlines(), p.returncode, p.stderr
        except subprocess.TimeoutExpired as ex:
            lines, rc, err = (ex.stdout or b"").decode(errors="replace").splitlines(), "timeout", ""
        for ln in lines:
            if ln.startswith("PREFLIGHT "):
                r = json.loads(ln[10:])
                ok[r["variant"]] = bool(r.get("ok"))
                res.R.setdefault("preflight", []).append(r)
                print(ln, flush=True)
        if rc != 0:
            res.note("preflight %s: child exit %s: %s" % (fam, rc, err.strip()[-600:]))
        print("preflight %s: %.1f s" % (fam, time.time() - t0), flush=True)
    res.save()
    return ok


# ================================================================ main run
class SkipOurs(Exception):
    """--peers-only: our kernels come from tile-bench instead."""


class Bench:
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
        self.torch, self.cp, self.triton, self._do_bench, self.peers = torch, cp, triton, do_bench, peers
        self.man = {} if args.peers_only else load_manifest(args.bundle)
        self.kern = {}
        torch.manual_seed(0)
        p = torch.cuda.get_device_properties(0)
        env = res.R["env"]
        env.update(device=torch.cuda.get_device_name(), sm_count=p.multi_processor_count,
                   l2_bytes=getattr(p, "L2_cache_size", None), torch=torch.__version__,
                   triton=triton.__version__, cupy=cp.__version__,
                   cuda_runtime=cp.cuda.runtime.runtimeGetVersion(),
                   cuda_driver=cp.cuda.runtime.driverGetVersion(),
                   cudnn=torch.backends.cudnn.version())
        try:
            env["nvidia_smi"] = subprocess.run(
                ["nvidia-smi", "--query-gpu=name,driver_version,memory.total,clocks.sm,"
                 "clocks.max.sm,clocks.mem,power.limit,temperature.gpu",
                 "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip()
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

    def measure(self, kernel, shape, impl, fn, ref, tol, flops=None, nbytes=None,
                poison=None, view=None, extra=None, max_ms=None):
        """fn() runs the implementation and returns its output tensor.
        Correctness first (output poisoned with NaN where we own it), then time."""
        torch = self.torch
        r = dict(kernel=kernel, shape=shape, impl=impl)
        if extra:
            r.update(extra)
        try:
            if poison is not None:
                poison()
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
        return {"variant": variant, "compile_s": v.get("compile_s"),
                "tilec_cmd": v.get("tilec_cmd"), "ptxas": v.get("ptxas"),
                "regs": getattr(k, "regs", None), "local_bytes": getattr(k, "local", None),
                "shared_bytes": getattr(k, "shared", None),
                "ld_global_v4": v.get("ld_global_v4"), "st_global_v4": v.get("st_global_v4")}

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
        self.res.row(kernel="copy", shape="2^28 f32", impl="torch", ms=ms,
                     gbs=2 * x.numel() * 4 / ms / 1e6, ok=True)
        self.res.R["copy_gbs"] = 2 * x.numel() * 4 / ms / 1e6
        del x, y

    def softmax(self):
        torch, P = self.torch, self.peers
        self.triton_first_call("softmax", lambda: P.tsoftmax(torch.randn(64, 1000, device="cuda")))
        for M, N in SOFTMAX_SIZES:
            shape = "%dx%d f32" % (M, N)
            x = torch.randn(M, N, device="cuda")
            ref = torch.softmax(x.double(), dim=1)
            nb = 2 * M * N * 4
            y = torch.empty_like(x)
            var = softmax_variant(N)
            try:
                if self.args.peers_only:
                    raise SkipOurs()
                k = self.ours(var)
                launch = k.bind((M,), out=y, inp=x, in_stride=x.stride(0), out_stride=y.stride(0),
                                n_cols=N)
                self.measure("softmax", shape, "tilec", lambda: (launch(), y)[1], ref, TOL["f32"],
                             nbytes=nb, poison=lambda: y.fill_(float("nan")),
                             extra=self.ours_extra(var))
            except SkipOurs:
                pass
            except Exception as ex:  # noqa: BLE001
                self.res.row(kernel="softmax", shape=shape, impl="tilec", ok=False,
                             error=str(ex)[:300], variant=var)
            self.measure("softmax", shape, "torch", lambda: torch.softmax(x, dim=1), ref,
                         TOL["f32"], nbytes=nb)
            y2 = torch.empty_like(x)
            self.measure("softmax", shape, "triton", lambda: P.tsoftmax(x, y2), ref, TOL["f32"],
                         nbytes=nb, poison=lambda: y2.fill_(float("nan")))
            del x, y, y2, ref

    def gelu(self):
        torch, P = self.torch, self.peers
        F = torch.nn.functional
        self.triton_first_call("gelu", lambda: P.tgelu(torch.randn(1000, device="cuda")))
        for n in GELU_SIZES:
            shape = gelu_shape(n)
            x = torch.randn(n, device="cuda")
            ref = F.gelu(x.double(), approximate="tanh")
            nb = 2 * n * 4
            y = torch.empty_like(x)
            var = gelu_variant(n)
            try:
                if self.args.peers_only:
                    raise SkipOurs()
                launch = self.ours(var).bind(((n + 1023) // 1024,), out=y, inp=x, n=n)
                self.measure("gelu", shape, "tilec", lambda: (launch(), y)[1], ref, TOL["f32"],
                             nbytes=nb, poison=lambda: y.fill_(float("nan")),
                             extra=self.ours_extra(var))
            except SkipOurs:
                pass
            except Exception as ex:  # noqa: BLE001
                self.res.row(kernel="gelu", shape=shape, impl="tilec", ok=False,
                             error=str(ex)[:300], variant=var)
            self.measure("gelu", shape, "torch", lambda: F.gelu(x, approximate="tanh"), ref,
                         TOL["f32"], nbytes=nb)
            y2 = torch.empty_like(x)
            self.measure("gelu", shape, "triton", lambda: P.tgelu(x, y2), ref, TOL["f32"],
                         nbytes=nb, poison=lambda: y2.fill_(float("nan")))
            del x, y, y2, ref

    def conv2d(self):
        torch, P = self.torch, self.peers
        F = torch.nn.functional
        torch.backends.cudnn.benchmark = True
        ours_vars = sorted(v for v in self.man if v.startswith("conv2d_"))
        first = True
        for NB, H, C, K in CONV_SHAPES:
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
            nchw = lambda o: o.permute(0, 3, 1, 2)
            y = torch.empty((NB, H, H, K), device="cuda", dtype=torch.float16)
            best = None
            for var in ours_vars:
                try:
                    d = self.man[var]["defines"]
                    grid = (-(-NB * H * H // d["BLOCK_M"]), -(-K // d["BLOCK_N"]))
                    launch = self.ours(var).bind(grid, out=y, x=xn, w=wn, N=NB, H=H, W=H, C=C,
                                                 K=K, P=H, Q=H, stride_h=1, stride_w=1,
                                                 pad_h=1, pad_w=1)
                    r = self.measure("conv2d", shape, "tilec:" + var, lambda: (launch(), y)[1],
                                     ref, TOL["f16"], flops=fl, view=nchw,
                                     poison=lambda: y.fill_(float("nan")),
                                     extra=self.ours_extra(var), max_ms=3000)
                    if "ms" in r and (best is None or r["ms"] < best["ms"]):
                        best = r
                except Exception as ex:  # noqa: BLE001
                    self.res.row(kernel="conv2d", shape=shape, impl="tilec:" + var, ok=False,
                                 error=str(ex)[:300], variant=var)
            if best is not None:
                b = dict(best)
                b["impl"] = "tilec"
                self.res.row(**b)
            xcl = x.to(memory_format=torch.channels_last)
            wcl = w.to(memory_format=torch.channels_last)
            self.measure("conv2d", shape, "cudnn-nhwc", lambda: F.conv2d(xcl, wcl, padding=1),
                         ref, TOL["f16"], flops=fl)
            tbest = None
            y2 = torch.empty((NB, H, H, K), device="cuda", dtype=torch.float16)
            for cfg in P.CONV_CONFIGS:
                if cfg[2] > C:
                    continue
                if first:
                    self.triton_first_call("conv2d", lambda: P.tconv(xn, wn, *cfg, y=y2))
                    first = False
                r = self.measure("conv2d", shape, "triton%s" % (cfg,),
                                 lambda: P.tconv(xn, wn, *cfg, y=y2), ref, TOL["f16"], flops=fl,
                                 view=nchw, poison=lambda: y2.fill_(float("nan")))
                if "ms" in r and (tbest is None or r["ms"] < tbest["ms"]):
                    tbest = r
            if tbest is not None:
                b = dict(tbest)
                b["config"] = b["impl"][6:]
                b["impl"] = "triton"
                self.res.row(**b)
            del x, w, ref, xn, wn, xcl, wcl, y, y2

    def matmul(self):
        torch, P = self.torch, self.peers
        a = torch.randn(512, 512, device="cuda", dtype=torch.float16)
        self.triton_first_call("matmul", lambda: P.tmatmul(a, a, kern=P.matmul_kernel, BM=128,
                                                           BN=128, BK=64, G=8, num_warps=8,
                                                           num_stages=3))
        budget = self.args.budget_s
        for dt, sizes in [("f16", MATMUL_F16), ("f32", MATMUL_F32)]:
            tdt = torch.float16 if dt == "f16" else torch.float32
            vars_ = sorted(v for v in self.man if v.startswith("matmul_%s_" % dt))
            chosen = None      # after the two smallest sizes, the faster config only
            rate = {}          # variant -> TFLOP/s measured (to predict big sizes)
            for i, (M, N, K) in enumerate(sizes):
                name = "tf32" if dt == "f32" else "f16"
                shape = mm_shape(M, N, K, name)
                a = torch.randn(M, K, device="cuda", dtype=tdt)
                b = torch.randn(K, N, device="cuda", dtype=tdt)
                ref = a.double() @ b.double()
                fl = 2 * M * N * K
                c = torch.empty((M, N), device="cuda", dtype=tdt)
                tol = TOL["f16"] if dt == "f16" else TOL["tf32"]
                best = None
                for var in (vars_ if chosen is None else [chosen]):
                    pred = fl / (rate[var] * 1e9) if var in rate else None
                    left = budget - self.elapsed()
                    if pred is not None and (pred > 4000 or pred * 8 / 1000 > left - 60):
                        self.res.row(kernel="matmul", shape=shape, impl="tilec:" + var, ok=None,
                                     skipped="predicted %.0f ms per launch; %.0f s of budget left"
                                     % (pred, left), variant=var)
                        continue
                    try:
                        d = self.man[var]["defines"]
                        g = -(-M // d["BLOCK_M"]) * -(-N // d["BLOCK_N"])
                        launch = self.ours(var).bind((g,), c=c, a=a, b=b, M=M, N=N, K=K,
                                                     stride_am=a.stride(0), stride_bk=b.stride(0),
                                                     stride_cm=c.stride(0))
                        r = self.measure("matmul", shape, "tilec:" + var,
                                         lambda: (launch(), c)[1], ref, tol, flops=fl,
                                         poison=lambda: c.fill_(float("nan")),
                                         extra=self.ours_extra(var), max_ms=4000)
                        if "tflops" in r:
                            rate[var] = r["tflops"]
                            if best is None or r["ms"] < best["ms"]:
                                best = r
                    except Exception as ex:  # noqa: BLE001
                        self.res.row(kernel="matmul", shape=shape, impl="tilec:" + var,
                                     ok=False, error=str(ex)[:300], variant=var)
                if best is not None:
                    bb = dict(best)
                    bb["impl"] = "tilec"
                    self.res.row(**bb)
                if dt == "f16" and (M, N, K) in [(4096, 4096, 4096), (4000, 4096, 4000)]:
                    for var in sorted(v for v in self.man if v.startswith("mmx_f16")):
                        try:
                            d = self.man[var]["defines"]
                            g = -(-M // d["BLOCK_M"]) * -(-N // d["BLOCK_N"])
                            launch = self.ours(var).bind((g,), c=c, a=a, b=b, M=M, N=N, K=K,
                                                         stride_am=a.stride(0),
                                                         stride_bk=b.stride(0),
                                                         stride_cm=c.stride(0))
                            self.measure("matmul", shape, "exp:" + var,
                                         lambda: (launch(), c)[1], ref, tol, flops=fl,
                                         poison=lambda: c.fill_(float("nan")),
                                         extra=self.ours_extra(var), max_ms=4000)
                        except Exception as ex:  # noqa: BLE001
                            self.res.row(kernel="matmul", shape=shape, impl="exp:" + var,
                                         ok=False, error=str(ex)[:300], variant=var)
                if i == 1 and rate:
                    chosen = max(rate, key=rate.get)
                    self.res.note("matmul %s: config %s chosen for the larger sizes" % (dt, chosen))
                if dt == "f16":
                    torch.backends.cuda.matmul.allow_tf32 = False
                    self.measure("matmul", shape, "cublas", lambda: a @ b, ref, tol, flops=fl)
                else:
                    torch.backends.cuda.matmul.allow_tf32 = True
                    self.measure("matmul", shape, "cublas-tf32", lambda: a @ b, ref, tol,
                                 flops=fl)
                    torch.backends.cuda.matmul.allow_tf32 = False
                c2 = torch.empty((M, N), device="cuda", dtype=tdt)
                P.tmatmul(a, b, c=c2)    # autotune outside the timed region
                self.measure("matmul", shape, "triton", lambda: P.tmatmul(a, b, c=c2), ref, tol,
                             flops=fl, poison=lambda: c2.fill_(float("nan")))
                del a, b, c, c2, ref
                torch.cuda.empty_cache()

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


# ================================================================ report
def merge_ours(R, paths):
    """Adds the rows of tools/tile-bench JSON files to R (rows merged before
    are replaced): our kernels, compiled by the JIT in the same run. In the
    table a later row of an impl wins, so these replace any of ours R has."""
    R["rows"] = [r for r in R.get("rows", []) if r.get("source") != "tile-bench"]
    R.setdefault("notes", [])
    R["tile_bench"] = []
    for path in paths:
        name = os.path.basename(path)
        try:
            with open(path) as f:
                T = json.load(f)
        except (OSError, ValueError) as ex:
            R["notes"].append("tile-bench output %s unreadable: %s" % (name, ex))
            continue
        R["tile_bench"].append({k: T.get(k) for k in ("env", "error", "total_s", "compile",
                                                      "compile_setup_ms")})
        if T.get("error"):
            R["notes"].append("tile-bench (%s): %s" % (name, T["error"]))
        R["notes"] += ["tile-bench: " + n for n in T.get("notes", [])]
        for r in T.get("rows", []):
            R["rows"].append(dict(r, source="tile-bench"))
            if r.get("kernel") == "copy" and r.get("gbs"):
                R.setdefault("copy_ours_gbs", {}).setdefault(
                    r.get("shape", "?"), {})[r["impl"]] = r["gbs"]


def compile_summary(R):
    """One line on tile-bench's JIT compiles (cold, disk hit, memory hit)."""
    comp = list({c["variant"]: c for t in R.get("tile_bench", [])
                 for c in (t.get("compile") or []) if "compile_ms" in c}.values())
    if not comp:
        return None

    def med(key):
        v = sorted(c[key] for c in comp if c.get(key) is not None and c[key] >= 0)
        return v[len(v) // 2] if v else float("nan")
    worst = max(comp, key=lambda c: c["compile_ms"])
    return ("tilec JIT compile (tile-bench, %d variants): cold median %.1f ms, max %.1f ms (%s); "
            "disk-cache hit %.2f ms; memory hit %.1f us; driver load median %.1f ms" % (
                len(comp), med("compile_ms"), worst["compile_ms"], worst["variant"],
                med("disk_hit_ms"), med("memory_hit_us"), med("load_ms")))


def fmt_rate(r):
    if r is None or r.get("ms") is None:
        if r is not None and r.get("skipped"):
            return "skipped"
        return "FAIL" if r is not None else "-"
    if "tflops" in r:
        return "%.1f TF" % r["tflops"] if r["tflops"] >= 1 else "%.2f TF" % r["tflops"]
    return "%.0f GB/s" % r["gbs"]


def rate_of(r):
    if r is None or r.get("ms") is None:
        return None
    return r.get("tflops", r.get("gbs"))


def table_rows(R):
    order, groups = [], {}
    for r in R["rows"]:
        key = (r["kernel"], r["shape"])
        if key not in groups:
            groups[key] = {}
            order.append(key)
        groups[key][r["impl"]] = r      # later rows (the 'best' ones) win
    out = []
    for key in order:
        g = groups[key]
        if key[0] == "copy":
            continue
        ours = g.get("tilec")
        if ours is None:    # no best row: take the first of ours (a failure or skip)
            ours = next((v for k, v in g.items() if k.startswith("tilec")), None)
        lib = next((g[k] for k in LIB_IMPLS if k in g), None)
        libname = next((k for k in LIB_IMPLS if k in g), "-")
        tri = g.get("triton")
        ro, rl, rt = rate_of(ours), rate_of(lib), rate_of(tri)
        check = "-"
        if ours is not None:
            if ours.get("skipped"):
                check = "skip"
            elif "relerr" in ours:
                check = ("ok" if ours.get("ok") else "FAIL") + " %.1e" % ours["relerr"]
                if ours.get("nan"):
                    check += " nan=%d" % ours["nan"]
            else:
                check = "ERR"
        pct = ""
        if ro is not None and "gbs" in ours and R.get("copy_gbs"):
            pct = "%.0f%%" % (100 * ro / R["copy_gbs"])
        out.append([key[0], key[1], fmt_rate(ours), "%s %s" % (libname, fmt_rate(lib)),
                    fmt_rate(tri), ("%.3f" % (ro / rl)) if ro and rl else "-",
                    ("%.3f" % (ro / rt)) if ro and rt else "-", pct, check,
                    ("%.3f" % ours["compile_s"]) if ours and ours.get("compile_s") else "-",
                    ("%.2f" % ours["compile_hit_ms"]) if ours and ours.get("compile_hit_ms")
                    else "-",
                    (ours or {}).get("variant", "-")])
    return out


def print_table(R, file=sys.stdout):
    hdr = ["kernel", "shape", "ours", "library", "triton", "ours/lib", "ours/tri",
           "%copy", "check (relerr)", "tilec s", "hit ms", "our variant"]
    rows = table_rows(R)
    w = [max(len(str(x)) for x in col) for col in zip(hdr, *rows)] if rows else [len(h) for h in hdr]
    env = R.get("env", {})
    print("", file=file)
    print("==== tilec benchmark: %s | torch %s | triton %s | %s" % (
        env.get("device"), env.get("torch"), env.get("triton"), R.get("build_info", "")), file=file)
    if R.get("copy_gbs"):
        print("copy ceiling (2^28 f32 D2D, read+write): %.0f GB/s" % R["copy_gbs"], file=file)
    for shape, impls in sorted((R.get("copy_ours_gbs") or {}).items(),
                               key=lambda kv: -len(kv[0])):
        print("copy by tile-bench, %s: " % shape + ", ".join(
            "%s %.0f GB/s" % ({"tilec": "tilec copy kernel"}.get(k, k), v)
            for k, v in sorted(impls.items())), file=file)
    if R.get("tile_bench"):
        tb = next((t["env"] for t in R["tile_bench"] if t.get("env")), {}) or {}
        print("ours: tile-bench (JIT at run time, %s, %s)" % (tb.get("arch", "?"),
                                                             tb.get("compiler", "?")), file=file)
        line = compile_summary(R)
        if line:
            print(line, file=file)
    fc = R.get("triton_first_call_s")
    if fc:
        print("triton first call (cold compile) s: " + ", ".join(
            "%s %.2f" % kv for kv in sorted(fc.items())), file=file)
    print("| " + " | ".join(h.ljust(w[i]) for i, h in enumerate(hdr)) + " |", file=file)
    print("|" + "|".join("-" * (x + 2) for x in w) + "|", file=file)
    for r in rows:
        print("| " + " | ".join(str(x).ljust(w[i]) for i, x in enumerate(r)) + " |", file=file)
    for n in R.get("notes", []):
        print("note: " + n, file=file)


def plot(R, path):
    try:
        return _plot(R, path)
    except Exception as ex:  # noqa: BLE001
        print("no plot: %s: %s" % (type(ex).__name__, ex))
        return False


def _plot(R, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as ex:  # noqa: BLE001
        print("no plot: matplotlib unavailable (%s)" % ex)
        return False
    fams = [("softmax", "GB/s"), ("gelu", "GB/s"), ("matmul", "TFLOP/s"), ("conv2d", "TFLOP/s")]
    fig, axes = plt.subplots(2, 2, figsize=(15, 10))
    for ax, (fam, unit) in zip(axes.flat, fams):
        shapes, vals = [], {"tilec": [], "library": [], "triton": []}
        groups = {}
        for r in R["rows"]:
            if r["kernel"] != fam:
                continue
            g = groups.setdefault(r["shape"], {})
            g[r["impl"]] = r
        for shape, g in groups.items():
            shapes.append(shape)
            vals["tilec"].append(rate_of(g.get("tilec")) or 0)
            vals["library"].append(rate_of(next((g[k] for k in LIB_IMPLS if k in g), None)) or 0)
            vals["triton"].append(rate_of(g.get("triton")) or 0)
        x = list(range(len(shapes)))
        for j, (name, col) in enumerate([("tilec", "tab:red"), ("library", "tab:blue"),
                                         ("triton", "tab:green")]):
            ax.bar([i + (j - 1) * 0.27 for i in x], vals[name], 0.27, label=name, color=col)
            for i, v in enumerate(vals[name]):
                if v:
                    ax.text(i + (j - 1) * 0.27, v, ("%.0f" % v) if v >= 10 else ("%.2g" % v),
                            ha="center", va="bottom", fontsize=7)
        if unit == "GB/s" and R.get("copy_gbs"):
            ax.axhline(R["copy_gbs"], color="gray", ls="--", lw=1, label="copy ceiling")
        if unit == "TFLOP/s":
            ax.set_yscale("log")
        ax.set_xticks(x)
        ax.set_xticklabels(shapes, rotation=20, fontsize=8)
        ax.set_ylabel(unit)
        ax.set_title(fam)
        ax.legend(fontsize=8)
    env = R.get("env", {})
    fig.suptitle("tilec vs peers on %s (same run; median, L2 flushed) %s" % (
        env.get("device"), R.get("build_info", "")))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("plot: " + path)
    return True


def fake_results():
    import random
    random.seed(0)
    R = {"env": {"device": "FAKE GPU (dry run)", "torch": "-", "triton": "-"}, "rows": [],
         "notes": ["dry run: fake numbers"], "copy_gbs": 3000.0,
         "triton_first_call_s": {"softmax": 0.4, "gelu": 0.3, "matmul": 1.7, "conv2d": 2.0}}
    R["rows"].append(dict(kernel="copy", shape="2^28 f32", impl="torch", ms=0.7, gbs=3000.0))
    for M, N in SOFTMAX_SIZES:
        for impl in ["tilec", "torch", "triton"]:
            g = random.uniform(1000, 2900)
            R["rows"].append(dict(kernel="softmax", shape="%dx%d f32" % (M, N), impl=impl,
                                  ms=2 * M * N * 4 / g / 1e6, gbs=g, relerr=1e-7, nan=0, ok=True,
                                  compile_s=0.05, variant="softmax_%d" % N))
    for n in GELU_SIZES:
        for impl in ["tilec", "torch", "triton"]:
            g = random.uniform(1000, 2900)
            R["rows"].append(dict(kernel="gelu", shape=gelu_shape(n), impl=impl, ms=1, gbs=g,
                                  relerr=1e-7, nan=0, ok=True))
    for (M, N, K) in MATMUL_F16:
        R["rows"].append(dict(kernel="matmul", shape=mm_shape(M, N, K, "f16"), impl="tilec",
                              ms=1, tflops=random.uniform(1, 20), relerr=3e-4, ok=True, nan=0))
        R["rows"].append(dict(kernel="matmul", shape=mm_shape(M, N, K, "f16"), impl="cublas",
                              ms=1, tflops=600, relerr=3e-4, ok=True))
        R["rows"].append(dict(kernel="matmul", shape=mm_shape(M, N, K, "f16"), impl="triton",
                              ms=1, tflops=500, relerr=3e-4, ok=True))
    R["rows"].append(dict(kernel="matmul", shape="8192^3 f16", impl="tilec:x", skipped="slow"))
    for s in CONV_SHAPES:
        R["rows"].append(dict(kernel="conv2d", shape=conv_shape(*s), impl="tilec", ms=1,
                              tflops=5, relerr=1e-3, ok=False, nan=3))
        R["rows"].append(dict(kernel="conv2d", shape=conv_shape(*s), impl="cudnn-nhwc", ms=1,
                              tflops=300, relerr=1e-3, ok=True))
    return R


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bundle", default=HERE)
    ap.add_argument("--out", default=os.environ.get("OUT") or None)
    ap.add_argument("--only", default=",".join(FAMILIES))
    ap.add_argument("--budget-s", type=float, default=330.0,
                    help="seconds after which slow kernels of ours are skipped")
    ap.add_argument("--no-preflight", action="store_true")
    ap.add_argument("--preflight-family")
    ap.add_argument("--report", metavar="JSON")
    ap.add_argument("--plot", metavar="PNG")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--peers-only", action="store_true",
                    help="measure only the peers (ours come from tile-bench: --merge)")
    ap.add_argument("--merge", nargs="+", default=[], metavar="JSON",
                    help="tile-bench outputs whose rows join the table")
    args = ap.parse_args()

    if args.preflight_family:
        preflight_family(args.bundle, args.preflight_family)
        return 0
    if args.report or args.dry_run:
        if args.report:
            with open(args.report) as f:
                R = json.load(f)
            outdir = os.path.dirname(os.path.abspath(args.report))
        else:
            R = fake_results()
            outdir = args.out or "."
            os.makedirs(outdir, exist_ok=True)
        if args.merge:
            merge_ours(R, args.merge)
            if args.report:
                Results(args.report, R).save()
        plot(R, args.plot or os.path.join(outdir, "results.png"))
        print_table(R)
        return 0

    out = args.out or os.path.join(args.bundle, "logs")
    os.makedirs(out, exist_ok=True)
    import tempfile
    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cold-"))
    res = Results(os.path.join(out, "bench.json"))
    try:
        with open(os.path.join(args.bundle, "BUILD_INFO")) as f:
            bi = f.read()
        res.R["build_info_full"] = bi
        res.R["build_info"] = bi.splitlines()[0] if bi else ""
    except OSError:
        pass
    res.R["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    fams = [f for f in args.only.split(",") if f]
    args.preflight_ok = None
    if not args.no_preflight and not args.peers_only:
        t0 = time.time()
        args.preflight_ok = run_preflight(args.bundle, fams, res)
        res.R["preflight_s"] = time.time() - t0
    b = Bench(args, res)
    b.run(fams)
    res.R["total_s"] = b.elapsed()
    if args.merge:
        merge_ours(res.R, args.merge)
    res.save()
    plot(res.R, os.path.join(out, "results.png"))
    print_table(res.R)
    return 0


if __name__ == "__main__":
    sys.exit(main())
