"""The GPU suite's kernel manifest: variant -> (source relative to the repo
root, kernel, constexprs, num_warps, num_stages, more tilec flags).
scripts/build-gpu-bundle.sh compiles each (`check.py --list-kernels`) to
KERNELS_DIR/VARIANT.ptx + VARIANT.json. Also the tile shapes and types the
checks loop over, and SASS_CHECKS (`check.py --list-sass`). A source
`gen:DIR/FILE` is generated (the layout pairs, last). Standard library
only: the build machine reads it without numpy.
"""
from checks.layouts import PAIRS as LAYOUT_PAIRS

KERNELS = {}


def kern(variant, src, kernel=None, nw=None, ns=None, flags=(), **defs):
    """nw / ns: override num_warps / num_stages (tilec --num-warps/--num-stages);
    flags: more tilec options (e.g. --divisible=C,K)."""
    KERNELS[variant] = (src, kernel or variant, defs, nw, ns, tuple(flags))
    return variant


def tile_variant(prefix, tile):
    """The variant name of a looped matmul on tile (BM, BN, BK, warps,
    stages): PREFIX_BMxBNxBK_wW_sS."""
    return "%s_%dx%dx%d_w%d_s%d" % ((prefix,) + tuple(tile))


def kern_tile(prefix, kernel, tile, flags=()):
    bm, bn, bk, nw, ns = tile
    kern(tile_variant(prefix, tile), DOT, kernel, nw=nw, ns=ns, flags=flags, BM=bm, BN=bn, BK=bk)


G = "test/gpu/"
DOT = G + "dot.tile"
for _k in ("pid_1d", "pid_2d", "pid_3d", "arange_start", "cdiv_k"):
    kern(_k, G + "indexing.tile")
for _k in ("create_1d", "create_2d"):
    kern(_k, G + "creation.tile")
for _k in """load_other store_mask copy_types gather_2d atomics atomic_colsum big_offsets
        big_i64 huge_copy huge_rows""".split():
    kern(_k, G + "memory.tile")
kern("bool_io", G + "memory.tile")
kern("atomics_w1", G + "memory.tile", "atomics", nw=1)
kern("atomic_colsum_w8", G + "memory.tile", "atomic_colsum", nw=8)
LIBDEVICE_F32 = """log1p expm1 log10 exp10 asin acos atan sinh cosh tan cbrt trunc round
    rint sqrt_rn""".split()
LIBDEVICE_BINARY_F32 = ("pow", "atan2", "fmod")
for _f in LIBDEVICE_F32 + list(LIBDEVICE_BINARY_F32) + ["umulhi"]:
    kern("l_" + _f, G + "libdevice.tile")
for _k in """int_ops int64_ops float_ops cas_ops tickets replicated_olds spin_lock""".split():
    kern(_k, G + "atomics.tile")
    kern(_k + "_sm80", G + "atomics.tile", _k, flags=("--arch=sm_80",))
# Looped-matmul sizes (M, N, K): N and K multiples of 8 / of 4, or M and
# K multiples of 8 for trans(at) @ trans(bt); not multiples of the tiles.
MM8_SHAPES = ((300, 264, 328), (64, 8, 8), (129, 136, 24))
MM4_SHAPES = ((300, 260, 100), (5, 4, 4), (129, 68, 36))
MM_TT_SHAPES = ((296, 270, 328), (8, 5, 8), (136, 129, 24))
DOT_TYPES = ("f16", "bf16", "tf32", "ieee")
DOT_SIZES = ((16, 16, 16), (32, 32, 32), (64, 64, 64), (16, 64, 32), (64, 32, 16))
for _t in DOT_TYPES:
    for _m, _n, _k in DOT_SIZES:
        kern("dot_%s_%dx%dx%d" % (_t, _m, _n, _k), DOT, "dot_" + _t, BM=_m, BN=_n, BK=_k)
    kern("dot_acc_" + _t, DOT)
    kern("dot_nt_" + _t, DOT)
    kern("mm_" + _t, DOT)
    kern("mm_%s_small" % _t, DOT, "mm_" + _t, BM=32, BN=32, BK=16)
