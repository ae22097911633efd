#!/usr/bin/env python3
"""Runs the conformance corpus on a GPU: each case's kernel from the same
file, compiled by Triton (its @triton.jit, launched as written) and by tilec
(tilec.compile of the file with the case's signature), same configuration,
in one process; both checked against the case's reference, then timed
against each other (interleaved rounds, median; launches replayed from a
CUDA graph where both can be captured).

    PYTHONPATH=<tilec package> run_gpu.py [--rounds 3] [--only a,b] [--json OUT]
                                          [--dump DIR]

Needs torch, triton and the tilec Python package. Prints one row per case
and a summary: compiled N/M, correct N/M (ours and Triton), the geometric
mean of Triton time / our time and the smallest ratio. Exit status 1 when
a case that compiles is wrong.
"""

import argparse
import importlib.util
import json
import math
import os
import statistics
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402


def load_kernel(case):
    """The case's @triton.jit function (unwrapped from autotune and
    heuristics decorators) and its module."""
    from triton.runtime.jit import JITFunction

    spec = importlib.util.spec_from_file_location("conformance_" + case.name, case.path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, case.kernel)
    while not isinstance(fn, JITFunction):
        fn = fn.fn
    return fn


def constexpr_value(entry):
    """A signature entry that is a constexpr's value, as Python."""
    import triton.language as tl

    if entry in ("True", "False"):
        return entry == "True"
    if entry == "None":
        return None
    if entry[:1] in "\"'":
        return entry[1:-1]
    if entry.startswith("tl."):
        return getattr(tl, entry[3:])
    try:
        return int(entry)
    except ValueError:
        return float(entry)


def untyped_hints(signature):
    """The signature without `:16`/`:1` hints: tilec specializes on the
    launch's arguments itself, as Triton's JIT does."""
    return ", ".join(
        e.split(":")[0] if corpus.is_type_entry(e) else e for e in corpus.split_signature(signature)
    )


def bind(case, fn, launch):
    """Keyword arguments of a Triton launch: run-time arguments and
    constexpr values by parameter name."""
    entries = corpus.split_signature(case.signature)
    names = list(fn.arg_names)
    if len(entries) != len(names):
        raise ValueError(
            "the signature has %d entries, the kernel %d parameters" % (len(entries), len(names))
        )
    kwargs, runtime = {}, iter(launch.args)
    for name, entry in zip(names, entries):
        if corpus.is_type_entry(entry):
            kwargs[name] = next(runtime)
        else:
            kwargs[name] = constexpr_value(entry)
    if next(runtime, None) is not None:
        raise ValueError("setup gives more arguments than the signature has types")
    return kwargs


def poison(torch, launch):
    if not launch.poison:
        return
    for index in launch.outputs:
        t = launch.args[index]
        if t.dtype.is_floating_point:
            t.fill_(float("nan"))
        elif t.dtype == torch.bool:
            t.fill_(True)
        else:
            t.fill_(-77 if t.dtype.is_signed else 77)


def check(torch, launch):
    """None when every output matches its reference, else what differs."""
    for index, expected in launch.outputs.items():
        actual = launch.args[index]
        if actual.shape != expected.shape:
            return "output %d: shape %s, expected %s" % (
                index,
                tuple(actual.shape),
                tuple(expected.shape),
            )
        if expected.dtype.is_floating_point or actual.dtype.is_floating_point:
            a, e = actual.double(), expected.double()
            bad = ~torch.isclose(a, e, atol=launch.atol, rtol=launch.rtol, equal_nan=True)
            if bad.any():
                where = bad.nonzero()[0].tolist()
                return "output %d: %d of %d elements differ (first at %s: %r vs %r)" % (
                    index,
                    int(bad.sum()),
                    bad.numel(),
                    where,
                    a[tuple(where)].item(),
                    e[tuple(where)].item(),
                )
        elif not torch.equal(actual.to(expected.dtype), expected):
            bad = actual.to(expected.dtype) != expected
            return "output %d: %d of %d elements differ" % (index, int(bad.sum()), bad.numel())
    return None


def dump_kernels(dump, case, theirs, ours):
    """Writes both compilers' code of the case under `dump` (Triton's TTGIR
    and PTX, ours PTX) and returns Triton's register and spill counts."""
    info = {}
    if theirs is not None:
        info["triton_regs"] = getattr(theirs, "n_regs", None)
        info["triton_spills"] = getattr(theirs, "n_spills", None)
    if not dump:
        return info
    os.makedirs(dump, exist_ok=True)
    texts = {}
    if theirs is not None:
        for key in ("ttgir", "ptx"):
            if key in getattr(theirs, "asm", {}):
                texts["triton." + key] = theirs.asm[key]
    if ours is not None:
        # The specializations the launches compiled (what ran), else the
        # generic program.
        variants = getattr(ours, "variants", {})
        for key, program in variants.items():
            texts["tilec.%s.ptx" % key.replace("-", "_")] = program.ptx
        if not variants:
            texts["tilec.ptx"] = ours.ptx
    for suffix, text in texts.items():
        with open(os.path.join(dump, "%s.%s" % (case.name, suffix)), "w") as f:
            f.write(text)
    return info


