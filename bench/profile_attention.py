#!/usr/bin/env python3
"""One attention variant of ours next to Triton's kernel of the same source
and configuration (bench/peers.py attention_kernel), for a profiler:

    ncu --section SchedulerStats --section WarpStateStats --section SourceCounters \\
        -k regex:attention python3 profile_attention.py --bundle DIR VARIANT [S]

launches ours (from the bundle's PTX) twice, then Triton's twice, on
BH x S x D inputs with 2^18 tokens (as the attention family), and prints
each one's median time over 20 launches when run without a profiler.
VARIANT: a bundle variant such as attention_f16_d128_n_128x64_w8_s3.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ours import Ours, load_manifest  # noqa: E402
from same_source import attention_inputs, bind_attention  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundle", default=HERE)
    ap.add_argument("variant")
    ap.add_argument("seq", nargs="?", type=int, default=1024)
    a = ap.parse_args()
    import cupy as cp
    import torch

    import peers as P

    v = load_manifest(a.bundle)[a.variant]
    d = v["defines"]
    D, BM, BN, causal = d["HEAD_DIM"], d["BLOCK_M"], d["BLOCK_N"], bool(d["CAUSAL"])
    dt = "bf16" if "bf16" in a.variant else "f16"
    S = a.seq
    q, k, vv = attention_inputs(torch, (1 << 18) // S, S, D, dt)
    o1, o2 = torch.empty_like(q), torch.empty_like(q)
    scale = D**-0.5
    ours = bind_attention(Ours(cp, a.bundle, v), o1, q, k, vv, scale)
    nw, ns = v["num_warps"], v["num_stages"]

    def triton():
        P.tattention(q, k, vv, scale, causal, BM, BN, nw, ns, out=o2)

    for name, fn in (("ours", ours), ("triton", triton)):
        for _ in range(2):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(20):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        times.sort()
        print("%s %s S=%d: median %.4f ms" % (name, a.variant, S, times[len(times) // 2]))
    print("max |ours - triton| = %.3g" % (o1.float() - o2.float()).abs().max().item())


if __name__ == "__main__":
    main()
