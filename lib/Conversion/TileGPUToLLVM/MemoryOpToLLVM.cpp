//===- MemoryOpToLLVM.cpp - addptr, load, store, atomic_add to LLVM -------===//
//
// Pointer arithmetic is a GEP per register; loads, stores and atomics are
// predicated global accesses in inline PTX (masked-off lanes never touch
// memory), vectorized up to 16 bytes where the axis analysis showed the
// addresses contiguous and aligned. Atomics skip the registers and threads that
// hold duplicates of an element, so each element is added once.
//
//===----------------------------------------------------------------------===//

#include "GlobalMemoryAccess.h"
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

/// The registers of a store's or an atomic's pointers, values and optional
/// mask (nulls where absent).
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
    for (unsigned i = 0; i < ptrs.size(); i += width)
      emitGlobalVectorStore(rewriter, loc, ArrayRef(ptrs).slice(i, width),
                            ArrayRef(values).slice(i, width),
                            sliceOptional(masks, i, width), uniform);
    rewriter.eraseOp(op);
    return success();
  }
};

/// For a layout that holds duplicates, whether this thread owns each
/// register: null where every copy is owned.
SmallVector<Value> getOwnerPredicates(OpBuilder &builder, Location loc,
                                      Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    // A scalar: every thread holds it; thread 0 of the program owns it.
    Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
    return {LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq, tid,
                                 createI32(builder, loc, 0))};
  }
  std::optional<LinearLayout> layout = tilegpu::toLinearLayout(tensor);
  if (!layout)
    return {Value()};
  // Lanes and warps whose id bits have a zero basis hold copies of what
  // the thread with those bits 0 holds; that one owns them. Likewise
  // registers with a zero-basis bit repeat an earlier register.
  namespace dims = tilegpu::layout_dims;
  auto zeroBits = [&](StringRef input) {
    int32_t mask = 0;
    for (auto [bit, basis] : llvm::enumerate(layout->getBases(input)))
      if (llvm::all_of(basis, [](int32_t v) { return v == 0; }))
        mask |= int32_t(1) << bit;
    return mask;
  };
  ThreadIds ids = getThreadIds(builder, loc);
  Value threadOwns;
  for (auto [input, id] :
       {std::pair{dims::kLane, ids.lane}, std::pair{dims::kWarp, ids.warp}}) {
    int32_t mask = zeroBits(input);
    if (!mask)
      continue;
    Value bits =
        LLVM::AndOp::create(builder, loc, id, createI32(builder, loc, mask));
    Value owns = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                      bits, createI32(builder, loc, 0));
    threadOwns =
        threadOwns ? LLVM::AndOp::create(builder, loc, threadOwns, owns) : owns;
  }
  int32_t repeatedRegisters = zeroBits(dims::kRegister);
  SmallVector<Value> predicates;
  Value falseValue;
  for (int32_t reg = 0, e = layout->getInputSize(dims::kRegister); reg < e;
       ++reg) {
    if (reg & repeatedRegisters) {
      if (!falseValue)
        falseValue = LLVM::ConstantOp::create(builder, loc, builder.getI1Type(),
                                              builder.getBoolAttr(false));
      predicates.push_back(falseValue);
    } else {
      predicates.push_back(threadOwns);
    }
  }
  return predicates;
}

struct AtomicAddOpConversion : OpConversionPattern<tile::AtomicAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AtomicAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [ptrs, values, masks] = unpackWriteOperands(rewriter, loc, adaptor);
    SmallVector<Value> owners = getOwnerPredicates(rewriter, loc, op.getType());
    SmallVector<Value> results;
    for (unsigned i = 0; i < ptrs.size(); ++i) {
      Value mask = masks[i];
      Value owner = owners.size() == ptrs.size() ? owners[i] : Value();
      if (owner)
        mask = mask ? LLVM::AndOp::create(rewriter, loc, mask, owner) : owner;
      FailureOr<Value> old =
          emitGlobalAtomicAdd(rewriter, loc, ptrs[i], values[i], mask);
      if (failed(old))
        return rewriter.notifyMatchFailure(op, "unsupported atomic type");
      results.push_back(*old);
    }
    rewriter.replaceOp(
        op, packRegisters(rewriter, loc, results,
                          getTypeConverter()->convertType(op.getType())));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AddPtrOpConversion, LoadOpConversion, StoreOpConversion,
               AtomicAddOpConversion>(converter, patterns.getContext());
}
