//===- CombineRegion.h - A user's combine function on scalars ---*- C++ -*-===//
//
// The combine region of tile.scan and tile.combine_reduce, emitted on
// scalar registers wherever their lowerings combine two partial results.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_COMBINEREGION_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_COMBINEREGION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Region.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::tilegpu {

/// Combines the partial values `earlier` (one per source, earlier along the
/// axis) with `later` into one per source.
using CombineFn = llvm::function_ref<SmallVector<Value>(ArrayRef<Value> earlier,
                                                        ArrayRef<Value> later)>;

/// Clones the ops of `region` (a combine region: 2n scalar arguments, ends
/// with tile.combine_yield) at the builder's insertion point, its arguments
/// bound to `earlier` then `later`; returns the yielded values. The clones
/// are legalized by the dialect conversion that calls this.
SmallVector<Value> emitCombineRegion(OpBuilder &builder, Region &region,
                                     ArrayRef<Value> earlier,
                                     ArrayRef<Value> later);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_COMBINEREGION_H
