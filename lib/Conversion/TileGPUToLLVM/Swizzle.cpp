//===- Swizzle.cpp - Addresses in swizzled shared-memory tiles ------------===//
//
// The swizzled byte offset of a tile element as i32 arithmetic.
//
//===----------------------------------------------------------------------===//

#include "Swizzle.h"
#include "LLVMBuilders.h"
#include "LayoutIndexing.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

Value mlir::tilegpu::emitSwizzledOffset(OpBuilder &builder, Location loc,
                                        const NVMMASharedLayout &layout,
                                        Value row, Value col) {
  auto c = [&](int64_t v) { return createI32(builder, loc, v); };
  int64_t perRow = layout.getElementsPerRow();
  unsigned perRowLog = llvm::Log2_64(perRow);
  Value column = LLVM::LShrOp::create(builder, loc, col, c(perRowLog));
  Value inRow = LLVM::AndOp::create(builder, loc, col, c(perRow - 1));
  Value offset = LLVM::AddOp::create(
      builder, loc,
      LLVM::MulOp::create(builder, loc, column, c(layout.getColumnStride())),
      LLVM::AddOp::create(
          builder, loc,
          LLVM::MulOp::create(builder, loc, row, c(layout.swizzle)),
          LLVM::MulOp::create(builder, loc, inRow, c(layout.elementBytes))));
  Value phase = LLVM::ShlOp::create(
      builder, loc, shiftAnd(builder, loc, offset, 7, layout.swizzle / 16 - 1),
      c(4));
  return LLVM::XOrOp::create(builder, loc, offset, phase);
}
