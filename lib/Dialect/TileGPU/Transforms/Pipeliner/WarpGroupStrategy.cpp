//===- WarpGroupStrategy.cpp - Rings read by warp-group dots --------------===//
//
// The wgmma read strategy of ring pipelining (RingPipeliner.h), sm_90a:
// warp-group dots read their tiles from shared memory themselves, so they
// run asynchronously: an accumulating dot (carried accumulator in, yielded
// result out) starts on this iteration's slot without waiting for itself,
// waiting instead for the previous iteration's dot. Once that wait is
// behind every warp, the slot the previous dot read is free: the next
// copies start there, after the body. After the loop, the last dots
// complete.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
class WarpGroupStrategy : public ReadStrategy {
public:
  void visitClone(RingBuilder &ring, Operation *op, Operation *clone) override {
    auto dot = dyn_cast<WarpGroupDotOp>(clone);
    if (!dot || !op->getResult(0).hasOneUse())
      return;
    auto acc = dyn_cast<BlockArgument>(cast<WarpGroupDotOp>(op).getAcc());
    OpOperand &use = *op->getResult(0).getUses().begin();
    if (!acc || acc.getOwner() != ring.loop.getBody() ||
        use.getOwner() != ring.loop.getBody()->getTerminator() ||
        use.getOperandNumber() + 1 != acc.getArgNumber())
      return;
    dot.setIsAsync(true);
    auto wait = WarpGroupDotWaitOp::create(ring.builder, ring.loc,
                                           dot.getType(), dot.getResult(),
                                           ring.builder.getI32IntegerAttr(1));
    ring.mapping.map(op->getResult(0), wait.getResult());
    asyncResults.push_back(use.getOperandNumber());
  }

  /// Every warp is done with the previous iteration's buffers once it
  /// waited for its dots: fetch into the one it read. With one warp group
  /// and cp.async, its wait said so already.
  void afterBody(RingBuilder &ring) override {
    if (getNumWarps(ring.loop) > 4 || ring.plan.hasTma)
      BarrierOp::create(ring.builder, ring.loc);
    ring.fetchAhead();
  }

  /// The last dots complete.
  void afterLoop(RingBuilder &ring, SmallVectorImpl<Value> &results) override {
    for (unsigned index : asyncResults)
      results[index] = WarpGroupDotWaitOp::create(
          ring.builder, ring.loc, results[index].getType(), results[index],
          ring.builder.getI32IntegerAttr(0));
  }

private:
  /// The old loop's results that asynchronous dots compute.
  SmallVector<unsigned> asyncResults;
};
} // namespace

std::unique_ptr<ReadStrategy> pipeliner::createWarpGroupStrategy() {
  return std::make_unique<WarpGroupStrategy>();
}