# More (or fewer) warps than the tile needs: replicated / wide layouts.
DOT_WARPS = (("f16", 16, 8), ("tf32", 16, 8), ("bf16", 64, 8), ("ieee", 32, 2), ("f16", 64, 1))
for _t, _s, _w in DOT_WARPS:
    kern("dot_%s_%d_w%d" % (_t, _s, _w), DOT, "dot_" + _t, nw=_w, BM=_s, BN=_s, BK=_s)
kern("mm_f16_w8", DOT, "mm_f16", nw=8)
# Tiles that fit Hopper's warp-group MMA (wgmma when compiled for sm_90a):
# (type, BM, BN, BK, warps); swizzles of 32/64/128 bytes, several swizzle
# columns along K and N, two warp groups, two 64-row repetitions; tf32 with
# B staged transposed (contiguous along K) and rounded to nearest.
# fmt: off
WGMMA_TILES = (("f16", 128, 128, 64, 4), ("f16", 128, 256, 32, 8), ("f16", 64, 16, 16, 4),
               ("f16", 128, 128, 128, 8), ("bf16", 128, 64, 64, 4), ("bf16", 64, 256, 16, 4),
               ("tf32", 128, 128, 32, 8), ("tf32", 128, 64, 64, 4), ("tf32", 64, 256, 16, 4))
# fmt: on
for _t, _m, _n, _k, _w in WGMMA_TILES:
    kern("dot_%s_%dx%dx%d_w%d" % (_t, _m, _n, _k, _w), DOT, "dot_" + _t, nw=_w, BM=_m, BN=_n, BK=_k)
kern("dot_nt_f16_64", DOT, "dot_nt_f16", BM=64, BN=64, BK=64)
kern("dot_nt_f16_128_w8", DOT, "dot_nt_f16", nw=8, BM=128, BN=128, BK=64)
kern("dot_tn_f16", DOT)
kern("dot_tn_f16_128x32", DOT, "dot_tn_f16", BM=128, BN=32, BK=32)
kern("mm_f16_128_w8", DOT, "mm_f16", nw=8, BM=128, BN=128, BK=64)
kern("mm_bf16_128x64", DOT, "mm_bf16", BM=128, BN=64, BK=32)
# Asynchronous copy rings (sm_90a; both operands by TMA): (BM, BN, BK,
# warps, stages)
ASYNC_TILES = ((128, 128, 64, 8, 3), (64, 64, 32, 4, 2), (128, 256, 64, 8, 4), (64, 128, 16, 4, 5))
for _tile in ASYNC_TILES:
    kern_tile("mm_f16_async", "mm_f16_async", _tile)
    kern_tile("mm_f16_cpasync", "mm_f16_cpasync", _tile)
kern("mm_tf32_w2", DOT, "mm_tf32", nw=2)
# tl.dot_scaled (e2m1 x e4m3, e8m0 scales) in a K loop, both targets.
kern("mm_mxfp", DOT)
kern("mm_mxfp_sm80", DOT, "mm_mxfp", flags=("--arch=sm_80",))
# Bulk tensor copies (TMA, sm_90a; on sm_90 the same kernels use cp.async or
# registers). Which operand takes which path on sm_90a (tilec --emit=tilegpu:
# async_tma_copy_global_to_local vs async_copy_global_to_local):
#   mm_bf16_async_*   A TMA, B TMA
#   mm_tf32_mixed     A TMA, B cp.async (rows wrapped with % K: not a box)
#   mm_tf32_nt        A TMA, B TMA (a @ trans(w), w N x K: staged as
#                     loaded, a K-major transposed view)
#   mm_f16_tt         A TMA (at[K, M], tile contiguous along M),
#                     B TMA (bt[N, K], tile contiguous along K)
#   mm_f16_tt_trans   A TMA (tile loaded [BK, BM] then trans(): staged as
#                     loaded, read through a transposed view), B TMA
#   mm_f16_ptrs*      A TMA, B TMA (loop-carried pointers, lda/ldb divisible)
#   mm_f16_nomask     A TMA, B TMA (no mask: unbounded extents)
BF16_ASYNC_TILES = ((128, 128, 64, 8, 3), (64, 256, 32, 4, 4))
for _tile in BF16_ASYNC_TILES:
    kern_tile("mm_bf16_async", "mm_bf16_async", _tile)
