#!/usr/bin/env python3
"""The benchmark kernel variants: one entry per compiled PTX (each size class
needs its own constexprs / num_warps / argument specialization), and the
sizes every kernel is measured at, with their table labels.

Read by scripts/bench-bundle.sh (here, to compile them with tilec), by
bench/run_bench.py (on the GPU machine, through the bundle's manifest.json)
and by tools/tile-bench (through the JSON of --json, which the build and
scripts/gpu-bundle.sh write). Standard library only.

    python3 bench/variants.py --list [FAMILY,...]   # VARIANT<TAB>TILE<TAB>KERNEL<TAB>FLAGS
    python3 bench/variants.py --json     # {"variants": [...], "sizes": {...}, "tolerances": {...}}
"""
import json
import math
import sys

# --divisible=... declares integer parameters that are multiples of 16 (like
# Triton's automatic specialization of integer arguments); only used where
# every benchmark size that runs the variant satisfies it.
SOFTMAX_DIV = "--divisible=in_stride,out_stride,n_cols"
MATMUL_DIV = "--divisible=M,N,K,stride_am,stride_bk,stride_cm"
CONV_DIV = "--divisible=C,K"
ATTN_DIV = "--divisible=seq_len,stride_bh,stride_s"
TRANSPOSE_DIV = "--divisible=M,N,stride_in,stride_out"
LAYERNORM_DIV = "--divisible=stride,n_cols"


# ---------------------------------------------------------------- sizes
# 4096x4097 is the ragged row (odd stride: no 16-byte vectors, half the
# BLOCK of 8192 masked off); 4096x4112 the next aligned size, same BLOCK.
# fmt: off
SOFTMAX_SIZES = [(4096, 256), (4096, 1024), (4096, 4096), (2048, 8192), (2048, 16384),
                 (4096, 4097), (4096, 4112)]
GELU_SIZES = [1 << 20, 1 << 22, 1 << 24, 1 << 26, (1 << 24) + 123]
MATMUL_F16 = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096),
              (8192, 8192, 8192), (4000, 4096, 4000)]
MATMUL_F32 = [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096),
              (8192, 8192, 8192), (4000, 4096, 4000)]
# fmt: on
CONV_SHAPES = [(32, 56, 64, 64), (32, 28, 128, 128), (32, 14, 256, 256)]
COPY_N = 1 << 28
# Largest relative error (||out - ref|| / ||ref||, float64 reference) that passes.
TOL = {"f32": 1e-5, "f16": 2e-3, "tf32": 2e-3, "bf16": 1.6e-2}

