#!/usr/bin/env python3
"""tilec GPU correctness suite: runs the kernels of test/gpu/*.tile and
examples/*.tile, compiled ahead of time to PTX + JSON, through the kernel ABI
alone (SPEC §2): CuPy's RawModule loads each .ptx, the .json gives the
parameter order and types, num_warps and shared_bytes. No LLVM is needed here.

  check.py --list-kernels            the manifest (used by scripts/build-gpu-bundle.sh;
                                     needs neither numpy nor a GPU)
  check.py [--kernels DIR] [--small] [--seed N] [--only SUBSTR] [--json FILE]
                                     run the suite; one line per check, then
                                     'N passed, M failed'; exit 1 on any failure
  check.py --table RUN.json [MEMCHECK.json MEMCHECK.log]
                                     print the per-feature summary table

Every run uses fresh random inputs (the seed is printed; --seed repeats it),
ragged sizes (masks), outputs poisoned with 0xFF bytes (NaN for floats) and
surrounded by poisoned guard zones, and compares against a float64 NumPy
reference with the relative-error thresholds of PERF.md. --small (or
TILEC_GPU_SMALL=1) uses fewer/smaller sizes and no guard zones, for
compute-sanitizer. Tests run in a worker process; a sticky CUDA error (an
illegal address...) fails that test and the suite goes on in a new worker.
"""
import argparse
import ctypes
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------
# Kernel manifest: variant -> (source relative to the repo root, kernel,
# constexprs). scripts/build-gpu-bundle.sh compiles each to
# KERNELS_DIR/VARIANT.ptx + VARIANT.json.
# --------------------------------------------------------------------------
KERNELS = {}


def kern(variant, src, kernel=None, nw=None, ns=None, flags=(), **defs):
    """nw / ns: override num_warps / num_stages (tilec --num-warps/--num-stages);
    flags: more tilec options (e.g. --divisible=C,K)."""
    KERNELS[variant] = (src, kernel or variant, defs, nw, ns, tuple(flags))
    return variant


G = "test/gpu/"
for _k in ("pid_1d", "pid_2d", "pid_3d", "arange_start", "cdiv_k"):
    kern(_k, G + "indexing.tile")
for _k in ("create_1d", "create_2d"):
    kern(_k, G + "creation.tile")
for _k in ("load_other", "store_mask", "copy_types", "gather_2d", "atomics",
           "atomic_colsum", "big_offsets", "big_i64", "huge_copy", "huge_rows"):
    kern(_k, G + "memory.tile")
kern("bool_io", G + "memory.tile")
kern("atomics_w1", G + "memory.tile", "atomics", nw=1)
kern("atomic_colsum_w8", G + "memory.tile", "atomic_colsum", nw=8)
# Looped-matmul sizes (M, N, K): N and K multiples of 8 / of 4, or M and
# K multiples of 8 for trans(at) @ trans(bt); not multiples of the tiles.
MM8_SHAPES = ((300, 264, 328), (64, 8, 8), (129, 136, 24))
MM4_SHAPES = ((300, 260, 100), (5, 4, 4), (129, 68, 36))
MM_TT_SHAPES = ((296, 270, 328), (8, 5, 8), (136, 129, 24))
DOT_TYPES = ("f16", "bf16", "tf32", "ieee")
DOT_SIZES = ((16, 16, 16), (32, 32, 32), (64, 64, 64), (16, 64, 32),
             (64, 32, 16))
for _t in DOT_TYPES:
    for (_m, _n, _k) in DOT_SIZES:
        kern("dot_%s_%dx%dx%d" % (_t, _m, _n, _k), G + "dot.tile", "dot_" + _t,
             BM=_m, BN=_n, BK=_k)
    kern("dot_acc_" + _t, G + "dot.tile")
    kern("dot_nt_" + _t, G + "dot.tile")
    kern("mm_" + _t, G + "dot.tile")
    kern("mm_%s_small" % _t, G + "dot.tile", "mm_" + _t, BM=32, BN=32, BK=16)
# More (or fewer) warps than the tile needs: replicated / wide layouts.
DOT_WARPS = (("f16", 16, 8), ("tf32", 16, 8), ("bf16", 64, 8), ("ieee", 32, 2),
             ("f16", 64, 1))
for _t, _s, _w in DOT_WARPS:
    kern("dot_%s_%d_w%d" % (_t, _s, _w), G + "dot.tile", "dot_" + _t, nw=_w,
         BM=_s, BN=_s, BK=_s)
kern("mm_f16_w8", G + "dot.tile", "mm_f16", nw=8)
# Tiles that fit Hopper's warp-group MMA (wgmma when compiled for sm_90a):
# (type, BM, BN, BK, warps); swizzles of 32/64/128 bytes, several swizzle
# columns along K and N, two warp groups, two 64-row repetitions; tf32 with
# B staged transposed (contiguous along K) and rounded to nearest.
WGMMA_TILES = (("f16", 128, 128, 64, 4), ("f16", 128, 256, 32, 8),
               ("f16", 64, 16, 16, 4), ("f16", 128, 128, 128, 8),
               ("bf16", 128, 64, 64, 4), ("bf16", 64, 256, 16, 4),
               ("tf32", 128, 128, 32, 8), ("tf32", 128, 64, 64, 4),
               ("tf32", 64, 256, 16, 4))
for _t, _m, _n, _k, _w in WGMMA_TILES:
    kern("dot_%s_%dx%dx%d_w%d" % (_t, _m, _n, _k, _w), G + "dot.tile",
         "dot_" + _t, nw=_w, BM=_m, BN=_n, BK=_k)
kern("dot_nt_f16_64", G + "dot.tile", "dot_nt_f16", BM=64, BN=64, BK=64)
kern("dot_nt_f16_128_w8", G + "dot.tile", "dot_nt_f16", nw=8, BM=128, BN=128,
     BK=64)
kern("dot_tn_f16", G + "dot.tile")
kern("dot_tn_f16_128x32", G + "dot.tile", "dot_tn_f16", BM=128, BN=32, BK=32)
kern("mm_f16_128_w8", G + "dot.tile", "mm_f16", nw=8, BM=128, BN=128, BK=64)
kern("mm_bf16_128x64", G + "dot.tile", "mm_bf16", BM=128, BN=64, BK=32)
# Asynchronous copy rings (sm_90a; both operands by TMA): (BM, BN, BK,
# warps, stages)
ASYNC_TILES = ((128, 128, 64, 8, 3), (64, 64, 32, 4, 2), (128, 256, 64, 8, 4),
               (64, 128, 16, 4, 5))
for _m, _n, _k, _w, _s in ASYNC_TILES:
    kern("mm_f16_async_%dx%dx%d_w%d_s%d" % (_m, _n, _k, _w, _s), G + "dot.tile",
         "mm_f16_async", nw=_w, ns=_s, BM=_m, BN=_n, BK=_k)
    kern("mm_f16_cpasync_%dx%dx%d_w%d_s%d" % (_m, _n, _k, _w, _s), G + "dot.tile",
         "mm_f16_cpasync", nw=_w, ns=_s, BM=_m, BN=_n, BK=_k)
kern("mm_tf32_w2", G + "dot.tile", "mm_tf32", nw=2)
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
for _m, _n, _k, _w, _s in BF16_ASYNC_TILES:
    kern("mm_bf16_async_%dx%dx%d_w%d_s%d" % (_m, _n, _k, _w, _s),
         G + "dot.tile", "mm_bf16_async", nw=_w, ns=_s, BM=_m, BN=_n, BK=_k)
kern("mm_tf32_mixed", G + "dot.tile")
kern("mm_tf32_nt", G + "dot.tile")
kern("mm_f16_tt", G + "dot.tile")
kern("mm_f16_tt_trans", G + "dot.tile", BM=64, BN=64, BK=32)
kern("mm_f16_ptrs", G + "dot.tile", flags=["--divisible=lda,ldb"])
kern("mm_f16_ptrs_64", G + "dot.tile", "mm_f16_ptrs", nw=4, ns=4,
     flags=["--divisible=lda,ldb"], BM=64, BN=64, BK=32)
kern("mm_f16_nomask", G + "dot.tile")
# cp.async rings for mma.sync (operands staged in swizzled shared memory,
# read with ldmatrix; tf32 element by element): sm_80 PTX (runs on any GPU
# from sm_80 on), and on sm_90a a tile wgmma does not take (64 rows, 8
# warps): mma.sync fed by TMA. ldmatrix modes: mm_f16_* A as stored, B
# transposed; mm_f16_tt A transposed, B as stored.
SM80 = ["--arch=sm_80"]
RING80_TILES = ((128, 128, 64, 8, 3), (64, 64, 32, 4, 2), (64, 128, 16, 4, 5),
                (128, 128, 32, 4, 4))
for _m, _n, _k, _w, _s in RING80_TILES:
    kern("mm_f16_ring80_%dx%dx%d_w%d_s%d" % (_m, _n, _k, _w, _s),
         G + "dot.tile", "mm_f16_async", nw=_w, ns=_s, flags=SM80, BM=_m,
         BN=_n, BK=_k)
kern("mm_bf16_ring80", G + "dot.tile", "mm_bf16_async", flags=SM80)
kern("mm_f16_tt_ring80", G + "dot.tile", "mm_f16_tt", flags=SM80)
kern("mm_tf32_ring80", G + "dot.tile", "mm_tf32_mixed", flags=SM80)
kern("mm_f16_tt_trans_ring80", G + "dot.tile", "mm_f16_tt_trans", flags=SM80,
     BM=64, BN=64, BK=32)
kern("mm_tf32_nt_ring80", G + "dot.tile", "mm_tf32_nt", flags=SM80)
kern("mm_f16_tma_mma_64x128x32_w8", G + "dot.tile", "mm_f16_async", nw=8,
     BM=64, BN=128, BK=32)
# SASS of the tensor-core pipelines and the memory-bound kernels (test
# "sass"): cubins that scripts/build-gpu-bundle.sh makes with ptxas (each
# PTX's .target), read with cuobjdump -sass on the GPU machine: (variant,
# opcodes that must be there, opcodes that must not). A name without a dot
# matches every form of the opcode (LDG: LDG.E, LDG.E.128, ...), one with
# dots only that form (LDG.E is a 32-bit load, LDG.E.128 a 16-byte one).
# LDL/STL are local memory (spills).
SASS_CHECKS = (
    # Rows and sizes known multiples of 16: every access is 16 bytes.
    ("softmax_div", ("LDG.E.128", "STG.E.128", "SHFL.BFLY"),
     ("LDL", "STL", "LDG.E", "STG.E")),
    ("gelu_div", ("LDG.E.128", "STG.E.128"),
     ("LDL", "STL", "LDG.E", "STG.E", "LDG.E.U16", "STG.E.U16")),
    ("mm_f16_async_128x128x64_w8_s3", ("HGMMA", "UTMALDG", "SYNCS"),
     ("LDL", "STL", "LDGSTS", "HMMA")),
    ("mm_f16_cpasync_128x128x64_w8_s3", ("HGMMA", "LDGSTS"), ("LDL", "STL")),
    ("mm_f16_ring80_128x128x64_w8_s3", ("HMMA", "LDSM", "LDGSTS"),
     ("LDL", "STL", "HGMMA")),
    ("mm_f16_tma_mma_64x128x32_w8", ("HMMA", "LDSM", "UTMALDG"),
     ("LDL", "STL", "HGMMA")),
    ("mm_tf32_ring80", ("HMMA", "LDGSTS"), ("LDL", "STL")),
)
for _k in ("red_axis1", "red_axis0", "red_all", "red_i32", "red_1d", "red_ties"):
    kern(_k, G + "reduce.tile")
kern("red_axis1_w8", G + "reduce.tile", "red_axis1", nw=8)
kern("red_axis0_w1", G + "reduce.tile", "red_axis0", nw=1)
kern("red_all_w8", G + "reduce.tile", "red_all", nw=8)
kern("red_ties_w8", G + "reduce.tile", "red_ties", nw=8)
kern("red_ties_w1", G + "reduce.tile", "red_ties", nw=1)
UNARY_F32 = ("exp exp2 log log2 sqrt rsqrt abs sin cos tanh erf sigmoid "
             "floor ceil").split()
UNARY_LOW = ("exp", "sqrt", "sin", "tanh", "sigmoid", "abs")
for _f in UNARY_F32:
    kern("u_" + _f, G + "elementwise.tile")
for _t in ("f16", "bf16", "f64"):
    for _f in UNARY_LOW:
        kern("u_%s_%s" % (_f, _t), G + "elementwise.tile")
for _k in ("binary_f32", "binary_i32", "where_scalar", "arith_f32", "arith_i32",
           "compare", "div_scalar"):
    kern(_k, G + "elementwise.tile")
CAST_TYPES = "i8 i16 i32 i64 u32 f16 bf16 f32 f64".split()
for _t in CAST_TYPES + ["i1"]:
    kern("cast_" + _t, G + "casts.tile")
for _k in ("trans_k", "reshape_k", "bcast_k", "bcast_col", "hints_copy",
           "hints_2d"):
    kern(_k, G + "shape.tile")
kern("trans_k_w8", G + "shape.tile", "trans_k", nw=8)
kern("trans_k_w1", G + "shape.tile", "trans_k", nw=1)
for _k in ("if_merge", "if_param", "for_loops", "while_loops", "static_loops",
           "helpers"):
    kern(_k, G + "control.tile")
kern("if_param_flag0", G + "control.tile", "if_param", FLAG=0)
kern("dprint", G + "debug.tile")
E = "examples/"
kern("vector_add", E + "vector_add.tile")
kern("softmax", E + "softmax.tile")
kern("softmax_b2048", E + "softmax.tile", "softmax", BLOCK=2048)
kern("softmax_w8", E + "softmax.tile", "softmax", nw=8)
kern("softmax_w1", E + "softmax.tile", "softmax", nw=1, BLOCK=256)
kern("softmax_div", E + "softmax.tile", "softmax",
     flags=["--divisible=in_stride,out_stride,n_cols"])
