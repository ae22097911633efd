//===- Pipeliner.h - The two software-pipelining schemes --------*- C++ -*-===//
//
// tilegpu-pipeline (SoftwarePipeliner.cpp) overlaps the global loads that
// feed a loop's dots with the work of earlier iterations, in one of two
// ways: through rings of `num_stages` shared buffers filled asynchronously
// `num_stages - 1` iterations ahead (RingPipeliner.h), or, where a loop
// cannot be pipelined that way, by prefetching the loads into registers one
// iteration ahead (RegisterPrefetch.cpp). This header declares the two
// entry points and the loop helpers they share (LoopSlices.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_PIPELINER_H
#define TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_PIPELINER_H

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace mlir::tilegpu::pipeliner {
/// Pipelines `loop` through rings of shared buffers `numStages` deep when
/// every dot-feeding load of it is staged in shared memory (for a
/// warp-group dot, or, staged here, for mma.sync through local_load) and
/// can be copied asynchronously; returns whether it did (and left `loop` as
/// it was if not). With `useTma`, loads that are boxes of a tensor are
/// copied by the copy engine (TMA).
bool pipelineThroughRings(scf::ForOp loop, int64_t numStages, bool useTma);

/// Prefetches the dot-feeding loads of `loop` into registers one iteration
/// ahead; returns whether it did.
bool prefetchIntoRegisters(scf::ForOp loop);

/// Whether `value` (transitively through conversions and shared-memory
/// staging) feeds a dot.
bool feedsDot(Value value);

/// The ops of `loop`'s body that `values` depend on, in program order;
/// fails if the slice reaches something that cannot be recomputed (an op
/// with side effects or regions; with `allowLoads`, global loads are
/// recomputed too: an address read from memory, a page table's entry).
FailureOr<SmallVector<Operation *>>
getSlice(scf::ForOp loop, ArrayRef<Value> values, bool allowLoads = false);

/// Clones `slice` (getSlice's ops) with `mapping` for an iteration that
/// exists where `guard` (a scalar i1) holds: the loads among them are
/// masked by it, so that an iteration past the end reads nothing.
void cloneSlice(OpBuilder &builder, ArrayRef<Operation *> slice,
                IRMapping &mapping, Value guard);

/// The ops of `loop`'s body computing the operands of `loads` (getSlice,
/// loads allowed: clone them with cloneSlice); appends to `iterArgs` the
/// positions of the iter args those ops and the loads use, each once, in
/// program order.
FailureOr<SmallVector<Operation *>>
getLoadSlice(scf::ForOp loop, ArrayRef<tile::LoadOp> loads,
             SmallVectorImpl<unsigned> &iterArgs);

/// The position of `value` among `loop`'s iter args, if it is one.
std::optional<unsigned> getIterArgIndex(scf::ForOp loop, Value value);

/// Appends to `indices` the positions of the iter args that `op` uses
/// directly, each once.
void addUsedIterArgs(scf::ForOp loop, Operation *op,
                     SmallVectorImpl<unsigned> &indices);

/// A mapping of `loop`'s induction variable to `iv` and of its iter args
/// `indices` to `values`.
IRMapping mapIteration(scf::ForOp loop, Value iv, ArrayRef<unsigned> indices,
                       ArrayRef<Value> values);

/// `mask && cond` (cond a scalar i1), creating the mask if there is none.
Value guardMask(OpBuilder &builder, Location loc, Value mask, Value cond,
                RankedTensorType ptrType);
} // namespace mlir::tilegpu::pipeliner

#endif // TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_PIPELINER_H
