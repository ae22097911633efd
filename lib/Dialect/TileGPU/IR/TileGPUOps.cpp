//===- TileGPUOps.cpp - Verifiers and folders of tilegpu ops --------------===//
//
// Shape checks of the shared-memory ops, and the folds and
// rematerializations that remove needless layout conversions: a conversion
// of a value that is as cheap to create in the new layout (a splat, a
// range, a constant) creates it there instead.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::tilegpu;

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"

namespace {
/// Checks that a register block and a shared-memory tile hold the same
/// shape and element type.
LogicalResult verifySameTile(Operation *op, RankedTensorType tensor,
                             MemDescType memdesc) {
  if (tensor.getShape() != memdesc.getShape() ||
      tensor.getElementType() != memdesc.getElementType())
    return op->emitOpError("block ") << tensor << " and shared tile " << memdesc
                                     << " differ in shape or element type";
  return success();
}

/// The most ops a conversion's source expression may have and still be
/// recomputed in the target layout instead of moved through shared memory:
/// outside loops (the conversion runs once; recomputing in a layout that
/// replicates the values costs registers), and inside a loop (a conversion
/// through shared memory costs two barriers every iteration; address and
/// mask chains of a flattened loop nest are 40 to 80 ops).
constexpr int kRematerializeBudget = 32;
constexpr int kRematerializeBudgetInLoop = 96;

/// Whether `load` reads fewer elements than its layout has threads: every
/// thread holds at most one, and a second load of the same addresses in
/// another layout hits the cache (Triton's cheap loads).
bool isSmallLoad(tile::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type)
    return false;
  int64_t threads = 32 * int64_t(getLayoutNumWarps(type.getEncoding()));
  return type.getNumElements() < threads;
}

