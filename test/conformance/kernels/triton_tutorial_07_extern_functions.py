# Conformance corpus: Triton tutorial 07, extern (libdevice) functions.
# Source: https://github.com/triton-lang/triton python/tutorials/07-extern-functions.py
#   (commit 545699290b851e70231ee3017481851170f1583d)
# Licence: MIT (Copyright 2018-2020 Philippe Tillet, 2020-2022 OpenAI)
# Taken: asin_kernel, verbatim, and the imports of triton / triton.language /
# libdevice. Left out: the torch / inspect / os / pathlib imports, DEVICE,
# is_cuda / is_hip, the top-level demo launches (grid cdiv(n, 1024),
# BLOCK_SIZE=1024, once with the default libdevice and once with an
# explicit extern_libs path). See ../README.md.

import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def asin_kernel(
    x_ptr,
    y_ptr,
    n_elements,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x = libdevice.asin(x)
    tl.store(y_ptr + offsets, x, mask=mask)