def run_case(case, rounds, torch, triton, tilec, dump=""):
    row = dict(name=case.name, file=case.file, kernel=case.kernel)
    fn = load_kernel(case)

    # Triton, as written.
    theirs = case.setup(torch)
    kwargs = bind(case, fn, theirs)
    poison(torch, theirs)

    # Launch options, unless the kernel has a constexpr of that name (tutorial
    # 02's `num_stages`): Triton reads one keyword as both.
    options = {
        k: v
        for k, v in (("num_warps", case.num_warps), ("num_stages", case.num_stages))
        if k not in kwargs
    }

    def run_triton():
        return fn[theirs.grid](**kwargs, **options)

    compiled = run_triton()
    torch.cuda.synchronize()
    row["triton_error"] = check(torch, theirs)

    # tilec, the same file and configuration.
    try:
        kernel = tilec.compile(
            case.path,
            kernel=case.kernel,
            signature=untyped_hints(case.signature),
            num_warps=case.num_warps,
            num_stages=case.num_stages,
        )
    except Exception as e:  # a compile error is a row, not the end of the run
        row["compiled"] = False
        lines = str(e).splitlines()
        first = next((line for line in lines if "error:" in line), lines[0] if lines else "")
        row["error"] = "%s: %s" % (type(e).__name__, first)
        return row
    row["compiled"] = True
    ours = case.setup(torch)
    poison(torch, ours)
    launcher = kernel[ours.grid]

    def run_ours():
        launcher(*ours.args)

    run_ours()
    torch.cuda.synchronize()
    # After the first launch: the specializations it compiled are what ran.
    row.update(dump_kernels(dump, case, compiled, kernel))
    row["error"] = check(torch, ours)
    row["correct"] = row["error"] is None

    # Timing: interleaved rounds, median of each. Launches replayed from a
    # CUDA graph measure the kernels alone (a plain loop of launches would
    # measure the host's launch overhead for kernels of a few microseconds);
    # plain launches for both when either cannot be captured.
    from triton.testing import do_bench, do_bench_cudagraph

    def graph(fn):
        return do_bench_cudagraph(fn, rep=25)

    def events(fn):
        return do_bench(fn, warmup=25, rep=100)

    def capturable(fn):
        try:
            stream = torch.cuda.Stream()
            with torch.cuda.stream(stream):
                fn()
            torch.cuda.synchronize()
            with torch.cuda.graph(torch.cuda.CUDAGraph()):
                fn()
            return True
        except Exception:
            return False

    bench = graph if capturable(run_ours) and capturable(run_triton) else events
    row["timing"] = bench.__name__
    ours_ms, theirs_ms = [], []
    for _ in range(rounds):
        ours_ms.append(bench(run_ours))
        theirs_ms.append(bench(run_triton))
    row["ours_ms"] = statistics.median(ours_ms)
    row["triton_ms"] = statistics.median(theirs_ms)
    row["ours_spread"] = (min(ours_ms), max(ours_ms))
    row["triton_spread"] = (min(theirs_ms), max(theirs_ms))
    row["ratio"] = row["triton_ms"] / row["ours_ms"]
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="")
    parser.add_argument("--json", default="")
    parser.add_argument(
        "--dump", default="", help="a folder for both compilers' code of each case (PTX, TTGIR)"
    )
    args = parser.parse_args()

    import torch
    import triton

    import tilec

    # Kernels that build tensor descriptors in the kernel need Triton's
    # global-memory allocator.
    if hasattr(triton, "set_allocator"):
        triton.set_allocator(
            lambda size, alignment, stream: torch.empty(size, dtype=torch.int8, device="cuda")
        )
    cases = corpus.load_cases()
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c.name in wanted]
    rows = []
    for case in cases:
        try:
            row = run_case(case, args.rounds, torch, triton, tilec, args.dump)
        except Exception as e:
            row = dict(name=case.name, file=case.file, kernel=case.kernel, harness_error=repr(e))
            traceback.print_exc()
        rows.append(row)
        if args.json:  # after every case: a run cut short keeps its rows
            with open(args.json, "w") as f:
                json.dump(dict(rows=rows, complete=False), f, indent=1)
        if "harness_error" in row:
            print("HARNESS %-34s %s" % (case.name, row["harness_error"]), flush=True)
        elif not row.get("compiled"):
            print("NOCOMP  %-34s %s" % (case.name, row["error"]), flush=True)
        else:
            print(
                "%-7s %-34s ours %.4f ms  triton %.4f ms  ratio %.3f%s%s"
                % (
                    "OK" if row["correct"] else "WRONG",
                    case.name,
                    row["ours_ms"],
                    row["triton_ms"],
                    row["ratio"],
                    "" if row["correct"] else "  (%s)" % row["error"],
                    "" if not row["triton_error"] else "  [triton: %s]" % row["triton_error"],
                ),
                flush=True,
            )
    compiled = [r for r in rows if r.get("compiled")]
    correct = [r for r in compiled if r.get("correct")]
    triton_correct = [r for r in rows if "triton_error" in r and not r["triton_error"]]
    ratios = [r["ratio"] for r in correct]
    geomean = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")
    print(
        "compiled %d/%d, correct %d/%d (Triton correct %d/%d), geomean Triton/ours %.3f, min %s"
        % (
            len(compiled),
            len(rows),
            len(correct),
            len(rows),
            len(triton_correct),
            len(rows),
            geomean,
            "%.3f (%s)" % min((r["ratio"], r["name"]) for r in correct) if correct else "-",
        )
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(rows=rows, geomean=geomean, complete=True), f, indent=1)
    return 1 if len(correct) != len(compiled) else 0


if __name__ == "__main__":
    sys.exit(main())
