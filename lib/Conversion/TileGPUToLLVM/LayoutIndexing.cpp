//===- LayoutIndexing.cpp - Layout functions emitted as IR ----------------===//
//
// IRIndexArith, thread ids, and the layout functions of blocked, slice, mma
// and dot-operand layouts and of swizzled tiles instantiated with it.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "LLVMBuilders.h"

#include "tilec/Dialect/TileGPU/IR/LayoutFunctions.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

Value IRIndexArith::constant(int64_t value) const {
  return createI32(builder, loc, value);
}

ThreadIds mlir::tilegpu::getThreadIds(OpBuilder &builder, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value lane =
      LLVM::AndOp::create(builder, loc, tid, createI32(builder, loc, 31));
  Value warp =
      LLVM::LShrOp::create(builder, loc, tid, createI32(builder, loc, 5));
  return {lane, warp};
}

SmallVector<SmallVector<Value>>
mlir::tilegpu::emitIndices(OpBuilder &builder, Location loc,
                           RankedTensorType type, const ThreadIds &ids) {
  IRIndexArith arith(builder, loc);
  if (auto layout = getDistributedLayout(type))
    return getRegisterIndices(*layout, arith, ids.lane, ids.warp);
  if (auto layout = getMmaLayout(type))
    return getRegisterIndices(*layout, arith, ids.lane, ids.warp);
  if (auto layout = getDotOperandLayout(type))
    return getRegisterIndices(*layout, arith, ids.lane, ids.warp);
  return {};
}

Value mlir::tilegpu::emitSwizzledOffset(OpBuilder &builder, Location loc,
                                        const NVMMASharedLayout &layout,
                                        Value row, Value col) {
  IRIndexArith arith(builder, loc);
  return getSwizzledOffset(layout, arith, row, col);
}

Value mlir::tilegpu::linearizeIndex(OpBuilder &builder, Location loc,
                                    ArrayRef<Value> index,
                                    ArrayRef<int64_t> shape) {
  Value linear = createI32(builder, loc, 0);
  for (auto [value, size] : llvm::zip(index, shape)) {
    linear = LLVM::MulOp::create(builder, loc, linear,
                                 createI32(builder, loc, size));
    linear = LLVM::AddOp::create(builder, loc, linear, value);
  }
  return linear;
}
