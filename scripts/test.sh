#!/usr/bin/env bash
# Builds tilec and runs every test: the lit suite (FileCheck tests of the
# dialects, passes, frontend and tools) and the GoogleTest unit suite.
# Prints the totals of both; exits non-zero if anything fails.
# Usage: scripts/test.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD_DIR=${1:-build}
LIT=${LIT:-$(command -v lit || echo /usr/lib/llvm-22/bin/lit)}

scripts/build.sh "$BUILD_DIR" || { echo "BUILD FAILED"; exit 1; }

echo "== lit tests"
"$LIT" -s -v "$BUILD_DIR/test" 2>&1 | tee "$BUILD_DIR/lit.log" | grep -vE '^(PASS|UNSUPPORTED):'
lit_status=${PIPESTATUS[0]}
echo "== GoogleTest unit tests"
"$LIT" -s -v "$BUILD_DIR/test/unit" 2>&1 | tee "$BUILD_DIR/unit.log" | grep -vE '^(PASS|UNSUPPORTED):'
unit_status=${PIPESTATUS[0]}

summary() { grep -E '^ *(Passed|Failed|Skipped|Unsupported|Expectedly Failed|Unresolved|Timed Out) *:' "$1" | tr -s ' ' | paste -sd ';' -; }
echo "== totals"
echo "lit:   $(summary "$BUILD_DIR/lit.log")"
echo "gtest: $(summary "$BUILD_DIR/unit.log")"
if [ "$lit_status" -ne 0 ] || [ "$unit_status" -ne 0 ]; then
  echo "TESTS FAILED"; exit 1
fi
echo "ALL TESTS PASSED"
