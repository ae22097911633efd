#!/usr/bin/env bash
# Builds a libFuzzer target with clang (ASan + libFuzzer) in BUILD_DIR and
# runs it for SECONDS on a corpus seeded with the examples and the test
# kernels. FUZZER=frontend (default: lexer, parser, Sema) or FUZZER=pipeline
# (every kernel of the input compiled to PTX for sm_90a).
# Usage: [FUZZER=pipeline] scripts/fuzz.sh [SECONDS] [BUILD_DIR]
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
FUZZER=${FUZZER:-frontend}
ninja -C "$BUILD_DIR" "tilec-$FUZZER-fuzzer"
CORPUS="$BUILD_DIR/fuzz-corpus-$FUZZER"
mkdir -p "$CORPUS"
cp examples/*.tile test/gpu/*.tile "$CORPUS/"
for f in test/frontend/*.tile; do cp "$f" "$CORPUS/fe_$(basename "$f")"; done
# A slow compile (a huge block) is not a crash: allow 60 s per input.
"$BUILD_DIR/bin/tilec-$FUZZER-fuzzer" "$CORPUS" \
  -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=60 \
  -print_final_stats=1
