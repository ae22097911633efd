#!/usr/bin/env python3
"""One matmul-sweep variant of ours next to Triton's kernel of the same
source and configuration (bench/peers.py matmul_kernel), for a closer look
than the sweep's table:

    python3 profile_pair.py --bundle DIR time VARIANT
        times ours loaded from its PTX (the driver's JIT compiles it, as in
        the sweep), ours from a cubin that Triton's own ptxas made of the
        same PTX, and Triton's kernel: interleaved rounds of do_bench.
    ncu --clock-control none -k regex:matmul python3 profile_pair.py \\
        --bundle DIR launch VARIANT
        launches ours, then Triton's, 3 times each (for a profiler).
    python3 profile_pair.py --bundle DIR check VARIANT
        runs each of the three once against a float64 reference.

VARIANT: a bundle variant name such as mmsweep_f16_128x128x64_w8_s5.
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ours import Ours, load_manifest  # noqa: E402
from same_source import bind_matmul  # noqa: E402


def triton_ptxas():
    import triton

    return os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas")


def cubin_variant(cp, bundle, v, out_dir, ptxas=None):
    """Ours with its PTX compiled by Triton's ptxas (or `ptxas`), sm_90a,
    into a cubin."""
    base = os.path.join(bundle, "kernels", v["variant"])
    cubin = os.path.join(out_dir, v["variant"] + ".cubin")
    ptxas = ptxas or triton_ptxas()
    subprocess.run([ptxas, "-arch=sm_90a", base + ".ptx", "-o", cubin], check=True)
    k = Ours(cp, bundle, v)
    k.mod = cp.RawModule(path=cubin)
    k.fn = k.mod.get_function(k.meta["kernel"])
    if k.shared > 48 * 1024:
        k.fn.max_dynamic_shared_size_bytes = k.shared
    return k


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundle", default=HERE)
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("mode", choices=["time", "launch", "check"])
    ap.add_argument("--only", help="check: only the implementations whose name has this")
    ap.add_argument("variant", nargs="+", help="one (several for check)")
    a = ap.parse_args()
    import cupy as cp
    import torch
    import triton
    import peers as P

    if a.mode == "check":
        for name in a.variant:
            run(a, cp, torch, triton, P, name)
    else:
        run(a, cp, torch, triton, P, a.variant[0])


def run(a, cp, torch, triton, P, variant):
    v = load_manifest(a.bundle)[variant]
    d = v["defines"]
    n = a.size
    t = torch.float32 if v["kernel"].startswith("matmul_f32") else torch.float16
    A = torch.randn(n, n, device="cuda", dtype=t)
    B = torch.randn(n, n, device="cuda", dtype=t)
    C = torch.empty(n, n, device="cuda", dtype=t)
    C2 = torch.empty_like(C)
    tri = dict(
        BM=d["BLOCK_M"], BN=d["BLOCK_N"], BK=d["BLOCK_K"], G=8,
        num_warps=v["num_warps"], num_stages=v["num_stages"],
    )  # fmt: skip
    impls = {
        "ours (driver JIT)": bind_matmul(Ours(cp, a.bundle, v), C, A, B),
        "triton": lambda: P.tmatmul(A, B, kern=P.matmul_kernel, c=C2, **tri),
    }
    if a.mode == "launch":
        for fn in impls.values():
            for _ in range(3):
                fn()
            torch.cuda.synchronize()
        return
    out_dir = os.environ.get("OUT", "/tmp")
    impls["ours (Triton's ptxas)"] = bind_matmul(cubin_variant(cp, a.bundle, v, out_dir), C, A, B)
    if a.mode == "check":
        impls["ours (toolkit ptxas)"] = bind_matmul(
            cubin_variant(cp, a.bundle, v, "/tmp", "ptxas"), C, A, B
        )
        ref = A.double() @ B.double()
        for name, fn in impls.items():
            if a.only and a.only not in name:
                continue
            for out in (C, C2):
                out.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            out = C2 if name == "triton" else C
            err = ((out.double() - ref).norm() / ref.norm()).item()
            print("%-40s %-24s relerr %.2e" % (variant, name, err), flush=True)
        return
    times = {name: [] for name in impls}
    for r in range(a.rounds):
        names = list(impls)
        names = names[r % len(names) :] + names[: r % len(names)]
        for name in names:
            times[name].append(triton.testing.do_bench(impls[name], warmup=25, rep=100))
    flops = 2 * n**3
    for name, ts in times.items():
        ms = statistics.median(ts)
        print(
            "%-24s %.4f ms  %.1f TFLOP/s  spread %.1f%%"
            % (name, ms, flops / ms / 1e9, 100 * (max(ts) - min(ts)) / ms)
        )


if __name__ == "__main__":
    main()
