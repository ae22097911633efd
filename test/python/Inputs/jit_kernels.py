"""Triton-style kernels as a user writes them for tilec.jit: untyped, with
`tl.constexpr` annotations, importable without Triton (tilec.language)."""

import tilec
import tilec.language as tl

SCALE = tl.constexpr(2.0)


@tilec.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + SCALE * y, mask=mask)


@tilec.jit(num_warps=2)
def fill(out_ptr, value, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(
        out_ptr + offsets, tl.full((BLOCK,), value, out_ptr.dtype.element_ty), mask=offsets < n
    )


@tilec.autotune(
    configs=[tilec.Config({"BLOCK": 64}, num_warps=2), tilec.Config({"BLOCK": 128}, num_warps=4)],
    key=["n"],
)
@tilec.heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@tilec.jit
def scale(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * alpha)
    else:
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha, mask=mask)


@tilec.jit
def add_dependent(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # Triton's tutorial 11 form: wait for the previous kernel's writes
    # before reading, let the next kernel start before writing.
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.extra.cuda.gdc_wait()
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.extra.cuda.gdc_launch_dependents()
    tl.store(output_ptr + offsets, x + y, mask=mask)
