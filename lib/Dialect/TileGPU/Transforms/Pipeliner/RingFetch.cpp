//===- RingFetch.cpp - Starting the copies of one iteration ---------------===//
//
// A fetch recomputes, for the iteration it fetches, the addresses and masks
// of the cp.async loads (from the fetch state the loop carries; loads of
// addresses, a page table's entries, are issued again for that iteration,
// masked by its existence), starts the
// copies of every staged load into one ring slot (each by its copy
// strategy), and advances the fetch state by one iteration. The prologue
// fetches the first `num_stages - 1` iterations; each iteration of the loop
// fetches `num_stages - 1` ahead.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

Value pipeliner::offsetIv(OpBuilder &builder, Location loc, Value iv,
                          Value step, int64_t k) {
  if (k == 0)
    return iv;
  Value factor = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(iv.getType(), k));
  return arith::AddIOp::create(
      builder, loc, iv, arith::MulIOp::create(builder, loc, step, factor));
}

SmallVector<Value> RingBuilder::fetch(Value iv, ArrayRef<Value> state,
                                      Value slot) {
  IRMapping mapping = mapIteration(loop, iv, plan.carried, state);
  Value inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                        iv, loop.getUpperBound());
  cloneSlice(builder, plan.slice, mapping, inRange);
  Fetch fetch{iv, mapping, slot, inRange};
  SmallVector<CopyStrategy *, 2> strategies = getCopyStrategies();
  for (CopyStrategy *strategy : strategies)
    strategy->beginFetch(*this, fetch);
  for (auto [s, buffers] : llvm::zip(plan.staged, rings))
    getCopyStrategy(s).copy(*this, s, buffers, fetch);
  for (CopyStrategy *strategy : strategies)
    strategy->endFetch(*this);

  // The fetch state one iteration later.
  IRMapping advance = mapIteration(loop, iv, plan.carried, state);
  for (Operation *op : plan.advanceSlice)
    builder.clone(*op, advance);
  SmallVector<Value> next;
  for (Value value : plan.advanced)
    next.push_back(advance.lookupOrDefault(value));
  return next;
}
