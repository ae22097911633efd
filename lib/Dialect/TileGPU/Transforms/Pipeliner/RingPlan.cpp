//===- RingPlan.cpp - Which loads a ring pipeline stages, and how ---------===//
//
// The plan step of ring pipelining (RingPipeliner.h): every dot-feeding
// load of the loop must be staged in swizzled shared memory that only dots
// read, with `other` zero or absent (what a masked-off copy writes); loads
// of loops without dots are staged in row-major tiles
// (stageLoadsWithoutDots) and copied by cp.async. A load for warp-group
// dots that is a box of a 2-D tensor (tilec/Analysis/TensorMapPlan.h) is
// copied by the copy engine when TMA is allowed; any other must be copyable
// with cp.async in runs of 4 bytes or more. The addresses and masks of cp.async
// loads must be computable for an iteration ahead from the iter args they
// read alone.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "tilec/Analysis/AccessWidth.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tilegpu-pipeline"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

SmallVector<Operation *> pipeliner::getTileReaders(LocalAllocOp alloc) {
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

bool pipeliner::isZeroOrAbsent(Value value) {
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

bool pipeliner::isCpAsyncCopyable(tile::LoadOp load,
                                  const AxisInfoAnalysis &info) {
  std::optional<AccessVectorWidth> access =
      getAccessVectorWidth(info, load.getPtr(), load.getMask());
  if (!access)
    return false;
  unsigned bytes = getSharedElementBytes(
      cast<RankedTensorType>(load.getType()).getElementType());
  return access->width * bytes >= 4;
}

namespace {
/// The local_alloc that stages `load`, if it is one: a swizzled tile that
/// only dots read (directly or through local_loads into their operands),
/// or a row-major one that local_loads read (stageLoadsWithoutDots).
LocalAllocOp getStagingAlloc(scf::ForOp loop, tile::LoadOp load) {
  if (!load->hasOneUse() || !isZeroOrAbsent(load.getOther()))
    return {};
  auto alloc = dyn_cast<LocalAllocOp>(*load->getUsers().begin());
  if (!alloc || alloc->getBlock() != loop.getBody())
    return {};
  if (isRowMajorShared(alloc.getType()))
    return llvm::all_of(alloc->getUsers(),
                        [](Operation *user) { return isa<LocalLoadOp>(user); })
               ? alloc
               : LocalAllocOp();
  if (!getNVMMASharedLayout(alloc.getType()))
    return {};
  if (!llvm::all_of(getTileReaders(alloc), [](Operation *user) {
        return isa<WarpGroupDotOp, LocalLoadOp>(user);
      }))
    return {};
  return alloc;
}

/// Whether warp-group dots read the swizzled tile `alloc` makes. Only
/// those get bulk tensor copies: tiles that ldmatrix reads for mma.sync are
/// copied with cp.async, as Triton does (the mbarrier ring and the tensor
/// maps cost more than they save in the small mma.sync kernels: mamba's
/// 64x64 bmm_chunk on 2 warps ran at 0.74x Triton with bulk copies, 1.00x
/// with cp.async; large matmuls the same either way).
bool isReadByWarpGroupDots(LocalAllocOp alloc) {
  return getNVMMASharedLayout(alloc.getType()) &&
         llvm::any_of(getTileReaders(alloc), [](Operation *user) {
           return isa<WarpGroupDotOp>(user);
         });
}

/// The staged loads of `loop`, or failure if some dot-feeding load is not
/// one or cannot be copied asynchronously.
FailureOr<SmallVector<StagedLoad, 2>>
getStagedLoads(scf::ForOp loop, const AxisInfoAnalysis &info, bool useTma) {
  SmallVector<StagedLoad, 2> staged;
  for (Operation &op : *loop.getBody()) {
    auto load = dyn_cast<tile::LoadOp>(op);
    if (!load || !isa<RankedTensorType>(load.getType()))
      continue;
    LocalAllocOp alloc = getStagingAlloc(loop, load);
    if (!alloc && !feedsDot(load))
      continue; // neither staged nor needed by a dot: an ordinary load
    if (!alloc)
      return failure();
    StagedLoad s;
    s.load = load;
    s.alloc = alloc;
    if (useTma && isReadByWarpGroupDots(alloc))
      s.tma = planTensorMapLoad(load, loop, alloc.getType(), info);
    if (!s.tma && !isCpAsyncCopyable(load, info))
      return failure();
    LLVM_DEBUG(llvm::dbgs() << "  staged load at " << load.getLoc() << ": "
                            << (s.tma ? "TMA" : "cp.async") << "\n");
    staged.push_back(std::move(s));
  }
  if (staged.empty())
    return failure();
  return staged;
}

/// Iter args that only carry the pointers of staged loads (`arg` feeds
/// those loads and `addptr(arg, step)`, which only the yield uses, and the
/// loop's result is unused): the pipelined loop drops them. Bulk copies
/// need no pointers; cp.async copies take theirs from the fetch state,
/// which runs `num_stages - 1` iterations ahead, so the old pointers would
/// only advance themselves (in matmul's loop, 16 of its 64-bit adds).
SmallVector<unsigned>
getStagedPointerIterArgs(scf::ForOp loop, MutableArrayRef<StagedLoad> staged) {
  SmallVector<unsigned> dropped;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned index = 0; index < loop.getNumRegionIterArgs(); ++index) {
    BlockArgument arg = loop.getRegionIterArgs()[index];
    if (!loop.getResult(index).use_empty())
      continue;
    auto advance = yield.getOperand(index).getDefiningOp<tile::AddPtrOp>();
    if (!advance || advance.getPtr() != arg || !advance->hasOneUse())
      continue;
    bool onlyStaged = llvm::all_of(arg.getUsers(), [&](Operation *user) {
      if (user == advance.getOperation())
        return true;
      return llvm::any_of(staged, [&](StagedLoad &s) {
        return user == s.load.getOperation() && s.load.getMask() != arg;
      });
    });
    if (onlyStaged)
      dropped.push_back(index);
  }
  return dropped;
}

/// Whether `value` is an iter arg outside `plan.carried`.
bool isOtherIterArg(const RingPlan &plan, Value value) {
  std::optional<unsigned> index = getIterArgIndex(plan.loop, value);
  return index && !llvm::is_contained(plan.carried, *index);
}

/// What the cp.async loads' addresses and masks depend on (`slice`, from
/// the iter args `carried`), and how those advance; fails unless their next
/// values are computable from them alone.
LogicalResult planAddresses(RingPlan &plan) {
  scf::ForOp loop = plan.loop;
  SmallVector<tile::LoadOp> copied;
  for (StagedLoad &s : plan.staged)
    if (!s.tma)
      copied.push_back(s.load);
  FailureOr<SmallVector<Operation *>> slice =
      getLoadSlice(loop, copied, plan.carried);
  if (failed(slice))
    return failure();
  plan.slice = std::move(*slice);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (unsigned index : plan.carried)
    plan.advanced.push_back(yield.getOperand(index));
  FailureOr<SmallVector<Operation *>> advanceSlice =
      getSlice(loop, plan.advanced);
  if (failed(advanceSlice))
    return failure();
  plan.advanceSlice = std::move(*advanceSlice);
  for (Operation *op : plan.advanceSlice)
    for (Value operand : op->getOperands())
      if (isOtherIterArg(plan, operand))
        return failure();
  for (Value value : plan.advanced)
    if (isOtherIterArg(plan, value))
      return failure();
  return success();
}
} // namespace

FailureOr<RingPlan> pipeliner::planRing(scf::ForOp loop, int64_t numStages,
                                        bool useTma) {
  RingPlan plan;
  plan.loop = loop;
  plan.numStages = numStages;
  AxisInfoAnalysis info(loop->getParentOfType<func::FuncOp>());
  FailureOr<SmallVector<StagedLoad, 2>> staged =
      getStagedLoads(loop, info, useTma);
  if (failed(staged))
    return failure();
  plan.staged = std::move(*staged);
  plan.hasTma = llvm::any_of(plan.staged, [](auto &s) { return s.tma; });
  plan.hasCopies = llvm::any_of(plan.staged, [](auto &s) { return !s.tma; });
  plan.hasWarpGroupDots = llvm::any_of(plan.staged, [](StagedLoad &s) {
    return llvm::any_of(getTileReaders(s.alloc), [](Operation *user) {
      return isa<WarpGroupDotOp>(user);
    });
  });
  if (failed(planAddresses(plan)))
    return failure();
  plan.dropped = getStagedPointerIterArgs(loop, plan.staged);
  return plan;
}
