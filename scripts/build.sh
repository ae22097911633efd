#!/usr/bin/env bash
# Configures (once) and builds tilec. Usage: scripts/build.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
JOBS=${TILEC_JOBS:-$(nproc)}

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # shellcheck disable=SC2086 # TILEC_CMAKE_ARGS: any number of cmake flags
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    ${TILEC_CMAKE_ARGS:-}
fi
ninja -C "$BUILD_DIR" -j "$JOBS"
