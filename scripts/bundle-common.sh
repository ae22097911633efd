# shellcheck shell=bash
# Sourced (from the source root) by the scripts that make bundles for the
# GPU machine: build-gpu-bundle.sh, bench-bundle.sh and gpu-bundle.sh.
# Sourcing it moves to the source root.
#
#   bundle_args DEFAULT_OUT_DIR [BUILD_DIR] [OUT_DIR]
#       sets BUILD_DIR (default build), OUT_DIR (default DEFAULT_OUT_DIR),
#       ARCH (default sm_90), TILEC (default BUILD_DIR/bin/tilec), PTXAS and
#       PY (python3); exits 2 when tilec or python3 is missing.
#   build_info ARCH_TEXT
#       prints the lines of a bundle's BUILD_INFO: the commit (and a hash of
#       any uncommitted change), the date, tilec's version ($TILEC), the
#       arch (ARCH_TEXT) and the build machine.

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2

# shellcheck disable=SC2034 # the variables are the sourcing script's
bundle_args() {
  BUILD_DIR=${2:-build}
  OUT_DIR=${3:-$1}
  ARCH=${ARCH:-sm_90}
  TILEC=${TILEC:-$BUILD_DIR/bin/tilec}
  PTXAS=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
  # The PTX the runtime would load: with ptxas here, each kernel spends the
  # registers ptxas leaves spare at its occupancy, as Kernel::load does
  # (include/tilec/Runtime/SpareRegisters.h), so that the GPU machine's
  # CuPy-loaded PTX is what tilec's runtime runs.
  SPARE_REGISTERS=()
  if [ -x "$PTXAS" ]; then
    export TILEC_PTXAS="$PTXAS"
    SPARE_REGISTERS=(--spare-registers)
  fi
  if [ ! -x "$TILEC" ]; then
    echo "error: $TILEC not found: build it first (ninja -C $BUILD_DIR tilec)" >&2
    exit 2
  fi
  PY=$(command -v python3) || { echo "error: python3 is needed" >&2; exit 2; }
}

build_info() {
  local dirty=""
  git diff --quiet HEAD 2>/dev/null || dirty=" (+ uncommitted changes)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$dirty"
  if [ -n "$dirty" ]; then
    echo "uncommitted diff sha256: $(git diff HEAD | sha256sum | cut -c1-16)" \
      "($(git diff HEAD --stat | tail -1 | sed 's/^ *//'))"
  fi
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "compiler: $("$TILEC" --version 2>&1 | head -1)"
  echo "arch: $1"
  echo "build machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
}