# ---------------------------------------------------------------- same source, same config
# The families of issue 21, measured by bench/same_source.py: our kernel and
# a Triton kernel of the same source and the same configuration (block
# sizes, num_warps, num_stages) in one process, interleaved rounds. Not in
# the default run (BENCH_ONLY=attention,mmsweep,transpose,layernorm).
SAME_SOURCE = ["attention", "mmsweep", "transpose", "layernorm"]
# Attention: examples/attention.tile (the f16 kernel and its bf16 twin).
# Every sequence length with batch*heads = 2^18 / seq (64 heads at 4096):
# 2048 programs of 128 queries, several waves on 132 SMs.
ATTN_SEQS = [1024, 2048, 4096, 8192, 16384]
ATTN_TOKENS = 1 << 18
ATTN_DTYPES = ["f16", "bf16"]
ATTN_HEAD_DIMS = [64, 128]
# (BLOCK_M, BLOCK_N, num_warps, num_stages): the example's own, and the
# Hopper-sized tile of Triton's tutorial 06.
ATTN_CONFIGS = [(64, 64, 4, 2), (128, 64, 8, 3)]
# The matmul sweep: bench/kernels/matmul.tile's matmul_f16 / matmul_f32 at
# 4096^3 against peers.py's matmul_kernel with each configuration
# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages). Every one fits the
# 227 KiB of shared memory of sm_90 with its stages.
# fmt: off
MMSWEEP_SIZE = (4096, 4096, 4096)
MMSWEEP_CONFIGS = {
    "f16": [(64, 64, 32, 4, 4), (64, 64, 64, 4, 3), (64, 128, 32, 4, 4), (64, 128, 64, 4, 3),
            (128, 64, 32, 4, 4), (128, 64, 64, 4, 4), (128, 128, 32, 4, 4), (128, 128, 32, 8, 2),
            (128, 128, 64, 4, 4), (128, 128, 64, 8, 3), (128, 128, 64, 8, 5), (64, 256, 64, 4, 3),
            (128, 256, 32, 8, 4), (128, 256, 64, 8, 3), (256, 128, 32, 8, 4), (256, 128, 64, 8, 3)],
    "f32": [(64, 64, 32, 4, 4), (64, 64, 64, 4, 3), (64, 128, 32, 4, 3), (128, 64, 32, 4, 3),
            (128, 64, 64, 4, 2), (128, 128, 32, 4, 3), (128, 128, 32, 8, 3), (128, 128, 32, 8, 4),
            (128, 128, 64, 8, 2), (128, 256, 32, 8, 3), (256, 128, 32, 8, 3), (256, 64, 32, 8, 4)],
}
# fmt: on
# Transpose: bench/kernels/transpose.tile, a square and a ragged size
# (odd strides: no 16-byte vectors) with tiles (BLOCK_M, BLOCK_N, num_warps).
TRANSPOSE_SIZES = [(8192, 8192), (8100, 8200)]
TRANSPOSE_DTYPES = ["f32", "f16"]
TRANSPOSE_TILES = [(64, 64, 4), (32, 32, 4), (128, 64, 8)]
# Layer norm (examples/layernorm.tile, tutorial 05's forward): M rows of N.
LAYERNORM_M = 4096
LAYERNORM_NS = [1024, 2048, 4096, 8192, 16384]
LAYERNORM_DTYPES = ["f16", "f32"]


def gelu_shape(n):
    lg = int(math.log2(n))
    return "2^%d f32" % lg if n == 1 << lg else "2^%d+%d f32" % (lg, n - (1 << lg))


def mm_shape(M, N, K, dt):
    return ("%d^3 %s" % (M, dt)) if M == N == K else ("%dx%dx%d %s" % (M, N, K, dt))


def conv_shape(NB, H, C, K):
    return "N%d %dx%d C%d K%d 3x3 f16" % (NB, H, H, C, K)


def softmax_variant(N):
    return "softmax_%d" % N


def gelu_variant(n):
    return "gelu_div16" if n % 16 == 0 else "gelu_ragged"


