//===- AsyncPipeline.cpp - num_stages-deep pipelining with cp.async -------===//
//
// A loop whose dot operands are loaded from global memory and staged in
// swizzled shared memory for a warp-group dot gets a ring of `num_stages`
// shared buffers per operand. Before the loop, asynchronous copies
// (`tilegpu.async_copy_global_to_local`, one commit group per iteration)
// fill the first `num_stages - 1` of them; each iteration then waits for
// its own group, makes the tiles visible to the tensor cores (proxy fence,
// barrier), starts its dot on its buffer without waiting for it (waiting
// instead for the previous iteration's), then, after a barrier, starts the
// copies of iteration `i + num_stages - 1` into the buffer that previous
// dot read. The addresses of the iteration being fetched are carried by the
// loop.
//
// f32 operands of tf32 dots are copied as they are: the tensor cores read
// their tf32 part (truncation), where register staging rounds to nearest.
//
// mma.sync dots (sm_80 on) read registers: their operands, loaded blocks
// converted to dot-operand layouts, are staged first (local_alloc into a
// swizzled tile, local_load into the dot-operand layout: ldmatrix), then
// pipelined the same way, with synchronous reads: each iteration waits for
// its copies, a barrier (which also says every warp is done reading the
// previous iteration's buffer), then starts the copies into that buffer
// before its own reads and dots. If the loop cannot be pipelined, the
// staging is undone.
//
// A load that is a box of a 2-D tensor (TensorMapPlan.h) is copied by the
// copy engine instead (TMA, sm_90): before the loop a warp builds a tensor
// map for it (thread 0 acquires it after the barrier that publishes the
// mbarriers); each ring slot gets an mbarrier on which thread 0
// arrives expecting the slot's bytes before starting its copies, and each
// iteration waits for its slot's barrier phase. Addresses are then
// coordinates computed from the induction variable, so the loop no longer
// carries the load's pointers.
//
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"
#include "TensorMapPlan.h"

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
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

/// The ops that read the tile `alloc` makes, directly or through
/// transposed views.
SmallVector<Operation *> getTileReaders(LocalAllocOp alloc) {
  SmallVector<Operation *> readers;
  for (Operation *user : alloc->getUsers()) {
    auto view = dyn_cast<MemDescTransOp>(user);
    if (!view) {
      readers.push_back(user);
      continue;
    }
    for (Operation *viewUser : view->getUsers())
      readers.push_back(viewUser);
  }
  return readers;
}

/// Whether `value` is absent or a zero constant (what a masked-off
/// asynchronous copy writes).
bool isZeroOrAbsent(Value value) {
  if (!value)
    return true;
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return false;
  if (auto f = dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>()))
    return f.getValue().isZero() && !f.getValue().isNegative();
  if (auto i = dyn_cast<IntegerAttr>(dense.getSplatValue<Attribute>()))
    return i.getValue().isZero();
  return false;
}

/// The staged loads of `loop`, or failure if some dot-feeding load is not
/// one or cannot be copied asynchronously in runs of 4 bytes or more.
FailureOr<SmallVector<StagedLoad, 2>>
getStagedLoads(scf::ForOp loop, const AxisInfoAnalysis &info, bool useTma) {
  SmallVector<StagedLoad, 2> staged;
  for (Operation &op : *loop.getBody()) {
    auto load = dyn_cast<tile::LoadOp>(op);
    if (!load || !isa<RankedTensorType>(load.getType()) || !feedsDot(load))
      continue;
    if (!load->hasOneUse() || !isZeroOrAbsent(load.getOther()))
      return failure();
    auto alloc = dyn_cast<LocalAllocOp>(*load->getUsers().begin());
    if (!alloc || alloc->getBlock() != loop.getBody() ||
        !getNVMMASharedLayout(alloc.getType()))
      return failure();
    if (!llvm::all_of(getTileReaders(alloc), [](Operation *user) {
          return isa<WarpGroupDotOp, LocalLoadOp>(user);
        }))
      return failure();
    if (useTma)
      if (auto plan = planTensorMapLoad(load, loop, alloc.getType(), info)) {
        StagedLoad s;
        s.load = load;
        s.alloc = alloc;
        s.tma = std::move(plan);
        staged.push_back(std::move(s));
        continue;
      }
    auto ptrType = cast<RankedTensorType>(load.getPtr().getType());
    auto layout = dyn_cast<BlockedEncodingAttr>(ptrType.getEncoding());
    if (!layout)
      return failure();
    unsigned fast = layout.getOrder().front();
    unsigned bytes = getSharedElementBytes(
        cast<RankedTensorType>(load.getType()).getElementType());
    unsigned perThread = std::min<int64_t>(layout.getSizePerThread()[fast],
                                           ptrType.getDimSize(fast));
    unsigned width =
        getVectorWidth(info.getAxisInfo(load.getPtr()), fast, bytes, perThread);
    // A run's mask must be one value (a copy is all or nothing).
    if (Value mask = load.getMask()) {
      int64_t constancy = info.getAxisInfo(mask).constancy[fast];
      while (width > 1 && constancy % width != 0)
        width /= 2;
    }
    if (width * bytes < 4)
      return failure();
    StagedLoad s;
    s.load = load;
    s.alloc = alloc;
    staged.push_back(std::move(s));
  }
  if (staged.empty())
    return failure();
  return staged;
}

