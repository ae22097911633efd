"""The conformance corpus: real public Triton kernels, compiled as written.

Each kernel file in kernels/ holds public @triton.jit code verbatim under a
header naming its source (repository, path, commit or release) and licence.
Each case (cases_*.py) names one kernel of one file and a configuration of
it, as a Triton user launches it:

    Case(
        name="tutorial01_add",            # unique; [a-z0-9_]
        file="triton_tutorial_01.py",     # in kernels/
        kernel="add_kernel",              # the @triton.jit function launched
        signature="*fp32:16, *fp32:16, *fp32:16, i32, 1024",
        num_warps=4, num_stages=3,
        setup=setup_add,                  # (torch) -> Launch
    )

`signature` is Triton's AOT signature (triton/tools/compile.py; tilec
--signature): one entry per parameter of the kernel in order -- a type for a
run-time parameter (`*fp16`, `i32`, `fp32`; `:16` when the launch's value is
16-byte aligned / a multiple of 16), a value for a constexpr (`128`, `True`,
`"gelu"`, `tl.float16`). Every constexpr gets its value here, those an
autotuner or a heuristic would pick included, so both compilers build the
same configuration.

`setup(torch)` (run on the GPU machine only) returns a Launch: the run-time
arguments in parameter order (constexprs left out), the grid, which of the
arguments are outputs, and the float64 (or exact) reference of each output.
It must be deterministic (seeded): the runner calls it once per
implementation so that in-place kernels start from the same inputs.

This module imports neither torch nor triton: the compile check
(compile_all.py, a lit test) runs without them.
"""

from __future__ import annotations

import importlib.util
import os
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels")


@dataclass
class Launch:
    """One launch of a case's kernel (built by its setup on the GPU)."""

    args: List[Any]  # run-time arguments in parameter order
    grid: Tuple[int, ...]
    outputs: Dict[int, Any]  # argument index -> expected value (a tensor)
    atol: float = 1e-5
    rtol: float = 1e-5
    # Fill the outputs with NaN (or a sentinel integer) before each run, so
    # an element the kernel does not write is caught. False for outputs the
    # kernel reads or accumulates into (in place, atomics).
    poison: bool = True
    # Bytes moved or flops done per launch, for the table (optional).
    bytes: int = 0
    flops: int = 0


@dataclass
class Case:
    name: str
    file: str
    kernel: str
    signature: str
    setup: Callable[[Any], Launch]
    num_warps: int = 4
    num_stages: int = 3
    # Why a case is expected not to compile yet (an issue-tracked gap); the
    # compile check then expects the failure and fails when it goes away.
    xfail: Optional[str] = None
    notes: str = ""
    # The targets the compile check builds and assembles for (a kernel
    # that needs Hopper, such as one using wgmma-only features, names
    # only sm_90a).
    archs: Sequence[str] = ("sm_80", "sm_90a")

    @property
    def path(self) -> str:
        return os.path.join(KERNELS, self.file)


def split_signature(signature: str) -> List[str]:
    """The comma-separated entries of a signature (commas inside quotes or
    brackets do not split)."""
    entries, depth, quote, current = [], 0, None, ""
    for c in signature:
        if quote:
            current += c
            if c == quote:
                quote = None
            continue
        if c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            entries.append(current.strip())
            current = ""
            continue
        current += c
    if current.strip():
        entries.append(current.strip())
    return entries


_TYPE = re.compile(
    r"^\*?(i1|i8|i16|i32|i64|u8|u16|u32|u64|fp8e4nv|fp8e5|fp16|bf16|fp32|fp64)(:(16|1))?$"
)


def is_type_entry(entry: str) -> bool:
    """Whether a signature entry is a run-time parameter's type (else it is
    a constexpr's value)."""
    return bool(_TYPE.match(entry))


def load_cases() -> List[Case]:
    """Every case of every cases_*.py beside this file, in file order."""
    cases: List[Case] = []
    for name in sorted(os.listdir(HERE)):
        if not (name.startswith("cases_") and name.endswith(".py")):
            continue
        spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(HERE, name))
        module = importlib.util.module_from_spec(spec)
        assert spec.loader is not None
        spec.loader.exec_module(module)
        cases.extend(module.CASES)
    seen = set()
    for case in cases:
        if case.name in seen:
            raise ValueError("two cases are named %r" % case.name)
        seen.add(case.name)
    return cases
