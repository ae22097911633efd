//===- WarpGroupStrategy.cpp - Rings read by warp-group dots --------------===//
//
// The wgmma read strategy of ring pipelining (RingPipeliner.h), sm_90a:
// warp-group dots read their tiles from shared memory themselves, so they
// may run asynchronously. A dot whose result only leaves the iteration
// (its one use is the yield) runs on after it:
//  - an accumulating dot (carried accumulator in, its own iter arg's next
//    value out; matmul) starts on this iteration's slot waiting for the
//    previous iteration's dot, not for itself;
//  - any other (attention's O = P V + f(O)) is waited for in the next
//    iteration, just before its value is first used, so that it overlaps
//    the end of its iteration and the start of the next.
// The next copies go into the slot the previous iteration read, once
// every warp is done with it: without asynchronous dots, right after the
// barrier that follows the wait for this iteration's slot (before the
// body, overlapping all of it); with accumulating dots, after the body;
// with the others, after the first wait in the body that completes the
// previous iteration's dots (a synchronous dot's or their own) and a
// barrier -- unless the block's shared memory leaves room for no other
// block on the SM: then at the body's end, after the deferred dots start,
// so that the barrier's wait overlaps their tensor-core work, which no
// other block's would fill (bench/RESULTS.md, session 17). After the loop,
// the last dots complete.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Support/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
/// Whether `dot`, a warp-group dot of `loop`'s body, accumulates into a
/// carried value alone (its accumulator is an iter arg, its only use the
/// yield of that iter arg's next value).
bool isCarriedAccumulation(scf::ForOp loop, WarpGroupDotOp dot) {
  if (!dot->getResult(0).hasOneUse())
    return false;
  auto acc = dyn_cast<BlockArgument>(dot.getAcc());
  OpOperand &use = *dot->getResult(0).getUses().begin();
  return acc && acc.getOwner() == loop.getBody() &&
         use.getOwner() == loop.getBody()->getTerminator() &&
         use.getOperandNumber() + 1 == acc.getArgNumber();
}

/// The iter arg that `dot`'s result becomes if its one use is the yield of
/// `loop` (and it is not a carried accumulation).
std::optional<unsigned> getDeferredIterArg(scf::ForOp loop,
                                           WarpGroupDotOp dot) {
  if (!dot->getResult(0).hasOneUse() || isCarriedAccumulation(loop, dot))
    return std::nullopt;
  OpOperand &use = *dot->getResult(0).getUses().begin();
  if (use.getOwner() != loop.getBody()->getTerminator())
    return std::nullopt;
  return use.getOperandNumber();
}

/// Whether the shared memory `loop`'s kernel allocates so far (its rings
/// included) leaves room for no second block on an sm_90a SM, the only
/// target of warp-group dots.
bool isAloneOnSM(scf::ForOp loop) {
  auto func = loop->getParentOfType<func::FuncOp>();
  if (!func)
    return false;
  int64_t bytes = 0;
  func.walk([&](LocalAllocOp alloc) {
    bytes += getSharedBufferBytes(alloc.getType());
  });
  tilec::Target::SMLimits limits = tilec::Target::forDevice(9, 0).getSMLimits();
  return 2 * (bytes + limits.sharedPerBlockReserve) > limits.sharedBytes;
}

/// The op of `block` that is or holds `op`.
Operation *getAncestorIn(Block *block, Operation *op) {
  while (op && op->getBlock() != block)
    op = op->getParentOp();
  return op;
}

class WarpGroupStrategy : public ReadStrategy {
public:
  void beforeBody(RingBuilder &ring) override {
    bool accumulates = false;
    for (auto dot : ring.loop.getBody()->getOps<WarpGroupDotOp>()) {
      accumulates |= isCarriedAccumulation(ring.loop, dot);
      if (std::optional<unsigned> index = getDeferredIterArg(ring.loop, dot))
        deferredArgs.push_back(*index);
    }
    // Accumulating dots: the fetch waits for the body's end (afterBody).
    // Deferred dots: it waits for their completion (afterBody places it).
    if (accumulates) {
      placement = Placement::AfterBody;
      deferredArgs.clear();
      return;
    }
    if (!deferredArgs.empty()) {
      placement = Placement::AfterFirstWait;
      return;
    }
    placement = Placement::BeforeBody;
    if (!ring.plan.hasCopies)
      BarrierOp::create(ring.builder, ring.loc);
    ring.fetchAhead();
  }

