"""Triton-style kernels typed at launch: ``@tilec.jit`` and ``tilec.JITFunction``.

    @tilec.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        ...

    add_kernel[grid](x, y, out, n, BLOCK=1024)

A ``@triton.jit``-style function has no types; as Triton's JIT does, each
launch types its parameters from the arguments (a tensor's pointer by its
dtype, an int by its value, a float as fp32, a bool as i1), takes the
constexprs (and ``num_warps``/``num_stages``) from the keyword arguments,
and runs the kernel compiled for that signature -- compiled on first use
through tilec's caches, and argument-specialized (16-byte aligned pointers,
integers equal to 1 or multiples of 16) by the Kernel it compiles to.
"""

from __future__ import annotations

import ast
import inspect
import numbers
import os
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ._kernel import Grid, Kernel
from ._kernel import compile as compile_kernel
from ._kernel import interpret as interpret_kernel

# Element types of tensors, by dtype name (torch's without "torch.", NumPy's)
# and by __cuda_array_interface__ typestr (without the byte order).
_DTYPES = {
    "float32": "fp32",
    "float16": "fp16",
    "bfloat16": "bf16",
    "float64": "fp64",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "bool": "i1",
    "float8_e4m3fn": "fp8e4nv",
    "float8_e5m2": "fp8e5",
}
_TYPESTRS = {
    "f2": "fp16",
    "f4": "fp32",
    "f8": "fp64",
    "i1": "i8",
    "i2": "i16",
    "i4": "i32",
    "i8": "i64",
    "u1": "u8",
    "u2": "u16",
    "u4": "u32",
    "u8": "u64",
    "b1": "i1",
}
_LAUNCH_OPTIONS = ("num_warps", "num_stages")


def signature_entry(value: Any, name: str) -> str:
    """The Triton signature type of one launch argument, as Triton's JIT
    types it: ``*fp16`` for a tensor of float16, ``i32`` for an int that
    fits 32 signed bits (else ``i64``, or ``u64`` from 2**63 on), ``fp32``
    for a float, ``i1`` for a bool, the constexpr ``None`` for None. Raises
    TypeError for anything else."""
    if value is None:
        return "None"  # a constexpr None, as Triton's JIT makes it
    if isinstance(value, bool):
        return "i1"
    # NumPy's scalars are numbers too (not arrays of one element).
    if isinstance(value, numbers.Integral):
        value = int(value)
    elif isinstance(value, numbers.Real):
        value = float(value)
    if isinstance(value, int):
        if -(2**31) <= value < 2**31:
            return "i32"
        if 2**63 <= value < 2**64:
            return "u64"
        if -(2**63) <= value < 2**63:
            return "i64"
        raise TypeError("tilec: argument %s = %d does not fit 64 bits" % (name, value))
    if isinstance(value, float):
        return "fp32"
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        dtype_name = str(dtype).replace("torch.", "")
        if dtype_name in _DTYPES:
            return "*" + _DTYPES[dtype_name]
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is not None and cai.get("typestr", "")[1:] in _TYPESTRS:
        return "*" + _TYPESTRS[cai["typestr"][1:]]
    raise TypeError(
        "tilec: cannot type argument %s (%s) from its value: a kernel typed at "
        "launch takes tensors of a known dtype, ints, floats and bools (give "
        "tilec.compile a signature for anything else)" % (name, type(value).__name__)
    )


