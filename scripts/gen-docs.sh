#!/usr/bin/env bash
# Regenerates docs/generated/: the dialect and pass references (mlir-tblgen
# on the .td file of every add_mlir_doc), tilec-help.txt (`tilec --help`) and
# tile-opt-passes.txt (tile-opt's tilec passes), with test/docs/generated.py,
# which the lit test test/docs/generated.test runs to check them.
# Usage: scripts/gen-docs.sh [BUILD_DIR]   (MLIR_TBLGEN=... picks mlir-tblgen)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
ninja -C "$BUILD_DIR" tilec tile-opt >/dev/null
rm -rf docs/generated
python3 test/docs/generated.py --root . --tilec "$BUILD_DIR/bin/tilec" \
  --tile-opt "$BUILD_DIR/bin/tile-opt" ${MLIR_TBLGEN:+--tblgen "$MLIR_TBLGEN"} --out docs/generated
echo "docs/generated updated"
