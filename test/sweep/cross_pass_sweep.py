#!/usr/bin/env python3
"""Cross-pass sweep: every tile-opt pass of this project over every .mlir input under test/.

Issue 25 found 22 crashes by running every pass over every lit input: passes
given IR they do not expect (tile-level IR to a tilegpu pass, an input of
another test's stage) must answer with a diagnostic (exit 1), never a crash.
This script runs `tile-opt --PASS INPUT` for each pair and fails when a run

  * dies by a signal or exits with >= 128 (a crash, an abort, SIGFPE),
  * prints a crash report ("PLEASE submit a bug report", "Stack dump",
    "LLVM ERROR"), or
  * runs longer than the time limit (--timeout, default 20 s).

Exit 0 with any output, or exit 1 with diagnostics, is fine. Files whose RUN
lines use -split-input-file are run with it (each `// -----` chunk alone).

The passes come from `tile-opt --help`: every --tile-*, --tilegpu-*,
--convert-* and --tilec-* pass (new ones are swept without changing this
script), plus the option variants in PASS_VARIANTS. Pairs are numbered in
(pass, input) order and --stride N runs every N-th pair only (a deterministic
subset: pair i runs when i % N == --offset); the sanitizer build uses a stride
(test/sweep/lit.local.cfg) so it stays within its CI time.

Pairs listed in EXPECTED_CRASHES are known defects: they must still crash
(the sweep reports XFAIL, and an unexpected pass fails it so the entry is
removed once fixed). The list is empty now.

Usage: cross_pass_sweep.py --tile-opt BIN --test-dir DIR [--jobs 2] [--stride 1]
"""

import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

# The passes of this project, as `tile-opt --help` names them.
PASS_PATTERN = re.compile(r"^\s+--((?:tile|tilegpu|tilec|convert-tile)[a-z0-9-]*)\s+-\s")

# Option variants swept besides each pass's defaults.
PASS_VARIANTS = [
    "--tilegpu-accelerate-matmul=wgmma=true compute-capability=90",
    "--tilegpu-pipeline=tma=true",
    "--convert-tile-to-tilegpu=num-warps=8",
]

# (pass flag, input path relative to the test dir) pairs that crash today.
EXPECTED_CRASHES = set()

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump", "LLVM ERROR")


def list_passes(tile_opt):
    out = subprocess.run([tile_opt, "--help"], capture_output=True, text=True, check=True).stdout
    passes = sorted({"--" + m.group(1) for m in map(PASS_PATTERN.match, out.splitlines()) if m})
    return passes + PASS_VARIANTS


def list_inputs(test_dir):
    inputs = []
    for root, dirs, files in os.walk(test_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".mlir"):
                inputs.append(os.path.relpath(os.path.join(root, name), test_dir))
    return sorted(inputs)


def uses_split(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if "RUN:" in line and "split-input-file" in line:
                return True
    return False


def run_one(tile_opt, test_dir, pass_flag, rel, timeout):
    path = os.path.join(test_dir, rel)
    cmd = [tile_opt, pass_flag, path, "-o", os.devnull]
    if uses_split(path):
        cmd.insert(1, "-split-input-file")
    start = time.monotonic()
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, errors="replace", timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return ("TIMEOUT", cmd, "no result after %d s" % timeout, timeout)
    elapsed = time.monotonic() - start
    rc = proc.returncode
    marker = next((m for m in CRASH_MARKERS if m in proc.stderr), None)
    if rc < 0 or rc >= 128 or marker:
        what = "signal %d" % -rc if rc < 0 else "exit %d" % rc
        if marker:
            what += ", '%s'" % marker
        return ("CRASH", cmd, what + "\n" + proc.stderr[-2000:], elapsed)
    return ("OK" if rc == 0 else "DIAG", cmd, "", elapsed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tile-opt", required=True)
    parser.add_argument("--test-dir", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--stride", type=int, default=1)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--timeout", type=int, default=20)
    args = parser.parse_args()

    passes = list_passes(args.tile_opt)
    inputs = list_inputs(args.test_dir)
    pairs = [(p, i) for p in passes for i in inputs]
    chosen = [pair for n, pair in enumerate(pairs) if n % args.stride == args.offset]
    print(
        "sweep: %d passes x %d inputs = %d pairs; running %d (stride %d, offset %d)"
        % (len(passes), len(inputs), len(pairs), len(chosen), args.stride, args.offset)
    )
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(
            pool.map(
                lambda pair: run_one(args.tile_opt, args.test_dir, pair[0], pair[1], args.timeout),
                chosen,
            )
        )

    counts = {}
    failures = 0
    slowest = max(((r[3], pair) for r, pair in zip(results, chosen)), default=None)
    for (status, cmd, detail, _), pair in zip(results, chosen):
        expected = pair in EXPECTED_CRASHES
        if status in ("CRASH", "TIMEOUT"):
            if expected:
                status = "XFAIL"
            else:
                failures += 1
                print("%s: %s\n  %s" % (status, " ".join(cmd), detail.replace("\n", "\n  ")))
        elif expected:
            failures += 1
            status = "XPASS"
            print("XPASS (remove from EXPECTED_CRASHES): %s %s" % pair)
        counts[status] = counts.get(status, 0) + 1
    summary = ", ".join("%s %d" % kv for kv in sorted(counts.items()))
    print("sweep: %s; %.1f s" % (summary, time.monotonic() - start))
    if slowest:
        print("sweep: slowest run %.2f s: %s %s" % (slowest[0], slowest[1][0], slowest[1][1]))
    print("sweep: %d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
