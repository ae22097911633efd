//===- KernelInterpreter.h - Run a .tile kernel on the CPU ------*- C++ -*-===//
//
// A kernel of a `.tile` source compiled by KernelCompiler to tile IR (the
// `--emit=tile` stage) and run by the float64 reference interpreter
// (tilec/Interpreter/Interpreter.h): `tilec --interpret`, the interpreter's
// unit tests and the differential checks use it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DRIVER_KERNELINTERPRETER_H
#define TILEC_DRIVER_KERNELINTERPRETER_H

#include "tilec/Driver/KernelCompiler.h"
#include "tilec/Interpreter/Interpreter.h"

#include <memory>
#include <vector>

namespace tilec {

/// A kernel of a `.tile` source compiled to tile IR, ready to interpret.
class KernelInterpreter {
public:
  /// Checks `kernel` of `source` with `bindings` and compiles it to tile IR
  /// (as `tilec --emit=tile`). Diagnostics go to `diagOS`; returns null
  /// after an error. `source` must outlive the result.
  static std::unique_ptr<KernelInterpreter>
  create(TileSource &source, llvm::StringRef kernel,
         const ConstexprBindings &bindings, llvm::raw_ostream &diagOS);
  ~KernelInterpreter();

  /// The kernel's run-time parameters (no constexprs), in order.
  llvm::ArrayRef<KernelParam> getParams() const { return params; }
  /// The tile IR that runs.
  mlir::ModuleOp getModule() { return *module; }

  /// Runs every program of `options.grid`. Errors are printed clang-style
  /// against the `.tile` source to `diagOS`; returns false after the first
  /// (buffers keep what the programs wrote before it).
  bool run(llvm::ArrayRef<InterpreterArg> args,
           const InterpreterOptions &options, llvm::raw_ostream &diagOS);

private:
  explicit KernelInterpreter(TileSource &source);

  TileSource &source;
  KernelCompiler compiler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<KernelParam> params;
};

} // namespace tilec

#endif // TILEC_DRIVER_KERNELINTERPRETER_H
