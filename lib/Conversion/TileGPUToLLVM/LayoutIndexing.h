//===- LayoutIndexing.h - Layout functions emitted as IR --------*- C++ -*-===//
//
// The layout functions of LayoutFunctions.h instantiated with an
// arithmetic that emits i32 LLVM ops: the lane and warp of the running
// thread, the index of the element each register of a block holds, the
// byte offset of an element of a swizzled shared-memory tile.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tilegpu {

/// Index arithmetic that emits i32 LLVM ops at the builder's insertion
/// point (the counterpart of IntIndexArith in LayoutFunctions.h).
class IRIndexArith {
public:
  using Value = mlir::Value;
  IRIndexArith(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}
  Value constant(int64_t value) const;
  Value add(Value a, Value b) const { return create<LLVM::AddOp>(a, b); }
  Value mul(Value a, Value b) const { return create<LLVM::MulOp>(a, b); }
  Value udiv(Value a, Value b) const { return create<LLVM::UDivOp>(a, b); }
  Value urem(Value a, Value b) const { return create<LLVM::URemOp>(a, b); }
  Value lshr(Value a, Value b) const { return create<LLVM::LShrOp>(a, b); }
  Value shl(Value a, Value b) const { return create<LLVM::ShlOp>(a, b); }
  Value bitAnd(Value a, Value b) const { return create<LLVM::AndOp>(a, b); }
  Value bitXor(Value a, Value b) const { return create<LLVM::XOrOp>(a, b); }

private:
  template <typename Op> Value create(Value a, Value b) const {
    return Op::create(builder, loc, a, b);
  }
  OpBuilder &builder;
  Location loc;
};

/// The lane (0..31) and warp ids of the running thread.
struct ThreadIds {
  Value lane;
  Value warp;
};
ThreadIds getThreadIds(OpBuilder &builder, Location loc);

/// For each register of a block of type `type` (its layout distributed),
/// the index of the element it holds, one i32 per block dimension.
SmallVector<SmallVector<Value>> emitIndices(OpBuilder &builder, Location loc,
                                            RankedTensorType type,
                                            const ThreadIds &ids);

/// Byte offset (i32) of element (row, col) of a swizzled tile: `row` along
/// the tile's other dimension, `col` along its contiguous one.
Value emitSwizzledOffset(OpBuilder &builder, Location loc,
                         const NVMMASharedLayout &layout, Value row, Value col);

/// Row-major linear index of a block index with the given shape.
Value linearizeIndex(OpBuilder &builder, Location loc, ArrayRef<Value> index,
                     ArrayRef<int64_t> shape);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
