"""Compile requests and programs: the compile half of the C ABI."""

from __future__ import annotations

import ctypes
import json
import sys
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import _lib
from ._lib import lib
from .errors import CompileError, CudaError, TilecError


def check(status: int) -> None:
    """Raises the exception for a failed C ABI call's status."""
    if status == _lib.SUCCESS:
        return
    message = _lib.last_error()
    if status == _lib.ERROR_COMPILE:
        raise CompileError(message)
    if status == _lib.ERROR_CUDA:
        raise CudaError(message)
    if status == _lib.ERROR_INVALID_ARGUMENT:
        raise ValueError(message)
    raise TilecError(message)


class Request:
    """One compile's inputs (a tilec_request)."""

    def __init__(
        self,
        *,
        text: Optional[str],
        path: Optional[str],
        name: Optional[str],
        kernel: Optional[str],
        language: Optional[str],
        signature: Optional[str],
        constexprs: Mapping[str, Any],
        options: Mapping[str, Any],
    ) -> None:
        handle = ctypes.c_void_p()
        check(lib.tilec_request_create(ctypes.byref(handle)))
        self._handle = handle
        enc = _lib.encode
        if path is not None:
            check(lib.tilec_request_set_file(handle, enc(path)))
        else:
            check(lib.tilec_request_set_source(handle, enc(text), enc(name)))
        if language is not None:
            check(lib.tilec_request_set_language(handle, enc(language)))
        if kernel is None:
            kernel = self._only_kernel(path or name or "the source")
        check(lib.tilec_request_set_kernel(handle, enc(kernel)))
        if signature is not None:
            check(lib.tilec_request_set_signature(handle, enc(signature)))
        for key, value in constexprs.items():
            if isinstance(value, bool):
                check(lib.tilec_request_set_constexpr_bool(handle, enc(key), int(value)))
            elif isinstance(value, int):
                check(lib.tilec_request_set_constexpr_int(handle, enc(key), value))
            elif isinstance(value, float):
                check(lib.tilec_request_set_constexpr_float(handle, enc(key), value))
            elif hasattr(value, "__index__"):
                check(lib.tilec_request_set_constexpr_int(handle, enc(key), value.__index__()))
            else:
                raise TypeError(
                    "tilec: constexpr %s = %r: expected an int, float or bool" % (key, value)
                )
        for key, value in options.items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = int(value)
            check(lib.tilec_request_set_option(handle, enc(key), enc(str(value))))

    def _only_kernel(self, origin: str) -> str:
        """The source's one kernel (a ValueError when it has none or several)."""
        names = lib.tilec_request_kernel_names(self._handle)
        if names is None:
            raise CompileError(_lib.last_error())
        kernels = [k for k in names.decode().split(",") if k]
        if len(kernels) == 1:
            return kernels[0]
        if not kernels:
            raise ValueError("tilec: %s has no kernel" % origin)
        raise ValueError(
            "tilec: %s has several kernels; choose one with kernel= (%s)"
            % (origin, ", ".join(kernels))
        )

    def set_option(self, name: str, value: str) -> None:
        check(lib.tilec_request_set_option(self._handle, _lib.encode(name), _lib.encode(value)))

    def interpret(self, grid: Tuple[int, int, int], args: Sequence[Any], max_ops: int) -> None:
        """Runs the kernel on the CPU (tilec_interpret) over NumPy arrays,
        which it writes in place, and int/float scalars."""
        converted = (_lib.InterpretArg * max(len(args), 1))()
        keep = []
        for i, value in enumerate(args):
            arg = converted[i]
            if hasattr(value, "__array_interface__"):
                import numpy

                array = numpy.asarray(value)
                if not array.flags.c_contiguous or not array.flags.writeable:
                    raise ValueError(
                        "tilec.interpret: argument %d: the array must be C-contiguous and "
                        "writeable" % i
                    )
                dtype = _lib.encode(array.dtype.name)
                keep.append((array, dtype))
                arg.kind = _lib.ARG_BUFFER
                arg.dtype = dtype
                arg.data = array.ctypes.data
                arg.bytes = array.nbytes
            elif isinstance(value, float):
                arg.kind = _lib.ARG_FLOAT
                arg.float_value = value
            elif isinstance(value, int) or hasattr(value, "__index__"):
                arg.kind = _lib.ARG_INT
                arg.int_value = int(value)
            else:
                raise TypeError(
                    "tilec.interpret: argument %d: expected a NumPy array, an int or a float, "
                    "got %s" % (i, type(value).__name__)
                )
        check(
            lib.tilec_interpret(
                self._handle, grid[0], grid[1], grid[2], converted, len(args), max_ops
            )
        )

    def compile(self) -> "Program":
        out = ctypes.c_void_p()
        check(lib.tilec_compile(self._handle, ctypes.byref(out)))
        return Program(out)

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None and lib is not None:
            lib.tilec_request_destroy(handle)


class Program:
    """A compiled kernel: its PTX and its SPEC section 2 metadata."""

    def __init__(self, handle: ctypes.c_void_p) -> None:
        self._handle = handle
        size = ctypes.c_size_t()
        data = lib.tilec_program_binary(handle, ctypes.byref(size))
        self.ptx: str = ctypes.string_at(data, size.value).decode("utf-8")
        self.metadata: Dict[str, Any] = json.loads(lib.tilec_program_metadata(handle))
        self.params: List[Tuple[str, str]] = [
            (p["name"], p["type"]) for p in self.metadata["params"]
        ]

    def load(self, device: int) -> "LoadedKernel":
        out = ctypes.c_void_p()
        check(lib.tilec_kernel_load(self._handle, device, ctypes.byref(out)))
        return LoadedKernel(out, self)

    def __del__(self) -> None:
        handle = getattr(self, "_handle", None)
        if handle is not None and lib is not None:
            lib.tilec_program_destroy(handle)


class LoadedKernel:
    """A program loaded on one GPU (a tilec_kernel)."""

    def __init__(self, handle: ctypes.c_void_p, program: Program) -> None:
        self._handle = handle
        self.address: int = handle.value or 0
        self.program = program

    @property
    def num_registers(self) -> int:
        return int(lib.tilec_kernel_num_registers(self._handle))

    def __del__(self) -> None:
        # Not while Python shuts down: the CUDA driver may be gone already
        # (the process's end unloads the module anyway).
        handle = getattr(self, "_handle", None)
        if handle is not None and lib is not None and not sys.is_finalizing():
            lib.tilec_kernel_destroy(handle)


def cuda_available() -> bool:
    """Whether the CUDA driver loads and initializes."""
    return bool(lib.tilec_cuda_available())


def device_arch(ordinal: int = 0) -> str:
    """The target tilec compiles for on GPU ``ordinal`` ("sm_90a" on an H100)."""
    buf = ctypes.create_string_buffer(32)
    check(lib.tilec_device_arch(ordinal, buf, len(buf)))
    return buf.value.decode()
