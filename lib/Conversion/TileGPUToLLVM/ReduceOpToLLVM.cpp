//===- ReduceOpToLLVM.cpp - tile.reduce to LLVM ---------------------------===//
//
// A reduction along an axis in three steps, each only as far as the layout
// spreads distinct elements: combine a thread's registers, then lanes with
// butterfly shuffles (`shfl.sync.bfly`), then warps through shared memory.
// argmax/argmin carry (value, index) pairs and keep the first extreme.
//
//===----------------------------------------------------------------------===//

#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;
using tilegpu::DistributedLayout;

namespace {
/// A partial result: the value and, for argmax/argmin, its index.
struct Partial {
  Value value;
  Value index;
};

/// Combines partial results according to the reduction kind.
class Combiner {
public:
  Combiner(OpBuilder &builder, Location loc, tile::ReduceKind kind)
      : builder(builder), loc(loc), kind(kind) {}

  bool isArg() const {
    return kind == tile::ReduceKind::ArgMax || kind == tile::ReduceKind::ArgMin;
  }

  Partial combine(Partial a, Partial b) {
    Type type = a.value.getType();
    bool isFloat = isa<FloatType>(type);
    switch (kind) {
    case tile::ReduceKind::Sum:
      return {create<LLVM::FAddOp, LLVM::AddOp>(a.value, b.value), Value()};
    case tile::ReduceKind::Max:
      return {create<LLVM::MaximumOp, LLVM::SMaxOp>(a.value, b.value), Value()};
    case tile::ReduceKind::Min:
      return {create<LLVM::MinimumOp, LLVM::SMinOp>(a.value, b.value), Value()};
    case tile::ReduceKind::ArgMax:
    case tile::ReduceKind::ArgMin: {
      bool max = kind == tile::ReduceKind::ArgMax;
      // b.value against a.value, ordered for floats, signed for integers.
      auto compare = [&](LLVM::FCmpPredicate floatPredicate,
                         LLVM::ICmpPredicate intPredicate) -> Value {
        if (isFloat)
          return LLVM::FCmpOp::create(builder, loc, floatPredicate, b.value,
                                      a.value);
        return LLVM::ICmpOp::create(builder, loc, intPredicate, b.value,
                                    a.value);
      };
      Value better =
          max ? compare(LLVM::FCmpPredicate::ogt, LLVM::ICmpPredicate::sgt)
              : compare(LLVM::FCmpPredicate::olt, LLVM::ICmpPredicate::slt);
      Value equal = compare(LLVM::FCmpPredicate::oeq, LLVM::ICmpPredicate::eq);
      Value earlier = LLVM::ICmpOp::create(
          builder, loc, LLVM::ICmpPredicate::slt, b.index, a.index);
      Value takeB =
          LLVM::OrOp::create(builder, loc, better,
                             LLVM::AndOp::create(builder, loc, equal, earlier));
      return {LLVM::SelectOp::create(builder, loc, takeB, b.value, a.value),
              LLVM::SelectOp::create(builder, loc, takeB, b.index, a.index)};
    }
    }
    return a;
  }

private:
  /// `FloatOp(a, b)` on floats, `IntOp(a, b)` on integers.
  template <typename FloatOp, typename IntOp> Value create(Value a, Value b) {
    if (isa<FloatType>(a.getType()))
      return FloatOp::create(builder, loc, a, b);
    return IntOp::create(builder, loc, a, b);
  }

