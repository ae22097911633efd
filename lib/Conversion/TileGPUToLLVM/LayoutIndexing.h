//===- LayoutIndexing.h - Element indices of registers ----------*- C++ -*-===//
//
// The layout function emitted as IR: the lane and warp of the running
// thread and, for each register of a block, the index of the element it
// holds (the functions of LayoutUtils.h, computed at run time).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tilegpu {

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

/// `(value >> shift) & mask` on i32: a coordinate packed in a thread id.
Value shiftAnd(OpBuilder &builder, Location loc, Value value, unsigned shift,
               unsigned mask);

/// Row-major linear index of a block index with the given shape.
Value linearizeIndex(OpBuilder &builder, Location loc, ArrayRef<Value> index,
                     ArrayRef<int64_t> shape);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