  void visitClone(RingBuilder &ring, Operation *op, Operation *clone) override {
    auto dot = dyn_cast<WarpGroupDotOp>(clone);
    if (!dot)
      return;
    auto oldDot = cast<WarpGroupDotOp>(op);
    if (placement == Placement::AfterBody &&
        isCarriedAccumulation(ring.loop, oldDot)) {
      OpOperand &use = *op->getResult(0).getUses().begin();
      dot.setIsAsync(true);
      auto wait = WarpGroupDotWaitOp::create(ring.builder, ring.loc,
                                             dot.getType(), dot.getResult(),
                                             ring.builder.getI32IntegerAttr(1));
      ring.mapping.map(op->getResult(0), wait.getResult());
      asyncResults.push_back(use.getOperandNumber());
      return;
    }
    if (placement != Placement::AfterFirstWait)
      return;
    std::optional<unsigned> index = getDeferredIterArg(ring.loop, oldDot);
    if (index && llvm::is_contained(deferredArgs, *index)) {
      dot.setIsAsync(true);
      asyncResults.push_back(*index);
    } else if (!dot.getIsAsync()) {
      synchronousDots.push_back(dot);
    }
  }

  void afterBody(RingBuilder &ring) override {
    if (placement == Placement::AfterBody) {
      // With one warp group and cp.async, its wait said every warp is done
      // with the previous slot already.
      if (getNumWarps(ring.loop) > 4 || ring.plan.hasTma)
        BarrierOp::create(ring.builder, ring.loc);
      ring.fetchAhead();
    }
    if (placement != Placement::AfterFirstWait)
      return;
    OpBuilder &builder = ring.builder;
    SmallVector<Operation *> waits(synchronousDots.begin(),
                                   synchronousDots.end());
    for (unsigned index : deferredArgs)
      waits.push_back(waitBeforeFirstUse(ring, index));
    if (isAloneOnSM(ring.loop)) {
      BarrierOp::create(builder, ring.loc);
      ring.fetchAhead();
      return;
    }
    Operation *first =
        *llvm::min_element(waits, [](Operation *a, Operation *b) {
          return a->isBeforeInBlock(b);
        });
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointAfter(first);
    BarrierOp::create(builder, ring.loc);
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
  /// A wait for the dot that computed iter arg `index` (of the old loop),
  /// in the new body just before the first use of that value (or at the
  /// body's end, before the yield, if it has none).
  Operation *waitBeforeFirstUse(RingBuilder &ring, unsigned index) {
    Block *body = ring.newLoop.getBody();
    Value arg = ring.newLoop.getRegionIterArgs()[ring.newIndex[index]];
    Operation *first = body->getTerminator();
    for (Operation *user : arg.getUsers())
      if (Operation *op = getAncestorIn(body, user);
          op && op->isBeforeInBlock(first))
        first = op;
    OpBuilder::InsertionGuard guard(ring.builder);
    ring.builder.setInsertionPoint(first);
    auto wait =
        WarpGroupDotWaitOp::create(ring.builder, ring.loc, arg.getType(), arg,
                                   ring.builder.getI32IntegerAttr(0));
    arg.replaceAllUsesExcept(wait.getResult(), wait);
    return wait;
  }

  enum class Placement { BeforeBody, AfterBody, AfterFirstWait };
  Placement placement = Placement::BeforeBody;
  /// The old loop's results that asynchronous dots compute.
  SmallVector<unsigned> asyncResults;
  /// The iter args (old loop's) computed by dots waited for in the next
  /// iteration, and the dots of the new body that wait at once.
  SmallVector<unsigned> deferredArgs;
  SmallVector<Operation *> synchronousDots;
};
} // namespace

std::unique_ptr<ReadStrategy> pipeliner::createWarpGroupStrategy() {
  return std::make_unique<WarpGroupStrategy>();
}