  OpBuilder &builder;
  Location loc;
  tile::ReduceKind kind;
};

/// `shfl.sync.bfly` of any scalar up to 64 bits.
Value shuffleXor(OpBuilder &builder, Location loc, Value value,
                 unsigned laneMask) {
  Type type = value.getType();
  Type i32 = builder.getI32Type();
  unsigned bits = type.getIntOrFloatBitWidth();
  Value memberMask = createI32(builder, loc, -1);
  Value offset = createI32(builder, loc, laneMask);
  Value clamp = createI32(builder, loc, 0x1f);
  auto shuffle32 = [&](Value v) -> Value {
    return NVVM::ShflOp::create(builder, loc, v.getType(), memberMask, v,
                                offset, clamp, NVVM::ShflKind::bfly,
                                UnitAttr());
  };
  if (type.isF32() || type.isInteger(32))
    return shuffle32(value);
  Type intType = builder.getIntegerType(bits);
  Value asInt =
      isa<FloatType>(type)
          ? Value(LLVM::BitcastOp::create(builder, loc, intType, value))
          : value;
  Value result;
  if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(builder, loc, i32, asInt);
    result = LLVM::TruncOp::create(builder, loc, intType, shuffle32(wide));
  } else {
    Value lo = LLVM::TruncOp::create(builder, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(
        builder, loc, i32,
        LLVM::LShrOp::create(builder, loc, asInt, createI64(builder, loc, 32)));
    Value loS = LLVM::ZExtOp::create(builder, loc, intType, shuffle32(lo));
    Value hiS = LLVM::ZExtOp::create(builder, loc, intType, shuffle32(hi));
    result = LLVM::OrOp::create(
        builder, loc, loS,
        LLVM::ShlOp::create(builder, loc, hiS, createI64(builder, loc, 32)));
  }
  if (isa<FloatType>(type))
    result = LLVM::BitcastOp::create(builder, loc, type, result);
  return result;
}

struct ReduceOpConversion : OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    std::optional<DistributedLayout> layout =
        tilegpu::getDistributedLayout(srcType);
    if (!layout)
      return rewriter.notifyMatchFailure(op, "source layout not distributed");
    unsigned axis = op.getAxis();
    unsigned rootAxis = layout->blockDims[axis];
    Combiner combiner(rewriter, loc, op.getKind());
    ThreadIds ids = getThreadIds(rewriter, loc);

    // 1. Within the thread: one partial per output register key (the
    //    register coordinates with the axis position zeroed).
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<SmallVector<Value>> indices;
    if (combiner.isArg())
      indices = emitIndices(rewriter, loc, srcType, ids);
    llvm::MapVector<unsigned, Partial> partials;
    SmallVector<unsigned> keyOrder;
    for (unsigned reg = 0; reg < srcRegisters.size(); ++reg) {
      SmallVector<unsigned> coords = layout->getRegisterCoords(reg);
      if (layout->isRepeatedPosition(rootAxis, coords[rootAxis]))
        continue; // A duplicate of an earlier register.
      coords[rootAxis] = 0;
      unsigned key = layout->getRegister(coords);
      Partial partial{srcRegisters[reg],
                      combiner.isArg() ? indices[reg][axis] : Value()};
      auto it = partials.find(key);
      if (it == partials.end())
        partials.insert({key, partial});
      else
        it->second = combiner.combine(it->second, partial);
    }

    // 2. Across lanes along the axis.
    unsigned laneStride = layout->getLaneStride(rootAxis);
    unsigned lanes = layout->getDistinctLanes(rootAxis);
    for (unsigned bit = 0; (1u << bit) < lanes; ++bit) {
      unsigned mask = laneStride << bit;
      for (auto &entry : partials) {
        Partial other{shuffleXor(rewriter, loc, entry.second.value, mask),
                      entry.second.index
                          ? shuffleXor(rewriter, loc, entry.second.index, mask)
                          : Value()};
        entry.second = combiner.combine(entry.second, other);
      }
    }

    // 3. Across warps along the axis, through shared memory.
    unsigned warps = layout->getDistinctWarps(rootAxis);
    if (warps > 1) {
      if (failed(reduceAcrossWarps(op, rewriter, *layout, ids, combiner,
                                   partials, warps)))
        return failure();
    }

