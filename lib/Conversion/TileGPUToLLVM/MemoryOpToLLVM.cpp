//===- MemoryOpToLLVM.cpp - addptr, load, store to LLVM -------------------===//
//
// Pointer arithmetic is a GEP per register; loads and stores are predicated
// global accesses in inline PTX (masked-off lanes never touch memory),
// vectorized up to 16 bytes where the axis analysis showed the addresses
// contiguous and aligned. Atomics are in AtomicOpToLLVM.cpp.
//
//===----------------------------------------------------------------------===//

#include "GlobalMemoryAccess.h"
#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Registers of an optional operand, or a vector of nulls.
SmallVector<Value> unpackOptional(OpBuilder &builder, Location loc, Value value,
                                  unsigned count) {
  if (!value)
    return SmallVector<Value>(count, Value());
  return unpackRegisters(builder, loc, value);
}

/// The elements per vector access the lowering pass found safe for `op`
/// (its `tilegpu.vector_width`), 1 by default.
unsigned getVectorWidth(Operation *op) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(kVectorWidthAttrName))
    return std::max<int64_t>(1, attr.getInt());
  return 1;
}

struct AddPtrOpConversion : OpConversionPattern<tile::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto *converter = getTypeConverter<TileGPUToLLVMTypeConverter>();
    auto pointer = cast<tile::PointerType>(getElementTypeOrSelf(op.getType()));
    Type pointee = converter->convertElementType(pointer.getPointeeType());
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offsets =
        unpackRegisters(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> results;
    for (auto [ptr, offset] : llvm::zip(ptrs, offsets))
      results.push_back(gep(rewriter, loc, pointee, ptr, offset));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, results,
                                         converter->convertType(op.getType())));
    return success();
  }
};

/// The registers of a store's pointers, values and optional mask (nulls
/// where absent).
struct WriteOperands {
  SmallVector<Value> ptrs, values, masks;
};
template <typename Adaptor>
WriteOperands unpackWriteOperands(OpBuilder &builder, Location loc,
                                  Adaptor adaptor) {
  WriteOperands operands;
  operands.ptrs = unpackRegisters(builder, loc, adaptor.getPtr());
  operands.values = unpackRegisters(builder, loc, adaptor.getValue());
  operands.masks =
      unpackOptional(builder, loc, adaptor.getMask(), operands.ptrs.size());
  return operands;
}

/// `values[i, i + width)`, or nothing for an absent operand (unpackOptional
/// gave null registers).
ArrayRef<Value> sliceOptional(ArrayRef<Value> values, unsigned i,
                              unsigned width) {
  return values.front() ? values.slice(i, width) : ArrayRef<Value>();
}

struct LoadOpConversion : OpConversionPattern<tile::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto *converter = getTypeConverter<TileGPUToLLVMTypeConverter>();
    Type elementType =
        converter->convertElementType(getElementTypeOrSelf(op.getType()));
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks =
        unpackOptional(rewriter, loc, adaptor.getMask(), ptrs.size());
    SmallVector<Value> others =
        unpackOptional(rewriter, loc, adaptor.getOther(), ptrs.size());
    unsigned width = getVectorWidth(op);
    bool uniform = op->hasAttr(kUniformMaskAttrName);
    SmallVector<Value> results;
    for (unsigned i = 0; i < ptrs.size(); i += width) {
      SmallVector<Value> group = emitGlobalVectorLoad(
          rewriter, loc, elementType, width, ArrayRef(ptrs).slice(i, width),
          sliceOptional(masks, i, width), sliceOptional(others, i, width),
          uniform);
      results.append(group.begin(), group.end());
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, results,
                                         converter->convertType(op.getType())));
    return success();
  }
};

struct StoreOpConversion : OpConversionPattern<tile::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [ptrs, values, masks] = unpackWriteOperands(rewriter, loc, adaptor);
    unsigned width = getVectorWidth(op);
    bool uniform = op->hasAttr(kUniformMaskAttrName);
    // Only one copy of each element is stored (a scalar by thread 0): as
    // in Triton, a program's `store(p, load(p) + 1)` adds 1 once, not once
    // per warp that holds a copy and stores after another warp's store.
    SmallVector<Value> owners =
        getOwnerPredicates(rewriter, loc, op.getPtr().getType());
    if (owners.size() == ptrs.size() &&
        llvm::any_of(owners, [](Value owner) { return bool(owner); })) {
      if (masks.empty())
        masks.assign(ptrs.size(), Value());
      Value always;
      for (auto [mask, owner] : llvm::zip(masks, owners)) {
        mask = andMasks(rewriter, loc, mask, owner);
        if (!mask) {
          if (!always)
            always =
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                         rewriter.getBoolAttr(true));
          mask = always;
        }
      }
    }
    for (unsigned i = 0; i < ptrs.size(); i += width)
      emitGlobalVectorStore(rewriter, loc, ArrayRef(ptrs).slice(i, width),
                            ArrayRef(values).slice(i, width),
                            sliceOptional(masks, i, width), uniform);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tilegpu::populateMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AddPtrOpConversion, LoadOpConversion, StoreOpConversion>(
      converter, patterns.getContext());
}
