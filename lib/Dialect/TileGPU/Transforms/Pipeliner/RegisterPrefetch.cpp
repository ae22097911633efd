//===- RegisterPrefetch.cpp - Dot operands loaded one iteration ahead -----===//
//
// The fallback scheme of tilegpu-pipeline: the global loads that feed a
// dot are issued one iteration ahead, into registers. The loop carries the
// loaded blocks; its body first issues the next iteration's loads (their
// addresses and masks recomputed for `iv + step`, guarded by
// `iv + step < ub`), then uses the carried ones. Iteration 0's loads move
// before the loop (guarded by `lb < ub`).
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

#include "tilec/Analysis/AccessWidth.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tilegpu-pipeline"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
/// What prefetching a loop's loads into registers needs.
struct PrefetchPlan {
  scf::ForOp loop;
  /// The dot-feeding loads, in program order.
  SmallVector<tile::LoadOp> loads;
  /// The body ops computing the loads' operands.
  SmallVector<Operation *> slice;
  /// The iter args the loads' operands depend on, and the body ops that
  /// compute their next values.
  SmallVector<unsigned> neededArgs;
  SmallVector<Operation *> advanceSlice;
};

/// Whether the next value of every iter arg in `plan.neededArgs` can be
/// computed ahead: by recomputable ops that do not read the loads.
LogicalResult planAdvance(PrefetchPlan &plan) {
  scf::ForOp loop = plan.loop;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> yielded;
  for (unsigned index : plan.neededArgs)
    yielded.push_back(yield.getOperand(index));
  FailureOr<SmallVector<Operation *>> advanceSlice = getSlice(loop, yielded);
  if (failed(advanceSlice))
    return failure();
  plan.advanceSlice = std::move(*advanceSlice);
  for (unsigned index : plan.neededArgs) {
    FailureOr<SmallVector<Operation *>> own =
        getSlice(loop, {yield.getOperand(index)});
    if (failed(own))
      return failure();
    for (Operation *op : *own)
      if (llvm::is_contained(plan.loads, op))
        return failure();
  }
  return success();
}

/// 32-bit registers a thread holds a value of `type` in: a block's
/// elements, two for 64-bit elements and pointers, narrower elements packed
/// (an estimate from below).
int64_t get32BitRegisters(Type type) {
  auto block = dyn_cast<RankedTensorType>(type);
  if (block && !hasRegisterLayout(block.getEncoding()))
    return 0;
  Type element = block ? block.getElementType() : type;
  int64_t bits =
      isa<tile::PointerType>(element) ? 64 : element.getIntOrFloatBitWidth();
  return llvm::divideCeil(int64_t(getNumRegisters(type)) * bits, 32);
}

/// 32-bit registers a thread holds the block that `load` reads in: packed
/// where it reads 32 bits or more at a time, else one per element (ptxas
/// gives each loaded 8- or 16-bit value a register of its own until it is
/// used; 128x64 f16 blocks read an element at a time hold 64, not 32).
int64_t getLoadedRegisters(tile::LoadOp load, const AxisInfoAnalysis &info) {
  auto block = cast<RankedTensorType>(load.getType());
  int64_t packed = get32BitRegisters(block);
  unsigned bits = block.getElementType().getIntOrFloatBitWidth();
  if (bits >= 32)
    return packed;
  std::optional<AccessVectorWidth> access =
      getAccessVectorWidth(info, load.getPtr());
  if (access && access->width * bits >= 32)
    return packed;
  return getNumRegisters(block);
}

/// Registers a thread has (sm_80 and sm_90).
constexpr int64_t kMaxRegistersPerThread = 255;

/// Whether the prefetched blocks fit beside what the loop carries: with
/// them, the loop keeps two iterations' loads live. Where the carried
/// blocks (accumulators, blocks of pointers) and the prefetched ones pass a
/// thread's registers, ptxas spills inside the loop (a 128x128 wgmma
/// accumulator and 128x64 blocks loaded one unaligned element at a time:
/// 4.6 KB of spills with the prefetch, 1.2 KB without), which costs more
/// than the prefetch hides.
bool prefetchFitsRegisters(PrefetchPlan &plan) {
  int64_t registers = 0;
  for (Value arg : plan.loop.getRegionIterArgs())
    registers += get32BitRegisters(arg.getType());
  // Blocks defined before the loop and read in it (a persistent kernel's
  // row offsets) stay live through it too; constants and splats are
  // immediates or one register.
  llvm::SmallPtrSet<Value, 8> liveIn;
  plan.loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()) ||
          plan.loop->isAncestor(operand.getParentBlock()->getParentOp()) ||
          operand.getDefiningOp<arith::ConstantOp>() ||
          operand.getDefiningOp<tile::SplatOp>())
        continue;
      if (liveIn.insert(operand).second)
        registers += get32BitRegisters(operand.getType());
    }
  });
  AxisInfoAnalysis info(plan.loop->getParentOfType<func::FuncOp>());
  for (tile::LoadOp load : plan.loads)
    registers += getLoadedRegisters(load, info);
  LLVM_DEBUG(llvm::dbgs() << "register prefetch: " << registers
                          << " registers carried\n");
  return registers <= kMaxRegistersPerThread;
}

