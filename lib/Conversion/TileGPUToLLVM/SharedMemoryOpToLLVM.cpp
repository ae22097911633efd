//===- SharedMemoryOpToLLVM.cpp - Data exchange through shared memory -----===//
//
// convert_layout, trans and reshape move elements between threads, by the
// cheapest means the two linear layouts allow (the result's seen through
// the source's indices): a register permutation when every thread keeps
// its elements, warp shuffles when elements stay within their warp, else
// shared memory: every thread writes its registers to the op's scratch at
// the row-major position of their elements, a barrier, then every thread
// reads the elements its result registers hold.
//
//===----------------------------------------------------------------------===//

#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"
#include "WarpShuffle.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The registers of a block of layout `dst` (onto the same indices as
/// `src`) from the registers of a block of layout `src`, without shared
/// memory: a register permutation, or one `shfl.sync.idx` per register when
/// the register to read does not depend on the lane and no element leaves
/// its warp. std::nullopt otherwise.
std::optional<SmallVector<Value>>
exchangeInRegisters(OpBuilder &builder, Location loc,
                    ArrayRef<Value> srcRegisters, const LinearLayout &src,
                    const LinearLayout &dst) {
  namespace dims = layout_dims;
  if (std::optional<SmallVector<int32_t>> map =
          getThreadLocalRegisterMap(src, dst)) {
    SmallVector<Value> registers;
    for (int32_t reg : *map)
      registers.push_back(srcRegisters[reg]);
    return registers;
  }
  std::optional<LinearLayout> holder = getWarpLocalHolder(src, dst);
  if (!holder)
    return std::nullopt;
  // Source lane = (lane's part) ^ (the register's part); the source
  // register depends on the register alone.
  ThreadIds ids = getThreadIds(builder, loc);
  EmittedBits laneBits =
      emitLinearMap(builder, loc,
                    holder->sublayout({dims::kLane}, {dims::kLane}), {ids.lane})
          .front();
  SmallVector<Value> registers;
  for (int32_t reg = 0, e = dst.getInputSize(dims::kRegister); reg < e; ++reg) {
    SmallVector<int32_t> from = holder->applyOne(dims::kRegister, reg);
    Value srcLane = addConstantBits(builder, loc, laneBits, from[1]);
    registers.push_back(createShuffle(builder, loc, srcRegisters[from[0]],
                                      srcLane, NVVM::ShflKind::idx));
  }
  return registers;
}

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
  rewriter.replaceOp(op, packRegisters(rewriter, loc, results, resultLLVMType));
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
    Type resultLLVMType = getTypeConverter()->convertType(resultType);
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, op.getLoc(), adaptor.getSrc());
    std::optional<LinearLayout> srcLayout = toLinearLayout(srcType);
    std::optional<LinearLayout> dstLayout = toLinearLayout(resultType);
    if (resultLLVMType && srcLayout && dstLayout)
      if (auto registers = exchangeInRegisters(
              rewriter, op.getLoc(), srcRegisters, *srcLayout, *dstLayout)) {
        rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(), *registers,
                                             resultLLVMType));
        return success();
      }
    // 2-D blocks: rows padded apart (no bank conflicts between rows),
    // vector accesses along them.
    Type element = srcRegisters.front().getType();
    if (int64_t padding = getExchangeRowPadding(srcType);
        padding && resultLLVMType && element.isIntOrFloat() &&
        !element.isInteger(1) && hasRegisterLayout(srcType.getEncoding()) &&
        hasRegisterLayout(resultType.getEncoding())) {
      Location loc = op.getLoc();
      int64_t stride = srcType.getDimSize(1) + padding;
      Value base = getScratchBase(rewriter, loc, op);
      createBarrier(rewriter, loc);
      storeSharedRows(rewriter, loc, srcType, srcRegisters, base, stride);
      createBarrier(rewriter, loc);
      SmallVector<Value> results =
          loadSharedRows(rewriter, loc, resultType, element, base, stride);
      rewriter.replaceOp(op,
                         packRegisters(rewriter, loc, results, resultLLVMType));
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
    // Result (j, i) is source (i, j): the result's layout with its two
    // outputs swapped is onto the source's indices.
    std::optional<LinearLayout> srcLayout =
        toLinearLayout(op.getSrc().getType());
    std::optional<LinearLayout> dstLayout = toLinearLayout(op.getType());
    Type resultLLVMType = getTypeConverter()->convertType(op.getType());
    if (srcLayout && dstLayout && resultLLVMType && shape.size() == 2) {
      LinearLayout swapped = getTransposedView(*dstLayout);
      SmallVector<Value> srcRegisters =
          unpackRegisters(rewriter, op.getLoc(), adaptor.getSrc());
      if (auto registers = exchangeInRegisters(
              rewriter, op.getLoc(), srcRegisters, *srcLayout, swapped)) {
        rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(), *registers,
                                             resultLLVMType));
        return success();
      }
    }
    return exchangeThroughShared(
        op, op.getSrc(), adaptor.getSrc(), op.getType(), *getTypeConverter(),
        rewriter, [&](OpBuilder &b, Location loc, ArrayRef<Value> index) {
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
  patterns
      .add<ConvertLayoutOpConversion, TransOpConversion, ReshapeOpConversion>(
          converter, patterns.getContext());
}

namespace {
/// Whether a memdesc is laid out row-major without swizzling, the layout
/// the local_* lowerings implement.
bool isPlainRowMajor(tilegpu::MemDescType type) {
  auto shared = dyn_cast<tilegpu::SharedEncodingAttr>(type.getEncoding());
  if (!shared || shared.getVec() != 1 || shared.getPerPhase() != 1 ||
      shared.getMaxPhase() != 1)
    return false;
  ArrayRef<unsigned> order = shared.getOrder();
  for (unsigned i = 0; i < order.size(); ++i)
    if (order[i] != order.size() - 1 - i)
      return false;
  return true;
}

/// Writes the registers of `value` (a block of `type`) row-major at `base`.
void storeBlock(OpBuilder &builder, Location loc, RankedTensorType type,
                Value packed, Value base) {
  SmallVector<Value> registers = unpackRegisters(builder, loc, packed);
  Type element = registers.front().getType();
  Type slot = element.isInteger(1) ? builder.getI8Type() : element;
  auto indices = emitIndices(builder, loc, type, getThreadIds(builder, loc));
  for (auto [value, index] : llvm::zip(registers, indices))
    storeShared(builder, loc,
                gep(builder, loc, slot, base,
                    linearizeIndex(builder, loc, index, type.getShape())),
                value);
}

/// The base address of an allocation: the shared-memory array at its offset.
Value allocationBase(OpBuilder &builder, Location loc, Operation *alloc) {
  Value base = getScratchBase(builder, loc, alloc);
  int64_t offset = 0;
  if (auto attr = alloc->getAttrOfType<IntegerAttr>("offset"))
    offset = attr.getInt();
  if (offset == 0)
    return base;
  return gep(builder, loc, builder.getI8Type(), base,
             createI32(builder, loc, offset));
}

/// The shared-memory buffer a local_* op works on.
tilegpu::MemDescType getBuffer(tilegpu::LocalAllocOp op) {
  return op.getType();
}
tilegpu::MemDescType getBuffer(tilegpu::LocalStoreOp op) {
  return op.getDst().getType();
}
tilegpu::MemDescType getBuffer(tilegpu::LocalLoadOp op) {
  return op.getSrc().getType();
}

/// A local_* op's lowering, which matches only where its buffer is
/// row-major without swizzling (isPlainRowMajor).
template <typename OpTy> struct RowMajorPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!isPlainRowMajor(getBuffer(op)))
      return rewriter.notifyMatchFailure(op, "only unswizzled row-major");
    return rewriteRowMajor(op, adaptor, rewriter);
  }

  virtual LogicalResult
  rewriteRowMajor(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const = 0;
};

