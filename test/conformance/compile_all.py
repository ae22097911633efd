#!/usr/bin/env python3
"""Compiles every case of the conformance corpus as written, with tilec's
Triton-source input (`tilec FILE.py -k KERNEL --signature ...`), for each of
its targets, and assembles the PTX with ptxas when one is given.

    compile_all.py --tilec build/bin/tilec [--ptxas ptxas] [--only a,b] [-j N] [--sample N]

Prints one line per case (PASS, FAIL, XFAIL: fails as its `xfail` says,
XPASS: compiles although marked xfail) and "compiles as-is: N/M". Exit
status 1 when a case FAILs or XPASSes.
"""

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402


def compile_case(case, tilec, ptxas, workdir):
    """None when every target compiles (and assembles), else the first
    error's text."""
    for arch in case.archs:
        out = os.path.join(workdir, "%s.%s.ptx" % (case.name, arch))
        cmd = [
            tilec,
            case.path,
            "-k",
            case.kernel,
            "--signature",
            case.signature,
            "--num-warps=%d" % case.num_warps,
            "--num-stages=%d" % case.num_stages,
            "--arch=" + arch,
            "--emit=ptx",
            "-o",
            out,
        ]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return "%s: tilec timed out" % arch
        if run.returncode != 0:
            lines = (run.stderr or run.stdout).strip().splitlines()
            errors = [line for line in lines if "error:" in line]
            return "%s: exit %d: %s" % (arch, run.returncode, (errors or lines or ["?"])[0])
        if ptxas:
            run = subprocess.run(
                [ptxas, "-arch=" + arch, out, "-o", os.devnull],
                capture_output=True,
                text=True,
                timeout=300,
            )
            if run.returncode != 0:
                return "%s: ptxas: %s" % (arch, run.stderr.strip().splitlines()[:1])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tilec", required=True)
    parser.add_argument("--ptxas", default="")
    parser.add_argument("--only", default="")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--sample",
        type=int,
        default=int(os.environ.get("TILEC_CONFORMANCE_SAMPLE", "1")),
        help="compile every Nth case only (default $TILEC_CONFORMANCE_SAMPLE or 1: all); "
        "scripts/sanitize.sh samples, its instrumented tilec being slow",
    )
    args = parser.parse_args()

    cases = corpus.load_cases()
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c.name in wanted]
    cases = cases[:: max(args.sample, 1)]
    failed = 0
    compiled = 0
    with tempfile.TemporaryDirectory() as workdir:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(
                pool.map(lambda c: compile_case(c, args.tilec, args.ptxas, workdir), cases)
            )
    for case, error in zip(cases, results):
        if error is None:
            compiled += 1
            status = "XPASS" if case.xfail else "PASS"
        else:
            status = "XFAIL" if case.xfail else "FAIL"
        if status in ("FAIL", "XPASS"):
            failed += 1
        detail = error or ""
        if case.xfail:
            detail = "(xfail: %s) %s" % (case.xfail, detail)
        print(("%-5s %s %s" % (status, case.name, detail)).rstrip())
    kernels = {(c.file, c.kernel) for c in cases}
    good = {(c.file, c.kernel) for c, e in zip(cases, results) if e is None}
    print(
        "compiles as-is: %d/%d kernels, %d/%d cases (%d files)"
        % (len(good), len(kernels), compiled, len(cases), len({c.file for c in cases}))
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
