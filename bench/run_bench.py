#!/usr/bin/env python3
"""tilec benchmark driver: runs ON the GPU machine, from a bundle made by
scripts/bench-bundle.sh (PTX + JSON of every variant, manifest.json).

In ONE process on one GPU: the copy-bandwidth ceiling, then for each kernel
and size our kernel (CuPy RawModule on the tilec PTX) -- correctness first
against a float64 reference with the output poisoned with NaN, then the
median time (triton.testing.do_bench, L2 flushed) -- and the peers in the
same run: torch / cuBLAS / cuDNN and the Triton 3.6 kernels of
bench/peers.py. Rows go to OUT/bench.json as
they are measured; a table is printed last and a plot written
(OUT/results.png, when matplotlib is there).

    python3 run_bench.py [--bundle DIR] [--out DIR] [--only softmax,gelu,...]
    python3 run_bench.py --only attention,mmsweep,transpose,layernorm [--rounds 5]
    python3 run_bench.py --peers-only --merge TB.json... [--out DIR]
    python3 run_bench.py --report OUT/bench.json     # table + plot only
    python3 run_bench.py --dry-run --out DIR         # fake rows: test table/plot

--peers-only measures the peers alone (no bundle needed) and --merge adds the
rows of tools/tile-bench (our kernels compiled by the JIT, measured the same
way in the same run: scripts/gpu-run.sh), so the table compares them.

The same-source families (attention, mmsweep, transpose, layernorm:
same_source.py; not in the default --only) compare our kernel with a Triton
kernel of the same source and configuration, interleaved in rounds, and get
a table of their own (ours/Triton per row, the minimum per family).

Before the main run, each kernel family of ours is launched once at a small
size in a child process (--preflight): a kernel that faults would otherwise
poison the CUDA context of the one process and lose every later row; a family
that fails there is left out of the main run (its peers still run).

The driver's modules, next to it (and in the bundle): ours.py (our kernels
and the preflight), families.py (the main run), report.py (table, plot);
variants.py has the sizes, their labels and the tolerances (shared with
tools/tile-bench), peers.py the Triton kernels.
"""
import argparse
import json
import os
import sys
import time

from families import Bench
from ours import HERE, preflight_family, run_preflight
from report import fake_results, merge_ours, plot, print_table
from variants import SAME_SOURCE

FAMILIES = ["copy", "softmax", "gelu", "conv2d", "matmul"]


class Results:
    """bench.json, written again after every row and note."""

    def __init__(self, path, data=None):
        self.path = path
        self.R = data or {"rows": [], "env": {}, "notes": []}

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.R, f, indent=1)
        os.replace(tmp, self.path)

    def row(self, **r):
        self.R["rows"].append(r)
        self.save()
        keys = ["kernel", "shape", "impl", "ms", "tflops", "gbs", "relerr", "ok"]
        print("ROW " + json.dumps({k: r[k] for k in keys if k in r}), flush=True)

    def note(self, s):
        print("NOTE " + s, flush=True)
        self.R["notes"].append(s)
        self.save()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--bundle", default=HERE)
    ap.add_argument("--out", default=os.environ.get("OUT") or None)
    ap.add_argument("--only", default=",".join(FAMILIES))
    ap.add_argument(
        "--budget-s",
        type=float,
        default=330.0,
        help="seconds after which slow kernels of ours are skipped",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="timed rounds of each case of the same-source families",
    )
    ap.add_argument("--no-preflight", action="store_true")
    ap.add_argument("--preflight-family")
    ap.add_argument("--report", metavar="JSON")
    ap.add_argument("--plot", metavar="PNG")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument(
        "--peers-only",
        action="store_true",
        help="measure only the peers (ours come from tile-bench: --merge)",
    )
    ap.add_argument(
        "--merge",
        nargs="+",
        default=[],
        metavar="JSON",
        help="tile-bench outputs whose rows join the table",
    )
    args = ap.parse_args()
    unknown = [f for f in args.only.split(",") if f and f not in FAMILIES + SAME_SOURCE]
    if unknown:
        ap.error("unknown families %s (known: %s)" % (unknown, ",".join(FAMILIES + SAME_SOURCE)))

    if args.preflight_family:
        preflight_family(args.bundle, args.preflight_family)
        return 0
    if args.report or args.dry_run:
        if args.report:
            with open(args.report) as f:
                R = json.load(f)
            outdir = os.path.dirname(os.path.abspath(args.report))
        else:
            R = fake_results()
            outdir = args.out or "."
            os.makedirs(outdir, exist_ok=True)
        if args.merge:
            merge_ours(R, args.merge)
            if args.report:
                Results(args.report, R).save()
        plot(R, args.plot or os.path.join(outdir, "results.png"))
        print_table(R)
        return 0

    out = args.out or os.path.join(args.bundle, "logs")
    os.makedirs(out, exist_ok=True)
    import tempfile

    os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="triton-cold-"))
    res = Results(os.path.join(out, "bench.json"))
    try:
        with open(os.path.join(args.bundle, "BUILD_INFO")) as f:
            bi = f.read()
        res.R["build_info_full"] = bi
        res.R["build_info"] = bi.splitlines()[0] if bi else ""
    except OSError:
        pass
    res.R["date"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    fams = [f for f in args.only.split(",") if f]
    args.preflight_ok = None
    if not args.no_preflight and not args.peers_only:
        t0 = time.time()
        args.preflight_ok = run_preflight(args.bundle, fams, res)
        res.R["preflight_s"] = time.time() - t0
    b = Bench(args, res)
    b.run(fams)
    res.R["total_s"] = b.elapsed()
    if args.merge:
        merge_ours(res.R, args.merge)
    res.save()
    plot(res.R, os.path.join(out, "results.png"))
    print_table(res.R)
    return 0


if __name__ == "__main__":
    sys.exit(main())
