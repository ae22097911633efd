//===- TmaStrategy.cpp - Ring slots filled by bulk tensor copies ----------===//
//
// The TMA copy strategy of ring pipelining (RingPipeliner.h), for loads
// that are boxes of a 2-D tensor (tilec/Analysis/TensorMapPlan.h), sm_90:
// before the loop a warp builds a tensor map per load (thread 0 acquires
// it after the barrier that publishes the mbarriers); each ring slot gets
// an mbarrier on which thread 0 arrives expecting the slot's bytes before
// starting its copies, and each iteration waits for its slot's barrier
// phase, which the loop carries (it flips when the read slot wraps around).
// Addresses are coordinates computed from the induction variable, so the
// loop no longer carries the load's pointers. After the loop, the barriers
// are invalidated and the tensor maps released.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
class TmaStrategy : public CopyStrategy {
public:
  void describeSources(RingBuilder &ring) override {
    createTensorMaps(ring);
    hoistTensorMaps(ring);
  }
  void setUp(RingBuilder &ring) override { createBarriers(ring); }

  /// Thread 0 acquires the maps other warps built before that barrier.
  void publish(RingBuilder &ring) override {
    for (StagedLoad &s : ring.plan.staged)
      if (s.tma)
        FenceTensorMapOp::create(ring.builder, ring.loc, s.map);
  }

  void beginFetch(RingBuilder &ring, const Fetch &fetch) override {
    barrier = getBarrier(ring, fetch.slot);
    BarrierExpectOp::create(ring.builder, ring.loc, barrier,
                            ring.builder.getI32IntegerAttr(bytes),
                            fetch.inRange);
  }

  void copy(RingBuilder &ring, StagedLoad &s, Value buffers,
            const Fetch &fetch) override {
    OpBuilder &builder = ring.builder;
    Location loc = ring.loc;
    Value tile = MemDescIndexOp::create(builder, loc, s.alloc.getType(),
                                        buffers, fetch.slot);
    DenseMap<Value, Value> substitutions;
    substitutions[ring.loop.getInductionVar()] = fetch.iv;
    Value coords[2];
    for (unsigned d = 0; d < 2; ++d) {
      Value coord = s.tma->coord[d].materialize(builder, loc, substitutions);
      coord =
          arith::TruncIOp::create(builder, loc, builder.getI32Type(), coord);
      if (s.empty[d])
        coord = arith::SelectOp::create(builder, loc, s.empty[d],
                                        ring.createI32(1), coord);
      coords[d] = coord;
    }
    AsyncTMACopyGlobalToLocalOp::create(builder, loc, s.map, coords[0],
                                        coords[1], tile, barrier,
                                        fetch.inRange);
  }

  void addInits(RingBuilder &ring, SmallVectorImpl<Value> &inits) override {
    inits.push_back(ring.createI32(0));
  }

  void waitForSlot(RingBuilder &ring, ValueRange carried) override {
    phase = carried.front();
    WaitBarrierOp::create(ring.builder, ring.loc,
                          getBarrier(ring, ring.readSlot), phase);
  }

  /// The barriers' phase flips when the read slot wraps around.
  void addYields(RingBuilder &ring, Value nextReadSlot,
                 SmallVectorImpl<Value> &yields) override {
    OpBuilder &builder = ring.builder;
    Value wrapped =
        arith::CmpIOp::create(builder, ring.loc, arith::CmpIPredicate::eq,
                              nextReadSlot, ring.createI32(0));
    Value flipped =
        arith::XOrIOp::create(builder, ring.loc, phase, ring.createI32(1));
    yields.push_back(
        arith::SelectOp::create(builder, ring.loc, wrapped, flipped, phase));
  }

