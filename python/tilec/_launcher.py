"""The launch path of a Kernel: generated Python per kernel signature.

``kernel[grid](*args)`` runs one generated function (see ``make_launcher``)
whose body is, for ``scale(out: *f32, x: *f32, n: i32)``::

    p0 = out.data_ptr()          # or __cuda_array_interface__ / DLPack / int
    p1 = x.data_ptr()
    key = (p0 & 15 == 0) | (p1 & 15 == 0) << 1 | (n == 1) << 2 | (n % 16 == 0) << 3
    variant = variants.get(key * 256 + device())   # compiled on a miss
    launch(variant, gx, gy, gz, stream(device), pack(p0, p1, n), 24)

that is: the Triton-like specialization key (pointer alignment to 16 bytes,
integers equal to 1 or multiples of 16), one dict lookup, one struct.pack
into the C ABI's 8-byte argument slots and one ctypes call of
tilec_kernel_launch on torch's current stream. Nothing on it allocates device
memory or synchronizes, so it can be captured into a CUDA graph.
"""

from __future__ import annotations

import ctypes
import keyword
import re
import struct
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _lib
from ._program import check

# struct codes of one 8-byte argument slot, by parameter type.
_SLOT = {
    "i1": "?7x",
    "i8": "q",
    "i16": "q",
    "i32": "q",
    "i64": "q",
    "u8": "Q",
    "u16": "Q",
    "u32": "Q",
    "u64": "Q",
    "f16": "e6x",
    "bf16": "H6x",
    "f32": "f4x",
    "f64": "d",
}
_FLOATS = ("f16", "bf16", "f32", "f64")


def _bf16_bits(value: float) -> int:
    """The bfloat16 bits of ``value``, rounded to nearest even."""
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return (bits >> 16) | 0x40  # NaN stays NaN.
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device_type", ctypes.c_int32),
        ("device_id", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("dtype", ctypes.c_uint32),
        ("shape", ctypes.c_void_p),
        ("strides", ctypes.c_void_p),
        ("byte_offset", ctypes.c_uint64),
    ]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def pointer_of(value: Any, name: str) -> int:
    """The device address of an argument that has no ``data_ptr()``: an
    object with ``__cuda_array_interface__`` (CuPy, Numba, ...), with
    ``__dlpack__`` (any DLPack producer), or a plain int address."""
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is not None:
        return int(cai["data"][0])
    if hasattr(value, "__dlpack__"):
        capsule = value.__dlpack__()
        # A DLManagedTensor starts with its DLTensor; the capsule keeps
        # the producer's memory alive while we read it.
        tensor = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
        if tensor.device_type not in (2, 3, 13):  # CUDA, CUDA host, CUDA managed
            raise TypeError(
                "tilec: argument %s: a DLPack tensor on device type %d, not a CUDA device"
                % (name, tensor.device_type)
            )
        return int(tensor.data or 0) + int(tensor.byte_offset)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(
        "tilec: argument %s: expected a CUDA tensor (torch.Tensor, an object with "
        "__cuda_array_interface__ or __dlpack__) or an int address, got %s"
        % (name, type(value).__name__)
    )


def grid3(grid: Any) -> Tuple[int, int, int]:
    """(x, y, z) of a grid given as an int or a sequence of 1 to 3 ints."""
    if hasattr(grid, "__index__"):  # An int, a NumPy integer, ...
        dims: Tuple[int, ...] = (grid.__index__(),)
    else:
        dims = tuple(g.__index__() for g in grid)
    if not 1 <= len(dims) <= 3:
        raise ValueError("tilec: a grid has 1 to 3 dimensions, got %r" % (grid,))
    # The C ABI takes 32-bit dimensions: a larger one would wrap around
    # (2**32 + 5 programs launched as 5); CUDA's own limits are checked there.
    for i, d in enumerate(dims):
        if not 0 <= d <= 2**31 - 1:
            raise ValueError(
                "tilec: grid dimension %d is %d; it must be in [0, 2**31 - 1]" % (i, d)
            )
    x, y, z = dims + (1,) * (3 - len(dims))
    return x, y, z


