//===- LLVMBuilders.cpp - One-line LLVM-dialect values --------------------===//
//
// Integer constants and GEPs.
//
//===----------------------------------------------------------------------===//

#include "LLVMBuilders.h"

using namespace mlir;
using namespace mlir::tilegpu;

Value mlir::tilegpu::createI32(OpBuilder &builder, Location loc,
                               int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

Value mlir::tilegpu::createI64(OpBuilder &builder, Location loc,
                               int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                  builder.getI64IntegerAttr(value));
}

Value mlir::tilegpu::gep(OpBuilder &builder, Location loc, Type elementType,
                         Value base, Value index) {
  return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                             ValueRange{index});
}
