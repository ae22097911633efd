"""The benchmark's report: tile-bench's rows merged into bench.json, the
table (ours against the library and Triton, per kernel and size), the table
of the same-source families (ours against Triton of the same source and
configuration, per row and the minimum per family), the plot (results.png),
and fake rows for `run_bench.py --dry-run`.
"""
import json
import os
import sys

from variants import (
    CONV_SHAPES,
    GELU_SIZES,
    MATMUL_F16,
    SAME_SOURCE,
    SOFTMAX_SIZES,
    conv_shape,
    gelu_shape,
    mm_shape,
    sizes,
)

LIB_IMPLS = ("torch", "cublas", "cublas-tf32", "cudnn-nhwc")
# What issue 21 asks of ours/Triton in each same-source family (and of
# ours/copy for transpose: SAME_SOURCE_COPY).
SAME_SOURCE_TARGET = {"attention": 1.0, "mmsweep": 0.97, "transpose": 1.0, "layernorm": 1.0}
SAME_SOURCE_COPY = 0.90


def merge_ours(R, paths):
    """Adds the rows of tools/tile-bench JSON files to R (rows merged before
    are replaced): our kernels, compiled by the JIT in the same run. In the
    table a later row of an impl wins, so these replace any of ours R has."""
    R["rows"] = [r for r in R.get("rows", []) if r.get("source") != "tile-bench"]
    R.setdefault("notes", [])
    R["tile_bench"] = []
    for path in paths:
        name = os.path.basename(path)
        try:
            with open(path) as f:
                T = json.load(f)
        except (OSError, ValueError) as ex:
            R["notes"].append("tile-bench output %s unreadable: %s" % (name, ex))
            continue
        R["tile_bench"].append(
            {k: T.get(k) for k in ("env", "error", "total_s", "compile", "compile_setup_ms")}
        )
        if T.get("error"):
            R["notes"].append("tile-bench (%s): %s" % (name, T["error"]))
        R["notes"] += ["tile-bench: " + n for n in T.get("notes", [])]
        for r in T.get("rows", []):
            R["rows"].append(dict(r, source="tile-bench"))
            if r.get("kernel") == "copy" and r.get("gbs"):
                R.setdefault("copy_ours_gbs", {}).setdefault(r.get("shape", "?"), {})[
                    r["impl"]
                ] = r["gbs"]


