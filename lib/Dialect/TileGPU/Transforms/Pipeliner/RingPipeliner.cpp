//===- RingPipeliner.cpp - Running the steps of ring pipelining -----------===//
//
// Stages the loop's mma.sync operands (or, in a loop without dots that asks
// for pipelining, its loads), plans, picks the strategies and runs the
// prologue, loop-rewrite and epilogue steps (RingPipeliner.h); a loop that
// cannot be pipelined this way gets its staging undone.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tilegpu-pipeline"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

RingBuilder::RingBuilder(RingPlan &plan)
    : plan(plan), loop(plan.loop), builder(plan.loop), loc(plan.loop.getLoc()) {
  if (plan.hasCopies)
    cpAsync = createCpAsyncStrategy();
  if (plan.hasTma)
    tma = createTmaStrategy();
  reads = plan.hasWarpGroupDots ? createWarpGroupStrategy()
                                : createMmaSyncStrategy();
}

Value RingBuilder::createI32(int64_t value) {
  return arith::ConstantOp::create(builder, loc,
                                   builder.getI32IntegerAttr(value));
}

SmallVector<CopyStrategy *, 2> RingBuilder::getCopyStrategies() {
  SmallVector<CopyStrategy *, 2> strategies;
  for (CopyStrategy *strategy : {cpAsync.get(), tma.get()})
    if (strategy)
      strategies.push_back(strategy);
  return strategies;
}

CopyStrategy &RingBuilder::getCopyStrategy(const StagedLoad &staged) {
  return staged.tma ? *tma : *cpAsync;
}

bool pipeliner::pipelineThroughRings(scf::ForOp loop, int64_t numStages,
                                     bool useTma) {
  if (numStages < 2 || !loop.getInductionVar().getType().isInteger(32) ||
      !loop->getParentOfType<func::FuncOp>())
    return false;
  LLVM_DEBUG(llvm::dbgs() << "ring pipelining (" << numStages
                          << " stages) of the loop at " << loop.getLoc()
                          << "\n");
  SmallVector<MmaSyncStaging> mmaSync = stageMmaSyncOperands(loop);
  SmallVector<LoadStaging> plain = stageLoadsWithoutDots(loop, numStages);
  FailureOr<RingPlan> plan = planRing(loop, numStages, useTma);
  if (failed(plan)) {
    LLVM_DEBUG(llvm::dbgs() << "  not possible; " << mmaSync.size()
                            << " mma.sync operand stagings and " << plain.size()
                            << " load stagings undone\n");
    unstageMmaSyncOperands(mmaSync);
    unstageLoads(plain);
    return false;
  }
  LLVM_DEBUG(llvm::dbgs() << "  " << plan->staged.size() << " staged loads, "
                          << plan->carried.size() << " carried iter args, "
                          << plan->dropped.size() << " dropped, read by "
                          << (plan->hasWarpGroupDots ? "wgmma" : "mma.sync")
                          << "\n");
  RingBuilder ring(*plan);
  buildPrologue(ring);
  buildLoop(ring);
  buildEpilogue(ring);
  return true;
}