/// Whether a loop from `lb` to `ub` may run no iteration (unless both are
/// constants, it may).
bool mayRunNoIteration(Value lb, Value ub) {
  APInt lower, upper;
  return !(matchPattern(lb, m_ConstantInt(&lower)) &&
           matchPattern(ub, m_ConstantInt(&upper)) && lower.slt(upper));
}

/// `iv + k * step`.
Value offsetIv(OpBuilder &builder, Location loc, Value iv, Value step,
               int64_t k) {
  if (k == 0)
    return iv;
  Value factor = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(iv.getType(), k));
  return arith::AddIOp::create(
      builder, loc, iv, arith::MulIOp::create(builder, loc, step, factor));
}

Value createIndex(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantOp::create(builder, loc,
                                   builder.getI32IntegerAttr(value));
}

/// `(slot + 1) mod numStages`.
Value nextSlot(OpBuilder &builder, Location loc, Value slot,
               int64_t numStages) {
  Value next =
      arith::AddIOp::create(builder, loc, slot, createIndex(builder, loc, 1));
  Value wraps =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, next,
                            createIndex(builder, loc, numStages));
  return arith::SelectOp::create(builder, loc, wraps,
                                 createIndex(builder, loc, 0), next);
}
/// Iter args that only carry the pointers of loads copied by the copy
/// engine (`arg` feeds those loads and `addptr(arg, step)`, which only the
/// yield uses, and the loop's result is unused): the pipelined loop drops
/// them.
SmallVector<unsigned> getTmaOnlyIterArgs(scf::ForOp loop,
                                         ArrayRef<StagedLoad> staged) {
  SmallVector<unsigned> dropped;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index) {
    BlockArgument arg = loop.getRegionIterArgs()[index];
    if (!loop.getResult(index).use_empty())
      continue;
    auto advance = yield.getOperand(index).getDefiningOp<tile::AddPtrOp>();
    if (!advance || advance.getPtr() != arg || !advance->hasOneUse())
      continue;
    bool onlyTma = llvm::all_of(arg.getUsers(), [&](Operation *user) {
      if (user == advance.getOperation())
        return true;
      return llvm::any_of(staged, [&](StagedLoad s) {
        return s.tma && user == s.load.getOperation() &&
               s.load.getMask() != arg;
      });
    });
    if (onlyTma)
      dropped.push_back(index);
  }
  return dropped;
}

