//===- AccelerateMatmul.cpp - tilegpu-accelerate-matmul -------------------===//
//
// Moves dots that tensor cores can compute onto mma.sync layouts: the
// accumulator gets an #mma layout, the operands #dot_op layouts, and
// conversions connect them to the surrounding blocked layouts. On sm_90a,
// dots whose tile fits become warp-group dots (wgmma) reading both
// operands from swizzled shared memory.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/Debug.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUACCELERATEMATMUL
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

#define DEBUG_TYPE "tilegpu-accelerate-matmul"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Where an operand of `dot` is staged in shared memory: before the
/// outermost loop around the dot that `value` is defined outside of, so a
/// loop-invariant operand (attention's Q tile) is stored once, not every
/// iteration; else at the dot.
Operation *getStagingPoint(Operation *dot, Value value) {
  Operation *point = dot;
  while (auto loop = dyn_cast<LoopLikeOpInterface>(point->getParentOp())) {
    if (!loop.isDefinedOutsideOfLoop(value))
      break;
    point = loop;
  }
  return point;
}

/// A local_alloc of `value` into `memdesc` already made for another dot
/// (with the same tf32 rounding), moved to where it also serves `point`;
/// null if there is none. Dots that read one value (attention's Q in the
/// two loops of a causal kernel) then share one copy in shared memory,
/// stored once, instead of each storing it before its loop and the value
/// staying live in registers from the first store to the last.
LocalAllocOp findStagedCopy(Value value, MemDescType memdesc, bool tf32,
                            Operation *point) {
  for (Operation *user : value.getUsers()) {
    auto alloc = dyn_cast<LocalAllocOp>(user);
    if (!alloc || alloc.getType() != memdesc ||
        alloc->hasAttr(kRoundToTF32AttrName) != tf32)
      continue;
    if (DominanceInfo().properlyDominates(alloc.getOperation(), point))
      return alloc;
    if (Operation *def = value.getDefiningOp())
      alloc->moveAfter(def);
    else
      alloc->moveBefore(&value.getParentBlock()->front());
    return alloc;
  }
  return nullptr;
}

/// Splits `numWarps` over an [M, N] accumulator in 16 x 8 tiles, doubling
/// the side whose per-warp extent is larger.
std::pair<unsigned, unsigned> chooseWarps(int64_t m, int64_t n,
                                          unsigned numWarps) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool canM = m / (16 * wm * 2) >= 1, canN = n / (8 * wn * 2) >= 1;
    if (canM && (m / wm >= n / wn || !canN))
      wm *= 2;
    else if (canN)
      wn *= 2;
    else
      wm *= 2; // More warps than tiles: duplicates.
  }
  return {wm, wn};
}

/// Whether `dot` is chained with another dot of its region: one's result
/// flows into the other's operands, as attention's scores into P @ V. Both
/// then tile the accumulator alike (all warps along the longer side), so
/// that rows go from one to the other without leaving their warps.
bool isChainedDot(tile::DotOp dot) {
  auto sameRegion = [&](Operation *op) {
    return op->getParentRegion() == dot->getParentRegion();
  };
  BackwardSliceOptions backward;
  backward.filter = sameRegion;
  ForwardSliceOptions forward;
  forward.filter = sameRegion;
  SetVector<Operation *> slice;
  (void)getBackwardSlice(dot.getOperation(), &slice, backward);
  getForwardSlice(dot.getOperation(), &slice, forward);
  return llvm::any_of(slice, [&](Operation *op) {
    return op != dot.getOperation() && isa<tile::DotOp>(op);
  });
}