kern("mm_tf32_mixed", DOT)
kern("mm_tf32_nt", DOT)
kern("mm_f16_tt", DOT)
kern("mm_f16_tt_trans", DOT, BM=64, BN=64, BK=32)
kern("mm_f16_ptrs", DOT, flags=["--divisible=lda,ldb"])
kern(
    "mm_f16_ptrs_64",
    DOT,
    "mm_f16_ptrs",
    nw=4,
    ns=4,
    flags=["--divisible=lda,ldb"],
    BM=64,
    BN=64,
    BK=32,
)
kern("mm_f16_nomask", DOT)
# cp.async rings for mma.sync (operands staged in swizzled shared memory,
# read with ldmatrix; tf32 element by element): sm_80 PTX (runs on any GPU
# from sm_80 on), and on sm_90a a tile wgmma does not take (64 rows, 8
# warps): mma.sync fed by TMA. ldmatrix modes: mm_f16_* A as stored, B
# transposed; mm_f16_tt A transposed, B as stored.
SM80 = ["--arch=sm_80"]
RING80_TILES = ((128, 128, 64, 8, 3), (64, 64, 32, 4, 2), (64, 128, 16, 4, 5), (128, 128, 32, 4, 4))
for _tile in RING80_TILES:
    kern_tile("mm_f16_ring80", "mm_f16_async", _tile, flags=SM80)
kern("mm_bf16_ring80", DOT, "mm_bf16_async", flags=SM80)
kern("mm_f16_tt_ring80", DOT, "mm_f16_tt", flags=SM80)
kern("mm_tf32_ring80", DOT, "mm_tf32_mixed", flags=SM80)
kern("mm_f16_tt_trans_ring80", DOT, "mm_f16_tt_trans", flags=SM80, BM=64, BN=64, BK=32)
kern("mm_tf32_nt_ring80", DOT, "mm_tf32_nt", flags=SM80)
# mma.sync on sm_90a (64-row tiles on 8 warps): a cp.async ring, as on
# sm_80 (bulk copies only feed warp-group dots).
kern("mm_f16_mma_sm90_64x128x32_w8", DOT, "mm_f16_async", nw=8, BM=64, BN=128, BK=32)
# SASS of the tensor-core pipelines and the memory-bound kernels (test
# "sass"): cubins that scripts/build-gpu-bundle.sh makes with ptxas (each
# PTX's .target), read with cuobjdump -sass on the GPU machine: (variant,
# opcodes that must be there, opcodes that must not). A name without a dot
# matches every form of the opcode (LDG: LDG.E, LDG.E.128, ...), one with
# dots only that form (LDG.E is a 32-bit load, LDG.E.128 a 16-byte one).
# LDL/STL are local memory (spills).
SASS_CHECKS = (
    # Rows and sizes known multiples of 16: every access is 16 bytes.
    ("softmax_div", ("LDG.E.128", "STG.E.128", "SHFL.BFLY"), ("LDL", "STL", "LDG.E", "STG.E")),
    (
        "gelu_div",
        ("LDG.E.128", "STG.E.128"),
        ("LDL", "STL", "LDG.E", "STG.E", "LDG.E.U16", "STG.E.U16"),
    ),
    (
        "mm_f16_async_128x128x64_w8_s3",
        ("HGMMA", "UTMALDG", "SYNCS"),
        ("LDL", "STL", "LDGSTS", "HMMA"),
    ),
    ("mm_f16_cpasync_128x128x64_w8_s3", ("HGMMA", "LDGSTS"), ("LDL", "STL")),
    ("mm_f16_ring80_128x128x64_w8_s3", ("HMMA", "LDSM", "LDGSTS"), ("LDL", "STL", "HGMMA")),
    (
        "mm_f16_mma_sm90_64x128x32_w8",
        ("HMMA", "LDSM", "LDGSTS"),
        ("LDL", "STL", "HGMMA", "UTMALDG"),
    ),
    ("mm_tf32_ring80", ("HMMA", "LDGSTS"), ("LDL", "STL")),
)
# Loops without dots pipelined through shared-memory rings (pipeline.tile).
PIPE = G + "pipeline.tile"
kern("pl_softmax", PIPE)
kern("pl_softmax_s1", PIPE, "pl_softmax", STAGES=1)
kern("pl_softmax_s2", PIPE, "pl_softmax", STAGES=2)
kern("pl_softmax_s4", PIPE, "pl_softmax", STAGES=4)
kern("pl_softmax_w8", PIPE, "pl_softmax", nw=8, BLOCK=1024, STAGES=4)
kern("pl_rowsum", PIPE, flags=("--divisible=stride,n_cols",))
kern("pl_rowsum_s2", PIPE, "pl_rowsum", flags=("--divisible=stride,n_cols",), STAGES=2)
kern("pl_gather", PIPE)
for _k in ("red_axis1", "red_axis0", "red_all", "red_i32", "red_1d", "red_ties"):
    kern(_k, G + "reduce.tile")
