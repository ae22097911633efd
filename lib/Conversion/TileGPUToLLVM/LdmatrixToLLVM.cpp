//===- LdmatrixToLLVM.cpp - mma.sync operands from shared memory ----------===//
//
// The two ways a 16-bit mma.sync operand reaches its fragment registers
// with `ldmatrix`:
//  - a conversion from a blocked block: vector stores into a padded
//    row-major tile in the op's scratch, a barrier, then ldmatrix;
//  - `tilegpu.local_load` from a swizzled (`#tilegpu.nvmma_shared`) tile,
//    which a pipelined loop's asynchronous copies filled: ldmatrix alone.
// Other local_loads from a swizzled tile (tf32 operands, other layouts)
// read each element with `ld.shared`.
//
//===----------------------------------------------------------------------===//

#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "MatrixLoadStore.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The shared address of the element at (`mn` along M for A / N for B, `k`).
using OperandAddressFn =
    function_ref<Value(OpBuilder &, Location, Value mn, Value k)>;

/// The fragment registers of `dot` (16-bit, kWidth 2) loaded with
/// ldmatrix from a tile in shared memory. `kContiguous`: the tile stores
/// runs of 8 elements along K (rows of M for A, of N for B), read as they
/// are; otherwise runs along M / N, read transposed. Each 8 x 8 matrix of a
/// call is addressed by 8 lanes, one run each: lane `8 q + r` gives run `r`
/// of matrix `q`.
SmallVector<Value> emitLdmatrixFragments(OpBuilder &builder, Location loc,
                                         const DotOperandLayout &dot,
                                         Type element, const ThreadIds &ids,
                                         bool kContiguous,
                                         OperandAddressFn address) {
  auto c = [&](int64_t v) { return createI32(builder, loc, v); };
  auto add = [&](Value a, Value b) {
    return LLVM::AddOp::create(builder, loc, a, b);
  };
  auto mul = [&](Value a, int64_t b) {
    return LLVM::MulOp::create(builder, loc, a, c(b));
  };
  Value r = LLVM::AndOp::create(builder, loc, ids.lane, c(7));
  Value q = LLVM::LShrOp::create(builder, loc, ids.lane, c(3));
  Value qLow = LLVM::AndOp::create(builder, loc, q, c(1));
  Value qHigh = LLVM::LShrOp::create(builder, loc, q, c(1));
  Value warpM = LLVM::URemOp::create(builder, loc, ids.warp, c(dot.wm));
  Value warpN = LLVM::URemOp::create(
      builder, loc, LLVM::UDivOp::create(builder, loc, ids.warp, c(dot.wm)),
      c(dot.wn));
  // The lane's run: matrix (mnOffset, kOffset) from (mnBase, kBase), then
  // row r of it along K (kContiguous) or along M / N.
  auto load = [&](Value mnBase, Value mnOffset, int64_t kBase, Value kOffset,
                  unsigned count) {
    Value mn = add(mnBase, mnOffset);
    Value k = add(c(kBase), kOffset);
    if (kContiguous)
      mn = add(mn, r);
    else
      k = add(k, r);
    return emitLdmatrix(builder, loc, element, address(builder, loc, mn, k),
                        count, !kContiguous);
  };
  SmallVector<Value> result(dot.getNumRegisters());
  unsigned perStep = dot.getRegistersPerStep();
  if (dot.opIdx == 0) {
    // A 16 x 16 fragment: matrices (m, k) = (0, 0), (8, 0), (0, 8), (8, 8).
    Value mnOffset = mul(qLow, 8), kOffset = mul(qHigh, 8);
    for (int64_t m = 0; m < dot.rep; ++m)
      for (int64_t k = 0; k < dot.kSteps; ++k) {
        Value mnBase = add(mul(warpM, 16), c(m * 16 * dot.wm));
        SmallVector<Value> halves =
            load(mnBase, mnOffset, k * 16, kOffset, /*count=*/4);
        unsigned first = (m * dot.kSteps + k) * perStep;
        std::copy(halves.begin(), halves.end(), result.begin() + first);
      }
    return result;
  }
  // B: two 16 x 8 fragments (the warp's next N tile is 8 * wn further),
  // matrices (k, n) = (0, 0), (8, 0), (0, next), (8, next); one for a lone
  // fragment (x2).
  Value kOffset = mul(qLow, 8);
  for (int64_t k = 0; k < dot.kSteps; ++k)
    for (int64_t n = 0; n < dot.rep; n += 2) {
      bool pair = n + 1 < dot.rep;
      Value mnOffset = pair ? mul(qHigh, 8 * dot.wn) : c(0);
      Value mnBase = add(mul(warpN, 8), c(n * 8 * dot.wn));
      SmallVector<Value> halves =
          load(mnBase, mnOffset, k * 16, kOffset, pair ? 4 : 2);
      for (unsigned t = 0; t < (pair ? 2u : 1u); ++t) {
        unsigned first = ((n + t) * dot.kSteps + k) * perStep;
        std::copy(halves.begin() + t * 4, halves.begin() + t * 4 + 4,
                  result.begin() + first);
      }
    }
  return result;
}

