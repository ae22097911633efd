#!/usr/bin/env bash
# Packs the GoogleTest unit suites that need a GPU -- TilecJITTests (the
# JIT Compiler: bad input, the 16-process + 8-thread cache storm that also
# launches from every participant) and TilecRuntimeTests (devices, launches,
# bad input) -- into a folder that runs on a GPU machine without LLVM:
# TilecJITTests is relinked statically against LLVM/MLIR's static archives
# (Debian's llvm-22-dev/libmlir-22-dev ship them), so the folder needs
# nothing but glibc, libstdc++ and the CUDA driver there.
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
LLVM_LIB=${LLVM_LIB:-/usr/lib/llvm-22/lib}

ninja -C "$BUILD_DIR" TilecJITTests TilecRuntimeTests TilecFakeCuda
rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR/examples"

# The objects of the JIT test binary and of libtilec, and our static libs.
objects() { ninja -C "$BUILD_DIR" -t commands "$1" | tail -1 | tr ' ' '\n' |
              grep -E '\.(o|a)$' | grep -v '^/' | sed "s|^|$BUILD_DIR/|"; }
mapfile -t test_objs < <(objects test/unit/bin/TilecJITTests)
mapfile -t lib_objs < <(objects "$(readlink -f "$BUILD_DIR/lib/libtilec.so" |
                                    sed "s|^$(readlink -f "$BUILD_DIR")/||")")
linker=()
if command -v ld.lld >/dev/null; then linker=(-fuse-ld=lld); fi
echo "== linking TilecJITTests statically against LLVM/MLIR (a minute or two)"
# gtest_main first: some LLVM/MLIR archives define a main() of their own.
c++ "${linker[@]}" -O2 -o "$OUT_DIR/TilecJITTests" \
  /usr/lib/x86_64-linux-gnu/libgtest_main.a "${test_objs[@]}" "${lib_objs[@]}" \
  /usr/lib/x86_64-linux-gnu/libgtest.a \
  -Wl,--start-group "$LLVM_LIB"/libMLIR*.a "$LLVM_LIB"/libLLVM*.a -Wl,--end-group \
  -Wl,--gc-sections -static-libstdc++ -static-libgcc \
  -Wl,-Bstatic -lzstd -lz -Wl,-Bdynamic -lpthread -ldl -lrt -lm
strip "$OUT_DIR/TilecJITTests"
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
