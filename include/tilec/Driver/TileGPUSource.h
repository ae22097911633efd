//===- TileGPUSource.h - A tilegpu-level .mlir input ------------*- C++ -*-===//
//
// A `.mlir` file of tilegpu IR whose blocks carry their layouts already (as
// `tilec --emit=tilegpu` prints it, or written by hand: Triton compiles
// .ttgir files the same way). KernelCompiler compiles its kernels from
// there on (docs/pipeline.md, "tilegpu input"): the layouts stay as written.
// This class parses the file, names its kernels and describes their
// parameters for the metadata (SPEC section 2).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DRIVER_TILEGPUSOURCE_H
#define TILEC_DRIVER_TILEGPUSOURCE_H

#include "tilec/Support/Types.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class AsmParserState;
class MLIRContext;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace tilec {

/// A parsed tilegpu-level .mlir file.
class TileGPUSource {
public:
  ~TileGPUSource();

  /// Parses `buffer` (named `name`) into `context`, which must have the
  /// tilec dialects loaded; diagnostics (`FILE:LINE:COL: error: ...`) go to
  /// `diagOS`. Returns null if the file does not parse or verify.
  static std::unique_ptr<TileGPUSource>
  parse(std::unique_ptr<llvm::MemoryBuffer> buffer, mlir::MLIRContext &context,
        llvm::raw_ostream &diagOS);

  llvm::SourceMgr &getSourceMgr() { return srcMgr; }
  mlir::ModuleOp getModule() { return *module; }
  /// The functions marked `tile.kernel`, in file order.
  std::vector<std::string> getKernelNames();
  /// The source text.
  llvm::StringRef getText() const;

  /// The kernel's parameters for the metadata: each argument's name as
  /// written (`%out` gives "out", `%0` "arg0"), its type (`!tile.ptr<f16>`
  /// gives "*f16") and its `tile.divisibility`. Fails with a diagnostic at the
  /// kernel for an argument no kernel parameter can be (a tensor, an index).
  mlir::LogicalResult describeParams(mlir::func::FuncOp kernel,
                                     std::vector<KernelParam> &params) const;

private:
  TileGPUSource();

  llvm::SourceMgr srcMgr;
  std::unique_ptr<mlir::AsmParserState> state;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace tilec

#endif // TILEC_DRIVER_TILEGPUSOURCE_H
