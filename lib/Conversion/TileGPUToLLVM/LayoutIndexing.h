//===- LayoutIndexing.h - Layout functions emitted as IR --------*- C++ -*-===//
//
// Linear layouts (LinearLayoutConversions.h) emitted as i32 LLVM ops: the
// lane and warp of the running thread, the index of the element each
// register of a block holds, the byte offset of an element of a swizzled
// shared-memory tile.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tilegpu {

/// The lane (0..31) and warp ids of the running thread.
struct ThreadIds {
  Value lane;
  Value warp;
};
ThreadIds getThreadIds(OpBuilder &builder, Location loc);

/// An emitted output of a linear layout: its value (null when it is 0) and
/// the bits it can have set.
struct EmittedBits {
  Value value;
  uint64_t bits = 0;
};

/// The outputs of `layout` for run-time values of its inputs (one i32 per
/// input, in order; a null value stands for 0).
SmallVector<EmittedBits> emitLinearMap(OpBuilder &builder, Location loc,
                                       const LinearLayout &layout,
                                       ArrayRef<Value> inputs);

/// `value` XOR `constant` as i32: an add when their bits are disjoint.
Value addConstantBits(OpBuilder &builder, Location loc,
                      const EmittedBits &value, int64_t constant);

/// For each register of a block of type `type` (its layout distributed),
/// the index of the element it holds, one i32 per block dimension.
SmallVector<SmallVector<Value>> emitIndices(OpBuilder &builder, Location loc,
                                            RankedTensorType type,
                                            const ThreadIds &ids);

/// Byte offset (i32) of element (row, col) of a swizzled tile: `row` along
/// the tile's other dimension, `col` along its contiguous one.
Value emitSwizzledOffset(OpBuilder &builder, Location loc,
                         const NVMMASharedLayout &layout, Value row, Value col);

/// For each register of a block of type `type` (its layout distributed, its
/// shape the tile's), the byte offset of its element in a swizzled tile: one
/// thread-dependent value plus a per-register constant (an add, which
/// becomes an address immediate, wherever the constant's bits are not the
/// thread part's; an XOR elsewhere). Empty if `type` has no linear layout.
SmallVector<Value> emitSwizzledOffsets(OpBuilder &builder, Location loc,
                                       RankedTensorType type,
                                       const NVMMASharedLayout &layout,
                                       const ThreadIds &ids);

/// For a value of `type` (a scalar, which every thread holds, or a block
/// whose layout may hold copies), whether this thread owns each register:
/// thread 0 for a scalar; for a block, the thread whose lane and warp bits
/// of zero basis are 0, and no thread for a register that repeats an
/// earlier one. One predicate per register; null where every copy is owned
/// (one null for a block without a linear layout).
SmallVector<Value> getOwnerPredicates(OpBuilder &builder, Location loc,
                                      Type type);

/// `a && b` for i1 masks where a null one means true (null when both are).
Value andMasks(OpBuilder &builder, Location loc, Value a, Value b);

/// Row-major linear index of a block index with the given shape.
Value linearizeIndex(OpBuilder &builder, Location loc, ArrayRef<Value> index,
                     ArrayRef<int64_t> shape);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
