//===- RemoveLayoutConversions.cpp - tilegpu-remove-layout-conversions ----===//
//
// Layout propagation. Layout assignment, coalescing and the tensor-core
// rewrite fix the layouts of the anchors (global loads and stores keep
// their coalesced layouts, dots their mma layouts and operand layouts) and
// put a `convert_layout` wherever an op wants another layout than its
// operand has. This pass moves blocks into the layouts that remove those
// conversions, in four steps:
//   1. propagation (LayoutPropagation.cpp): for every conversion from A to
//      B, try computing its result's users in A (forward from the anchor),
//      and else its source in B (a loop-carried block carried in the layout
//      its users want); keep the change when the cost model says the
//      remaining conversions are cheaper. Repeated until nothing changes.
//   2. rematerialization: the canonicalization patterns of convert_layout
//      recreate splats, ranges, constants and expressions of them in the
//      target layout, and fold chains of conversions; a conversion of an
//      expand_dims or a broadcast converts its operand instead (as many or
//      fewer elements, and it may fold with the conversion before it), and
//      so does a conversion of an elementwise op whose operands are
//      conversions (they fold) or cheap to recreate.
//   3. a conversion of a loop-invariant block moves before the loop.
//   4. a conversion used only in one branch of an `scf.if` moves into it.
//
//===----------------------------------------------------------------------===//

#include "LayoutPropagation.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONS
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

#define DEBUG_TYPE "tilegpu-remove-layout-conversions"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The most candidate changes kept in one function (each lowers the
/// modelled cost, so this only bounds compile time).
constexpr unsigned kMaxChanges = 256;

/// Tries each conversion's source layout for its result, then its result
/// layout for its source; the same for each reshape that moves data, with
/// the layouts that would make it move none (getReshapedLayout). Returns
/// whether one change was kept.
bool propagateOnce(Operation *root) {
  SmallVector<Operation *> exchanges;
  root->walk([&](Operation *op) {
    if (isa<ConvertLayoutOp, tile::ReshapeOp>(op))
      exchanges.push_back(op);
  });
  for (Operation *op : exchanges) {
    Value src = op->getOperand(0), result = op->getResult(0);
    auto srcType = cast<RankedTensorType>(src.getType());
    auto resultType = cast<RankedTensorType>(result.getType());
    Attribute resultLayout = resultType.getEncoding();
    Attribute srcLayout = srcType.getEncoding();
    if (isa<tile::ReshapeOp>(op)) {
      if (isThreadLocalReshape(srcType, resultType))
        continue;
      resultLayout = getReshapedLayout(resultType, srcType.getShape());
      srcLayout = getReshapedLayout(srcType, resultType.getShape());
    }
    if (srcLayout && propagateLayout(result, srcLayout))
      return true;
    if (resultLayout && propagateLayout(src, resultLayout))
      return true;
  }
  return false;
}

/// `convert(expand_dims(x))` -> `expand_dims(convert(x))` into the slice of
/// the target layout: as many elements move, and the conversion can fold
/// with one that produced x (a row statistic converted to a slice, expanded,
/// and converted again to the tile's layout).
struct ConvertBeforeExpandDims : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto expand = op.getSrc().getDefiningOp<tile::ExpandDimsOp>();
    Attribute layout = op.getType().getEncoding();
    if (!expand || !expand->hasOneUse() || !canComputeIn(expand, layout))
      return rewriter.notifyMatchFailure(op, "not a lone expand_dims");
    auto srcType = cast<RankedTensorType>(expand.getSrc().getType());
    auto slice = SliceEncodingAttr::get(getContext(), expand.getAxis(), layout);
    Value converted = ConvertLayoutOp::create(
        rewriter, op.getLoc(), withLayout(srcType, slice), expand.getSrc());
    rewriter.replaceOpWithNewOp<tile::ExpandDimsOp>(op, op.getType(), converted,
                                                    expand.getAxisAttr());
    return success();
  }
};

/// `convert(broadcast(x))` -> `broadcast(convert(x))`: the conversion moves
/// the unbroadcast block, fewer elements.
struct ConvertBeforeBroadcast : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto broadcast = op.getSrc().getDefiningOp<tile::BroadcastOp>();
    Attribute layout = op.getType().getEncoding();
    if (!broadcast || !broadcast->hasOneUse() ||
        !canComputeIn(broadcast, layout))
      return rewriter.notifyMatchFailure(op, "not a lone broadcast");
    auto srcType = cast<RankedTensorType>(broadcast.getSrc().getType());
    Value converted = ConvertLayoutOp::create(
        rewriter, op.getLoc(), withLayout(srcType, layout), broadcast.getSrc());
    rewriter.replaceOpWithNewOp<tile::BroadcastOp>(op, op.getType(), converted);
    return success();
  }
};

