"""tl.dot_scaled as Triton kernels write it (the interpreter test drives it
with every format and packing; test_interpret.py)."""

import triton
import triton.language as tl


@triton.jit
def mx_dot(
    a_ptr,
    a_scale_ptr,
    b_ptr,
    b_scale_ptr,
    acc_ptr,
    c_ptr,
    A_FORMAT: tl.constexpr,
    B_FORMAT: tl.constexpr,
    A_ROWS: tl.constexpr,
    A_COLS: tl.constexpr,
    B_ROWS: tl.constexpr,
    B_COLS: tl.constexpr,
    M: tl.constexpr,
    N: tl.constexpr,
    SCALE_COLS: tl.constexpr,
    A_K_PACK: tl.constexpr,
    B_K_PACK: tl.constexpr,
    B_SCALED: tl.constexpr,
    FAST_MATH: tl.constexpr,
):
    ra = tl.arange(0, A_ROWS)
    ca = tl.arange(0, A_COLS)
    a = tl.load(a_ptr + ra[:, None] * A_COLS + ca[None, :])
    rb = tl.arange(0, B_ROWS)
    cb = tl.arange(0, B_COLS)
    b = tl.load(b_ptr + rb[:, None] * B_COLS + cb[None, :])
    ks = tl.arange(0, SCALE_COLS)
    a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * SCALE_COLS + ks[None, :])
    if B_SCALED:
        b_scale = tl.load(b_scale_ptr + tl.arange(0, N)[:, None] * SCALE_COLS + ks[None, :])
    else:
        b_scale = None
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    acc = tl.load(acc_ptr + rm[:, None] * N + rn[None, :])
    c = tl.dot_scaled(
        a,
        a_scale,
        A_FORMAT,
        b,
        b_scale,
        B_FORMAT,
        acc,
        fast_math=FAST_MATH,
        lhs_k_pack=A_K_PACK,
        rhs_k_pack=B_K_PACK,
    )
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)
