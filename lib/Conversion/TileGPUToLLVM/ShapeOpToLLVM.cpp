//===- ShapeOpToLLVM.cpp - Indexing and register-only shape ops to LLVM ---===//
//
// Ops that move no data between threads: program ids, ranges (each register
// holds start + its element's index), splats, broadcasts and expand_dims
// (registers picked from the source by the layout function) and hints.
//
//===----------------------------------------------------------------------===//

#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
template <typename SourceOp>
Value createGridValue(OpBuilder &builder, Location loc, unsigned axis) {
  Type i32 = builder.getI32Type();
  if constexpr (std::is_same_v<SourceOp, tile::ProgramIdOp>) {
    if (axis == 0)
      return NVVM::BlockIdXOp::create(builder, loc, i32);
    if (axis == 1)
      return NVVM::BlockIdYOp::create(builder, loc, i32);
    return NVVM::BlockIdZOp::create(builder, loc, i32);
  } else {
    if (axis == 0)
      return NVVM::GridDimXOp::create(builder, loc, i32);
    if (axis == 1)
      return NVVM::GridDimYOp::create(builder, loc, i32);
    return NVVM::GridDimZOp::create(builder, loc, i32);
  }
}

/// program_id / num_programs: the CUDA block index / grid size.
template <typename SourceOp>
struct GridOpConversion : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, createGridValue<SourceOp>(rewriter, op.getLoc(), op.getAxis()));
    return success();
  }
};

struct MakeRangeOpConversion : OpConversionPattern<tile::MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto indices =
        emitIndices(rewriter, loc, op.getType(), getThreadIds(rewriter, loc));
    if (indices.empty())
      return rewriter.notifyMatchFailure(op, "no distributed layout");
    // index + start stays in [start, end): an i32 range, so the add wraps
    // neither way when start >= 0 (the flags let LLVM widen it for free).
    int64_t startValue = op.getStart();
    Value start = createI32(rewriter, loc, startValue);
    auto flags = startValue >= 0 ? LLVM::IntegerOverflowFlags::nsw |
                                       LLVM::IntegerOverflowFlags::nuw
                                 : LLVM::IntegerOverflowFlags::none;
    SmallVector<Value> registers;
    for (auto &index : indices)
      registers.push_back(
          startValue
              ? LLVM::AddOp::create(rewriter, loc, index[0], start, flags)
              : index[0]);
    rewriter.replaceOp(
        op, packRegisters(rewriter, loc, registers,
                          getTypeConverter()->convertType(op.getType())));
    return success();
  }
};

struct SplatOpConversion : OpConversionPattern<tile::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    SmallVector<Value> registers(tilegpu::getNumRegisters(op.getType()),
                                 adaptor.getSrc());
    rewriter.replaceOp(op,
                       packRegisters(rewriter, op.getLoc(), registers, type));
    return success();
  }
};

/// The result's layout seen through the source's indices: `broadcast`
/// reads index 0 along the dimensions where the source has extent 1;
/// `expand_dims` drops the new dimension.
LinearLayout projectOntoSource(tile::BroadcastOp op,
                               const LinearLayout &result) {
  LinearLayout projected = result;
  for (auto [d, size] : llvm::enumerate(op.getSrc().getType().getShape()))
    if (size == 1)
      projected = projected.withOutputSize(layout_dims::getBlockDimName(d), 0);
  return projected;
}
LinearLayout projectOntoSource(tile::ExpandDimsOp op,
                               const LinearLayout &result) {
  unsigned rank = op.getType().getRank();
  LinearLayout projected =
      result.withoutOutput(layout_dims::getBlockDimName(op.getAxis()));
  SmallVector<unsigned> order;
  SmallVector<std::string> names;
  for (unsigned d = 0; d + 1 < rank; ++d) {
    order.push_back(d);
    names.push_back(layout_dims::getBlockDimName(d));
  }
  return projected.withOutputs(order, names);
}

/// Picks for each result register the source register holding the same
/// element in the same thread (getThreadLocalRegisterMap).
template <typename SourceOp>
struct RegisterMappingConversion : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    std::optional<LinearLayout> src = toLinearLayout(srcType);
    std::optional<LinearLayout> result = toLinearLayout(resultType);
    std::optional<SmallVector<int32_t>> map;
    if (src && result)
      map = getThreadLocalRegisterMap(*src, projectOntoSource(op, *result));
    if (!map)
      return rewriter.notifyMatchFailure(
          op, "result threads do not hold their source elements");
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, op.getLoc(), adaptor.getSrc());
    SmallVector<Value> registers;
    for (int32_t reg : *map)
      registers.push_back(srcRegisters[reg]);
    rewriter.replaceOp(
        op, packRegisters(rewriter, op.getLoc(), registers,
                          this->getTypeConverter()->convertType(resultType)));
    return success();
  }
};

} // namespace

void mlir::tilegpu::populateShapeOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GridOpConversion<tile::ProgramIdOp>,
               GridOpConversion<tile::NumProgramsOp>, MakeRangeOpConversion,
               SplatOpConversion, RegisterMappingConversion<tile::BroadcastOp>,
               RegisterMappingConversion<tile::ExpandDimsOp>,
               ForwardOperandConversion<tile::HintOp>>(converter,
                                                       patterns.getContext());
}
