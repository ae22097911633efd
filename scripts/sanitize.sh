#!/usr/bin/env bash
# Builds tilec with clang, AddressSanitizer + UndefinedBehaviorSanitizer and
# libFuzzer's coverage instrumentation in its own build directory, runs the
# whole test suite under the sanitizers (the lit suite: every tool run of every
# FileCheck test is an instrumented tilec, tile-opt, tile-translate, ...; and
# the GoogleTest suite, including the child processes the cache-storm and
# fake-driver tests start), then runs each libFuzzer target (docs/fuzzing.md)
# for a bounded time on its seed corpus. Any ASan report, UBSan diagnostic or
# fuzzer crash fails the job.
#
# Usage: scripts/sanitize.sh [BUILD_DIR]          (default: build-asan)
#   TILEC_JOBS=N   parallel build jobs (default: nproc)
#   LIT=path       the lit to use
#   FUZZ_SECONDS=N how long each of the five fuzzers runs (default 30; 0 skips)
#
# What is instrumented: our code (lib/, frontend/, runtime/, tools/, tests),
# compiled -O1 -g without NDEBUG, so our asserts and MLIR's debug-only checks
# in inline header code are on too. LLVM and MLIR are Debian's prebuilt
# shared libraries: not instrumented, but ASan still checks every malloc/new
# they make and our accesses to that memory.
#
# The compiler is clang (Debian's clang-14, installed when missing): libFuzzer
# comes only with clang. Its sanitizer runtimes go into executables only, so
# the build drops LLVM's -z defs for our shared libraries (CMakeLists.txt).
#
# Options, and why:
#   ASAN_OPTIONS   detect_leaks=1 (LeakSanitizer on: it reports only memory
#                  nothing points to, so LLVM's and our deliberately immortal
#                  globals do not count), check_initialization_order=1,
#                  strict_init_order=1, detect_stack_use_after_return=1,
#                  abort_on_error=1, allow_user_poisoning=0: LLVM's
#                  BumpPtrAllocator poisons its slabs by hand when the code
#                  including its header is instrumented and unpoisons each
#                  allocation, but libLLVM/libMLIR's own (uninstrumented)
#                  copies of it allocate from the same slabs without
#                  unpoisoning, so every MLIR attribute or type made from
#                  both sides reads as use-after-poison (false positives,
#                  seen in TileToTileGPU's setAttr). Only that manual
#                  poisoning is off: heap, stack and global checks stay.
#   UBSAN_OPTIONS  halt_on_error=1, print_stacktrace=1, abort_on_error=1 (and
#                  the code is built with -fno-sanitize-recover=all)
# abort_on_error makes a report kill the process with SIGABRT instead of
# exiting with 1, so lit's `not tilec bad.tile` (which expects exit 1) fails
# on a report instead of passing.
# Excluded: test/install (it builds an uninstrumented consumer program
# against the installed, instrumented libraries, which cannot link; the
# regular suite covers packaging). Nothing else is excluded or suppressed;
# the conformance corpus (test/conformance) is sampled: every 8th case
# (TILEC_CONFORMANCE_SAMPLE), all of them taking the instrumented tilec
# several minutes.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
BUILD_DIR=${1:-build-asan}
JOBS=${TILEC_JOBS:-$(nproc)}
LIT=${LIT:-$(command -v lit || echo /usr/lib/llvm-22/bin/lit)}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
start=$(date +%s)

if ! command -v clang++-14 >/dev/null ||
   ! dpkg-query -W -f='${Status}' libclang-rt-14-dev 2>/dev/null |
     grep -q "ok installed"; then
  echo "== installing clang-14 and its sanitizer/libFuzzer runtimes"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    --no-install-recommends clang-14 libclang-rt-14-dev ||
    { echo "CLANG INSTALL FAILED"; exit 1; }
fi

SAN="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  # shellcheck disable=SC2086 # TILEC_CMAKE_ARGS: any number of cmake flags
  CC=clang-14 CXX=clang++-14 \
  cmake -G Ninja -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug \
    -DTILEC_BUILD_FUZZERS=ON \
    -DCMAKE_C_FLAGS_DEBUG="-O1 -g" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DCMAKE_C_FLAGS="$SAN" -DCMAKE_CXX_FLAGS="$SAN" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
    ${TILEC_CMAKE_ARGS:-} || { echo "CONFIGURE FAILED"; exit 1; }