    // The result: a scalar, or the slice layout's registers.
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, combiner.isArg() ? partials.front().second.index
                                              : partials.front().second.value);
      return success();
    }
    auto resultType = cast<RankedTensorType>(op.getType());
    auto resultLayout = tilegpu::getDistributedLayout(resultType);
    if (!resultLayout)
      return rewriter.notifyMatchFailure(op, "result layout not distributed");
    SmallVector<Value> results(resultLayout->getNumRegisters());
    for (auto &[key, partial] : partials) {
      SmallVector<unsigned> coords = layout->getRegisterCoords(key);
      coords[rootAxis] = 0;
      results[resultLayout->getRegister(coords)] =
          combiner.isArg() ? partial.index : partial.value;
    }
    if (llvm::any_of(results, [](Value v) { return !v; }))
      return rewriter.notifyMatchFailure(op, "result registers not covered");
    rewriter.replaceOp(
        op, packRegisters(rewriter, loc, results,
                          getTypeConverter()->convertType(resultType)));
    return success();
  }

  /// Each warp's lane 0 along the axis writes its partials to slot
  /// [warp along axis][output element]; every thread then combines the
  /// slots of its output elements.
  LogicalResult reduceAcrossWarps(tile::ReduceOp op,
                                  ConversionPatternRewriter &rewriter,
                                  const DistributedLayout &layout,
                                  const ThreadIds &ids, Combiner &combiner,
                                  llvm::MapVector<unsigned, Partial> &partials,
                                  unsigned warps) const {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    unsigned axis = op.getAxis();
    unsigned rootAxis = layout.blockDims[axis];
    SmallVector<int64_t> outShape(srcType.getShape());
    outShape.erase(outShape.begin() + axis);
    int64_t outputs = 1;
    for (int64_t d : outShape)
      outputs *= d;
    Type valueType = partials.front().second.value.getType();
    unsigned valueBytes = tilegpu::getSharedElementBytes(valueType);
    Value base = getScratchBase(rewriter, loc, op);
    Value indexBase =
        gep(rewriter, loc, rewriter.getI8Type(), base,
            createI32(rewriter, loc,
                      llvm::alignTo(warps * outputs * valueBytes, 4)));
    // This thread's warp coordinate along the axis, modulo `warps`: lanes
    // along the axis all hold the lane-reduced partial, and warps past
    // `warps` hold duplicates: all write, each to its warp's slot
    // (duplicates to their twin's), with the same values.
    Value warpD = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(
            rewriter, loc, ids.warp,
            createI32(rewriter, loc,
                      llvm::Log2_32(layout.getWarpStride(rootAxis)))),
        createI32(rewriter, loc, warps - 1));

    // The output element of each partial, linearized.
    SmallVector<SmallVector<Value>> srcIndices =
        emitIndices(rewriter, loc, srcType, ids);
    llvm::DenseMap<unsigned, Value> outputIndex;
    for (auto &[key, partial] : partials) {
      SmallVector<Value> index(srcIndices[key]);
      index.erase(index.begin() + axis);
      outputIndex[key] = linearizeIndex(rewriter, loc, index, outShape);
    }

    createBarrier(rewriter, loc);
    for (auto &[key, partial] : partials) {
      Value slot = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, warpD,
                              createI32(rewriter, loc, outputs)),
          outputIndex[key]);
      storeShared(rewriter, loc, gep(rewriter, loc, valueType, base, slot),
                  partial.value);
      if (partial.index)
        storeShared(rewriter, loc,
                    gep(rewriter, loc, rewriter.getI32Type(), indexBase, slot),
                    partial.index);
    }
    createBarrier(rewriter, loc);
    for (auto &[key, partial] : partials) {
      Partial total;
      for (unsigned w = 0; w < warps; ++w) {
        Value slot = LLVM::AddOp::create(rewriter, loc,
                                         createI32(rewriter, loc, w * outputs),
                                         outputIndex[key]);
        Partial loaded{
            loadShared(rewriter, loc, valueType,
                       gep(rewriter, loc, valueType, base, slot)),
            partial.index ? loadShared(rewriter, loc, rewriter.getI32Type(),
                                       gep(rewriter, loc, rewriter.getI32Type(),
                                           indexBase, slot))
                          : Value()};
        total = w == 0 ? loaded : combiner.combine(total, loaded);
      }
      partial = total;
    }
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateReduceOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, patterns.getContext());
}
