"""The exceptions of the tilec package."""

from __future__ import annotations

import re
from typing import Optional

_LOCATION = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.M)


class TilecError(RuntimeError):
    """Any failure reported by libtilec (bad options, CUDA errors, ...)."""


class CompileError(TilecError):
    """A kernel that does not compile. str() is the whole diagnostic text,
    clang style (``k.tile:3:9: error: unknown name 'x'``, the source line, a
    caret); ``file``, ``line``, ``column`` and ``message`` describe the first
    error (None when the text names no position)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.file: Optional[str] = None
        self.line: Optional[int] = None
        self.column: Optional[int] = None
        self.message: str = text
        match = _LOCATION.search(text)
        if match:
            self.file = match.group("file")
            self.line = int(match.group("line"))
            self.column = int(match.group("col"))
            self.message = match.group("msg")


class CudaError(TilecError):
    """The CUDA driver is missing or failed, or a kernel cannot run on the GPU."""
