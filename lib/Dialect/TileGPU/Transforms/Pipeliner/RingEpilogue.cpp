//===- RingEpilogue.cpp - After the pipelined loop ------------------------===//
//
// The epilogue step of ring pipelining (RingPipeliner.h): the old loop's
// results (the read strategy waits for the last dots), the guard's yield,
// then no copy may still be writing when the buffers are reused, by this
// thread or any other: the copy strategies drain, a barrier, and they
// release what they set up. The old loop goes.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

void pipeliner::buildEpilogue(RingBuilder &ring) {
  scf::ForOp loop = ring.loop;
  OpBuilder &builder = ring.builder;
  builder.setInsertionPointAfter(ring.newLoop);
  unsigned numOld = loop.getNumRegionIterArgs();
  SmallVector<Value> results(numOld);
  for (unsigned i = 0; i < numOld; ++i)
    results[i] = ring.newIndex[i] >= 0
                     ? ring.newLoop.getResult(ring.newIndex[i])
                     : loop.getInitArgs()[i];
  ring.reads->afterLoop(ring, results);
  if (ring.guard) {
    scf::YieldOp::create(builder, ring.loc, results);
    builder.setInsertionPointAfter(ring.guard);
    results.assign(ring.guard.getResults().begin(),
                   ring.guard.getResults().end());
  }
  SmallVector<CopyStrategy *, 2> strategies = ring.getCopyStrategies();
  for (CopyStrategy *strategy : strategies)
    strategy->drain(ring);
  BarrierOp::create(builder, ring.loc);
  for (CopyStrategy *strategy : strategies)
    strategy->tearDown(ring);
  loop.replaceAllUsesWith(results);
  loop.erase();
}
