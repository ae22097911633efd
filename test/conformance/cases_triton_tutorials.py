"""Conformance cases: the Triton tutorials (kernels/triton_tutorial_*.py).

Each configuration is the one the tutorial's host code launches (its
constexprs, num_warps and num_stages), or, for an autotuned kernel, a config
of its autotune list (the first, unless said otherwise). References are
float64; where a kernel stores f16 the tolerance covers the f16 rounding of
the result (about 5e-4 relative) and the f32 accumulation, and says so.
"""

import importlib.util
import math
import os

from corpus import KERNELS, Case, Launch


def cdiv(a, b):
    return (a + b - 1) // b


def next_power_of_2(n):
    return 1 << (n - 1).bit_length()


def _gen(torch):
    return torch.Generator(device="cuda").manual_seed(0)


def _randn(torch, g, shape, dtype_name="float32", scale=1.0, shift=0.0):
    x = torch.randn(shape, device="cuda", generator=g)
    return (shift + scale * x).to(getattr(torch, dtype_name))


def _i32(value):
    """The signature entry of an i32 argument with this value: Triton's JIT
    specializes integers that are 1 or multiples of 16."""
    if value == 1:
        return "i32:1"
    return "i32:16" if value % 16 == 0 else "i32"


def _sig(*entries):
    return ", ".join(str(e) for e in entries)


def _load_kernel(file, name):
    """A @triton.jit function of a kernel file, imported with real Triton
    (setup runs on the GPU machine only)."""
    spec = importlib.util.spec_from_file_location(
        "conformance_ref_" + file[:-3], os.path.join(KERNELS, file)
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, name)
    while not hasattr(fn, "arg_names"):  # unwrap @triton.autotune / @triton.heuristics
        fn = fn.fn
    return fn


class _ArgsAndTables(list):
    """The run-time arguments of a launch (iterating, unpacking and len() see
    exactly these), which also answer, at index len(args) + i, the i-th
    tensor that the kernel reaches only through a table of addresses or a
    host descriptor (the grouped GEMM's C matrices): Launch.outputs can then
    name those tensors, and the runner poisons and checks them like any
    output. `keep` holds the other tensors the tables point to alive."""

    def __init__(self, args, tables, keep=()):
        super().__init__(args)
        self.tables = list(tables)
        self.keep = list(keep)

    def __getitem__(self, index):
        if isinstance(index, int) and index >= len(self):
            return self.tables[index - len(self)]
        return super().__getitem__(index)


# -- 01 vector add: the tutorial's size (98432, not a multiple of 1024) and
# a large one.
def vector_add(n):
    def setup(torch):
        g = torch.Generator(device="cuda").manual_seed(0)
        x = torch.rand(n, device="cuda", generator=g)
        y = torch.rand(n, device="cuda", generator=g)
        out = torch.empty_like(x)
        return Launch(
            args=[x, y, out, n],
            grid=(cdiv(n, 1024),),
            outputs={2: x.double() + y.double()},
            bytes=3 * 4 * n,
        )

    return setup


CASES = [
    Case(
        name="tutorial01_add_98432",
        file="triton_tutorial_01_vector_add.py",
        kernel="add_kernel",
        signature="*fp32:16, *fp32:16, *fp32:16, i32, 1024",
        setup=vector_add(98432),
    ),
    Case(
        name="tutorial01_add_64m",
        file="triton_tutorial_01_vector_add.py",
        kernel="add_kernel",
        signature="*fp32:16, *fp32:16, *fp32:16, i32:16, 1024",
        setup=vector_add(1 << 26),
    ),
]


# -- 02 fused softmax: softmax() launches BLOCK_SIZE = next_power_of_2(n_cols),
# num_warps=8, num_stages=4 on a GPU with more than 200 KB of shared memory
# (H100; else 2) -- the same value for the kernel's num_stages constexpr,
# which pipelines its row loop -- and a persistent grid of
# min(n_rows, SMs * occupancy) programs; any grid is correct (each program
# strides over the rows), this one uses 2 programs per SM. The tutorial's
# test size (1823 x 781, ragged) and 4096 x 2048. tl.exp is approximate
# (ex2.approx): rtol 1e-4.
#
# Note for run_gpu.py: the kernel has a parameter named num_stages, and the
# runner launches fn[grid](**kwargs, num_warps=..., num_stages=...), which
# passes num_stages twice (Python's "got multiple values for keyword
# argument"). Triton itself takes the one keyword for both (the tutorial's
# warmup call does so); the case's num_stages equals the constexpr.
def softmax(n_rows, n_cols):
    def setup(torch):
        g = _gen(torch)
        x = torch.randn(n_rows, n_cols, device="cuda", generator=g)
        y = torch.empty_like(x)
        sms = torch.cuda.get_device_properties(x.device).multi_processor_count
        return Launch(
            args=[y, x, x.stride(0), y.stride(0), n_rows, n_cols],
            grid=(min(n_rows, 2 * sms),),
            outputs={0: torch.softmax(x.double(), dim=1)},
            atol=1e-6,
            rtol=1e-4,
            bytes=2 * 4 * n_rows * n_cols,
        )

    return setup


