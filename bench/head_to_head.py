#!/usr/bin/env python3
"""Head-to-head of the memory-bound kernels (softmax, GeLU) against Triton:
one process, one timer, interleaved.

tile-bench times our kernels and run_bench.py --peers-only times Triton, in
two processes one after the other. Differences under 1% between the two are
within what that can tell apart. Here the PTX tile-bench picked for each size
(saved with `tile-bench --save-kernels=DIR/kernels`) and Triton's kernel run
in the same process and are timed the same way: triton.testing.do_bench (L2
flushed, median), alternating which goes first, ROUNDS rounds. Next to them,
a torch copy of the same bytes (the ceiling at that size). Outputs are
checked first (NaN-poisoned, float64 reference).

    python3 head_to_head.py --bundle DIR --tile-bench softmax.json gelu.json \
        [--rounds 5] [--out h2h.json]

DIR holds kernels/VARIANT.{ptx,json}. Prints a table; exit 1 when a check
fails. Needs torch, Triton and CuPy (the GPU machine's Python).
"""
import argparse
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from variants import TOL, sizes  # noqa: E402

FAMILIES = ("softmax", "gelu")


def picked_variants(paths):
    """{(kernel, shape): variant} of the rows tile-bench reported as ours."""
    out = {}
    for path in paths:
        with open(path) as f:
            for r in json.load(f).get("rows", []):
                if r.get("impl") == "tilec" and r.get("kernel") in FAMILIES and r.get("ok"):
                    out[(r["kernel"], r["shape"])] = r["variant"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bundle", required=True, help="folder with kernels/VARIANT.{ptx,json}")
    ap.add_argument("--tile-bench", nargs="+", required=True, metavar="JSON")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", help="write the rows here (JSON)")
    a = ap.parse_args()

    import cupy as cp
    import torch
    from triton.testing import do_bench
    import peers
    from ours import Ours

    picked = picked_variants(a.tile_bench)
    F = torch.nn.functional
    rows, failed = [], 0

    def bench(fn):
        return do_bench(fn, warmup=25, rep=100, return_mode="median")

    def relerr(out, ref):
        bad = bool(torch.isnan(out).any())
        return bad, ((out.double() - ref).norm() / ref.norm()).item()

    cases = []
    for s in sizes()["softmax"]:
        cases.append(("softmax", s["shape"], s, 2 * s["M"] * s["N"] * 4))
    for s in sizes()["gelu"]:
        cases.append(("gelu", s["shape"], s, 2 * s["n"] * 4))

    def run_case(k, kernel, shape, s, nbytes, var):
        """Checks ours and Triton (NaN-poisoned outputs), then times them
        and a copy of the same bytes, interleaved; returns the row."""
        torch.manual_seed(0)
        if kernel == "softmax":
            M, N = s["M"], s["N"]
            x = torch.randn(M, N, device="cuda")
            ref = torch.softmax(x.double(), dim=1)
            y = torch.empty_like(x)
            ours_fn = k.bind((M,), out=y, inp=x, in_stride=N, out_stride=N, n_cols=N)
            y2 = torch.empty_like(x)
            triton_fn = lambda: peers.tsoftmax(x, y2)  # noqa: E731
        else:
            n = s["n"]
            x = torch.randn(n, device="cuda")
            ref = F.gelu(x.double(), approximate="tanh")
            block = int(k.meta["constexprs"]["BLOCK"])
            y = torch.empty_like(x)
            ours_fn = k.bind(((n + block - 1) // block,), out=y, inp=x, n=n)
            y2 = torch.empty_like(x)
            triton_fn = lambda: peers.tgelu(x, y2)  # noqa: E731
        x2 = torch.empty_like(x)
        copy_fn = lambda: x2.copy_(x)  # noqa: E731

        checks = {}
        for name, fn, out in (("tilec", ours_fn, y), ("triton", triton_fn, y2)):
            out.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            nan, err = relerr(out, ref)
            checks[name] = (not nan and err <= TOL["f32"], err)
        row = dict(
            kernel=kernel,
            shape=shape,
            variant=var,
            nbytes=nbytes,
            rounds=a.rounds,
            ok=all(c[0] for c in checks.values()),
            relerr={n: c[1] for n, c in checks.items()},
        )
        if not row["ok"]:
            return row
        ms = {"tilec": [], "triton": [], "copy": []}
        fns = {"tilec": ours_fn, "triton": triton_fn, "copy": copy_fn}
        for r in range(a.rounds):
            order = ["tilec", "triton", "copy"] if r % 2 == 0 else ["triton", "tilec", "copy"]
            for name in order:
                ms[name].append(bench(fns[name]))
        med = {n: statistics.median(v) for n, v in ms.items()}
        per_round = [t / o for o, t in zip(ms["tilec"], ms["triton"])]
        row.update(
            ms=ms,
            gbs={n: nbytes / m / 1e6 for n, m in med.items()},
            ratio=med["triton"] / med["tilec"],
            ratio_rounds=(min(per_round), max(per_round)),
            of_copy=med["copy"] / med["tilec"],
        )
        return row

    for kernel, shape, s, nbytes in cases:
        var = picked.get((kernel, shape))
        if var is None:
            continue
        try:
            k = Ours(cp, a.bundle, {"variant": var})
        except Exception as ex:  # noqa: BLE001 (a missing or unloadable PTX)
            failed += 1
            rows.append(
                dict(
                    kernel=kernel,
                    shape=shape,
                    variant=var,
                    ok=False,
                    relerr={"load": str(ex)[:200]},
                )
            )
            print("FAIL %s %s: cannot load %s: %s" % (kernel, shape, var, ex), flush=True)
            continue
        row = run_case(k, kernel, shape, s, nbytes, var)
        rows.append(row)
        if not row["ok"]:
            failed += 1
            print("FAIL %s %s: %s" % (kernel, shape, row["relerr"]), flush=True)
            continue
        torch.cuda.empty_cache()

    print(
        "==== head to head (one process, do_bench for both, interleaved, "
        "median of %d rounds)" % a.rounds
    )
    print(
        "| kernel  | shape              | ours      | triton    | ours/tri | rounds        "
        "| copy same bytes | ours/copy | our variant          |"
    )
    print(
        "|---------|--------------------|-----------|-----------|----------|---------------"
        "|-----------------|-----------|----------------------|"
    )
    for r in rows:
        if not r["ok"]:
            print("| %-7s | %-18s | FAIL %s |" % (r["kernel"], r["shape"], r["relerr"]))
            continue
        g = r["gbs"]
        print(
            "| %-7s | %-18s | %4.0f GB/s | %4.0f GB/s | %-8.3f | %.3f..%.3f   | %4.0f GB/s       "
            "| %-9s | %-20s |"
            % (
                r["kernel"],
                r["shape"],
                g["tilec"],
                g["triton"],
                r["ratio"],
                r["ratio_rounds"][0],
                r["ratio_rounds"][1],
                g["copy"],
                "%.1f%%" % (100 * r["of_copy"]),
                r["variant"],
            )
        )
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"rows": rows}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