def sizes():
    """Every measured size, labelled as in the benchmark table; softmax and
    GeLU name the one variant that runs them (matmul and conv2d try theirs)."""
    return {
        # The ceiling (2^28), and the bytes of the 4096x4096 and 2048x16384
        # softmax rows: what a copy of the same size reaches with the same
        # L2 flush (the flush leaves L2 full of dirty lines that the timed
        # kernel writes back; small sizes feel it most).
        "copy": [
            dict(n=n, shape="2^%d f32" % (n.bit_length() - 1), variant="copy")
            for n in (COPY_N, 1 << 24, 1 << 25)
        ],
        "softmax": [
            dict(M=M, N=N, shape="%dx%d f32" % (M, N), variant=softmax_variant(N))
            for M, N in SOFTMAX_SIZES
        ],
        "gelu": [dict(n=n, shape=gelu_shape(n), variant=gelu_variant(n)) for n in GELU_SIZES],
        "matmul": [
            dict(M=M, N=N, K=K, dtype=dt, shape=mm_shape(M, N, K, "tf32" if dt == "f32" else dt))
            for dt, ss in [("f16", MATMUL_F16), ("f32", MATMUL_F32)]
            for M, N, K in ss
        ],
        "conv2d": [
            dict(N=NB, H=H, C=C, K=K, shape=conv_shape(NB, H, C, K)) for NB, H, C, K in CONV_SHAPES
        ],
        "attention": [
            dict(BH=ATTN_TOKENS // S, S=S, D=D, dtype=dt, causal=c, shape=attn_shape(S, D, dt, c))
            for dt in ATTN_DTYPES
            for D in ATTN_HEAD_DIMS
            for c in (False, True)
            for S in ATTN_SEQS
        ],
        "mmsweep": [
            dict(M=M, N=N, K=K, dtype=dt, shape=mm_shape(M, N, K, "tf32" if dt == "f32" else dt))
            for dt in MMSWEEP_CONFIGS
            for M, N, K in [MMSWEEP_SIZE]
        ],
        "transpose": [
            dict(M=M, N=N, dtype=dt, shape="%dx%d %s" % (M, N, dt))
            for dt in TRANSPOSE_DTYPES
            for M, N in TRANSPOSE_SIZES
        ],
        "layernorm": [
            dict(M=LAYERNORM_M, N=N, dtype=dt, shape="%dx%d %s" % (LAYERNORM_M, N, dt))
            for dt in LAYERNORM_DTYPES
            for N in LAYERNORM_NS
        ],
    }


def attn_shape(S, D, dt, causal):
    return "BH%d S%d D%d %s%s" % (ATTN_TOKENS // S, S, D, dt, " causal" if causal else "")


def attention_variant_name(dt, D, causal, cfg):
    return "attention_%s_d%d_%s_%dx%d_w%d_s%d" % ((dt, D, "c" if causal else "n") + tuple(cfg))


def mmsweep_variant_name(dt, cfg):
    return "mmsweep_%s_%dx%dx%d_w%d_s%d" % ((dt,) + tuple(cfg))


def transpose_variant_name(dt, tile, ragged):
    return "transpose_%s_%dx%d_w%d%s" % ((dt,) + tuple(tile) + ("_ragged" if ragged else "",))


def layernorm_configs(N, dt):
    """(BLOCK, num_warps): tutorial 05's launch (the whole row in one block
    up to 64 KiB, a warp per 256 elements, 1 to 8 warps), and 1024-element
    chunks with 4 warps (every pass loops over the row)."""
    block = min(65536 // (2 if dt == "f16" else 4), 1 << (N - 1).bit_length())
    cfgs = [(block, min(max(block // 256, 1), 8))]
    if block > 1024:
        cfgs.append((1024, 4))
    return cfgs


def layernorm_variant_name(dt, block, nw):
    return "layernorm_%s_b%d_w%d" % (dt, block, nw)


def family(v):
    """The benchmark family of a variant (run_bench.py --only): its name's
    first word (the mmx_ experiments are matmul's)."""
    f = v["variant"].split("_")[0]
    return "matmul" if f == "mmx" else f


def _softmax_nw(block):
    # Triton's choice (tsoftmax in bench/peers.py): 4 warps up to 2048, 8 up to 8192, else 16
    return 4 if block <= 2048 else (8 if block <= 8192 else 16)


def variant(name, tile, kernel, defines, num_warps, flags, num_stages=None):
    """One variant (one PTX): its .tile file and kernel, constexprs, warps,
    software-pipeline stages (tilec's default if None) and more tilec flags."""
    v = dict(variant=name, tile=tile, kernel=kernel, defines=defines, num_warps=num_warps)
    if num_stages is not None:
        v["num_stages"] = num_stages
    v["flags"] = flags
    return v


def matmul_variant(name, kernel, bm, bn, bk, nw, ns):
    defines = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8}
    return variant(name, "matmul.tile", kernel, defines, nw, [MATMUL_DIV], ns)


def conv_variant(name, kernel, bm, bn, bc, nw, ns):
    defines = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_C": bc}
    return variant(name, "conv2d.tile", kernel, defines, nw, [CONV_DIV], ns)


def variants():
    v = [variant("copy", "copy.tile", "copy", {"BLOCK": 4096}, 4, ["--divisible=n"])]
    # fmt: off
    for n, block, div in [(256, 256, True), (1024, 1024, True), (4096, 4096, True),
                          (8192, 8192, True), (16384, 16384, True),
                          (4097, 8192, False), (4112, 8192, True)]:
        # fmt: on
        flags = [SOFTMAX_DIV] if div else []
        v.append(variant("softmax_%d" % n, "softmax.tile", "softmax", {"BLOCK": block},
                         _softmax_nw(block), flags))
        # Alternatives tile-bench also tries (softmax_N_wW): other warp counts
        # (a ragged row, scalar loads, runs fastest with 4 warps), at least
        # one 16-byte vector and at most 64 elements per thread.
        for nw in (1, 2, 4, 8, 16, 32):
            if nw != _softmax_nw(block) and 4 <= block // (32 * nw) <= 64:
                v.append(variant("softmax_%d_w%d" % (n, nw), "softmax.tile", "softmax",
                                 {"BLOCK": block}, nw, list(flags)))
    for name, flags in (("gelu_div16", ["--divisible=n"]), ("gelu_ragged", [])):
        v.append(variant(name, "gelu.tile", "gelu", {"BLOCK": 1024}, 4, flags))
        # Alternatives tile-bench also tries (GELU_bBLOCK_wW): more elements
        # per thread, more warps per program, or one 16-byte vector per thread.
        for block, nw in ((2048, 4), (4096, 4), (4096, 8), (1024, 8), (512, 4)):
            v.append(variant("%s_b%d_w%d" % (name, block, nw), "gelu.tile", "gelu",
                             {"BLOCK": block}, nw, flags))
    # On sm_90a, tiles with all warps along M (BM a multiple of 16 * warps)
    # run on wgmma: 128x256x64 with 8 warps is Triton's Hopper choice.
    # fmt: off
    mm_cfgs = {"f16": [(128, 128, 32, 8), (128, 128, 64, 8), (64, 64, 32, 4),
                       (128, 256, 64, 8), (128, 128, 64, 4)],
               "f32": [(128, 128, 32, 8), (64, 64, 32, 4),
                       (128, 256, 32, 8), (64, 128, 32, 4), (128, 64, 32, 4)]}
    # fmt: on
    for dt in ["f16", "f32"]:
        for bm, bn, bk, nw in mm_cfgs[dt]:
            name = "matmul_%s_%dx%dx%d_w%d" % (dt, bm, bn, bk, nw)
            v.append(matmul_variant(name, "matmul_" + dt, bm, bn, bk, nw, 3))
    # Deeper cp.async rings (sm_90a): 4 stages; the half-size tiles fill
    # more SMs at 1024^3 (64 tiles of 128x128 leave half of 132 idle).
    for bm, bn, bk, nw in [
        (128, 128, 64, 4),
        (128, 256, 64, 8),
        (64, 128, 64, 4),
        (128, 64, 64, 4),
    ]:
        name = "matmul_f16_%dx%dx%d_w%d_s4" % (bm, bn, bk, nw)
        v.append(matmul_variant(name, "matmul_f16", bm, bn, bk, nw, 4))
    # Masked rows and columns instead of `% M` / `% N`: the loads are boxes
    # of A and B, copied by the copy engine (TMA) on sm_90a.
    # fmt: off
    for dt, bm, bn, bk, nw, ns in [("f16", 128, 256, 64, 8, 3), ("f16", 128, 256, 64, 8, 4),
                                   ("f16", 128, 128, 64, 4, 4), ("f16", 128, 64, 64, 4, 4),
                                   ("f32", 128, 256, 32, 8, 3), ("f32", 128, 128, 32, 8, 3)]:
        # fmt: on
        name = "matmul_%s_tma_%dx%dx%d_w%d_s%d" % (dt, bm, bn, bk, nw, ns)
        v.append(matmul_variant(name, "matmul_%s_masked" % dt, bm, bn, bk, nw, ns))
    # experiment: B offsets masked instead of `% N` (see matmul.tile)
    v.append(matmul_variant("mmx_f16nomod_128x128x32_w8", "matmul_f16_nomod", 128, 128, 32, 8, 3))
    for bm, bn, bc, nw in [(64, 64, 32, 8), (128, 64, 32, 4), (128, 128, 32, 8), (128, 64, 64, 4)]:
        name = "conv2d_%dx%dx%d_w%d" % (bm, bn, bc, nw)
        v.append(conv_variant(name, "conv2d", bm, bn, bc, nw, 3))
    # Triton's best configurations for the 28x28 and 14x14 shapes (conv2d),
    # taps and channels in one loop, tap addresses incremental (conv2d_inc),
    # the same with a run-time loop over the filter taps (conv2d_taps).
    # fmt: off
    for kernel, configs in (
            ("conv2d", [(128, 128, 32, 4, 4), (64, 64, 64, 4, 4)]),
            ("conv2d_inc", [(128, 64, 32, 4, 3), (128, 128, 32, 4, 4), (64, 64, 64, 4, 4),
                            (128, 64, 64, 4, 3), (128, 128, 64, 8, 3), (64, 128, 64, 4, 4),
                            (64, 64, 64, 4, 3), (64, 128, 32, 4, 4)]),
            ("conv2d_taps", [(128, 64, 32, 4, 3), (128, 128, 32, 4, 4), (64, 64, 64, 4, 4)])):
        # fmt: on
        for bm, bn, bc, nw, ns in configs:
            name = "%s_%dx%dx%d_w%d_s%d" % (kernel, bm, bn, bc, nw, ns)
            v.append(conv_variant(name, kernel, bm, bn, bc, nw, ns))
    return v + same_source_variants()


def same_source_variants():
    """The variants of SAME_SOURCE. The attention and layer-norm kernels are
    the examples' (a `tile` path relative to bench/kernels, which is also
    where examples/ lies in the GPU bundle)."""
    v = []
    for dt in ATTN_DTYPES:
        kernel = "attention" if dt == "f16" else "attention_bf16"
        for D in ATTN_HEAD_DIMS:
            for causal in (False, True):
                for bm, bn, nw, ns in ATTN_CONFIGS:
                    name = attention_variant_name(dt, D, causal, (bm, bn, nw, ns))
                    defines = {"HEAD_DIM": D, "BLOCK_M": bm, "BLOCK_N": bn, "CAUSAL": int(causal)}
                    v.append(
                        variant(
                            name,
                            "../../examples/attention.tile",
                            kernel,
                            defines,
                            nw,
                            [ATTN_DIV],
                            ns,
                        )
                    )
    for dt, cfgs in MMSWEEP_CONFIGS.items():
        for bm, bn, bk, nw, ns in cfgs:
            name = mmsweep_variant_name(dt, (bm, bn, bk, nw, ns))
            v.append(matmul_variant(name, "matmul_" + dt, bm, bn, bk, nw, ns))
    for dt in TRANSPOSE_DTYPES:
        for bm, bn, nw in TRANSPOSE_TILES:
            for ragged in (False, True):
                v.append(
                    variant(
                        transpose_variant_name(dt, (bm, bn, nw), ragged),
                        "transpose.tile",
                        "transpose_" + dt,
                        {"BLOCK_M": bm, "BLOCK_N": bn},
                        nw,
                        [] if ragged else [TRANSPOSE_DIV],
                    )
                )
    for dt in LAYERNORM_DTYPES:
        kernel = "layernorm" if dt == "f16" else "layernorm_f32"
        blocks = sorted({c for N in LAYERNORM_NS for c in layernorm_configs(N, dt)})
        for block, nw in blocks:
            v.append(
                variant(
                    layernorm_variant_name(dt, block, nw),
                    "../../examples/layernorm.tile",
                    kernel,
                    {"BLOCK": block},
                    nw,
                    [LAYERNORM_DIV],
                    3,
                )
            )
    return v


def tilec_args(v):
    a = ["-k", v["kernel"]]
    for k, val in v["defines"].items():
        a += ["-D", "%s=%s" % (k, val)]
    a.append("--num-warps=%d" % v["num_warps"])
    if "num_stages" in v:
        a.append("--num-stages=%d" % v["num_stages"])
    return a + list(v["flags"])


def divisible(v):
    """The integer parameters that --divisible declares multiples of 16."""
    return [
        p
        for f in v["flags"]
        if f.startswith("--divisible=")
        for p in f.split("=", 1)[1].split(",")
        if p
    ]


def to_json():
    vs = [dict(v, divisible=divisible(v)) for v in variants()]
    return json.dumps({"variants": vs, "sizes": sizes(), "tolerances": TOL}, indent=1)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--list"] and len(sys.argv) <= 3:
        fams = sys.argv[2].split(",") if len(sys.argv) == 3 else None
        for v in variants():
            if fams is None or family(v) in fams:
                print("\t".join([v["variant"], v["tile"], v["kernel"], " ".join(tilec_args(v))]))
    elif sys.argv[1:] == ["--json"]:
        print(to_json())
    else:
        print(__doc__)
        sys.exit(2)
