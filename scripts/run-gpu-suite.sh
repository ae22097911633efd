#!/usr/bin/env bash
# Runs the tilec GPU correctness suite ON the GPU machine, from a bundle made
# by scripts/build-gpu-bundle.sh (PTX + JSON + check.py and checks/; no LLVM
# needed):
#   1. check.py on every kernel (fresh random inputs, ragged sizes);
#   2. the same under `compute-sanitizer --tool memcheck`, with small sizes;
#   2b. and under `--tool racecheck` (shared-memory hazards), small sizes;
#   3. a table: passed/failed checks per test, memcheck result per test.
#
#   bash scripts/run-gpu-suite.sh [BUNDLE_DIR]     # default .device/gpu
#
# Logs go to $LOG_DIR, else $OUT (the device tool's folder), else
# BUNDLE_DIR/logs: env.txt, run.log, run.json, memcheck.log, memcheck.json,
# memcheck-selftest.log, racecheck.log, racecheck-selftest.log, table.txt.
# SKIP_MEMCHECK=1 skips step 2, SKIP_RACECHECK=1 step 2b; SEED=N repeats a run's inputs.
# TILEC_GPU_LOAD=cubin loads every kernel from a cubin of the toolkit's ptxas
# (TILEC_PTXAS) instead of its PTX (step 0 makes them).
# Exit code 1 if any check failed or memcheck reported an error.
set -uo pipefail
BUNDLE=${1:-.device/gpu}
BUNDLE=$(cd "$BUNDLE" && pwd)
LOG_DIR=${LOG_DIR:-${OUT:-$BUNDLE/logs}}
mkdir -p "$LOG_DIR"
PY=${PYTHON:-python3}
CHECK="$BUNDLE/check.py"
[ -f "$CHECK" ] || CHECK="$(dirname "$0")/../test/gpu/check.py"
SEED=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
export PYTHONUNBUFFERED=1

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  cat "$BUNDLE/BUILD_INFO" 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  "$PY" -c 'import sys, numpy, cupy; print("python", sys.version.split()[0], "numpy", numpy.__version__, "cupy", cupy.__version__, "cuda runtime", cupy.cuda.runtime.runtimeGetVersion(), "driver", cupy.cuda.runtime.driverGetVersion())' 2>&1
  echo "seed: $SEED"
} | tee "$LOG_DIR/env.txt"

if [ "${TILEC_GPU_LOAD:-ptx}" = cubin ]; then
  # Every kernel's cubin up front, in parallel (the harness loads them).
  export TILEC_CUBIN_DIR=${TILEC_CUBIN_DIR:-$(mktemp -d)}
  # sm_90a PTX becomes sm_90a SASS; sm_80 PTX the GPU's own (no sm_80 cubin
  # runs on an sm_90 GPU), as checks/harness.py cubin_arch.
  TILEC_GPU_SM=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  export TILEC_GPU_SM
  echo "== 0. ptxas: $(find "$BUNDLE/kernels" -name '*.ptx' | wc -l) kernels to cubins in $TILEC_CUBIN_DIR"
  # shellcheck disable=SC2016 # expanded by the inner shell
  find "$BUNDLE/kernels" -name '*.ptx' -print0 |
    xargs -0 -P "$(nproc)" -n 1 sh -c '
      a=$(sed -n "s/^\.target[[:space:]]*\([a-z0-9_]*\).*/\1/p" "$1" | head -1)
      case $a in *a) ;; *) a=$TILEC_GPU_SM ;; esac
      "${TILEC_PTXAS:-ptxas}" -arch="$a" "$1" -o "$TILEC_CUBIN_DIR/$(basename "$1" .ptx).cubin" ||
        echo "ptxas failed: $1"' sh
fi
echo "== 1. check.py ($(find "$BUNDLE/kernels" -name '*.ptx' | wc -l) kernels)"
timeout "${RUN_TIMEOUT:-240}" "$PY" "$CHECK" --kernels "$BUNDLE/kernels" --seed "$SEED" \
  --json "$LOG_DIR/run.json" 2>&1 | tee "$LOG_DIR/run.log" | grep -v '^PASS\|^@@ '
run_rc=${PIPESTATUS[0]}