kern("gelu", E + "gelu.tile")
kern("gelu_div", E + "gelu.tile", "gelu", flags=["--divisible=n"])
kern("matmul", E + "matmul.tile")
kern("matmul_64", E + "matmul.tile", "matmul", BLOCK_M=64, BLOCK_N=64,
     BLOCK_K=32, GROUP_M=4)
kern("conv2d", E + "conv2d.tile")
# The benchmark's tiles: channels divisible by 16 (vector loads, cp.async
# rings on sm_90a); with BLOCK_C=64 the filter tile (contiguous along C, its
# rows) keeps a layout of its own next to the activation tile.
kern("conv2d_c32", E + "conv2d.tile", "conv2d", nw=4, flags=["--divisible=C,K"],
     BLOCK_M=128, BLOCK_N=64, BLOCK_C=32)
kern("conv2d_c64", E + "conv2d.tile", "conv2d", nw=4, flags=["--divisible=C,K"],
     BLOCK_M=128, BLOCK_N=64, BLOCK_C=64)
kern("conv2d_c32_w8", E + "conv2d.tile", "conv2d", nw=8, flags=["--divisible=C,K"],
     BLOCK_M=128, BLOCK_N=128, BLOCK_C=32)
kern("conv2d_128x128_s4", E + "conv2d.tile", "conv2d", nw=4, ns=4,
     flags=["--divisible=C,K"], BLOCK_M=128, BLOCK_N=128, BLOCK_C=32)
kern("conv2d_64x64_s4", E + "conv2d.tile", "conv2d", nw=4, ns=4,
     flags=["--divisible=C,K"], BLOCK_M=64, BLOCK_N=64, BLOCK_C=64)
kern("min_of_negation", G + "regress.tile")
kern("minmax_2d", G + "regress.tile")
kern("layernorm", E + "layernorm.tile")
kern("online_softmax", E + "online_softmax.tile")
kern("attention", E + "attention.tile")
kern("attention_causal", E + "attention.tile", "attention", CAUSAL=1)


def cdiv(a, b):
    return (a + b - 1) // b


# --------------------------------------------------------------------------
# Test registry (order is fixed: the worker resumes by index).
# --------------------------------------------------------------------------
TESTS = []


def test(group, name=None):
    def deco(fn):
        TESTS.append((group, name or fn.__name__, fn))
        return fn
    return deco


np = cp = None  # imported lazily: --list-kernels needs neither


class TestFailure(Exception):
    pass


def ptr_dtypes():
    return {
        "i1": (np.bool_, np.int8, np.uint8), "i8": (np.int8,), "u8": (np.uint8,),
        "i16": (np.int16,), "u16": (np.uint16,), "i32": (np.int32,),
        "u32": (np.uint32,), "i64": (np.int64,), "u64": (np.uint64,),
        "f16": (np.float16,), "bf16": (np.uint16,), "f32": (np.float32,),
        "f64": (np.float64,),
    }


SCALAR_NP = {"i1": "bool_", "i8": "int8", "u8": "uint8", "i16": "int16",
             "u16": "uint16", "i32": "int32", "u32": "uint32", "i64": "int64",
             "u64": "uint64", "f16": "float16", "f32": "float32",
             "f64": "float64"}


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
            raise TestFailure("%s.json: threads_per_block %s != 32*num_warps"
                              % (variant, m.get("threads_per_block")))
        self.shared = int(m.get("shared_bytes", 0))
        with open(base + ".ptx") as f:
            ptx = f.read()
        self.ptx = ptx
        if ".visible .entry %s(" % self.name not in ptx:
            raise TestFailure("%s.ptx has no '.visible .entry %s('"
                              % (variant, self.name))
        self.mod = cp.RawModule(path=base + ".ptx")
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
                raise TestFailure("kernel %s: no value for parameter '%s' (%s)"
                                  % (self.name, name, ty))
            v = kw.pop(name)
            if ty.startswith("*"):
                if not isinstance(v, cp.ndarray):
                    raise TestFailure("parameter %s is %s: pass an array" % (name, ty))
                if v.dtype.type not in pd[ty[1:]]:
                    raise TestFailure("parameter %s is %s but the array is %s"
                                      % (name, ty, v.dtype))
                args.append(v)
            else:
                if ty not in SCALAR_NP:
                    raise TestFailure("no numpy scalar for %s (%s)" % (name, ty))
                args.append(getattr(np, SCALAR_NP[ty])(v))
        if kw:
            raise TestFailure("kernel %s has no parameter(s) %s (params: %s)" % (
                self.name, sorted(kw), [p["name"] for p in self.meta["params"]]))
        grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
        if min(grid) < 1:
            raise TestFailure("empty grid %s" % (grid,))
        if stream is None:
            self.fn(grid, (self.threads, 1, 1), tuple(args), shared_mem=self.shared)
        else:  # RawKernel launches on the current stream
            with stream:
                self.fn(grid, (self.threads, 1, 1), tuple(args),
                        shared_mem=self.shared)


# --------------------------------------------------------------------------
# Numeric helpers
# --------------------------------------------------------------------------
FMT = {  # mantissa bits, min normal exponent
    "f16": (10, -14), "bf16": (7, -126), "f32": (23, -126), "f64": (52, -1022)}


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
    e = np.floor(np.log2(np.maximum(a, 2.0 ** emin)))
    return 2.0 ** (e - mb)


def loguniform(rng, lo, hi, n):
    return np.exp(rng.uniform(math.log(lo), math.log(hi), n))


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
        self.outs = []
        self.guard = 0 if small else self.GUARD
        self.sizes = [4097] if small else [1, 1000, 4097, 70001]

    # ---- kernels and buffers -------------------------------------------
    def k(self, variant):
        return Kernel(self.kdir, variant)

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
        view = base[g:g + n]
        if fill == "zero":
            view.fill(0)
        self.outs.append((base, g, n))
        return view.reshape(shape)

    def get(self, a):
        return cp.asnumpy(a)

    def finish(self):
        """Guard zones must still hold the poison."""
        bad = []
        for base, g, n in self.outs:
            if g == 0:
                continue
            raw = cp.asnumpy(base).view(np.uint8)
            isz = base.dtype.itemsize
            lo, hi = raw[:g * isz], raw[(g + n) * isz:]
            if (lo != 255).any() or (hi != 255).any():
                nlo = int(np.count_nonzero((lo.reshape(g, isz) != 255).any(1)))
                nhi = int(np.count_nonzero((hi.reshape(g, isz) != 255).any(1)))
                bad.append("buffer of %d %s: %d elements written before it, "
                           "%d after it" % (n, base.dtype, nlo, nhi))
        if bad:
            self.record("no out-of-bounds writes (guard zones)", False,
                        "; ".join(bad))

    # ---- checks ---------------------------------------------------------
    def record(self, what, ok, detail=""):
        self.checks.append({"check": what, "ok": bool(ok), "detail": detail})
        full = "%s/%s: %s" % (self.group, self.name, what)
        print("%s  %-58s %s" % ("PASS" if ok else "FAIL", full, detail),
              flush=True)
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
                    fmt_idx(idx[j], shape), float(g[j]), float(r[j]))
        if nanbad.any():
            bad = idx[np.flatnonzero(nanbad)]
            detail += " UNWRITTEN/NaN %d of %d, first at %s" % (
                len(bad), len(idx), ", ".join(fmt_idx(i, shape) for i in bad[:5]))
        if infbad.any():
            bad = np.flatnonzero(infbad)
            detail += " inf mismatch %d, first %s: got %r want %r" % (
                len(bad), fmt_idx(idx[bad[0]], shape), float(g[bad[0]]),
                float(r[bad[0]]))
        if not ok and rel > tol and d.size:
            j = int(np.argmax(np.abs(d)))
            nwrong = int(np.count_nonzero(
                np.abs(d) > max(tol, 1e-7) * np.maximum(np.abs(r), 1e-30)))
            detail += " worst %s: got %r want %r; %d elements off" % (
                fmt_idx(idx[j], shape), float(g[j]), float(r[j]), nwrong)
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
        ex = ", ".join("%s: got %s want %s" % (fmt_idx(idx[b], shape), g[b], r[b])
                       for b in bad[:4])
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
        ex = ", ".join("[%d]: got %s want %s" % (b, got.ravel()[b], ref.ravel()[b])
                       for b in bad[:4])
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
            return self.record(what, True, "%d masked-off elements untouched"
                               % int(np.count_nonzero(where)))
        return self.record(what, False, "%d masked-off elements written, first at %s"
                           % (len(bad), ", ".join(fmt_idx(b, got.shape) for b in bad[:5])))


def poison_mask_for(shape, written):
    return ~np.broadcast_to(written, shape)