kern("red_axis1_w8", G + "reduce.tile", "red_axis1", nw=8)
kern("red_axis0_w1", G + "reduce.tile", "red_axis0", nw=1)
kern("red_all_w8", G + "reduce.tile", "red_all", nw=8)
kern("red_ties_w8", G + "reduce.tile", "red_ties", nw=8)
kern("red_ties_w1", G + "reduce.tile", "red_ties", nw=1)
for _k in ("scan_rows", "scan_cols", "scan_1d", "reduce_fn"):
    kern(_k, G + "scan.tile")
    kern(_k + "_w1", G + "scan.tile", _k, nw=1)
kern("scan_rows_w8", G + "scan.tile", "scan_rows", nw=8)
kern("scan_cols_w8", G + "scan.tile", "scan_cols", nw=8)
kern("scan_1d_w4", G + "scan.tile", "scan_1d", nw=4, BLOCK=1024)
kern("reduce_fn_w8", G + "scan.tile", "reduce_fn", nw=8)
UNARY_F32 = "exp exp2 log log2 sqrt rsqrt abs sin cos tanh erf sigmoid floor ceil".split()
UNARY_LOW = ("exp", "sqrt", "sin", "tanh", "sigmoid", "abs")
for _f in UNARY_F32:
    kern("u_" + _f, G + "elementwise.tile")
for _t in ("f16", "bf16", "f64"):
    for _f in UNARY_LOW:
        kern("u_%s_%s" % (_f, _t), G + "elementwise.tile")
ELEMENTWISE = "binary_f32 binary_i32 where_scalar arith_f32 div_rn_f32 arith_i32 compare div_scalar"
for _k in (ELEMENTWISE + " inline_asm").split():
    kern(_k, G + "elementwise.tile")
CAST_TYPES = "i8 i16 i32 i64 u32 f16 bf16 f32 f64".split()
for _t in CAST_TYPES + ["i1"]:
    kern("cast_" + _t, G + "casts.tile")
for _k in ("fp8_cvt", "fp8_scale"):
    kern(_k, G + "fp8.tile")
    # sm_80 has no fp8 cvt: the same bits from integer operations.
    kern(_k + "_sm80", G + "fp8.tile", _k, flags=["--arch=sm_80"])
for _k in (
    "permute3",
    "join_split",
    "bitcasts",
    "desc_trans",
    "bp_matmul",
    "flips",
    "sort_rows",
    "hist_cat",
    "topk_rows",
    "erfinv_hypot",
    "gathers",
):
    kern(_k, G + "blocks.tile")
kern("permute3_w1", G + "blocks.tile", "permute3", nw=1)
kern("permute3_w8", G + "blocks.tile", "permute3", nw=8)
kern("join_split_w8", G + "blocks.tile", "join_split", nw=8)
kern("desc_trans_w8", G + "blocks.tile", "desc_trans", nw=8)
kern("bp_matmul_s1", G + "blocks.tile", "bp_matmul", ns=1)
kern("flips_w8", G + "blocks.tile", "flips", nw=8)
kern("sort_rows_w8", G + "blocks.tile", "sort_rows", nw=8)
for _k in ("trans_k", "reshape_k", "bcast_k", "bcast_col", "hints_copy", "hints_2d"):
    kern(_k, G + "shape.tile")
