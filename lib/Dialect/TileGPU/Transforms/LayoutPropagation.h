//===- LayoutPropagation.h - Moving blocks into another layout --*- C++ -*-===//
//
// The core of tilegpu-remove-layout-conversions: give a block a new layout
// and let it flow forward to every value that can follow it (elementwise
// ops, reductions, expand_dims, broadcast, loop-carried and yielded
// values), then keep the change only if the conversions it leaves and the
// registers it takes cost less than before.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTPROPAGATION_H
#define TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTPROPAGATION_H

#include "mlir/IR/Value.h"

namespace mlir::tilegpu {

/// Gives `seed` the layout `layout` and propagates it forward through the
/// users that can compute in it (see LayoutPropagation.cpp for the ops and
/// the cost model). The IR changes only when the conversions left at the
/// edges of the propagated region and the registers of the retyped blocks
/// cost less (bytes, weighted by loop nesting) than before. Returns whether
/// it changed the IR.
bool propagateLayout(Value seed, Attribute layout);

/// Whether the lowering can compute `op` with a result in `layout`
/// (elementwise ops in any register layout; reductions, expand_dims and
/// broadcast in blocked and slice layouts only: ReduceOpToLLVM.cpp and
/// ShapeOpToLLVM.cpp are written for those).
bool canComputeIn(Operation *op, Attribute layout);

/// Whether `op` computes one block element by element without side effects
/// (arith, math, casts, `where`, `addptr`): it computes in any layout its
/// operands share.
bool isPureElementwise(Operation *op);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_LAYOUTPROPAGATION_H
