import triton
import triton.language as tl


@triton.jit
def scatter_add(out_ptr, x_ptr, index_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    index = tl.load(index_ptr + offs, mask=mask)
    tl.atomic_add(out_ptr + index, x, mask=mask)