/// Builds the tensor map of each load copied by the copy engine, before
/// the loop.
void createTensorMaps(OpBuilder &builder, Location loc,
                      MutableArrayRef<StagedLoad> staged) {
  MLIRContext *context = builder.getContext();
  auto i64 = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getI64IntegerAttr(value));
  };
  DenseMap<Value, Value> noSubstitutions;
  for (StagedLoad &s : staged) {
    if (!s.tma)
      continue;
    MemDescType tile = s.alloc.getType();
    auto type = TensorMapType::get(context, s.tma->boxShape,
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
    bool first = llvm::none_of(staged, [](StagedLoad &o) { return o.map; });
    s.map = CreateTensorMapOp::create(builder, loc, type, s.tma->base,
                                      extents[0], extents[1], stride, first);
    s.bytes = getSharedElementBytes(tile.getElementType());
    for (int64_t dim : tile.getShape())
      s.bytes *= dim;
  }
}

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
SmallVector<MmaSyncStaging> stageMmaSyncOperands(scf::ForOp loop) {
  SmallVector<MmaSyncStaging> staged;
  Block *body = loop.getBody();
  for (Operation &op : llvm::make_early_inc_range(*body)) {
    auto dot = dyn_cast<tile::DotOp>(op);
    auto mma =
        dot ? dyn_cast_or_null<MmaEncodingAttr>(dot.getType().getEncoding())
            : MmaEncodingAttr();
    if (!mma || mma.getVersionMajor() != 2)
      continue;
    // Operands read afresh: staging A may replace what B also uses.
    for (unsigned index : {0u, 1u}) {
      Value operand = dot->getOperand(index);
      auto convert = operand.getDefiningOp<ConvertLayoutOp>();
      if (!convert || convert->getBlock() != body)
        continue;
      Value source = convert.getSrc();
      auto trans = source.getDefiningOp<tile::TransOp>();
      if (trans) {
        if (!trans->hasOneUse())
          continue;
        source = trans.getSrc();
      }
      auto load = source.getDefiningOp<tile::LoadOp>();
      if (!load || load->getBlock() != body || !load->hasOneUse())
        continue;
      auto type = dyn_cast<RankedTensorType>(load.getType());
      auto blocked =
          type ? dyn_cast<BlockedEncodingAttr>(type.getEncoding()) : nullptr;
      if (!blocked || type.getRank() != 2)
        continue;
      Attribute layout =
          getNVMMAStagingLayout(type, blocked.getOrder().front());
      if (!layout)
        continue;
      auto memdesc = MemDescType::get(loop.getContext(), type.getShape(),
                                      type.getElementType(), layout);
      MemDescType readType = trans ? getTransposedMemDesc(memdesc) : memdesc;
      RankedTensorType dstType = convert.getType();
      if (!type.getElementType().isF32() && !isLdmatrixLoad(readType, dstType))
        continue;
      OpBuilder builder(convert);
      Location loc = convert.getLoc();
      MmaSyncStaging s;
      s.load = load;
      s.alloc = LocalAllocOp::create(builder, loc, memdesc, load.getResult(),
                                     IntegerAttr());
      Value tile = s.alloc;
      if (trans) {
        s.view = MemDescTransOp::create(builder, loc, readType, tile);
        s.transType = trans.getType();
        tile = s.view;
      }
      s.local = LocalLoadOp::create(builder, loc, dstType, tile);
      convert.replaceAllUsesWith(s.local.getResult());
      convert.erase();
      if (trans)
        trans.erase();
      staged.push_back(s);
    }
  }
  return staged;
}

/// Puts the ops stageMmaSyncOperands replaced back.
void unstageMmaSyncOperands(MutableArrayRef<MmaSyncStaging> staged) {
  for (MmaSyncStaging &s : staged) {
    OpBuilder builder(s.local);
    Location loc = s.local.getLoc();
    Value source = s.load;
    if (s.view)
      source = tile::TransOp::create(builder, loc, s.transType, source);
    auto convert =
        ConvertLayoutOp::create(builder, loc, s.local.getType(), source);
    s.local.replaceAllUsesWith(convert.getResult());
    s.local.erase();
    if (s.view)
      s.view.erase();
    s.alloc.erase();
  }
}

/// pipelineWithAsyncCopies once the loads are staged.
bool pipelineStagedLoads(scf::ForOp loop, int64_t numStages, bool useTma);
} // namespace

bool mlir::tilegpu::pipelineWithAsyncCopies(scf::ForOp loop, int64_t numStages,
                                            bool useTma) {
  if (numStages < 2 || !loop.getInductionVar().getType().isInteger(32))
    return false;
  auto func = loop->getParentOfType<func::FuncOp>();
  if (!func)
    return false;
  SmallVector<MmaSyncStaging> mmaSync = stageMmaSyncOperands(loop);
  if (!pipelineStagedLoads(loop, numStages, useTma)) {
    unstageMmaSyncOperands(mmaSync);
    return false;
  }
  return true;
}

