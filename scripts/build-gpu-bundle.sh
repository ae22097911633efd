#!/usr/bin/env bash
# Builds the GPU correctness bundle on the build machine (no GPU needed):
# compiles every kernel that test/gpu/check.py needs with tilec for sm_90
# (H100/H200) to OUT_DIR/kernels/VARIANT.ptx + VARIANT.json (the layout-pair
# kernels, tilegpu IR, generated first by test/gpu/layout_pairs.py; those
# and the manifest's other --arch= variants for their own arch), checks each PTX
# with ptxas when the CUDA toolkit is here, and copies the checker (check.py
# and its package checks/) and the suite runner next to them. The GPU machine then needs only Python 3 with
# numpy + CuPy (no LLVM):
#
#   scripts/build-gpu-bundle.sh [BUILD_DIR] [OUT_DIR]   # here; defaults build/ .device/gpu
#   bash OUT_DIR/run-gpu-suite.sh OUT_DIR                # there (or scripts/run-gpu-suite.sh)
#
# OUT_DIR defaults to .device/gpu (git-ignored). Set ARCH=sm_90a to change the
# target, TILEC=/path/to/tilec to use another compiler binary.
set -uo pipefail
# shellcheck source=scripts/bundle-common.sh
source "$(dirname "$0")/bundle-common.sh" # (in the source root from here on)
bundle_args .device/gpu "$@"

rm -rf "$OUT_DIR/kernels" "$OUT_DIR/checks"
mkdir -p "$OUT_DIR/kernels" "$OUT_DIR/logs" "$OUT_DIR/checks"
cp test/gpu/check.py scripts/run-gpu-suite.sh "$OUT_DIR/"
cp test/gpu/checks/*.py "$OUT_DIR/checks/"

status=0
ok=0
failed=()
# Generated sources (a manifest source gen:DIR/FILE): the layout-pair
# kernels of test/gpu/layout_pairs.py, written to a temporary folder.
GEN_DIR=$(mktemp -d)
trap 'rm -rf "$GEN_DIR"' EXIT
if ! "$PY" test/gpu/layout_pairs.py --out "$GEN_DIR/layout_pairs"; then
  echo "== FAILED: test/gpu/layout_pairs.py"
  status=1
fi
# Manifest lines: VARIANT<TAB>SOURCE<TAB>KERNEL<TAB>NAME=VALUE...
while IFS=$'\t' read -r variant src kernel defs; do
  [ -n "$variant" ] || continue
  dflags=()
  arch="--arch=$ARCH"
  for d in $defs; do
    case "$d" in
      --arch=*) arch="$d" ;;     # a variant for another target (sm_80)
      --*) dflags+=("$d") ;;     # e.g. --num-warps=8
      *) dflags+=(-D "$d") ;;
    esac
  done
  case "$src" in gen:*) src="$GEN_DIR/${src#gen:}" ;; esac
  log="$OUT_DIR/logs/$variant.log"
  if "$TILEC" "$src" -k "$kernel" "${dflags[@]}" "$arch" --emit=ptx "${SPARE_REGISTERS[@]}" \
       -o "$OUT_DIR/kernels/$variant.ptx" >"$log" 2>&1; then
    ok=$((ok + 1))
  else
    echo "== FAILED to compile $variant ($src -k $kernel $defs):"
    sed 's/^/   /' "$log"
    failed+=("$variant")
    status=1
  fi
done < <("$PY" test/gpu/check.py --list-kernels)

echo "== compiled $ok kernels for $ARCH into $OUT_DIR/kernels (${#failed[@]} failed)"

if [ -x "$PTXAS" ]; then
  nptx=0
  for ptx in "$OUT_DIR"/kernels/*.ptx; do
    [ -e "$ptx" ] || continue
    target=$(sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$ptx" | head -1)
    if "$PTXAS" -arch="${target:-$ARCH}" "$ptx" -o /dev/null 2>"$OUT_DIR/logs/ptxas.err"; then
      nptx=$((nptx + 1))
    else
      echo "== ptxas -arch=${target:-$ARCH} rejects $ptx:"; sed 's/^/   /' "$OUT_DIR/logs/ptxas.err"
      status=1
    fi
  done
  rm -f "$OUT_DIR/logs/ptxas.err"
  echo "== ptxas accepts $nptx PTX files (each for its .target)"
  # Cubins of the kernels whose SASS check.py's "sass" test reads.
  for v in $("$PY" test/gpu/check.py --list-sass); do
    ptx="$OUT_DIR/kernels/$v.ptx"
    target=$(sed -n 's/^\.target \([a-z0-9_]*\).*/\1/p' "$ptx" | head -1)
    "$PTXAS" -arch="${target:-$ARCH}" "$ptx" -o "$OUT_DIR/kernels/$v.cubin" ||
      { echo "== ptxas failed on $ptx"; status=1; }
  done
else
  echo "== no ptxas here: the PTX was not validated"
fi

build_info "$ARCH" > "$OUT_DIR/BUILD_INFO"
cat "$OUT_DIR/BUILD_INFO"
du -sh "$OUT_DIR" | awk '{print "== bundle size: " $1}'
exit $status
