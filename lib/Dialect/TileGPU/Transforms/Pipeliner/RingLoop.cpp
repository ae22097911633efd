//===- RingLoop.cpp - The pipelined loop ----------------------------------===//
//
// The loop-rewrite step of ring pipelining (RingPipeliner.h). The new loop
// carries the old iter args (less those only staged loads used), the fetch
// state, the read and fetch slots and what the copy strategies carry (the
// mbarriers' phase). Each iteration waits for its slot (copy strategies),
// maps each staged tile to its slot of the ring, clones the old body
// without the staged loads, and fetches `num_stages - 1` iterations ahead
// where the read strategy says the slot read last is free.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
/// Whether a loop from `lb` to `ub` may run no iteration (unless both are
/// constants, it may).
bool mayRunNoIteration(Value lb, Value ub) {
  APInt lower, upper;
  return !(matchPattern(lb, m_ConstantInt(&lower)) &&
           matchPattern(ub, m_ConstantInt(&upper)) && lower.slt(upper));
}

/// `(slot + 1) mod numStages`.
Value nextSlot(RingBuilder &ring, Value slot) {
  OpBuilder &builder = ring.builder;
  Value next =
      arith::AddIOp::create(builder, ring.loc, slot, ring.createI32(1));
  Value wraps =
      arith::CmpIOp::create(builder, ring.loc, arith::CmpIPredicate::eq, next,
                            ring.createI32(ring.plan.numStages));
  return arith::SelectOp::create(builder, ring.loc, wraps, ring.createI32(0),
                                 next);
}

/// The new loop's initial values; sets `ring.newIndex`. `extras` gets, per
/// copy strategy, where its own carried values start and how many.
SmallVector<Value>
buildInits(RingBuilder &ring,
           SmallVectorImpl<std::pair<unsigned, unsigned>> &extras) {
  scf::ForOp loop = ring.loop;
  unsigned numOld = loop.getNumRegionIterArgs();
  SmallVector<Value> inits;
  ring.newIndex.assign(numOld, -1);
  for (unsigned i = 0; i < numOld; ++i)
    if (!llvm::is_contained(ring.plan.dropped, i)) {
      ring.newIndex[i] = inits.size();
      inits.push_back(loop.getInitArgs()[i]);
    }
  inits.append(ring.fetchInits.begin(), ring.fetchInits.end());
  inits.push_back(ring.createI32(0));
  inits.push_back(ring.createI32(ring.plan.numStages - 1));
  for (CopyStrategy *strategy : ring.getCopyStrategies()) {
    unsigned begin = inits.size();
    strategy->addInits(ring, inits);
    extras.push_back({begin, unsigned(inits.size()) - begin});
  }
  return inits;
}

/// A loop that may run no iteration goes inside `if (lb < ub)`, so that
/// the final wait of its dots is not reached from the path that skips it,
/// where moves set the accumulators (ptxas serializes every wgmma of a
/// function when a non-wgmma instruction may write their accumulators
/// between a wgmma and its wait: warning C7515).
void createGuard(RingBuilder &ring) {
  scf::ForOp loop = ring.loop;
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound();
  if (!mayRunNoIteration(lb, ub))
    return;
  OpBuilder &builder = ring.builder;
  Value runs = arith::CmpIOp::create(builder, ring.loc,
                                     arith::CmpIPredicate::slt, lb, ub);
  ring.guard = scf::IfOp::create(builder, ring.loc, loop.getResultTypes(), runs,
                                 /*addThenBlock=*/true, /*addElseBlock=*/true);
  builder.setInsertionPointToStart(ring.guard.elseBlock());
  scf::YieldOp::create(builder, ring.loc, loop.getInitArgs());
  builder.setInsertionPointToStart(ring.guard.thenBlock());
}

/// Clones the old body into the new one, without the staged loads and
/// their allocs and the advances of dropped iter args.
void cloneBody(RingBuilder &ring) {
  scf::ForOp loop = ring.loop;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (Operation &op : loop.getBody()->without_terminator()) {
    bool isStaged = llvm::any_of(ring.plan.staged, [&](StagedLoad &s) {
      return &op == s.load.getOperation() || &op == s.alloc.getOperation();
    });
    bool isDroppedAdvance = llvm::any_of(ring.plan.dropped, [&](unsigned i) {
      return yield.getOperand(i).getDefiningOp() == &op;
    });
    if (isStaged || isDroppedAdvance)
      continue;
    Operation *clone = ring.builder.clone(op, ring.mapping);
    ring.reads->visitClone(ring, &op, clone);
  }
}

/// The yield of the new loop: the kept old values, the next fetch state,
/// slots and what the copy strategies carry.
void yieldNext(RingBuilder &ring) {
  scf::ForOp loop = ring.loop;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> yields;
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
    if (ring.newIndex[i] >= 0)
      yields.push_back(ring.mapping.lookupOrDefault(yield.getOperand(i)));
  yields.append(ring.nextFetchState.begin(), ring.nextFetchState.end());
  Value nextRead = nextSlot(ring, ring.readSlot);
  yields.push_back(nextRead);
  yields.push_back(nextSlot(ring, ring.fetchSlot));
  for (CopyStrategy *strategy : ring.getCopyStrategies())
    strategy->addYields(ring, nextRead, yields);
  scf::YieldOp::create(ring.builder, yield.getLoc(), yields);
}
} // namespace

void RingBuilder::fetchAhead() {
  Value iv = offsetIv(builder, loc, newLoop.getInductionVar(), loop.getStep(),
                      plan.numStages - 1);
  nextFetchState = fetch(iv, fetchState, fetchSlot);
}

void pipeliner::buildLoop(RingBuilder &ring) {
  scf::ForOp loop = ring.loop;
  OpBuilder &builder = ring.builder;
  SmallVector<std::pair<unsigned, unsigned>> extras;
  SmallVector<Value> inits = buildInits(ring, extras);
  createGuard(ring);
  ring.newLoop =
      scf::ForOp::create(builder, ring.loc, loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  ring.newLoop->setAttrs(loop->getAttrs());
  Block *newBody = ring.newLoop.getBody();
  if (!newBody->empty())
    newBody->back().erase();
  builder.setInsertionPointToStart(newBody);
  ValueRange newArgs = ring.newLoop.getRegionIterArgs();
  unsigned numKept =
      llvm::count_if(ring.newIndex, [](int i) { return i >= 0; });
  unsigned numCarried = ring.plan.carried.size();
  ring.fetchState.assign(newArgs.begin() + numKept,
                         newArgs.begin() + numKept + numCarried);
  ring.readSlot = newArgs[numKept + numCarried];
  ring.fetchSlot = newArgs[numKept + numCarried + 1];

  // This iteration's tiles have landed.
  for (auto [strategy, extra] : llvm::zip(ring.getCopyStrategies(), extras))
    strategy->waitForSlot(ring, newArgs.slice(extra.first, extra.second));
  ring.reads->beforeBody(ring);

  ring.mapping.map(loop.getInductionVar(), ring.newLoop.getInductionVar());
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
    if (ring.newIndex[i] >= 0)
      ring.mapping.map(loop.getRegionIterArgs()[i], newArgs[ring.newIndex[i]]);
  for (auto [s, buffers] : llvm::zip(ring.plan.staged, ring.rings))
    ring.mapping.map(s.alloc.getResult(),
                     MemDescIndexOp::create(builder, ring.loc,
                                            s.alloc.getType(), buffers,
                                            ring.readSlot));
  cloneBody(ring);
  ring.reads->afterBody(ring);
  yieldNext(ring);
}