fi
ninja -C "$BUILD_DIR" -j "$JOBS" || { echo "BUILD FAILED"; exit 1; }
built=$(date +%s)

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:allow_user_poisoning=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
symbolizer=$(command -v llvm-symbolizer || echo /usr/lib/llvm-22/bin/llvm-symbolizer)
[ -x "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH="$symbolizer"

echo "== lit tests under ASan+UBSan"
TILEC_CONFORMANCE_SAMPLE=${TILEC_CONFORMANCE_SAMPLE:-8} "$LIT" -s -v --filter-out '^TILEC :: install/' "$BUILD_DIR/test" 2>&1 |
  tee "$BUILD_DIR/lit.log" | grep -vE '^(PASS|UNSUPPORTED):'
lit_status=${PIPESTATUS[0]}
echo "== GoogleTest unit tests under ASan+UBSan"
"$LIT" -s -v "$BUILD_DIR/test/unit" 2>&1 |
  tee "$BUILD_DIR/unit.log" | grep -vE '^(PASS|UNSUPPORTED):'
unit_status=${PIPESTATUS[0]}
tested=$(date +%s)

# Bounded fuzzing: each target from its seed corpus (scripts/fuzz.sh seeds
# it from the examples, the tests and tile-gen programs); a crash, timeout,
# out-of-memory or sanitizer report ends the run with a non-zero status and
# leaves the input in $BUILD_DIR/fuzz-artifacts-NAME/.
fuzz_status=0
fuzz_summary=""
if [ "$FUZZ_SECONDS" -gt 0 ]; then
  for fuzzer in frontend pipeline tileir gen tilegpu; do
    echo "== fuzzing $fuzzer for $FUZZ_SECONDS s"
    log="$BUILD_DIR/fuzz-$fuzzer.log"
    # The tile-IR seeds come from the regular build's tilec when there is
    # one (the instrumented one takes minutes over the seed kernels).
    seeder=""
    [ -x build/bin/tilec ] && seeder=$PWD/build/bin/tilec
    if TILEC=$seeder FUZZER=$fuzzer JOBS=$JOBS \
         scripts/fuzz.sh "$FUZZ_SECONDS" "$BUILD_DIR" >"$log" 2>&1; then
      result=ok
    else
      result=FAILED
      fuzz_status=1
      # The report with its stack, and the input itself (base64) so a
      # failure seen only in CI can be reproduced from the CI log alone.
      grep -m1 -A60 -E 'ERROR:|runtime error:|deadly signal' "$log" || true
      grep -E 'Test unit written' "$log" | head -5
      for a in "$BUILD_DIR/fuzz-artifacts-$fuzzer"/*; do
        [ -f "$a" ] || continue
        echo "-- $a (base64):"
        head -c 16384 "$a" | base64
      done
    fi
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
    fuzz_summary="$fuzz_summary $fuzzer ${runs:-?} runs $result;"
  done
fi
done_at=$(date +%s)

summary() { grep -E '^ *(Passed|Failed|Skipped|Unsupported|Excluded|Expectedly Failed|Unresolved|Timed Out) *:' "$1" | tr -s ' ' | paste -sd ';' -; }
echo "== totals (ASan+UBSan)"
echo "lit:   $(summary "$BUILD_DIR/lit.log")"
echo "gtest: $(summary "$BUILD_DIR/unit.log")"
echo "fuzz: ${fuzz_summary:- skipped (FUZZ_SECONDS=0)}"
echo "time:  build $((built - start)) s, tests $((tested - built)) s, fuzzing $((done_at - tested)) s, total $((done_at - start)) s"
if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' \
     "$BUILD_DIR/lit.log" "$BUILD_DIR/unit.log"; then
  echo "SANITIZER REPORTS FOUND (see $BUILD_DIR/lit.log, $BUILD_DIR/unit.log)"
  exit 1
fi
if [ "$lit_status" -ne 0 ] || [ "$unit_status" -ne 0 ]; then
  echo "TESTS FAILED UNDER SANITIZERS"; exit 1
fi
if [ "$fuzz_status" -ne 0 ]; then
  echo "FUZZING FOUND A CRASH (see $BUILD_DIR/fuzz-*.log and fuzz-artifacts-*/)"
  exit 1
fi
echo "ALL TESTS PASSED UNDER ASan+UBSan; fuzzers ran clean"
