//===- LoadStaging.cpp - Staging the loads of loops without dots ----------===//
//
// A loop that asks for its own pipelining depth (`tl.range(...,
// num_stages=)`, the loop's `tile.num_stages`) and has no dot gets its
// loads pipelined too, as Triton does: a row loop of a persistent softmax
// keeps the next rows' loads in flight while it reduces this one. Each
// load that cp.async can copy (runs of 4 bytes or more, masks uniform over
// each run) and whose address the loop can compute ahead (from its
// induction variable, iter args and loads: a gather's index block is
// loaded again for the iteration fetched, and is not staged itself) is
// staged the way the ring pipeliner reads tiles (RingPipeliner.h):
//
//   load(p, m) -> local_alloc (row-major) -> local_load (the load's layout)
//              [-> select(m, ., other)]
//
// The thread that copies an element is the one that reads it back (both
// sides have the load's layout), so the tile is row-major, unswizzled. A
// masked-off copy writes zero; a nonzero `other` comes back through the
// select. The rings of all staged loads must fit in kRingBudgetBytes: the
// smallest loads are staged while rings of 2 tiles fit, then the pipeline
// is as deep as asked or as fits. Loops with nested loops are left alone (outer
// loops are not pipelined, as in Triton).
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "tilec/Analysis/AccessWidth.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tilegpu-pipeline"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
/// The most shared memory the rings of one loop's staged loads may take
/// (the rest of the 227 KB of an H100's block, 163 KB of an A100's, stays
/// for reductions, conversions and other loops).
constexpr int64_t kRingBudgetBytes = 96 * 1024;

/// Whether `loop` asks for pipelining itself and has neither dots nor
/// nested loops.
bool stagesLoadsWithoutDots(scf::ForOp loop) {
  if (!loop->hasAttr(tile::kNumStagesAttrName))
    return false;
  WalkResult result = loop.getBody()->walk([](Operation *op) {
    if (isa<tile::DotOp, WarpGroupDotOp, LoopLikeOpInterface>(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The ops computing `load`'s address and mask, if `load` (an op of
/// `loop`'s body) can be staged: a block of numbers in a distributed layout
/// that cp.async can copy, with addresses and mask the loop can compute for
/// another iteration (from its induction variable, iter args and loads).
FailureOr<SmallVector<Operation *>>
getStageableSlice(scf::ForOp loop, tile::LoadOp load,
                  const AxisInfoAnalysis &info) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() == 0 || !getDistributedLayout(type))
    return failure();
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1) ||
      !isCpAsyncCopyable(load, info))
    return failure();
  SmallVector<Value> operands{load.getPtr()};
  if (Value mask = load.getMask())
    operands.push_back(mask);
  return getSlice(loop, operands, /*allowLoads=*/true);
}

/// The bytes one tile of `type` takes in shared memory.
int64_t getTileBytes(RankedTensorType type) {
  return type.getNumElements() * getSharedElementBytes(type.getElementType());
}

/// Replaces `load` by its staged form.
LoadStaging stage(tile::LoadOp load) {
  OpBuilder builder(load);
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  LoadStaging s;
  s.other = load.getOther();
  s.load = tile::LoadOp::create(builder, loc, load.getPtr(), load.getMask());
  s.load->setDiscardableAttrs(load->getDiscardableAttrDictionary());
  auto tile = MemDescType::get(
      load.getContext(), type.getShape(), type.getElementType(),
      getRowMajorSharedLayout(load.getContext(), type.getRank()));
  s.alloc = LocalAllocOp::create(builder, loc, tile, s.load.getResult(),
                                 IntegerAttr());
  s.local = LocalLoadOp::create(builder, loc, type, s.alloc);
  Value result = s.local;
  if (load.getMask() && !isZeroOrAbsent(s.other)) {
    s.select =
        arith::SelectOp::create(builder, loc, load.getMask(), result, s.other);
    result = s.select;
  }
  load.replaceAllUsesWith(result);
  load.erase();
  return s;
}
} // namespace

SmallVector<LoadStaging> pipeliner::stageLoadsWithoutDots(scf::ForOp loop,
                                                          int64_t &numStages) {
  if (numStages < 2 || !stagesLoadsWithoutDots(loop))
    return {};
  AxisInfoAnalysis info(loop->getParentOfType<func::FuncOp>());
  // Each stageable load and the ops computing its address; a load among
  // another's (an index block a gather reads through) is loaded again by
  // the fetch for the iteration it fetches, so it is not staged itself.
  SmallVector<std::pair<tile::LoadOp, SmallVector<Operation *>>> stageable;
  for (Operation &op : *loop.getBody())
    if (auto load = dyn_cast<tile::LoadOp>(op))
      if (FailureOr<SmallVector<Operation *>> slice =
              getStageableSlice(loop, load, info);
          succeeded(slice))
        stageable.push_back({load, std::move(*slice)});
  SmallVector<tile::LoadOp> candidates;
  for (auto &entry : stageable) {
    Operation *loadOp = entry.first.getOperation();
    if (llvm::none_of(stageable, [&](auto &other) {
          return llvm::is_contained(other.second, loadOp);
        }))
      candidates.push_back(entry.first);
  }
  // The smallest first, while a ring of two tiles each still fits; then as
  // many stages as fit, up to the depth asked for.
  auto bytesOf = [](tile::LoadOp load) {
    return getTileBytes(cast<RankedTensorType>(load.getType()));
  };
  llvm::stable_sort(candidates, [&](tile::LoadOp a, tile::LoadOp b) {
    return bytesOf(a) < bytesOf(b);
  });
  SmallVector<tile::LoadOp> loads;
  int64_t bytes = 0;
  for (tile::LoadOp load : candidates) {
    if (2 * (bytes + bytesOf(load)) > kRingBudgetBytes) {
      LLVM_DEBUG(llvm::dbgs() << "  load at " << load.getLoc()
                              << ": its ring does not fit\n");
      continue;
    }
    bytes += bytesOf(load);
    loads.push_back(load);
  }
  if (loads.empty())
    return {};
  int64_t stages = numStages;
  while (stages > 2 && stages * bytes > kRingBudgetBytes)
    --stages;
  numStages = stages;
  SmallVector<LoadStaging> staged;
  for (tile::LoadOp load : loads)
    staged.push_back(stage(load));
  LLVM_DEBUG(llvm::dbgs() << "  " << staged.size() << " loads staged (no dot), "
                          << numStages << " stages\n");
  return staged;
}

void pipeliner::unstageLoads(MutableArrayRef<LoadStaging> staged) {
  for (LoadStaging &s : staged) {
    Operation *last = s.select ? s.select.getOperation() : s.local;
    OpBuilder builder(last);
    auto load = tile::LoadOp::create(builder, s.load.getLoc(), s.load.getPtr(),
                                     s.load.getMask(), s.other);
    load->setDiscardableAttrs(s.load->getDiscardableAttrDictionary());
    last->getResult(0).replaceAllUsesWith(load.getResult());
    if (s.select)
      s.select.erase();
    s.local.erase();
    s.alloc.erase();
    s.load.erase();
  }
}
