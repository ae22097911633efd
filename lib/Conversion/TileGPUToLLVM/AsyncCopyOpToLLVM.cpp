//===- AsyncCopyOpToLLVM.cpp - cp.async into swizzled tiles ---------------===//
//
// `tilegpu.async_copy_global_to_local`: each run of elements a thread holds
// contiguously (its `tilegpu.vector_width`, 4 to 16 bytes, masks uniform
// over the run) becomes one `cp.async` to the run's shared address (in a
// swizzled tile, or a row-major one), copying zero bytes where masked off (the
// hardware fills zeros); anything narrower is loaded and stored synchronously,
// which the later wait and barrier order just as well. Also the
// commit/wait/fence ops and `tilegpu.memdesc_index` (a buffer's base plus a
// whole number of tiles) and `tilegpu.memdesc_trans` (the same address: the
// view is in the types).
//
//===----------------------------------------------------------------------===//

#include "GlobalMemoryAccess.h"
#include "InlineAsm.h"
#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct AsyncCopyOpConversion
    : OpConversionPattern<tilegpu::AsyncCopyGlobalToLocalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::AsyncCopyGlobalToLocalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    MemDescType tileType = op.getDst().getType();
    auto swizzled = getNVMMASharedLayout(tileType);
    bool rowMajor = isRowMajorShared(tileType);
    auto distributed = getDistributedLayout(type);
    if (!distributed || !(rowMajor || (swizzled && type.getRank() == 2)))
      return rewriter.notifyMatchFailure(
          op, "expected a swizzled 2-D tile or a row-major one");
    auto *converter = getTypeConverter<TileGPUToLLVMTypeConverter>();
    Type pointee =
        cast<tile::PointerType>(type.getElementType()).getPointeeType();
    Type element = converter->convertElementType(pointee);
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());
    ThreadIds ids = getThreadIds(rewriter, loc);
    unsigned elementBytes = getSharedElementBytes(pointee);
    unsigned contigDim = type.getRank() - 1;
    SmallVector<Value> offsets;
    if (swizzled) {
      offsets = emitSwizzledOffsets(rewriter, loc, type, *swizzled, ids);
      contigDim = swizzled->contigDim;
    } else {
      Value bytesPerElement = createI32(rewriter, loc, elementBytes);
      for (auto &index : emitIndices(rewriter, loc, type, ids))
        offsets.push_back(LLVM::MulOp::create(
            rewriter, loc,
            linearizeIndex(rewriter, loc, index, tileType.getShape()),
            bytesPerElement));
    }
    if (offsets.size() != ptrs.size())
      return rewriter.notifyMatchFailure(op, "expected a linear layout");

    // Runs: consecutive registers along the tile's contiguous dimension.
    unsigned width = 1;
    if (auto attr = op->getAttrOfType<IntegerAttr>(kVectorWidthAttrName))
      width = std::max<int64_t>(1, attr.getInt());
    unsigned fastest = distributed->root.getOrder()[0];
    if (distributed->blockDims[contigDim] != fastest ||
        distributed->elemsPerThread[fastest] % width != 0 ||
        (!masks.empty() && width > 1 && !op->hasAttr(kUniformMaskAttrName)))
      width = 1;
    // A row-major tile holds a run at consecutive, aligned bytes only where
    // the registers hold consecutive elements from a multiple of the run.
    if (rowMajor && getContiguousRegisterRun(type, width) != width)
      width = 1;
    unsigned bytes = width * elementBytes;
    bool async = bytes == 4 || bytes == 8 || bytes == 16;
    if (!async)
      width = 1;

    Type i32 = rewriter.getI32Type();
    for (size_t reg = 0; reg < ptrs.size(); reg += width) {
      Value dst = gep(rewriter, loc, rewriter.getI8Type(), adaptor.getDst(),
                      offsets[reg]);
      Value mask = masks.empty() ? Value() : masks[reg];
      if (!async) {
        storeShared(
            rewriter, loc, dst,
            emitGlobalLoad(rewriter, loc, element, ptrs[reg], mask, Value()));
        continue;
      }
      Value size = createI32(rewriter, loc, bytes);
      if (mask)
        size = LLVM::SelectOp::create(rewriter, loc, mask, size,
                                      createI32(rewriter, loc, 0));
      // .cg (L2 only) takes 16-byte copies; smaller ones go through L1.
      std::string text = std::string("cp.async.") +
                         (bytes == 16 ? "cg" : "ca") +
                         ".shared.global [ $0 + 0 ], [ $1 + 0 ], " +
                         std::to_string(bytes) + ", $2;";
      Value address = LLVM::PtrToIntOp::create(rewriter, loc, i32, dst);
      createInlineAsm(rewriter, loc, Type(),
                      ValueRange{address, ptrs[reg], size}, text, "r,l,r");
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct MemDescIndexOpConversion : OpConversionPattern<tilegpu::MemDescIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::MemDescIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemDescType tile = op.getType();
    int64_t bytes = getSharedElementBytes(tile.getElementType());
    for (int64_t dim : tile.getShape())
      bytes *= dim;
    Value offset = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                       createI32(rewriter, loc, bytes));
    rewriter.replaceOp(
        op, gep(rewriter, loc, rewriter.getI8Type(), adaptor.getSrc(), offset));
    return success();
  }
};

/// cp.async commit/wait and the async-proxy fence: one line of PTX.
template <typename Op>
FailureOr<PtxStatement> getAsyncStatementPtx(Op op, typename Op::Adaptor,
                                             ConversionPatternRewriter &) {
  if constexpr (std::is_same_v<Op, tilegpu::AsyncCommitGroupOp>)
    return PtxStatement{"cp.async.commit_group;", "", {}};
  else if constexpr (std::is_same_v<Op, tilegpu::AsyncWaitOp>)
    return PtxStatement{
        "cp.async.wait_group " + std::to_string(op.getNum()) + ";", "", {}};
  else
    return PtxStatement{kAsyncProxyFencePtx.str(), "", {}};
}
} // namespace

void mlir::tilegpu::populateAsyncCopyOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<AsyncCopyOpConversion, MemDescIndexOpConversion,
               ForwardOperandConversion<tilegpu::MemDescTransOp>>(converter,
                                                                  context);
  patterns.add<PtxStatementConversion<tilegpu::AsyncCommitGroupOp>>(
      converter, context, getAsyncStatementPtx<tilegpu::AsyncCommitGroupOp>);
  patterns.add<PtxStatementConversion<tilegpu::AsyncWaitOp>>(
      converter, context, getAsyncStatementPtx<tilegpu::AsyncWaitOp>);
  patterns.add<PtxStatementConversion<tilegpu::FenceAsyncSharedOp>>(
      converter, context, getAsyncStatementPtx<tilegpu::FenceAsyncSharedOp>);
}
