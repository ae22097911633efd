# Conformance corpus: flash-linear-attention's cumulative sums over the
# sequence (used for the decay of gated linear attention):
# chunk_global_cumsum_scalar_kernel ([B, T, H] gates) and
# chunk_global_cumsum_vector_kernel ([B, T, H, S] gates), forward or reverse,
# with an optional scale and variable-length sequences.
# Source: https://github.com/fla-org/flash-linear-attention
#   fla/ops/utils/cumsum.py, commit
#   81091cc6d71695e5a23e739f03bbd2fc627b72d4 (the file's newest change;
#   unchanged at main bc3b101dcb713ddc5bd8924b66754eb68b5ccf89), with
#   autotune_cache_kwargs of fla/utils/_compat.py / _config.py (at main).
# Licence: MIT (LICENSE: "Copyright (c) 2023-2026 Songlin Yang, Yu Zhang,
#   Zhiyuan Li"; the files: "Copyright (c) 2023-2026, Songlin Yang, Yu Zhang,
#   Zhiyuan Li").
# Taken: chunk_global_cumsum_scalar_kernel and chunk_global_cumsum_vector_kernel
# with their @triton.heuristics and @triton.autotune decorators, verbatim; the
# two lines of fla/utils that define autotune_cache_kwargs, verbatim.
# Left out: the chunk-local kernels (chunk_local_cumsum_*_kernel), whose
# decorator fla_cache_autotune (fla/ops/utils/cache.py) is a subclass of
# Triton's Autotuner with a JSON config cache that needs torch and packaging,
# and BS_LIST (only their configs use it; it queries the device's shared
# memory); the host code; the torch import. See ../README.md.

import inspect
import os

import triton
import triton.language as tl


# -- fla/utils/_config.py (commit e791d69b03ec6279f9fb36034e7c1ace10ef33f9), the line autotune_cache_kwargs needs.
FLA_CACHE_RESULTS = os.getenv('FLA_CACHE_RESULTS', '1') == '1'


# -- fla/utils/_compat.py (commit b328e7c611ca205d1908cce9a90b8ca223fc0101), autotune_cache_kwargs.
SUPPORTS_AUTOTUNE_CACHE = "cache_results" in inspect.signature(triton.autotune).parameters
autotune_cache_kwargs = {"cache_results": FLA_CACHE_RESULTS} if SUPPORTS_AUTOTUNE_CACHE else {}


# -- fla/ops/utils/cumsum.py (commit 81091cc6d71695e5a23e739f03bbd2fc627b72d4).


@triton.heuristics({
    'HAS_SCALE': lambda args: args['scale'] is not None,
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.autotune(
    configs=[
        triton.Config({'BT': BT}, num_warps=num_warps, num_stages=num_stages)
        for BT in [32, 64, 128, 256]
        for num_warps in [2, 4, 8]
        for num_stages in [1, 2, 3, 4]
    ],
    key=['B', 'H', 'IS_VARLEN', 'REVERSE'],
    **autotune_cache_kwargs,
)
@triton.jit(do_not_specialize=['T'])
def chunk_global_cumsum_scalar_kernel(
    s,
    o,
    scale,
    cu_seqlens,
    T,
    B: tl.constexpr,
    H: tl.constexpr,
    BT: tl.constexpr,
    REVERSE: tl.constexpr,
    HAS_SCALE: tl.constexpr,
    IS_VARLEN: tl.constexpr,
):
    i_nh = tl.program_id(0).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
    else:
        bos, eos = i_n * T, i_n * T + T
    T = eos - bos

    b_z = tl.zeros([], dtype=tl.float32)
    NT = tl.cdiv(T, BT)
    for i_c in range(NT):
        i_t = NT - 1 - i_c if REVERSE else i_c
        o_t = i_t * BT + tl.arange(0, BT)
        m_t = o_t < T
        p_s = s + bos*H + i_h + o_t * H
        p_o = o + bos*H + i_h + o_t * H
        b_s = tl.load(p_s, mask=m_t, other=0.0).to(tl.float32)
        if REVERSE:
            b_o = tl.cumsum(b_s, axis=0, reverse=True)
        else:
            b_o = tl.cumsum(b_s, axis=0)
        b_ss = tl.sum(b_s, 0)
        b_o += b_z
        if i_c >= 0:
            b_z += b_ss
        if HAS_SCALE:
            b_o *= scale
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=m_t)


@triton.heuristics({
    'HAS_SCALE': lambda args: args['scale'] is not None,
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.autotune(
    configs=[
        triton.Config({'BT': BT}, num_warps=num_warps, num_stages=num_stages)
        for BT in [16, 32, 64, 128]
        for num_warps in [2, 4, 8]
        for num_stages in [1, 2, 3, 4]
    ],
    key=['B', 'H', 'S', 'IS_VARLEN', 'REVERSE'],
    **autotune_cache_kwargs,
)
@triton.jit(do_not_specialize=['T'])
def chunk_global_cumsum_vector_kernel(
    s,
    o,
    scale,
    cu_seqlens,
    T,
    B: tl.constexpr,
    H: tl.constexpr,
    S: tl.constexpr,
    BT: tl.constexpr,
    BS: tl.constexpr,
    REVERSE: tl.constexpr,
    HAS_SCALE: tl.constexpr,
    IS_VARLEN: tl.constexpr,
):
    i_s, i_nh = tl.program_id(0), tl.program_id(1).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
    else:
        bos, eos = i_n * T, i_n * T + T
    T = eos - bos

    b_z = tl.zeros([BS], dtype=tl.float32)
    NT = tl.cdiv(T, BT)
    for i_c in range(NT):
        i_t = NT - 1 - i_c if REVERSE else i_c
        o_t = i_t * BT + tl.arange(0, BT)
        o_s = i_s * BS + tl.arange(0, BS)
        m_s = (o_t[:, None] < T) & (o_s[None, :] < S)
        p_s = s + (bos * H + i_h) * S + o_t[:, None] * (H*S) + o_s[None, :]
        p_o = o + (bos * H + i_h) * S + o_t[:, None] * (H*S) + o_s[None, :]
        # [BT, BS]
        b_s = tl.load(p_s, mask=m_s, other=0.0).to(tl.float32)
        if REVERSE:
            b_c = b_z[None, :] + tl.cumsum(b_s, axis=0, reverse=True)
        else:
            b_c = b_z[None, :] + tl.cumsum(b_s, axis=0)
        if HAS_SCALE:
            b_c *= scale
        tl.store(p_o, b_c.to(p_o.dtype.element_ty), mask=m_s)
        b_z += tl.sum(b_s, 0)