struct LocalAllocOpConversion : RowMajorPattern<tilegpu::LocalAllocOp> {
  using RowMajorPattern::RowMajorPattern;
  LogicalResult
  rewriteRowMajor(tilegpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = allocationBase(rewriter, loc, op);
    if (Value src = adaptor.getSrc()) {
      createBarrier(rewriter, loc);
      storeBlock(rewriter, loc, cast<RankedTensorType>(op.getSrc().getType()),
                 src, base);
      createBarrier(rewriter, loc);
    }
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct LocalStoreOpConversion : RowMajorPattern<tilegpu::LocalStoreOp> {
  using RowMajorPattern::RowMajorPattern;
  LogicalResult
  rewriteRowMajor(tilegpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Readers of the old contents first, then the writes become visible.
    createBarrier(rewriter, loc);
    storeBlock(rewriter, loc, op.getSrc().getType(), adaptor.getSrc(),
               adaptor.getDst());
    createBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadOpConversion : RowMajorPattern<tilegpu::LocalLoadOp> {
  using RowMajorPattern::RowMajorPattern;
  LogicalResult
  rewriteRowMajor(tilegpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType)
      return failure();
    auto *converter = getTypeConverter<TileGPUToLLVMTypeConverter>();
    Type element = converter->convertElementType(type.getElementType());
    Type slot = element.isInteger(1) ? rewriter.getI8Type() : element;
    SmallVector<Value> registers;
    for (auto &index :
         emitIndices(rewriter, loc, type, getThreadIds(rewriter, loc)))
      registers.push_back(loadShared(
          rewriter, loc, element,
          gep(rewriter, loc, slot, adaptor.getSrc(),
              linearizeIndex(rewriter, loc, index, type.getShape()))));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, registers, resultType));
    return success();
  }
};

struct BarrierOpConversion : OpConversionPattern<tilegpu::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    createBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateLocalMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LocalAllocOpConversion, LocalStoreOpConversion,
               LocalLoadOpConversion, BarrierOpConversion>(
      converter, patterns.getContext());
}
