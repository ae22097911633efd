#!/usr/bin/env bash
# Runs everything on the GPU machine, from the bundle of scripts/gpu-bundle.sh
# (nothing to build there; Python 3 with numpy, CuPy, torch and Triton for
# the checker and the peers):
#   1. the GPU suite: test/gpu/check.py on every kernel, then again under
#      compute-sanitizer memcheck (and racecheck, when SKIP does not name
#      it) with small sizes (scripts/run-gpu-suite.sh);
#   1b. the suite again with every kernel loaded from a cubin that the
#      toolkit's ptxas made of its PTX (TILEC_GPU_LOAD=cubin), not the PTX;
#   2. the unit tests that need a GPU (TilecRuntimeTests, TilecJITTests);
#   2b. the Python package's GPU tests (test/python/gpu, the bundle's wheel);
#   2c. the conformance corpus (test/conformance/run_gpu.py, the bundle's
#       wheel): real Triton kernels as written, ours vs Triton, one process;
#   3. the example host programs (JIT, and the AOT one);
#   4. the benchmark: tile-bench (our kernels, compiled by the JIT) one
#      process per family, then the peers (cuBLAS, cuDNN, torch, Triton:
#      bench/run_bench.py --peers-only) in the same run, merged into one
#      table with ratios, and a plot; then softmax and GeLU head to head
#      with Triton in one process (bench/head_to_head.py);
#   5. when BENCH_ONLY names them, the same-source families (attention,
#      mmsweep, transpose, layernorm: bench/same_source.py): ours from the
#      bundle's PTX and Triton of the same source and config, one process;
# then prints the counts of each step, 'N passed, M failed' over all of them,
# and the benchmark table last.
#
#   bash scripts/gpu-run.sh [BUNDLE_DIR]       # default .device/all
#
# Results go to $OUT (the device tool's folder) else BUNDLE_DIR/logs:
# summary.txt, bench.json (every row, merged), results.png, logs.tar.xz
# (all logs). SKIP=suite,memcheck,racecheck,cubins,unit,python,conformance,examples,bench leaves steps
# out (default racecheck: it takes minutes);
# BENCH_ONLY=softmax,gelu limits the benchmark (default
# copy,softmax,gelu,conv2d,matmul; the same-source families only when named:
# BENCH_ONLY=attention,mmsweep,transpose,layernorm, BENCH_ROUNDS rounds each,
# default 5, SAME_TIMEOUT seconds in all, default 540); WORK (default
# /tmp/tilec-gpu-run) is where the bundle is unpacked. Conformance:
# CONFORMANCE_ONLY=a,b (cases), CONFORMANCE_ROUNDS (default 3),
# CONFORMANCE_TIMEOUT (s, default 540), CONFORMANCE_DUMP=1 (both compilers'
# PTX and Triton's TTGIR under conformance-code/). Exit status 1 when
# anything failed.
set -uo pipefail
BUNDLE=$(cd "${1:-.device/all}" && pwd)
OUT_DIR=${OUT:-$BUNDLE/logs}
WORK=${WORK:-/tmp/tilec-gpu-run}
SKIP=${SKIP-racecheck}
BENCH_ONLY=${BENCH_ONLY:-copy,softmax,gelu,conv2d,matmul}
SAME_SOURCE=attention,mmsweep,transpose,layernorm
# BENCH_ONLY split: tile-bench's families (then the peers), and the
# same-source ones (run_bench.py alone: ours and Triton in one process).
tb_only="" same_only=""
for fam in ${BENCH_ONLY//,/ }; do
  if [[ ",$SAME_SOURCE," == *",$fam,"* ]]; then
    same_only=${same_only:+$same_only,}$fam
  else
    tb_only=${tb_only:+$tb_only,}$fam
  fi
done
PY=${PYTHON:-python3}
export PYTHONUNBUFFERED=1
T0=$SECONDS

rm -rf "$WORK"
mkdir -p "$WORK" "$OUT_DIR"
if ! tar -xJf "$BUNDLE/tilec-gpu.tar.xz" -C "$WORK" 2>/dev/null; then
  "$PY" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' \
    "$BUNDLE/tilec-gpu.tar.xz" "$WORK" || { echo "cannot unpack the bundle"; exit 1; }
fi
B=$WORK/tilec-gpu
LOGS=$WORK/logs
mkdir -p "$LOGS"
ARCH=$(cat "$B/ARCH")
skip() { [[ ",$SKIP," == *",$1,"* ]]; }
step() { echo "==== $1 (at $((SECONDS - T0)) s)"; }
results=() # "step<TAB>passed<TAB>failed<TAB>detail"
bench_table=""
tf=0
# Writes OUT_DIR/summary.txt (again after every step, so that a run cut
# short still leaves one): each step's counts, the total, the table.
summarize() {
  local r name p f detail tp=0
  tf=0
  {
    echo "==== summary (bundle: $(head -1 "$B/BUILD_INFO"), $ARCH, $((SECONDS - T0)) s)"
    for r in "${results[@]}"; do
      IFS=$'\t' read -r name p f detail <<<"$r"
      printf '%-40s %5d passed, %3d failed  %s\n' "$name" "$p" "$f" "$detail"
      tp=$((tp + p)) tf=$((tf + f))
    done
    echo "$tp passed, $tf failed"
    [ -z "$bench_table" ] || printf '\n%s\n' "$bench_table"
  } >"$OUT_DIR/summary.txt"
}
record() {
  results+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"${4:-}")
  summarize
}
# Sets P and F from the last "N passed, M failed" line of a log (empty
# when there is none).
counts() {
  local line
  line=$(grep -Eo '^[a-z -]*:? ?[0-9]+ passed, [0-9]+ failed' "$1" 2>/dev/null | tail -1)
  P=$(grep -Eo '[0-9]+ passed' <<<"$line" | grep -Eo '^[0-9]+')
  F=$(grep -Eo '[0-9]+ failed' <<<"$line" | grep -Eo '^[0-9]+')
}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  cat "$B/BUILD_INFO"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit \
    --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
} | tee "$LOGS/env.txt"