# ==========================================================================
# Tests
# ==========================================================================
# ---- indexing ------------------------------------------------------------
@test("indexing", "program_id/num_programs 1-D")
def t_pid_1d(t):
    k = t.k("pid_1d")
    for n in t.sizes:
        grid = cdiv(n, 128)
        oi, op, on = t.out(n, np.int32), t.out(n, np.int32), t.out(n, np.int32)
        k((grid,), out_idx=oi, out_pid=op, out_np=on, n=n)
        i = np.arange(n)
        t.exact("n=%d offs (arange)" % n, oi, i)
        t.exact("n=%d program_id(0)" % n, op, i // 128)
        t.exact("n=%d num_programs(0)" % n, on, np.full(n, grid))


@test("indexing", "program_id/num_programs 2-D")
def t_pid_2d(t):
    k = t.k("pid_2d")
    M, N, stride = 37, 70, 75
    g0, g1 = cdiv(M, 16), cdiv(N, 32)
    out, info = t.out((M, stride), np.int32), t.out(g0 * g1 * 4, np.int32)
    k((g0, g1), out=out, info=info, M=M, N=N, stride=stride)
    r, c = np.arange(M)[:, None], np.arange(stride)[None, :]
    written = np.broadcast_to(c < N, (M, stride))
    t.exact("out[r,c] = r*1000+c", out, r * 1000 + c, where=written)
    t.untouched("columns >= N untouched", out, ~written)
    p0, p1 = np.meshgrid(np.arange(g0), np.arange(g1), indexing="ij")
    ref = np.stack([p0, p1, np.full_like(p0, g0), np.full_like(p0, g1)], -1)
    t.exact("(pid0, pid1, np0, np1) per program", info.reshape(g0, g1, 4), ref)


@test("indexing", "program_id/num_programs 3-D")
def t_pid_3d(t):
    k = t.k("pid_3d")
    g = (3, 4, 5)
    nprog = g[0] * g[1] * g[2]
    out, info = t.out(nprog * 64, np.int32), t.out(nprog * 6, np.int32)
    k(g, out=out, info=info)
    t.exact("out = lin*64 + i", out, np.arange(nprog * 64))
    ref = np.zeros((g[2], g[1], g[0], 6), np.int64)
    p2, p1, p0 = np.meshgrid(np.arange(g[2]), np.arange(g[1]), np.arange(g[0]),
                             indexing="ij")
    ref[..., 0], ref[..., 1], ref[..., 2] = p0, p1, p2
    ref[..., 3], ref[..., 4], ref[..., 5] = g
    t.exact("(p0,p1,p2,n0,n1,n2) per program", info, ref.reshape(-1))


@test("indexing", "arange with start")
def t_arange(t):
    k = t.k("arange_start")
    n = 100
    out = t.out(n, np.int32)
    k((cdiv(n, 32),), out=out, n=n)
    i = np.arange(n)
    t.exact("arange(16, 48) + pid*1000", out, 16 + i % 32 + (i // 32) * 1000)


@test("indexing", "cdiv")
def t_cdiv(t):
    k = t.k("cdiv_k")
    for n in t.sizes:
        a = t.rng.integers(0, 10000, n).astype(np.int32)
        b = t.rng.integers(1, 50, n).astype(np.int32)
        out, nb = t.out(n, np.int32), t.out(2, np.int32)
        k((cdiv(n, 256),), out=out, nb=nb, a=t.inp(a), b=t.inp(b), n=n, d=7)
        t.exact("n=%d cdiv(block, block)" % n, out, (a + b - 1) // b)
        t.exact("n=%d cdiv(n, BLOCK), cdiv(n, d)" % n, nb, [cdiv(n, 256), cdiv(n, 7)])


# ---- creation ------------------------------------------------------------
@test("creation", "zeros/full/zeros_like 1-D")
def t_create_1d(t):
    k = t.k("create_1d")
    for n in t.sizes:
        o = [t.out(n, np.float32) for _ in range(3)]
        oi, oh = t.out(n, np.int32), t.out(n, np.float16)
        x = t.rng.standard_normal(n).astype(np.float32)
        k((cdiv(n, 512),), out_z=o[0], out_f=o[1], out_zl=o[2], out_i=oi,
          out_h=oh, x=t.inp(x), n=n)
        t.exact("n=%d zeros f32" % n, o[0], np.zeros(n, np.float32))
        t.exact("n=%d full 3.5 f32" % n, o[1], np.full(n, 3.5, np.float32))
        t.exact("n=%d zeros_like + 7" % n, o[2], np.full(n, 7.0, np.float32))
        t.exact("n=%d full -5 i32" % n, oi, np.full(n, -5, np.int32))
        t.exact("n=%d full 1.25 f16" % n, oh, np.full(n, 1.25, np.float16))


@test("creation", "zeros/full 2-D")
def t_create_2d(t):
    k = t.k("create_2d")
    M, N = 77, 50
    out, outi = t.out((M, N), np.float32), t.out((M, N), np.int64)
    k((cdiv(M, 32),), out=out, outi=outi, M=M, N=N)
    r, c = np.arange(M)[:, None], np.arange(N)[None, :]
    t.exact("zeros + full(2.0)*r + c", out, (2.0 * r + c).astype(np.float32))
    t.exact("zeros(i64) + 1, * r", outi, np.broadcast_to(r, (M, N)))


# ---- memory --------------------------------------------------------------
@test("memory", "load mask/other")
def t_load_other(t):
    k = t.k("load_other")
    for n in t.sizes:
        g = cdiv(n, 256)
        x = (t.rng.standard_normal(n) + 3).astype(np.float32)
        o, o0 = t.out(g * 256, np.float32), t.out(g * 256, np.float32)
        k((g,), out=o, out0=o0, x=t.inp(x), n=n)
        pad = g * 256 - n
        t.exact("n=%d other=-2.5" % n, o, np.concatenate([x, np.full(pad, -2.5, np.float32)]))
        t.exact("n=%d no other -> 0" % n, o0, np.concatenate([x, np.zeros(pad, np.float32)]))


@test("memory", "store mask")
def t_store_mask(t):
    k = t.k("store_mask")
    for n in t.sizes:
        g = cdiv(n, 256)
        x = t.rng.standard_normal(n).astype(np.float32)
        o = t.out(g * 256, np.float32)
        k((g,), out=o, x=t.inp(x), n=n)
        i = np.arange(g * 256)
        m = (i < n) & (i % 3 != 0)
        ref = np.zeros(g * 256, np.float32)
        ref[:n] = 2 * x
        t.exact("n=%d stored lanes" % n, o, ref, where=m)
        t.untouched("n=%d masked-off lanes untouched" % n, o, ~m)


@test("memory", "load/store element types")
def t_copy_types(t):
    k = t.k("copy_types")
    rng = t.rng
    for n in t.sizes:
        x8 = rng.integers(-128, 128, n).astype(np.int8)
        x16 = rng.integers(-32768, 32768, n).astype(np.int16)
        x64 = rng.integers(-2 ** 62, 2 ** 62, n, dtype=np.int64)
        xu8 = rng.integers(0, 256, n).astype(np.uint8)
        xh = rng.standard_normal(n).astype(np.float16)
        xb = bf16_from_f64(rng.standard_normal(n))
        xd = rng.standard_normal(n)
        outs = dict(o8=t.out(n, np.int8), o16=t.out(n, np.int16),
                    o64=t.out(n, np.int64), ou8=t.out(n, np.uint8),
                    oh=t.out(n, np.float16), ob=t.out(n, np.uint16),
                    od=t.out(n, np.float64))
        k((cdiv(n, 512),), x8=t.inp(x8), x16=t.inp(x16), x64=t.inp(x64),
          xu8=t.inp(xu8), xh=t.inp(xh), xb=t.inp(xb), xd=t.inp(xd), n=n, **outs)
        t.bits("n=%d i8" % n, outs["o8"], x8)
        t.bits("n=%d i16" % n, outs["o16"], x16)
        t.bits("n=%d i64 (+1)" % n, outs["o64"], x64 + 1)
        t.bits("n=%d u8" % n, outs["ou8"], xu8)
        t.bits("n=%d f16" % n, outs["oh"], xh)
        t.bits("n=%d bf16" % n, outs["ob"], xb)
        t.bits("n=%d f64" % n, outs["od"], xd)


@test("memory", "i1 load/store (1 byte per element)")
def t_bool_io(t):
    k = t.k("bool_io")
    for n in t.sizes:
        x = t.rng.random(n) < 0.5
        o, y = t.out(n, np.bool_), t.out(n, np.int32)
        k((cdiv(n, 512),), out=o, y=y, x=t.inp(x), n=n)
        t.exact("n=%d store ~x as bytes 0/1" % n, t.get(o).view(np.uint8),
                (~x).astype(np.uint8))
        t.exact("n=%d x.to(i32) + 2" % n, y, x.astype(np.int32) + 2)


@test("memory", "2-D strided gather + transposed scatter")
def t_gather_2d(t):
    k = t.k("gather_2d")
    M, N, ld = 45, 70, 80
    x = t.rng.standard_normal((M, ld)).astype(np.float32)
    o = t.out((N, M), np.float32)
    k((cdiv(M, 32), cdiv(N, 32)), outT=o, x=t.inp(x), M=M, N=N, ld=ld)
    t.exact("outT[c, r] = x[r, c]", o, x[:, :N].T)


@test("memory", "atomic_add f32/i32 masked + scalar")
def t_atomics(t):
  NB = 17
  for var, nw in (("atomics", 4), ("atomics_w1", 1)):
    k = t.k(var)
    for n in t.sizes:
        g = cdiv(n, 256)
        x = t.rng.uniform(0.1, 1.0, n).astype(np.float32)
        w = t.rng.integers(-100, 101, n).astype(np.int32)
        bins, cnt = t.out(NB, np.float32, "zero"), t.out(NB, np.int32, "zero")
        tot = t.out(1, np.float32, "zero")
        k((g,), bins=bins, cnt=cnt, total=tot, x=t.inp(x), w=t.inp(w), n=n)
        i = np.arange(n)
        t.close("w%d n=%d f32 bins[i%%17] += x" % (nw, n), bins,
                np.bincount(i % NB, weights=x.astype(np.float64), minlength=NB), 1e-5)
        t.exact("w%d n=%d i32 cnt[i%%17] += w" % (nw, n), cnt,
                np.bincount(i % NB, weights=w, minlength=NB).astype(np.int64))
        t.close("w%d n=%d scalar atomic total += sum (once per program)" % (nw, n),
                tot, [x.astype(np.float64).sum()], 1e-5)


@test("memory", "atomic_add 2-D column sums")
def t_atomic_colsum(t):
    for var in ("atomic_colsum", "atomic_colsum_w8"):
        k = t.k(var)
        M, N = 100, 50
        x = t.rng.uniform(-1, 1, (M, N)).astype(np.float32)
        cs = t.out(N, np.float32, "zero")
        k((cdiv(M, 16),), colsum=cs, x=t.inp(x), M=M, N=N)
        t.close("%s colsum[c] += sum(x[rows, c])" % var, cs,
                x.astype(np.float64).sum(0), 1e-5)


@test("memory", "addresses past 2 GiB (i32 offsets, i64 base)")
def t_big(t):
    if t.small:
        t.record("skipped with --small (needs 6.5 GB)", True)
        return
    k = t.k("big_offsets")
    base, n = (1 << 29) + 12345, 5000          # base * 4 bytes > 2^31
    x, o = cp.empty(base + n, cp.float32), cp.empty(base + n + 256, cp.float32)
    xv = t.rng.standard_normal(n).astype(np.float32)
    x[base:] = cp.asarray(xv)
    o[base - 256:].view(cp.uint8).fill(255)
    k((cdiv(n, 1024),), out=o, x=x, base=base, n=n)
    got = cp.asnumpy(o[base - 256:])
    t.exact("f32 x[offs] + 1 at element offsets ~2^29 (bytes > 2^31)", got[256:256 + n],
            xv + np.float32(1))
    t.untouched("f32 neighbours untouched", got,
                np.r_[np.ones(256, bool), np.zeros(n, bool), np.ones(256, bool)])
    del x, o
    k2 = t.k("big_i64")
    base, n = (1 << 31) + 1000, 3000           # element offsets > 2^31
    x, o = cp.empty(base + n, cp.int8), cp.empty(base + n + 256, cp.int8)
    xv = t.rng.integers(-100, 100, n).astype(np.int8)
    x[base:] = cp.asarray(xv)
    o[base - 256:].fill(-1)
    k2((cdiv(n, 1024),), out=o, x=x, base=base, n=n)
    got = cp.asnumpy(o[base - 256:])
    t.exact("i8 ptr + i64 base (2^31 + 1000) + offs", got[256:256 + n], xv + 1)
    t.untouched("i8 neighbours untouched", got,
                np.r_[np.ones(256, bool), np.zeros(n, bool), np.ones(256, bool)])
    del x, o
    # > 2^31 elements with i32 program ids/offsets (exact offsets and mask).
    k3 = t.k("huge_copy")
    n = (1 << 31) + 3000 + 7
    x = cp.empty(n, cp.int8)
    chunk = 1 << 28                              # keeps temporaries small
    for i in range(0, n, chunk):
        j = min(n, i + chunk)
        x[i:j] = (cp.arange(i, j, dtype=cp.int64) % 251 - 125).astype(cp.int8)
    o = cp.empty(n + 4096, cp.int8)
    o.fill(-1)
    k3((cdiv(n, 1024),), out=o, x=x, n=n)
    cp.cuda.runtime.deviceSynchronize()
    bad = 0
    for i in range(0, n, chunk):
        j = min(n, i + chunk)
        want = (x[i:j].astype(cp.int16) + 1).astype(cp.int8)
        bad += int(cp.count_nonzero(o[i:j] != want))
    t.record("i8 copy of 2^31 + 3007 elements, i32 pid * BLOCK + arange (%d wrong)"
             % bad, bad == 0)
    tail = cp.asnumpy(o[n:])
    t.record("i8 poison past n untouched", bool(np.all(tail == -1)))
    del x, o
    k4 = t.k("huge_rows")
    rows, stride, ncols = 3, (1 << 30) + 4099, 1000   # row 2 starts past 2^31
    size = (rows - 1) * stride + ncols
    x = cp.empty(size, cp.int8)
    o = cp.empty(size + 256, cp.int8)
    o.fill(-1)
    xv = t.rng.integers(-60, 60, (rows, ncols)).astype(np.int8)
    for r in range(rows):
        x[r * stride:r * stride + ncols] = cp.asarray(xv[r])
    k4((rows, cdiv(ncols, 256)), out=o, x=x, stride=stride, ncols=ncols)
    for r in range(rows):
        got = cp.asnumpy(o[r * stride - (256 if r else 0):r * stride + ncols + 256])
        lead = 256 if r else 0
        t.exact("i8 row %d at element %d (row * stride, i32)" % (r, r * stride),
                got[lead:lead + ncols], xv[r] * 2)
        t.untouched("i8 row %d neighbours untouched" % r, got,
                    np.r_[np.ones(lead, bool), np.zeros(ncols, bool),
                          np.ones(len(got) - lead - ncols, bool)])


# ---- dot -----------------------------------------------------------------
DOT_TOL = {"f16": 1e-2, "bf16": 1e-2, "tf32": 1e-2, "ieee": 1e-5}


def dot_inputs(t, dt, shape_a, shape_b):
    """Random inputs as device arrays plus their exact float64 values."""
    a = t.rng.standard_normal(shape_a)
    b = t.rng.standard_normal(shape_b)
    if dt == "f16":
        a, b = a.astype(np.float16), b.astype(np.float16)
        return a, b, a.astype(np.float64), b.astype(np.float64)
    if dt == "bf16":
        a, b = bf16_from_f64(a), bf16_from_f64(b)
        return a, b, bf16_to_f64(a), bf16_to_f64(b)
    a, b = a.astype(np.float32), b.astype(np.float32)
    return a, b, a.astype(np.float64), b.astype(np.float64)


def make_dot_test(dt):
    def fn(t):
        tol = DOT_TOL[dt]
        for (bm, bn, bk) in DOT_SIZES:
            M, N, K = bm - 3, bn - 1, bk - 5
            a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
            c = t.out((M, N), np.float32)
            t.k("dot_%s_%dx%dx%d" % (dt, bm, bn, bk))(
                (1,), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
            t.close("%dx%dx%d tile, M,N,K=%d,%d,%d" % (bm, bn, bk, M, N, K), c,
                    a64 @ b64, tol)
        M, N, K = 30, 31, 27
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c0 = t.rng.standard_normal((M, N)).astype(np.float32)
        c = t.out((M, N), np.float32)
        t.k("dot_acc_" + dt)((1,), c=c, c0=t.inp(c0), a=t.inp(a), b=t.inp(b),
                             M=M, N=N, K=K)
        t.close("dot(a, b, acc) 32^3", c, a64 @ b64 + c0, tol)
        a, bt, a64, bt64 = dot_inputs(t, dt, (M, K), (N, K))
        c = t.out((M, N), np.float32)
        t.k("dot_nt_" + dt)((1,), c=c, a=t.inp(a), bt=t.inp(bt), M=M, N=N, K=K)
        t.close("dot(a, trans(bt)) 32^3", c, a64 @ bt64.T, tol)
        for var, (M, N, K), (bm, bn) in (("mm_" + dt, (200, 136, 100), (64, 64)),
                                         ("mm_%s_small" % dt, (45, 77, 53), (32, 32))):
            a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
            c = t.out((M, N), np.float32)
            t.k(var)((cdiv(M, bm), cdiv(N, bn)), c=c, a=t.inp(a), b=t.inp(b),
                     M=M, N=N, K=K)
            t.close("%s looped matmul M,N,K=%d,%d,%d" % (var, M, N, K), c,
                    a64 @ b64, tol)
    return fn


for _t in DOT_TYPES:
    test("dot", "dot " + _t)(make_dot_test(_t))


@test("dot", "dot with 1/2/8 warps")
def t_dot_warps(t):
    for dt, sz, nw in DOT_WARPS:
        M, N, K = sz - 3, sz - 1, sz - 5
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k("dot_%s_%d_w%d" % (dt, sz, nw))((1,), c=c, a=t.inp(a), b=t.inp(b),
                                             M=M, N=N, K=K)
        t.close("%s %d^3 tile, %d warps" % (dt, sz, nw), c, a64 @ b64, DOT_TOL[dt])
    for var, dt in (("mm_f16_w8", "f16"), ("mm_tf32_w2", "tf32")):
        M, N, K = 200, 136, 100
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k(var)((cdiv(M, 64), cdiv(N, 64)), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
        t.close("%s looped matmul M,N,K=%d,%d,%d" % (var, M, N, K), c, a64 @ b64,
                DOT_TOL[dt])


@test("dot", "dot on warp-group (wgmma) tiles")
def t_dot_wgmma(t):
    for dt, bm, bn, bk, nw in WGMMA_TILES:
        M, N, K = bm - 3, bn - 1, bk - 5
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k("dot_%s_%dx%dx%d_w%d" % (dt, bm, bn, bk, nw))(
            (1,), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
        t.close("%s %dx%dx%d tile, %d warps" % (dt, bm, bn, bk, nw), c,
                a64 @ b64, DOT_TOL[dt])
    for var, (M, N, K) in (("dot_nt_f16_64", (61, 63, 59)),
                           ("dot_nt_f16_128_w8", (125, 127, 60))):
        a, bt, a64, bt64 = dot_inputs(t, "f16", (M, K), (N, K))
        c = t.out((M, N), np.float32)
        t.k(var)((1,), c=c, a=t.inp(a), bt=t.inp(bt), M=M, N=N, K=K)
        t.close("%s: a @ trans(bt), M,N,K=%d,%d,%d" % (var, M, N, K), c,
                a64 @ bt64.T, DOT_TOL["f16"])
    for var, (M, N, K) in (("dot_tn_f16", (61, 63, 59)),
                           ("dot_tn_f16_128x32", (125, 30, 29))):
        at, b, at64, b64 = dot_inputs(t, "f16", (K, M), (K, N))
        c = t.out((M, N), np.float32)
        t.k(var)((1,), c=c, at=t.inp(at), b=t.inp(b), M=M, N=N, K=K)
        t.close("%s: trans(at) @ b, M,N,K=%d,%d,%d" % (var, M, N, K), c,
                at64.T @ b64, DOT_TOL["f16"])
    for bm, bn, bk, nw, ns in ASYNC_TILES:
        # N and K multiples of 8 (the kernel's promise), not of the tiles.
        for kind in ("async", "cpasync"):
            var = "mm_f16_%s_%dx%dx%d_w%d_s%d" % (kind, bm, bn, bk, nw, ns)
            mm_cases(t, var, t.k(var), "f16", MM8_SHAPES, bm, bn)
    for var, dt, bm, bn in (("mm_f16_128_w8", "f16", 128, 128),
                            ("mm_bf16_128x64", "bf16", 128, 64)):
        M, N, K = 300, 270, 333
        a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
        c = t.out((M, N), np.float32)
        t.k(var)((cdiv(M, bm), cdiv(N, bn)), c=c, a=t.inp(a), b=t.inp(b),
                 M=M, N=N, K=K)
        t.close("%s looped matmul M,N,K=%d,%d,%d" % (var, M, N, K), c,
                a64 @ b64, DOT_TOL[dt])


def mm_cases(t, var, k, dt, shapes, bm, bn, trans=False, nt=False):
    """Runs the looped matmul `var` (grid cdiv(M, bm) x cdiv(N, bn)) on each
    (M, N, K) of `shapes` against float64: c = a @ b; with `trans`
    trans(at) @ trans(bt) from at (K x M) and bt (N x K); with `nt`
    a @ trans(w) from a (M x K) and w (N x K)."""
    for M, N, K in shapes:
        if trans:
            at, bt, at64, bt64 = dot_inputs(t, dt, (K, M), (N, K))
            args, ref = dict(at=t.inp(at), bt=t.inp(bt)), at64.T @ bt64.T
            what = " trans(at) @ trans(bt)"
        elif nt:
            a, w, a64, w64 = dot_inputs(t, dt, (M, K), (N, K))
            args, ref, what = dict(a=t.inp(a), w=t.inp(w)), a64 @ w64.T, \
                " a @ trans(w)"
        else:
            a, b, a64, b64 = dot_inputs(t, dt, (M, K), (K, N))
            args, ref, what = dict(a=t.inp(a), b=t.inp(b)), a64 @ b64, ""
        c = t.out((M, N), np.float32)
        k((cdiv(M, bm), cdiv(N, bn)), c=c, M=M, N=N, K=K, **args)
        t.close("%s%s M,N,K=%d,%d,%d" % (var, what, M, N, K), c, ref,
                DOT_TOL[dt])


def copy_paths(t, var, k, tma, cpasync):
    """On sm_90a PTX: whether the kernel makes bulk tensor copies (TMA) and
    cp.async copies as expected (a silent fallback would test nothing new)."""
    if ".target sm_90a" not in k.ptx:
        return
    n_tma = k.ptx.count("cp.async.bulk.tensor")
    n_cp = k.ptx.count("cp.async.cg.") + k.ptx.count("cp.async.ca.")
    t.record("%s copies: TMA %s, cp.async %s" % (
        var, "yes" if tma else "no", "yes" if cpasync else "no"),
        (n_tma > 0) == tma and (n_cp > 0) == cpasync,
        "%d cp.async.bulk.tensor, %d cp.async in the PTX" % (n_tma, n_cp))


def padded(x, ld, rows):
    """x (r, c) in a row-major rows x ld buffer whose padding (columns c..ld,
    rows r..rows) is NaN: an operand read past its extent poisons the sums."""
    buf = np.full((rows, ld), np.nan, x.dtype)
    buf[:x.shape[0], :x.shape[1]] = x
    return buf


def mm_ptrs_case(t, M, N, K, bk):
    """Inputs of mm_f16_ptrs with lda > K, ldb > N (multiples of 16): the
    kernel's arguments (output poisoned) and the float64 reference."""
    lda, ldb = cdiv(K, 16) * 16 + 16, cdiv(N, 16) * 16 + 16
    a, b, a64, b64 = dot_inputs(t, "f16", (M, K), (K, N))
    c = t.out((M, N), np.float32)
    kw = dict(c=c, a=t.inp(padded(a, lda, M)), b=t.inp(padded(b, ldb, K + bk)),
              M=M, N=N, K=K, lda=lda, ldb=ldb)
    return kw, a64 @ b64


@test("dot", "bulk tensor copies (TMA) in looped matmuls")
def t_dot_tma(t):
    tol = DOT_TOL["f16"]
    for bm, bn, bk, nw, ns in BF16_ASYNC_TILES:
        var = "mm_bf16_async_%dx%dx%d_w%d_s%d" % (bm, bn, bk, nw, ns)
        k = t.k(var)
        copy_paths(t, var, k, True, False)
        # N and K multiples of 8 (the kernel's promise), not of the tiles.
        mm_cases(t, var, k, "bf16", MM8_SHAPES, bm, bn)
    # A by TMA, B by cp.async in the same loop; N and K multiples of 4.
    k = t.k("mm_tf32_mixed")
    copy_paths(t, "mm_tf32_mixed", k, True, True)
    mm_cases(t, "mm_tf32_mixed", k, "tf32", MM4_SHAPES, 128, 64)
    k = t.k("mm_tf32_nt")
    copy_paths(t, "mm_tf32_nt", k, True, False)
    mm_cases(t, "mm_tf32_nt", k, "tf32", MM4_SHAPES, 128, 64, nt=True)
    # trans(at) @ trans(bt): at is K x M (M a multiple of 8), bt is N x K
    # (K a multiple of 8); N ragged.
    for var, bm, bn in (("mm_f16_tt", 128, 128), ("mm_f16_tt_trans", 64, 64)):
        k = t.k(var)
        copy_paths(t, var, k, True, False)
        mm_cases(t, var, k, "f16", MM_TT_SHAPES, bm, bn, trans=True)
    # Loop-carried pointers, padded rows (NaN past K and N), masks on M, N,
    # K, grouped order: M or N below one tile, K below BK, K = 1.
    for var, bm, bn, bk in (("mm_f16_ptrs", 128, 128, 64),
                            ("mm_f16_ptrs_64", 64, 64, 32)):
        k = t.k(var)
        copy_paths(t, var, k, True, False)
        for M, N, K in ((300, 270, 333), (5, 70, 1), (130, 3, 31),
                        (70, 200, 17), (1, 1, 1), (517, 390, 64)):
            kw, ref = mm_ptrs_case(t, M, N, K, bk)
            what = "%s M,N,K=%d,%d,%d lda=%d ldb=%d" % (var, M, N, K, kw["lda"],
                                                      kw["ldb"])
            k((cdiv(M, bm) * cdiv(N, bn),), **kw)
            t.close(what, kw["c"], ref, tol)
    # No mask: M, N, K multiples of the tile (unbounded extents).
    k = t.k("mm_f16_nomask")
    copy_paths(t, "mm_f16_nomask", k, True, False)
    mm_cases(t, "mm_f16_nomask", k, "f16", ((256, 384, 192), (128, 128, 64)),
             128, 128)


@test("dot", "TMA tensor-map slots: > 8192 programs, 4 streams")
def t_dot_tma_slots(t):
    tol = DOT_TOL["f16"]
    # One module (one slot pool) on 4 streams at once, different inputs:
    # programs of the 4 launches share slot numbers.
    k = t.k("mm_f16_ptrs")
    K0 = 256 if t.small else 2048
    runs = []
    for i in range(4):
        M, N, K = 1000 + 17 * i, 990 - 13 * i, K0 + 8 * i + i % 2
        runs.append(((M, N, K),) + mm_ptrs_case(t, M, N, K, 64))
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(4)]
    cp.cuda.runtime.deviceSynchronize()        # inputs and poison in place
    for s, ((M, N, K), kw, _) in zip(streams, runs):
        k.launch((cdiv(M, 128) * cdiv(N, 128),), s, **kw)
    for s in streams:
        s.synchronize()
    cp.cuda.runtime.deviceSynchronize()
    for i, ((M, N, K), kw, ref) in enumerate(runs):
        t.close("mm_f16_ptrs on stream %d of 4, M,N,K=%d,%d,%d" % (i, M, N, K),
                kw["c"], ref, tol)
    if t.small:
        t.record("> 8192 programs: skipped with --small", True)
        return
    # 94 x 94 = 8836 programs of 64 x 64 (two maps each: slots wrap twice).
    M, N, K = 6000, 6000, 40
    a, b, a64, b64 = dot_inputs(t, "f16", (M, K), (K, N))
    ref = a64 @ b64
    k = t.k("mm_f16_ptrs_64")
    lda, ldb = 48, 6016
    c = t.out((M, N), np.float32)
    k((cdiv(M, 64) * cdiv(N, 64),), c=c, a=t.inp(padded(a, lda, M)),
      b=t.inp(padded(b, ldb, K + 32)), M=M, N=N, K=K, lda=lda, ldb=ldb)
    t.close("mm_f16_ptrs_64, 8836 programs (1-D grid), M,N,K=%d,%d,%d"
            % (M, N, K), c, ref, tol)
    del c
    var = "mm_f16_async_64x64x32_w4_s2"
    k = t.k(var)
    copy_paths(t, var, k, True, False)
    c = t.out((M, N), np.float32)
    k((cdiv(M, 64), cdiv(N, 64)), c=c, a=t.inp(a), b=t.inp(b), M=M, N=N, K=K)
    t.close("%s, 94 x 94 programs, M,N,K=%d,%d,%d" % (var, M, N, K), c, ref, tol)


def ring_paths(t, var, k, tma, ldmatrix):
    """The kernel pipelines its mma.sync operands through shared memory:
    cp.async (or TMA) copies, ldmatrix reads where expected, no wgmma."""
    n_copies = k.ptx.count("cp.async.bulk.tensor" if tma else "cp.async.cg.")
    n_ld = k.ptx.count("ldmatrix")
    ok = (n_copies > 0 and (n_ld > 0) == ldmatrix and "mma.sync" in k.ptx
          and "wgmma" not in k.ptx)
    t.record("%s: %s ring, ldmatrix %s, mma.sync" % (
        var, "TMA" if tma else "cp.async", "yes" if ldmatrix else "no"), ok,
        "%d copies, %d ldmatrix in the PTX" % (n_copies, n_ld))


@test("dot", "cp.async / TMA rings feeding mma.sync (sm_80 PTX)")
def t_dot_mma_sync_rings(t):
    # N and K multiples of 8 (the kernel's promise), not of the tiles.
    shapes = MM8_SHAPES + ((1, 8, 1000),)
    tiles = [("mm_f16_ring80_%dx%dx%d_w%d_s%d" % (bm, bn, bk, nw, ns), bm, bn)
             for bm, bn, bk, nw, ns in RING80_TILES]
    tiles.append(("mm_f16_tma_mma_64x128x32_w8", 64, 128))
    for var, bm, bn in tiles:
        k = t.k(var)
        ring_paths(t, var, k, "tma" in var, True)
        mm_cases(t, var, k, "f16", shapes, bm, bn)
    k = t.k("mm_bf16_ring80")
    ring_paths(t, "mm_bf16_ring80", k, False, True)
    mm_cases(t, "mm_bf16_ring80", k, "bf16", shapes, 128, 128)
    k = t.k("mm_tf32_ring80")
    ring_paths(t, "mm_tf32_ring80", k, False, False)
    mm_cases(t, "mm_tf32_ring80", k, "tf32", MM4_SHAPES, 128, 64)
    k = t.k("mm_f16_tt_ring80")
    ring_paths(t, "mm_f16_tt_ring80", k, False, True)
    mm_cases(t, "mm_f16_tt_ring80", k, "f16", MM_TT_SHAPES, 128, 128,
             trans=True)
    k = t.k("mm_tf32_nt_ring80")
    ring_paths(t, "mm_tf32_nt_ring80", k, False, False)
    mm_cases(t, "mm_tf32_nt_ring80", k, "tf32", MM4_SHAPES, 128, 64,
             nt=True)
    # trans() of a loaded tile: staged as loaded, read through a view.
    k = t.k("mm_f16_tt_trans_ring80")
    ring_paths(t, "mm_f16_tt_trans_ring80", k, False, True)
    mm_cases(t, "mm_f16_tt_trans_ring80", k, "f16", MM_TT_SHAPES, 64, 64,
             trans=True)


@test("sass", "tensor-core, copy and local-memory opcodes (cuobjdump -sass)")
def t_sass(t):
    import re
    import shutil
    tool = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    if not os.path.exists(tool):
        t.record("cuobjdump found (CUDA toolkit)", False, "not on PATH nor in "
                 "/usr/local/cuda/bin: the SASS is not checked")
        return
    for var, need, forbid in SASS_CHECKS:
        path = os.path.join(t.kdir, var + ".cubin")
        p = subprocess.run([tool, "-sass", path], capture_output=True,
                           text=True)
        # "/*0090*/  @!P0 HGMMA.64x128x16.F32 ..." -> HGMMA.64x128x16.F32
        ops = re.findall(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?"
                         r"([A-Z][A-Za-z0-9_.]*)", p.stdout)
        count = {op: sum(1 for o in ops if o == op or
                         ("." not in op and o.split(".")[0] == op))
                 for op in need + forbid}
        ok = (p.returncode == 0 and all(count[op] > 0 for op in need)
              and not any(count[op] for op in forbid))
        t.record("%s: %s, no %s" % (var, "+".join(need), "/".join(forbid)),
                 ok, " ".join("%s=%d" % kv for kv in count.items())
                 if p.returncode == 0 else p.stderr.strip()[:200])


# ---- reductions ----------------------------------------------------------
@test("reduce", "axis=1 sum/max/min/argmax/argmin")
def t_red_axis1(t):
  for var in ("red_axis1", "red_axis1_w8"):
    k = t.k(var)
    M, N, stride = 37, 100, 103
    x = t.rng.standard_normal((M, stride)).astype(np.float32)
    o = [t.out(M, np.float32) for _ in range(3)] + [t.out(M, np.int32) for _ in range(2)]
    k((cdiv(M, 16),), o_sum=o[0], o_max=o[1], o_min=o[2], o_amax=o[3],
      o_amin=o[4], x=t.inp(x), M=M, N=N, stride=stride)
    v = x[:, :N].astype(np.float64)
    t.close("%s sum axis=1" % var, o[0], v.sum(1), 1e-5)
    t.exact("%s max axis=1" % var, o[1], x[:, :N].max(1))
    t.exact("%s min axis=1" % var, o[2], x[:, :N].min(1))
    t.exact("%s argmax axis=1" % var, o[3], v.argmax(1))
    t.exact("%s argmin axis=1" % var, o[4], v.argmin(1))


@test("reduce", "axis=0 sum/max/min/argmax/argmin")
def t_red_axis0(t):
  for var in ("red_axis0", "red_axis0_w1"):
    k = t.k(var)
    M, N, stride = 50, 70, 75
    x = t.rng.standard_normal((M, stride)).astype(np.float32)
    o = [t.out(N, np.float32) for _ in range(3)] + [t.out(N, np.int32) for _ in range(2)]
    k((cdiv(N, 32),), o_sum=o[0], o_max=o[1], o_min=o[2], o_amax=o[3],
      o_amin=o[4], x=t.inp(x), M=M, N=N, stride=stride)
    v = x[:, :N].astype(np.float64)
    t.close("%s sum axis=0" % var, o[0], v.sum(0), 1e-5)
    t.exact("%s max axis=0" % var, o[1], x[:, :N].max(0))
    t.exact("%s min axis=0" % var, o[2], x[:, :N].min(0))
    t.exact("%s argmax axis=0" % var, o[3], v.argmax(0))
    t.exact("%s argmin axis=0" % var, o[4], v.argmin(0))


@test("reduce", "axis=None sum/max/min")
def t_red_all(t):
  for var in ("red_all", "red_all_w8"):
    k = t.k(var)
    P, M, N = 5, 20, 50
    x = t.rng.standard_normal((P, M, N)).astype(np.float32)
    o = [t.out(P, np.float32) for _ in range(3)]
    k((P,), o_sum=o[0], o_max=o[1], o_min=o[2], x=t.inp(x), M=M, N=N)
    t.close("%s sum axis=None" % var, o[0], x.astype(np.float64).sum((1, 2)), 1e-5)
    t.exact("%s max axis=None" % var, o[1], x.max((1, 2)))
    t.exact("%s min axis=None" % var, o[2], x.min((1, 2)))


@test("reduce", "argmax/argmin ties pick the first index")
def t_red_ties(t):
    for var in ("red_ties", "red_ties_w8", "red_ties_w1"):
        k = t.k(var)
        M, N = 50, 61
        x = t.rng.integers(0, 3, (M, N)).astype(np.float32)
        o = [t.out(M, np.int32), t.out(M, np.int32), t.out(N, np.int32),
             t.out(N, np.int32)]
        k((1,), o_amax1=o[0], o_amin1=o[1], o_amax0=o[2], o_amin0=o[3],
          x=t.inp(x), M=M, N=N)
        t.exact("%s argmax axis=1" % var, o[0], x.argmax(1))
        t.exact("%s argmin axis=1" % var, o[1], x.argmin(1))
        t.exact("%s argmax axis=0" % var, o[2], x.argmax(0))
        t.exact("%s argmin axis=0" % var, o[3], x.argmin(0))


@test("reduce", "i32 sum/max/min/argmax")
def t_red_i32(t):
    k = t.k("red_i32")
    M, N = 37, 50
    x = t.rng.integers(-1000, 1001, (M, N)).astype(np.int32)
    o = [t.out(M, np.int32) for _ in range(4)]
    tot = t.out(1, np.int32, "zero")
    k((cdiv(M, 16),), o_sum=o[0], o_max=o[1], o_min=o[2], o_amax=o[3],
      o_tot=tot, x=t.inp(x), M=M, N=N)
    t.exact("sum axis=1", o[0], x.sum(1))
    t.exact("max axis=1", o[1], x.max(1))
    t.exact("min axis=1", o[2], x.min(1))
    t.exact("argmax axis=1 (first on ties)", o[3], x.argmax(1))
    t.exact("sum axis=None (+atomic)", tot, [x.sum()])


@test("reduce", "1-D looped sum/max/argmax")
def t_red_1d(t):
    k = t.k("red_1d")
    for n in t.sizes:
        x = t.rng.uniform(0, 1, n).astype(np.float32)
        o, oi = t.out(2, np.float32), t.out(1, np.int32)
        k((1,), o=o, oi=oi, x=t.inp(x), n=n)
        og = t.get(o)
        t.close("n=%d sum" % n, og[:1], [x.astype(np.float64).sum()], 1e-5)
        t.exact("n=%d max" % n, og[1:], [x.max()])
        t.exact("n=%d argmax" % n, oi, [int(np.argmax(x))])


# ---- elementwise ---------------------------------------------------------
# name: (input sampler, float64 reference, documented max ulp or None=exact)
def _u(lo, hi):
    return lambda rng, n: rng.uniform(lo, hi, n)


def _lu(lo, hi):
    return lambda rng, n: loguniform(rng, lo, hi, n)


UNARY = {
    # tilec's own sequence (ex2.approx + an fma correction, docs/target.md):
    # 2.5 ulp (2.503 measured over [-87.3, 88.7]); libdevice's is 2.
    "exp": (_u(-20, 20), lambda v: np.exp(v), 2.5),
    "exp2": (_u(-30, 30), lambda v: np.exp2(v), 2),
    "log": (_lu(1e-3, 1e3), lambda v: np.log(v), 1),
    "log2": (_lu(1e-3, 1e3), lambda v: np.log2(v), 1),
    "sqrt": (_u(0, 1e4), lambda v: np.sqrt(v), 0),
    "rsqrt": (_lu(1e-3, 1e3), lambda v: 1 / np.sqrt(v), 2),
    "abs": (_u(-10, 10), lambda v: np.abs(v), None),
    "sin": (_u(-20, 20), lambda v: np.sin(v), 2),
    "cos": (_u(-20, 20), lambda v: np.cos(v), 2),
    "tanh": (_u(-6, 6), lambda v: np.tanh(v), 2),
    "erf": (_u(-4, 4), lambda v: erf64(v), 2),
    "sigmoid": (_u(-20, 20), lambda v: 1 / (1 + np.exp(-v)), 4.5),
    "floor": (_u(-100, 100), lambda v: np.floor(v), None),
    "ceil": (_u(-100, 100), lambda v: np.ceil(v), None),
}
LOW_DOMAIN = {"exp": _u(-8, 8), "sqrt": _u(0, 1000), "sin": _u(-10, 10),
              "tanh": _u(-4, 4), "sigmoid": _u(-10, 10), "abs": _u(-10, 10)}


def make_unary_test(f):
    samp, ref, bound = UNARY[f]

    def fn(t):
        k = t.k("u_" + f)
        for n in t.sizes:
            x = samp(t.rng, n).astype(np.float32)
            out = t.out(n, np.float32)
            k((cdiv(n, 1024),), out=out, x=t.inp(x), n=n)
            r = ref(x.astype(np.float64))
            if bound is None:
                t.exact("n=%d exact" % n, out, r.astype(np.float32))
            else:
                t.close("n=%d" % n, out, r, 1e-6, ulp=max(bound, 0.5) + 0.5)
    return fn


for _f in UNARY_F32:
    test("elementwise", _f + " f32")(make_unary_test(_f))


@test("elementwise", "x / scalar (reciprocal or division by the divisor)")
def t_div_scalar(t):
    k = t.k("div_scalar")
    # |x| in [1.5, 2) * xs: every quotient below is a normal float or an
    # infinity. Subnormal and huge divisors take the reciprocal of s * 2^24
    # or s / 4: also with x chosen so that the quotient is an ordinary number.
    for s, xs in ((3.0, 1.0), (-0.7, 1.0), (1e-30, 1.0), (2.0 ** -126, 1.0),
                  (2.0 ** 126, 1.0), (1e38, 1.0), (1e-40, 1.0), (1e-40, 2.0 ** -110),
                  (-2.0 ** -149, 2.0 ** -126), (2.0 ** -149, 2.0 ** -140),
                  (3e38, 2.0 ** 100), (-2.0 ** 127, 2.0 ** 10), (0.0, 1.0),
                  (-0.0, 1.0), (np.inf, 1.0), (-np.inf, 1.0), (np.nan, 1.0)):
        for n in (1000, 4096):
            x = (t.rng.uniform(1.5, 2.0, n) * xs *
                 t.rng.choice([-1.0, 1.0], n)).astype(np.float32)
            out = t.out(n, np.float32)
            k((cdiv(n, 1024),), out=out, x=t.inp(x), s=s, n=n)
            with np.errstate(divide="ignore", invalid="ignore"):
                ref = x.astype(np.float64) / np.float64(np.float32(s))
            if np.isnan(s):
                t.exact("s=nan n=%d" % n, out, np.full(n, np.nan, np.float32))
            else:
                # 2.5 ulp: div.full's 2, or 1/s and the product rounded once
                # each (the ulp of a float64 reference).
                t.close("s=%r x~%r n=%d" % (s, xs, n), out, np.float32(ref),
                        1e-6, ulp=2.5)


@test("elementwise", "exp f32 special values")
def t_exp_specials(t):
    k = t.k("u_exp")
    x = np.array([-np.inf, np.inf, np.nan, 0.0, -0.0, 1.0, -1.0, 88.72, 88.73,
                  -87.33, -87.4, -100.0, 1e30, -1e30], np.float32)
    out = t.out(x.size, np.float32)
    k((1,), out=out, x=t.inp(x), n=x.size)
    got = t.get(out)
    # Past the overflow threshold (88.7228) every result is inf, whatever the
    # sign of hi's rounding error (a negative one once gave inf * r + inf =
    # NaN); below -87.34 every result is 0.
    big = np.concatenate([np.linspace(88.723, 200.0, 4000),
                          np.geomspace(200.0, 3e38, 96)]).astype(np.float32)
    for what, xs, want in (("overflow", big, np.inf), ("underflow", -big, 0.0)):
        o = t.out(xs.size, np.float32)
        k((cdiv(xs.size, 1024),), out=o, x=t.inp(xs), n=xs.size)
        t.exact("exp %s: %d values in [%g, %g]" % (what, xs.size, xs.min(),
                                                 xs.max()),
                o, np.full(xs.size, want, np.float32))
    # Exact: 0, inf and NaN at the ends; 1 at +-0; overflow past 88.7228;
    # results below 2^-126 (x < -87.3365) flush to 0.
    for i in (0, 1, 2, 3, 4, 8, 10, 11, 12, 13):
        t.exact("exp(%r)" % float(x[i]), got[i:i + 1],
                np.exp(x[i:i + 1].astype(np.float64)).astype(np.float32)
                if i not in (10, 11) else np.zeros(1, np.float32))
    for i in (5, 6, 7, 9):
        t.close("exp(%r)" % float(x[i]), got[i:i + 1],
                np.exp(x[i:i + 1].astype(np.float64)), 1e-6, ulp=3.0)


def make_low_test(f, dt):
    ref = UNARY[f][1]

    def fn(t):
        k = t.k("u_%s_%s" % (f, dt))
        for n in t.sizes:
            x = LOW_DOMAIN[f](t.rng, n)
            if dt == "f16":
                xd = x.astype(np.float16)
                x64, out = xd.astype(np.float64), t.out(n, np.float16)
            elif dt == "bf16":
                xd = bf16_from_f64(x)
                x64, out = bf16_to_f64(xd), t.out(n, np.uint16)
            else:
                xd = x
                x64, out = x, t.out(n, np.float64)
            k((cdiv(n, 1024),), out=out, x=t.inp(xd), n=n)
            r = ref(x64)
            if f == "abs":
                t.close("n=%d exact" % n, out, r, 0.0, fmt=dt)
            elif dt == "f64":
                t.close("n=%d (computed in f64)" % n, out, r, 1e-13, fmt=dt, ulp=5)
            else:
                t.close("n=%d (f32 compute, 1 rounding)" % n, out, r,
                        2e-3 if dt == "f16" else 1e-2, fmt=dt, ulp=1.0)
    return fn


for _t in ("f16", "bf16", "f64"):
    for _f in UNARY_LOW:
        test("elementwise", "%s %s" % (_f, _t))(make_low_test(_f, _t))


@test("elementwise", "maximum/minimum/where/fma f32")
def t_binary_f32(t):
    k = t.k("binary_f32")
    for n in t.sizes:
        x, y, z = (t.rng.standard_normal(n).astype(np.float32) for _ in range(3))
        o = [t.out(n, np.float32) for _ in range(4)]
        k((cdiv(n, 1024),), o_max=o[0], o_min=o[1], o_where=o[2], o_fma=o[3],
          x=t.inp(x), y=t.inp(y), z=t.inp(z), n=n)
        t.exact("n=%d maximum" % n, o[0], np.maximum(x, y))
        t.exact("n=%d minimum" % n, o[1], np.minimum(x, y))
        t.exact("n=%d where(a > b, 2a, c)" % n, o[2], np.where(x > y, 2 * x, z))
        x64, y64, z64 = (v.astype(np.float64) for v in (x, y, z))
        t.close("n=%d fma" % n, o[3], x64 * y64 + z64, 1e-6, ulp=1.0)


@test("elementwise", "maximum/minimum/where i32")
def t_binary_i32(t):
    k = t.k("binary_i32")
    for n in t.sizes:
        x = t.rng.integers(-10 ** 6, 10 ** 6, n).astype(np.int32)
        y = t.rng.integers(-10 ** 6, 10 ** 6, n).astype(np.int32)
        o = [t.out(n, np.int32) for _ in range(3)]
        k((cdiv(n, 1024),), o_max=o[0], o_min=o[1], o_where=o[2], x=t.inp(x),
          y=t.inp(y), n=n)
        t.exact("n=%d maximum" % n, o[0], np.maximum(x, y))
        t.exact("n=%d minimum" % n, o[1], np.minimum(x, y))
        t.exact("n=%d where((a&1)==0, a, -b)" % n, o[2], np.where((x & 1) == 0, x, -y))


@test("elementwise", "where/maximum with scalars")
def t_where_scalar(t):
    k = t.k("where_scalar")
    for n in t.sizes:
        x = t.rng.standard_normal(n).astype(np.float32)
        o, o2 = t.out(n, np.float32), t.out(n, np.float32)
        thr = 0.3
        k((cdiv(n, 1024),), out=o, out2=o2, x=t.inp(x), n=n, thr=thr)
        t.exact("n=%d where(a < thr, 0, a)" % n, o, np.where(x < np.float32(thr), 0, x))
        t.exact("n=%d maximum(a, thr)" % n, o2, np.maximum(x, np.float32(thr)))


@test("elementwise", "f32 arithmetic")
def t_arith_f32(t):
    k = t.k("arith_f32")
    for n in t.sizes:
        x = t.rng.standard_normal(n).astype(np.float32)
        y = (t.rng.uniform(0.5, 2, n) * t.rng.choice([-1, 1], n)).astype(np.float32)
        o = [t.out(n, np.float32) for _ in range(6)]
        k((cdiv(n, 1024),), o_add=o[0], o_sub=o[1], o_mul=o[2], o_div=o[3],
          o_neg=o[4], o_mix=o[5], x=t.inp(x), y=t.inp(y), n=n)
        t.exact("n=%d a + b" % n, o[0], x + y)
        t.exact("n=%d a - b" % n, o[1], x - y)
        t.exact("n=%d a * b" % n, o[2], x * y)
        # f32 `/` is div.full.f32 (2 ulp in the PTX ISA), as Triton's default
        # division; against the exact quotient up to 2.03 ulp was seen on an
        # H200 (2026-11-22), so 2.5 here, as for o_fdiv below.
        t.close("n=%d a / b (div.full, 2.5 ulp vs exact)" % n, o[3],
                x.astype(np.float64) / y.astype(np.float64), 1e-6, ulp=2.5)
        t.exact("n=%d -a" % n, o[4], -x)
        t.close("n=%d a * 3 + offs (int promoted)" % n, o[5],
                x.astype(np.float64) * 3 + np.arange(n), 1e-6)


@test("elementwise", "i32 arithmetic, // % (C semantics), bitwise, shifts")
def t_arith_i32(t):
    k = t.k("arith_i32")
    for n in t.sizes:
        a = t.rng.integers(-10 ** 6, 10 ** 6, n).astype(np.int32)
        b = t.rng.integers(1, 1000, n) * t.rng.choice([-1, 1], n)
        b = b.astype(np.int32)
        names = ["o_add", "o_mul", "o_div", "o_mod", "o_fdiv", "o_and", "o_or",
                 "o_xor", "o_not", "o_shl", "o_shr"]
        o = {nm: t.out(n, np.float32 if nm == "o_fdiv" else np.int32) for nm in names}
        k((cdiv(n, 1024),), x=t.inp(a), y=t.inp(b), n=n, **o)
        a64, b64 = a.astype(np.int64), b.astype(np.int64)
        q = np.sign(a64) * np.sign(b64) * (np.abs(a64) // np.abs(b64))
        t.exact("n=%d a + b - 7" % n, o["o_add"], a64 + b64 - 7)
        t.exact("n=%d a * b" % n, o["o_mul"], a64 * b64)
        t.exact("n=%d a // b truncates toward 0" % n, o["o_div"], q)
        t.exact("n=%d a %% b has the sign of a" % n, o["o_mod"], a64 - b64 * q)
        t.close("n=%d a / b -> f32" % n, o["o_fdiv"], a64 / b64, 1e-6, ulp=2.5)
        t.exact("n=%d a & b" % n, o["o_and"], a & b)
        t.exact("n=%d a | b" % n, o["o_or"], a | b)
        t.exact("n=%d a ^ b" % n, o["o_xor"], a ^ b)
        t.exact("n=%d ~a" % n, o["o_not"], ~a)
        t.exact("n=%d a << 3" % n, o["o_shl"], a64 << 3)
        t.exact("n=%d a >> 2 (arithmetic)" % n, o["o_shr"], a64 >> 2)


@test("elementwise", "comparisons and i1 logic")
def t_compare(t):
    k = t.k("compare")
    for n in t.sizes:
        x = t.rng.standard_normal(n).astype(np.float32)
        y = t.rng.standard_normal(n).astype(np.float32)
        eq = t.rng.random(n) < 0.2
        y[eq] = x[eq]
        o = t.out(n, np.int32)
        k((cdiv(n, 1024),), out=o, x=t.inp(x), y=t.inp(y), n=n)
        ap, bp = x > 0, y > 0
        bitsv = [x < y, x >= y, x == y, x != y, ap & bp, ap | bp, ap ^ bp, ~(ap | bp)]
        ref = sum(v.astype(np.int32) << i for i, v in enumerate(bitsv))
        t.exact("n=%d < >= == != & | ^ ~ (bit i = result i)" % n, o, ref)


# ---- casts ---------------------------------------------------------------
NPT = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
       "u32": "uint32", "f16": "float16", "bf16": "uint16",   # bf16 as raw bits
       "f32": "float32", "f64": "float64"}


def is_float(ty):
    return ty in ("f16", "bf16", "f32", "f64")


def cast_inputs(rng, s, n):
    """x: values valid for every destination; xs: small values (see casts.tile).
    Returns the device-format arrays and their exact values (int64 / float64)."""
    if is_float(s):
        xv = rng.uniform(-100, 100, n)
        xv[rng.random(n) < 0.2] = 0.0
        xsv = rng.uniform(0, 1000, n)
    else:
        info = np.iinfo(NPT[s])
        xv = rng.integers(info.min, info.max, n, dtype=np.int64, endpoint=True)
        xv[rng.random(n) < 0.2] = 0
        xsv = rng.integers(max(info.min, -1000), min(info.max, 1000), n,
                           dtype=np.int64, endpoint=True)
    return to_dev(xv, s), to_dev(xsv, s)


def to_dev(v, ty):
    if ty == "bf16":
        return bf16_from_f64(v)
    return v.astype(NPT[ty])


def exact_value(dev, ty):
    if ty == "bf16":
        return bf16_to_f64(dev)
    if is_float(ty):
        return dev.astype(np.float64)
    return dev.astype(np.int64) if ty != "u32" else dev.astype(np.int64)


def cast_ref(v, src, dst):
    """Reference of src value array v (exact, int64 or float64) cast to dst."""
    if dst == "bf16":
        return bf16_from_f64(v.astype(np.float64))
    if is_float(dst):
        if is_float(src):
            return v.astype(NPT[dst])  # numpy rounds f64 -> f16/f32 once (RNE)
        return v.astype(NPT[dst])      # int64 -> float: RNE
    if is_float(src):
        v = np.trunc(v).astype(np.int64)  # fptosi/fptoui: toward zero
    return v.astype(NPT[dst])              # integer: wraps (trunc / sext / zext)


def make_cast_test(s):
    def fn(t):
        k = t.k("cast_" + s)
        for n in t.sizes:
            x, xs = cast_inputs(t.rng, s, n)
            xv, xsv = exact_value(x, s), exact_value(xs, s)
            outs = {"o_" + d: t.out(n, NPT[d]) for d in CAST_TYPES}
            outs["o_b"] = t.out(n, np.int8)
            k((cdiv(n, 512),), px=t.inp(x), pxs=t.inp(xs), n=n, **outs)
            for d in CAST_TYPES:
                use_small = (is_float(s) and d == "u32") or \
                            (not is_float(s) and d in ("f16", "bf16"))
                v = xsv if use_small else xv
                t.bits("n=%d %s -> %s%s" % (n, s, d, " (xs)" if use_small else ""),
                       outs["o_" + d], cast_ref(v, s, d))
            t.bits("n=%d %s -> i1 (as i8)" % (n, s), outs["o_b"],
                   (xv != 0).astype(np.int8))
    return fn


for _t in CAST_TYPES:
    test("casts", "from " + _t)(make_cast_test(_t))


@test("casts", "from i1")
def t_cast_i1(t):
    k = t.k("cast_i1")
    for n in t.sizes:
        x = t.rng.integers(-128, 128, n).astype(np.int8)
        x[t.rng.random(n) < 0.4] = 0
        outs = {"o_" + d: t.out(n, NPT[d]) for d in CAST_TYPES}
        outs["o_b2"] = t.out(n, np.int32)
        k((cdiv(n, 512),), px=t.inp(x), n=n, **outs)
        b = (x != 0)
        for d in CAST_TYPES:
            t.bits("n=%d i1 -> %s (True -> 1)" % (n, d), outs["o_" + d],
                   cast_ref(b.astype(np.int64), "i8", d))
        t.exact("n=%d x.to(int1) -> i32 / f32" % n, outs["o_b2"], b * 3)


# ---- shape ---------------------------------------------------------------
@test("shape", "trans")
def t_trans(t):
    for var in ("trans_k", "trans_k_w8", "trans_k_w1"):
        k = t.k(var)
        M, N = 45, 100
        x = t.rng.standard_normal((M, N)).astype(np.float32)
        o = t.out((N, M), np.float32)
        k((cdiv(M, 32), cdiv(N, 64)), out=o, x=t.inp(x), M=M, N=N)
        t.exact("%s: trans of 32x64 tiles" % var, o, x.T)


@test("shape", "reshape")
def t_reshape(t):
    k = t.k("reshape_k")
    for n in t.sizes:
        x = t.rng.standard_normal(n).astype(np.float32)
        o, o1 = t.out(n, np.float32), t.out(n, np.float32)
        k((cdiv(n, 512),), out=o, out1=o1, x=t.inp(x), n=n)
        t.exact("n=%d 1-D -> (16, 32)" % n, o, 2 * x)
        t.exact("n=%d (16, 32) -> 1-D" % n, o1, x + np.float32(1))


@test("shape", "broadcast_to/expand_dims/[:, None]")
def t_bcast(t):
    k = t.k("bcast_k")
    M, N = 45, 40
    a = t.rng.standard_normal(M).astype(np.float32)
    b = t.rng.standard_normal(N).astype(np.float32)
    o = [t.out((M, N), np.float32) for _ in range(3)]
    k((cdiv(M, 32), cdiv(N, 32)), o1=o[0], o2=o[1], o3=o[2], a=t.inp(a),
      b=t.inp(b), M=M, N=N)
    ref = a.astype(np.float64)[:, None] * 10 + b[None, :]
    t.close("broadcast_to(expand_dims) + broadcast_to([None, :])", o[0], ref, 1e-6)
    t.close("expand_dims axis=1 / axis=0", o[1], ref, 1e-6)
    t.close("x[:, None] * 10 + y[None, :]", o[2], ref, 1e-6)


@test("shape", "broadcast column")
def t_bcast_col(t):
    k = t.k("bcast_col")
    M, N = 100, 10
    a = t.rng.standard_normal(M).astype(np.float32)
    o = t.out((M, N), np.float32)
    k((cdiv(M, 64),), out=o, a=t.inp(a), M=M, N=N)
    t.exact("broadcast_to(col, (BM, BN)) + zeros((1, BN)) + 1", o,
            np.broadcast_to((a + np.float32(1))[:, None], (M, N)))


@test("shape", "multiple_of/max_contiguous hints")
def t_hints(t):
    k = t.k("hints_copy")
    for n in t.sizes:
        x = t.rng.standard_normal(n).astype(np.float32)
        o = t.out(n, np.float32)
        k((cdiv(n, 1024),), out=o, x=t.inp(x), n=n)
        t.exact("n=%d hinted 1-D copy" % n, o, x + np.float32(1))
    k2 = t.k("hints_2d")
    M, N, ld = 37, 50, 64
    x = t.rng.standard_normal((M, ld)).astype(np.float32)
    o = t.out((M, ld), np.float32)
    k2((cdiv(M, 16),), out=o, x=t.inp(x), M=M, N=N, ld=ld)
    cols = np.arange(ld)[None, :] < N
    t.exact("hinted 2-D (ld multiple_of 16)", o, x * np.float32(3),
            where=np.broadcast_to(cols, (M, ld)))
    t.untouched("hinted 2-D columns >= N untouched", o,
                np.broadcast_to(~cols, (M, ld)))


# ---- control flow --------------------------------------------------------
@test("control", "if/elif/else merged values")
def t_if_merge(t):
    k = t.k("if_merge")
    n = 1000
    g = cdiv(n, 128)
    x = t.rng.standard_normal(n).astype(np.float32)
    o, ks = t.out(n, np.float32), t.out(g, np.int32)
    k((g,), out=o, ks=ks, x=t.inp(x), n=n)
    p = np.arange(n) // 128
    ref = np.where(p % 3 == 0, x * 2, np.where(p % 3 == 1, x + 1, -x))
    ref = np.where(p == 4, 4.0, ref).astype(np.float32)
    t.exact("block merged from 3 branches (+ if without else)", o, ref)
    pk = np.arange(g)
    t.exact("scalar merged from 3 branches", ks,
            np.where(pk % 3 == 0, 10, np.where(pk % 3 == 1, 20, 30)) + (pk == 4))


@test("control", "if on runtime param and constexpr")
def t_if_param(t):
    n = 4097
    x = t.rng.standard_normal(n).astype(np.float32)
    x64 = x.astype(np.float64)
    for var, flag in (("if_param", 1), ("if_param_flag0", 0)):
        k = t.k(var)
        for mode in (0, 1, 2):
            o = t.out(n, np.float32)
            k((cdiv(n, 256),), out=o, x=t.inp(x), n=n, mode=mode)
            v = x64 if mode == 0 else (x64 * x64 if mode == 1 else x64 ** 3)
            t.close("FLAG=%d mode=%d" % (flag, mode), o, v + (0.5 if flag else -0.5), 1e-6)


@test("control", "for-range loops, loop-carried values")
def t_for(t):
    k = t.k("for_loops")
    R, n_cols, reps = 5, 1000, 7
    x = t.rng.uniform(0, 1, (R, n_cols)).astype(np.float32)
    o, c = t.out(R, np.float32), t.out((R, 3), np.int32)
    k((R,), out=o, cnts=c, x=t.inp(x), n_cols=n_cols, reps=reps)
    t.close("chunked row sum (carried block)", o, x.astype(np.float64).sum(1), 1e-5)
    rr = list(range(3, n_cols, 5))
    tt = sum(i * j for i in range(reps) for j in range(i, reps))
    t.exact("range(3, n, 5) count/sum, nested loops", c,
            np.broadcast_to([len(rr), sum(rr), tt], (R, 3)))


@test("control", "while loops")
def t_while(t):
    k = t.k("while_loops")
    P, lim = 6, 50.0
    x = t.rng.uniform(0.01, 1, (P, 64)).astype(np.float32)
    c, o = t.out(P, np.int32), t.out((P, 64), np.float32)
    k((P,), cnt=c, out=o, x=t.inp(x), lim=lim)
    t.exact("scalar carry: halvings until 0", c,
            [int((p + 1) * 1000).bit_length() for p in range(P)])
    ks = []
    for r in x:
        m, kk = np.float32(r.max()), 0
        while m < lim:
            m, kk = m * np.float32(2), kk + 1
        ks.append(kk)
    ks = np.array(ks)
    t.exact("block carry doubled while max < lim", o,
            (x * (2.0 ** ks)[:, None] + ks[:, None]).astype(np.float32))


@test("control", "static_range")
def t_static(t):
    k = t.k("static_loops")
    for n in t.sizes:
        x = t.rng.standard_normal(n).astype(np.float32)
        o, o2 = t.out(n, np.float32), t.out(n, np.float32)
        k((cdiv(n, 256),), out=o, out2=o2, x=t.inp(x), n=n)
        t.close("n=%d sum_i (i+1)*x" % n, o, 10 * x.astype(np.float64), 1e-6)
        t.close("n=%d nested, constexpr if i == j" % n, o2, 2 * x.astype(np.float64) + 7, 1e-6)


@test("control", "helpers returning tuples, augmented assignment")
def t_helpers(t):
    k = t.k("helpers")
    for n in t.sizes:
        g = cdiv(n, 512)
        x = t.rng.uniform(-1, 1, n).astype(np.float32)
        o, st = t.out(n, np.float32), t.out((g, 3), np.float32)
        k((g,), out=o, st=st, x=t.inp(x), n=n)
        x64 = x.astype(np.float64)
        t.close("n=%d y = ((2x+1)+1-0.5)*3/2" % n, o, ((x64 * 2 + 1) + 0.5) * 1.5, 1e-6)
        xp = np.zeros(g * 512)
        xp[:n] = x64
        xp = xp.reshape(g, 512)
        ref = np.stack([xp.sum(1), xp.sum(1), xp.max(1) - xp.min(1)], 1)
        t.close("n=%d tuple results (sum, sum, max-min)" % n, st, ref, 1e-5)


# ---- debug ---------------------------------------------------------------
@test("debug", "device_print")
def t_dprint(t):
    k = t.k("dprint")
    x = (1000 + np.arange(8)).astype(np.int32)
    xd = t.inp(x)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            k((1,), x=xd)
        finally:
            sys.stdout.flush()
            try:  # the driver writes device printf through C stdio
                ctypes.CDLL(None).fflush(None)
            except Exception:
                pass
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode(errors="replace")
    want = ["pid (0, 0, 0) idx (%d) val: %d" % (i, 1000 + i) for i in range(8)]
    missing = [w for w in want if w not in text]
    t.record("8 lines 'pid (0, 0, 0) idx (i) val: v'", not missing,
             "missing %d; got %r" % (len(missing), text[:300]) if missing else
             "%d lines printed" % text.count("\n"))


# ---- examples ------------------------------------------------------------
@test("examples", "vector_add")
def t_vector_add(t):
    k = t.k("vector_add")
    for n in t.sizes:
        x, y = (t.rng.standard_normal(n).astype(np.float32) for _ in range(2))
        o = t.out(n, np.float32)
        k((cdiv(n, 1024),), out=o, x=t.inp(x), y=t.inp(y), n=n)
        t.exact("n=%d" % n, o, x + y)


def softmax_ref(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@test("examples", "softmax")
def t_softmax(t):
    # (variant, rows, n_cols, in_stride, out_stride); softmax_div is compiled
    # with --divisible=in_stride,out_stride,n_cols (16-byte rows, no masking).
    for var, rows, n_cols, si, so in (
            ("softmax", 37, 1000, 1003, 1001), ("softmax", 3, 1, 4, 2),
            ("softmax_b2048", 5, 1999, 2002, 2000),
            ("softmax_w8", 6, 777, 780, 778), ("softmax_w1", 4, 200, 203, 201),
            ("softmax_div", 9, 1024, 1040, 1056)):
        k = t.k(var)
        x = (3 * t.rng.standard_normal((rows, si))).astype(np.float32)
        o = t.out((rows, so), np.float32)
        k((rows,), out=o, inp=t.inp(x), in_stride=si, out_stride=so, n_cols=n_cols)
        cols = np.broadcast_to(np.arange(so)[None, :] < n_cols, (rows, so))
        ref = np.zeros((rows, so))
        ref[:, :n_cols] = softmax_ref(x[:, :n_cols])
        t.close("%s rows=%d n_cols=%d" % (var, rows, n_cols), o, ref, 1e-5, where=cols)
        t.untouched("%s padding column untouched" % var, o, ~cols)


@test("examples", "gelu")
def t_gelu(t):
    # gelu_div is compiled with --divisible=n: sizes that are multiples of 16.
    for var, sizes in (("gelu", t.sizes), ("gelu_div", (16, 4096, 65536))):
        k = t.k(var)
        for n in sizes:
            x = (2 * t.rng.standard_normal(n)).astype(np.float16)
            o = t.out(n, np.float16)
            k((cdiv(n, 1024),), out=o, inp=t.inp(x), n=n)
            v = x.astype(np.float64)
            ref = 0.5 * v * (1 + np.tanh(0.7978845608028654 * (v + 0.044715 * v ** 3)))
            t.close("%s n=%d f16" % (var, n), o, ref, 2e-3, fmt="f16")


@test("examples", "matmul")
def t_matmul(t):
    for var, bm, bn in (("matmul", 128, 128), ("matmul_64", 64, 64)):
        k = t.k(var)
        for (M, N, K, layout) in ((300, 200, 100, "row"), (129, 65, 40, "strided")):
            a = t.rng.standard_normal((M, K)).astype(np.float16)
            b = t.rng.standard_normal((K, N)).astype(np.float16)
            if layout == "row":
                ad, sam, sak = a, K, 1
                bd, sbk, sbn = b, N, 1
                scm = N
            else:  # padded A rows, column-major B, padded C rows
                ad = np.zeros((M, K + 3), np.float16)
                ad[:, :K] = a
                sam, sak = K + 3, 1
                bd, sbk, sbn = np.ascontiguousarray(b.T), 1, K
                scm = N + 5
            c = t.out((M, scm), np.float32)
            grid = cdiv(M, bm) * cdiv(N, bn)
            k((grid,), c=c, a=t.inp(ad), b=t.inp(bd), M=M, N=N, K=K,
              stride_am=sam, stride_ak=sak, stride_bk=sbk, stride_bn=sbn,
              stride_cm=scm, stride_cn=1)
            ref = np.zeros((M, scm))
            ref[:, :N] = a.astype(np.float64) @ b.astype(np.float64)
            cols = np.broadcast_to(np.arange(scm)[None, :] < N, (M, scm))
            t.close("%s %s M,N,K=%d,%d,%d" % (var, layout, M, N, K), c, ref, 1e-2,
                    where=cols)
            if scm > N:
                t.untouched("%s C padding untouched" % var, c, ~cols)


CONV_CASES = {
    # variant: (BLOCK_M, BLOCK_N, shapes (N, H, W, C, K, stride, pad))
    "conv2d": (64, 64, ((2, 9, 9, 20, 70, 1, 1), (1, 11, 10, 40, 16, 2, 0))),
    "conv2d_c32": (128, 64, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 96, 32, 2, 1))),
    "conv2d_c64": (128, 64, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 160, 48, 2, 0),
                             (1, 14, 14, 64, 64, 1, 1))),
    "conv2d_c32_w8": (128, 128, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 96, 32, 2, 1),
                                 (2, 56, 56, 64, 64, 1, 1))),
    "conv2d_128x128_s4": (128, 128, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 96, 160, 2, 1))),
    "conv2d_64x64_s4": (64, 64, ((2, 9, 9, 48, 80, 1, 1), (3, 7, 11, 160, 48, 2, 0))),
}


