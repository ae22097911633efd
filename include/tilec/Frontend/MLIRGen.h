//===- MLIRGen.h - Checked kernel to the tile dialect -----------*- C++ -*-===//
//
// Translates a checked kernel (the output of semantic analysis) into a
// module holding one `func.func` in the tile dialect (+ arith, math, scf),
// with a FileLineColLoc of the .tile source on every op.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_MLIRGEN_H
#define TILEC_FRONTEND_MLIRGEN_H

#include "tilec/Frontend/CheckedKernel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace tilec {
/// Builds the tile-dialect module of `kernel`. Errors (constructs the
/// dialect cannot express) are reported through the context's diagnostic
/// handler at the source location; the result is then null. The context
/// must have the tile, arith, math, scf and func dialects loaded.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const checked::CheckedKernel &kernel);
} // namespace tilec

#endif // TILEC_FRONTEND_MLIRGEN_H