namespace {
bool pipelineStagedLoads(scf::ForOp loop, int64_t numStages, bool useTma) {
  auto func = loop->getParentOfType<func::FuncOp>();
  AxisInfoAnalysis info(func);
  FailureOr<SmallVector<StagedLoad, 2>> staged =
      getStagedLoads(loop, info, useTma);
  if (failed(staged))
    return false;
  bool hasTma = llvm::any_of(*staged, [](StagedLoad &s) { return s.tma; });
  bool hasCopies = llvm::any_of(*staged, [](StagedLoad &s) { return !s.tma; });
  // Whether warp-group dots read the tiles (asynchronously, through the
  // async proxy); otherwise local_loads read them.
  bool hasWarpGroupDots = llvm::any_of(*staged, [](StagedLoad &s) {
    return llvm::any_of(getTileReaders(s.alloc), [](Operation *user) {
      return isa<WarpGroupDotOp>(user);
    });
  });
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Block *body = loop.getBody();

  // What the cp.async loads' addresses and masks depend on.
  SmallVector<Value> roots;
  for (StagedLoad &s : *staged)
    if (!s.tma)
      for (Value operand : s.load->getOperands())
        roots.push_back(operand);
  FailureOr<SmallVector<Operation *>> slice = getSlice(loop, roots);
  if (failed(slice))
    return false;
  auto isIterArg = [&](Value value) {
    auto arg = dyn_cast<BlockArgument>(value);
    return arg && arg.getOwner() == body && arg.getArgNumber() > 0;
  };
  SmallVector<unsigned> carried; // Iter args the addresses depend on.
  auto noteArgs = [&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isIterArg(operand)) {
        unsigned index = cast<BlockArgument>(operand).getArgNumber() - 1;
        if (!llvm::is_contained(carried, index))
          carried.push_back(index);
      }
  };
  for (Operation *op : *slice)
    noteArgs(op);
  for (StagedLoad &s : *staged)
    if (!s.tma)
      noteArgs(s.load);
  // Their next values must be computable from them alone.
  SmallVector<Value> advanced;
  for (unsigned index : carried)
    advanced.push_back(yield.getOperand(index));
  FailureOr<SmallVector<Operation *>> advanceSlice = getSlice(loop, advanced);
  if (failed(advanceSlice))
    return false;
  for (Operation *op : *advanceSlice)
    for (Value operand : op->getOperands())
      if (isIterArg(operand) &&
          !llvm::is_contained(carried,
                              cast<BlockArgument>(operand).getArgNumber() - 1))
        return false;
  for (Value value : advanced)
    if (isIterArg(value) &&
        !llvm::is_contained(carried,
                            cast<BlockArgument>(value).getArgNumber() - 1))
      return false;
  SmallVector<unsigned> dropped = getTmaOnlyIterArgs(loop, *staged);

  Location loc = loop.getLoc();
  OpBuilder builder(loop);
  MLIRContext *context = loop.getContext();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();

