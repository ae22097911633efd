//===- CpAsyncStrategy.cpp - Ring slots filled with cp.async --------------===//
//
// The cp.async copy strategy of ring pipelining (RingPipeliner.h): each
// thread copies its own runs of a staged load
// (`tilegpu.async_copy_global_to_local`, the load's mask and-ed with
// "the iteration exists"), one commit group per fetch. Each iteration waits
// until at most `num_stages - 2` groups are in flight (its own has landed),
// then a barrier says every thread's has. After the loop, every group.
//
// Warp-group dots read the slots through the async proxy with no proxy
// fence after the wait, as Triton's pipelines: `fence.proxy.async` is a
// MEMBAR.ALL.CTA in SASS, which waits for every cp.async still in flight,
// the later stages' too, and so drains the ring each iteration (the
// 128x128x64 matmul with 5 stages ran at 0.68x Triton with it).
// Registers stored to shared memory for a warp-group dot (local_alloc of a
// block) keep their fence.
//
// f32 operands of tf32 dots are copied as they are: the tensor cores read
// their tf32 part (truncation), where register staging rounds to nearest.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
class CpAsyncStrategy : public CopyStrategy {
public:
  void copy(RingBuilder &ring, StagedLoad &s, Value buffers,
            const Fetch &fetch) override {
    OpBuilder &builder = ring.builder;
    Value ptr = fetch.mapping.lookupOrDefault(s.load.getPtr());
    Value mask = s.load.getMask()
                     ? fetch.mapping.lookupOrDefault(s.load.getMask())
                     : Value();
    mask = guardMask(builder, ring.loc, mask, fetch.inRange,
                     cast<RankedTensorType>(ptr.getType()));
    Value tile = MemDescIndexOp::create(builder, ring.loc, s.alloc.getType(),
                                        buffers, fetch.slot);
    AsyncCopyGlobalToLocalOp::create(builder, ring.loc, ptr, tile, mask);
  }

  void endFetch(RingBuilder &ring) override {
    AsyncCommitGroupOp::create(ring.builder, ring.loc);
  }

  void waitForSlot(RingBuilder &ring, ValueRange) override {
    OpBuilder &builder = ring.builder;
    AsyncWaitOp::create(builder, ring.loc,
                        builder.getI32IntegerAttr(ring.plan.numStages - 2));
    BarrierOp::create(builder, ring.loc);
  }

  void drain(RingBuilder &ring) override {
    AsyncWaitOp::create(ring.builder, ring.loc,
                        ring.builder.getI32IntegerAttr(0));
  }
};
} // namespace

std::unique_ptr<CopyStrategy> pipeliner::createCpAsyncStrategy() {
  return std::make_unique<CpAsyncStrategy>();
}