/// `convert(f(convert(x), y))` -> `f(convert(x), convert(y))` for a pure
/// elementwise `f` used once, each of whose block operands is a conversion
/// or cheap to recreate in the target layout: the conversions fold, one
/// fewer moves through shared memory (a loaded block converted to one
/// layout, cast, and converted to the next).
struct ConvertBeforeElementwise : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    Attribute layout = op.getType().getEncoding();
    if (!def || !def->hasOneUse() || !isPureElementwise(def) ||
        !canComputeIn(def, layout))
      return rewriter.notifyMatchFailure(op, "not a lone elementwise op");
    bool foldsOne = false;
    for (Value operand : def->getOperands()) {
      if (!isa<RankedTensorType>(operand.getType()))
        continue;
      if (operand.getDefiningOp<ConvertLayoutOp>())
        foldsOne = true;
      else if (!isCheapToRecreate(operand, layout, op))
        return rewriter.notifyMatchFailure(op, "an operand would move");
    }
    if (!foldsOne)
      return rewriter.notifyMatchFailure(op, "no conversion to fold");
    IRMapping mapping;
    for (Value operand : def->getOperands())
      if (auto type = dyn_cast<RankedTensorType>(operand.getType()))
        mapping.map(operand,
                    ConvertLayoutOp::create(rewriter, op.getLoc(),
                                            withLayout(type, layout), operand));
    Operation *clone = rewriter.clone(*def, mapping);
    clone->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, clone->getResult(0));
    return success();
  }
};

/// Moves conversions of blocks defined outside a loop before the loop.
void hoistLoopInvariantConversions(Operation *root) {
  root->walk([&](ConvertLayoutOp convert) {
    while (auto loop = dyn_cast<LoopLikeOpInterface>(convert->getParentOp())) {
      if (!loop.isDefinedOutsideOfLoop(convert.getSrc()))
        return;
      LLVM_DEBUG(llvm::dbgs() << "hoisting " << convert << "\n");
      convert->moveBefore(loop);
    }
  });
}

/// Moves a conversion whose users all lie in one branch of a later
/// `scf.if` of its block into that branch, off the other branch's path.
void sinkIntoBranches(Operation *root) {
  SmallVector<ConvertLayoutOp> converts;
  root->walk([&](ConvertLayoutOp op) { converts.push_back(op); });
  for (ConvertLayoutOp convert : converts) {
    while (!convert->use_empty()) {
      Region *region = nullptr;
      bool single = true;
      for (Operation *user : convert->getUsers()) {
        Operation *ancestor = convert->getBlock()->findAncestorOpInBlock(*user);
        auto branch = dyn_cast_or_null<scf::IfOp>(ancestor);
        Region *userRegion = nullptr;
        if (branch && branch != user)
          for (Region &candidate : branch->getRegions())
            if (candidate.isAncestor(user->getParentRegion()))
              userRegion = &candidate;
        if (!userRegion || (region && region != userRegion))
          single = false;
        region = userRegion;
      }
      if (!single || !region)
        break;
      convert->moveBefore(&region->front(), region->front().begin());
    }
  }
}

struct RemoveLayoutConversionsPass
    : mlir::tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    if (failed(verifyBlocksHaveLayouts(getOperation(), getArgument())))
      return signalPassFailure();
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, context);
    LocalAllocOp::getCanonicalizationPatterns(patterns, context);
    patterns.add<ConvertBeforeExpandDims, ConvertBeforeBroadcast,
                 ConvertBeforeElementwise>(context);
    FrozenRewritePatternSet frozen(std::move(patterns));

    // Rematerialization runs after propagation, not between its steps: it
    // may undo a step (recomputing a cheap chain in the old layout), and
    // the step would be taken again.
    for (Operation &function : module.getOps())
      for (unsigned changes = 0;
           changes < kMaxChanges && propagateOnce(&function); ++changes)
        ;
    (void)applyPatternsGreedily(module, frozen);
    hoistLoopInvariantConversions(module);
    sinkIntoBranches(module);
  }
};
} // namespace
