//===- RingPrologue.cpp - Before the loop: rings and first fetches --------===//
//
// The prologue step of ring pipelining (RingPipeliner.h): what the copy
// strategies need (tensor maps), one ring of `num_stages` buffers per
// staged load, the strategies' mbarriers, a barrier, then the copies of
// iterations 0 .. num_stages - 2 into slots 0 .. num_stages - 2.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
/// One ring of buffers per staged load.
void allocateRings(RingBuilder &ring) {
  MLIRContext *context = ring.builder.getContext();
  for (StagedLoad &s : ring.plan.staged) {
    MemDescType tile = s.alloc.getType();
    SmallVector<int64_t> shape{ring.plan.numStages};
    shape.append(tile.getShape().begin(), tile.getShape().end());
    auto type = MemDescType::get(context, shape, tile.getElementType(),
                                 tile.getEncoding());
    ring.rings.push_back(LocalAllocOp::create(ring.builder, ring.loc, type,
                                              Value(), IntegerAttr()));
  }
}
} // namespace

void pipeliner::buildPrologue(RingBuilder &ring) {
  SmallVector<CopyStrategy *, 2> strategies = ring.getCopyStrategies();
  for (CopyStrategy *strategy : strategies)
    strategy->describeSources(ring);
  allocateRings(ring);
  for (CopyStrategy *strategy : strategies)
    strategy->setUp(ring);
  // The rings may reuse bytes that other warps are still reading just before
  // the loop (the scratch of a layout conversion): wait for them before the
  // first copy writes there. (It also publishes the setup.)
  BarrierOp::create(ring.builder, ring.loc);
  for (CopyStrategy *strategy : strategies)
    strategy->publish(ring);

  // Iterations 0 .. numStages - 2.
  scf::ForOp loop = ring.loop;
  for (unsigned index : ring.plan.carried)
    ring.fetchInits.push_back(loop.getInitArgs()[index]);
  for (int64_t s = 0; s + 1 < ring.plan.numStages; ++s) {
    Value iv = offsetIv(ring.builder, ring.loc, loop.getLowerBound(),
                        loop.getStep(), s);
    ring.fetchInits = ring.fetch(iv, ring.fetchInits, ring.createI32(s));
  }
}