for _rows, _cols in ((1823, 781), (4096, 2048)):
    CASES.append(
        Case(
            name="tutorial02_softmax_%dx%d" % (_rows, _cols),
            file="triton_tutorial_02_fused_softmax.py",
            kernel="softmax_kernel",
            signature=_sig(
                "*fp32:16",
                "*fp32:16",
                _i32(_cols),
                _i32(_cols),
                _i32(_rows),
                _i32(_cols),
                next_power_of_2(_cols),
                4,
            ),
            num_warps=8,
            num_stages=4,
            setup=softmax(_rows, _cols),
        )
    )


# -- 03 matrix multiplication: f16 A (M, K) and B (K, N), row-major, f16 C.
# Configs of the autotune list: the first (128x256x64, GROUP_SIZE_M 8,
# num_warps 8, num_stages 3) and the second (64x256x32, GROUP_SIZE_M 8,
# num_warps 4, num_stages 4). Sizes: the tutorial's 512^3, 1024^3 and a
# ragged 999 x 1001 x 777 (the kernel wraps M and N with `% M` / `% N` and
# masks K). ACTIVATION "" and "leaky_relu" (applied to the f32 accumulator).
# Tolerance: atol 1e-2, rtol 1e-2 (|C| up to ~4 sqrt(K); f16 rounding of C is
# below 5e-4 relative, the f32 accumulation error far below).
_MM03_CONFIGS = {"128x256x64": (128, 256, 64, 8, 8, 3), "64x256x32": (64, 256, 32, 8, 4, 4)}


def matmul03(M, N, K, BM, BN, activation):
    def setup(torch):
        g = _gen(torch)
        a = _randn(torch, g, (M, K), "float16")
        b = _randn(torch, g, (K, N), "float16")
        c = torch.empty((M, N), device="cuda", dtype=torch.float16)
        ref = a.double() @ b.double()
        if activation == "leaky_relu":
            ref = torch.where(ref >= 0, ref, 0.01 * ref)
        return Launch(
            args=[a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride()],
            grid=(cdiv(M, BM) * cdiv(N, BN),),
            outputs={2: ref},
            atol=1e-2,
            rtol=1e-2,
            bytes=2 * (M * K + K * N + M * N),
            flops=2 * M * N * K,
        )

    return setup


for _M, _N, _K, _cfg, _act in (
    (512, 512, 512, "128x256x64", ""),
    (1024, 1024, 1024, "64x256x32", "leaky_relu"),
    (999, 1001, 777, "128x256x64", "leaky_relu"),
    (999, 1001, 777, "64x256x32", ""),
):
    _BM, _BN, _BK, _G, _nw, _ns = _MM03_CONFIGS[_cfg]
    CASES.append(
        Case(
            name="tutorial03_matmul_%dx%dx%d_%s%s"
            % (_M, _N, _K, _cfg, "_leaky_relu" if _act else ""),
            file="triton_tutorial_03_matrix_multiplication.py",
            kernel="matmul_kernel",
            signature=_sig(
                "*fp16:16",
                "*fp16:16",
                "*fp16:16",
                _i32(_M),
                _i32(_N),
                _i32(_K),
                _i32(_K),  # stride_am
                "i32:1",  # stride_ak
                _i32(_N),  # stride_bk
                "i32:1",  # stride_bn
                _i32(_N),  # stride_cm
                "i32:1",  # stride_cn
                _BM,
                _BN,
                _BK,
                _G,
                '"%s"' % _act,
            ),
            num_warps=_nw,
            num_stages=_ns,
            setup=matmul03(_M, _N, _K, _BM, _BN, _act),
        )
    )


