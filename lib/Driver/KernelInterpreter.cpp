//===- KernelInterpreter.cpp - Run a .tile kernel on the CPU --------------===//
//
// Compiles the kernel to tile IR with KernelCompiler and hands its kernel
// function to interpretFunction().
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/KernelInterpreter.h"
#include "tilec/Frontend/Diagnostics.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;

KernelInterpreter::KernelInterpreter(TileSource &source) : source(source) {}

KernelInterpreter::~KernelInterpreter() = default;

std::unique_ptr<KernelInterpreter>
KernelInterpreter::create(TileSource &source, llvm::StringRef kernel,
                          const ConstexprBindings &bindings,
                          llvm::raw_ostream &diagOS) {
  std::unique_ptr<KernelInterpreter> result(new KernelInterpreter(source));
  // The interpreter lays its buffers out itself: nothing is assumed of the
  // arguments.
  CompileOptions options;
  options.pointerAlignment = 1;
  std::optional<CompileResult> compiled = result->compiler.compile(
      source, kernel, bindings, options, Stage::Tile, diagOS);
  if (!compiled)
    return nullptr;
  result->module = std::move(compiled->module);
  result->params = std::move(compiled->metadata.params);
  return result;
}

bool KernelInterpreter::run(llvm::ArrayRef<InterpreterArg> args,
                            const InterpreterOptions &options,
                            llvm::raw_ostream &diagOS) {
  ControlEscapingOstream escaped(diagOS);
  SourceMgrDiagnosticHandler handler(source.getSourceMgr(),
                                     &compiler.getContext(), escaped);
  func::FuncOp func;
  module->walk([&](func::FuncOp candidate) {
    if (!func && candidate->hasAttr(mlir::tile::kKernelAttrName))
      func = candidate;
  });
  if (!func) {
    diagOS << "error: the module has no kernel function\n";
    return false;
  }
  return succeeded(interpretFunction(func, args, params, options));
}