@test("examples", "conv2d NHWC")
def t_conv2d(t):
    for variant, (bm, bn, cases) in CONV_CASES.items():
        conv2d_cases(t, variant, bm, bn, cases)


def conv2d_cases(t, variant, bm, bn, cases):
    k = t.k(variant)
    for (N, H, W, C, K, sh, ph) in cases:
        R = S = 3
        P, Q = (H + 2 * ph - R) // sh + 1, (W + 2 * ph - S) // sh + 1
        x = t.rng.standard_normal((N, H, W, C)).astype(np.float16)
        w = t.rng.standard_normal((K, R, S, C)).astype(np.float16)
        o = t.out((N, P, Q, K), np.float32)
        grid = (cdiv(N * P * Q, bm), cdiv(K, bn))
        k(grid, out=o, x=t.inp(x), w=t.inp(w), N=N, H=H, W=W, C=C, K=K, P=P,
          Q=Q, stride_h=sh, stride_w=sh, pad_h=ph, pad_w=ph)
        xp = np.zeros((N, H + 2 * ph, W + 2 * ph, C))
        xp[:, ph:ph + H, ph:ph + W, :] = x
        w64 = w.astype(np.float64)
        ref = np.zeros((N, P, Q, K))
        for r in range(R):
            for s in range(S):
                xs = xp[:, r:r + sh * (P - 1) + 1:sh, s:s + sh * (Q - 1) + 1:sh, :]
                ref += np.einsum("npqc,kc->npqk", xs, w64[:, r, s, :])
        t.close("%s N,H,W,C,K=%d,%d,%d,%d,%d stride %d pad %d"
                % (variant, N, H, W, C, K, sh, ph), o, ref, 1e-2)


