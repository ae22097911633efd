//===- CompileOptions.h - The options of one kernel compile ----*- C++ -*-===//
//
// The one set of compile options: what the `tilec` CLI's flags, the JIT's
// Compiler::Options (which extends it with cache and specialization
// settings), tile-bench's variants and the interpreter fill in, what the
// pass pipeline and PTX emission read, and what the kernel cache keys on.
// validate() is the one check of the values; getKeyText() the one canonical
// text of every field that changes the generated code. LLVM-free, so the
// runtime and the host API use it too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_COMPILEOPTIONS_H
#define TILEC_SUPPORT_COMPILEOPTIONS_H

#include "tilec/Support/Target.h"

#include <string>
#include <vector>

namespace tilec {

/// Options of one compile. Zero for numWarps/numStages means the kernel's
/// own `@kernel(num_warps=, num_stages=)`.
struct CompileOptions {
  /// The target: "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a";
  /// empty: the default (Target::getDefault(), sm_90), or for a JIT
  /// Compiler made with a device, the device's (Target::forDevice()).
  std::string arch;
  /// Warps per program: 0, or a power of two from 1 to 32.
  int numWarps = 0;
  /// Software-pipelining stages: 0, or 1 to kMaxNumStages.
  int numStages = 0;
  /// LLVM optimization level of the PTX stage: 0 or 3.
  int optLevel = 3;
  /// Argument specialization (as Triton's): pointer arguments are assumed
  /// aligned to this many bytes (a power of two; 1: nothing assumed); the
  /// integer arguments named in divisibleParams are assumed multiples of 16,
  /// those in unitParams equal to 1. Launches must honour these (the
  /// runtime checks them against the metadata).
  unsigned pointerAlignment = 16;
  std::vector<std::string> divisibleParams;
  std::vector<std::string> unitParams;
  /// Pointer parameters assumed aligned to their element only, whatever
  /// pointerAlignment says (a Triton AOT signature's pointers without
  /// `:16`, TritonSignature.h).
  std::vector<std::string> unalignedParams;
  /// Fuse multiplies and adds into fma (`--fp-fusion`).
  bool fpFusion = true;
  /// Source line information in the PTX (`.file`/`.loc` to the kernel's
  /// file:line, `--line-info`): Nsight Compute's source view and cuda-gdb
  /// show kernel source lines. The code is the same either way.
  bool lineInfo = false;
  /// PTX: assemble it with ptxas and, where ptxas leaves registers spare at
  /// the kernel's occupancy, add `.minnctapersm` so that it spends them
  /// (`--spare-registers`, Runtime/SpareRegisters.h) -- what Kernel::load
  /// and `--emit=cubin` do anyway. Needs ptxas.
  bool spareRegisters = false;

  /// Debugging output, to stderr; no effect on the generated code (not part
  /// of the key): the IR after every pass, the time of each stage.
  bool printIRAfterAll = false;
  bool timing = false;

  /// The language's defaults when neither the kernel's `@kernel(...)` nor
  /// the options say.
  static constexpr int kDefaultNumWarps = 4;
  static constexpr int kDefaultNumStages = 3;
  static constexpr int kMaxNumWarps = 32;
  static constexpr int kMaxNumStages = 16;
  /// Whether \p numWarps is a power of two from 1 to kMaxNumWarps.
  static bool isValidNumWarps(long long numWarps);
  /// Whether \p numStages is from 1 to kMaxNumStages.
  static bool isValidNumStages(long long numStages);

  /// An empty string when every field is valid, else what is wrong with the
  /// first invalid one ("num_warps = 3 is not a power of two from 1 to 32").
  std::string validate() const;
  /// The target arch names (the default when arch is empty). Call after
  /// validate().
  Target getTarget() const;
  /// The canonical text of every field that changes the generated code,
  /// "name=size:value" lines in a fixed order: what cache keys hash.
  std::string getKeyText() const;
};

} // namespace tilec

#endif // TILEC_SUPPORT_COMPILEOPTIONS_H
