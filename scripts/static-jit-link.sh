#!/usr/bin/env bash
# Relinks a program that uses the JIT host API (libtilec.so) statically
# against LLVM/MLIR's static archives (Debian's llvm-22-dev/libmlir-22-dev
# ship them), so it runs on a GPU machine without LLVM: it then needs only
# glibc and, through dlopen, the CUDA driver.
#
#   scripts/static-jit-link.sh BUILD_DIR OUTPUT INPUT...   # link and strip
#   scripts/static-jit-link.sh --objects BUILD_DIR TARGET  # a target's inputs
#   scripts/static-jit-link.sh --shared MAP BUILD_DIR OUTPUT
#   scripts/static-jit-link.sh --program BUILD_DIR TARGET OUTPUT
#
# INPUTs are objects and archives, in link order; the objects of libtilec.so
# follow them. --objects prints the build-tree objects and archives of the
# link command of TARGET (an output path relative to BUILD_DIR, such as
# bin/tile-bench), one per line. --shared links libtilec.so's objects into a
# shared library that exports only what the version script MAP lists (the
# Python package's self-contained libtilec.so, python/CMakeLists.txt).
# --program relinks the program TARGET (bin/tilec) from its own objects (its
# archives' code is in libtilec.so's objects): tilec-static, the CLI without
# shared-library loading (tools/tilec/CMakeLists.txt). Used
# by scripts/gpu-bundle.sh and test/gpu/build-unit-bundle.sh. LLVM_LIB
# defaults to /usr/lib/llvm-22/lib.
set -euo pipefail
LLVM_LIB=${LLVM_LIB:-/usr/lib/llvm-22/lib}

objects() { # BUILD_DIR TARGET
  ninja -C "$1" -t commands "$2" | tail -1 | tr ' ' '\n' |
    grep -E '\.(o|a)$' | grep -v '^/' | sed "s|^|$1/|"
}

if [ "${1:-}" = --objects ]; then
  objects "$2" "$3"
  exit 0
fi
if [ "${1:-}" = --program ] && [ $# -eq 4 ]; then
  mapfile -t own < <(objects "$2" "$3" | grep '\.o$')
  exec "$0" "$2" "$4" "${own[@]}"
fi
shared=()
if [ "${1:-}" = --shared ] && [ $# -eq 4 ]; then
  shared=(-shared "-Wl,--version-script=$2" "-Wl,--exclude-libs,ALL"
    "-Wl,-z,defs")
  shift 2
elif [ $# -lt 3 ]; then
  sed -n '2,20p' "$0" >&2
  exit 2
fi
BUILD_DIR=$1 OUTPUT=$2
shift 2
lib=$(readlink -f "$BUILD_DIR/lib/libtilec.so")
mapfile -t lib_objs < <(objects "$BUILD_DIR" "${lib#"$(readlink -f "$BUILD_DIR")"/}")
linker=()
if command -v ld.lld >/dev/null; then
  linker=(-fuse-ld=lld)
  # Identical code folding: about 15% smaller shared libraries.
  if ((${#shared[@]})); then linker+=("-Wl,--icf=all"); fi
fi
# The caller's inputs first: some LLVM/MLIR archives define a main() too.
c++ "${linker[@]}" "${shared[@]}" -O2 -o "$OUTPUT" "$@" "${lib_objs[@]}" \
  -Wl,--start-group "$LLVM_LIB"/libMLIR*.a "$LLVM_LIB"/libLLVM*.a -Wl,--end-group \
  -Wl,--gc-sections -static-libstdc++ -static-libgcc \
  -Wl,-Bstatic -lzstd -lz -Wl,-Bdynamic -lpthread -ldl -lrt -lm
strip "$OUTPUT"