  createTensorMaps(builder, loc, *staged);
  // One ring of buffers per staged operand.
  SmallVector<Value> rings;
  for (StagedLoad &s : *staged) {
    MemDescType tile = s.alloc.getType();
    SmallVector<int64_t> shape{numStages};
    shape.append(tile.getShape().begin(), tile.getShape().end());
    auto type = MemDescType::get(context, shape, tile.getElementType(),
                                 tile.getEncoding());
    rings.push_back(
        LocalAllocOp::create(builder, loc, type, Value(), IntegerAttr()));
  }
  // With bulk copies, one mbarrier per slot, initialized by thread 0.
  Value barriers;
  MemDescType barrierType;
  int64_t tmaBytes = 0;
  if (hasTma) {
    auto plain = SharedEncodingAttr::get(context, 1, 1, 1, {0});
    barrierType = MemDescType::get(context, {1}, builder.getI64Type(), plain);
    barriers = LocalAllocOp::create(
        builder, loc,
        MemDescType::get(context, {numStages, 1}, builder.getI64Type(), plain),
        Value(), IntegerAttr());
    for (int64_t s = 0; s < numStages; ++s)
      InitBarrierOp::create(
          builder, loc,
          MemDescIndexOp::create(builder, loc, barrierType, barriers,
                                 createIndex(builder, loc, s)),
          builder.getI32IntegerAttr(1));
    for (StagedLoad &s : *staged)
      if (s.tma)
        tmaBytes += s.bytes;
  }
  // The rings may reuse bytes that other warps are still reading just before
  // the loop (the scratch of a layout conversion): wait for them before the
  // first copy writes there. (It also publishes the barriers.)
  BarrierOp::create(builder, loc);
  // Thread 0 acquires the maps other warps built before that barrier.
  for (StagedLoad &s : *staged)
    if (s.tma)
      FenceTensorMapOp::create(builder, loc, s.map);

