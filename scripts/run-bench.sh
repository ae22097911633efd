#!/usr/bin/env bash
# Runs the tilec benchmark ON the GPU machine from a bundle made by
# scripts/bench-bundle.sh: correctness of every kernel of ours (float64
# reference, NaN-poisoned output), then median times of ours and of the peers
# (torch / cuBLAS / cuDNN, Triton 3.6) in one process on one GPU, a plot, and
# the table last.
#
#   bash scripts/run-bench.sh [BUNDLE_DIR]      # default .device/bench
#
# Output goes to $OUT (the device tool's folder) else BUNDLE_DIR/logs:
# bench.json (every row), bench.log, env.txt, results.png.
# BENCH_ONLY=softmax,gelu limits the families (the same-source families,
# attention,mmsweep,transpose,layernorm, run only when named; BENCH_ROUNDS
# their rounds, default 5); BENCH_BUDGET_S (default 330)
# is when slow kernels of ours start being skipped; BENCH_TIMEOUT_S (default
# 420) kills the run, after which the table is still printed from bench.json.
set -uo pipefail
BUNDLE=${1:-.device/bench}
BUNDLE=$(cd "$BUNDLE" && pwd)
LOG_DIR=${OUT:-$BUNDLE/logs}
mkdir -p "$LOG_DIR"
PY=${PYTHON:-python3}
DRIVER="$BUNDLE/run_bench.py"
[ -f "$DRIVER" ] || DRIVER="$(dirname "$0")/../bench/run_bench.py"
export PYTHONUNBUFFERED=1

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  cat "$BUNDLE/BUILD_INFO" 2>/dev/null
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit \
    --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
  "$PY" -c 'import sys, torch, triton, cupy, numpy; print("python", sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__, "cupy", cupy.__version__, "numpy", numpy.__version__)' 2>&1
  "$PY" -c 'import matplotlib; print("matplotlib", matplotlib.__version__)' 2>&1 | tail -1
} | tee "$LOG_DIR/env.txt"

timeout -k 10 "${BENCH_TIMEOUT_S:-420}" "$PY" "$DRIVER" --bundle "$BUNDLE" --out "$LOG_DIR" \
  --only "${BENCH_ONLY:-copy,softmax,gelu,conv2d,matmul}" --budget-s "${BENCH_BUDGET_S:-330}" \
  --rounds "${BENCH_ROUNDS:-5}" \
  > "$LOG_DIR/bench.log" 2>&1
rc=$?
# the log up to the table, without the per-row lines and passing preflights
awk '/^==== tilec benchmark/{exit} !/^ROW / && !/^PREFLIGHT .*"ok": true/' "$LOG_DIR/bench.log" | tail -50
# Optional: Nsight Compute on a few kernels of ours (BENCH_NCU=1), one text
# file; cases of bench/profile_one.py, e.g. BENCH_NCU_CASES="matmul4096 conv28".
if [ "${BENCH_NCU:-0}" = 1 ]; then
  # shellcheck disable=SC2012 # ls: the first of these paths that exists
  NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  if [ -n "$NCU" ]; then
    for c in ${BENCH_NCU_CASES:-matmul4096 softmax4097 softmax8192 conv28}; do
      echo "######## ncu $c" >> "$LOG_DIR/ncu.txt"
      timeout -k 5 90 "$NCU" --clock-control none --launch-skip 1 --launch-count 1 \
        -k 'regex:^(matmul_f16|matmul_f32|softmax|conv2d|gelu)$' \
        --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section WarpStateStats --section MemoryWorkloadAnalysis \
        "$PY" "$BUNDLE/profile_one.py" --bundle "$BUNDLE" "$c" >> "$LOG_DIR/ncu.txt" 2>&1
      echo "== ncu $c: exit $?"
    done
  else
    echo "== no ncu found"
  fi
fi
if [ $rc -ne 0 ]; then
  echo "== run_bench.py exit code $rc (124: timed out): table from what bench.json holds"
  [ -f "$LOG_DIR/bench.json" ] && "$PY" "$DRIVER" --report "$LOG_DIR/bench.json"
else
  # the table (already in bench.log after the plot line): print it last
  sed -n '/^==== tilec benchmark/,$p' "$LOG_DIR/bench.log"
fi
exit $rc
