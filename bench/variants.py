#!/usr/bin/env python3
"""The benchmark kernel variants: one entry per compiled PTX (each size class
needs its own constexprs / num_warps / argument specialization).

Read by scripts/bench-bundle.sh (here, to compile them with tilec) and by
bench/run_bench.py (on the GPU machine, through the bundle's manifest.json).
Standard library only.

    python3 bench/variants.py --list     # VARIANT<TAB>TILE<TAB>KERNEL<TAB>FLAGS
"""
import sys

# --divisible=... declares integer parameters that are multiples of 16 (like
# Triton's automatic specialization of integer arguments); only used where
# every benchmark size that runs the variant satisfies it.
SOFTMAX_DIV = "--divisible=in_stride,out_stride"
MATMUL_DIV = "--divisible=M,N,K,stride_am,stride_bk,stride_cm"
CONV_DIV = "--divisible=C,K"


def _softmax_nw(block):
    # bench/triton_baseline.py: 4 warps up to 2048, 8 up to 8192, else 16
    return 4 if block <= 2048 else (8 if block <= 8192 else 16)


def variants():
    v = []
    for n, block, div in [(256, 256, True), (1024, 1024, True), (4096, 4096, True),
                          (8192, 8192, True), (16384, 16384, True),
                          (4097, 8192, False)]:
        v.append(dict(variant="softmax_%d" % n, tile="softmax.tile", kernel="softmax",
                      defines={"BLOCK": block}, num_warps=_softmax_nw(block),
                      flags=[SOFTMAX_DIV] if div else []))
    v.append(dict(variant="gelu_div16", tile="gelu.tile", kernel="gelu",
                  defines={"BLOCK": 1024}, num_warps=4, flags=["--divisible=n"]))
    v.append(dict(variant="gelu_ragged", tile="gelu.tile", kernel="gelu",
                  defines={"BLOCK": 1024}, num_warps=4, flags=[]))
    # On sm_90a, tiles with all warps along M (BM a multiple of 16 * warps)
    # run on wgmma: 128x256x64 with 8 warps is Triton's Hopper choice.
    mm_cfgs = {"f16": [(128, 128, 32, 8), (128, 128, 64, 8), (64, 64, 32, 4),
                       (128, 256, 64, 8), (128, 128, 64, 4)],
               "f32": [(128, 128, 32, 8), (64, 64, 32, 4)]}
    for dt in ["f16", "f32"]:
        for bm, bn, bk, nw in mm_cfgs[dt]:
            v.append(dict(variant="matmul_%s_%dx%dx%d_w%d" % (dt, bm, bn, bk, nw),
                          tile="matmul.tile", kernel="matmul_" + dt,
                          defines={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                                   "GROUP_M": 8},
                          num_warps=nw, num_stages=3, flags=[MATMUL_DIV]))
    # Deeper cp.async rings (sm_90a): 4 stages.
    for bm, bn, bk, nw in [(128, 128, 64, 4), (128, 256, 64, 8)]:
        v.append(dict(variant="matmul_f16_%dx%dx%d_w%d_s4" % (bm, bn, bk, nw),
                      tile="matmul.tile", kernel="matmul_f16",
                      defines={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                               "GROUP_M": 8},
                      num_warps=nw, num_stages=4, flags=[MATMUL_DIV]))
    # experiment: B offsets masked instead of `% N` (see matmul.tile)
    v.append(dict(variant="mmx_f16nomod_128x128x32_w8", tile="matmul.tile",
                  kernel="matmul_f16_nomod",
                  defines={"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8},
                  num_warps=8, num_stages=3, flags=[MATMUL_DIV]))
    for bm, bn, bc, nw in [(64, 64, 32, 8), (128, 64, 32, 4), (128, 128, 32, 8),
                           (128, 64, 64, 4)]:
        v.append(dict(variant="conv2d_%dx%dx%d_w%d" % (bm, bn, bc, nw),
                      tile="conv2d.tile", kernel="conv2d",
                      defines={"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_C": bc},
                      num_warps=nw, num_stages=3, flags=[CONV_DIV]))
    return v


def tilec_args(v):
    a = ["-k", v["kernel"]]
    for k, val in v["defines"].items():
        a += ["-D", "%s=%s" % (k, val)]
    a.append("--num-warps=%d" % v["num_warps"])
    if "num_stages" in v:
        a.append("--num-stages=%d" % v["num_stages"])
    return a + list(v["flags"])


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        for v in variants():
            print("\t".join([v["variant"], v["tile"], v["kernel"], " ".join(tilec_args(v))]))
    else:
        print(__doc__)
        sys.exit(2)