/// A 16-bit block to mma operand fragments: vector stores into a padded
/// row-major tile, a barrier, then `ldmatrix` (transposed for B) straight
/// into the fragment registers.
/// (Benefit 2, above the general convert_layout lowering.)
struct LdmatrixConversion : OpConversionPattern<tilegpu::ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType dstType = op.getType();
    if (!tilegpu::isLdmatrixConversion(srcType, dstType))
      return failure();
    Location loc = op.getLoc();
    auto dot = *tilegpu::getDotOperandLayout(dstType);
    Type element = dstType.getElementType();
    int64_t cols = srcType.getDimSize(1);
    int64_t stride = cols + tilegpu::kLdmatrixRowPadding;
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value base = getScratchBase(rewriter, loc, op);
    // Element (row, col) of the padded tile.
    auto elementAddress = [&](OpBuilder &b, Location l, Value row, Value col) {
      return rowElementAddress(b, l, element, base, row, col, stride);
    };

    // Store: runs of consecutive registers along the columns as vectors.
    createBarrier(rewriter, loc);
    storeSharedRows(rewriter, loc, srcType,
                    unpackRegisters(rewriter, loc, adaptor.getSrc()), base,
                    stride);
    createBarrier(rewriter, loc);

    // Load: A's rows (M) run along K, B's rows (K) along N.
    bool isA = dot.opIdx == 0;
    SmallVector<Value> result = emitLdmatrixFragments(
        rewriter, loc, dot, element, ids, /*kContiguous=*/isA,
        [&](OpBuilder &b, Location l, Value mn, Value k) {
          return isA ? elementAddress(b, l, mn, k)
                     : elementAddress(b, l, k, mn);
        });
    rewriter.replaceOp(op,
                       packRegisters(rewriter, loc, result,
                                     getTypeConverter()->convertType(dstType)));
    return success();
  }
};

/// `tilegpu.local_load` from a swizzled tile: ldmatrix into 16-bit mma
/// operand fragments, one `ld.shared` per element otherwise.
struct SwizzledLocalLoadOpConversion
    : OpConversionPattern<tilegpu::LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto layout = getNVMMASharedLayout(op.getSrc().getType());
    auto type = cast<RankedTensorType>(op.getType());
    Type resultType = getTypeConverter()->convertType(type);
    if (!layout || type.getRank() != 2 || !resultType ||
        !hasRegisterLayout(type.getEncoding()))
      return rewriter.notifyMatchFailure(op, "expected a swizzled 2-D tile");
    Location loc = op.getLoc();
    auto *converter = getTypeConverter<TileGPUToLLVMTypeConverter>();
    Type element = converter->convertElementType(type.getElementType());
    Value base = adaptor.getSrc();
    ThreadIds ids = getThreadIds(rewriter, loc);
    // Element (index0, index1) of the tile.
    auto elementAddress = [&](OpBuilder &b, Location l, Value i0, Value i1) {
      Value row = layout->contigDim == 1 ? i0 : i1;
      Value col = layout->contigDim == 1 ? i1 : i0;
      return gep(b, l, b.getI8Type(), base,
                 emitSwizzledOffset(b, l, *layout, row, col));
    };
    SmallVector<Value> registers;
    if (isLdmatrixLoad(op.getSrc().getType(), type)) {
      auto dot = *getDotOperandLayout(type);
      bool isA = dot.opIdx == 0;
      unsigned kDim = isA ? 1 : 0;
      registers = emitLdmatrixFragments(
          rewriter, loc, dot, element, ids, layout->contigDim == kDim,
          [&](OpBuilder &b, Location l, Value mn, Value k) {
            return isA ? elementAddress(b, l, mn, k)
                       : elementAddress(b, l, k, mn);
          });
    } else {
      for (auto &index : emitIndices(rewriter, loc, type, ids))
        registers.push_back(
            loadShared(rewriter, loc, element,
                       elementAddress(rewriter, loc, index[0], index[1])));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, registers, resultType));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateLdmatrixConversionPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LdmatrixConversion>(converter, patterns.getContext(),
                                   /*benefit=*/2);
  patterns.add<SwizzledLocalLoadOpConversion>(converter, patterns.getContext());
}
