#!/usr/bin/env bash
# Regenerates docs/generated/ (dialect and pass references) from the .td
# files with add_mlir_doc, and docs/generated/tilec-help.txt from the CLI.
# Usage: scripts/gen-docs.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
ninja -C "$BUILD_DIR" mlir-doc tilec tile-opt >/dev/null
mkdir -p docs/generated
cp "$BUILD_DIR"/docs/*.md "$BUILD_DIR"/docs/Dialects/*.md docs/generated/
"$BUILD_DIR/bin/tilec" --help > docs/generated/tilec-help.txt
"$BUILD_DIR/bin/tile-opt" --help | grep -E -- '--(tile|tilegpu|convert-tile|tilec)' \
  > docs/generated/tile-opt-passes.txt
echo "docs/generated updated"
