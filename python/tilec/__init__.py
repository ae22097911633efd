"""tilec: compile and launch .tile (and Triton) kernels from Python.

    import tilec, torch
    k = tilec.compile("softmax.tile", kernel="softmax", constexprs={"BLOCK": 1024})
    k[(rows,)](y, x, x.stride(0), n_cols)          # torch's current stream

A pure-Python package over the C ABI of libtilec.so (ctypes; see
docs/python.md). Compiling needs no GPU; launching needs the CUDA driver.
"""

from ._autotune import Config, autotune
from ._kernel import Grid, Kernel, compile, interpret
from ._decorators import Autotuner, Heuristics, heuristics
from ._jit import JITFunction, jit
from ._launcher import TensorDescriptor
from ._lib import path as library_path
from ._program import Program, cuda_available, device_arch
from .errors import CompileError, CudaError, TilecError
from ._lib import lib as _lib_handle

__version__: str = _lib_handle.tilec_version().decode().split()[1]

__all__ = [
    "Autotuner",
    "Heuristics",
    "CompileError",
    "Config",
    "CudaError",
    "Grid",
    "JITFunction",
    "Kernel",
    "Program",
    "TensorDescriptor",
    "TilecError",
    "autotune",
    "compile",
    "cuda_available",
    "device_arch",
    "heuristics",
    "interpret",
    "jit",
    "library_path",
]
