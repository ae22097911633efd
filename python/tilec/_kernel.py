"""tilec.compile() and the Kernel it returns; tilec.interpret()."""

from __future__ import annotations

import functools
import os
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from . import _launcher
from ._program import LoadedKernel, Program, Request, cuda_available, device_arch

PathLike = Union[str, "os.PathLike[str]"]
Grid = Union[int, Tuple[int, ...], Callable[[Dict[str, Any]], Tuple[int, ...]]]


_LOADED: List[LoadedKernel] = []


def _default_arch() -> Optional[str]:
    """The target of GPU 0 when there is one, else None (the C ABI's
    default, sm_90)."""
    return device_arch(0) if cuda_available() else None


class Kernel:
    """A compiled kernel. ``kernel[grid](*args)`` launches it: ``grid`` is
    an int, a tuple of 1 to 3 ints, or a function of the metadata dict
    (constexprs and arguments by name) returning one, as in Triton; the
    arguments are the kernel's runtime parameters in order -- CUDA tensors
    (anything with ``data_ptr()``, ``__cuda_array_interface__`` or
    ``__dlpack__``) or int addresses for pointers, ints and floats for
    scalars -- and ``stream=`` may name a CUDA stream (default: torch's
    current stream, or the default stream without torch).

    Each launch runs the variant compiled for what its arguments allow
    (pointers aligned to 16 bytes, integers equal to 1 or multiples of 16),
    compiling and loading it on first use, as Triton does.
    """

    def __init__(self, request: Request, program: Program, constexprs: Mapping[str, Any]) -> None:
        self._request = request
        self._generic = program
        self._lock = threading.Lock()
        self._programs: Dict[str, Program] = {}
        self._loaded: Dict[int, LoadedKernel] = {}
        self._variants: Dict[int, int] = {}
        # The values of every constexpr, defaults included (what a grid
        # function's metadata dict holds, with the arguments).
        self.constexprs: Dict[str, Any] = dict(program.metadata.get("constexprs", {}))
        self.constexprs.update(constexprs)
        self._launch = _launcher.make_launcher(
            self.name,
            program.params,
            self._variants,
            self._miss,
            self.constexprs,
            program.metadata.get("descriptors", ()),
        )

    # The generic variant's description.
    @property
    def name(self) -> str:
        return str(self._generic.metadata["kernel"])

    @property
    def ptx(self) -> str:
        """The PTX of the generic variant (16-byte aligned pointers, nothing
        assumed of integers)."""
        return self._generic.ptx

    @property
    def metadata(self) -> Dict[str, Any]:
        """The generic variant's SPEC section 2 metadata."""
        return self._generic.metadata

    @property
    def params(self) -> List[Tuple[str, str]]:
        """The runtime parameters: (name, type) pairs, "*f16", "i32", ..."""
        return list(self._generic.params)

    @property
    def arch(self) -> str:
        return str(self._generic.metadata["arch"])

    @property
    def num_warps(self) -> int:
        return int(self._generic.metadata["num_warps"])

    @property
    def shared_bytes(self) -> int:
        return int(self._generic.metadata["shared_bytes"])

    @property
    def signature(self) -> str:
        return "%s(%s)" % (self.name, ", ".join("%s: %s" % p for p in self.params))

    @property
    def num_variants(self) -> int:
        """Variants loaded so far (over all devices)."""
        return len(self._variants)

    @property
    def variants(self) -> Dict[str, Program]:
        """The specializations compiled so far (by launches or
        :meth:`variant`), by key ("AAD-": one character per runtime
        parameter): the programs that actually ran, where :attr:`ptx` is the
        generic one."""
        with self._lock:
            return dict(self._programs)

    def variant(self, key: str) -> Program:
        """The program of one specialization ("AAD": one character per
        runtime parameter, as tilec_request_set_option's "specialize");
        compiled through the caches, without loading it."""
        with self._lock:
            program = self._programs.get(key)
            if program is None:
                self._request.set_option("specialize", key)
                program = self._request.compile()
                self._programs[key] = program
            return program

    def _miss(self, key: int, device: int) -> int:
        program = self.variant(_launcher.key_string(self._generic.params, key))
        with self._lock:
            slot = key * 256 + device
            loaded = self._loaded.get(slot)
            if loaded is None:
                loaded = program.load(device)
                self._loaded[slot] = loaded
                # Loaded kernels stay loaded for the life of the process (as
                # the C++ Compiler's): a captured CUDA graph may launch them
                # after this Kernel is gone.
                _LOADED.append(loaded)
                self._variants[slot] = loaded.address
            return loaded.address

    def __getitem__(self, grid: Grid) -> Callable[..., None]:
        return functools.partial(self._launch, grid)

    def run(self, *args: Any, grid: Grid, stream: Any = None) -> None:
        """``kernel[grid](*args, stream=stream)``."""
        self._launch(grid, *args, stream=stream)

    def interpret(self, grid: Grid, *args: Any, max_ops: int = 0) -> None:
        """Runs the kernel on the CPU with the float64 reference interpreter
        (``tilec --interpret``): pointer arguments are C-contiguous NumPy
        arrays, read and written in place; ``max_ops`` (0: no limit) stops a
        runaway kernel. Errors raise ``tilec.CompileError`` with the
        position in the source. Needs no GPU."""
        if callable(grid):
            grid = grid(dict(self.constexprs, **dict(zip([p[0] for p in self.params], args))))
        self._request.interpret(_launcher.grid3(grid), args, max_ops)

    def __repr__(self) -> str:
        return "<tilec.Kernel %s for %s>" % (self.signature, self.arch)


