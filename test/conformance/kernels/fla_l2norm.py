# Conformance corpus: flash-linear-attention's L2 norm forward (the q/k
# normalisation of DeltaNet / Gated DeltaNet): l2norm_fwd_kernel (a block of
# BT rows per program, through block pointers) and l2norm_fwd_kernel1 (one
# row per program, the host's choice for D > 512).
# Source: https://github.com/fla-org/flash-linear-attention
#   fla/modules/l2norm.py, commit
#   39f2d4029eb29a16d963b39dda20a2a0cfdad0f7, with the module-level code of
#   fla/utils.py at the same commit that its decorators need at import time.
#   At main (bc3b101dcb713ddc5bd8924b66754eb68b5ccf89) l2norm_fwd_kernel is
#   decorated with fla.ops.utils.cache.fla_cache_autotune, a subclass of
#   Triton's Autotuner with a JSON config cache (torch, packaging, several
#   hundred lines), and indexes with pointer arithmetic instead of
#   tl.make_block_ptr; so the last version before that (761fc0b, "[Cache] FLA
#   autotune cache") is taken.
# Licence: MIT (LICENSE: "Copyright (c) 2023-2026 Songlin Yang, Yu Zhang,
#   Zhiyuan Li"; the files: "Copyright (c) 2023-2026, Songlin Yang, Yu Zhang,
#   Zhiyuan Li").
# Taken: BT_LIST, NUM_WARPS_AUTOTUNE, l2norm_fwd_kernel1 and l2norm_fwd_kernel
# with their @triton.autotune decorators, verbatim. From fla/utils.py, what
# `from fla.utils import IS_AMD, autotune_cache_kwargs` needs, verbatim
# (FLA_CACHE_RESULTS, SUPPORTS_AUTOTUNE_CACHE, autotune_cache_kwargs,
# _cpu_device_warning, get_available_device, device_platform, IS_AMD).
# Left out: the backward kernels, the host code (l2norm_fwd, the autograd
# Function, nn.Module), input_guard and the rest of fla/utils.py, and the
# imports of torch. See ../README.md.

import functools
import inspect
import os
import warnings

import triton
import triton.language as tl


# -- fla/utils.py (commit 39f2d4029eb29a16d963b39dda20a2a0cfdad0f7), the module-level code IS_AMD and autotune_cache_kwargs need.
FLA_CACHE_RESULTS = os.getenv('FLA_CACHE_RESULTS', '1') == '1'


SUPPORTS_AUTOTUNE_CACHE = "cache_results" in inspect.signature(triton.autotune).parameters

autotune_cache_kwargs = {"cache_results": FLA_CACHE_RESULTS} if SUPPORTS_AUTOTUNE_CACHE else {}


def _cpu_device_warning():
    warnings.warn(('Triton is not supported on current platform, roll back to CPU.'), stacklevel=1)


@functools.cache
def get_available_device() -> str:
    try:
        return triton.runtime.driver.active.get_current_target().backend
    except BaseException:
        _cpu_device_warning()
        return 'cpu'


device_platform = get_available_device()

IS_AMD = (device_platform == 'hip')


# -- fla/modules/l2norm.py (commit 39f2d4029eb29a16d963b39dda20a2a0cfdad0f7).

BT_LIST = [8, 16, 32, 64, 128]
NUM_WARPS_AUTOTUNE = [1, 2, 4, 8, 16] if IS_AMD else [1, 2, 4, 8, 16, 32]


@triton.autotune(
    configs=[triton.Config({}, num_warps=num_warps) for num_warps in NUM_WARPS_AUTOTUNE],
    key=["D"],
    **autotune_cache_kwargs,
)
@triton.jit
def l2norm_fwd_kernel1(
    x,
    y,
    rstd,
    eps,
    D,
    BD: tl.constexpr,
):
    i_t = tl.program_id(0)
    x += i_t * D
    y += i_t * D
    # Compute mean and variance
    cols = tl.arange(0, BD)
    mask = cols < D

    b_x = tl.load(x + cols, mask=mask, other=0.0).to(tl.float32)
    b_rstd = 1 / tl.sqrt(tl.sum(b_x * b_x) + eps)
    b_y = b_x * b_rstd
    tl.store(y + cols, b_y, mask=mask)
    tl.store(rstd + i_t, b_rstd)


@triton.autotune(
    configs=[triton.Config({"BT": BT}, num_warps=num_warps) for num_warps in [1, 2, 4, 8, 16] for BT in BT_LIST],
    key=["D", "NB"],
    **autotune_cache_kwargs,
)
@triton.jit(do_not_specialize=["T"])
def l2norm_fwd_kernel(
    x,
    y,
    rstd,
    eps,
    T,
    D: tl.constexpr,
    BD: tl.constexpr,
    NB: tl.constexpr,
    BT: tl.constexpr,
):
    i_t = tl.program_id(0)
    p_x = tl.make_block_ptr(x, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    p_y = tl.make_block_ptr(y, (T, D), (D, 1), (i_t * BT, 0), (BT, BD), (1, 0))
    p_rstd = tl.make_block_ptr(rstd, (T,), (1,), (i_t * BT,), (BT,), (0,))

    b_x = tl.load(p_x, boundary_check=(0, 1)).to(tl.float32)
    b_rstd = 1 / tl.sqrt(tl.sum(b_x * b_x, 1) + eps)
    b_y = b_x * b_rstd[:, None]

    tl.store(p_y, b_y.to(p_y.dtype.element_ty), boundary_check=(0, 1))
    tl.store(p_rstd, b_rstd.to(p_rstd.dtype.element_ty), boundary_check=(0,))
