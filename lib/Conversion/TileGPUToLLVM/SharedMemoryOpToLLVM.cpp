//===- SharedMemoryOpToLLVM.cpp - Data exchange through shared memory -----===//
//
// convert_layout, trans and reshape move elements between threads: every
// thread writes its registers to the op's scratch shared memory at the
// row-major position of their elements, a barrier, then every thread reads
// the elements its result registers hold. A conversion between layouts
// that put every element in the same register moves nothing.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Maps an element index of the result to the row-major position of the
/// same element in the staged source.
using PositionFn = function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)>;

LogicalResult exchangeThroughShared(Operation *op, Value src, Value adaptedSrc,
                                    RankedTensorType resultType,
                                    const TypeConverter &converter,
                                    ConversionPatternRewriter &rewriter,
                                    PositionFn resultPosition) {
  Location loc = op->getLoc();
  auto srcType = cast<RankedTensorType>(src.getType());
  Type resultLLVMType = converter.convertType(resultType);
  if (!resultLLVMType || !tilegpu::hasRegisterLayout(srcType.getEncoding()) ||
      !tilegpu::hasRegisterLayout(resultType.getEncoding()))
    return rewriter.notifyMatchFailure(op, "layouts must hold registers");
  Type elementType = unpackRegisters(rewriter, loc, adaptedSrc)[0].getType();
  ThreadIds ids = getThreadIds(rewriter, loc);
  Value base = getScratchBase(rewriter, loc, op);

  SmallVector<Value> srcRegisters = unpackRegisters(rewriter, loc, adaptedSrc);
  SmallVector<SmallVector<Value>> srcIndices =
      emitIndices(rewriter, loc, srcType, ids);
  createBarrier(rewriter, loc);
  Type slotType = elementType.isInteger(1) ? rewriter.getI8Type() : elementType;
  for (auto [value, index] : llvm::zip(srcRegisters, srcIndices)) {
    Value position = linearizeIndex(rewriter, loc, index, srcType.getShape());
    storeShared(rewriter, loc, gep(rewriter, loc, slotType, base, position),
                value);
  }
  createBarrier(rewriter, loc);
  SmallVector<Value> results;
  for (auto &index : emitIndices(rewriter, loc, resultType, ids)) {
    Value position = resultPosition(rewriter, loc, index);
    results.push_back(loadShared(rewriter, loc, elementType,
                                 gep(rewriter, loc, slotType, base, position)));
  }
  rewriter.replaceOp(op,
                     packRegisters(rewriter, loc, results, resultLLVMType));
  return success();
}

struct ConvertLayoutOpConversion
    : OpConversionPattern<tilegpu::ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType resultType = op.getType();
    if (tilegpu::layoutsAreEquivalent(srcType, resultType)) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    ArrayRef<int64_t> shape = srcType.getShape();
    return exchangeThroughShared(
        op, op.getSrc(), adaptor.getSrc(), resultType, *getTypeConverter(),
        rewriter, [&](OpBuilder &b, Location loc, ArrayRef<Value> index) {
          return linearizeIndex(b, loc, index, shape);
        });
  }
};

struct TransOpConversion : OpConversionPattern<tile::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = op.getSrc().getType().getShape();
    return exchangeThroughShared(
        op, op.getSrc(), adaptor.getSrc(), op.getType(), *getTypeConverter(),
        rewriter, [&](OpBuilder &b, Location loc, ArrayRef<Value> index) {
          // Result (j, i) is source (i, j).
          return linearizeIndex(b, loc, {index[1], index[0]}, shape);
        });
  }
};

struct ReshapeOpConversion : OpConversionPattern<tile::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> shape = op.getType().getShape();
    return exchangeThroughShared(
        op, op.getSrc(), adaptor.getSrc(), op.getType(), *getTypeConverter(),
        rewriter, [&](OpBuilder &b, Location loc, ArrayRef<Value> index) {
          return linearizeIndex(b, loc, index, shape);
        });
  }
};
} // namespace

void mlir::tilegpu::populateSharedMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ConvertLayoutOpConversion, TransOpConversion,
               ReshapeOpConversion>(converter, patterns.getContext());
}