/// Whether nothing between `load` and `site` (later in the same block) may
/// write memory, so that the load reads the same values at `site`.
bool hasNoWritesBetween(tile::LoadOp load, Operation *site) {
  if (load->getBlock() != site->getBlock() || !load->isBeforeInBlock(site))
    return false;
  for (Operation *op = load->getNextNode(); op && op != site;
       op = op->getNextNode()) {
    if (isMemoryEffectFree(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.hasEffect<MemoryEffects::Write>())
      return false;
  }
  return true;
}

/// Recomputes a conversion's source in the target layout when it is built
/// only from splats, ranges and splat constants by expand_dims, broadcast,
/// reshape and elementwise ops (at most `budget` ops), so that recomputing is
/// cheaper than moving it through shared memory. Inside a loop, blocks
/// defined outside the loop are leaves too: they are converted once, where
/// they are defined, instead of every iteration. A small load (fewer
/// elements than threads: isSmallLoad) of such addresses is loaded again in
/// the target layout (an index block whose rows and columns both need it: a
/// page table's entries; a row vector loaded in a 1-D layout and broadcast
/// along a tile's columns), at the conversion where no write may come
/// between, else right after the first load.
struct Rematerializer {
  Operation *loop; // the innermost loop around the conversion, or null
  Operation *site; // the conversion
  int budget;

  bool isLoopInvariantLeaf(Value value) const {
    if (!loop)
      return false;
    Operation *def = value.getDefiningOp();
    Operation *scope = def ? def : value.getParentRegion()->getParentOp();
    return !loop->isAncestor(scope);
  }

  /// Whether `value` is cheap to recreate in `layout`.
  bool isCheap(Value value, Attribute layout) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || --budget < 0)
      return false;
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<tile::SplatOp, tile::MakeRangeOp>(def))
      return true;
    DenseElementsAttr constant;
    if (matchPattern(value, m_Constant(&constant)))
      return constant.isSplat();
    // Conversions compose: recreate their source instead.
    if (auto convert = dyn_cast_or_null<ConvertLayoutOp>(def))
      return isCheap(convert.getSrc(), layout);
    if (isLoopInvariantLeaf(value))
      return true;
    if (!def)
      return false;
    bool elementwise =
        (def->hasTrait<OpTrait::Elementwise>() || isa<tile::AddPtrOp>(def)) &&
        def->getNumResults() == 1 && def->getNumRegions() == 0 &&
        isMemoryEffectFree(def);
    auto load = dyn_cast<tile::LoadOp>(def);
    bool smallLoad = load && isSmallLoad(load);
    Attribute operandLayout = layout;
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(def))
      operandLayout =
          SliceEncodingAttr::get(def->getContext(), expand.getAxis(), layout);
    else if (auto reshape = dyn_cast<tile::ReshapeOp>(def))
      operandLayout = getReshapedLayout(withLayout(type, layout),
                                        reshape.getSrc().getType().getShape());
    else if (!elementwise && !smallLoad && !isa<tile::BroadcastOp>(def))
      return false;
    if (!operandLayout)
      return false;
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()) &&
          !isCheap(operand, operandLayout))
        return false;
    return true;
  }

  /// `value` (cheap, see above) built again in `layout`.
  Value recreate(PatternRewriter &rewriter, Value value, Attribute layout) {
    auto type = cast<RankedTensorType>(value.getType());
    RankedTensorType newType = withLayout(type, layout);
    Operation *def = value.getDefiningOp();
    if (auto splat = dyn_cast_or_null<tile::SplatOp>(def))
      return tile::SplatOp::create(rewriter, def->getLoc(), newType,
                                   splat.getSrc());
    if (auto range = dyn_cast_or_null<tile::MakeRangeOp>(def))
      return tile::MakeRangeOp::create(rewriter, def->getLoc(), newType,
                                       range.getStart(), range.getEnd());
    DenseElementsAttr constant;
    if (matchPattern(value, m_Constant(&constant)))
      return arith::ConstantOp::create(rewriter, def->getLoc(),
                                       constant.reshape(newType));
    if (auto convert = dyn_cast_or_null<ConvertLayoutOp>(def))
      return recreate(rewriter, convert.getSrc(), layout);
    if (isLoopInvariantLeaf(value)) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfterValue(value);
      return ConvertLayoutOp::create(rewriter, value.getLoc(), newType, value);
    }
    Location loc = def->getLoc();
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(def)) {
      auto slice = SliceEncodingAttr::get(rewriter.getContext(),
                                          expand.getAxis(), layout);
      Value src = recreate(rewriter, expand.getSrc(), slice);
      return tile::ExpandDimsOp::create(rewriter, loc, newType, src,
                                        expand.getAxisAttr());
    }
    if (auto broadcast = dyn_cast<tile::BroadcastOp>(def))
      return tile::BroadcastOp::create(
          rewriter, loc, newType,
          recreate(rewriter, broadcast.getSrc(), layout));
    if (auto reshape = dyn_cast<tile::ReshapeOp>(def)) {
      // From the source in the layout that keeps every element in its
      // thread (isCheap checked that there is one).
      BlockedEncodingAttr srcLayout =
          getReshapedLayout(newType, reshape.getSrc().getType().getShape());
      return tile::ReshapeOp::create(
          rewriter, loc, newType,
          recreate(rewriter, reshape.getSrc(), srcLayout));
    }
    // A load is loaded again where it was when a write may come between
    // it and the conversion (its addresses are recreated there too).
    OpBuilder::InsertionGuard guard(rewriter);
    if (auto load = dyn_cast<tile::LoadOp>(def);
        load && !hasNoWritesBetween(load, site))
      rewriter.setInsertionPointAfter(load);
    IRMapping mapping;
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        mapping.map(operand, recreate(rewriter, operand, layout));
    Operation *clone = rewriter.clone(*def, mapping);
    clone->getResult(0).setType(newType);
    return clone->getResult(0);
  }
};

/// `convert_layout(x)` where `x` is a splat or a splat constant, or (to a
/// blocked, mma or slice layout) is built only from splats, ranges and
/// constants (masks and offsets from `arange`): create `x` in the target layout
/// directly.
/// The rematerializer of a conversion of `src` to `layout` at `site`, if
/// `src` is cheap enough to recreate there.
std::optional<Rematerializer> getRematerializer(Value src, Attribute layout,
                                                Operation *site) {
  // A splat or a constant exists in any layout; expressions are rebuilt
  // in blocked and mma layouts and their slices (which ranges, expand_dims,
  // broadcast and elementwise ops lower in through their linear layouts).
  bool distributed =
      isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr, MmaEncodingAttr>(
          layout);
  if (!distributed && isa_and_nonnull<tile::MakeRangeOp>(src.getDefiningOp()))
    return std::nullopt; // a range needs a 1-D layout
  // Leaves outside the loop only for distributed targets, and only when
  // the conversion itself is not already outside every loop.
  Operation *loop = site->getParentOfType<LoopLikeOpInterface>();
  int budget = !distributed ? 1
               : loop       ? kRematerializeBudgetInLoop
                            : kRematerializeBudget;
  if (!distributed)
    loop = nullptr;
  Rematerializer rematerializer{loop, site, budget};
  if (!rematerializer.isCheap(src, layout))
    return std::nullopt;
  return rematerializer;
}