# -- 04 low-memory dropout: the wrappers launch BLOCK_SIZE=1024, grid
# cdiv(n, 1024), default num_warps / num_stages; n ragged (98432 is not a
# multiple of 1024, 1000003 not of 16).
#
# _dropout: the tutorial's input (x ~ randn f32, keep mask = (rand > p) as
# int32). The kernel divides in f32 (x / (1 - p)): rtol 1e-6.
def dropout(n, p):
    def setup(torch):
        g = _gen(torch)
        x = torch.randn(n, device="cuda", generator=g)
        keep = (torch.rand(n, device="cuda", generator=g) > p).to(torch.int32)
        out = torch.empty_like(x)
        ref = torch.where(keep != 0, x.double() / (1 - p), 0.0)
        return Launch(
            args=[x, keep, out, n, p],
            grid=(cdiv(n, 1024),),
            outputs={2: ref},
            atol=1e-6,
            rtol=1e-6,
            bytes=3 * 4 * n,
        )

    return setup


# _seeded_dropout draws its mask with tl.rand(seed, offsets), Triton's
# Philox stream, which has no float64 model here. The mask therefore comes
# from Triton's own run of the original kernel, launched inside setup (as the
# tutorial launches it): the reference is x / (1 - p) (float64) where
# Triton's output is non-zero (kept) and 0 elsewhere. So the case checks that
# tilec's output is 0 or x / (1 - p) elementwise and that it keeps exactly
# the elements Triton keeps (the same random stream); for Triton's own run
# it checks only the scaling.
def seeded_dropout(n, p, seed):
    def setup(torch):
        g = _gen(torch)
        x = torch.randn(n, device="cuda", generator=g)
        out = torch.empty_like(x)
        original = _load_kernel("triton_tutorial_04_low_memory_dropout.py", "_seeded_dropout")
        theirs = torch.empty_like(x)
        original[(cdiv(n, 1024),)](x, theirs, n, p, seed, BLOCK_SIZE=1024)
        torch.cuda.synchronize()
        ref = torch.where(theirs != 0, x.double() / (1 - p), 0.0)
        return Launch(
            args=[x, out, n, p, seed],
            grid=(cdiv(n, 1024),),
            outputs={1: ref},
            atol=1e-6,
            rtol=1e-6,
            bytes=2 * 4 * n,
        )

    return setup


for _n, _p in ((98432, 0.5), (1000003, 0.3)):
    CASES.append(
        Case(
            name="tutorial04_dropout_%d" % _n,
            file="triton_tutorial_04_low_memory_dropout.py",
            kernel="_dropout",
            signature=_sig("*fp32:16", "*i32:16", "*fp32:16", _i32(_n), "fp32", 1024),
            setup=dropout(_n, _p),
        )
    )
for _n, _p, _seed in ((98432, 0.5, 123), (1000003, 0.3, 512)):
    CASES.append(
        Case(
            name="tutorial04_seeded_dropout_%d" % _n,
            file="triton_tutorial_04_low_memory_dropout.py",
            kernel="_seeded_dropout",
            signature=_sig("*fp32:16", "*fp32:16", _i32(_n), "fp32", "i32", 1024),
            setup=seeded_dropout(_n, _p, _seed),
        )
    )


# -- 05 layer norm: the tutorial's test (M=1151, N=8192, f16, eps 1e-5,
# x = -2.3 + 0.5 randn, w and b ~ rand, dy = 0.1 randn) and a ragged one
# (M=1000, N=781). LayerNorm.forward: BLOCK_SIZE = min(65536 // 2,
# next_power_of_2(N)), num_warps = min(max(BLOCK_SIZE // 256, 1), 8);
# backward: GROUP_SIZE_M = 96 for N <= 8192, 256 for N <= 1024, locks =
# zeros(2 * GROUP_SIZE_M, int32), _dw / _db = zeros((GROUP_SIZE_M, N), f16),
# _layer_norm_bwd_dx_fused with the forward's BLOCK_SIZE and num_warps, then
# _layer_norm_bwd_dwdb over min(GROUP_SIZE_M, M) rows with BLOCK_SIZE_M=32,
# BLOCK_SIZE_N=128 and default num_warps.
_LN_EPS = 1e-5


