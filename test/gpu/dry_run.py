#!/usr/bin/env python3
"""Runs every check of the GPU suite without a GPU, to catch Python errors
in the checks: CuPy is replaced by numpy (a kernel "launch" writes nothing,
so the outputs keep their poison and the checks fail), the sizes are
check.py's --small ones, and each test runs in this process. Prints the
tests that raised, then 'N tests ran, M raised'; exit 1 if any raised.
Needs numpy only.

    python3 test/gpu/dry_run.py [--only SUBSTR]...
"""
import argparse
import contextlib
import io
import os
import sys
import types

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class _Stream:
    def __init__(self, **kw):
        pass

    def synchronize(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def fake_cupy():
    """numpy under CuPy's names, as far as the checks use them."""
    cp = types.ModuleType("cupy")
    for name in (
        "ndarray",
        "empty",
        "zeros",
        "ones",
        "arange",
        "count_nonzero",
        "float16",
        "float32",
        "float64",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
    ):
        setattr(cp, name, getattr(numpy, name))
    cp.asarray = cp.asnumpy = numpy.array
    cp.cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(deviceSynchronize=lambda: None), Stream=_Stream
    )
    return cp


class FakeKernel:
    """A compiled kernel whose launches do nothing."""

    def __init__(self, kdir, variant):
        from checks.manifest import KERNELS

        if variant not in KERNELS:
            raise KeyError("no kernel %s in the manifest" % variant)
        self.ptx = ""

    def __call__(self, grid, **kw):
        pass

    def launch(self, grid, stream, **kw):
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="tests whose 'group/name' contains this")
    args = ap.parse_args()
    sys.modules["cupy"] = fake_cupy()
    from checks import driver, harness

    harness.Kernel = FakeKernel
    raised = 0
    sel = driver.selected(args.only)
    for i in sel:
        group, name, fn = harness.TESTS[i]
        t = harness.Ctx("", numpy.random.default_rng([0, i]), True, group, name)
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), numpy.errstate(all="ignore"):
                fn(t)
                t.finish()
        except Exception as e:  # noqa: BLE001 (a Python error in the check)
            raised += 1
            print("RAISED %s/%s: %s: %s" % (group, name, type(e).__name__, e))
    print("%d tests ran, %d raised" % (len(sel), raised))
    return 1 if raised else 0


if __name__ == "__main__":
    sys.exit(main())