if ! skip suite; then
  step "1. GPU suite ($ARCH AOT kernels; check.py, then compute-sanitizer)"
  SKIP_MEMCHECK=$(skip memcheck && echo 1 || echo 0) \
    SKIP_RACECHECK=$(skip racecheck && echo 1 || echo 0) LOG_DIR=$LOGS/suite \
    RUN_TIMEOUT=${RUN_TIMEOUT:-150} MEMCHECK_TIMEOUT=${MEMCHECK_TIMEOUT:-150} \
    bash "$B/gpu/run-gpu-suite.sh" "$B/gpu" >"$LOGS/suite.log" 2>&1
  tail -8 "$LOGS/suite.log"
  counts "$LOGS/suite/run.log"
  record "GPU suite (check.py)" "${P:-0}" "${F:-1}"
  # A sanitizer pass counts as its checks plus one: no error reported, and
  # the planted bug of its self-test detected.
  sanitizer() { # TOOL SUMMARY-PATTERN SELF-TEST-LINE
    counts "$LOGS/suite/$1.log"
    local p=${P:-0} f=${F:-1} errs ok
    errs=$(grep -Eo "$2: [0-9]+" "$LOGS/suite/$1.log" | tail -1 | grep -Eo '[0-9]+$')
    ok=$(grep -c "$3" "$LOGS/suite.log")
    if [ "${errs:-1}" = 0 ] && [ "$ok" -ge 1 ]; then p=$((p + 1)); else f=$((f + 1)); fi
    record "GPU suite ($1, small sizes)" "$p" "$f" \
      "${errs:-?} reported; self-test $([ "$ok" -ge 1 ] && echo detected || echo FAILED)"
  }
  skip memcheck || sanitizer memcheck 'ERROR SUMMARY' 'planted OOB write .* IS detected'
  skip racecheck || sanitizer racecheck 'RACECHECK SUMMARY' 'planted shared-memory race IS detected'
fi

if ! skip cubins; then
  # The same checks with every kernel loaded from a cubin that the toolkit's
  # ptxas made (as ahead-of-time users load them), not from its PTX.
  step "1b. GPU suite from offline cubins (ptxas $(ptxas --version 2>/dev/null | tail -1))"
  TILEC_GPU_LOAD=cubin SKIP_MEMCHECK=1 SKIP_RACECHECK=1 LOG_DIR=$LOGS/suite-cubins \
    RUN_TIMEOUT=${RUN_TIMEOUT:-150} \
    bash "$B/gpu/run-gpu-suite.sh" "$B/gpu" >"$LOGS/suite-cubins.log" 2>&1
  tail -4 "$LOGS/suite-cubins.log"
  counts "$LOGS/suite-cubins/run.log"
  record "GPU suite from offline cubins (check.py)" "${P:-0}" "${F:-1}"