# check.py --small under compute-sanitizer --tool TOOL, at most LIMIT reports
# (TIMEOUT s) into LOG_DIR/TOOL.{log,json}; prints the last TAIL lines but
# the passing checks, and returns compute-sanitizer's exit code.
sanitized_suite() { # TOOL TIMEOUT LIMIT TAIL
  timeout "$2" "$SAN" --tool "$1" --target-processes all \
    --print-limit "$3" --show-backtrace no --error-exitcode 9 \
    "$PY" "$CHECK" --kernels "$BUNDLE/kernels" --seed "$SEED" --small \
    --json "$LOG_DIR/$1.json" >"$LOG_DIR/$1.log" 2>&1
  local rc=$?
  grep -v '^PASS\|^@@ ' "$LOG_DIR/$1.log" | tail -"$4"
  echo "   (compute-sanitizer exit code $rc)"
  return $rc
}

mc_rc=0
mc_json=""
# shellcheck disable=SC2012 # ls: the first of these paths that exists
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer \
      /opt/nvidia/*/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
if [ "${SKIP_MEMCHECK:-0}" = 0 ]; then
  if [ -n "$SAN" ]; then
    echo "== 2. check.py --small under $SAN --tool memcheck"
    sanitized_suite memcheck "${MEMCHECK_TIMEOUT:-270}" 10000 40
    mc_rc=$?
    # Self-test: memcheck must see a planted out-of-bounds write made by a
    # worker process, as the suite's kernels run in worker processes.
    "$SAN" --tool memcheck --target-processes all --print-limit 5 \
      "$PY" "$CHECK" --kernels "$BUNDLE/kernels" --planted-oob >"$LOG_DIR/memcheck-selftest.log" 2>&1
    if grep -q 'Invalid __global__ write' "$LOG_DIR/memcheck-selftest.log"; then
      selftest="memcheck self-test: a planted OOB write in a worker process IS detected"
    else
      selftest="memcheck self-test: a planted OOB write was NOT detected: the memcheck column means nothing"
      mc_rc=1
    fi
    echo "   $selftest"
    mc_json="$LOG_DIR/memcheck.json"
  else
    echo "== 2. no compute-sanitizer found: memcheck skipped"
  fi
fi

rc_rc=0
if [ "${SKIP_RACECHECK:-0}" = 0 ] && [ -n "${SAN:-}" ]; then
  # Shared-memory hazards (a missing barrier between a write and a read by
  # other warps): every kernel of the suite, small sizes.
  echo "== 2b. check.py --small under $SAN --tool racecheck"
  sanitized_suite racecheck "${RACECHECK_TIMEOUT:-400}" 100 20
  rc_rc=$?
  "$SAN" --tool racecheck --print-limit 5 "$PY" "$CHECK" --planted-race \
    >"$LOG_DIR/racecheck-selftest.log" 2>&1
  if grep -q 'Race reported\|hazard' "$LOG_DIR/racecheck-selftest.log" &&
     ! grep -q 'RACECHECK SUMMARY: 0 hazards' "$LOG_DIR/racecheck-selftest.log"; then
    rc_selftest="racecheck self-test: a planted shared-memory race IS detected"
  else
    rc_selftest="racecheck self-test: a planted race was NOT detected: the racecheck result means nothing"
    rc_rc=1
  fi
  echo "   $rc_selftest"
fi

echo "== 3. summary"
"$PY" "$CHECK" --table "$LOG_DIR/run.json" ${mc_json:+"$mc_json" "$LOG_DIR/memcheck.log"} \
  | tee "$LOG_DIR/table.txt"
grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG_DIR/run.log" | tail -1 | sed 's/^/run:      /'
if [ -n "$mc_json" ]; then
  grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG_DIR/memcheck.log" | tail -1 | sed 's/^/memcheck: /'
  grep -E 'ERROR SUMMARY' "$LOG_DIR/memcheck.log" | tail -1 | sed 's/^=* */memcheck: /'
  echo "$selftest"
fi
if [ -n "${rc_selftest:-}" ]; then
  grep -E '^[0-9]+ passed, [0-9]+ failed' "$LOG_DIR/racecheck.log" | tail -1 | sed 's/^/racecheck: /'
  grep -E 'RACECHECK SUMMARY' "$LOG_DIR/racecheck.log" | tail -1 | sed 's/^=* */racecheck: /'
  echo "$rc_selftest"
fi
[ "$run_rc" = 0 ] && [ "$mc_rc" = 0 ] && [ "$rc_rc" = 0 ] && exit 0
exit 1
