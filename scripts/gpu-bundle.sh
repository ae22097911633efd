#!/usr/bin/env bash
# Builds ONE bundle for the GPU machine (which has no LLVM), on the build
# machine (no GPU needed), as one compressed archive:
#   gpu/    the GPU suite, AOT: every kernel of test/gpu/check.py as PTX +
#           JSON, check.py + checks/, run-gpu-suite.sh
#                                              (scripts/build-gpu-bundle.sh)
#   unit/   TilecJITTests (statically linked) and TilecRuntimeTests
#                                               (test/gpu/build-unit-bundle.sh)
#   bin/    tile-bench and the JIT example host programs (one statically
#           linked binary, tilec-examples, under the examples' names) and the
#           AOT example
#   bench/  kernels/*.tile, variants.json, bench/*.py (run_bench.py and its
#           modules, peers.py: the peers, head_to_head.py), and the
#           same-source families' variants (attention, mmsweep, transpose,
#           layernorm) compiled here: kernels/VARIANT.{ptx,json} and
#           manifest.json (scripts/bench-bundle.sh; run_bench.py runs them
#           beside Triton in one process)
#   python/ the Python package's wheel (tilec-*.whl, libtilec.so inside)
#   examples/*.tile, gpu-run.sh, BUILD_INFO, ARCH
#
#   scripts/gpu-bundle.sh [BUILD_DIR] [OUT_DIR]   # here; defaults build/ .device/all
#   bash scripts/gpu-run.sh [OUT_DIR]             # there; summary and table last
#
# OUT_DIR (git-ignored under .device/) receives tilec-gpu.tar.xz (must stay
# under 60 MB) and nothing else. ARCH=sm_90a compiles the suite for Hopper's
# wgmma path and makes tile-bench compile for it too (default sm_90, as the
# other scripts). BUILD_DIR must be a configured Release build.
set -euo pipefail
# shellcheck source=scripts/bundle-common.sh
source "$(dirname "$0")/bundle-common.sh" # (in the source root from here on)
BUILD_DIR=${1:-build}
OUT_DIR=${2:-.device/all}
export ARCH=${ARCH:-sm_90}
LIMIT_MB=60
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
STAGE=$WORK/tilec-gpu
mkdir -p "$STAGE/bin" "$STAGE/bench/kernels" "$STAGE/examples" "$OUT_DIR"

examples=$(sed -n 's/^foreach(kernel \(.*\))$/\1/p' examples/CMakeLists.txt)
targets=(tilec tile-bench example-aot-vector-add)
for e in $examples; do targets+=("example-${e//_/-}"); done
echo "== building ${targets[*]}"
ninja -C "$BUILD_DIR" "${targets[@]}"

echo "== 1/4 the GPU suite's kernels for $ARCH"
# A kernel that fails to compile is reported here and fails its checks there.
scripts/build-gpu-bundle.sh "$BUILD_DIR" "$STAGE/gpu" >"$WORK/gpu.log" 2>&1 ||
  echo "warning: scripts/build-gpu-bundle.sh failed: $(grep -c FAILED "$WORK/gpu.log") kernels"
grep -E '^== (FAILED|compiled|ptxas|no ptxas)' "$WORK/gpu.log"
rm -rf "$STAGE/gpu/logs"

echo "== 2/4 the unit-test bundle"
test/gpu/build-unit-bundle.sh "$BUILD_DIR" "$STAGE/unit" >"$WORK/unit.log" 2>&1 ||
  { cat "$WORK/unit.log"; exit 1; }
du -sh "$STAGE/unit"

echo "== 3/4 tile-bench and the benchmark kernels"
# The same-source families: AOT, as bench-bundle.sh does (it empties the
# folder first, so it goes before the copies below). A variant that tilec
# cannot compile is listed here and keeps its row (and message) there.
BENCH_FAMILIES=attention,mmsweep,transpose,layernorm TILEC=$BUILD_DIR/bin/tilec \
  scripts/bench-bundle.sh "$BUILD_DIR" "$STAGE/bench" >"$WORK/bench-aot.log" 2>&1 ||
  echo "warning: scripts/bench-bundle.sh: $(grep -c '^== FAILED' "$WORK/bench-aot.log") failed"
