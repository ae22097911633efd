# Conformance corpus: Triton tutorial 02, fused softmax.
# Source: https://github.com/triton-lang/triton python/tutorials/02-fused-softmax.py
#   (commit fd237c7cf9a7262f32fedbaa5027ab2736ead134)
# Licence: MIT (Copyright 2018-2020 Philippe Tillet, 2020-2022 OpenAI)
# Taken: softmax_kernel (the persistent version whose row loop is
# `tl.range(..., num_stages=num_stages)`), verbatim (comments included), and
# the imports of triton / triton.language. Left out: the torch import,
# DEVICE, is_hip/is_cdna, naive_softmax, the device-property queries, the
# softmax() wrapper (which picks BLOCK_SIZE = next_power_of_2(n_cols),
# num_warps=8, num_stages = 4 when the GPU has > 200 KB of shared memory
# else 2, and an occupancy-based grid), the test and the benchmark.
# See ../README.md.

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    # starting row of the program
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        # The stride represents how much we need to increase the pointer to advance 1 row
        row_start_ptr = input_ptr + row_idx * input_row_stride
        # The block size is the next power of two greater than n_cols, so we can fit each
        # row in a single block
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        # Load the row into SRAM, using a mask since BLOCK_SIZE may be > than n_cols
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        # Subtract maximum for numerical stability
        row_minus_max = row - tl.max(row, axis=0)
        # Note that exponentiation in Triton is fast but approximate (i.e., think __expf in CUDA)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        # Write back output to DRAM
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)