class _Torch:
    """torch's current device and stream, looked up once torch is imported."""

    device: Callable[[], int] = staticmethod(lambda: 0)
    stream: Callable[[int], Optional[int]] = staticmethod(lambda device: None)
    resolved = False

    @classmethod
    def resolve(cls) -> None:
        torch = sys.modules.get("torch")
        if torch is None:
            return
        cls.resolved = True
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        get_device = getattr(torch._C, "_cuda_getDevice", None)
        if raw is not None and get_device is not None:
            cls.device = staticmethod(get_device)
            cls.stream = staticmethod(raw)
        # else: a torch without CUDA; device 0 and the default stream stay.


def stream_handle(stream: Any) -> Optional[int]:
    """A CUstream from a stream argument: an int, or an object with
    ``cuda_stream`` (torch.cuda.Stream) or ``ptr`` (cupy)."""
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr", "handle"):
        value = getattr(stream, attr, None)
        if isinstance(value, int):
            return value
    raise TypeError("tilec: stream=%r is not a CUDA stream" % (stream,))


def _identifier(name: str, index: int, taken: set) -> str:
    ident = name
    if not ident.isidentifier() or keyword.iskeyword(ident) or ident.startswith("_"):
        ident = "arg%d" % index
    while ident in taken:
        ident += "_"
    taken.add(ident)
    return ident


class TensorDescriptor:
    """A host tensor descriptor, as Triton's
    ``triton.tools.tensor_descriptor.TensorDescriptor``: a kernel parameter
    compiled as ``tensordesc<fp16[64, 64]>`` takes one of these (or Triton's
    own) and reads ``block_shape`` blocks of ``base`` (a CUDA tensor, or
    anything with a device address) viewed with ``shape`` and ``strides``
    (in elements; the last stride must be 1)."""

    def __init__(
        self,
        base: Any,
        shape: Sequence[int],
        strides: Sequence[int],
        block_shape: Sequence[int],
        padding: str = "zero",
    ) -> None:
        self.base = base
        self.shape = list(shape)
        self.strides = list(strides)
        self.block_shape = list(block_shape)
        self.padding = padding

    @staticmethod
    def from_tensor(tensor: Any, block_shape: Sequence[int]) -> "TensorDescriptor":
        return TensorDescriptor(tensor, tensor.shape, tensor.stride(), block_shape)

    def __repr__(self) -> str:
        return "TensorDescriptor(shape=%s, strides=%s, block_shape=%s)" % (
            self.shape,
            self.strides,
            self.block_shape,
        )


