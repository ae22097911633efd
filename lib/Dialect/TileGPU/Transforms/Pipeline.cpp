//===- Pipeline.cpp - tilegpu-pipeline ------------------------------------===//
//
// Prefetches the global loads that feed a dot one iteration ahead: the
// loop carries the loaded blocks, the body issues the next iteration's
// loads before using the current ones.
//
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

bool mlir::tilegpu::feedsDot(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<tile::DotOp, WarpGroupDotOp>(user))
      return true;
    if (isa<ConvertLayoutOp, LocalAllocOp, LocalLoadOp, MemDescTransOp>(user) &&
        feedsDot(user->getResult(0)))
      return true;
  }
  return false;
}

FailureOr<SmallVector<Operation *>>
mlir::tilegpu::getSlice(scf::ForOp loop, ArrayRef<Value> values) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(values);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody() || slice.contains(def))
      continue;
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return failure();
    slice.insert(def);
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

Value mlir::tilegpu::guardMask(OpBuilder &builder, Location loc, Value mask,
                               Value cond, RankedTensorType ptrType) {
  auto maskType = RankedTensorType::get(ptrType.getShape(), builder.getI1Type(),
                                        ptrType.getEncoding());
  Value splat = tile::SplatOp::create(builder, loc, maskType, cond);
  if (!mask)
    return splat;
  return arith::AndIOp::create(builder, loc, mask, splat);
}

namespace {
/// Pipelines the dot-feeding loads of `loop`; returns whether it did.
bool pipelineLoop(scf::ForOp loop) {
  SmallVector<tile::LoadOp> loads;
  for (Operation &op : *loop.getBody())
    if (auto load = dyn_cast<tile::LoadOp>(op))
      if (isa<RankedTensorType>(load.getType()) && feedsDot(load))
        loads.push_back(load);
  if (loads.empty())
    return false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());

