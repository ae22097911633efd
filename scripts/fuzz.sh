#!/usr/bin/env bash
# Builds the frontend libFuzzer target with clang (ASan + libFuzzer) in
# BUILD_DIR and runs it for SECONDS on a corpus seeded with the examples and
# the test kernels. Usage: scripts/fuzz.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-600}
BUILD_DIR=${2:-build-fuzz}
CXX=${CXX:-$(command -v clang++ || command -v clang++-14)}
CC=${CC:-$(command -v clang || command -v clang-14)}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  CC="$CC" CXX="$CXX" cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release -DTILEC_BUILD_FUZZERS=ON \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address" \
    -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address"
fi
ninja -C "$BUILD_DIR" tilec-frontend-fuzzer
CORPUS="$BUILD_DIR/fuzz-corpus"
mkdir -p "$CORPUS"
cp examples/*.tile test/gpu/*.tile "$CORPUS/"
for f in test/frontend/*.tile; do cp "$f" "$CORPUS/fe_$(basename "$f")"; done
"$BUILD_DIR/bin/tilec-frontend-fuzzer" "$CORPUS" \
  -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -print_final_stats=1