/// The contiguous dimension of a block's registers (its layout's fastest
/// dimension; for a converted block, the one before the conversion, which
/// staging stores from), or `fallback` for layouts without one.
unsigned getContiguousDim(Value value, unsigned fallback) {
  while (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    value = convert.getSrc();
  auto type = cast<RankedTensorType>(value.getType());
  if (auto layout = getDistributedLayout(type))
    if (type.getRank() == 2 && layout->blockDims.size() == 2)
      for (unsigned d : layout->root.getOrder())
        if (auto it = llvm::find(layout->blockDims, d);
            it != layout->blockDims.end())
          return it - layout->blockDims.begin();
  return fallback;
}

/// For a tf32 operand whose registers are contiguous along the other
/// dimension than K (shared memory wants it K-major, element by element):
/// gives the load it comes from a layout whose copies are 4-byte elements,
/// 8 lanes along the contiguous dimension (32-byte sectors of global
/// memory) times 4 along K. Such a warp writes 8 rows of the 128-byte
/// swizzled tile at 4 consecutive K, which the swizzle spreads over all 32
/// banks (the vectorized layout, 32 lanes along the rows, writes them 16 to
/// a bank).
void relayoutForKMajorStaging(Value operand, unsigned kDim, unsigned numWarps) {
  while (auto convert = operand.getDefiningOp<ConvertLayoutOp>())
    operand = convert.getSrc();
  auto load = operand.getDefiningOp<tile::LoadOp>();
  if (!load)
    return;
  auto type = cast<RankedTensorType>(load.getType());
  if (!isa_and_nonnull<BlockedEncodingAttr>(type.getEncoding()) ||
      type.getRank() != 2)
    return;
  unsigned other = 1 - kDim;
  ArrayRef<int64_t> shape = type.getShape();
  if (shape[kDim] % 4 != 0 || shape[other] % 8 != 0)
    return;
  SmallVector<unsigned> spt = {1, 1}, tpw(2), wpc(2);
  tpw[kDim] = 4;
  tpw[other] = 8;
  // Warps along K first, then along the other dimension.
  wpc[kDim] = std::min<unsigned>(numWarps, shape[kDim] / 4);
  wpc[other] = numWarps / wpc[kDim];
  SmallVector<unsigned> order = {other, kDim};
  giveOwnLayout(
      load, BlockedEncodingAttr::get(load.getContext(), spt, tpw, wpc, order));
  insertLayoutConversions(load);
}

/// Whether `operand` is computed (not loaded, nor a view of a load) inside
/// the loop around `dot`: such an operand is written anew every iteration,
/// so feeding the tensor cores from registers saves a round trip through
/// shared memory.
bool isComputedInLoop(Value operand, tile::DotOp dot) {
  while (auto convert = operand.getDefiningOp<ConvertLayoutOp>())
    operand = convert.getSrc();
  Operation *def = operand.getDefiningOp();
  auto loop = dot->getParentOfType<LoopLikeOpInterface>();
  if (!def || !loop || !loop->isProperAncestor(def))
    return false;
  return !isa<tile::LoadOp, tile::TransOp, LocalLoadOp>(def);
}

/// Rewrites `dot` onto wgmma if its tile fits; returns whether it did.
bool rewriteToWarpGroupDot(tile::DotOp dot, unsigned numWarps) {
  RankedTensorType aType = dot.getA().getType();
  RankedTensorType bType = dot.getB().getType();
  RankedTensorType cType = dot.getType();
  Type element = aType.getElementType();
  // tf32 reads both operands contiguous along K (no transposed forms).
  bool tf32 =
      element.isF32() && dot.getInputPrecision() == tile::InputPrecision::TF32;
  if (!(element.isF16() || element.isBF16() || tf32) || numWarps % 4 != 0 ||
      !cType.getElementType().isF32())
    return false;
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
  int64_t k = aType.getDimSize(1);
  if (m % (16 * numWarps) != 0 || n % 8 != 0 || n > 256 ||
      k % (tf32 ? 8 : 16) != 0)
    return false;
  Attribute aShared =
      getNVMMAStagingLayout(aType, tf32 ? 1 : getContiguousDim(dot.getA(), 1));
  Attribute bShared =
      getNVMMAStagingLayout(bType, tf32 ? 0 : getContiguousDim(dot.getB(), 1));
  if (!aShared || !bShared)
    return false;
  if (tf32) {
    if (getContiguousDim(dot.getA(), 1) != 1)
      relayoutForKMajorStaging(dot.getA(), 1, numWarps);
    if (getContiguousDim(dot.getB(), 1) != 0)
      relayoutForKMajorStaging(dot.getB(), 0, numWarps);
  }
  MLIRContext *context = dot.getContext();
  auto mma = MmaEncodingAttr::get(context, 3, {numWarps, 1},
                                  {64, (unsigned)n, tf32 ? 8u : 16u});
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  auto stage = [&](Value value, Attribute layout) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    auto memdesc = MemDescType::get(context, type.getShape(),
                                    type.getElementType(), layout);
    Operation *point = getStagingPoint(dot, value);
    if (LocalAllocOp copy = findStagedCopy(value, memdesc, tf32, point))
      return copy;
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(point);
    auto alloc =
        LocalAllocOp::create(builder, loc, memdesc, value, IntegerAttr());
    // The tensor cores would truncate f32 to tf32; round to nearest as the
    // mma.sync and FMA paths do.
    if (tf32)
      alloc->setAttr(kRoundToTF32AttrName, builder.getUnitAttr());
    return alloc;
  };
  // An operand `trans(x)` stages x as it is (contiguous as loaded), viewed
  // transposed: no exchange through shared memory in registers, and a load
  // of x stays a candidate for pipelining. tf32 reads K-major tiles only:
  // there the view must run along K (`kDim` of the operand), as for
  // a @ trans(w) with w stored N x K.
  auto stageTransposed = [&](Value operand,
                             unsigned kDim) -> std::optional<Value> {
    while (auto convert = operand.getDefiningOp<ConvertLayoutOp>())
      operand = convert.getSrc();
    auto trans = operand.getDefiningOp<tile::TransOp>();
    if (!trans)
      return std::nullopt;
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    unsigned srcContig = getContiguousDim(trans.getSrc(), 1);
    Attribute layout = getNVMMAStagingLayout(srcType, srcContig);
    if (srcType.getRank() != 2 || !layout || (tf32 && 1 - srcContig != kDim))
      return std::nullopt;
    return stage(trans.getSrc(), layout);
  };
  std::optional<Value> aSource = stageTransposed(dot.getA(), 1);
  std::optional<Value> bSource = stageTransposed(dot.getB(), 0);
  Value a;
  if (!aSource && !tf32 && isComputedInLoop(dot.getA(), dot))
    // A computed operand (attention's P) goes from registers: from the
    // accumulator layout it is a register permutation, no shared memory.
    a = ConvertLayoutOp::create(
        builder, loc,
        withLayout(aType, DotOperandEncodingAttr::get(context, 0, mma, 2)),
        dot.getA());
  else
    a = aSource ? *aSource : stage(dot.getA(), aShared);
  Value b = bSource ? *bSource : stage(dot.getB(), bShared);
  // The views after both allocs, which share barriers when adjacent.
  auto view = [&](Value alloc) -> Value {
    auto type = cast<MemDescType>(alloc.getType());
    return MemDescTransOp::create(builder, loc, getTransposedMemDesc(type),
                                  alloc);
  };
  if (aSource)
    a = view(a);
  if (bSource)
    b = view(b);
  Value c = ConvertLayoutOp::create(builder, loc, withLayout(cType, mma),
                                    dot.getAcc());
  auto wgmma =
      WarpGroupDotOp::create(builder, loc, withLayout(cType, mma), a, b, c);
  Value result = ConvertLayoutOp::create(builder, loc, cType, wgmma);
  Value oldA = dot.getA(), oldB = dot.getB();
  dot.replaceAllUsesWith(result);
  dot.erase();
  // The register transposes (and conversions) nothing reads any more.
  for (Value operand : {oldA, oldB})
    while (Operation *op = operand.getDefiningOp()) {
      if (!op->use_empty() || !isa<ConvertLayoutOp, tile::TransOp>(op))
        break;
      operand = op->getOperand(0);
      op->erase();
    }
  return true;
}

