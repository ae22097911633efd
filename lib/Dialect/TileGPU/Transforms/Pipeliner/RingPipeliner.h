//===- RingPipeliner.h - Pipelining through rings of shared buffers -*- C++
//-*-===//
//
// A loop whose dot operands are loaded from global memory and staged in
// swizzled shared memory gets a ring of `num_stages` shared buffers per
// operand, filled asynchronously `num_stages - 1` iterations ahead. Each
// iteration waits for its own slot, reads it, and starts the copies of
// iteration `i + num_stages - 1` into the slot read last. The addresses of
// the iteration being fetched are carried by the loop.
//
// The steps, one file each (RingPipeliner.cpp runs them):
//   RingPlan.cpp      which loads are staged and how each is copied, what
//                     the loop must carry to compute addresses ahead;
//   RingPrologue.cpp  the rings, the copies' setup, the first fetches;
//   RingLoop.cpp      the new loop: wait for this iteration's slot, read it,
//                     fetch ahead;
//   RingEpilogue.cpp  after the loop: wait for everything, tear down.
// RingFetch.cpp starts the copies of one iteration (prologue and loop).
//
// Strategies, behind the two small interfaces below: how a staged load is
// copied (CopyStrategy: `cp.async` in CpAsyncStrategy.cpp, bulk tensor
// copies in TmaStrategy.cpp) and how the dots read the ring (ReadStrategy:
// mma.sync through `ldmatrix`, which also stages its operands, in
// MmaSyncStrategy.cpp, whose synchronous reads also serve the row-major
// tiles of loops without dots, LoadStaging.cpp; warp-group dots in
// WarpGroupStrategy.cpp). A loop may mix both copy strategies; its dots
// read one way.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_RINGPIPELINER_H
#define TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_RINGPIPELINER_H

#include "Pipeliner.h"

#include "tilec/Analysis/TensorMapPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include <memory>

namespace mlir::tilegpu::pipeliner {

/// A load whose only use stages it for dots: warp-group dots reading the
/// tile, or local_loads into mma.sync operands.
struct StagedLoad {
  tile::LoadOp load;
  LocalAllocOp alloc;
  /// Set when bulk tensor copies make the load.
  std::optional<TensorMapPlan> tma;
  /// The tensor map (created before the loop) and the box's bytes.
  Value map;
  int64_t bytes = 0;
  /// Per dimension: whether its extent may be empty (then copies start at
  /// coordinate 1 of an extent 1, out of bounds).
  Value empty[2];
};

/// What the ring pipeliner decided for one loop before changing it.
struct RingPlan {
  scf::ForOp loop;
  int64_t numStages = 0;
  SmallVector<StagedLoad, 2> staged;
  /// Whether some loads are copied by the copy engine, some by cp.async.
  bool hasTma = false;
  bool hasCopies = false;
  /// Whether warp-group dots read the tiles (asynchronously, through the
  /// async proxy); otherwise local_loads read them.
  bool hasWarpGroupDots = false;
  /// The body ops computing the cp.async loads' addresses and masks.
  SmallVector<Operation *> slice;
  /// The iter args those depend on (the fetch state the loop carries),
  /// their yielded values, and the body ops computing those.
  SmallVector<unsigned> carried;
  SmallVector<Value> advanced;
  SmallVector<Operation *> advanceSlice;
  /// Iter args that only carried the pointers of staged loads: dropped.
  SmallVector<unsigned> dropped;
};

/// The plan for `loop`, or failure if it cannot be pipelined this way.
FailureOr<RingPlan> planRing(scf::ForOp loop, int64_t numStages, bool useTma);

/// The ops that read the tile `alloc` makes, directly or through
/// transposed views.
SmallVector<Operation *> getTileReaders(LocalAllocOp alloc);

class RingBuilder;

/// Where and for which iteration one fetch copies.
struct Fetch {
  /// The induction variable of the iteration fetched, and the old loop's
  /// values mapped to that iteration's.
  Value iv;
  const IRMapping &mapping;
  /// The ring slot written, and whether the iteration exists.
  Value slot;
  Value inRange;
};

/// How staged loads are copied into their ring slots and waited for. The
/// hooks run in program order of what they emit; all but copy() emit
/// nothing by default.
class CopyStrategy {
public:
  virtual ~CopyStrategy() = default;
  /// Before the loop: what describes the copies' sources (tensor maps),
  /// then, once the rings exist, what synchronizes them (mbarriers).
  virtual void describeSources(RingBuilder &ring) {}
  virtual void setUp(RingBuilder &ring) {}
  /// After the barrier that publishes the setup to every thread.
  virtual void publish(RingBuilder &ring) {}
  /// Before, for each of its loads, and after the copies of one fetch.
  virtual void beginFetch(RingBuilder &ring, const Fetch &fetch) {}
  virtual void copy(RingBuilder &ring, StagedLoad &staged, Value buffers,
                    const Fetch &fetch) = 0;
  virtual void endFetch(RingBuilder &ring) {}
  /// Values it carries through the loop, initial and next ones.
  virtual void addInits(RingBuilder &ring, SmallVectorImpl<Value> &inits) {}
  virtual void addYields(RingBuilder &ring, Value nextReadSlot,
                         SmallVectorImpl<Value> &yields) {}
  /// At the top of the loop (`carried` are its own iter args): waits
  /// until this iteration's slot has landed.
  virtual void waitForSlot(RingBuilder &ring, ValueRange carried) {}
  /// After the loop: before the last barrier (no copy in flight after),
  /// and after it (release what setUp made).
  virtual void drain(RingBuilder &ring) {}
  virtual void tearDown(RingBuilder &ring) {}
};

std::unique_ptr<CopyStrategy> createCpAsyncStrategy();
std::unique_ptr<CopyStrategy> createTmaStrategy();

/// How the dots of the pipelined loop read the ring, which decides where
/// in the body the next copies start.
class ReadStrategy {
public:
  virtual ~ReadStrategy() = default;
  /// After the wait for this iteration's slot, before the body.
  virtual void beforeBody(RingBuilder &ring) {}
  /// For each op of the old body and its clone in the new one.
  virtual void visitClone(RingBuilder &ring, Operation *op, Operation *clone) {}
  /// After the body.
  virtual void afterBody(RingBuilder &ring) {}
  /// After the loop, on the old loop's results.
  virtual void afterLoop(RingBuilder &ring, SmallVectorImpl<Value> &results) {}
};

std::unique_ptr<ReadStrategy> createMmaSyncStrategy();
std::unique_ptr<ReadStrategy> createWarpGroupStrategy();

/// An mma.sync operand staged through shared memory: `local` replaced the
/// conversion of `load` (or of its transpose, of type `transType`, read
/// through `view`) to the dot-operand layout.
struct MmaSyncStaging {
  tile::LoadOp load;
  LocalAllocOp alloc;
  MemDescTransOp view;
  LocalLoadOp local;
  RankedTensorType transType;
};

/// Stages the operands of `loop`'s mma.sync dots that are loaded in the
/// loop (and maybe transposed) and converted to their dot-operand layouts:
/// load -> local_alloc (swizzled, contiguous as the load) [-> memdesc_trans]
/// -> local_load. 16-bit operands only where ldmatrix reads them.
SmallVector<MmaSyncStaging> stageMmaSyncOperands(scf::ForOp loop);

/// Puts the ops stageMmaSyncOperands replaced back.
void unstageMmaSyncOperands(MutableArrayRef<MmaSyncStaging> staged);

/// The IR the steps build for one loop, and the state they pass on.
class RingBuilder {
public:
  explicit RingBuilder(RingPlan &plan);