@test("regress", "integer min/max of a negation (ptxas VIMNMX3)")
def t_min_of_negation(t):
    n = 2808
    x = t.rng.integers(-100, 100, n).astype(np.int32)
    w = t.rng.integers(-100, 100, n).astype(np.int32)
    y = t.out(n, np.int32)
    t.k("min_of_negation")((cdiv(n, 1024),), y=y, x=t.inp(x), w=t.inp(w), n=n)
    t.exact("min(0, min(w & 15, -x))", y, np.minimum(0, np.minimum(w & 15, -x)))
    m, cols = 24, 117
    idx = np.arange(m * cols)
    y2, z2 = t.out(m * cols, np.int32), t.out(m * cols, np.uint32)
    x2 = t.rng.integers(-100, 100, m * cols).astype(np.int32)
    w2 = t.rng.integers(-100, 100, m * cols).astype(np.int32)
    t.k("minmax_2d")((1, 2), y=y2, z=z2, x=t.inp(x2), w=t.inp(w2), m=m, n=cols)
    a = np.where(idx % 5 != 0, w2, 0) & 15
    b = np.where(idx % 3 != 0, x2, 3)
    t.exact("32x128, 8 warps: max(-7, min(a, -b))", y2, np.maximum(-7, np.minimum(a, -b)))
    t.exact("unsigned max(b, -a)", z2, np.maximum(b.astype(np.uint32), (-a).astype(np.uint32)))


