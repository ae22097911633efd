"""A kernel as a Triton file writes it, with @triton.autotune and
@triton.heuristics: tilec.JITFunction.from_file evaluates the decorators
without importing the file (Triton need not be installed)."""

import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b, w in ((32, 1), (64, 2))],
    key=["n"],
)
@triton.heuristics(
    {
        "HAS_BIAS": lambda args: args["bias_ptr"] is not None,
        "N_P2": lambda args: triton.next_power_of_2(args["n"]),
    }
)
@triton.jit
def bias_add(
    x_ptr, bias_ptr, out_ptr, n, BLOCK: tl.constexpr, HAS_BIAS: tl.constexpr, N_P2: tl.constexpr
):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if HAS_BIAS:
        x += tl.load(bias_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x + N_P2, mask=offs < n)
