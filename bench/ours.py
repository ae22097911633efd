"""Our benchmark kernels on the GPU machine: the bundle's manifest, one
kernel launched from its PTX + JSON alone (the kernel ABI of docs/spec.md
§2, through CuPy), and the preflight: each family of ours launched once at a
small size in a child process (`run_bench.py --preflight-family`), so that
a kernel that faults cannot poison the CUDA context of the main run (the
same-source families' preflight is same_source.preflight).
"""
import json
import os
import subprocess
import sys
import time

from variants import SAME_SOURCE, TOL

HERE = os.path.dirname(os.path.abspath(__file__))


def load_manifest(bundle):
    with open(os.path.join(bundle, "manifest.json")) as f:
        return {v["variant"]: v for v in json.load(f)["variants"]}


def conv2d_args(NB, H, C, K):
    """The scalar arguments of conv2d.tile's kernels for NB images of H x H
    pixels and C channels, K filters of 3 x 3: stride 1, padding 1."""
    return dict(N=NB, H=H, W=H, C=C, K=K, P=H, Q=H, stride_h=1, stride_w=1, pad_h=1, pad_w=1)


class Ours:
    """One tilec kernel, launched from its PTX + JSON alone."""

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
        the one torch uses too). Pointers: cupy arrays or torch tensors (only
        torch tensors for *bf16)."""
        import numpy as np

        cp = self.cp
        scal = {
            "i32": np.int32,
            "i64": np.int64,
            "u32": np.uint32,
            "f32": np.float32,
            "f64": np.float64,
            "f16": np.float16,
        }
        args = []
        for p in self.meta["params"]:
            name, ty = p["name"], p["type"]
            val = kw.pop(name)
            if ty == "*bf16":
                # CuPy has no bfloat16: a torch bf16 tensor goes by its address.
                if str(getattr(val, "dtype", "")) != "torch.bfloat16":
                    raise TypeError(
                        "%s: param %s is *bf16, got %s"
                        % (self.v["variant"], name, getattr(val, "dtype", type(val)))
                    )
                args.append(np.uint64(val.data_ptr()))
            elif ty.startswith("*"):
                arr = val if isinstance(val, cp.ndarray) else cp.asarray(val)
                want = {
                    "*f16": "float16",
                    "*f32": "float32",
                    "*f64": "float64",
                    "*i32": "int32",
                }.get(ty)
                if want and str(arr.dtype) != want:
                    raise TypeError(
                        "%s: param %s is %s, got %s" % (self.v["variant"], name, ty, arr.dtype)
                    )
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

    if fam in SAME_SOURCE:
        from same_source import preflight

        return preflight(bundle, fam)
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
                ref = 0.5 * xd * (1 + np.tanh(0.7978845608028654 * (xd + 0.044715 * xd**3)))
                tol = TOL["f32"]
            elif fam == "matmul":
                M, N, K = 272, 400, 336  # multiples of 16 (--divisible), not of the blocks
                dt = np.float16 if "f16" in name else np.float32
                a = rng.standard_normal((M, K)).astype(dt)
                b = rng.standard_normal((K, N)).astype(dt)
                c = cp.full((M, N), np.nan, dtype=dt)
                d = v["defines"]
                g = -(-M // d["BLOCK_M"]) * -(-N // d["BLOCK_N"])
                strides = dict(stride_am=K, stride_bk=N, stride_cm=N)
                k.bind((g,), c=c, a=cp.asarray(a), b=cp.asarray(b), M=M, N=N, K=K, **strides)()
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
                ins = dict(x=cp.asarray(x), w=cp.asarray(w))
                k.bind(grid, out=y, **ins, **conv2d_args(NB, H, C, K))()
                xp = np.pad(x.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
                ref = np.zeros((NB, H, H, K))
                wd = w.astype(np.float64)
                for r in range(3):
                    for s in range(3):
                        ref += np.einsum(
                            "nhwc,kc->nhwk", xp[:, r : r + H, s : s + H, :], wd[:, r, s, :]
                        )
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
            p = subprocess.run(
                [
                    sys.executable,
                    os.path.join(HERE, "run_bench.py"),
                    "--bundle",
                    bundle,
                    "--preflight-family",
                    fam,
                ],
                capture_output=True,
                text=True,
                timeout=120,
            )
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