fi

if ! skip unit; then
  step "2. unit tests"
  mkdir -p "$LOGS/unit"
  OUT=$LOGS/unit timeout 240 bash "$B/unit/run-unit-tests.sh" >"$LOGS/unit.log" 2>&1
  p=0 f=0 detail=""
  for t in TilecRuntimeTests TilecJITTests; do
    log=$LOGS/unit/$t.log
    tp=$(grep -Eo '^\[  PASSED  \] [0-9]+' "$log" 2>/dev/null | grep -Eo '[0-9]+$')
    tf=$(grep -Eo '^\[  FAILED  \] [0-9]+ test' "$log" 2>/dev/null | grep -Eo '[0-9]+')
    [ -n "$tp$tf" ] || tf=1 # No gtest summary: it crashed or timed out.
    p=$((p + ${tp:-0})) f=$((f + ${tf:-0}))
    detail="$detail$t ${tp:-0}/${tf:-0} "
  done
  record "unit tests (GoogleTest, passed/failed)" "$p" "$f" "$detail"
fi

PYTESTS=$(dirname "$0")/../test/python/gpu # in the repository, beside this script
if ! skip python && compgen -G "$B/python/*.whl" >/dev/null && [ -d "$PYTESTS" ]; then
  step "2b. Python package (test/python/gpu: torch tensors, streams, graphs, launch overhead)"
  # The wheel unpacked, not installed: the GPU machine's Python refuses pip.
  rm -rf "$WORK/site" && mkdir -p "$WORK/site"
  python3 -m zipfile -e "$B"/python/*.whl "$WORK/site"
  PYTHONPATH=$WORK/site timeout 300 python3 -m unittest discover -v \
    -s "$PYTESTS" >"$LOGS/python.log" 2>&1
  tail -4 "$LOGS/python.log"
  ran=$(grep -Eo '^Ran [0-9]+ test' "$LOGS/python.log" | grep -Eo '[0-9]+')
  bad=$(grep -E '^FAILED \(' "$LOGS/python.log" | grep -Eo '(failures|errors)=[0-9]+' |
    awk -F= '{n += $2} END {print n + 0}')
  [ -n "$ran" ] || bad=1 # no unittest summary: it crashed or timed out
  record "Python package (unittest)" "$((${ran:-0} - ${bad:-0}))" "${bad:-0}" \
    "$(grep -E 'launch overhead|median' "$LOGS/python.log" | tail -2 | tr '\n' ' ')"
fi

CORPUS=$(dirname "$0")/../test/conformance # in the repository, beside this script
if ! skip conformance && compgen -G "$B/python/*.whl" >/dev/null && [ -d "$CORPUS" ]; then
  step "2c. conformance corpus (test/conformance: real Triton kernels, ours vs Triton)"
  if [ ! -d "$WORK/site/tilec" ]; then
    rm -rf "$WORK/site" && mkdir -p "$WORK/site"
    python3 -m zipfile -e "$B"/python/*.whl "$WORK/site"
  fi
  # shellcheck disable=SC2086
  PYTHONPATH=$WORK/site TILEC_CACHE_DIR=$WORK/conformance-cache \
    timeout -k 10 "${CONFORMANCE_TIMEOUT:-540}" python3 "$CORPUS/run_gpu.py" \
    --rounds "${CONFORMANCE_ROUNDS:-3}" ${CONFORMANCE_ONLY:+--only "$CONFORMANCE_ONLY"} \
    ${CONFORMANCE_DUMP:+--dump "$OUT_DIR/conformance-code"} \
    --json "$OUT_DIR/conformance.json" >"$LOGS/conformance.log" 2>&1
  tail -3 "$LOGS/conformance.log"
  line=$(grep -E '^compiled [0-9]+/[0-9]+, correct' "$LOGS/conformance.log" | tail -1)
  total=$(sed -E 's#^compiled [0-9]+/([0-9]+).*#\1#' <<<"$line")
  good=$(sed -E 's#^compiled [0-9]+/[0-9]+, correct ([0-9]+)/.*#\1#' <<<"$line")
  [ -n "$line" ] || total=1 good=0 # no summary: it crashed or timed out
  record "conformance corpus (correct of cases)" "${good:-0}" "$((${total:-1} - ${good:-0}))" \
    "$line"
fi

if ! skip examples; then
  step "3. example host programs"
  export TILEC_EXAMPLES_DIR=$B/examples TILEC_CACHE_DIR=$WORK/example-cache
  p=0 f=0 failed=""
  while read -r prog args; do
    # shellcheck disable=SC2086
    timeout 120 "$B/bin/$prog" $args >"$LOGS/examples.tmp" 2>&1
    rc=$?
    { echo "== $prog $args: exit $rc"; cat "$LOGS/examples.tmp"; } >>"$LOGS/examples.log"
    if [ $rc = 0 ]; then p=$((p + 1)); else f=$((f + 1)) failed="$failed '$prog${args:+ $args}'"; fi
  done <<'EOF'
example-aot-vector-add
example-softmax
example-softmax 333 5000
example-gelu
example-gelu 1000003
example-matmul
example-conv2d
example-layernorm
example-layernorm 333 77
example-online-softmax
example-online-softmax 37 5000
example-attention
example-attention 2 77 1
EOF
  rm -f "$LOGS/examples.tmp"
  grep -E '^(== |matmul|softmax|gelu|conv2d|layernorm|attention|online)' "$LOGS/examples.log" |
    grep -v ': exit 0$' | tail -20
  record "example host programs" "$p" "$f" "${failed:+failed:$failed}"
fi

if ! skip bench && [ -n "$tb_only" ]; then
  step "4. benchmark: tile-bench (ours, JIT for $ARCH), then the peers"
  p=0 f=0 merge=()
  for fam in ${tb_only//,/ }; do
    # One process per family. A variant that faults loses the CUDA context
    # and the rest of its process: it counts as one failure, and the family
    # runs again without it (three times at most).
    skipped="" try=0
    while :; do
      name=tile-bench-$fam${skipped:+-$try}
      timeout -k 5 "${TILE_BENCH_TIMEOUT:-150}" "$B/bin/tile-bench" --only="$fam" \
        --arch="$ARCH" --json="$LOGS/$name.json" ${skipped:+--skip="$skipped"} \
        --save-kernels="$LOGS/h2h/kernels" >"$LOGS/$name.log" 2>&1
      echo "   tile-bench --only=$fam${skipped:+ --skip=$skipped}: exit $? at" \
        "$((SECONDS - T0)) s; $(grep -E '^tile-bench: ' "$LOGS/$name.log" | tail -1)"
      [ -f "$LOGS/$name.json" ] && merge+=("$LOGS/$name.json")
      lost=$(grep -o '"lost_variant": "[^"]*"' "$LOGS/$name.json" 2>/dev/null | cut -d'"' -f4)
      try=$((try + 1))
      if [ -z "$lost" ] || [ $try -gt 3 ]; then break; fi
      f=$((f + 1)) skipped=${skipped:+$skipped,}$lost
    done
    counts "$LOGS/$name.log"
    p=$((p + ${P:-0})) f=$((f + ${F:-1}))
  done
  [ ${#merge[@]} = 0 ] || merge=(--merge "${merge[@]}")
  record "benchmark checks of ours (tile-bench)" "$p" "$f"
  mkdir -p "$LOGS/bench"
  timeout -k 10 "${PEERS_TIMEOUT:-200}" "$PY" "$B/bench/run_bench.py" --peers-only \
    --out "$LOGS/bench" --only "$tb_only" "${merge[@]}" >"$LOGS/bench.log" 2>&1
  rc=$?
  if [ $rc != 0 ]; then
    echo "   run_bench.py (peers): exit $rc; the table from what bench.json holds"
    grep -E 'Error|error' "$LOGS/bench.log" | tail -5
    [ -f "$LOGS/bench/bench.json" ] ||
      echo '{"rows": [], "env": {}, "notes": ["the peers did not run"]}' >"$LOGS/bench/bench.json"
    "$PY" "$B/bench/run_bench.py" --report "$LOGS/bench/bench.json" "${merge[@]}" \
      >"$LOGS/bench-report.log" 2>&1
    bench_table=$(sed -n '/^==== tilec benchmark/,$p' "$LOGS/bench-report.log")
  else
    bench_table=$(sed -n '/^==== tilec benchmark/,$p' "$LOGS/bench.log")
  fi
  # softmax and GeLU again: the PTX tile-bench picked and Triton's kernel in
  # one process, timed alike and interleaved (bench/head_to_head.py).
  h2h=()
  for fam in softmax gelu; do
    [[ ",$tb_only," == *",$fam,"* ]] && [ -f "$LOGS/tile-bench-$fam.json" ] &&
      h2h+=("$LOGS/tile-bench-$fam.json")
  done
  if ((${#h2h[@]})); then
    timeout -k 10 "${H2H_TIMEOUT:-240}" "$PY" "$B/bench/head_to_head.py" \
      --bundle "$LOGS/h2h" --tile-bench "${h2h[@]}" --out "$LOGS/bench/h2h.json" \
      >"$LOGS/h2h.log" 2>&1
    rc=$?
    p=$(grep -c '^| [a-z].*GB/s' "$LOGS/h2h.log") f=$(grep -c '^FAIL ' "$LOGS/h2h.log")
    [ $rc = 0 ] || [ "$f" -gt 0 ] || f=1
    record "head to head with Triton (same process)" "$p" "$f" \
      "$([ $rc = 0 ] || echo "exit $rc")"
    bench_table+=$'\n\n'$(sed -n '/^==== head to head/,$p' "$LOGS/h2h.log")
    [ $rc = 0 ] || bench_table+=$'\n'"head_to_head.py: exit $rc; $(tail -3 "$LOGS/h2h.log")"
  fi
fi

if ! skip bench && [ -n "$same_only" ]; then
  step "5. benchmark: same source, same config ($same_only; ours AOT for $ARCH, Triton)"
  # Ours from the bundle's PTX (scripts/gpu-bundle.sh compiled them), each
  # family checked first in a child (preflight), then ours and Triton
  # interleaved in one process; a row per config, compile errors included.
  mkdir -p "$LOGS/bench-same"
  timeout -k 10 "${SAME_TIMEOUT:-540}" "$PY" "$B/bench/run_bench.py" --bundle "$B/bench" \
    --out "$LOGS/bench-same" --only "$same_only" --rounds "${BENCH_ROUNDS:-5}" \
    >"$LOGS/bench-same.log" 2>&1
  rc=$?
  json=$LOGS/bench-same/bench.json
  # passed / failed: the rows of ours (a compile error or a wrong result fails)
  read -r p f < <("$PY" -c 'import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["rows"] if r["impl"] == "tilec"]
print(sum(bool(r.get("ok")) for r in rows), sum(not r.get("ok") for r in rows))' "$json" \
    2>/dev/null || echo "0 1")
  [ $rc = 0 ] || f=$((f + 1))
  record "same source vs Triton (rows of ours)" "$p" "$f" "$([ $rc = 0 ] || echo "exit $rc")"
  if [ $rc != 0 ] && [ -f "$json" ]; then
    "$PY" "$B/bench/run_bench.py" --report "$json" >"$LOGS/bench-same-report.log" 2>&1
    same_table=$(sed -n '/^==== same source/,$p' "$LOGS/bench-same-report.log")
  else
    same_table=$(sed -n '/^==== same source/,$p' "$LOGS/bench-same.log")
  fi
  bench_table+=${bench_table:+$'\n\n'}$same_table
  [ $rc = 0 ] || bench_table+=$'\n'"run_bench.py (same source): exit $rc; $(tail -3 "$LOGS/bench-same.log")"
  [ -f "$json" ] && cp "$json" "$OUT_DIR/bench-same.json"
fi

summarize
for f in bench.json h2h.json results.png; do
  [ -f "$LOGS/bench/$f" ] && cp "$LOGS/bench/$f" "$OUT_DIR/"
done
tar -C "$WORK" -cJf "$OUT_DIR/logs.tar.xz" logs 2>/dev/null
echo
cat "$OUT_DIR/summary.txt"
[ "$tf" = 0 ]