  RingPlan &plan;
  scf::ForOp loop;
  OpBuilder builder;
  Location loc;
  /// The copy strategies (null where no load uses one) and the read
  /// strategy.
  std::unique_ptr<CopyStrategy> cpAsync;
  std::unique_ptr<CopyStrategy> tma;
  std::unique_ptr<ReadStrategy> reads;

  /// One ring of `numStages` buffers per staged load.
  SmallVector<Value> rings;
  /// The fetch state (plan.carried) after the prologue.
  SmallVector<Value> fetchInits;

  /// The new loop (inside `guard` if it may run no iteration), where the
  /// old iter args went (-1: dropped), and its loop-carried values.
  scf::IfOp guard;
  scf::ForOp newLoop;
  SmallVector<int> newIndex;
  SmallVector<Value> fetchState;
  Value readSlot;
  Value fetchSlot;
  /// The old body's values mapped into the new body.
  IRMapping mapping;
  /// The fetch state after the fetch in the body.
  SmallVector<Value> nextFetchState;

  /// An i32 constant.
  Value createI32(int64_t value);
  /// The copy strategies in use, in the order their hooks run (cp.async
  /// first), and the one of `staged`.
  SmallVector<CopyStrategy *, 2> getCopyStrategies();
  CopyStrategy &getCopyStrategy(const StagedLoad &staged);
  /// Starts the copies of the iteration at `iv` (its fetch state `state`)
  /// into ring slot `slot`; returns the fetch state one iteration later
  /// (RingFetch.cpp).
  SmallVector<Value> fetch(Value iv, ArrayRef<Value> state, Value slot);
  /// In the body: fetches iteration `iv + (numStages - 1) * step` into the
  /// fetch slot (RingLoop.cpp).
  void fetchAhead();
};

/// A load of a loop without dots staged for the ring (LoadStaging.cpp):
/// `load` (the original's pointer and mask, no `other`) -> `alloc`
/// (row-major) -> `local` (the load's layout) [-> `select` of `other` where
/// masked off].
struct LoadStaging {
  tile::LoadOp load;
  Value other;
  LocalAllocOp alloc;
  LocalLoadOp local;
  arith::SelectOp select;
};

/// Stages the loads of `loop` when it asks for pipelining itself
/// (`tile.num_stages`) and has no dots: every load cp.async can copy whose
/// address the loop can compute ahead. Lowers `numStages` (not below 2)
/// until the rings fit the budget; stages nothing if they do not.
SmallVector<LoadStaging> stageLoadsWithoutDots(scf::ForOp loop,
                                               int64_t &numStages);

/// Puts the loads stageLoadsWithoutDots replaced back.
void unstageLoads(MutableArrayRef<LoadStaging> staged);

/// Whether cp.async can copy `load` in runs of 4 bytes or more.
bool isCpAsyncCopyable(tile::LoadOp load, const AxisInfoAnalysis &info);

/// Whether `value` is absent or a zero constant (what a masked-off
/// asynchronous copy writes).
bool isZeroOrAbsent(Value value);

/// The steps.
void buildPrologue(RingBuilder &ring);
void buildLoop(RingBuilder &ring);
void buildEpilogue(RingBuilder &ring);

/// `iv + k * step`.
Value offsetIv(OpBuilder &builder, Location loc, Value iv, Value step,
               int64_t k);

} // namespace mlir::tilegpu::pipeliner

#endif // TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_PIPELINER_RINGPIPELINER_H
