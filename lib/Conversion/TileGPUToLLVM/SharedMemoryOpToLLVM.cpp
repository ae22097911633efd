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
  patterns
      .add<ConvertLayoutOpConversion, TransOpConversion, ReshapeOpConversion>(
          converter, patterns.getContext());
}

namespace {
/// Shared-memory address of element (row, col) of a padded row-major tile.
Value paddedOffset(OpBuilder &builder, Location loc, Value row, Value col,
                   int64_t rowStride) {
  return LLVM::AddOp::create(
      builder, loc,
      LLVM::MulOp::create(builder, loc, row,
                          createI32(builder, loc, rowStride)),
      col);
}

/// A 16-bit block to mma operand fragments: vector stores into a padded
/// row-major tile, a barrier, then `ldmatrix` (transposed for B) straight
/// into the fragment registers.
struct LdmatrixConversion : OpConversionPattern<tilegpu::ConvertLayoutOp> {
  LdmatrixConversion(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType dstType = op.getType();
    if (!tilegpu::isLdmatrixConversion(srcType, dstType))
      return failure();
    Location loc = op.getLoc();
    auto src = *tilegpu::getDistributedLayout(srcType);
    auto dot = *tilegpu::getDotOperandLayout(dstType);
    Type element = dstType.getElementType();
    Type i32 = rewriter.getI32Type();
    int64_t cols = srcType.getDimSize(1);
    int64_t stride = cols + tilegpu::kLdmatrixRowPadding;
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value base = getScratchBase(rewriter, loc, op);

    // Store: runs of consecutive registers along the columns as vectors.
    SmallVector<Value> registers =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    auto indices = emitIndices(rewriter, loc, srcType, ids);
    unsigned colDim = src.blockDims[1];
    unsigned run = src.root.getOrder().front() == colDim
                       ? src.root.getSizePerThread()[colDim]
                       : 1;
    unsigned vec = std::min<unsigned>(8, run);
    while (vec > 1 && cols % vec)
      vec /= 2;
    createBarrier(rewriter, loc);
    for (unsigned reg = 0; reg < registers.size(); reg += vec) {
      Value offset =
          paddedOffset(rewriter, loc, indices[reg][0], indices[reg][1], stride);
      Value ptr = gep(rewriter, loc, element, base, offset);
      if (vec == 1) {
        LLVM::StoreOp::create(rewriter, loc, registers[reg], ptr);
        continue;
      }
      auto vectorType = VectorType::get({vec}, element);
      Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
      for (unsigned i = 0; i < vec; ++i)
        vector = LLVM::InsertElementOp::create(rewriter, loc, vector,
                                               registers[reg + i],
                                               createI32(rewriter, loc, i));
      LLVM::StoreOp::create(rewriter, loc, vector, ptr, /*alignment=*/vec * 2);
    }
    createBarrier(rewriter, loc);

    // Load: one ldmatrix.x4 per A fragment (16 x 16), one per pair of B
    // fragments (16 x 8 each, transposed); x2 for a lone B fragment.
    Value lane = ids.lane;
    Value l8 =
        LLVM::AndOp::create(rewriter, loc, lane, createI32(rewriter, loc, 7));
    Value q =
        LLVM::LShrOp::create(rewriter, loc, lane, createI32(rewriter, loc, 3));
    Value qLow =
        LLVM::AndOp::create(rewriter, loc, q, createI32(rewriter, loc, 1));
    Value qHigh =
        LLVM::LShrOp::create(rewriter, loc, q, createI32(rewriter, loc, 1));
    Value warpM = LLVM::URemOp::create(rewriter, loc, ids.warp,
                                       createI32(rewriter, loc, dot.wm));
    Value warpN = LLVM::URemOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, ids.warp,
                             createI32(rewriter, loc, dot.wm)),
        createI32(rewriter, loc, dot.wn));
    // Row of the 8x8 matrix this lane addresses: (lane % 8) + 8 * (q % 2).
    Value rowInTile = LLVM::AddOp::create(
        rewriter, loc, l8,
        LLVM::MulOp::create(rewriter, loc, qLow, createI32(rewriter, loc, 8)));
    SmallVector<Value> result(dot.getNumRegisters());
    auto ldmatrix = [&](Value offset, unsigned count, bool trans) {
      Value ptr = gep(rewriter, loc, element, base, offset);
      SmallVector<Type> types(count, i32);
      Type resultType =
          LLVM::LLVMStructType::getLiteral(rewriter.getContext(), types);
      std::string text = "ldmatrix.sync.aligned.m8n8.x" +
                         std::to_string(count) + (trans ? ".trans" : "") +
                         ".shared.b16 {";
      std::string constraints;
      for (unsigned i = 0; i < count; ++i) {
        text += (i ? ", $" : "$") + std::to_string(i);
        constraints += "=r,";
      }
      text += "}, [ $" + std::to_string(count) + " + 0 ];";
      constraints += "r";
      Value address = LLVM::PtrToIntOp::create(rewriter, loc, i32, ptr);
      auto asmOp = createInlineAsm(rewriter, loc, resultType,
                                   ValueRange{address}, text, constraints);
      SmallVector<Value> halves;
      auto pair = VectorType::get({2}, element);
      for (unsigned i = 0; i < count; ++i) {
        Value word =
            LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), i);
        Value vector = LLVM::BitcastOp::create(rewriter, loc, pair, word);
        for (unsigned h = 0; h < 2; ++h)
          halves.push_back(LLVM::ExtractElementOp::create(
              rewriter, loc, vector, createI32(rewriter, loc, h)));
      }
      return halves;
    };
    unsigned perStep = dot.getRegistersPerStep();
    if (dot.opIdx == 0) {
      Value rowBase =
          LLVM::AddOp::create(rewriter, loc,
                              LLVM::MulOp::create(rewriter, loc, warpM,
                                                  createI32(rewriter, loc, 16)),
                              rowInTile);
      Value kLane = LLVM::MulOp::create(rewriter, loc, qHigh,
                                        createI32(rewriter, loc, 8));
      for (int64_t m = 0; m < dot.rep; ++m)
        for (int64_t k = 0; k < dot.kSteps; ++k) {
          Value row =
              LLVM::AddOp::create(rewriter, loc, rowBase,
                                  createI32(rewriter, loc, m * 16 * dot.wm));
          Value col = LLVM::AddOp::create(rewriter, loc, kLane,
                                          createI32(rewriter, loc, k * 16));
          SmallVector<Value> halves =
              ldmatrix(paddedOffset(rewriter, loc, row, col, stride), 4, false);
          unsigned first = (m * dot.kSteps + k) * perStep;
          std::copy(halves.begin(), halves.end(), result.begin() + first);
        }
    } else {
      // Lane q selects (k half, n tile): q % 2 -> k + 8, q / 2 -> next tile.
      Value colBase = LLVM::MulOp::create(rewriter, loc, warpN,
                                          createI32(rewriter, loc, 8));
      for (int64_t k = 0; k < dot.kSteps; ++k)
        for (int64_t n = 0; n < dot.rep; n += 2) {
          bool pair = n + 1 < dot.rep;
          Value row = LLVM::AddOp::create(rewriter, loc, rowInTile,
                                          createI32(rewriter, loc, k * 16));
          Value tile =
              pair ? LLVM::MulOp::create(rewriter, loc, qHigh,
                                         createI32(rewriter, loc, 8 * dot.wn))
                   : createI32(rewriter, loc, 0);
          Value col = LLVM::AddOp::create(
              rewriter, loc, LLVM::AddOp::create(rewriter, loc, colBase, tile),
              createI32(rewriter, loc, n * 8 * dot.wn));
          SmallVector<Value> halves =
              ldmatrix(paddedOffset(rewriter, loc, row, col, stride),
                       pair ? 4 : 2, true);
          for (unsigned t = 0; t < (pair ? 2u : 1u); ++t) {
            unsigned first = ((n + t) * dot.kSteps + k) * perStep;
            std::copy(halves.begin() + t * 4, halves.begin() + t * 4 + 4,
                      result.begin() + first);
          }
        }
    }
    rewriter.replaceOp(op,
                       packRegisters(rewriter, loc, result,
                                     getTypeConverter()->convertType(dstType)));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateLdmatrixConversionPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LdmatrixConversion>(converter, patterns.getContext());
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

struct LocalAllocOpConversion : OpConversionPattern<tilegpu::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPlainRowMajor(op.getType()))
      return rewriter.notifyMatchFailure(op, "only unswizzled row-major");
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

struct LocalStoreOpConversion : OpConversionPattern<tilegpu::LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPlainRowMajor(op.getDst().getType()))
      return rewriter.notifyMatchFailure(op, "only unswizzled row-major");
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

struct LocalLoadOpConversion : OpConversionPattern<tilegpu::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isPlainRowMajor(op.getSrc().getType()))
      return rewriter.notifyMatchFailure(op, "only unswizzled row-major");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType)
      return failure();
    auto *converter =
        static_cast<const TileGPUToLLVMTypeConverter *>(getTypeConverter());
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
