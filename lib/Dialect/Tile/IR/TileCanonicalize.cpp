//===- TileCanonicalize.cpp - Canonicalization patterns of tile ops -------===//
//
// Rewrites that need more than a folder: splats seen through broadcasts and
// unit-dimension insertion, chained broadcasts, and loads/stores whose mask is
// a constant (all lanes on: drop the mask; all off: no memory access).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// The value of a mask that is a constant with every lane equal, if it is.
std::optional<bool> getConstantMask(Value mask) {
  Attribute attr;
  if (!mask || !matchPattern(mask, m_Constant(&attr)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    return splat.getSplatValue<bool>();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return !intAttr.getValue().isZero();
  return std::nullopt;
}

/// `broadcast(splat(x))` -> `splat(x)`; `expand_dims(splat(x))` -> `splat(x)`.
template <typename ShapeOp>
struct SplatThroughShapeOp : OpRewritePattern<ShapeOp> {
  using OpRewritePattern<ShapeOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return rewriter.notifyMatchFailure(op, "source is not a splat");
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

/// `broadcast(broadcast(x))` -> `broadcast(x)`.
struct CombineBroadcasts : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getSrc().getDefiningOp<BroadcastOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "source is not a broadcast");
    rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(), inner.getSrc());
    return success();
  }
};

/// A load or store whose mask is constant. All on: the access without the
/// mask (and a load's `other`). All off: a store is erased; a load yields
/// `other`, or zero, without touching memory.
template <typename MemoryOp>
struct FoldConstantMask : OpRewritePattern<MemoryOp> {
  using OpRewritePattern<MemoryOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(MemoryOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> mask = getConstantMask(op.getMask());
    if (!mask)
      return rewriter.notifyMatchFailure(op, "mask is not constant");
    if constexpr (std::is_same_v<MemoryOp, StoreOp>) {
      if (*mask)
        rewriter.replaceOpWithNewOp<StoreOp>(op, op.getPtr(), op.getValue(),
                                             Value());
      else
        rewriter.eraseOp(op);
    } else if (*mask) {
      rewriter.replaceOpWithNewOp<LoadOp>(op, op.getPtr(), Value(), Value());
    } else if (Value other = op.getOther()) {
      rewriter.replaceOp(op, other);
    } else {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, cast<TypedAttr>(rewriter.getZeroAttr(op.getType())));
    }
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<SplatThroughShapeOp<BroadcastOp>, CombineBroadcasts>(context);
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<SplatThroughShapeOp<ExpandDimsOp>>(context);
}

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FoldConstantMask<LoadOp>>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<FoldConstantMask<StoreOp>>(context);
}
