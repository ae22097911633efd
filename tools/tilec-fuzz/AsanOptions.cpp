//===- AsanOptions.cpp - ASan defaults of the libFuzzer targets -----------===//
//
// Linked into every tilec libFuzzer target. LLVM's BumpPtrAllocator poisons
// its slabs by hand in code that includes its header instrumented (ours)
// and unpoisons each allocation there, but libLLVM/libMLIR's own
// uninstrumented copies allocate from the same slabs (MLIR's attribute and
// type storage) without unpoisoning: every such allocation would read as
// use-after-poison, a false positive (see scripts/sanitize.sh). Only that
// manual poisoning is off; heap, stack and global checks stay on, and
// ASAN_OPTIONS from the environment still apply on top.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
