#!/usr/bin/env bash
# Builds a libFuzzer target with clang (ASan + libFuzzer) in BUILD_DIR and
# runs it for SECONDS on a seeded corpus (docs/fuzzing.md):
#   FUZZER=frontend  lexer, parser, Sema on .tile text (the default)
#   FUZZER=pipeline  every kernel of .tile text compiled to PTX for sm_90a
#   FUZZER=tileir    tile-dialect MLIR through the tile, tilegpu and LLVM
#                    pass pipelines (only inputs that verify)
#   FUZZER=gen       bytes decoded into valid generated programs (tile-gen),
#                    compiled to PTX for sm_90a and sm_80; any error is a bug
#   FUZZER=tilegpu   bytes decoded into valid laid-out tilegpu modules
#                    (tilegpu-gen: random layouts and shapes), compiled to
#                    PTX for sm_80 and sm_90a; any error is a bug
# Seeds: the examples, the test kernels and tile-gen programs (.tile text);
# for tileir their `tilec --emit=tile` IR and every test/**/*.mlir case.
# The corpus (BUILD_DIR/fuzz-corpus-FUZZER) grows across runs; crashes go
# to BUILD_DIR/fuzz-artifacts-FUZZER/ (crash-*, timeout-*, oom-*).
# TILEC names the tilec that writes the tile-IR seeds (default: the fuzz
# build's own, instrumented and slow; scripts/sanitize.sh passes a Release one).
# FUZZ_FLAGS adds libFuzzer flags (e.g. "-fork=1 -ignore_crashes=1" to go on
# after a crash).
# Usage: [FUZZER=...] [JOBS=N] [FUZZ_FLAGS=...] scripts/fuzz.sh [SECONDS] [BUILD_DIR]
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
case "$FUZZER" in
frontend | pipeline | tileir | gen | tilegpu) ;;
*) echo "fuzz.sh: FUZZER must be frontend, pipeline, tileir, gen or tilegpu" >&2; exit 2 ;;
esac
ninja -C "$BUILD_DIR" ${JOBS:+-j "$JOBS"} "tilec-$FUZZER-fuzzer" tilec tile-gen tilegpu-gen
BIN="$BUILD_DIR/bin"
CORPUS="$BUILD_DIR/fuzz-corpus-$FUZZER"
SEEDS="$BUILD_DIR/fuzz-seeds"
mkdir -p "$CORPUS"
# The instrumented tilec (used for seeds) needs the fuzzers' ASan default
# (tools/tilec-fuzz/AsanOptions.cpp).
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0}

tile_seeds() { # .tile seeds into $1
  cp examples/*.tile test/gpu/*.tile "$1/"
  for f in test/Frontend/*.tile; do cp "$f" "$1/fe_$(basename "$f")"; done
  "$BIN/tile-gen" --seed=1 --count=40 -o "$SEEDS/gen/" >/dev/null
  for f in "$SEEDS"/gen/*.tile; do cp "$f" "$1/"; done
}

MAX_LEN=4096
case "$FUZZER" in
frontend | pipeline)
  tile_seeds "$CORPUS"
  ;;
tileir)
  # Tile IR of every seed kernel (one module per kernel), and each case of
  # the MLIR tests (split at `// -----`; the fuzzer skips the ones that do
  # not verify or are not tile-level IR).
  rm -rf "$SEEDS/tile" && mkdir -p "$SEEDS/tile"
  tile_seeds "$SEEDS/tile"
  for f in "$SEEDS"/tile/*.tile; do
    "${TILEC:-$BIN/tilec}" "$f" --emit=tile -o - 2>/dev/null |
      awk -v out="$CORPUS/$(basename "$f" .tile)" \
        '/^module/ { n++ } n { print > (out "_" n ".mlir") }' || true
  done
  MAX_LEN=65536 # the IR of a kernel is large
  find test -name '*.mlir' | while read -r f; do
    awk -v out="$CORPUS/test_$(echo "$f" | tr '/' '_')" \
      '/^\/\/ -----/ { n++; next } { print > (out "_" n+0 ".mlir") }' "$f"
  done
  ;;
gen | tilegpu)
  # Any bytes decode to a program (a module); a few random inputs to start
  # from.
  for i in 1 2 3 4 5 6 7 8; do
    head -c $((i * 64)) /dev/urandom >"$CORPUS/seed_$i"
  done
  ;;
esac
# A slow compile (a huge block) is not a crash: allow 60 s per input.
mkdir -p "$BUILD_DIR/fuzz-artifacts-$FUZZER"
# shellcheck disable=SC2086 # FUZZ_FLAGS: any number of libFuzzer flags
"$BIN/tilec-$FUZZER-fuzzer" "$CORPUS" \
  -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout=60 \
  -artifact_prefix="$BUILD_DIR/fuzz-artifacts-$FUZZER/" -print_final_stats=1 \
  ${FUZZ_FLAGS:-}
