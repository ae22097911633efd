//===- PTX.h - LLVM-dialect MLIR to PTX text --------------------*- C++ -*-===//
//
// The target stage of the tilec pipeline (step 6): a module in the LLVM
// dialect (plus NVVM ops) is translated to LLVM IR, retargeted to
// nvptx64-nvidia-cuda, linked with the CUDA toolkit's libdevice when it calls
// `__nv_*` math functions, optimized with the NVPTX TargetMachine's pipeline
// and printed as PTX text. Kernels are `llvm.func` ops with the `nvvm.kernel`
// unit attribute; they become `.visible .entry` functions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTX_H
#define TILEC_TARGET_PTX_H

#include "tilec/Support/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Support/Timing.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilec {

/// Options of the PTX emission.
struct PTXOptions {
  /// The GPU: sm_80, sm_86, sm_87, sm_89, sm_90 or sm_90a.
  std::string arch = "sm_90";
  /// The LLVM optimization level, 0 to 3. 0: LLVM's -O0 pipeline and code
  /// generation without optimization. 1 to 3: tilec's pipeline of the
  /// passes that matter for its kernels (see PTX.cpp), then NVPTX's code
  /// generator at its default level, without straight-line strength
  /// reduction.
  int optLevel = 3;
  /// The PTX ISA version times ten (84 = PTX 8.4), at least the arch's
  /// minimum (7.8 for sm_90, 8.0 for sm_90a); 0 picks
  /// `Target::kDefaultPTXVersion`.
  int ptxVersion = 0;
  /// libdevice.10.bc to link when the module calls `__nv_*` functions;
  /// empty: search with `findLibdevice()`.
  std::string libdevicePath;
  /// Print the LLVM IR handed to the code generator to stderr.
  bool dumpLLVMIR = false;
  /// Contract f32/f64 multiplies and adds into fused multiply-adds (LLVM's
  /// `-fp-contract=fast`; Triton's `enable_fp_fusion`, nvcc's `-fmad=true`).
  /// Off: every `mul`/`add` is rounded on its own (`mul.rn`, `add.rn`).
  bool fpFusion = true;
  /// Source lines in the PTX: every function gets a debug scope (line
  /// tables only) from its location, so NVPTX writes `.file`/`.loc`.
  bool lineInfo = false;
};

/// The LLVM target triple of the generated code.
constexpr const char *kNVPTXTriple = "nvptx64-nvidia-cuda";

/// Translates `module` (LLVM dialect + NVVM ops) to an LLVM module for NVPTX
/// in `llvmContext`: target triple and data layout set, libdevice linked if
/// needed, non-kernel symbols internalized and the optimization pipeline of
/// `opts.optLevel` run. Errors are emitted as diagnostics on `module`.
mlir::FailureOr<std::unique_ptr<llvm::Module>>
translateToNVPTXModule(mlir::ModuleOp module, const PTXOptions &opts,
                       llvm::LLVMContext &llvmContext);

/// Translates `module` (LLVM dialect + NVVM ops) to PTX text. When
/// `llvmIROut` is given it receives the LLVM IR handed to the code
/// generator; with `timing`, the translation, the optimization and the code
/// generation are timed as nested scopes of it. Errors are emitted as
/// diagnostics on `module`; the function never aborts on bad input.
mlir::FailureOr<std::string>
translateToPTX(mlir::ModuleOp module, const PTXOptions &opts,
               std::string *llvmIROut = nullptr,
               mlir::TimingScope *timing = nullptr);

/// Registers the LLVM IR translation interfaces of the builtin, LLVM and
/// NVVM dialects.
void registerTilecTranslations(mlir::DialectRegistry &registry);

} // namespace tilec

#endif // TILEC_TARGET_PTX_H