def compile_summary(R):
    """One line on tile-bench's JIT compiles (cold, disk hit, memory hit)."""
    comp = list(
        {
            c["variant"]: c
            for t in R.get("tile_bench", [])
            for c in (t.get("compile") or [])
            if "compile_ms" in c
        }.values()
    )
    if not comp:
        return None

    def med(key):
        v = sorted(c[key] for c in comp if c.get(key) is not None and c[key] >= 0)
        return v[len(v) // 2] if v else float("nan")

    worst = max(comp, key=lambda c: c["compile_ms"])
    return (
        "tilec JIT compile (tile-bench, %d variants): cold median %.1f ms, max %.1f ms (%s); "
        "disk-cache hit %.2f ms; memory hit %.1f us; driver load median %.1f ms"
        % (
            len(comp),
            med("compile_ms"),
            worst["compile_ms"],
            worst["variant"],
            med("disk_hit_ms"),
            med("memory_hit_us"),
            med("load_ms"),
        )
    )


def fmt_rate(r):
    if r is None or r.get("ms") is None:
        if r is not None and r.get("skipped"):
            return "skipped"
        return "FAIL" if r is not None else "-"
    if "tflops" in r:
        return "%.1f TF" % r["tflops"] if r["tflops"] >= 1 else "%.2f TF" % r["tflops"]
    return "%.0f GB/s" % r["gbs"]


def rate_of(r):
    if r is None or r.get("ms") is None:
        return None
    return r.get("tflops", r.get("gbs"))


def check_text(r):
    """The check column of a row of ours: skip, ok/FAIL with the relative
    error (and the NaN count), ERR when it did not run, - when absent."""
    if r is None:
        return "-"
    if r.get("skipped"):
        return "skip"
    if "relerr" not in r:
        return "ERR"
    text = ("ok" if r.get("ok") else "FAIL") + " %.1e" % r["relerr"]
    return text + (" nan=%d" % r["nan"] if r.get("nan") else "")


def table_rows(R):
    order, groups = [], {}
    for r in R["rows"]:
        key = (r["kernel"], r["shape"])
        if key not in groups:
            groups[key] = {}
            order.append(key)
        groups[key][r["impl"]] = r  # later rows (the 'best' ones) win
    out = []
    for key in order:
        g = groups[key]
        if key[0] == "copy" or key[0] in SAME_SOURCE:
            continue
        ours = g.get("tilec")
        if ours is None:  # no best row: take the first of ours (a failure or skip)
            ours = next((v for k, v in g.items() if k.startswith("tilec")), None)
        lib = next((g[k] for k in LIB_IMPLS if k in g), None)
        libname = next((k for k in LIB_IMPLS if k in g), "-")
        tri = g.get("triton")
        ro, rl, rt = rate_of(ours), rate_of(lib), rate_of(tri)
        check = check_text(ours)
        pct = ""
        if ro is not None and "gbs" in ours and R.get("copy_gbs"):
            pct = "%.0f%%" % (100 * ro / R["copy_gbs"])
        out.append(
            [
                key[0],
                key[1],
                fmt_rate(ours),
                "%s %s" % (libname, fmt_rate(lib)),
                fmt_rate(tri),
                ("%.3f" % (ro / rl)) if ro and rl else "-",
                ("%.3f" % (ro / rt)) if ro and rt else "-",
                pct,
                check,
                ("%.3f" % ours["compile_s"]) if ours and ours.get("compile_s") else "-",
                ("%.2f" % ours["compile_hit_ms"]) if ours and ours.get("compile_hit_ms") else "-",
                (ours or {}).get("variant", "-"),
            ]
        )
    return out


def print_table(R, file=sys.stdout):
    hdr = [
        "kernel",
        "shape",
        "ours",
        "library",
        "triton",
        "ours/lib",
        "ours/tri",
        "%copy",
        "check (relerr)",
        "tilec s",
        "hit ms",
        "our variant",
    ]
    rows = table_rows(R)
    w = (
        [max(len(str(x)) for x in col) for col in zip(hdr, *rows)]
        if rows
        else [len(h) for h in hdr]
    )
    env = R.get("env", {})
    print("", file=file)
    print(
        "==== tilec benchmark: %s | torch %s | triton %s | %s"
        % (env.get("device"), env.get("torch"), env.get("triton"), R.get("build_info", "")),
        file=file,
    )
    if R.get("copy_gbs"):
        print("copy ceiling (2^28 f32 D2D, read+write): %.0f GB/s" % R["copy_gbs"], file=file)
    for shape, impls in sorted((R.get("copy_ours_gbs") or {}).items(), key=lambda kv: -len(kv[0])):
        print(
            "copy by tile-bench, %s: " % shape
            + ", ".join(
                "%s %.0f GB/s" % ({"tilec": "tilec copy kernel"}.get(k, k), v)
                for k, v in sorted(impls.items())
            ),
            file=file,
        )
    if R.get("tile_bench"):
        tb = next((t["env"] for t in R["tile_bench"] if t.get("env")), {}) or {}
        print(
            "ours: tile-bench (JIT at run time, %s, %s)"
            % (tb.get("arch", "?"), tb.get("compiler", "?")),
            file=file,
        )
        line = compile_summary(R)
        if line:
            print(line, file=file)
    fc = R.get("triton_first_call_s")
    if fc:
        print(
            "triton first call (cold compile) s: "
            + ", ".join("%s %.2f" % kv for kv in sorted(fc.items())),
            file=file,
        )
    print("| " + " | ".join(h.ljust(w[i]) for i, h in enumerate(hdr)) + " |", file=file)
    print("|" + "|".join("-" * (x + 2) for x in w) + "|", file=file)
    for r in rows:
        print("| " + " | ".join(str(x).ljust(w[i]) for i, x in enumerate(r)) + " |", file=file)
    print_same_source(R, file)
    for n in R.get("notes", []):
        print("note: " + n, file=file)


def same_source_rows(R):
    """Per family, the table rows of the same-source families: one per
    (shape, config), ours and Triton of that config, the library peer of the
    shape; and the rows of ours that failed (compile errors included)."""
    groups, order, lib = {}, [], {}
    for r in R.get("rows", []):
        if r.get("kernel") not in SAME_SOURCE:
            continue
        if r["impl"] in ("tilec", "triton"):
            key = (r["kernel"], r["shape"], r.get("config", ""))
            if key not in groups:
                groups[key] = {}
                order.append(key)
            groups[key][r["impl"]] = r
        else:
            lib[(r["kernel"], r["shape"])] = r

    def ratio(r, key):
        return ("%.3f" % r[key]) if r and key in r else "-"

    out = {}
    for key in order:
        g = groups[key]
        ours, tri, peer = g.get("tilec"), g.get("triton"), lib.get(key[:2])
        check = check_text(ours)
        rounds = "-"
        if ours and "vs_triton_rounds" in ours:
            rounds = "%.3f..%.3f" % tuple(ours["vs_triton_rounds"])
        libname = "-"
        if peer:  # SDPA names its backend
            cfg = peer.get("backend")
            libname = "%s%s %s" % (peer["impl"], " (%s)" % cfg if cfg else "", fmt_rate(peer))
        out.setdefault(key[0], []).append(
            [
                key[1],
                key[2],
                fmt_rate(ours),
                fmt_rate(tri),
                ratio(ours, "vs_triton"),
                rounds,
                libname,
                ratio(ours, "vs_lib"),
                check,
                (ours or {}).get("variant", "-"),
            ]
        )
    return out


def same_source_summary(R, fam):
    """One line: rows, the smallest ours/Triton (and where), the geometric
    mean, how many reach the target; for transpose the smallest ours/copy."""
    rs = [r for r in R.get("rows", []) if r.get("kernel") == fam and r["impl"] == "tilec"]
    got = [r for r in rs if "vs_triton" in r]
    target = SAME_SOURCE_TARGET[fam]
    if not got:
        return "%s: %d rows of ours, none timed against Triton" % (fam, len(rs))
    worst = min(got, key=lambda r: r["vs_triton"])
    geo = 1.0
    for r in got:
        geo *= r["vs_triton"] ** (1.0 / len(got))
    line = (
        "%s: %d rows (%d of ours without a time); ours/Triton min %.3f (%s, %s), geomean %.3f"
        % (
            fam,
            len(rs),
            len(rs) - len(got),
            worst["vs_triton"],
            worst["shape"],
            worst.get("config", ""),
            geo,
        )
    )
    line += "; %d/%d at >= %.2f" % (sum(r["vs_triton"] >= target for r in got), len(got), target)
    if fam == "transpose":
        cp = [r["vs_lib"] for r in got if "vs_lib" in r]
        if cp:
            line += "; ours/copy min %.3f, %d/%d at >= %.2f" % (
                min(cp),
                sum(c >= SAME_SOURCE_COPY for c in cp),
                len(cp),
                SAME_SOURCE_COPY,
            )
    return line


def print_same_source(R, file=sys.stdout):
    """The same-source tables (bench/same_source.py), one per family, then
    a summary line per family and the errors of ours (compile errors too)."""
    tables = same_source_rows(R)
    if not tables:
        return
    hdr = [
        "shape",
        "config",
        "ours",
        "triton",
        "ours/tri",
        "rounds",
        "library",
        "ours/lib",
        "check (relerr)",
        "our variant",
    ]
    print("", file=file)
    print(
        "==== same source, same config (one process; median of rounds, interleaved; "
        "ours/tri = Triton's time / ours, rounds = its min..max per round)",
        file=file,
    )
    for fam in SAME_SOURCE:
        rows = tables.get(fam)
        if not rows:
            continue
        w = [max(len(str(x)) for x in col) for col in zip(hdr, *rows)]
        print("\n%s" % fam, file=file)
        print("| " + " | ".join(h.ljust(w[i]) for i, h in enumerate(hdr)) + " |", file=file)
        print("|" + "|".join("-" * (x + 2) for x in w) + "|", file=file)
        for r in rows:
            print("| " + " | ".join(str(x).ljust(w[i]) for i, x in enumerate(r)) + " |", file=file)
    print("", file=file)
    for fam in SAME_SOURCE:
        if fam in tables:
            print("summary " + same_source_summary(R, fam), file=file)
    seen = set()
    for r in R.get("rows", []):
        err = r.get("error")
        if r.get("kernel") in SAME_SOURCE and err and (r["impl"], err) not in seen:
            seen.add((r["impl"], err))
            name = r.get("variant") or "%s %s" % (r["impl"], r.get("config", ""))
            print("error %s %s (%s): %s" % (r["kernel"], r["shape"], name, err[:1500]), file=file)


def plot(R, path):
    try:
        return _plot(R, path)
    except Exception as ex:  # noqa: BLE001
        print("no plot: %s: %s" % (type(ex).__name__, ex))
        return False


def _plot(R, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as ex:  # noqa: BLE001
        print("no plot: matplotlib unavailable (%s)" % ex)
        return False
    fams = [("softmax", "GB/s"), ("gelu", "GB/s"), ("matmul", "TFLOP/s"), ("conv2d", "TFLOP/s")]
    fig, axes = plt.subplots(2, 2, figsize=(15, 10))
    for ax, (fam, unit) in zip(axes.flat, fams):
        shapes, vals = [], {"tilec": [], "library": [], "triton": []}
        groups = {}
        for r in R["rows"]:
            if r["kernel"] != fam:
                continue
            g = groups.setdefault(r["shape"], {})
            g[r["impl"]] = r
        for shape, g in groups.items():
            shapes.append(shape)
            vals["tilec"].append(rate_of(g.get("tilec")) or 0)
            vals["library"].append(rate_of(next((g[k] for k in LIB_IMPLS if k in g), None)) or 0)
            vals["triton"].append(rate_of(g.get("triton")) or 0)
        x = list(range(len(shapes)))
        for j, (name, col) in enumerate(
            [("tilec", "tab:red"), ("library", "tab:blue"), ("triton", "tab:green")]
        ):
            ax.bar([i + (j - 1) * 0.27 for i in x], vals[name], 0.27, label=name, color=col)
            for i, v in enumerate(vals[name]):
                if v:
                    ax.text(
                        i + (j - 1) * 0.27,
                        v,
                        ("%.0f" % v) if v >= 10 else ("%.2g" % v),
                        ha="center",
                        va="bottom",
                        fontsize=7,
                    )
        if unit == "GB/s" and R.get("copy_gbs"):
            ax.axhline(R["copy_gbs"], color="gray", ls="--", lw=1, label="copy ceiling")
        if unit == "TFLOP/s":
            ax.set_yscale("log")
        ax.set_xticks(x)
        ax.set_xticklabels(shapes, rotation=20, fontsize=8)
        ax.set_ylabel(unit)
        ax.set_title(fam)
        ax.legend(fontsize=8)
    env = R.get("env", {})
    fig.suptitle(
        "tilec vs peers on %s (same run; median, L2 flushed) %s"
        % (env.get("device"), R.get("build_info", ""))
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("plot: " + path)
    return True


# fmt: off
def fake_results():
    """Rows of made-up numbers (run_bench.py --dry-run: the table and plot
    without a GPU)."""
    import random

    random.seed(0)
    R = {"env": {"device": "FAKE GPU (dry run)", "torch": "-", "triton": "-"}, "rows": [],
         "notes": ["dry run: fake numbers"], "copy_gbs": 3000.0,
         "triton_first_call_s": {"softmax": 0.4, "gelu": 0.3, "matmul": 1.7, "conv2d": 2.0}}

    def add(kernel, shape, impl, **r):
        R["rows"].append(dict(kernel=kernel, shape=shape, impl=impl, **r))

    add("copy", "2^28 f32", "torch", ms=0.7, gbs=3000.0)
    for M, N in SOFTMAX_SIZES:
        for impl in ["tilec", "torch", "triton"]:
            g = random.uniform(1000, 2900)
            add("softmax", "%dx%d f32" % (M, N), impl, ms=2 * M * N * 4 / g / 1e6, gbs=g,
                relerr=1e-7, nan=0, ok=True, compile_s=0.05, variant="softmax_%d" % N)
    for n in GELU_SIZES:
        for impl in ["tilec", "torch", "triton"]:
            g = random.uniform(1000, 2900)
            add("gelu", gelu_shape(n), impl, ms=1, gbs=g, relerr=1e-7, nan=0, ok=True)
    for M, N, K in MATMUL_F16:
        shape = mm_shape(M, N, K, "f16")
        add("matmul", shape, "tilec", ms=1, tflops=random.uniform(1, 20), relerr=3e-4, ok=True,
            nan=0)
        add("matmul", shape, "cublas", ms=1, tflops=600, relerr=3e-4, ok=True)
        add("matmul", shape, "triton", ms=1, tflops=500, relerr=3e-4, ok=True)
    add("matmul", "8192^3 f16", "tilec:x", skipped="slow")
    for fam in SAME_SOURCE:
        for sz in sizes()[fam][:2]:
            for cfg in ("A w4 s2", "B w8 s3"):
                t, o = random.uniform(0.5, 1.0), random.uniform(0.5, 1.0)
                add(fam, sz["shape"], "triton", config=cfg, ms=t, tflops=1 / t, relerr=1e-3,
                    ok=True, nan=0)
                add(fam, sz["shape"], "tilec", config=cfg, ms=o, tflops=1 / o, relerr=1e-3,
                    ok=True, nan=0, vs_triton=t / o, vs_triton_rounds=[t / o - 0.01, t / o + 0.01],
                    vs_lib=0.4 / o, variant="%s_fake_%s" % (fam, cfg[0]))
            add(fam, sz["shape"], "torch-sdpa" if fam == "attention" else "copy", config="",
                ms=0.4, tflops=2.5, ok=True)
    add("attention", sizes()["attention"][-1]["shape"], "tilec", config="B w8 s3", ok=False,
        variant="attention_fake_B", error="tilec failed (tilec ...): fake compile error")
    for s in CONV_SHAPES:
        add("conv2d", conv_shape(*s), "tilec", ms=1, tflops=5, relerr=1e-3, ok=False, nan=3)
        add("conv2d", conv_shape(*s), "cudnn-nhwc", ms=1, tflops=300, relerr=1e-3, ok=True)
    return R
# fmt: on
