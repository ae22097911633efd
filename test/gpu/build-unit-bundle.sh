#!/usr/bin/env bash
# Packs the GoogleTest unit suites that need a GPU -- TilecJITTests (the
# JIT Compiler: bad input, the 16-process + 8-thread cache storm that also
# launches from every participant) and TilecRuntimeTests (devices, launches,
# bad input) -- into a folder that runs on a GPU machine without LLVM:
# TilecJITTests is relinked statically against LLVM/MLIR's static archives
# (scripts/static-jit-link.sh), so the folder needs nothing but glibc,
# libstdc++ and the CUDA driver there.
#
#   test/gpu/build-unit-bundle.sh [BUILD_DIR] [OUT_DIR]   # here: defaults build/ .device/unit
#   bash OUT_DIR/run-unit-tests.sh                        # there; exit 0 when all pass
#
# BUILD_DIR must be a configured Release build (scripts/build.sh); this
# builds the two test binaries there first. OUT_DIR is git-ignored
# (.device/), about 25 MB.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${1:-build}
OUT_DIR=${2:-.device/unit}

ninja -C "$BUILD_DIR" TilecJITTests TilecRuntimeTests TilecFakeCuda
rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR/examples"

echo "== linking TilecJITTests statically against LLVM/MLIR"
link=scripts/static-jit-link.sh
mapfile -t test_objs < <("$link" --objects "$BUILD_DIR" test/unit/bin/TilecJITTests)
# gtest_main first: some LLVM/MLIR archives define a main() of their own.
"$link" "$BUILD_DIR" "$OUT_DIR/TilecJITTests" \
  /usr/lib/x86_64-linux-gnu/libgtest_main.a "${test_objs[@]}" \
  /usr/lib/x86_64-linux-gnu/libgtest.a
cp "$BUILD_DIR/test/unit/bin/TilecRuntimeTests" "$OUT_DIR/"
cp "$BUILD_DIR/lib/libtilec_fake_cuda.so" "$OUT_DIR/"
cp examples/*.tile "$OUT_DIR/examples/"

cat >"$OUT_DIR/run-unit-tests.sh" <<'EOF'
#!/usr/bin/env bash
# Runs the bundled unit suites on a GPU machine; logs go to $OUT (if set)
# or to this folder. Exit status 0 when every test passed.
cd "$(dirname "$0")"
here=$(pwd)
logs=${OUT:-$here}
export TILEC_TEST_SOURCE_DIR=$here
export TILEC_TEST_FAKE_CUDA_DRIVER=$here/libtilec_fake_cuda.so
export TMPDIR=$(mktemp -d)
export TILEC_CACHE_DIR=$TMPDIR/cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
status=0
for t in TilecRuntimeTests TilecJITTests; do
  echo "== $t"
  ./$t 2>&1 | tee "$logs/$t.log" | grep -E '^\[ *(FAILED|SKIPPED|PASSED|==========) *\]|^\[ (storm|timing) |Failure|Skipped' || true
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
exit $status
EOF
chmod +x "$OUT_DIR/run-unit-tests.sh"
du -sh "$OUT_DIR"
echo "== on the GPU machine: bash $OUT_DIR/run-unit-tests.sh"