kern("trans_k_w8", G + "shape.tile", "trans_k", nw=8)
kern("trans_k_w1", G + "shape.tile", "trans_k", nw=1)
for _k in ("if_merge", "if_param", "for_loops", "while_loops", "static_loops", "helpers"):
    kern(_k, G + "control.tile")
kern("if_param_flag0", G + "control.tile", "if_param", FLAG=0)
kern("dprint", G + "debug.tile")
E = "examples/"
kern("vector_add", E + "vector_add.tile")
kern("softmax", E + "softmax.tile")
kern("softmax_b2048", E + "softmax.tile", "softmax", BLOCK=2048)
kern("softmax_w8", E + "softmax.tile", "softmax", nw=8)
kern("softmax_w1", E + "softmax.tile", "softmax", nw=1, BLOCK=256)
kern(
    "softmax_div", E + "softmax.tile", "softmax", flags=["--divisible=in_stride,out_stride,n_cols"]
)
kern("gelu", E + "gelu.tile")
kern("gelu_div", E + "gelu.tile", "gelu", flags=["--divisible=n"])
kern("matmul", E + "matmul.tile")
kern("matmul_64", E + "matmul.tile", "matmul", BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=4)
kern("conv2d", E + "conv2d.tile")
# The benchmark's tiles: channels divisible by 16 (vector loads, cp.async
# rings on sm_90a); with BLOCK_C=64 the filter tile (contiguous along C, its
# rows) keeps a layout of its own next to the activation tile.
for _variant, _nw, _ns, _bm, _bn, _bc in (
    ("conv2d_c32", 4, None, 128, 64, 32),
    ("conv2d_c64", 4, None, 128, 64, 64),
    ("conv2d_c32_w8", 8, None, 128, 128, 32),
    ("conv2d_128x128_s4", 4, 4, 128, 128, 32),
    ("conv2d_64x64_s4", 4, 4, 64, 64, 64),
):
    kern(
        _variant,
        E + "conv2d.tile",
        "conv2d",
        nw=_nw,
        ns=_ns,
        flags=["--divisible=C,K"],
        BLOCK_M=_bm,
        BLOCK_N=_bn,
        BLOCK_C=_bc,
    )
kern("min_of_negation", G + "regress.tile")
kern("minmax_2d", G + "regress.tile")
kern("layernorm", E + "layernorm.tile")
kern("layernorm_f32", E + "layernorm.tile")
kern("online_softmax", E + "online_softmax.tile")
kern("attention", E + "attention.tile")
kern("attention_causal", E + "attention.tile", "attention", CAUSAL=1)
kern("attention_bf16", E + "attention.tile")
kern("attention_bf16_d128_causal", E + "attention.tile", "attention_bf16", HEAD_DIM=128, CAUSAL=1)
for _c in (0, 1):
    kern(
        "attention_d128_bm128_w8" + ("_causal" if _c else ""),
        E + "attention.tile",
        "attention",
        nw=8,
        ns=3,
        HEAD_DIM=128,
        BLOCK_M=128,
        CAUSAL=_c,
    )
# bench/kernels/transpose.tile (the benchmark's same-source transpose)
kern("transpose_f32", "bench/kernels/transpose.tile")
kern("transpose_f16_32x32", "bench/kernels/transpose.tile", "transpose_f16", BLOCK_M=32, BLOCK_N=32)
# Conversions between the register layouts of 2-D f16/f32 tiles
# (checks/layouts.py): tilegpu-level kernels that test/gpu/layout_pairs.py
# writes; a source "gen:layout_pairs/NAME" is that file, which
# scripts/build-gpu-bundle.sh generates before compiling (each for its arch:
# sm_80, or sm_90a with an mma v3 layout).
for _pair in LAYOUT_PAIRS:
    kern(_pair.variant, "gen:layout_pairs/%s.mlir" % _pair.variant, flags=["--arch=" + _pair.arch])