struct AccelerateMatmulPass
    : mlir::tilegpu::impl::TileGPUAccelerateMatmulBase<AccelerateMatmulPass> {
  using TileGPUAccelerateMatmulBase::TileGPUAccelerateMatmulBase;

  void runOnOperation() override {
    if (failed(verifyBlocksHaveLayouts(getOperation(), getArgument())))
      return signalPassFailure();
    if (computeCapability < 80)
      return;
    ModuleOp module = getOperation();
    unsigned numWarps = getNumWarps(module);
    MLIRContext *context = &getContext();
    module.walk([&](tile::DotOp dot) {
      if (isa_and_nonnull<MmaEncodingAttr>(dot.getType().getEncoding()))
        return;
      Location loc = dot.getLoc();
      if (wgmma && computeCapability >= 90 &&
          rewriteToWarpGroupDot(dot, numWarps)) {
        LLVM_DEBUG(llvm::dbgs() << "wgmma for the dot at " << loc << "\n");
        return;
      }
      RankedTensorType aType = dot.getA().getType();
      RankedTensorType cType = dot.getType();
      if (isa_and_nonnull<MmaEncodingAttr>(cType.getEncoding()))
        return;
      Type element = aType.getElementType();
      unsigned kWidth;
      if (element.isF16() || element.isBF16())
        kWidth = 2;
      else if (element.isF32() &&
               dot.getInputPrecision() == tile::InputPrecision::TF32)
        kWidth = 1;
      else
        return;
      int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
      int64_t k = aType.getDimSize(1);
      if (m % 16 || n % 8 || k % (8 * kWidth))
        return;
      auto [wm, wn] = chooseWarps(m, n, numWarps);
      if (isChainedDot(dot)) {
        if (m >= n && m % (16 * numWarps) == 0)
          std::tie(wm, wn) = std::pair<unsigned, unsigned>{numWarps, 1};
        else if (n > m && n % (8 * numWarps) == 0)
          std::tie(wm, wn) = std::pair<unsigned, unsigned>{1, numWarps};
      }
      LLVM_DEBUG(llvm::dbgs()
                 << "mma.sync for the " << m << "x" << n << "x" << k
                 << " dot at " << loc << ": warps " << wm << "x" << wn << "\n");
      auto mma = MmaEncodingAttr::get(context, 2, {wm, wn}, {16, 8});
      auto aLayout = DotOperandEncodingAttr::get(context, 0, mma, kWidth);
      auto bLayout = DotOperandEncodingAttr::get(context, 1, mma, kWidth);
      OpBuilder builder(dot);
      auto convert = [&](Value value, Attribute layout) -> Value {
        auto type = cast<RankedTensorType>(value.getType());
        return ConvertLayoutOp::create(builder, loc, withLayout(type, layout),
                                       value);
      };
      Value a = convert(dot.getA(), aLayout);
      Value b = convert(dot.getB(), bLayout);
      Value c = convert(dot.getAcc(), mma);
      auto mmaDot = tile::DotOp::create(builder, loc, withLayout(cType, mma), a,
                                        b, c, dot.getInputPrecision());
      Value result = ConvertLayoutOp::create(builder, loc, cType, mmaDot);
      dot.replaceAllUsesWith(result);
      dot.erase();
    });
  }
};
} // namespace
