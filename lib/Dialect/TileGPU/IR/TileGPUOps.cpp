//===- TileGPUOps.cpp - Verifiers and folders of tilegpu ops --------------===//
//
// Shape checks of the shared-memory ops, and the folds and
// rematerializations that remove needless layout conversions: a conversion
// of a value that is as cheap to create in the new layout (a splat, a
// range, a constant) creates it there instead.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

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

/// `convert_layout(x)` where `x` is a splat, a range or a splat constant:
/// create `x` in the target layout directly.
struct RematerializeCheapSource : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *src = op.getSrc().getDefiningOp();
    if (!src)
      return rewriter.notifyMatchFailure(op, "source is a block argument");
    Type type = op.getType();
    if (auto splat = dyn_cast<tile::SplatOp>(src)) {
      rewriter.replaceOpWithNewOp<tile::SplatOp>(op, type, splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<tile::MakeRangeOp>(src)) {
      rewriter.replaceOpWithNewOp<tile::MakeRangeOp>(op, type, range.getStart(),
                                                     range.getEnd());
      return success();
    }
    DenseElementsAttr value;
    if (matchPattern(op.getSrc(), m_Constant(&value)) && value.isSplat()) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, value.reshape(cast<ShapedType>(type)));
      return success();
    }
    return rewriter.notifyMatchFailure(op, "source is not cheap to recreate");
  }
};
} // namespace

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<RematerializeCheapSource>(context);
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
