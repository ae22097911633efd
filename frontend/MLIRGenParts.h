//===- MLIRGenParts.h - Pieces of MLIRGen in files of their own -*- C++ -*-===//
//
// Private to frontend/: what MLIRGen.cpp (the checked kernel to the tile
// dialect) uses from MLIRGenTypes.cpp (the MLIR type of a checked type) and
// MLIRGenCombine.cpp (the ops of scans and combine reductions).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_MLIRGENPARTS_H
#define TILEC_FRONTEND_MLIRGENPARTS_H

#include "tilec/Frontend/CheckedKernel.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilec {

/// The MLIR type of `type`: a scalar (unsigned integers as the signless
/// ones), a `!tile.ptr`, or a ranked tensor of those.
mlir::Type convertType(mlir::MLIRContext &context, const TType &type);

/// Creates the tile.scan or tile.combine_reduce of `stmt` with `operands`
/// and `resultTypes`, and its combine region: a block of arguments
/// `paramTypes`, filled by `genBody` (at the block's end, given the
/// arguments; it returns the values to yield, or failure).
mlir::FailureOr<mlir::Operation *> createCombineOp(
    mlir::OpBuilder &builder, mlir::Location loc,
    const checked::CombineStmt &stmt, mlir::TypeRange resultTypes,
    mlir::ValueRange operands, mlir::TypeRange paramTypes,
    llvm::function_ref<
        mlir::FailureOr<llvm::SmallVector<mlir::Value>>(mlir::ValueRange)>
        genBody);

} // namespace tilec

#endif // TILEC_FRONTEND_MLIRGENPARTS_H
