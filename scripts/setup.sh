#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for tilec and runs the main job:
#   1. installs the packages the build needs (as root; skipped in seconds when
#      everything is already installed), and the format tools the tests of
#      test/format/ and .pre-commit-config.yaml run (clang-format-22, black,
#      flake8, shellcheck), numpy (test/gpu/dry-run.test) and what building
#      the Python package offline needs (venv, setuptools, wheel; lld links
#      its libtilec.so),
#   2. configures and builds tilec with CMake + Ninja (Release, ccache if any)
#      and the Python package's libtilec.so (tilec-python-lib),
#   3. compiles the example kernels (and runs them when a GPU is present).
# Usage: scripts/setup.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}

PACKAGES=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libzstd-dev
  zlib1g-dev libffi-dev libedit-dev libxml2-dev ninja-build cmake g++
  googletest libgtest-dev python3 ccache
  clang-format-22 black flake8 shellcheck python3-numpy
  python3-venv python3-setuptools python3-wheel lld)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "== installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "== all build packages present"
fi

scripts/build.sh "$BUILD_DIR"
# The Python package's self-contained libtilec.so (about 10 s with lld), so
# that test/python runs over it too.
ninja -C "$BUILD_DIR" tilec-python-lib
scripts/compile-examples.sh "$BUILD_DIR"