def compile(
    source: PathLike,
    kernel: Optional[str] = None,
    constexprs: Optional[Mapping[str, Any]] = None,
    num_warps: Optional[int] = None,
    num_stages: Optional[int] = None,
    arch: Optional[str] = None,
    *,
    signature: Optional[str] = None,
    signature_of: Optional[str] = None,
    language: Optional[str] = None,
    name: Optional[str] = None,
    opt_level: Optional[int] = None,
    fp_fusion: Optional[bool] = None,
    line_info: Optional[bool] = None,
    cache_dir: Optional[str] = None,
) -> Kernel:
    """Compiles ``kernel`` of ``source`` -- a path to a ``.tile`` file or a
    Python file of ``@triton.jit`` kernels (typed by ``signature``,
    ``"*fp32, *fp32, i32, 1024"``, as ``tilec --signature``), or source
    text -- with ``constexprs`` and options, through the same memory and
    disk caches as the C++ API (``cache_dir``, default ``$TILEC_CACHE_DIR``
    or ``~/.cache/tilec``; ``""``: memory only).

    ``arch`` defaults to GPU 0's target (sm_90a on an H100) when there is a
    GPU, else sm_90; ``num_warps``/``num_stages`` to the kernel's
    ``@kernel(...)``. ``line_info``: source lines in the PTX (``.loc``) for
    Nsight Compute's source view and cuda-gdb. ``signature_of="runtime"``:
    the signature types only the runtime parameters (those not annotated
    ``tl.constexpr`` nor in ``constexprs``), as a launch does
    (``tilec.jit``). Raises ``tilec.CompileError`` (with ``file``,
    ``line``, ``column``) when the source does not compile and
    ``ValueError`` for bad options. Needs no GPU.
    """
    constexprs = dict(constexprs or {})
    request = _make_request(
        source,
        kernel,
        constexprs,
        signature=signature,
        language=language,
        name=name,
        options={
            "arch": arch or _default_arch(),
            "num_warps": num_warps,
            "num_stages": num_stages,
            "opt_level": opt_level,
            "fp_fusion": fp_fusion,
            "line_info": line_info,
            "cache_dir": cache_dir,
            "signature_of": signature_of,
        },
    )
    return Kernel(request, request.compile(), constexprs)


def interpret(
    source: PathLike,
    *args: Any,
    grid: Grid,
    kernel: Optional[str] = None,
    constexprs: Optional[Mapping[str, Any]] = None,
    signature: Optional[str] = None,
    signature_of: Optional[str] = None,
    language: Optional[str] = None,
    name: Optional[str] = None,
    max_ops: int = 0,
) -> None:
    """Runs ``kernel`` of ``source`` (as ``tilec.compile`` takes them) on the
    CPU with the float64 reference interpreter, as ``tilec --interpret``:
    pointer arguments are C-contiguous NumPy arrays of the parameter's
    element type, read and written in place; scalars are ints and floats.
    Raises ``tilec.CompileError`` (with the source position) on a compile
    or run error. Needs no GPU and compiles no PTX."""
    constexprs = dict(constexprs or {})
    request = _make_request(
        source,
        kernel,
        constexprs,
        signature=signature,
        language=language,
        name=name,
        options={"signature_of": signature_of},
    )
    if callable(grid):
        grid = grid(dict(constexprs))
    request.interpret(_launcher.grid3(grid), args, max_ops)


def _make_request(
    source: PathLike,
    kernel: Optional[str],
    constexprs: Dict[str, Any],
    *,
    signature: Optional[str],
    language: Optional[str],
    name: Optional[str],
    options: Mapping[str, Any],
) -> Request:
    text: Optional[str] = None
    path: Optional[str] = None
    if isinstance(source, os.PathLike):
        path = os.fspath(source)
    elif "\n" not in source and (os.path.isfile(source) or source.endswith((".tile", ".py"))):
        path = source
    else:
        text = source
    if text is not None and name is None:
        name = "<source>"
    return Request(
        text=text,
        path=path,
        name=name,
        kernel=kernel,
        language=language,
        signature=signature,
        constexprs=constexprs,
        options=options,
    )