@test("examples", "layernorm")
def t_layernorm(t):
    k = t.k("layernorm")
    for rows, n_cols in ((7, 1500), (3, 1000)):
        stride = n_cols + 11
        x = (t.rng.standard_normal((rows, stride)) * 2 + 1).astype(np.float16)
        w = t.rng.standard_normal(n_cols).astype(np.float16)
        b = t.rng.standard_normal(n_cols).astype(np.float16)
        y = t.out((rows, stride), np.float16)
        mo, ro = t.out(rows, np.float32), t.out(rows, np.float32)
        eps = 1e-5
        k((rows,), y=y, x=t.inp(x), weight=t.inp(w), bias=t.inp(b), mean_out=mo,
          rstd_out=ro, stride=stride, n_cols=n_cols, eps=eps)
        v = x[:, :n_cols].astype(np.float64)
        mean = v.mean(1)
        rstd = 1 / np.sqrt(v.var(1) + eps)
        ref = np.zeros((rows, stride))
        ref[:, :n_cols] = (v - mean[:, None]) * rstd[:, None] * w.astype(np.float64) + b
        cols = np.broadcast_to(np.arange(stride)[None, :] < n_cols, (rows, stride))
        t.close("rows=%d n_cols=%d mean" % (rows, n_cols), mo, mean, 1e-5)
        t.close("rows=%d n_cols=%d rstd" % (rows, n_cols), ro, rstd, 1e-5)
        t.close("rows=%d n_cols=%d y (f16)" % (rows, n_cols), y, ref, 2e-3, fmt="f16",
                where=cols)
        t.untouched("y padding untouched", y, ~cols)


