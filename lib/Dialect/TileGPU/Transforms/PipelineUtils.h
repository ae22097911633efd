//===- PipelineUtils.h - Shared by the two pipelining schemes ---*- C++ -*-===//
//
// tilegpu-pipeline prefetches a loop's dot-feeding loads either into
// registers one iteration ahead (Pipeline.cpp) or, for operands staged in
// swizzled shared memory for wgmma, with asynchronous copies num_stages - 1
// iterations ahead into a ring of shared buffers (AsyncPipeline.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINEUTILS_H
#define TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINEUTILS_H

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tilegpu {
/// Whether `value` (transitively through conversions and shared-memory
/// staging) feeds a dot.
bool feedsDot(Value value);

/// The ops of `loop`'s body that `values` depend on, in program order;
/// fails if the slice reaches something that cannot be recomputed (an op
/// with side effects or regions).
FailureOr<SmallVector<Operation *>> getSlice(scf::ForOp loop,
                                             ArrayRef<Value> values);

/// `mask && cond` (cond a scalar i1), creating the mask if there is none.
Value guardMask(OpBuilder &builder, Location loc, Value mask, Value cond,
                RankedTensorType ptrType);

/// Pipelines `loop` with asynchronous copies `numStages - 1` iterations
/// ahead when every dot-feeding load of it is staged in shared memory (for
/// a warp-group dot, or, staged here, for mma.sync through local_load) and
/// copyable that way; returns whether it did (and left `loop` as it was if
/// not). With `useTma`, loads that are boxes of a tensor are copied by the
/// copy engine (TMA).
bool pipelineWithAsyncCopies(scf::ForOp loop, int64_t numStages, bool useTma);
} // namespace mlir::tilegpu

#endif // TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINEUTILS_H
