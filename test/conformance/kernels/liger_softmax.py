# Conformance corpus: Liger-Kernel, softmax (forward and backward).
# Source: https://github.com/linkedin/Liger-Kernel src/liger_kernel/ops/softmax.py
#   (commit ead96b618e5c67bddc6a6e9bcb99bfe6b5ab661c)
# Licence: BSD-2-Clause ("Copyright 2024 LinkedIn Corporation", LICENSE of the
#   repository).
# Taken, verbatim: the kernels _softmax_single_block_forward_kernel and
# _softmax_single_block_backward_kernel, the ones the host code launches
# (its calculate_settings makes BLOCK_SIZE >= n_cols, so the multi-block
# kernels are not taken).
# Left out: the imports from liger_kernel, the multi-block kernels, the host
# wrappers (_softmax_forward/_softmax_backward) and LigerSoftmaxFunction.
# See ../README.md.

import triton
import triton.language as tl


@triton.jit
def _softmax_single_block_forward_kernel(
    Y_ptr,
    Y_row_stride,
    X_ptr,
    X_row_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_id = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols

    x = tl.load(X_ptr + row_id * X_row_stride + offs, mask=mask, other=-float("inf"), cache_modifier=".ca")
    m = tl.max(x, axis=0)
    e = tl.exp(x - m)
    d = tl.sum(e, axis=0)
    y = e / d
    tl.store(Y_ptr + row_id * Y_row_stride + offs, y, mask=mask, cache_modifier=".cs")


@triton.jit
def _softmax_single_block_backward_kernel(
    dy_ptr,
    dy_stride,
    y_ptr,
    y_stride,
    dx_ptr,
    dx_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_id = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols

    dy = tl.load(dy_ptr + row_id * dy_stride + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + row_id * y_stride + offs, mask=mask, other=0.0, cache_modifier=".ca")
    dot = tl.sum(dy * y, axis=0)
    dx = y * (dy - dot)
    tl.store(dx_ptr + row_id * dx_stride + offs, dx, mask=mask, cache_modifier=".wb")