/// The loads to prefetch and how to compute their operands ahead, or
/// failure.
FailureOr<PrefetchPlan> planPrefetch(scf::ForOp loop) {
  PrefetchPlan plan;
  plan.loop = loop;
  for (Operation &op : *loop.getBody())
    if (auto load = dyn_cast<tile::LoadOp>(op))
      if (isa<RankedTensorType>(load.getType()) && feedsDot(load))
        plan.loads.push_back(load);
  if (plan.loads.empty())
    return failure();
  // Operands of the loads, as functions of (iv, iter args).
  FailureOr<SmallVector<Operation *>> slice =
      getLoadSlice(loop, plan.loads, plan.neededArgs);
  if (failed(slice))
    return failure();
  plan.slice = std::move(*slice);
  if (failed(planAdvance(plan)) || !prefetchFitsRegisters(plan))
    return failure();
  return plan;
}

/// Clones the loads of `plan` (and the ops computing their operands) with
/// `mapping`, their masks and-ed with `guard`; returns the loaded blocks.
SmallVector<Value> cloneLoads(OpBuilder &builder, PrefetchPlan &plan,
                              IRMapping &mapping, Value guard) {
  SmallVector<Value> results;
  cloneSlice(builder, plan.slice, mapping, guard);
  for (tile::LoadOp load : plan.loads) {
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
}

/// The prologue: iteration 0's loads, before the loop, guarded by
/// `lb < ub`.
SmallVector<Value> loadFirstIteration(OpBuilder &builder, PrefetchPlan &plan) {
  scf::ForOp loop = plan.loop;
  IRMapping prologue;
  prologue.map(loop.getInductionVar(), loop.getLowerBound());
  for (auto [arg, init] :
       llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
    prologue.map(arg, init);
  Value runs =
      arith::CmpIOp::create(builder, loop.getLoc(), arith::CmpIPredicate::slt,
                            loop.getLowerBound(), loop.getUpperBound());
  return cloneLoads(builder, plan, prologue, runs);
}

/// At the top of the new loop's body: the next iteration's loads, their
/// addresses computed from the advanced iter args. `mapping` maps the old
/// loop's induction variable and iter args to the new loop's.
SmallVector<Value> loadNextIteration(OpBuilder &builder, PrefetchPlan &plan,
                                     scf::ForOp newLoop,
                                     const IRMapping &mapping) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  IRMapping next;
  Value nextIv = arith::AddIOp::create(builder, loc, newLoop.getInductionVar(),
                                       newLoop.getStep());
  next.map(loop.getInductionVar(), nextIv);
  if (!plan.neededArgs.empty()) {
    IRMapping advance = mapping;
    for (Operation *op : plan.advanceSlice)
      builder.clone(*op, advance);
    for (unsigned index : plan.neededArgs)
      next.map(loop.getRegionIterArgs()[index],
               advance.lookupOrDefault(yield.getOperand(index)));
  }
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
    if (!next.contains(loop.getRegionIterArgs()[i]))
      next.map(loop.getRegionIterArgs()[i], newLoop.getRegionIterArgs()[i]);
  Value more = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                     nextIv, newLoop.getUpperBound());
  return cloneLoads(builder, plan, next, more);
}

/// The loop rewrite: a loop that also carries the prefetched blocks, whose
/// body loads the next iteration's and uses the carried ones.
void rewriteLoop(OpBuilder &builder, PrefetchPlan &plan,
                 ArrayRef<Value> first) {
  scf::ForOp loop = plan.loop;
  Location loc = loop.getLoc();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
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
  SmallVector<Value> prefetched =
      loadNextIteration(builder, plan, newLoop, mapping);

  // The old body, with each load replaced by the carried block.
  for (auto [i, load] : llvm::enumerate(plan.loads))
    mapping.map(load.getResult(), newLoop.getRegionIterArgs()[numOld + i]);
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto load = dyn_cast<tile::LoadOp>(op))
      if (llvm::is_contained(plan.loads, load))
        continue;
    builder.clone(op, mapping);
  }
  SmallVector<Value> yieldValues;
  for (Value value : yield.getOperands())
    yieldValues.push_back(mapping.lookupOrDefault(value));
  yieldValues.append(prefetched.begin(), prefetched.end());
  scf::YieldOp::create(builder, yield.getLoc(), yieldValues);
  loop.replaceAllUsesWith(newLoop.getResults().take_front(numOld));
}
} // namespace

bool pipeliner::prefetchIntoRegisters(scf::ForOp loop) {
  FailureOr<PrefetchPlan> plan = planPrefetch(loop);
  if (failed(plan)) {
    LLVM_DEBUG(llvm::dbgs() << "no register prefetch for the loop at "
                            << loop.getLoc() << "\n");
    return false;
  }
  LLVM_DEBUG(llvm::dbgs() << "prefetching " << plan->loads.size()
                          << " loads into registers in the loop at "
                          << loop.getLoc() << "\n");
  OpBuilder builder(loop);
  SmallVector<Value> first = loadFirstIteration(builder, *plan);
  rewriteLoop(builder, *plan, first);
  loop.erase();
  return true;
}
