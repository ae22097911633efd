"""A stand-in for ``triton.language`` where Triton is not installed.

A Triton-style kernel file imports ``triton.language as tl`` so that its
annotations (``BLOCK: tl.constexpr``) and module-level constexprs
(``EPS = tl.constexpr(1e-5)``) evaluate when Python imports it; tilec
compiles the file without running it. With ``import tilec.language as tl``
the same file imports without Triton: this module gives ``constexpr`` and
the dtype names, and any other ``tl.NAME`` is a function that may only be
called inside a kernel compiled by tilec.
"""

from typing import Any


class constexpr:  # noqa: N801 (Triton's spelling)
    """``tl.constexpr``: an annotation, or a module-level constant."""

    def __init__(self, value: Any = None) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "constexpr[%r]" % (self.value,)


class dtype:  # noqa: N801
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_DTYPE_NAMES = (
    "int1 int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32 "
    "float64 float8e4nv float8e5 float8e4b15"
).split()
for _name in _DTYPE_NAMES:
    globals()[_name] = dtype(_name)


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)

    def only_in_kernels(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "tilec.language.%s can only be called inside a kernel that tilec compiles" % name
        )

    only_in_kernels.__name__ = name
    return only_in_kernels