struct RematerializeCheapSource : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Attribute layout = op.getType().getEncoding();
    std::optional<Rematerializer> rematerializer =
        getRematerializer(op.getSrc(), layout, op);
    if (!rematerializer)
      return rewriter.notifyMatchFailure(op, "source is not cheap to recreate");
    rewriter.replaceOp(op,
                       rematerializer->recreate(rewriter, op.getSrc(), layout));
    return success();
  }
};
} // namespace

bool mlir::tilegpu::isCheapToRecreate(Value value, Attribute layout,
                                      Operation *site) {
  return getRematerializer(value, layout, site).has_value();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  return tile::foldRetypeChain(*this);
}

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<RematerializeCheapSource>(context);
}

namespace {
/// `local_alloc(convert_layout(x))` with `x` blocked: store `x` directly.
struct StoreBeforeConversion : OpRewritePattern<LocalAllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LocalAllocOp op,
                                PatternRewriter &rewriter) const override {
    Value src = op.getSrc();
    auto convert = src ? src.getDefiningOp<ConvertLayoutOp>() : nullptr;
    if (!convert ||
        !isa<BlockedEncodingAttr>(convert.getSrc().getType().getEncoding()))
      return rewriter.notifyMatchFailure(op, "no conversion from blocked");
    rewriter.modifyOpInPlace(
        op, [&] { op.getSrcMutable().assign(convert.getSrc()); });
    return success();
  }
};
} // namespace

void LocalAllocOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<StoreBeforeConversion>(context);
}

LogicalResult LocalAllocOp::verify() {
  if (!getSrc())
    return success();
  return verifySameTile(*this, cast<RankedTensorType>(getSrc().getType()),
                        getType());
}

LogicalResult LocalLoadOp::verify() {
  return verifySameTile(*this, cast<RankedTensorType>(getType()),
                        getSrc().getType());
}

LogicalResult LocalStoreOp::verify() {
  return verifySameTile(*this, cast<RankedTensorType>(getSrc().getType()),
                        getDst().getType());
}

LogicalResult WarpGroupDotOp::verify() {
  auto aTile = dyn_cast<MemDescType>(getA().getType());
  auto aBlock = dyn_cast<RankedTensorType>(getA().getType());
  ArrayRef<int64_t> aShape = aTile ? aTile.getShape() : aBlock.getShape();
  Type element = aTile ? aTile.getElementType() : aBlock.getElementType();
  MemDescType bType = getB().getType();
  auto accType = cast<RankedTensorType>(getAcc().getType());
  if (aShape.size() != 2 || bType.getShape().size() != 2 ||
      accType.getRank() != 2)
    return emitOpError("operands must be 2-D");
  int64_t m = aShape[0], k = aShape[1];
  int64_t n = bType.getShape()[1];
  if (bType.getShape()[0] != k || accType.getDimSize(0) != m ||
      accType.getDimSize(1) != n)
    return emitOpError("shapes do not form [M, K] x [K, N] -> [M, N]: ")
           << getA().getType() << ", " << bType << ", " << accType;
  if (element != bType.getElementType() ||
      !(element.isF16() || element.isBF16() || element.isF32()))
    return emitOpError("operands must both be f16, bf16 or f32 (tf32)");
  if (element.isF32() && aTile) {
    auto aShared = dyn_cast<NVMMASharedEncodingAttr>(aTile.getEncoding());
    auto bShared = dyn_cast<NVMMASharedEncodingAttr>(bType.getEncoding());
    if (aShared && bShared &&
        (aShared.getOrder()[0] != 1 || bShared.getOrder()[0] != 0))
      return emitOpError("tf32 operands must be contiguous along K "
                         "(a: order [1, 0], b: order [0, 1])");
  }
  if (!accType.getElementType().isF32())
    return emitOpError("accumulator must be f32");
  if ((aTile && !isa<NVMMASharedEncodingAttr>(aTile.getEncoding())) ||
      !isa<NVMMASharedEncodingAttr>(bType.getEncoding()))
    return emitOpError("operands must have #tilegpu.nvmma_shared layouts");
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(accType.getEncoding());
  if (!mma || mma.getVersionMajor() != 3)
    return emitOpError("accumulator must have an #tilegpu.mma layout of "
                       "version 3");
  if (aBlock) {
    auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(aBlock.getEncoding());
    if (!dot || dot.getOpIdx() != 0 || dot.getParent() != mma ||
        dot.getKWidth() != 2 || element.isF32())
      return emitOpError("a block in registers must be f16 or bf16 with the "
                         "accumulator's #tilegpu.dot_op layout (opIdx 0, "
                         "kWidth 2)");
  }
  int64_t rowsPerRep = 16 * mma.getWarpsPerCTA()[0];
  int64_t kStep = element.isF32() ? 8 : 16;
  if (m % rowsPerRep != 0 || k % kStep != 0 || n % 8 != 0 || n > 256)
    return emitOpError("shape ")
           << m << "x" << n << "x" << k
           << " does not fit wgmma: M a multiple of " << rowsPerRep
           << ", N a multiple of 8 up to 256, K of " << kStep;
  return success();
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getShape().size() != result.getShape().size() + 1 ||
      src.getShape().drop_front() != result.getShape() ||
      src.getElementType() != result.getElementType() ||
      src.getEncoding() != result.getEncoding())
    return emitOpError("result ") << result << " is not one tile of " << src;
  return success();
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType();
  MemDescType expected = getTransposedMemDesc(src);
  if (!expected)
    return emitOpError(
               "expected a 2-D tile of #tilegpu.nvmma_shared layout, got ")
           << src;
  if (getType() != expected)
    return emitOpError("result ")
           << getType() << " is not the transposed view " << expected;
  return success();
}

LogicalResult AsyncCopyGlobalToLocalOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto pointer = dyn_cast<tile::PointerType>(src.getElementType());
  MemDescType dst = getDst().getType();
  if (!pointer || pointer.getPointeeType() != dst.getElementType() ||
      src.getShape() != dst.getShape())
    return emitOpError("pointers ")
           << src << " do not address the elements of " << dst;
  if (Value mask = getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (maskType.getShape() != src.getShape() ||
        !maskType.getElementType().isInteger(1))
      return emitOpError("mask must be an i1 block of the pointers' shape");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Bulk tensor copies and mbarriers
//===----------------------------------------------------------------------===//

/// Whether `type` is a single mbarrier: one i64 in shared memory.
static bool isBarrier(MemDescType type) {
  return type.getShape().size() == 1 && type.getShape()[0] == 1 &&
         type.getElementType().isInteger(64);
}

static LogicalResult verifyBarrier(Operation *op, MemDescType type) {
  if (!isBarrier(type))
    return op->emitOpError("expects an mbarrier (!tilegpu.memdesc<1xi64, ...>)"
                           ", got ")
           << type;
  return success();
}

LogicalResult CreateTensorMapOp::verify() {
  auto pointee = cast<tile::PointerType>(getBase().getType()).getPointeeType();
  if (pointee != getType().getElementType())
    return emitOpError("base points to ")
           << pointee << " but the tensor map copies "
           << getType().getElementType();
  return success();
}

LogicalResult AsyncTMACopyGlobalToLocalOp::verify() {
  TensorMapType map = getMap().getType();
  MemDescType dst = getDst().getType();
  if (failed(verifyBarrier(*this, getBarrier().getType())))
    return failure();
  auto layout = dyn_cast<NVMMASharedEncodingAttr>(dst.getEncoding());
  if (dst.getElementType() != map.getElementType() ||
      dst.getEncoding() != map.getEncoding() || !layout ||
      dst.getShape().size() != 2)
    return emitOpError("destination ")
           << dst << " is not laid out as the boxes of " << map;
  unsigned contig = layout.getOrder()[0];
  ArrayRef<int64_t> box = map.getBoxShape();
  if (dst.getShape()[1 - contig] != box[1 - contig] ||
      dst.getShape()[contig] % box[contig] != 0)
    return emitOpError("destination ")
           << dst << " is not a whole number of boxes of " << map;
  return success();
}

LogicalResult InitBarrierOp::verify() {
  if (getCount() < 1)
    return emitOpError("count must be positive, got ") << getCount();
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult InvalBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult BarrierExpectOp::verify() {
  if (getBytes() < 0 || getBytes() >= (1 << 20))
    return emitOpError("bytes must be in [0, 2^20), got ") << getBytes();
  return verifyBarrier(*this, getBarrier().getType());
}

LogicalResult WaitBarrierOp::verify() {
  return verifyBarrier(*this, getBarrier().getType());
}
