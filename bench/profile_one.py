#!/usr/bin/env python3
"""Launches one benchmark kernel of ours twice (CuPy only, no torch), for a
profiler: `ncu --launch-skip 1 --launch-count 1 python3 profile_one.py CASE`.

    python3 profile_one.py [--bundle DIR] CASE
CASE: matmul4096 | softmax4097 | softmax8192 | conv28 | gelu26
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ours import Ours, conv2d_args, load_manifest  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundle", default=HERE)
    ap.add_argument("case")
    a = ap.parse_args()
    import numpy as np
    import cupy as cp

    man = load_manifest(a.bundle)
    rng = cp.random.default_rng(0)
    if a.case == "matmul4096":
        n = 4096
        k = Ours(cp, a.bundle, man["matmul_f16_128x128x32_w8"])
        A = rng.standard_normal((n, n), dtype=cp.float32).astype(cp.float16)
        B = rng.standard_normal((n, n), dtype=cp.float32).astype(cp.float16)
        C = cp.empty((n, n), dtype=cp.float16)
        f = k.bind(
            ((n // 128) ** 2,), c=C, a=A, b=B, M=n, N=n, K=n, stride_am=n, stride_bk=n, stride_cm=n
        )
    elif a.case in ("softmax4097", "softmax8192"):
        M, N = (4096, 4097) if a.case == "softmax4097" else (2048, 8192)
        k = Ours(cp, a.bundle, man["softmax_%d" % N])
        x = rng.standard_normal((M, N), dtype=cp.float32)
        y = cp.empty_like(x)
        f = k.bind((M,), out=y, inp=x, in_stride=N, out_stride=N, n_cols=N)
    elif a.case == "conv28":
        NB, H, C, K = 32, 28, 128, 128
        k = Ours(cp, a.bundle, man["conv2d_128x64x32_w4"])
        x = rng.standard_normal((NB, H, H, C), dtype=cp.float32).astype(cp.float16)
        w = rng.standard_normal((K, 3, 3, C), dtype=cp.float32).astype(cp.float16)
        y = cp.empty((NB, H, H, K), dtype=cp.float16)
        f = k.bind((-(-NB * H * H // 128), K // 64), out=y, x=x, w=w, **conv2d_args(NB, H, C, K))
    elif a.case == "gelu26":
        n = 1 << 26
        k = Ours(cp, a.bundle, man["gelu_div16"])
        x = rng.standard_normal(n, dtype=cp.float32)
        y = cp.empty_like(x)
        f = k.bind((n // 1024,), out=y, inp=x, n=n)
    else:
        sys.exit("unknown case " + a.case)
    for _ in range(2):
        f()
    cp.cuda.runtime.deviceSynchronize()
    print("ok", a.case, np.__version__)


if __name__ == "__main__":
    main()