def _ln_config(N):
    block = min(65536 // 2, next_power_of_2(N))
    group = 64
    if N <= 8192:
        group = 96
    if N <= 4096:
        group = 128
    if N <= 1024:
        group = 256
    return block, min(max(block // 256, 1), 8), group


def _ln_inputs(torch, M, N):
    g = _gen(torch)
    x = _randn(torch, g, (M, N), "float16", scale=0.5, shift=-2.3)
    w = torch.rand((N,), device="cuda", generator=g).to(torch.float16)
    b = torch.rand((N,), device="cuda", generator=g).to(torch.float16)
    dy = _randn(torch, g, (M, N), "float16", scale=0.1)
    xd = x.double()
    mean = xd.mean(dim=1)
    rstd = 1.0 / torch.sqrt(((xd - mean[:, None]) ** 2).mean(dim=1) + _LN_EPS)
    return x, w, b, dy, mean, rstd


# Forward: Y (f16; |Y| < 6, so its rounding is below 2e-3), Mean and Rstd
# (f32): atol 5e-3, rtol 1e-3.
def layer_norm_fwd(M, N):
    def setup(torch):
        x, w, b, _, mean, rstd = _ln_inputs(torch, M, N)
        y = torch.empty_like(x)
        mean_out = torch.empty((M,), dtype=torch.float32, device="cuda")
        rstd_out = torch.empty((M,), dtype=torch.float32, device="cuda")
        ref = (x.double() - mean[:, None]) * rstd[:, None] * w.double() + b.double()
        return Launch(
            args=[x, y, w, b, mean_out, rstd_out, x.stride(0), N, _LN_EPS],
            grid=(M,),
            outputs={1: ref, 4: mean, 5: rstd},
            atol=5e-3,
            rtol=1e-3,
            bytes=2 * 2 * M * N,
        )

    return setup


# Backward, stage 1: DX (f16) and the partial sums DW / DB (f16, one row per
# lock group: row r of X adds into row r % GROUP_SIZE_M, each addition
# rounded to f16 by the kernel's store). Mean / Rstd are given as f32 (as the
# forward stores them) and the reference uses those f32 values. The kernel
# accumulates into DW / DB and spins on Lock: poison=False, buffers zeroed as
# the host code does. atol 1e-2, rtol 1e-2 (the tutorial's atol; the partial
# sums reach ~0.5 after ~12 f16-rounded additions).
def layer_norm_bwd_dx(M, N):
    _, _, group = _ln_config(N)

    def setup(torch):
        x, w, _, dy, mean, rstd = _ln_inputs(torch, M, N)
        mean32, rstd32 = mean.float(), rstd.float()
        m, r = mean32.double()[:, None], rstd32.double()[:, None]
        xhat = (x.double() - m) * r
        wdy = w.double() * dy.double()
        c1 = (xhat * wdy).sum(dim=1, keepdim=True) / N
        c2 = wdy.sum(dim=1, keepdim=True) / N
        dx_ref = (wdy - (xhat * c1 + c2)) * r
        lock_id = torch.arange(M, device="cuda") % group
        zeros = torch.zeros((group, N), dtype=torch.float64, device="cuda")
        dw_ref = zeros.index_add(0, lock_id, dy.double() * xhat)
        db_ref = zeros.index_add(0, lock_id, dy.double())
        locks = torch.zeros(2 * group, dtype=torch.int32, device="cuda")
        dw = torch.zeros((group, N), dtype=torch.float16, device="cuda")
        db = torch.zeros((group, N), dtype=torch.float16, device="cuda")
        dx = torch.empty_like(dy)
        return Launch(
            args=[dx, dy, dw, db, x, w, mean32, rstd32, locks, x.stride(0), N],
            grid=(M,),
            outputs={0: dx_ref, 2: dw_ref, 3: db_ref},
            atol=1e-2,
            rtol=1e-2,
            poison=False,
            bytes=3 * 2 * M * N,
        )

    return setup


# Backward, stage 2: FINAL_DW / FINAL_DB (f16) = the column sums of the first
# `rows` rows of the (GROUP_SIZE_M, N) partial buffers (random f16 here,
# ~N(0, 0.01)); sums ~N(0, rows / 100): atol 1e-2, rtol 1e-2.
def layer_norm_bwd_dwdb(group, rows, N):
    def setup(torch):
        g = _gen(torch)
        dw = _randn(torch, g, (group, N), "float16", scale=0.1)
        db = _randn(torch, g, (group, N), "float16", scale=0.1)
        final_dw = torch.empty((N,), dtype=torch.float16, device="cuda")
        final_db = torch.empty((N,), dtype=torch.float16, device="cuda")
        return Launch(
            args=[dw, db, final_dw, final_db, rows, N],
            grid=(cdiv(N, 128),),
            outputs={2: dw[:rows].double().sum(dim=0), 3: db[:rows].double().sum(dim=0)},
            atol=1e-2,
            rtol=1e-2,
            bytes=2 * 2 * rows * N,
        )

    return setup


for _M, _N in ((1151, 8192), (1000, 781)):
    _block, _nw, _group = _ln_config(_N)
    CASES += [
        Case(
            name="tutorial05_layer_norm_fwd_%dx%d" % (_M, _N),
            file="triton_tutorial_05_layer_norm.py",
            kernel="_layer_norm_fwd_fused",
            signature=_sig(*["*fp16:16"] * 4, "*fp32:16", "*fp32:16", _i32(_N), _i32(_N))
            + ", fp32, %d" % _block,
            num_warps=_nw,
            setup=layer_norm_fwd(_M, _N),
        ),
        Case(
            name="tutorial05_layer_norm_bwd_dx_%dx%d" % (_M, _N),
            file="triton_tutorial_05_layer_norm.py",
            kernel="_layer_norm_bwd_dx_fused",
            signature=_sig(*["*fp16:16"] * 6, "*fp32:16", "*fp32:16", "*i32:16", _i32(_N), _i32(_N))
            + ", %d, %d" % (_group, _block),
            num_warps=_nw,
            setup=layer_norm_bwd_dx(_M, _N),
        ),
        Case(
            name="tutorial05_layer_norm_bwd_dwdb_%dx%d" % (min(_group, _M), _N),
            file="triton_tutorial_05_layer_norm.py",
            kernel="_layer_norm_bwd_dwdb",
            signature=_sig(*["*fp16:16"] * 4, _i32(min(_group, _M)), _i32(_N), 32, 128),
            setup=layer_norm_bwd_dwdb(_group, min(_group, _M), _N),
        ),
    ]
# A ragged row count for stage 2 (M = 200 rows of a 256-row buffer: the last
# 32-row block is partial).
CASES.append(
    Case(
        name="tutorial05_layer_norm_bwd_dwdb_200x781",
        file="triton_tutorial_05_layer_norm.py",
        kernel="_layer_norm_bwd_dwdb",
        signature=_sig(*["*fp16:16"] * 4, _i32(200), _i32(781), 32, 128),
        setup=layer_norm_bwd_dwdb(256, 200, 781),
    )
)


# -- 06 fused attention (forward), f16, Z=2 batches x H=3 heads, N_CTX=1024
# (the kernels load whole BLOCK_M / BLOCK_N tiles: N_CTX must be a multiple
# of them, as in the tutorial), head dim 64 and 128, causal (STAGE=3) and not
# (STAGE=1); q, k, v ~ N(0, 0.5^2) and sm_scale = 0.5 as in the tutorial's
# test. Grid (cdiv(N_CTX, BLOCK_M), Z * H[, 1]).
#
# Outputs: Out, and M, which the kernel stores as the row's log-sum-exp in
# base 2: m_i + log2(l_i) with m_i the running max of s * log2(e) (s =
# sm_scale * q.k), l_i the sum of exp2(s * log2(e) - m_i), i.e.
# logsumexp(s) / ln(2). Causal masking keeps key j <= query i (the on-band
# block adds -1e6 where j > i; off-band blocks are entirely below the
# diagonal). The kernel rounds p to f16 before p @ v: atol 1e-2, rtol 1e-2
# (the tutorial's atol) for Out (|Out| < 2) and M (~11).
def _attention_inputs(torch, Z, H, N_CTX, D, causal, sm_scale):
    g = _gen(torch)
    shape = (Z, H, N_CTX, D)
    q, k, v = (
        torch.empty(shape, dtype=torch.float16, device="cuda").normal_(0.0, 0.5, generator=g)
        for _ in range(3)
    )
    s = (q.double() @ k.double().transpose(-1, -2)) * sm_scale
    if causal:
        above = torch.ones((N_CTX, N_CTX), dtype=torch.bool, device="cuda").triu(1)
        s = s.masked_fill(above, float("-inf"))
    ref_o = torch.softmax(s, dim=-1) @ v.double()
    ref_m = torch.logsumexp(s, dim=-1) / math.log(2.0)
    o = torch.empty_like(q)
    m = torch.empty((Z, H, N_CTX), dtype=torch.float32, device="cuda")
    return q, k, v, o, m, ref_o, ref_m


def _attention_flops(Z, H, N_CTX, D, causal):
    return 4 * Z * H * N_CTX * N_CTX * D // (2 if causal else 1)


# The version taking Q, K, V, Out pointers and strides (block pointers):
# triton_tutorial_06_fused_attention_v3.py. Config (128, 64), num_warps 4,
# num_stages 3, from its autotune list.
def attention_v3(Z, H, N_CTX, D, causal, BM):
    def setup(torch):
        sm_scale = 0.5
        q, k, v, o, m, ref_o, ref_m = _attention_inputs(torch, Z, H, N_CTX, D, causal, sm_scale)
        return Launch(
            args=[
                q,
                k,
                v,
                sm_scale,
                m,
                o,
                *q.stride(),
                *k.stride(),
                *v.stride(),
                *o.stride(),
                Z,
                H,
                N_CTX,
            ],
            grid=(cdiv(N_CTX, BM), Z * H, 1),
            outputs={5: ref_o, 4: ref_m},
            atol=1e-2,
            rtol=1e-2,
            bytes=4 * 2 * Z * H * N_CTX * D,
            flops=_attention_flops(Z, H, N_CTX, D, causal),
        )

    return setup


# The current version: desc_q / desc_k / desc_v / desc_o are the q / k / v /
# o tensors themselves (the host code's path when it does not make host
# TensorDescriptors), from which the kernel builds device-side descriptors
# over the (Z * H * N_CTX, HEAD_DIM) matrices. FP8_OUTPUT=False,
# warp_specialize=False, IS_HOPPER=True (H100). Config (128, 64), num_warps 4,
# num_stages 2: the one the tutorial pins under pytest. (The host-descriptor
# path, TensorDescriptor arguments, has no tilec signature: not a case.)
def attention(Z, H, N_CTX, D, causal, BM):
    def setup(torch):
        sm_scale = 0.5
        q, k, v, o, m, ref_o, ref_m = _attention_inputs(torch, Z, H, N_CTX, D, causal, sm_scale)
        return Launch(
            args=[sm_scale, m, Z, H, q, k, v, o, N_CTX],
            grid=(cdiv(N_CTX, BM), Z * H, 1),
            outputs={7: ref_o, 1: ref_m},
            atol=1e-2,
            rtol=1e-2,
            bytes=4 * 2 * Z * H * N_CTX * D,
            flops=_attention_flops(Z, H, N_CTX, D, causal),
        )

    return setup


# tilec does not fold `v_order: tl.constexpr = (0, 1) if V.dtype.element_ty ==
# tl.float8e5 else (1, 0)` (a constexpr local set from a conditional on the
# pointer's element type): "'v_order' is annotated constexpr, but its value
# is not a compile-time constant".
_Z, _H, _NCTX, _BM, _BN = 2, 3, 1024, 128, 64
for _D in (64, 128):
    for _causal in (True, False):
        _stage = 3 if _causal else 1
        _suffix = "d%d_%s" % (_D, "causal" if _causal else "full")
        _strides = [_i32(s) for s in (_H * _NCTX * _D, _NCTX * _D, _D, 1)] * 4
        CASES.append(
            Case(
                name="tutorial06_attention_v3_fwd_" + _suffix,
                file="triton_tutorial_06_fused_attention_v3.py",
                kernel="_attn_fwd",
                signature=_sig(
                    *["*fp16:16"] * 3,
                    "fp32",
                    "*fp32:16",
                    "*fp16:16",
                    *_strides,
                    _i32(_Z),
                    _i32(_H),
                    _i32(_NCTX),
                    _D,
                    _BM,
                    _BN,
                    _stage,
                ),
                num_warps=4,
                num_stages=3,
                setup=attention_v3(_Z, _H, _NCTX, _D, _causal, _BM),
            )
        )
        CASES.append(
            Case(
                name="tutorial06_attention_fwd_" + _suffix,
                file="triton_tutorial_06_fused_attention.py",
                kernel="_attn_fwd",
                signature=_sig(
                    "fp32",
                    "*fp32:16",
                    _i32(_Z),
                    _i32(_H),
                    *["*fp16:16"] * 4,
                    _i32(_NCTX),
                    _D,
                    _BM,
                    _BN,
                    False,
                    _stage,
                    False,
                    True,
                ),
                num_warps=4,
                num_stages=2,
                setup=attention(_Z, _H, _NCTX, _D, _causal, _BM),
            )
        )


# -- 07 extern functions: libdevice.asin over f32, BLOCK_SIZE=1024, grid
# cdiv(n, 1024). The tutorial's input (98432 values of rand, in [0, 1)) and
# a ragged one over [-1, 1). libdevice's asinf is within 2 ulp: atol 1e-6,
# rtol 1e-5.
def asin(n, symmetric):
    def setup(torch):
        g = _gen(torch)
        x = torch.rand(n, device="cuda", generator=g)
        if symmetric:
            x = 2.0 * x - 1.0
        y = torch.empty_like(x)
        return Launch(
            args=[x, y, n],
            grid=(cdiv(n, 1024),),
            outputs={1: torch.asin(x.double())},
            atol=1e-6,
            rtol=1e-5,
            bytes=2 * 4 * n,
        )

    return setup


for _n, _symmetric in ((98432, False), (1000003, True)):
    CASES.append(
        Case(
            name="tutorial07_asin_%d" % _n,
            file="triton_tutorial_07_extern_functions.py",
            kernel="asin_kernel",
            signature=_sig("*fp32:16", "*fp32:16", _i32(_n), 1024),
            setup=asin(_n, _symmetric),
        )
    )


# -- 08 grouped GEMM: group_gemm_fn builds device tables of int64
# data_ptr() values for A, B and C, int32 tables of <M, N, K> and
# <lda, ldb, ldc>, and launches grid (NUM_SM,). The kernels assume whole
# tiles: every M, N is a multiple of 128 and every K of BLOCK_SIZE_K. The C
# matrices are reached only through the table: the launch's arguments list
# answers them at indices 6, 7, ... (_ArgsAndTables), so they are poisoned
# and checked. f16 inputs ~ randn (the tutorial uses rand; randn keeps |C|
# near sqrt(K)); atol 1e-2, rtol 1e-2.
#
# grouped_matmul_kernel: its first autotune config (128x128x32, NUM_SM=84,
# the Config defaults num_warps 4, num_stages 3). grouped_matmul_tma_kernel
# (descriptors made in the kernel): B given transposed, (N, K), as
# group_gemm_tma_fn takes it; FP8=False, NUM_SM = num_sms() (132 on H100;
# the grid matches it, so any GPU is correct); its first tma_configs entry
# (128x128x64, num_stages 3, num_warps 4).
_GROUPS = {
    "tutorial": ((1024, 1024, 1024), (512, 512, 512), (256, 256, 256), (128, 128, 128)),
    "mixed": ((256, 512, 128), (384, 128, 640), (128, 256, 256)),
}


def grouped_gemm(sizes, num_sm, transposed_b):
    def setup(torch):
        g = _gen(torch)
        a_list, b_list, c_list, refs = [], [], [], []
        for M, N, K in sizes:
            a = _randn(torch, g, (M, K), "float16")
            b = _randn(torch, g, (K, N), "float16")
            refs.append(a.double() @ b.double())
            if transposed_b:
                b = b.T.contiguous()
            a_list.append(a)
            b_list.append(b)
            c_list.append(torch.empty((M, N), device="cuda", dtype=torch.float16))
        lds = []
        for a, b, c in zip(a_list, b_list, c_list):
            lds += [a.stride(0), b.stride(0), c.stride(0)]
        args = [
            torch.tensor([t.data_ptr() for t in a_list], device="cuda"),
            torch.tensor([t.data_ptr() for t in b_list], device="cuda"),
            torch.tensor([t.data_ptr() for t in c_list], device="cuda"),
            torch.tensor([v for s in sizes for v in s], dtype=torch.int32, device="cuda"),
            torch.tensor(lds, dtype=torch.int32, device="cuda"),
            len(sizes),
        ]
        return Launch(
            args=_ArgsAndTables(args, c_list, keep=a_list + b_list),
            grid=(num_sm,),
            outputs={len(args) + i: ref for i, ref in enumerate(refs)},
            atol=1e-2,
            rtol=1e-2,
            flops=sum(2 * M * N * K for M, N, K in sizes),
        )

    return setup


for _groups in ("tutorial", "mixed"):
    _sizes = _GROUPS[_groups]
    CASES += [
        Case(
            name="tutorial08_grouped_gemm_" + _groups,
            file="triton_tutorial_08_grouped_gemm.py",
            kernel="grouped_matmul_kernel",
            signature=_sig(*["*i64:16"] * 3, "*i32:16", "*i32:16", _i32(len(_sizes)))
            + ", 84, 128, 128, 32",
            setup=grouped_gemm(_sizes, 84, False),
        ),
        Case(
            name="tutorial08_grouped_gemm_tma_" + _groups,
            file="triton_tutorial_08_grouped_gemm.py",
            kernel="grouped_matmul_tma_kernel",
            signature=_sig(*["*i64:16"] * 3, "*i32:16", "*i32:16", _i32(len(_sizes)))
            + ", 132, 128, 128, 64, False",
            num_warps=4,
            num_stages=3,
            setup=grouped_gemm(_sizes, 132, True),
        ),
    ]


# -- 09 persistent matmul, f16. As the tutorial's bench / validate calls
# them: matmul_kernel and matmul_kernel_persistent get A (M, K) row-major
# and B as b.T of a row-major (N, K) tensor (so stride_bk = 1, stride_bn =
# K); the TMA and descriptor kernels get the (N, K) tensor itself. NUM_SMS =
# 132 (H100's SM count, as matmul_persistent passes it); the grid is
# min(NUM_SMS, tiles), so the launch is correct on any GPU. Configs: the
# first of matmul_get_configs (128x128x64, GROUP_SIZE_M 8, num_stages 3,
# num_warps 4) and of matmul_tma_persistent_get_configs (the same tile,
# EPILOGUE_SUBTILE True, num_stages 2, num_warps 4; and its EPILOGUE_SUBTILE
# False twin). WARP_SPECIALIZE=False (Blackwell only). Sizes: 1024 x 1024 x
# 512, 4096 x 4096 x 512 (1024 tiles: each persistent program does several)
# and a ragged 999 x 1000 x 520 (ragged M/N/K for the pointer kernels; for
# the descriptor kernel, whose strides are [K, 1] and [N, 1], N and K stay
# multiples of 8 so the rows are 16-byte aligned, as TMA needs).
# Tolerance as tutorial 03: atol 1e-2, rtol 1e-2.
_NUM_SMS = 132


def _matmul09_inputs(torch, M, N, K):
    g = _gen(torch)
    a = _randn(torch, g, (M, K), "float16")
    b_nk = _randn(torch, g, (N, K), "float16")
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    return a, b_nk, c, a.double() @ b_nk.double().T


def _tiles(M, N, BM, BN):
    return cdiv(M, BM) * cdiv(N, BN)


def matmul09(M, N, K, persistent):
    def setup(torch):
        a, b_nk, c, ref = _matmul09_inputs(torch, M, N, K)
        b = b_nk.T
        tiles = _tiles(M, N, 128, 128)
        return Launch(
            args=[a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride()],
            grid=(min(_NUM_SMS, tiles) if persistent else tiles,),
            outputs={2: ref},
            atol=1e-2,
            rtol=1e-2,
            bytes=2 * (M * K + K * N + M * N),
            flops=2 * M * N * K,
        )

    return setup


def matmul09_descriptor(M, N, K):
    def setup(torch):
        a, b_nk, c, ref = _matmul09_inputs(torch, M, N, K)
        return Launch(
            args=[a, b_nk, c, M, N, K],
            grid=(min(_NUM_SMS, _tiles(M, N, 128, 128)),),
            outputs={2: ref},
            atol=1e-2,
            rtol=1e-2,
            bytes=2 * (M * K + K * N + M * N),
            flops=2 * M * N * K,
        )

    return setup


for _M, _N, _K in ((1024, 1024, 512), (4096, 4096, 512), (999, 1000, 520)):
    _size = "%dx%dx%d" % (_M, _N, _K)
    _pointer_args = [_i32(_M), _i32(_N), _i32(_K), _i32(_K), "i32:1", "i32:1", _i32(_K)]
    _pointer_args += [_i32(_N), "i32:1"]  # stride_cm, stride_cn
    CASES += [
        Case(
            name="tutorial09_matmul_" + _size,
            file="triton_tutorial_09_persistent_matmul.py",
            kernel="matmul_kernel",
            signature=_sig(*["*fp16:16"] * 3, *_pointer_args, 128, 128, 64, 8),
            num_warps=4,
            num_stages=3,
            setup=matmul09(_M, _N, _K, False),
        ),
        Case(
            name="tutorial09_matmul_persistent_" + _size,
            file="triton_tutorial_09_persistent_matmul.py",
            kernel="matmul_kernel_persistent",
            signature=_sig(*["*fp16:16"] * 3, *_pointer_args, 128, 128, 64, 8, _NUM_SMS),
            num_warps=4,
            num_stages=3,
            setup=matmul09(_M, _N, _K, True),
        ),
    ]
    for _subtile in (True, False):
        CASES.append(
            Case(
                name="tutorial09_matmul_descriptor_persistent_%s%s"
                % (_size, "_subtile" if _subtile else ""),
                file="triton_tutorial_09_persistent_matmul.py",
                kernel="matmul_kernel_descriptor_persistent",
                signature=_sig(
                    *["*fp16:16"] * 3, _i32(_M), _i32(_N), _i32(_K), 128, 128, 64, 8, _subtile
                )
                + ", %d, False" % _NUM_SMS,
                num_warps=4,
                num_stages=2,
                setup=matmul09_descriptor(_M, _N, _K),
            )
        )
# matmul_kernel_tma / matmul_kernel_tma_persistent (in the file, no case):
# they call tl._experimental_descriptor_load on host-filled TMA
# descriptors, an API of Triton 3.2/3.3 that Triton 3.6 no longer has, so
# neither compiler can run them as written today.
