#!/usr/bin/env python3
"""Differential check: random valid kernels (tile-gen) run on the GPU must
agree with the float64 reference interpreter (tilec --interpret).

Two halves, because the GPU machine has no LLVM:

  differential.py prepare --tilec BIN (--tile-gen BIN | --sources DIR) --out DIR
                          [--count N] [--seed S] [--arch sm_90a]
      on the build machine: for each seed, tile-gen writes a kernel and its
      run description (.run.json); tilec compiles it to PTX + JSON; random
      inputs are drawn (seeded) into .bin files; `tilec --interpret` runs the
      kernel on them with every output poisoned (0xFF bytes) and writes the
      reference outputs. A program the interpreter rejects (a fault) is a
      bug of the generator or the interpreter and is reported.
  differential.py run DIR [--json FILE]
      on the GPU machine (CuPy): launches each PTX through the JSON ABI with
      the same inputs and poisoned outputs, then compares every output with
      the reference: poison where the reference left poison, within the run
      description's `atol` (plus a relative 1e-3 for large values)
      elsewhere. Prints one line per program, then 'N passed, M failed'.
"""
import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
NP_TYPES = {
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "i1": "uint8",
    "bf16": "uint16",
}
PACK = {
    "f32": "f",
    "f64": "d",
    "i8": "b",
    "i16": "h",
    "i32": "i",
    "i64": "q",
    "u8": "B",
    "u16": "H",
    "u32": "I",
    "u64": "Q",
    "i1": "B",
    "f16": "e",
}


def draw(param, rng):
    """Raw little-endian bytes of a random input."""
    dt, n = param["dtype"], param["count"]
    lo, hi = param.get("lo", -1), param.get("hi", 1)
    if dt in ("f16", "f32", "f64"):
        vals = [rng.uniform(lo, hi) for _ in range(n)]
    elif dt == "i1":
        vals = [rng.randint(0, 1) for _ in range(n)]
    else:
        vals = [rng.randint(int(lo), int(hi)) for _ in range(n)]
    return struct.pack("<%d%s" % (n, PACK[dt]), *vals)


def prepare(args):
    os.makedirs(args.out, exist_ok=True)
    if args.sources:
        # Given programs (NAME.tile + NAME.run.json), e.g. reduced failures.
        src_dir = args.sources
        names = sorted(f[: -len(".tile")] for f in os.listdir(src_dir) if f.endswith(".tile"))
    else:
        src_dir = os.path.join(args.out, "src")
        subprocess.check_call(
            [args.tile_gen, "--seed=%d" % args.seed, "--count=%d" % args.count, "-o", src_dir + "/"]
        )
        names = ["gen_%d" % (args.seed + i) for i in range(args.count)]
    cases, bad = [], []
    for i, name in enumerate(names):
        tile = os.path.join(src_dir, name + ".tile")
        with open(os.path.join(src_dir, name + ".run.json")) as f:
            run = json.load(f)
        case_dir = os.path.join(args.out, name)
        os.makedirs(case_dir, exist_ok=True)
        defs = []
        for p in run["params"]:
            if p["kind"] == "constexpr":
                defs += ["-D", "%s=%s" % (p["name"], p["value"])]
        compile_cmd = [
            args.tilec,
            tile,
            "-k",
            run["kernel"],
            "--arch=" + args.arch,
            "--num-warps=%d" % run["num_warps"],
            "--num-stages=%d" % run["num_stages"],
            "--emit=ptx",
            "-o",
            os.path.join(case_dir, "kernel.ptx"),
        ] + defs
        r = subprocess.run(compile_cmd, capture_output=True, text=True)
        if r.returncode != 0:
            bad.append((name, "tilec failed: " + r.stderr.strip()[:400]))
            continue
        rng = random.Random(args.seed * 1000003 + i)
        interp = [
            args.tilec,
            tile,
            "-k",
            run["kernel"],
            "--interpret",
            "--grid=%s" % ",".join(str(g) for g in run["grid"]),
            "--dump-all=" + os.path.join(case_dir, "ref"),
        ] + defs
        for p in run["params"]:
            if p["kind"] == "scalar":
                interp += ["--arg", "%s=%s" % (p["name"], p["value"])]
            elif p["kind"] == "input":
                path = os.path.join(case_dir, p["name"] + ".in.bin")
                with open(path, "wb") as f:
                    f.write(draw(p, rng))
                interp += ["--arg", "%s=file:%s" % (p["name"], path)]
            elif p["kind"] == "output":
                interp += ["--arg", "%s=poison:%d" % (p["name"], p["count"])]
        r = subprocess.run(interp, capture_output=True, text=True)
        if r.returncode != 0:
            bad.append((name, "interpreter failed: " + r.stderr.strip()[:400]))
            continue
        # Only the outputs' references are needed (the inputs are there).
        for p in run["params"]:
            if p["kind"] == "input":
                os.remove(os.path.join(case_dir, "ref", p["name"] + ".bin"))
        run["case_dir"] = name
        cases.append(run)
    with open(os.path.join(args.out, "cases.json"), "w") as f:
        json.dump({"arch": args.arch, "seed": args.seed, "cases": cases}, f, indent=1)
    for name, why in bad:
        print("PREPARE-FAIL %s: %s" % (name, why))
    if not args.sources:
        shutil.rmtree(src_dir)
    print("prepared %d programs (%d failed to prepare)" % (len(cases), len(bad)))
    return 1 if bad else 0


