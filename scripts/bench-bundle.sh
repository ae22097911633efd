#!/usr/bin/env bash
# Builds the benchmark bundle on the build machine (no GPU needed): compiles
# every variant of bench/variants.py (bench/kernels/*.tile, one PTX per size
# class) with tilec for sm_90, timing each cold `tilec` process, checks each
# PTX with `ptxas -v` when the CUDA toolkit is here (registers, spills), and
# copies the Python driver (bench/*.py) next to them. The GPU machine then needs only
# Python 3 with torch, triton, cupy, numpy (no LLVM):
#
#   scripts/bench-bundle.sh [BUILD_DIR] [OUT_DIR]   # here; defaults build/ .device/bench
#   bash scripts/run-bench.sh [OUT_DIR]             # there; prints the table last
#
# OUT_DIR (git-ignored under .device/) gets kernels/VARIANT.{ptx,json},
# manifest.json (variants, tilec flags, cold compile seconds, ptxas -v
# resources), BUILD_INFO, bench/*.py (run_bench.py and its modules, peers.py,
# variants.py, profile_one.py), run-bench.sh.
# ARCH=sm_90a changes the target, TILEC=/path/to/tilec the compiler binary,
# BENCH_FAMILIES=attention,mmsweep,... compiles only those families' variants
# (run_bench.py --only names; scripts/gpu-bundle.sh packs the same-source
# ones this way). A variant that tilec fails to compile is reported, and its
# manifest entry keeps tilec's message (run_bench.py puts it in the row).
set -uo pipefail
# shellcheck source=scripts/bundle-common.sh
source "$(dirname "$0")/bundle-common.sh" # (in the source root from here on)
bundle_args .device/bench "$@"

rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR/kernels" "$OUT_DIR/logs"
cp bench/*.py scripts/run-bench.sh "$OUT_DIR/"

# One untimed compile first so that the binary and its libraries are in the
# page cache; then every variant is one fresh tilec process ("cold": tilec has
# no state between processes).
"$TILEC" bench/kernels/gelu.tile -k gelu --arch="$ARCH" -o "$OUT_DIR/logs/warm.ptx" \
  >/dev/null 2>&1
rm -f "$OUT_DIR/logs/warm.ptx" "$OUT_DIR/logs/warm.json"

status=0
: > "$OUT_DIR/logs/compile.tsv"
while IFS=$'\t' read -r variant tile _ args; do
  [ -n "$variant" ] || continue
  t0=$EPOCHREALTIME
  # shellcheck disable=SC2086 # $args: the variant's tilec flags
  "$TILEC" "bench/kernels/$tile" $args --arch="$ARCH" --emit=ptx \
      -o "$OUT_DIR/kernels/$variant.ptx" >"$OUT_DIR/logs/$variant.log" 2>&1
  rc=$?
  t1=$EPOCHREALTIME
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f", b-a}')
  # Timed above: the compile alone; then the PTX the runtime would load.
  if [ $rc -eq 0 ] && [ ${#SPARE_REGISTERS[@]} -gt 0 ]; then
    # shellcheck disable=SC2086 # $args: the variant's tilec flags
    "$TILEC" "bench/kernels/$tile" $args --arch="$ARCH" --emit=ptx \
        "${SPARE_REGISTERS[@]}" -o "$OUT_DIR/kernels/$variant.ptx" \
        >"$OUT_DIR/logs/$variant.log" 2>&1
    rc=$?
  fi
  res=""
  if [ $rc -ne 0 ]; then
    echo "== FAILED to compile $variant (tilec bench/kernels/$tile $args):"
    sed 's/^/   /' "$OUT_DIR/logs/$variant.log"
    status=1
  elif [ -x "$PTXAS" ]; then
    if "$PTXAS" -arch="$ARCH" -v "$OUT_DIR/kernels/$variant.ptx" -o /dev/null \
         >"$OUT_DIR/logs/$variant.ptxas" 2>&1; then
      res=$(grep -o 'Used [0-9]* registers' "$OUT_DIR/logs/$variant.ptxas" | head -1)
      sp=$(grep -o '[0-9]* bytes spill stores' "$OUT_DIR/logs/$variant.ptxas" | head -1)
      res="$res, ${sp:-? spill stores}"
    else
      echo "== ptxas -arch=$ARCH rejects $variant:"; sed 's/^/   /' "$OUT_DIR/logs/$variant.ptxas"
      status=1
      res="ptxas failed"
    fi
  else
    res="no ptxas here"
  fi
  v4=$(grep -c 'ld.global[a-z.]*v4' "$OUT_DIR/kernels/$variant.ptx" 2>/dev/null)
  st4=$(grep -c 'st.global[a-z.]*v4' "$OUT_DIR/kernels/$variant.ptx" 2>/dev/null)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$variant" "$rc" "$secs" "$res" "${v4:-0}" "${st4:-0}" \
    >> "$OUT_DIR/logs/compile.tsv"
  printf '   %-28s %6.3f s  %s  ld.v4=%s st.v4=%s\n' "$variant" "$secs" "$res" "${v4:-0}" "${st4:-0}"
done < <("$PY" bench/variants.py --list ${BENCH_FAMILIES:+"$BENCH_FAMILIES"})

"$PY" - "$OUT_DIR" "$TILEC" "$ARCH" "${BENCH_FAMILIES:-}" <<'EOF'
import json, os, sys
sys.path.insert(0, "bench")
import variants as V
out, tilec, arch, fams = sys.argv[1:5]
comp = {}
for line in open(os.path.join(out, "logs", "compile.tsv")):
    name, rc, secs, res, v4, st4 = line.rstrip("\n").split("\t")
    comp[name] = dict(rc=int(rc), compile_s=float(secs), ptxas=res,
                      ld_global_v4=int(v4), st_global_v4=int(st4))
vs = []
for v in V.variants():
    if fams and V.family(v) not in fams.split(","):
        continue
    v = dict(v)
    v.update(comp.get(v["variant"], {"rc": -1}))
    if v["rc"] != 0:
        try:
            v["error"] = open(os.path.join(out, "logs", v["variant"] + ".log")).read()[-2000:]
        except OSError:
            v["error"] = "not compiled"
    v["tilec_cmd"] = "tilec bench/kernels/%s %s --arch=%s" % (
        v["tile"], " ".join(V.tilec_args(v)), arch)
    vs.append(v)
json.dump({"arch": arch, "variants": vs}, open(os.path.join(out, "manifest.json"), "w"),
          indent=1)
EOF

build_info "$ARCH" > "$OUT_DIR/BUILD_INFO"
cat "$OUT_DIR/BUILD_INFO"
n=$(find "$OUT_DIR/kernels" -name '*.ptx' | wc -l)
echo "== $n PTX files in $OUT_DIR/kernels; bundle $(du -sh "$OUT_DIR" | cut -f1)"
exit $status