  // Starts the copies of the iteration whose induction variable is
  // `fetchIv`, with the carried iter args at `state`, into ring slot `slot`.
  auto startCopies = [&](Value fetchIv, ArrayRef<Value> state, Value slot) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), fetchIv);
    for (auto [index, value] : llvm::zip(carried, state))
      mapping.map(loop.getRegionIterArgs()[index], value);
    for (Operation *op : *slice)
      builder.clone(*op, mapping);
    Value inRange = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, fetchIv, ub);
    Value barrier;
    if (hasTma) {
      barrier =
          MemDescIndexOp::create(builder, loc, barrierType, barriers, slot);
      BarrierExpectOp::create(builder, loc, barrier,
                              builder.getI32IntegerAttr(tmaBytes), inRange);
    }
    DenseMap<Value, Value> substitutions;
    substitutions[loop.getInductionVar()] = fetchIv;
    for (auto [s, ring] : llvm::zip(*staged, rings)) {
      if (s.tma) {
        Value tile =
            MemDescIndexOp::create(builder, loc, s.alloc.getType(), ring, slot);
        Value coords[2];
        for (unsigned d = 0; d < 2; ++d) {
          Value coord =
              s.tma->coord[d].materialize(builder, loc, substitutions);
          coord = arith::TruncIOp::create(builder, loc, builder.getI32Type(),
                                          coord);
          if (s.empty[d])
            coord = arith::SelectOp::create(
                builder, loc, s.empty[d], createIndex(builder, loc, 1), coord);
          coords[d] = coord;
        }
        AsyncTMACopyGlobalToLocalOp::create(builder, loc, s.map, coords[0],
                                            coords[1], tile, barrier, inRange);
        continue;
      }
      Value ptr = mapping.lookupOrDefault(s.load.getPtr());
      Value mask = s.load.getMask() ? mapping.lookupOrDefault(s.load.getMask())
                                    : Value();
      mask = guardMask(builder, loc, mask, inRange,
                       cast<RankedTensorType>(ptr.getType()));
      Value tile =
          MemDescIndexOp::create(builder, loc, s.alloc.getType(), ring, slot);
      AsyncCopyGlobalToLocalOp::create(builder, loc, ptr, tile, mask);
    }
    if (hasCopies)
      AsyncCommitGroupOp::create(builder, loc);
  };
  // The carried iter args one iteration later.
  auto advance = [&](Value iv, ArrayRef<Value> state) {
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), iv);
    for (auto [index, value] : llvm::zip(carried, state))
      mapping.map(loop.getRegionIterArgs()[index], value);
    for (Operation *op : *advanceSlice)
      builder.clone(*op, mapping);
    SmallVector<Value> next;
    for (Value value : advanced)
      next.push_back(mapping.lookupOrDefault(value));
    return next;
  };

  // Prologue: iterations 0 .. numStages - 2.
  SmallVector<Value> state;
  for (unsigned index : carried)
    state.push_back(loop.getInitArgs()[index]);
  for (int64_t s = 0; s + 1 < numStages; ++s) {
    Value iv = offsetIv(builder, loc, lb, step, s);
    startCopies(iv, state, createIndex(builder, loc, s));
    state = advance(iv, state);
  }

  // The loop carries the old iter args (less those only TMA loads used),
  // the fetch state, the read and fetch slots and the barriers' phase.
  unsigned numOld = loop.getNumRegionIterArgs();
  SmallVector<Value> inits;
  SmallVector<int> newIndex(numOld, -1); // Old iter arg -> new one.
  for (unsigned i = 0; i < numOld; ++i)
    if (!llvm::is_contained(dropped, i)) {
      newIndex[i] = inits.size();
      inits.push_back(loop.getInitArgs()[i]);
    }
  unsigned numKept = inits.size();
  inits.append(state.begin(), state.end());
  inits.push_back(createIndex(builder, loc, 0));
  inits.push_back(createIndex(builder, loc, numStages - 1));
  if (hasTma)
    inits.push_back(createIndex(builder, loc, 0));
  // A loop that may run no iteration goes inside `if (lb < ub)`, so that
  // the final wait of its dots is not reached from the path that skips it,
  // where moves set the accumulators (ptxas serializes every wgmma of a
  // function when a non-wgmma instruction may write their accumulators
  // between a wgmma and its wait: warning C7515).
  scf::IfOp guard;
  if (mayRunNoIteration(lb, ub)) {
    Value runs =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, lb, ub);
    guard = scf::IfOp::create(builder, loc, loop.getResultTypes(), runs,
                              /*addThenBlock=*/true, /*addElseBlock=*/true);
    builder.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(builder, loc, loop.getInitArgs());
    builder.setInsertionPointToStart(guard.thenBlock());
  }
  auto newLoop = scf::ForOp::create(builder, loc, lb, ub, step, inits);
  newLoop->setAttrs(loop->getAttrs());
  Block *newBody = newLoop.getBody();
  if (!newBody->empty())
    newBody->back().erase();
  builder.setInsertionPointToStart(newBody);
  auto newArgs = newLoop.getRegionIterArgs();
  SmallVector<Value> fetchState(newArgs.begin() + numKept,
                                newArgs.begin() + numKept + carried.size());
  Value readSlot = newArgs[numKept + carried.size()];
  Value fetchSlot = newArgs[numKept + carried.size() + 1];
  Value phase = hasTma ? newArgs[numKept + carried.size() + 2] : Value();
  Value iv = newLoop.getInductionVar();

  // This iteration's tiles have landed (cp.async: ours: wait; everyone's:
  // barrier; bulk copies: the slot's barrier phase).
  if (hasCopies) {
    AsyncWaitOp::create(builder, loc, builder.getI32IntegerAttr(numStages - 2));
    if (hasWarpGroupDots)
      FenceAsyncSharedOp::create(builder, loc);
    BarrierOp::create(builder, loc);
  }
  if (hasTma)
    WaitBarrierOp::create(
        builder, loc,
        MemDescIndexOp::create(builder, loc, barrierType, barriers, readSlot),
        phase);
  // Starts the copies of iteration `iv + numStages - 1`.
  SmallVector<Value> nextState;
  auto fetch = [&] {
    Value fetchIv = offsetIv(builder, loc, iv, step, numStages - 1);
    startCopies(fetchIv, fetchState, fetchSlot);
    nextState = advance(fetchIv, fetchState);
  };
  // Synchronous reads: every warp is done with the buffer the previous
  // iteration read (the barrier after the copies' wait says so; bulk
  // copies alone need one), so the next copies go there first.
  if (!hasWarpGroupDots) {
    if (!hasCopies)
      BarrierOp::create(builder, loc);
    fetch();
  }

  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (unsigned i = 0; i < numOld; ++i)
    if (newIndex[i] >= 0)
      mapping.map(loop.getRegionIterArgs()[i], newArgs[newIndex[i]]);
  for (auto [s, ring] : llvm::zip(*staged, rings))
    mapping.map(s.alloc.getResult(),
                MemDescIndexOp::create(builder, loc, s.alloc.getType(), ring,
                                       readSlot));
  // Accumulating dots (carried accumulator in, yielded result out) run
  // asynchronously: each iteration waits only for the previous one's.
  SmallVector<unsigned> asyncResults;
  for (Operation &op : body->without_terminator()) {
    bool isStaged = llvm::any_of(*staged, [&](StagedLoad &s) {
      return &op == s.load.getOperation() || &op == s.alloc.getOperation();
    });
    bool isDroppedAdvance = llvm::any_of(dropped, [&](unsigned index) {
      return yield.getOperand(index).getDefiningOp() == &op;
    });
    if (isStaged || isDroppedAdvance)
      continue;
    Operation *clone = builder.clone(op, mapping);
    auto dot = dyn_cast<WarpGroupDotOp>(clone);
    if (!dot || !op.getResult(0).hasOneUse())
      continue;
    auto acc = dyn_cast<BlockArgument>(cast<WarpGroupDotOp>(op).getAcc());
    OpOperand &use = *op.getResult(0).getUses().begin();
    if (!acc || acc.getOwner() != body || use.getOwner() != yield ||
        use.getOperandNumber() + 1 != acc.getArgNumber())
      continue;
    dot.setIsAsync(true);
    auto wait =
        WarpGroupDotWaitOp::create(builder, loc, dot.getType(), dot.getResult(),
                                   builder.getI32IntegerAttr(1));
    mapping.map(op.getResult(0), wait.getResult());
    asyncResults.push_back(use.getOperandNumber());
  }
  // Warp-group dots: every warp is done with the previous iteration's
  // buffers once it waited for its dots: fetch into the one it read. With
  // one warp group and cp.async, its wait said so already.
  if (hasWarpGroupDots) {
    if (getNumWarps(loop) > 4 || hasTma)
      BarrierOp::create(builder, loc);
    fetch();
  }
  SmallVector<Value> yields;
  for (unsigned i = 0; i < numOld; ++i)
    if (newIndex[i] >= 0)
      yields.push_back(mapping.lookupOrDefault(yield.getOperand(i)));
  yields.append(nextState.begin(), nextState.end());
  Value nextRead = nextSlot(builder, loc, readSlot, numStages);
  yields.push_back(nextRead);
  yields.push_back(nextSlot(builder, loc, fetchSlot, numStages));
  // The barriers' phase flips when the read slot wraps around.
  if (hasTma) {
    Value wrapped =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, nextRead,
                              createIndex(builder, loc, 0));
    Value flipped = arith::XOrIOp::create(builder, loc, phase,
                                          createIndex(builder, loc, 1));
    yields.push_back(
        arith::SelectOp::create(builder, loc, wrapped, flipped, phase));
  }
  scf::YieldOp::create(builder, yield.getLoc(), yields);

  // The last dots complete; no copy may still be writing when the buffers
  // are reused, by this thread or any other.
  builder.setInsertionPointAfter(newLoop);
  SmallVector<Value> results(numOld);
  for (unsigned i = 0; i < numOld; ++i)
    results[i] = newIndex[i] >= 0 ? newLoop.getResult(newIndex[i])
                                  : loop.getInitArgs()[i];
  for (unsigned index : asyncResults)
    results[index] = WarpGroupDotWaitOp::create(
        builder, loc, results[index].getType(), results[index],
        builder.getI32IntegerAttr(0));
  if (guard) {
    scf::YieldOp::create(builder, loc, results);
    builder.setInsertionPointAfter(guard);
    results.assign(guard.getResults().begin(), guard.getResults().end());
  }
  if (hasCopies)
    AsyncWaitOp::create(builder, loc, builder.getI32IntegerAttr(0));
  BarrierOp::create(builder, loc);
  // Every bulk copy started was waited for: the barriers and tensor maps
  // can go.
  if (hasTma) {
    for (int64_t s = 0; s < numStages; ++s)
      InvalBarrierOp::create(
          builder, loc,
          MemDescIndexOp::create(builder, loc, barrierType, barriers,
                                 createIndex(builder, loc, s)));
    // Unlocking the first map's slot gives them all back.
    for (StagedLoad &s : *staged)
      if (s.tma) {
        ReleaseTensorMapOp::create(builder, loc, s.map);
        break;
      }
  }
  loop.replaceAllUsesWith(results);
  loop.erase();
  return true;
}
} // namespace