def _function_def(path: str, name: str) -> ast.FunctionDef:
    """The definition of function ``name`` of the Python file ``path``
    (read with ``ast``, not run)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise ValueError("tilec: %s has no function %r" % (path, name))


def _parameters(path: str, name: str) -> List[Tuple[str, bool]]:
    """The parameters of function ``name`` of ``path``, in order: (name,
    annotated ``constexpr``)."""
    node = _function_def(path, name)
    return [
        (a.arg, a.annotation is not None and ast.unparse(a.annotation).endswith("constexpr"))
        for a in node.args.posonlyargs + node.args.args
    ]


def _next_power_of_2(n: int) -> int:
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()


class _TritonNames:
    """What the decorators of a Triton file may name from ``triton``."""

    @staticmethod
    def Config(*args: Any, **kwargs: Any) -> Any:  # noqa: N802 (Triton's name)
        from ._autotune import Config

        return Config(*args, **kwargs)

    next_power_of_2 = staticmethod(_next_power_of_2)
    cdiv = staticmethod(lambda a, b: (a + b - 1) // b)
    language = None  # set below: tilec.language


def _file_decorators(fn: Any, path: str, name: str) -> Any:
    """``fn`` wrapped in the ``@triton.autotune`` / ``@triton.heuristics``
    decorators of function ``name`` in ``path``, as Triton applies them:
    their arguments are evaluated (literal configs, comprehensions, lambdas
    over ``args``, ``triton.next_power_of_2`` / ``triton.cdiv``, ``math``)
    without running the rest of the file."""
    import math

    from . import language
    from ._decorators import Autotuner, Heuristics

    _TritonNames.language = language
    names = {"triton": _TritonNames, "tl": language, "math": math, "Config": _TritonNames.Config}
    for decorator in reversed(_function_def(path, name).decorator_list):
        if not isinstance(decorator, ast.Call):
            continue
        kind = ast.unparse(decorator.func).split(".")[-1]
        if kind not in ("autotune", "heuristics"):
            continue

        def value(node: ast.AST) -> Any:
            try:
                return eval(compile(ast.Expression(node), path, "eval"), dict(names))
            except Exception as error:  # noqa: BLE001 - reported with the place
                raise TypeError(
                    "tilec: %s:%d: the @%s of %r cannot be evaluated without running the "
                    "file's host code (%s: %s); apply tilec.%s in code instead"
                    % (path, node.lineno, kind, name, type(error).__name__, error, kind)
                ) from None

        arguments = dict(
            zip(("configs", "key") if kind == "autotune" else ("values",), decorator.args)
        )
        arguments.update((k.arg, k.value) for k in decorator.keywords if k.arg)
        if kind == "heuristics":
            fn = Heuristics(fn, value(arguments["values"]))
            continue
        known = {"configs", "key", "reset_to_zero", "restore_value", "warmup", "rep"}
        unknown = sorted(set(arguments) - known)
        if unknown:
            raise TypeError(
                "tilec: %s:%d: @autotune of %r: %s not supported here; apply tilec.autotune in "
                "code instead" % (path, decorator.lineno, name, ", ".join(unknown))
            )
        fn = Autotuner(
            fn,
            value(arguments["configs"]),
            value(arguments["key"]),
            reset_to_zero=value(arguments["reset_to_zero"]) if "reset_to_zero" in arguments else (),
            restore_value=value(arguments["restore_value"]) if "restore_value" in arguments else (),
        )
    return fn


class JITFunction:
    """A Triton-style kernel of a Python source, typed at each launch.

    ``fn[grid](*args, **constexprs)`` launches it: the positional arguments
    are the runtime parameters (those not annotated ``tl.constexpr``), the
    keyword arguments the constexprs, ``num_warps``, ``num_stages`` and
    ``stream``. ``fn.interpret(grid, *args, **constexprs)`` runs it on the
    CPU on NumPy arrays. ``fn.kernel(*args, **constexprs)`` is the compiled
    ``tilec.Kernel`` those arguments launch."""

    def __init__(
        self,
        source: str,
        kernel: str,
        constexprs: Optional[Mapping[str, Any]] = None,
        **options: Any,
    ) -> None:
        self.source = source
        self.name = kernel
        self.constexprs = dict(constexprs or {})
        self.options = options
        self.params = _parameters(source, kernel)
        self.arg_names = [name for name, _ in self.params]
        self._lock = threading.Lock()
        self._kernels: Dict[Tuple[Any, ...], Kernel] = {}

    @classmethod
    def from_file(
        cls,
        source: str,
        kernel: str,
        constexprs: Optional[Mapping[str, Any]] = None,
        **options: Any,
    ) -> Any:
        """The kernel ``kernel`` of the Triton file ``source`` as Triton's JIT
        sees it: a JITFunction under the file's ``@triton.autotune`` and
        ``@triton.heuristics`` decorators (tilec.Autotuner, tilec.Heuristics),
        evaluated without running the rest of the file."""
        return _file_decorators(cls(source, kernel, constexprs, **options), source, kernel)

    def bind(self, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Dict[str, Any]:
        """The arguments of a launch by parameter name (positional ones in
        order, then keywords), with ``num_warps``/``num_stages`` too: what
        heuristics and autotune keys see, as Triton's ``args`` dict."""
        if len(args) > len(self.params):
            raise TypeError(
                "tilec: %s takes %d arguments, got %d" % (self.name, len(self.params), len(args))
            )
        bound = dict(zip(self.arg_names, args))
        for key, value in kwargs.items():
            if key in bound:
                raise TypeError("tilec: %s got argument %r twice" % (self.name, key))
            if key not in self.arg_names and key not in _LAUNCH_OPTIONS:
                raise TypeError("tilec: %s has no parameter %r" % (self.name, key))
            bound[key] = value
        return bound

    def _split(self, args: Sequence[Any], kwargs: Mapping[str, Any]):
        """(runtime arguments, their signature, constexprs, options)."""
        bound = self.bind(args, kwargs)
        constexprs = dict(self.constexprs)
        options = dict(self.options)
        runtime = []
        for name, is_constexpr in self.params:
            if name not in bound:
                if not is_constexpr and name not in constexprs:
                    raise TypeError("tilec: %s: missing argument %r" % (self.name, name))
                continue
            if is_constexpr or name in self.constexprs:
                constexprs[name] = bound[name]
            else:
                runtime.append(bound[name])
        for key in _LAUNCH_OPTIONS:
            if key in bound:
                options[key] = bound[key]
        signature = ", ".join(signature_entry(a, "%d" % (i + 1)) for i, a in enumerate(runtime))
        # None arguments are constexprs in the signature, not launched.
        return [a for a in runtime if a is not None], signature, constexprs, options

    def kernel(self, *args: Any, **kwargs: Any) -> Kernel:
        """The Kernel a launch with these arguments runs (compiled on first
        use)."""
        _, signature, constexprs, options = self._split(args, kwargs)
        key = (signature, tuple(sorted(constexprs.items())), tuple(sorted(options.items())))
        with self._lock:
            found = self._kernels.get(key)
        if found is not None:
            return found
        compiled = compile_kernel(
            self.source,
            kernel=self.name,
            constexprs=constexprs,
            signature=signature,
            signature_of="runtime",
            **options,
        )
        with self._lock:
            return self._kernels.setdefault(key, compiled)

    def __getitem__(self, grid: Grid) -> Callable[..., None]:
        def launch(*args: Any, stream: Any = None, launch_pdl: bool = False, **kwargs: Any) -> None:
            runtime, _, _, _ = self._split(args, kwargs)
            self.kernel(*args, **kwargs)[grid](*runtime, stream=stream, launch_pdl=launch_pdl)

        return launch

    def interpret(self, grid: Grid, *args: Any, max_ops: int = 0, **kwargs: Any) -> None:
        """Runs the kernel on the CPU with the float64 reference interpreter
        (NumPy arrays for pointers, typed by their dtype)."""
        runtime, signature, constexprs, _ = self._split(args, kwargs)
        interpret_kernel(
            self.source,
            *runtime,
            grid=grid(dict(constexprs)) if callable(grid) else grid,
            kernel=self.name,
            constexprs=constexprs,
            signature=signature,
            signature_of="runtime",
            max_ops=max_ops,
        )

    @property
    def num_kernels(self) -> int:
        """Signatures compiled so far."""
        return len(self._kernels)

    def __repr__(self) -> str:
        return "<tilec.JITFunction %s of %s>" % (self.name, self.source)


def jit(fn: Optional[Callable[..., Any]] = None, **options: Any) -> Any:
    """Decorates a Triton-style kernel (``@tilec.jit``, or
    ``@tilec.jit(num_warps=8)``): the function's file is compiled as tilec
    reads Python sources (its ``@triton.jit`` / ``@tilec.jit`` functions and
    module-level ``tl.constexpr`` globals; host code is not run), the
    function typed at each launch (JITFunction). Options are those of
    ``tilec.compile`` (``num_warps``, ``num_stages``, ``arch``, ...)."""

    def wrap(f: Callable[..., Any]) -> JITFunction:
        path = inspect.getsourcefile(f)
        if path is None or not os.path.isfile(path):
            raise TypeError("tilec.jit: the source file of %r cannot be found" % (f,))
        return JITFunction(path, f.__name__, **options)

    return wrap(fn) if fn is not None else wrap
