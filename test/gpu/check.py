#!/usr/bin/env python3
"""tilec GPU correctness suite: runs the kernels of test/gpu/*.tile and
examples/*.tile, compiled ahead of time to PTX + JSON, through the kernel ABI
alone (docs/spec.md §2): CuPy's RawModule loads each .ptx, the .json gives the
parameter order and types, num_warps and shared_bytes. No LLVM is needed here.

  check.py --list-kernels            the manifest (used by scripts/build-gpu-bundle.sh;
                                     needs neither numpy nor a GPU)
  check.py [--kernels DIR] [--small] [--seed N] [--only SUBSTR] [--json FILE]
                                     run the suite; one line per check, then
                                     'N passed, M failed'; exit 1 on any failure
  check.py --table RUN.json [MEMCHECK.json MEMCHECK.log]
                                     print the per-feature summary table

Every run uses fresh random inputs (the seed is printed; --seed repeats it),
ragged sizes (masks), outputs poisoned with 0xFF bytes (NaN for floats) and
surrounded by poisoned guard zones, and compares against a float64 NumPy
reference with the relative-error threshold each check names (f32
elementwise < 1e-6 and the ulp bounds of docs/target.md, tf32 / f16 / bf16
dots < 1e-2, ieee dots < 1e-5; exact for integers, casts and copies). --small (or
TILEC_GPU_SMALL=1) uses fewer/smaller sizes and no guard zones, for
compute-sanitizer. Tests run in a worker process; a sticky CUDA error (an
illegal address...) fails that test and the suite goes on in a new worker.

The suite lives in the package checks/ next to this script: manifest.py (the
kernels), harness.py (launch and compare), one module of tests per
test/gpu/*.tile (and examples.py), driver.py (workers, self-tests, table).
"""
import argparse
import os
import subprocess
import sys

from checks import driver
from checks.harness import TESTS
from checks.manifest import KERNELS, SASS_CHECKS

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--kernels",
        default=os.path.join(HERE, "kernels"),
        help="folder of VARIANT.ptx + VARIANT.json (default: next to this script)",
    )
    ap.add_argument("--list-kernels", action="store_true")
    ap.add_argument("--list-tests", action="store_true")
    ap.add_argument(
        "--list-sass", action="store_true", help="the variants whose cubins the sass test reads"
    )
    ap.add_argument(
        "--small",
        action="store_true",
        default=os.environ.get("TILEC_GPU_SMALL", "") not in ("", "0"),
    )
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--only", action="append", help="run tests whose 'group/name' contains this")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--table", nargs="+", metavar="FILE")
    ap.add_argument(
        "--planted-oob",
        action="store_true",
        help="memcheck self-test: a worker process launches load_other with an "
        "output 24 elements too short (run it under compute-sanitizer)",
    )
    ap.add_argument("--planted-oob-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument(
        "--planted-race",
        action="store_true",
        help="racecheck self-test: a kernel with a shared-memory race between "
        "warps (run it under compute-sanitizer --tool racecheck)",
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--results", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.list_kernels:
        for v, (src, kn, defs, nw, ns, flags) in KERNELS.items():
            print(
                "\t".join(
                    [v, src, kn]
                    + ["%s=%s" % kv for kv in sorted(defs.items())]
                    + (["--num-warps=%d" % nw] if nw else [])
                    + (["--num-stages=%d" % ns] if ns else [])
                    + list(flags)
                )
            )
        return 0
    if args.list_sass:
        for var, _, _ in SASS_CHECKS:
            print(var)
        return 0
    if args.list_tests:
        for i, (g, n, _) in enumerate(TESTS):
            print("%3d %s/%s" % (i, g, n))
        return 0
    if args.table:
        return driver.table(args)
    if args.planted_oob:  # same process structure as the suite: a child does CUDA
        return subprocess.call(
            [
                sys.executable,
                os.path.abspath(__file__),
                "--kernels",
                args.kernels,
                "--planted-oob-child",
            ]
        )
    if args.planted_oob_child:
        return driver.planted_oob(args)
    if args.planted_race:
        return driver.planted_race(args)
    if args.seed is None:
        args.seed = int.from_bytes(os.urandom(4), "little")
    if args.worker is not None:
        return driver.worker(args)
    return driver.orchestrate(args, os.path.abspath(__file__))


if __name__ == "__main__":
    sys.exit(main())