@test("examples", "online_softmax")
def t_online_softmax(t):
    k = t.k("online_softmax")
    for rows, n_cols in ((5, 5000), (3, 2048), (2, 77)):
        stride = n_cols + 2
        x = (3 * t.rng.standard_normal((rows, stride))).astype(np.float32)
        o = t.out((rows, stride), np.float32)
        k((rows,), out=o, inp=t.inp(x), stride=stride, n_cols=n_cols)
        ref = np.zeros((rows, stride))
        ref[:, :n_cols] = softmax_ref(x[:, :n_cols])
        cols = np.broadcast_to(np.arange(stride)[None, :] < n_cols, (rows, stride))
        t.close("rows=%d n_cols=%d" % (rows, n_cols), o, ref, 1e-5, where=cols)


@test("examples", "attention")
def t_attention(t):
    for var, causal in (("attention", False), ("attention_causal", True)):
        k = t.k(var)
        for BH, S in ((3, 200), (2, 64)):
            D = 64
            q, kk, v = (t.rng.standard_normal((BH, S, D)).astype(np.float16)
                        for _ in range(3))
            o = t.out((BH, S, D), np.float16)
            scale = 1 / math.sqrt(D)
            k((cdiv(S, 64), BH), out=o, q=t.inp(q), k=t.inp(kk), v=t.inp(v),
              seq_len=S, stride_bh=S * D, stride_s=D, sm_scale=scale)
            s = np.einsum("bid,bjd->bij", q.astype(np.float64), kk.astype(np.float64)) * scale
            if causal:
                s = np.where(np.arange(S)[None, :, None] >= np.arange(S)[None, None, :],
                             s, -np.inf)
            p = softmax_ref(s)
            ref = np.einsum("bij,bjd->bid", p, v.astype(np.float64))
            t.close("%s BH=%d seq=%d" % (var, BH, S), o, ref, 1e-2, fmt="f16")