grep -E '^== (FAILED|ptxas|[0-9]+ PTX)' "$WORK/bench-aot.log" || true
link=scripts/static-jit-link.sh
mapfile -t objs < <("$link" --objects "$BUILD_DIR" bin/tile-bench)
"$link" "$BUILD_DIR" "$STAGE/bin/tile-bench" "${objs[@]}"
cp bench/kernels/*.tile "$STAGE/bench/kernels/"
python3 bench/variants.py --json >"$STAGE/bench/variants.json"
cp bench/*.py "$STAGE/bench/" # run_bench.py and its modules, peers.py, head_to_head.py
"$STAGE/bin/tile-bench" --compile-only --arch="$ARCH" --only=copy,gelu |
  tail -1

echo "== 4/4 the example host programs"
# One binary for all JIT examples: each one's main() renamed, and a
# dispatcher that runs the one named by argv[0] (or by the first argument).
cat >"$WORK/dispatch.cpp" <<EOF
#include <cstdio>
#include <cstring>
$(for e in $examples; do echo "extern \"C\" int ${e}_main(int, char **);"; done)
int main(int argc, char **argv) {
  struct { const char *name; int (*run)(int, char **); } programs[] = {
$(for e in $examples; do echo "    {\"example-${e//_/-}\", ${e}_main},"; done)
  };
  const char *self = std::strrchr(argv[0], '/');
  self = self ? self + 1 : argv[0];
  for (auto &p : programs)
    if (!std::strcmp(self, p.name))
      return p.run(argc, argv);
  for (auto &p : programs)
    if (argc > 1 && !std::strcmp(argv[1], p.name))
      return p.run(argc - 1, argv + 1);
  std::fprintf(stderr, "usage: tilec-examples PROGRAM [ARGS]; PROGRAM:\n");
  for (auto &p : programs)
    std::fprintf(stderr, "  %s\n", p.name);
  return 2;
}
EOF
inputs=("$WORK/dispatch.cpp")
for e in $examples; do
  mapfile -t objs < <("$link" --objects "$BUILD_DIR" "bin/examples/example-${e//_/-}")
  for o in "${objs[@]}"; do
    objcopy --redefine-sym "main=${e}_main" "$o" "$WORK/$e.o"
    inputs+=("$WORK/$e.o")
  done
done
"$link" "$BUILD_DIR" "$STAGE/bin/tilec-examples" -x c++ "${inputs[0]}" -x none \
  "${inputs[@]:1}"
for e in $examples; do ln -s tilec-examples "$STAGE/bin/example-${e//_/-}"; done
cp "$BUILD_DIR/bin/examples/example-aot-vector-add" "$STAGE/bin/"
cp examples/*.tile "$STAGE/examples/"

echo "== the Python package's wheel (self-contained libtilec.so)"
ninja -C "$BUILD_DIR" tilec-python-lib
mkdir -p "$STAGE/python"
# Debian's Python: the one with its python3-setuptools and python3-wheel
# (a python3 earlier on the PATH, e.g. pyenv's, may lack them).
PYW=/usr/bin/python3
[ -x "$PYW" ] || PYW=python3
TILEC_BUILD_DIR=$(cd "$BUILD_DIR" && pwd) "$PYW" -m pip wheel -q --no-build-isolation \
  --no-deps --no-index -w "$STAGE/python" . >"$WORK/wheel.log" 2>&1 ||
  { cat "$WORK/wheel.log"; exit 1; }
ls "$STAGE/python"

cp scripts/gpu-run.sh "$STAGE/"
echo "$ARCH" >"$STAGE/ARCH"
TILEC=$BUILD_DIR/bin/tilec build_info "$ARCH (AOT suite; tile-bench compiles for it at run time)" \
  >"$STAGE/BUILD_INFO"
cp "$STAGE/BUILD_INFO" "$STAGE/bench/" # run_bench.py's table and plot name it.

echo "== compressing $(du -sh "$STAGE" | cut -f1) (xz -9e, one block, a few minutes)"
rm -f "$OUT_DIR"/tilec-gpu.tar.xz
# One xz block: the three static binaries share most of their bytes.
tar -C "$WORK" -cf - tilec-gpu | xz -9e -T1 >"$OUT_DIR/tilec-gpu.tar.xz"
size=$(stat -c %s "$OUT_DIR/tilec-gpu.tar.xz")
cat "$STAGE/BUILD_INFO"
echo "== $OUT_DIR/tilec-gpu.tar.xz: $((size / 1048576)) MB ($size bytes)"
if [ "$size" -ge $((LIMIT_MB * 1048576)) ]; then
  echo "error: the bundle is over $LIMIT_MB MB" >&2
  exit 1
fi
echo "== on the GPU machine: bash scripts/gpu-run.sh $OUT_DIR"