def run_all(args):
    import numpy as np
    import cupy as cp

    sys.path.insert(0, HERE)
    from checks import harness

    with open(os.path.join(args.dir, "cases.json")) as f:
        manifest = json.load(f)
    results, passed, failed = [], 0, 0
    for run in manifest["cases"]:
        case_dir = os.path.join(args.dir, run["case_dir"])
        name, ok, detail = run["case_dir"], True, ""
        try:
            k = harness.Kernel(case_dir, "kernel")
            kw, outs = {}, []
            for p in run["params"]:
                if p["kind"] == "scalar":
                    kw[p["name"]] = p["value"]
                elif p["kind"] == "input":
                    raw = np.fromfile(
                        os.path.join(case_dir, p["name"] + ".in.bin"), dtype=NP_TYPES[p["dtype"]]
                    )
                    kw[p["name"]] = cp.asarray(raw)
                elif p["kind"] == "output":
                    buf = cp.empty(p["count"], dtype=NP_TYPES[p["dtype"]])
                    buf.view(cp.uint8).fill(255)
                    kw[p["name"]] = buf
                    outs.append(p)
            k(tuple(run["grid"]), **kw)
            cp.cuda.runtime.deviceSynchronize()
            for p in outs:
                ref = np.fromfile(
                    os.path.join(case_dir, "ref", p["name"] + ".bin"), dtype=NP_TYPES[p["dtype"]]
                )
                got = cp.asnumpy(kw[p["name"]])
                is_float = p["dtype"] in ("f16", "f32", "f64")
                # Unwritten elements keep the poison on both sides; for
                # integers the poison is the value -1, compared as values.
                ref_poison = (ref.view(np.uint8).reshape(ref.size, -1) == 255).all(1)
                got_poison = (got.view(np.uint8).reshape(got.size, -1) == 255).all(1)
                if not is_float:
                    ref_poison[:] = got_poison[:] = False
                if (ref_poison != got_poison).any():
                    i = int(np.flatnonzero(ref_poison != got_poison)[0])
                    ok, detail = False, "%s[%d]: written %s on the GPU, %s in the reference" % (
                        p["name"],
                        i,
                        not got_poison[i],
                        not ref_poison[i],
                    )
                    break
                live = ~ref_poison
                if is_float:
                    g, r = got[live].astype(np.float64), ref[live].astype(np.float64)
                    tol = p.get("atol", 1e-5) + 1e-3 * np.abs(r)
                    both_nan = np.isnan(g) & np.isnan(r)
                    bad = ~both_nan & ~(np.abs(g - r) <= tol) & ~((g == r))
                else:
                    bad = got[live] != ref[live]
                if bad.any():
                    i = int(np.flatnonzero(bad)[0])
                    idx = np.flatnonzero(live)[i]
                    ok, detail = False, "%s[%d] = %r, reference %r (%d of %d differ)" % (
                        p["name"],
                        idx,
                        got[idx],
                        ref[idx],
                        int(bad.sum()),
                        int(live.sum()),
                    )
                    break
        except Exception as e:  # noqa: BLE001 - a failed launch fails the case
            ok, detail = False, "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:300])
            if "illegal" in str(e).lower():
                print("FAIL  %s  %s" % (name, detail), flush=True)
                results.append({"case": name, "ok": False, "detail": detail})
                failed += 1
                print("the CUDA context is unusable: stopping", flush=True)
                break
        print(
            "%s  %s  %s %s"
            % ("PASS" if ok else "FAIL", name, ",".join(run.get("features", [])), detail),
            flush=True,
        )
        results.append(
            {"case": name, "ok": ok, "detail": detail, "features": run.get("features", [])}
        )
        passed, failed = passed + ok, failed + (not ok)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--tilec", required=True)
    p.add_argument("--tile-gen", help="the generator (unless --sources)")
    p.add_argument(
        "--sources",
        help="a folder of NAME.tile + NAME.run.json to use " "instead of generated programs",
    )
    p.add_argument("--out", required=True)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--arch", default="sm_90a")
    r = sub.add_parser("run")
    r.add_argument("dir")
    r.add_argument("--json")
    args = ap.parse_args()
    return prepare(args) if args.cmd == "prepare" else run_all(args)


if __name__ == "__main__":
    sys.exit(main())
