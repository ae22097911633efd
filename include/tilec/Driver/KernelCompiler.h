//===- KernelCompiler.h - Every stage of compiling a kernel -----*- C++ -*-===//
//
// The one compile driver: a .tile kernel goes through every stage, frontend
// (parse, check, MLIRGen) -> tile IR -> tilegpu IR -> LLVM + NVVM -> PTX ->
// cubin, and the caller says where to stop and gets that stage's module (or
// text). The `tilec` CLI (`--emit=*`), the JIT host API, tile-bench and the
// interpreter (KernelInterpreter) all compile through it; `tilec` also
// compiles tilegpu-level .mlir files (TileGPUSource.h) through it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DRIVER_KERNELCOMPILER_H
#define TILEC_DRIVER_KERNELCOMPILER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Runtime/KernelMetadata.h"
#include "tilec/Support/CompileOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class PassManager;
class TimingScope;
} // namespace mlir

namespace tilec {
class TileGPUSource;

/// A parsed .tile file (or the Triton code of a Python file): its source
/// manager and AST.
class TileSource {
public:
  /// Parses `buffer` (named `name`); diagnostics go to `diagOS`. Returns
  /// null if the file has errors. A Python source is parsed as
  /// extractTritonCode() (PythonSource.h) leaves it, which is also what the
  /// source manager holds and getText() returns; `kernel` (may be empty)
  /// is the one its functions are read for.
  static std::unique_ptr<TileSource>
  parse(std::unique_ptr<llvm::MemoryBuffer> buffer, llvm::raw_ostream &diagOS,
        SourceLanguage language = SourceLanguage::Tile,
        llvm::StringRef kernel = "");

  llvm::SourceMgr &getSourceMgr() { return srcMgr; }
  const ast::Module &getModule() const { return *module; }
  std::vector<std::string> getKernelNames() const;
  /// The source text.
  llvm::StringRef getText() const;

private:
  llvm::SourceMgr srcMgr;
  std::unique_ptr<ast::Module> module;
};

/// The stages of a compile, in order; a compile stops after the one asked
/// for.
enum class Stage {
  /// The parsed syntax tree of the whole file (no checks).
  AST,
  /// tile IR after the tile pipeline.
  Tile,
  /// tilegpu IR: layouts assigned, shared memory allocated.
  TileGPU,
  /// LLVM + NVVM dialect IR.
  LLVM,
  /// PTX text.
  PTX,
  /// A cubin, through the CUDA toolkit's ptxas.
  Cubin,
};

/// The result of compiling one kernel to some stage.
struct CompileResult {
  /// The module of the last IR stage reached (Tile, TileGPU or LLVM; for PTX
  /// and Cubin, the LLVM-dialect module they were made from).
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// AST: its dump; PTX and Cubin: the PTX.
  std::string text;
  /// Cubin: the ELF image.
  std::string cubin;
  /// The kernel's name, parameters and constexpr values from Tile on; the
  /// launch fields (arch, num_warps, shared memory, hashes) from PTX on.
  KernelMetadata metadata;
};

/// Why a compile failed.
enum class CompileFailure {
  /// The input (source, constexprs, options) is wrong; diagnostics say how.
  Input,
  /// The environment: the CUDA toolkit's ptxas is missing or failed.
  Environment,
};

/// Compiles kernels of parsed sources. Keeps one MLIR context with every
/// dialect loaded, so compiles after the first start warm. Not thread-safe:
/// use one per thread.
class KernelCompiler {
public:
  KernelCompiler();
  ~KernelCompiler();

  /// Compiles `kernel` of `source` with `options` (validated by the caller)
  /// up to `stage`. Diagnostics (clang style, pointing into the .tile
  /// source) go to `diagOS`; returns std::nullopt after an error, with its
  /// kind in `*failure` when given.
  std::optional<CompileResult> compile(TileSource &source,
                                       llvm::StringRef kernel,
                                       const ConstexprBindings &bindings,
                                       const CompileOptions &options,
                                       Stage stage, llvm::raw_ostream &diagOS,
                                       CompileFailure *failure = nullptr);

  /// Compiles `kernel` of a tilegpu-level .mlir file (parsed into this
  /// compiler's context) to `stage` (TileGPU or later), keeping the layouts
  /// as written: software pipelining, shared-memory allocation and the
  /// lowering run (buildLaidOutTileGPUPipeline). Warps come from the
  /// module's `tilegpu.num_warps` (`options.numWarps` must agree); the
  /// metadata names the parameters as the IR does. Diagnostics point into
  /// the .mlir file.
  std::optional<CompileResult> compile(TileGPUSource &source,
                                       llvm::StringRef kernel,
                                       const CompileOptions &options,
                                       Stage stage, llvm::raw_ostream &diagOS,
                                       CompileFailure *failure = nullptr);

  /// The context every module of this compiler lives in.
  mlir::MLIRContext &getContext() { return *context; }

private:
  /// Runs `pm` on `result.module`, then makes the PTX (and cubin) and the
  /// launch metadata when `stage` asks for them. False after an error.
  bool runToStage(mlir::PassManager &pm, CompileResult &result,
                  llvm::StringRef kernel, llvm::StringRef sourceText,
                  const CompileOptions &options, Stage stage,
                  mlir::TimingScope &root, llvm::raw_ostream &diagOS,
                  CompileFailure *failure);

  std::unique_ptr<mlir::MLIRContext> context;
};

/// Prints `module` as text (the `--emit=tile|tilegpu|llvm` output).
std::string printModule(mlir::ModuleOp module);

} // namespace tilec

#endif // TILEC_DRIVER_KERNELCOMPILER_H
