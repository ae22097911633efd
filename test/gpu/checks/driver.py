"""Runs the GPU suite: the selected tests in worker processes (a sticky CUDA
error costs one test, not the rest), the memcheck and racecheck self-tests,
and the per-test table of a run (and of its memcheck run).
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback

from checks.harness import TESTS, Ctx, Kernel, TestFailure, cp, np


def selected(only):
    sel = []
    for i, (g, n, fn) in enumerate(TESTS):
        if not only or any(o in "%s/%s" % (g, n) for o in only):
            sel.append(i)
    return sel


def context_alive():
    try:
        cp.cuda.runtime.deviceSynchronize()
        a = cp.zeros(16, cp.float32)
        a += 1
        cp.cuda.runtime.deviceSynchronize()
        return float(a.sum()) == 16.0
    except Exception:
        return False


def worker(args):
    cp.cuda.set_allocator(None)  # exact allocations: memcheck sees every bound
    cp.cuda.set_pinned_memory_allocator(None)
    todo = [int(v) for v in args.worker.split(",")] if args.worker else []
    with open(args.results, "a") as res:
        for i in todo:
            g, name, fn = TESTS[i]
            print("@@ test %s/%s" % (g, name), flush=True)
            t = Ctx(args.kernels, np.random.default_rng([args.seed, i]), args.small, g, name)
            t0 = time.time()
            sticky = False
            try:
                fn(t)
                t.finish()
            except Exception as e:  # one failing test never stops the suite
                msg = "%s: %s" % (
                    type(e).__name__,
                    str(e).strip().splitlines()[0] if str(e).strip() else "",
                )
                if not isinstance(e, TestFailure):
                    tb = traceback.extract_tb(e.__traceback__)
                    msg += " (at %s)" % ", ".join(
                        "%s:%d" % (os.path.basename(f.filename), f.lineno) for f in tb[-2:]
                    )
                t.record("raised", False, msg)
                sticky = not context_alive()
            res.write(
                json.dumps(
                    {
                        "index": i,
                        "group": g,
                        "test": name,
                        "secs": round(time.time() - t0, 3),
                        "checks": t.checks,
                    }
                )
                + "\n"
            )
            res.flush()
            if sticky:
                print(
                    "!! the CUDA context is unusable after %s/%s: "
                    "continuing in a new process" % (g, name),
                    flush=True,
                )
                return 3
    return 0


def planted_oob(args):
    cp.cuda.set_allocator(None)
    k = Kernel(args.kernels, "load_other")
    n = 1000  # the kernel stores all 4 * 256 lanes of `out` unmasked
    out, out0 = cp.empty(n, cp.float32), cp.empty(1024, cp.float32)
    x = cp.ones(n, cp.float32)
    try:
        k((4,), out=out, out0=out0, x=x, n=n)
        print("planted OOB: launch returned normally (expected without memcheck)")
    except Exception as e:
        print("planted OOB: launch failed: %s" % str(e).splitlines()[0])
    return 0


# Racecheck self-test: a hand-written kernel whose 4 warps write and read
# shared memory with no barrier between (thread t writes buf[t % 64], then
# reads buf[(t + 1) % 64]): racecheck must report it.
PLANTED_RACE_PTX = r"""
.version 7.8
.target sm_80
.address_size 64
.visible .entry planted_race(.param .u64 out)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[256];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 63;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, buf;
  add.u32 %r5, %r4, %r3;
  st.shared.u32 [%r5], %r1;
  add.u32 %r6, %r1, 1;
  and.b32 %r7, %r6, 63;
  shl.b32 %r8, %r7, 2;
  add.u32 %r9, %r4, %r8;
  ld.shared.u32 %r7, [%r9];
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
"""


def planted_race(args):
    import cupy

    fd, path = tempfile.mkstemp(suffix=".ptx")
    with os.fdopen(fd, "w") as f:
        f.write(PLANTED_RACE_PTX)
    fn = cupy.RawModule(path=path).get_function("planted_race")
    os.unlink(path)
    out = cupy.zeros(128, cupy.uint32)
    fn((1,), (128,), (out,))
    cupy.cuda.runtime.deviceSynchronize()
    print("planted race: launch returned (expected; racecheck reports the hazard)")
    return 0


def orchestrate(args, script):
    """Runs the selected tests in worker processes (`script --worker`); a
    worker that dies or leaves the context unusable is replaced and the
    suite goes on."""
    sel = selected(args.only)
    fd, resfile = tempfile.mkstemp(prefix="tilec-gpu-", suffix=".jsonl")
    os.close(fd)
    print(
        "tilec GPU suite: %d tests, seed %d, kernels %s%s"
        % (len(sel), args.seed, args.kernels, ", small sizes" if args.small else ""),
        flush=True,
    )
    done = {}
    t0 = time.time()
    stuck = 0
    while True:
        todo = [i for i in sel if i not in done]
        if not todo:
            break
        cmd = [
            sys.executable,
            script,
            "--kernels",
            args.kernels,
            "--seed",
            str(args.seed),
            "--worker",
            ",".join(map(str, todo)),
            "--results",
            resfile,
        ] + (["--small"] if args.small else [])
        rc = subprocess.call(cmd)
        with open(resfile) as f:
            for line in f:
                r = json.loads(line)
                done[r["index"]] = r
        rest = [i for i in todo if i not in done]
        stuck = stuck + 1 if len(rest) == len(todo) else 0
        if rest and stuck >= 3:
            print(
                "FAIL  three workers in a row ran no test (exit code %d): "
                "giving up on %d tests" % (rc, len(rest)),
                flush=True,
            )
            for i in rest:
                g, name, _ = TESTS[i]
                done[i] = {
                    "index": i,
                    "group": g,
                    "test": name,
                    "secs": 0,
                    "checks": [
                        {"check": "not run", "ok": False, "detail": "workers could not start"}
                    ],
                }
            break
        if rest and rc != 3:
            # the worker died inside test rest[0]: count it as failed
            g, name, _ = TESTS[rest[0]]
            print("FAIL  %s/%s: worker died (exit code %d)" % (g, name, rc), flush=True)
            done[rest[0]] = {
                "index": rest[0],
                "group": g,
                "test": name,
                "secs": 0,
                "checks": [{"check": "worker died", "ok": False, "detail": "exit code %d" % rc}],
            }
    os.unlink(resfile)
    results = [done[i] for i in sel]
    npass = sum(c["ok"] for r in results for c in r["checks"])
    nfail = sum(not c["ok"] for r in results for c in r["checks"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "seed": args.seed,
                    "small": args.small,
                    "secs": round(time.time() - t0, 1),
                    "results": results,
                },
                f,
                indent=1,
            )
    failed_tests = [r for r in results if any(not c["ok"] for c in r["checks"])]
    if failed_tests:
        print("\nfailed tests:")
        for r in failed_tests:
            print("  %s/%s" % (r["group"], r["test"]))
    print("\n%d passed, %d failed" % (npass, nfail), flush=True)
    return 1 if nfail else 0


def memcheck_errors(logfile):
    """Counts compute-sanitizer reports per test in a memcheck log:
    {test: [memory errors, CUDA API errors]}."""
    per, cur = {}, "(outside any test)"
    if not logfile or not os.path.exists(logfile):
        return None
    with open(logfile, errors="replace") as f:
        for line in f:
            if line.startswith("@@ test "):
                cur = line[8:].strip()
            elif line.startswith("========= "):
                if any(
                    w in line
                    for w in ("Invalid ", "Misaligned", "Out of bounds", "Uninitialized", "Race")
                ):
                    per.setdefault(cur, [0, 0])[0] += 1
                elif "Program hit" in line:
                    per.setdefault(cur, [0, 0])[1] += 1
    return per


def table(args):
    with open(args.table[0]) as f:
        run = json.load(f)
    mc = None
    if len(args.table) > 1 and os.path.exists(args.table[1]):
        with open(args.table[1]) as f:
            mc = json.load(f)
    mcerr = memcheck_errors(args.table[2]) if len(args.table) > 2 else None
    mcres = {}
    if mc:
        for r in mc["results"]:
            mcres["%s/%s" % (r["group"], r["test"])] = r
    rows = []
    for r in run["results"]:
        key = "%s/%s" % (r["group"], r["test"])
        np_ = sum(c["ok"] for c in r["checks"])
        nf = sum(not c["ok"] for c in r["checks"])
        m = "-"
        if mc is not None:
            mr = mcres.get(key)
            if mr is None:
                m = "not run"
            else:
                mf = sum(not c["ok"] for c in mr["checks"])
                e, api = (mcerr or {}).get(key, [0, 0])
                m = (
                    "clean"
                    if (mf == 0 and e == 0 and api == 0)
                    else "%d memory errors, %d API errors, %d checks failed" % (e, api, mf)
                )
        rows.append((r["group"], r["test"], np_, nf, m))
    w = max(len("%s/%s" % (g, n)) for g, n, _, _, _ in rows)
    print("%-*s  %6s  %6s  %s" % (w, "test", "passed", "failed", "memcheck"))
    for g, n, p, f, m in rows:
        print("%-*s  %6d  %6d  %s%s" % (w, "%s/%s" % (g, n), p, f, m, "   <-- FAILED" if f else ""))
    tp = sum(r[2] for r in rows)
    tf = sum(r[3] for r in rows)
    print("%-*s  %6d  %6d" % (w, "total", tp, tf))
    if mcerr and mcerr.get("(outside any test)"):
        print(
            "memcheck: %d memory errors, %d API errors outside any test"
            % tuple(mcerr["(outside any test)"])
        )
    return 0
