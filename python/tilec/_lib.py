"""The C ABI of libtilec.so (include/tilec-c/tilec.h) through ctypes.

The library is, in order: the file $TILEC_LIBRARY names, the libtilec.so
shipped inside this package, or the one of a build tree (TILEC_BUILD_DIR,
default build/ beside python/: build/python/libtilec.so, else the LLVM-linked
build/lib/libtilec.so). Every function gets its argument and result types
here, so calls convert nothing they do not need to.
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path
from typing import List, Optional

_HERE = Path(__file__).resolve().parent
ABI_VERSION = 2

# tilec_status values.
SUCCESS = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_COMPILE = 2
ERROR_CUDA = 3
ERROR_INTERNAL = 4


def _candidates() -> List[Path]:
    found: List[Path] = []
    env = os.environ.get("TILEC_LIBRARY")
    if env:
        return [Path(env)]
    found.append(_HERE / "libtilec.so")
    build = Path(os.environ.get("TILEC_BUILD_DIR", _HERE.parent.parent / "build"))
    found.append(build / "python" / "libtilec.so")
    found.append(build / "lib" / "libtilec.so")
    return found


def _load() -> ctypes.CDLL:
    tried = []
    for path in _candidates():
        if path.is_file():
            return ctypes.CDLL(str(path))
        tried.append(str(path))
    raise ImportError(
        "tilec: cannot find libtilec.so (tried %s); set TILEC_LIBRARY or "
        "build it with `ninja -C build tilec-python-lib`" % ", ".join(tried)
    )


lib = _load()
path: str = lib._name

_P = ctypes.c_void_p
_S = ctypes.c_char_p
_I = ctypes.c_int
_PP = ctypes.POINTER(ctypes.c_void_p)


def _proto(name: str, restype, *argtypes) -> None:
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_proto("tilec_abi_version", _I)
_proto("tilec_version", _S)
_proto("tilec_last_error", _S)
_proto("tilec_request_create", _I, _PP)
_proto("tilec_request_destroy", None, _P)
_proto("tilec_request_set_source", _I, _P, _S, _S)
_proto("tilec_request_set_file", _I, _P, _S)
_proto("tilec_request_set_language", _I, _P, _S)
_proto("tilec_request_set_kernel", _I, _P, _S)
_proto("tilec_request_set_signature", _I, _P, _S)
_proto("tilec_request_set_constexpr_int", _I, _P, _S, ctypes.c_int64)
_proto("tilec_request_set_constexpr_float", _I, _P, _S, ctypes.c_double)
_proto("tilec_request_set_constexpr_bool", _I, _P, _S, _I)
_proto("tilec_request_set_option", _I, _P, _S, _S)
_proto("tilec_request_kernel_names", _S, _P)
_proto("tilec_compile", _I, _P, _PP)
_proto("tilec_program_destroy", None, _P)
_proto("tilec_program_binary", ctypes.POINTER(ctypes.c_char), _P, ctypes.POINTER(ctypes.c_size_t))
_proto("tilec_program_metadata", _S, _P)
_proto("tilec_cuda_available", _I)
_proto("tilec_device_arch", _I, _I, ctypes.c_char_p, ctypes.c_size_t)
_proto("tilec_kernel_load", _I, _P, _I, _PP)
_proto("tilec_kernel_destroy", None, _P)
# kernel, grid x/y/z, stream, packed arguments, their size (then flags).
_LAUNCH = (
    _P,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
    _P,
    ctypes.c_char_p,
    ctypes.c_size_t,
)
_proto("tilec_kernel_launch", _I, *_LAUNCH)
_proto("tilec_kernel_launch_flags", _I, *_LAUNCH, ctypes.c_uint)
LAUNCH_DEPENDENT = 1
_proto("tilec_kernel_num_registers", _I, _P)


class InterpretArg(ctypes.Structure):
    """tilec_interpret_arg."""

    _fields_ = [
        ("kind", ctypes.c_int),
        ("dtype", ctypes.c_char_p),
        ("data", ctypes.c_void_p),
        ("bytes", ctypes.c_size_t),
        ("int_value", ctypes.c_int64),
        ("float_value", ctypes.c_double),
    ]


ARG_BUFFER, ARG_INT, ARG_FLOAT = 0, 1, 2
_proto(
    "tilec_interpret",
    _I,
    _P,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.c_uint32,
    ctypes.POINTER(InterpretArg),
    ctypes.c_size_t,
    ctypes.c_uint64,
)

if lib.tilec_abi_version() != ABI_VERSION:
    raise ImportError(
        "tilec: %s has C ABI version %d, this package needs %d"
        % (path, lib.tilec_abi_version(), ABI_VERSION)
    )


def last_error() -> str:
    message = lib.tilec_last_error()
    return message.decode("utf-8", "replace") if message else ""


def encode(text: Optional[str]) -> Optional[bytes]:
    return None if text is None else text.encode("utf-8")