  // Operands of the loads, as functions of (iv, iter args).
  SmallVector<Value> roots;
  for (tile::LoadOp load : loads)
    for (Value operand : load->getOperands())
      roots.push_back(operand);
  FailureOr<SmallVector<Operation *>> slice = getSlice(loop, roots);
  if (failed(slice))
    return false;
  // Iter args the loads depend on must be advanced by recomputable ops.
  llvm::SmallDenseSet<unsigned> neededArgs;
  for (Operation *op : *slice)
    for (Value operand : op->getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand))
        if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
          neededArgs.insert(arg.getArgNumber() - 1);
  for (tile::LoadOp load : loads)
    for (Value operand : load->getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand))
        if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
          neededArgs.insert(arg.getArgNumber() - 1);
  // The next iteration's values of those iter args, as functions of this
  // iteration's.
  SmallVector<Value> yielded;
  for (unsigned index : neededArgs)
    yielded.push_back(yield.getOperand(index));
  FailureOr<SmallVector<Operation *>> yieldSlice = getSlice(loop, yielded);
  if (failed(yieldSlice))
    return false;
  for (unsigned index : neededArgs) {
    // The advanced value must not depend on the loads themselves.
    FailureOr<SmallVector<Operation *>> own =
        getSlice(loop, {yield.getOperand(index)});
    if (failed(own))
      return false;
    for (Operation *op : *own)
      if (llvm::is_contained(loads, op))
        return false;
  }

  Location loc = loop.getLoc();
  OpBuilder builder(loop);
  auto cloneLoads = [&](IRMapping &mapping, Value guard) {
    SmallVector<Value> results;
    for (Operation *op : *slice)
      builder.clone(*op, mapping);
    for (tile::LoadOp load : loads) {
      Value ptr = mapping.lookupOrDefault(load.getPtr());
      Value mask =
          load.getMask() ? mapping.lookupOrDefault(load.getMask()) : Value();
      Value other =
          load.getOther() ? mapping.lookupOrDefault(load.getOther()) : Value();
      Value guarded = guardMask(builder, load.getLoc(), mask, guard,
                                cast<RankedTensorType>(ptr.getType()));
      if (!other)
        other = arith::ConstantOp::create(
            builder, load.getLoc(),
            cast<TypedAttr>(builder.getZeroAttr(load.getType())));
      auto clone =
          tile::LoadOp::create(builder, load.getLoc(), ptr, guarded, other);
      clone->setDiscardableAttrs(load->getDiscardableAttrDictionary());
      results.push_back(clone);
    }
    return results;
  };

  // Iteration 0's loads, before the loop.
  IRMapping prologue;
  prologue.map(loop.getInductionVar(), loop.getLowerBound());
  for (auto [arg, init] :
       llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
    prologue.map(arg, init);
  Value runs =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                            loop.getLowerBound(), loop.getUpperBound());
  SmallVector<Value> first = cloneLoads(prologue, runs);

  // The new loop carries the prefetched blocks.
  SmallVector<Value> inits(loop.getInitArgs());
  inits.append(first.begin(), first.end());
  auto newLoop =
      scf::ForOp::create(builder, loc, loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  Block *body = newLoop.getBody();
  if (!body->empty())
    body->back().erase();
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), newLoop.getInductionVar());
  unsigned numOld = loop.getNumRegionIterArgs();
  for (unsigned i = 0; i < numOld; ++i)
    mapping.map(loop.getRegionIterArgs()[i], newLoop.getRegionIterArgs()[i]);
  builder.setInsertionPointToStart(body);

  // Next iteration's loads first: addresses from the advanced iter args.
  IRMapping next;
  Value nextIv = arith::AddIOp::create(builder, loc, newLoop.getInductionVar(),
                                       newLoop.getStep());
  next.map(loop.getInductionVar(), nextIv);
  if (!neededArgs.empty()) {
    IRMapping advance = mapping;
    for (Operation *op : *yieldSlice)
      builder.clone(*op, advance);
    for (unsigned index : neededArgs)
      next.map(loop.getRegionIterArgs()[index],
               advance.lookupOrDefault(yield.getOperand(index)));
  }
  for (unsigned i = 0; i < numOld; ++i)
    if (!next.contains(loop.getRegionIterArgs()[i]))
      next.map(loop.getRegionIterArgs()[i], newLoop.getRegionIterArgs()[i]);
  Value more = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                     nextIv, newLoop.getUpperBound());
  SmallVector<Value> prefetched = cloneLoads(next, more);

  // The old body, with each load replaced by the carried block.
  for (auto [i, load] : llvm::enumerate(loads))
    mapping.map(load.getResult(), newLoop.getRegionIterArgs()[numOld + i]);
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto load = dyn_cast<tile::LoadOp>(op))
      if (llvm::is_contained(loads, load))
        continue;
    builder.clone(op, mapping);
  }
  SmallVector<Value> yieldValues;
  for (Value value : yield.getOperands())
    yieldValues.push_back(mapping.lookupOrDefault(value));
  yieldValues.append(prefetched.begin(), prefetched.end());
  scf::YieldOp::create(builder, yield.getLoc(), yieldValues);

  loop.replaceAllUsesWith(newLoop.getResults().take_front(numOld));
  loop.erase();
  return true;
}

/// The pipelining depth asked for `loop`: its own `tile.num_stages`, else
/// the enclosing kernel's.
int64_t getNumStages(scf::ForOp loop) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>(tile::kNumStagesAttrName))
    return attr.getInt();
  if (auto func = loop->getParentOfType<func::FuncOp>())
    if (auto attr = func->getAttrOfType<IntegerAttr>(tile::kNumStagesAttrName))
      return attr.getInt();
  return 3;
}

struct PipelinePass : mlir::tilegpu::impl::TileGPUPipelineBase<PipelinePass> {
  using TileGPUPipelineBase::TileGPUPipelineBase;
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (getNumStages(loop) >= 2)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (!pipelineWithAsyncCopies(loop, getNumStages(loop), tma))
        pipelineLoop(loop);
  }
};
} // namespace
