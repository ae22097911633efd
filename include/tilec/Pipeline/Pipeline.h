//===- Pipeline.h - The one tilec compilation pipeline ----------*- C++ -*-===//
//
// The pass pipeline and the whole compile of a .tile kernel (parse, check,
// MLIRGen, passes, PTX, metadata), shared by the `tilec` CLI, `tile-opt`
// (as registered pipelines) and the JIT host API.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINE_PIPELINE_H
#define TILEC_PIPELINE_PIPELINE_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Runtime/KernelMetadata.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tilec {

/// The version of tilec, e.g. "0.1.0".
const char *getVersion();
/// "tilec 0.1.0 (LLVM 22.1.8)": recorded in metadata and cache keys.
std::string getVersionString();

/// Options of one compile; zero means "the kernel's own value".
struct CompileOptions {
  /// sm_80, sm_90 or sm_90a.
  std::string arch = "sm_90";
  int numWarps = 0;
  int numStages = 0;
  /// 0 or 3 (LLVM optimization level).
  int optLevel = 3;
  /// Argument specialization (as Triton's): pointer arguments are assumed
  /// aligned to this many bytes (1: nothing assumed); the integer arguments
  /// named in `divisibleParams` are assumed multiples of 16. Launches must
  /// honour these (the runtime checks them).
  unsigned pointerAlignment = 16;
  std::vector<std::string> divisibleParams;
  /// Integer arguments specialized to the value 1 (unit strides), as
  /// Triton specializes them: their uses see the constant.
  std::vector<std::string> unitParams;
  /// Fuse multiplies and adds into fma (PTXOptions::fpFusion).
  bool fpFusion = true;
  /// Print the IR after every pass to stderr.
  bool printIRAfterAll = false;
  /// Print the time of each stage to stderr.
  bool timing = false;
};

/// How far a compile goes; the output is the IR (or PTX) of that stage.
enum class EmitStage { AST, Tile, TileGPU, LLVM, PTX };

/// Registers every dialect tilec IR may contain.
void registerTilecDialects(mlir::DialectRegistry &registry);

/// Passes on tile IR: inline, canonicalize, tile-combine, CSE.
void buildTilePipeline(mlir::OpPassManager &pm);
/// Layout assignment through shared-memory allocation (tilegpu IR) for
/// `arch` (sm_80 .. sm_90a: mma.sync from sm_80, wgmma on sm_90a).
void buildTileGPUPipeline(mlir::OpPassManager &pm, unsigned numWarps,
                          llvm::StringRef arch = "sm_90");
/// tilegpu IR to LLVM + NVVM.
void buildLLVMPipeline(mlir::OpPassManager &pm);
/// Registers `tilec-tile`, `tilec-tilegpu` and `tilec-llvm` pipelines
/// (for tile-opt).
void registerTilecPipelines();

/// A parsed .tile file: its source manager and AST.
class TileSource {
public:
  /// Parses `buffer` (named `name`); diagnostics go to `diagOS`. Returns
  /// null if the file has errors.
  static std::unique_ptr<TileSource>
  parse(std::unique_ptr<llvm::MemoryBuffer> buffer, llvm::raw_ostream &diagOS);

  llvm::SourceMgr &getSourceMgr() { return srcMgr; }
  const ast::Module &getModule() const { return *module; }
  std::vector<std::string> getKernelNames() const;
  /// The source text.
  llvm::StringRef getText() const;

private:
  llvm::SourceMgr srcMgr;
  std::unique_ptr<ast::Module> module;
};

/// The result of compiling one kernel.
struct CompileResult {
  /// The IR of the requested stage, or the PTX.
  std::string text;
  /// Filled when the stage is PTX.
  KernelMetadata metadata;
};

/// Compiles kernels of parsed sources. Keeps one MLIR context with every
/// dialect loaded, so compiles after the first start warm. Not thread-safe:
/// use one per thread.
class KernelCompiler {
public:
  explicit KernelCompiler(CompileOptions options = {});
  ~KernelCompiler();

  /// Compiles `kernel` of `source` up to `stage`. Diagnostics (clang style,
  /// pointing into the .tile source) go to `diagOS`; returns std::nullopt
  /// on an error in the input.
  std::optional<CompileResult> compile(TileSource &source,
                                       llvm::StringRef kernel,
                                       const ConstexprBindings &bindings,
                                       EmitStage stage,
                                       llvm::raw_ostream &diagOS);

  const CompileOptions &getOptions() const { return options; }
  /// For changing the per-request options (argument specialization, fp
  /// fusion) between compiles; `arch` and `optLevel` stay as constructed.
  CompileOptions &getMutableOptions() { return options; }

private:
  /// Whether `options` specialize the integer `param` to 1.
  bool isAssumedOne(const checked::KernelParam &param) const;
  /// What `options` let the code assume `param` (a pointer's address or an
  /// integer's value) to be a multiple of; 1 for nothing.
  int64_t getAssumedDivisibility(const checked::KernelParam &param) const;

  /// Marks the kernel's arguments with what `options` lets us assume.
  void applySpecialization(mlir::ModuleOp module,
                           const checked::CheckedKernel &kernel,
                           llvm::raw_ostream &diagOS);

  CompileOptions options;
  std::unique_ptr<mlir::MLIRContext> context;
};

} // namespace tilec

#endif // TILEC_PIPELINE_PIPELINE_H