def unpack_descriptor(value: Any, spec: Dict[str, Any], kernel_name: str) -> Tuple[Any, ...]:
    """The run-time arguments a descriptor parameter is passed as (its
    base, its shape, its strides but the last), checked against what the
    kernel was compiled for (``spec``: the metadata's "descriptors" entry)."""
    name = spec["name"]
    block = list(spec["block_shape"])
    rank = len(block)
    try:
        base, shape, strides = value.base, list(value.shape), list(value.strides)
        value_block = [int(b) for b in value.block_shape]
    except AttributeError:
        raise TypeError(
            "tilec: kernel '%s': argument %s is a tensor descriptor parameter; pass a "
            "TensorDescriptor (tilec's or Triton's), not %r" % (kernel_name, name, value)
        ) from None
    if len(shape) != rank or len(strides) != rank or value_block != block:
        raise TypeError(
            "tilec: kernel '%s': argument %s: the kernel was compiled for blocks of %s "
            "(rank %d); this descriptor has shape %s, strides %s, block_shape %s"
            % (kernel_name, name, block, rank, shape, strides, value_block)
        )
    if strides[-1] != 1:
        raise TypeError(
            "tilec: kernel '%s': argument %s: the last stride of a tensor descriptor "
            "must be 1, not %r" % (kernel_name, name, strides[-1])
        )
    # What the kernel assumes of every descriptor (TMA needs it; Triton's
    # TensorDescriptor asserts it): a 16-byte aligned base, strides but the
    # last in multiples of 16 bytes.
    element_bytes = max(1, int(re.search(r"\d+", spec["dtype"]).group()) // 8)
    try:
        address = base.data_ptr()
    except AttributeError:
        address = pointer_of(base, name)
    if address % 16 or any((int(s) * element_bytes) % 16 for s in strides[:-1]):
        raise TypeError(
            "tilec: kernel '%s': argument %s: a tensor descriptor needs a 16-byte aligned "
            "base and strides (but the last) that are multiples of 16 bytes; this one has "
            "base %#x and strides %s of %d-byte elements"
            % (kernel_name, name, address, strides, element_bytes)
        )
    if getattr(value, "padding", "zero") != "zero":
        raise TypeError(
            "tilec: kernel '%s': argument %s: padding=%r; tilec compiles host "
            "descriptors with padding 'zero' (build a 'nan' one in the kernel "
            "with tl.make_tensor_descriptor(..., padding_option='nan'))"
            % (kernel_name, name, value.padding)
        )
    return (base, *[int(d) for d in shape], *[int(d) for d in strides[:-1]])


def make_launcher(
    kernel_name: str,
    params: Sequence[Tuple[str, str]],
    variants: Dict[int, int],
    miss: Callable[[int, int], int],
    constexprs: Dict[str, Any],
    descriptors: Sequence[Dict[str, Any]] = (),
) -> Callable[..., None]:
    """The launch function of a kernel with runtime ``params`` ((name, type)
    pairs): ``launch(grid, *args, stream=None, launch_pdl=False)``
    (``launch_pdl``: a programmatic dependent launch, as Triton's). ``variants`` maps
    ``key * 256 + device`` to a loaded tilec_kernel address; ``miss(key,
    device)`` compiles, loads and records a missing one and returns it.
    ``descriptors`` (the metadata's "descriptors") name the parameters that
    are host tensor descriptors: each takes one argument, unpacked into its
    run-time parameters."""
    taken: set = {"stream"}
    names = [_identifier(name, i, taken) for i, (name, _) in enumerate(params)]
    body: List[str] = []
    # The arguments the caller passes: one per parameter, one per descriptor.
    by_first = {int(d["first_param"]): (k, d) for k, d in enumerate(descriptors)}
    user_names: List[str] = []
    user_params: List[str] = []
    i = 0
    while i < len(params):
        if i in by_first:
            k, spec = by_first[i]
            arg = _identifier(spec["name"], len(params) + k, taken)
            count = 2 * len(spec["block_shape"])
            body.append(
                "    %s, = _unpack_desc(%s, _descs[%d], %r)"
                % (", ".join(names[i : i + count]), arg, k, kernel_name)
            )
            user_names.append(arg)
            user_params.append(spec["name"])
            i += count
        else:
            user_names.append(names[i])
            user_params.append(params[i][0])
            i += 1
    key_terms: List[str] = []
    pack_args: List[str] = []
    fmt = "<"
    bit = 0
    for i, ((_, ptype), arg) in enumerate(zip(params, names)):
        if ptype.startswith("*"):
            body += [
                "    try:",
                "        _p%d = %s.data_ptr()" % (i, arg),
                "    except AttributeError:",
                "        _p%d = _pointer_of(%s, %r)" % (i, arg, arg),
            ]
            key_terms.append("((_p%d & 15) == 0) << %d" % (i, bit))
            bit += 1
            pack_args.append("_p%d" % i)
            fmt += "Q"
            continue
        if ptype not in _SLOT:
            raise TypeError(
                "tilec: kernel '%s': parameters of type %s cannot be passed from Python"
                % (kernel_name, ptype)
            )
        fmt += _SLOT[ptype]
        if ptype == "bf16":
            pack_args.append("_bf16_bits(%s)" % arg)
        else:
            pack_args.append(arg)
        if ptype not in _FLOATS and ptype != "i1":
            key_terms.append("((%s == 1) << %d)" % (arg, bit))
            key_terms.append("((%s %% 16 == 0) << %d)" % (arg, bit + 1))
            bit += 2
    nbytes = 8 * len(params)
    signature = ", ".join(["_grid"] + user_names + ["*", "stream=None", "launch_pdl=False"])
    lines = ["def %s(%s):" % ("launch", signature)]
    lines += body
    lines.append("    _k = (%s) * 256" % (" | ".join(key_terms) or "0"))
    lines += [
        "    _d = _device()",
        "    _v = _variants.get(_k + _d)",
        "    if _v is None:",
        "        _v = _miss(_k >> 8, _d)",
        # The fast paths take 1-D grids that fit 32 bits; grid3 reports others.
        "    if (_grid.__class__ is tuple and len(_grid) == 1 and _grid[0].__class__ is int"
        " and -1 < _grid[0] < 2147483648):",
        "        _gx = _grid[0]; _gy = 1; _gz = 1",
        "    elif _grid.__class__ is int and -1 < _grid < 2147483648:",
        "        _gx = _grid; _gy = 1; _gz = 1",
        "    else:",
        "        if callable(_grid):",
        "            _grid = _grid(_meta(%s))" % ", ".join(user_names),
        "        _gx, _gy, _gz = _grid3(_grid)",
        "    try:",
        "        _buf = _pack(%s)" % ", ".join(pack_args),
        "    except _StructError as _e:",
        "        _bad_args(_e, (%s))" % "".join(a + ", " for a in names),
        "    _s = _stream(_d) if stream is None else _stream_handle(stream)",
        "    if launch_pdl:",
        "        _st = _launch_flags(_v, _gx, _gy, _gz, _s, _buf, %d, _DEPENDENT)" % nbytes,
        "    else:",
        "        _st = _launch(_v, _gx, _gy, _gz, _s, _buf, %d)" % nbytes,
        "    if _st:",
        "        _check(_st)",
    ]
    source = "\n".join(lines) + "\n"

    def meta(*args: Any) -> Dict[str, Any]:
        values = dict(constexprs)
        values.update(zip(user_params, args))
        return values

    def bad_args(error: Exception, args: Tuple[Any, ...]) -> None:
        for (pname, ptype), value in zip(params, args):
            code = "<Q" if ptype.startswith("*") else "<" + _SLOT[ptype]
            try:
                struct.pack(code, _bf16_bits(value) if ptype == "bf16" else value)
            except (struct.error, TypeError):
                raise TypeError(
                    "tilec: kernel '%s': argument %s: %s: cannot pass %r"
                    % (kernel_name, pname, ptype, value)
                ) from None
        raise TypeError("tilec: kernel '%s': %s" % (kernel_name, error))

    def device() -> int:
        if not _Torch.resolved:
            _Torch.resolve()
            if _Torch.resolved:
                namespace["_device"] = _Torch.device
                namespace["_stream"] = _Torch.stream
        return _Torch.device()

    def current_stream(dev: int) -> Optional[int]:
        return _Torch.stream(dev)

    namespace: Dict[str, Any] = {
        "_pointer_of": pointer_of,
        "_variants": variants,
        "_miss": miss,
        "_grid3": grid3,
        "_meta": meta,
        "_pack": struct.Struct(fmt).pack,
        "_StructError": struct.error,
        "_bad_args": bad_args,
        "_bf16_bits": _bf16_bits,
        "_device": device,
        "_stream": current_stream,
        "_stream_handle": stream_handle,
        "_launch": _lib.lib.tilec_kernel_launch,
        "_launch_flags": _lib.lib.tilec_kernel_launch_flags,
        "_DEPENDENT": _lib.LAUNCH_DEPENDENT,
        "_check": check,
        "_unpack_desc": unpack_descriptor,
        "_descs": list(descriptors),
    }
    exec(compile(source, "<tilec launcher %s>" % kernel_name, "exec"), namespace)
    launcher = namespace["launch"]
    launcher.__name__ = kernel_name
    launcher.__qualname__ = kernel_name
    return launcher


def key_string(params: Sequence[Tuple[str, str]], key: int) -> str:
    """The C ABI's specialization key ("AAD-") of a launcher's key bits."""
    chars = []
    bit = 0
    for _, ptype in params:
        if ptype.startswith("*"):
            chars.append("A" if key >> bit & 1 else "-")
            bit += 1
        elif ptype in _FLOATS or ptype == "i1":
            chars.append("-")
        else:
            chars.append("U" if key >> bit & 1 else "D" if key >> (bit + 1) & 1 else "-")
            bit += 2
    return "".join(chars)