  /// Every bulk copy started was waited for: the barriers and tensor maps
  /// can go.
  void tearDown(RingBuilder &ring) override {
    for (int64_t s = 0; s < ring.plan.numStages; ++s)
      InvalBarrierOp::create(ring.builder, ring.loc,
                             getBarrier(ring, ring.createI32(s)));
    // Unlocking the first map's slot gives them all back.
    for (StagedLoad &s : ring.plan.staged)
      if (s.tma) {
        ReleaseTensorMapOp::create(ring.builder, ring.loc, s.map);
        break;
      }
  }

private:
  /// Moves the tensor maps' creation (and the arithmetic of their
  /// operands) above the shared-memory stores of registers just before it
  /// (a loop-invariant operand staged before the loop, as attention's Q):
  /// such a store waits for its global load, and the maps' lock and build
  /// then overlap that load instead of delaying the first copies by their
  /// own latency. Only pure ops and such stores are passed; the allocator
  /// keeps each map's scratch apart from the buffers made before the block
  /// barrier that publishes the maps.
  static void hoistTensorMaps(RingBuilder &ring) {
    SmallVector<Operation *> maps;
    for (StagedLoad &s : ring.plan.staged)
      if (s.map)
        maps.push_back(s.map.getDefiningOp());
    if (maps.empty())
      return;
    Block *block = maps.front()->getBlock();
    Operation *target = nullptr;
    for (Operation *op = maps.front()->getPrevNode(); op;
         op = op->getPrevNode()) {
      auto alloc = dyn_cast<LocalAllocOp>(op);
      if (alloc && alloc.getSrc())
        target = op;
      else if (!isMemoryEffectFree(op))
        break;
    }
    if (!target)
      return;
    // The ops to move: the maps and, transitively, the defining ops of
    // their operands that come after `target`; all but the maps pure.
    llvm::SetVector<Operation *> slice;
    SmallVector<Operation *> work(maps.begin(), maps.end());
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      if (!slice.insert(op))
        continue;
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != block || def->isBeforeInBlock(target))
          continue;
        if (def == target ||
            (!isMemoryEffectFree(def) && !isa<CreateTensorMapOp>(def)))
          return;
        work.push_back(def);
      }
    }
    SmallVector<Operation *> ordered(slice.begin(), slice.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    for (Operation *op : ordered)
      op->moveBefore(target);
  }

  /// Builds the tensor map of each load copied by the copy engine.
  static void createTensorMaps(RingBuilder &ring) {
    OpBuilder &builder = ring.builder;
    Location loc = ring.loc;
    auto i64 = [&](int64_t value) -> Value {
      return arith::ConstantOp::create(builder, loc,
                                       builder.getI64IntegerAttr(value));
    };
    DenseMap<Value, Value> noSubstitutions;
    for (StagedLoad &s : ring.plan.staged) {
      if (!s.tma)
        continue;
      MemDescType tile = s.alloc.getType();
      auto type = TensorMapType::get(builder.getContext(), s.tma->boxShape,
                                     tile.getElementType(), tile.getEncoding());
      Value extents[2];
      for (unsigned d = 0; d < 2; ++d) {
        if (!s.tma->extent[d]) {
          extents[d] = i64(int64_t(1) << 31);
          continue;
        }
        // Extents below 1 select nothing: copy from past an extent of 1.
        Value extent =
            s.tma->extent[d]->materialize(builder, loc, noSubstitutions);
        s.empty[d] = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::slt, extent, i64(1));
        extent = arith::MaxSIOp::create(builder, loc, extent, i64(1));
        extents[d] = arith::MinSIOp::create(builder, loc, extent,
                                            i64((int64_t(1) << 32) - 1));
      }
      Value stride = s.tma->stride.materialize(builder, loc, noSubstitutions);
      // The first map takes the lock that guards them all.
      bool first = llvm::none_of(ring.plan.staged,
                                 [](StagedLoad &o) { return bool(o.map); });
      s.map = CreateTensorMapOp::create(builder, loc, type, s.tma->base,
                                        extents[0], extents[1], stride, first);
      s.bytes = getSharedElementBytes(tile.getElementType());
      for (int64_t dim : tile.getShape())
        s.bytes *= dim;
    }
  }

  /// One mbarrier per slot, initialized by thread 0; `bytes` is what the
  /// copies of one slot write.
  void createBarriers(RingBuilder &ring) {
    OpBuilder &builder = ring.builder;
    MLIRContext *context = builder.getContext();
    auto plain = SharedEncodingAttr::get(context, 1, 1, 1, {0});
    barrierType = MemDescType::get(context, {1}, builder.getI64Type(), plain);
    barriers =
        LocalAllocOp::create(builder, ring.loc,
                             MemDescType::get(context, {ring.plan.numStages, 1},
                                              builder.getI64Type(), plain),
                             Value(), IntegerAttr());
    for (int64_t s = 0; s < ring.plan.numStages; ++s)
      InitBarrierOp::create(builder, ring.loc,
                            getBarrier(ring, ring.createI32(s)),
                            builder.getI32IntegerAttr(1));
    for (StagedLoad &s : ring.plan.staged)
      if (s.tma)
        bytes += s.bytes;
  }

  /// The mbarrier of ring slot `slot`.
  Value getBarrier(RingBuilder &ring, Value slot) {
    return MemDescIndexOp::create(ring.builder, ring.loc, barrierType, barriers,
                                  slot);
  }

  Value barriers;
  MemDescType barrierType;
  int64_t bytes = 0;
  /// The current fetch's barrier, and the phase the loop carries.
  Value barrier;
  Value phase;
};
} // namespace

std::unique_ptr<CopyStrategy> pipeliner::createTmaStrategy() {
  return std::make_unique<TmaStrategy>();
}
