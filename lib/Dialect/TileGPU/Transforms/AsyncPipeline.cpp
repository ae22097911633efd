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
//===----------------------------------------------------------------------===//

#include "PipelineUtils.h"

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
/// A load whose only use stages it for warp-group dots.
struct StagedLoad {
  tile::LoadOp load;
  LocalAllocOp alloc;
};

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
FailureOr<SmallVector<StagedLoad>>
getStagedLoads(scf::ForOp loop, const AxisInfoAnalysis &info) {
  SmallVector<StagedLoad> staged;
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
    for (Operation *user : alloc->getUsers())
      if (!isa<WarpGroupDotOp>(user))
        return failure();
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
    staged.push_back({load, alloc});
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
} // namespace

bool mlir::tilegpu::pipelineWithAsyncCopies(scf::ForOp loop,
                                            int64_t numStages) {
  if (numStages < 2 || !loop.getInductionVar().getType().isInteger(32))
    return false;
  auto func = loop->getParentOfType<func::FuncOp>();
  if (!func)
    return false;
  AxisInfoAnalysis info(func);
  FailureOr<SmallVector<StagedLoad>> staged = getStagedLoads(loop, info);
  if (failed(staged))
    return false;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Block *body = loop.getBody();

  // What the loads' addresses and masks depend on.
  SmallVector<Value> roots;
  for (StagedLoad &s : *staged)
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

  Location loc = loop.getLoc();
  OpBuilder builder(loop);
  MLIRContext *context = loop.getContext();
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();

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
  // The rings may reuse bytes that other warps are still reading just before
  // the loop (the scratch of a layout conversion): wait for them before the
  // first copy writes there.
  BarrierOp::create(builder, loc);

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
    for (auto [s, ring] : llvm::zip(*staged, rings)) {
      Value ptr = mapping.lookupOrDefault(s.load.getPtr());
      Value mask = s.load.getMask() ? mapping.lookupOrDefault(s.load.getMask())
                                    : Value();
      mask = guardMask(builder, loc, mask, inRange,
                       cast<RankedTensorType>(ptr.getType()));
      Value tile =
          MemDescIndexOp::create(builder, loc, s.alloc.getType(), ring, slot);
      AsyncCopyGlobalToLocalOp::create(builder, loc, ptr, tile, mask);
    }
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

  // The loop carries the fetch state and the read and fetch slots.
  SmallVector<Value> inits(loop.getInitArgs());
  inits.append(state.begin(), state.end());
  inits.push_back(createIndex(builder, loc, 0));
  inits.push_back(createIndex(builder, loc, numStages - 1));
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
  unsigned numOld = loop.getNumRegionIterArgs();
  auto newArgs = newLoop.getRegionIterArgs();
  SmallVector<Value> fetchState(newArgs.begin() + numOld,
                                newArgs.begin() + numOld + carried.size());
  Value readSlot = newArgs[numOld + carried.size()];
  Value fetchSlot = newArgs[numOld + carried.size() + 1];
  Value iv = newLoop.getInductionVar();

  // This iteration's tiles have landed (ours: wait; everyone's: barrier).
  AsyncWaitOp::create(builder, loc, builder.getI32IntegerAttr(numStages - 2));
  FenceAsyncSharedOp::create(builder, loc);
  BarrierOp::create(builder, loc);

  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (unsigned i = 0; i < numOld; ++i)
    mapping.map(loop.getRegionIterArgs()[i], newArgs[i]);
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
    if (isStaged)
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
  // Every warp is done with the previous iteration's buffers: fetch into
  // the one it read. With one warp group, its wait said so already.
  if (getNumWarps(loop) > 4)
    BarrierOp::create(builder, loc);
  Value fetchIv = offsetIv(builder, loc, iv, step, numStages - 1);
  startCopies(fetchIv, fetchState, fetchSlot);
  SmallVector<Value> nextState = advance(fetchIv, fetchState);
  SmallVector<Value> yields;
  for (Value value : yield.getOperands())
    yields.push_back(mapping.lookupOrDefault(value));
  yields.append(nextState.begin(), nextState.end());
  yields.push_back(nextSlot(builder, loc, readSlot, numStages));
  yields.push_back(nextSlot(builder, loc, fetchSlot, numStages));
  scf::YieldOp::create(builder, yield.getLoc(), yields);

  // The last dots complete; no copy may still be writing when the buffers
  // are reused, by this thread or any other.
  builder.setInsertionPointAfter(newLoop);
  SmallVector<Value> results(newLoop.getResults().take_front(numOld));
  for (unsigned index : asyncResults)
    results[index] = WarpGroupDotWaitOp::create(
        builder, loc, results[index].getType(), results[index],
        builder.getI32IntegerAttr(0));
  if (guard) {
    scf::YieldOp::create(builder, loc, results);
    builder.setInsertionPointAfter(guard);
    results.assign(guard.getResults().begin(), guard.getResults().end());
  }
  AsyncWaitOp::create(builder, loc, builder.getI32IntegerAttr(0));
  BarrierOp::create(builder, loc);
  loop.replaceAllUsesWith(results);
  loop.erase();
  return true;
}