# ==========================================================================
# Driver
# ==========================================================================
def selected(only):
    sel = []
    for i, (g, n, fn) in enumerate(TESTS):
        if not only or any(o in "%s/%s" % (g, n) for o in only):
            sel.append(i)
    return sel


def context_alive():
    try:
        cp.cuda.runtime.deviceSynchronize()
        a = cp.zeros(16, cp.float32)
        a += 1
        cp.cuda.runtime.deviceSynchronize()
        return float(a.sum()) == 16.0
    except Exception:
        return False


def worker(args):
    global np, cp
    import numpy
    import cupy
    np, cp = numpy, cupy
    cp.cuda.set_allocator(None)  # exact allocations: memcheck sees every bound
    cp.cuda.set_pinned_memory_allocator(None)
    todo = [int(v) for v in args.worker.split(",")] if args.worker else []
    with open(args.results, "a") as res:
        for i in todo:
            g, name, fn = TESTS[i]
            print("@@ test %s/%s" % (g, name), flush=True)
            t = Ctx(args.kernels, np.random.default_rng([args.seed, i]), args.small, g, name)
            t0 = time.time()
            sticky = False
            try:
                fn(t)
                t.finish()
            except Exception as e:  # one failing test never stops the suite
                msg = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0]
                                  if str(e).strip() else "")
                if not isinstance(e, TestFailure):
                    tb = traceback.extract_tb(e.__traceback__)
                    msg += " (at %s)" % ", ".join("%s:%d" % (os.path.basename(f.filename),
                                                             f.lineno) for f in tb[-2:])
                t.record("raised", False, msg)
                sticky = not context_alive()
            res.write(json.dumps({"index": i, "group": g, "test": name,
                                  "secs": round(time.time() - t0, 3),
                                  "checks": t.checks}) + "\n")
            res.flush()
            if sticky:
                print("!! the CUDA context is unusable after %s/%s: "
                      "continuing in a new process" % (g, name), flush=True)
                return 3
    return 0


def planted_oob(args):
    global np, cp
    import numpy
    import cupy
    np, cp = numpy, cupy
    cp.cuda.set_allocator(None)
    k = Kernel(args.kernels, "load_other")
    n = 1000   # the kernel stores all 4 * 256 lanes of `out` unmasked
    out, out0 = cp.empty(n, cp.float32), cp.empty(1024, cp.float32)
    x = cp.ones(n, cp.float32)
    try:
        k((4,), out=out, out0=out0, x=x, n=n)
        print("planted OOB: launch returned normally (expected without memcheck)")
    except Exception as e:
        print("planted OOB: launch failed: %s" % str(e).splitlines()[0])
    return 0


# Racecheck self-test: a hand-written kernel whose 4 warps write and read
# shared memory with no barrier between (thread t writes buf[t % 64], then
# reads buf[(t + 1) % 64]): racecheck must report it.
PLANTED_RACE_PTX = r"""
.version 7.8
.target sm_80
.address_size 64
.visible .entry planted_race(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[256];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 63;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, buf;
  add.u32 %r5, %r4, %r3;
  st.shared.u32 [%r5], %r1;
  add.u32 %r6, %r1, 1;
  and.b32 %r7, %r6, 63;
  shl.b32 %r8, %r7, 2;
  add.u32 %r9, %r4, %r8;
  ld.shared.u32 %r7, [%r9];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
"""


def planted_race(args):
    import cupy
    fd, path = tempfile.mkstemp(suffix=".ptx")
    with os.fdopen(fd, "w") as f:
        f.write(PLANTED_RACE_PTX)
    fn = cupy.RawModule(path=path).get_function("planted_race")
    os.unlink(path)
    out = cupy.zeros(128, cupy.uint32)
    fn((1,), (128,), (out,))
    cupy.cuda.runtime.deviceSynchronize()
    print("planted race: launch returned (expected; racecheck reports the hazard)")
    return 0


def orchestrate(args):
    """Runs the selected tests in worker processes; a worker that dies or
    leaves the context unusable is replaced and the suite goes on."""
    sel = selected(args.only)
    fd, resfile = tempfile.mkstemp(prefix="tilec-gpu-", suffix=".jsonl")
    os.close(fd)
    print("tilec GPU suite: %d tests, seed %d, kernels %s%s" % (
        len(sel), args.seed, args.kernels, ", small sizes" if args.small else ""),
        flush=True)
    done = {}
    t0 = time.time()
    stuck = 0
    while True:
        todo = [i for i in sel if i not in done]
        if not todo:
            break
        cmd = [sys.executable, os.path.abspath(__file__), "--kernels", args.kernels,
               "--seed", str(args.seed), "--worker", ",".join(map(str, todo)),
               "--results", resfile] + (["--small"] if args.small else [])
        rc = subprocess.call(cmd)
        with open(resfile) as f:
            for line in f:
                r = json.loads(line)
                done[r["index"]] = r
        rest = [i for i in todo if i not in done]
        stuck = stuck + 1 if len(rest) == len(todo) else 0
        if rest and stuck >= 3:
            print("FAIL  three workers in a row ran no test (exit code %d): "
                  "giving up on %d tests" % (rc, len(rest)), flush=True)
            for i in rest:
                g, name, _ = TESTS[i]
                done[i] = {"index": i, "group": g, "test": name, "secs": 0,
                           "checks": [{"check": "not run", "ok": False,
                                       "detail": "workers could not start"}]}
            break
        if rest and rc != 3:
            # the worker died inside test rest[0]: count it as failed
            g, name, _ = TESTS[rest[0]]
            print("FAIL  %s/%s: worker died (exit code %d)" % (g, name, rc), flush=True)
            done[rest[0]] = {"index": rest[0], "group": g, "test": name, "secs": 0,
                             "checks": [{"check": "worker died", "ok": False,
                                         "detail": "exit code %d" % rc}]}
    os.unlink(resfile)
    results = [done[i] for i in sel]
    npass = sum(c["ok"] for r in results for c in r["checks"])
    nfail = sum(not c["ok"] for r in results for c in r["checks"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": args.seed, "small": args.small, "secs": round(time.time() - t0, 1),
                       "results": results}, f, indent=1)
    failed_tests = [r for r in results if any(not c["ok"] for c in r["checks"])]
    if failed_tests:
        print("\nfailed tests:")
        for r in failed_tests:
            print("  %s/%s" % (r["group"], r["test"]))
    print("\n%d passed, %d failed" % (npass, nfail), flush=True)
    return 1 if nfail else 0


def memcheck_errors(logfile):
    """Counts compute-sanitizer reports per test in a memcheck log:
    {test: [memory errors, CUDA API errors]}."""
    per, cur = {}, "(outside any test)"
    if not logfile or not os.path.exists(logfile):
        return None
    with open(logfile, errors="replace") as f:
        for line in f:
            if line.startswith("@@ test "):
                cur = line[8:].strip()
            elif line.startswith("========= "):
                if any(w in line for w in ("Invalid ", "Misaligned", "Out of bounds",
                                           "Uninitialized", "Race")):
                    per.setdefault(cur, [0, 0])[0] += 1
                elif "Program hit" in line:
                    per.setdefault(cur, [0, 0])[1] += 1
    return per


def table(args):
    with open(args.table[0]) as f:
        run = json.load(f)
    mc = None
    if len(args.table) > 1 and os.path.exists(args.table[1]):
        with open(args.table[1]) as f:
            mc = json.load(f)
    mcerr = memcheck_errors(args.table[2]) if len(args.table) > 2 else None
    mcres = {}
    if mc:
        for r in mc["results"]:
            mcres["%s/%s" % (r["group"], r["test"])] = r
    rows = []
    for r in run["results"]:
        key = "%s/%s" % (r["group"], r["test"])
        np_ = sum(c["ok"] for c in r["checks"])
        nf = sum(not c["ok"] for c in r["checks"])
        m = "-"
        if mc is not None:
            mr = mcres.get(key)
            if mr is None:
                m = "not run"
            else:
                mf = sum(not c["ok"] for c in mr["checks"])
                e, api = (mcerr or {}).get(key, [0, 0])
                m = "clean" if (mf == 0 and e == 0 and api == 0) else \
                    "%d memory errors, %d API errors, %d checks failed" % (e, api, mf)
        rows.append((r["group"], r["test"], np_, nf, m))
    w = max(len("%s/%s" % (g, n)) for g, n, _, _, _ in rows)
    print("%-*s  %6s  %6s  %s" % (w, "test", "passed", "failed", "memcheck"))
    for g, n, p, f, m in rows:
        print("%-*s  %6d  %6d  %s%s" % (w, "%s/%s" % (g, n), p, f, m,
                                         "   <-- FAILED" if f else ""))
    tp = sum(r[2] for r in rows)
    tf = sum(r[3] for r in rows)
    print("%-*s  %6d  %6d" % (w, "total", tp, tf))
    if mcerr and mcerr.get("(outside any test)"):
        print("memcheck: %d memory errors, %d API errors outside any test"
              % tuple(mcerr["(outside any test)"]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", default=os.path.join(HERE, "kernels"),
                    help="folder of VARIANT.ptx + VARIANT.json (default: next to this script)")
    ap.add_argument("--list-kernels", action="store_true")
    ap.add_argument("--list-tests", action="store_true")
    ap.add_argument("--list-sass", action="store_true",
                    help="the variants whose cubins the sass test reads")
    ap.add_argument("--small", action="store_true",
                    default=os.environ.get("TILEC_GPU_SMALL", "") not in ("", "0"))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--only", action="append", help="run tests whose 'group/name' contains this")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--table", nargs="+", metavar="FILE")
    ap.add_argument("--planted-oob", action="store_true",
                    help="memcheck self-test: a worker process launches load_other with an "
                         "output 24 elements too short (run it under compute-sanitizer)")
    ap.add_argument("--planted-oob-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--planted-race", action="store_true",
                    help="racecheck self-test: a kernel with a shared-memory race between "
                         "warps (run it under compute-sanitizer --tool racecheck)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--results", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.list_kernels:
        for v, (src, kn, defs, nw, ns, flags) in KERNELS.items():
            print("\t".join([v, src, kn] + ["%s=%s" % kv for kv in sorted(defs.items())]
                            + (["--num-warps=%d" % nw] if nw else [])
                            + (["--num-stages=%d" % ns] if ns else []) + list(flags)))
        return 0
    if args.list_sass:
        for var, _, _ in SASS_CHECKS:
            print(var)
        return 0
    if args.list_tests:
        for i, (g, n, _) in enumerate(TESTS):
            print("%3d %s/%s" % (i, g, n))
        return 0
    if args.table:
        return table(args)
    if args.planted_oob:  # same process structure as the suite: a child does CUDA
        return subprocess.call([sys.executable, os.path.abspath(__file__), "--kernels",
                                args.kernels, "--planted-oob-child"])
    if args.planted_oob_child:
        return planted_oob(args)
    if args.planted_race:
        return planted_race(args)
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")
    if args.worker is not None:
        return worker(args)
    return orchestrate(args)


if __name__ == "__main__":
    sys.exit(main())
