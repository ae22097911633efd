//===- MLIRGenCombine.cpp - Scans and combine reductions to tile ops ------===//
//
// A checked::CombineStmt becomes tile.scan or tile.combine_reduce whose
// region is the combine function's body on scalar arguments, ended by
// tile.combine_yield.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenParts.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

using namespace mlir;
using namespace tilec;

FailureOr<Operation *> tilec::createCombineOp(
    OpBuilder &builder, Location loc, const checked::CombineStmt &stmt,
    TypeRange resultTypes, ValueRange operands, TypeRange paramTypes,
    llvm::function_ref<FailureOr<SmallVector<Value>>(ValueRange)> genBody) {
  Operation *op;
  if (stmt.combineKind == checked::CombineKind::Scan)
    op = tile::ScanOp::create(builder, loc, resultTypes, operands, stmt.axis,
                              stmt.reverse);
  else
    op = tile::CombineReduceOp::create(builder, loc, resultTypes, operands,
                                       stmt.axis);
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Location> locs(paramTypes.size(), loc);
  Block *body = builder.createBlock(&op->getRegion(0), {}, paramTypes, locs);
  FailureOr<SmallVector<Value>> yields = genBody(body->getArguments());
  if (failed(yields))
    return failure();
  tile::CombineYieldOp::create(builder, loc, *yields);
  return op;
}
