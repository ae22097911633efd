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
#include "WarpShuffle.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::tilegpu;

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
      if (isFloat) {
        // NaN is the most extreme value (docs/spec.md): a NaN beats a
        // number, and of two NaNs the first wins, as of two equal values.
        auto isNaN = [&](Value v) -> Value {
          return LLVM::FCmpOp::create(builder, loc, LLVM::FCmpPredicate::uno, v,
                                      v);
        };
        Value aNaN = isNaN(a.value), bNaN = isNaN(b.value);
        Value notANaN = LLVM::XOrOp::create(
            builder, loc, aNaN,
            LLVM::ConstantOp::create(builder, loc, builder.getI1Type(),
                                     builder.getBoolAttr(true)));
        better = LLVM::OrOp::create(
            builder, loc, better,
            LLVM::AndOp::create(builder, loc, bNaN, notANaN));
        equal = LLVM::OrOp::create(
            builder, loc, equal, LLVM::AndOp::create(builder, loc, aNaN, bNaN));
      }
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

struct ReduceOpConversion : OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    std::optional<LinearLayout> layout = tilegpu::toLinearLayout(srcType);
    unsigned axis = op.getAxis();
    std::optional<ReductionBits> bits;
    if (layout)
      bits = getReductionBits(*layout, axis);
    if (!bits)
      return rewriter.notifyMatchFailure(
          op, "source layout does not separate the axis");
    Combiner combiner(rewriter, loc, op.getKind());
    ThreadIds ids = getThreadIds(rewriter, loc);

    // 1. Within the thread: one partial per register with the axis bits
    //    clear; registers with a zero-basis bit are copies.
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<SmallVector<Value>> indices;
    if (combiner.isArg())
      indices = emitIndices(rewriter, loc, srcType, ids);
    llvm::MapVector<unsigned, Partial> partials;
    for (unsigned reg = 0; reg < srcRegisters.size(); ++reg) {
      if (reg & bits->registerZero)
        continue;
      unsigned key = reg & ~bits->registerAxis;
      Partial partial{srcRegisters[reg],
                      combiner.isArg() ? indices[reg][axis] : Value()};
      auto it = partials.find(key);
      if (it == partials.end())
        partials.insert({key, partial});
      else
        it->second = combiner.combine(it->second, partial);
    }

    // 2. Across the lanes along the axis.
    for (unsigned bit = 0; bit < 5; ++bit) {
      if (!((bits->laneAxis >> bit) & 1))
        continue;
      Value laneMask = createI32(rewriter, loc, 1u << bit);
      for (auto &entry : partials) {
        Partial other{createShuffle(rewriter, loc, entry.second.value, laneMask,
                                    NVVM::ShflKind::bfly),
                      entry.second.index
                          ? createShuffle(rewriter, loc, entry.second.index,
                                          laneMask, NVVM::ShflKind::bfly)
                          : Value()};
        entry.second = combiner.combine(entry.second, other);
      }
    }

    // 3. Across the warps along the axis, through shared memory.
    if (bits->warpAxis &&
        failed(reduceAcrossWarps(op, rewriter, *layout, bits->warpAxis, ids,
                                 combiner, partials)))
      return failure();

    // The result: a scalar, or the registers of the sliced layout, matched
    // to the partials by the index their registers hold.
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, combiner.isArg() ? partials.front().second.index
                                              : partials.front().second.value);
      return success();
    }
    auto resultType = cast<RankedTensorType>(op.getType());
    std::optional<LinearLayout> resultLayout =
        tilegpu::toLinearLayout(resultType);
    if (!resultLayout)
      return rewriter.notifyMatchFailure(op, "result layout has no registers");
    namespace dims = layout_dims;
    LinearLayout reduced = layout->withoutOutput(dims::getBlockDimName(axis));
    std::map<SmallVector<int32_t>, unsigned> keyOfIndex;
    for (auto &[key, partial] : partials) {
      SmallVector<int32_t> index = layout->applyOne(dims::kRegister, key);
      index.erase(index.begin() + axis);
      keyOfIndex.insert({index, key});
    }
    bool sameThreads =
        reduced.getBases(dims::kLane) == resultLayout->getBases(dims::kLane) &&
        reduced.getBases(dims::kWarp) == resultLayout->getBases(dims::kWarp);
    SmallVector<Value> results;
    for (int32_t reg = 0, e = resultLayout->getInputSize(dims::kRegister);
         sameThreads && reg < e; ++reg) {
      auto it = keyOfIndex.find(resultLayout->applyOne(dims::kRegister, reg));
      if (it == keyOfIndex.end())
        break;
      Partial &partial = partials.find(it->second)->second;
      results.push_back(combiner.isArg() ? partial.index : partial.value);
    }
    if (!sameThreads ||
        int32_t(results.size()) != resultLayout->getInputSize(dims::kRegister))
      return rewriter.notifyMatchFailure(
          op, "result layout is not the source's slice along the axis");
    rewriter.replaceOp(
        op, packRegisters(rewriter, loc, results,
                          getTypeConverter()->convertType(resultType)));
    return success();
  }

  /// Each warp writes its partials to slot [warp along axis][output
  /// element]; every thread then combines the slots of its outputs. Warps
  /// that hold copies write the same values to the same slots.
  LogicalResult
  reduceAcrossWarps(tile::ReduceOp op, ConversionPatternRewriter &rewriter,
                    const LinearLayout &layout, int32_t warpAxis,
                    const ThreadIds &ids, Combiner &combiner,
                    llvm::MapVector<unsigned, Partial> &partials) const {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    unsigned axis = op.getAxis();
    SmallVector<int64_t> outShape(srcType.getShape());
    outShape.erase(outShape.begin() + axis);
    int64_t outputs = 1;
    for (int64_t d : outShape)
      outputs *= d;
    unsigned warps = 1u << llvm::popcount(uint32_t(warpAxis));
    Type valueType = partials.front().second.value.getType();
    unsigned valueBytes = tilegpu::getSharedElementBytes(valueType);
    Value base = getScratchBase(rewriter, loc, op);
    Value indexBase =
        gep(rewriter, loc, rewriter.getI8Type(), base,
            createI32(rewriter, loc,
                      llvm::alignTo(warps * outputs * valueBytes, 4)));
    // This warp's position along the axis: its axis bits, packed.
    LinearLayout::InputDim warpBits{layout_dims::kWarp.str(), {}};
    unsigned next = 0;
    for (unsigned bit = 0; bit < layout.getInputLog2Size(layout_dims::kWarp);
         ++bit)
      warpBits.bases.push_back(
          {((warpAxis >> bit) & 1) ? int32_t(1) << next++ : 0});
    LinearLayout slotOf({std::move(warpBits)}, {{"slot", next}});
    Value warpD = addConstantBits(
        rewriter, loc, emitLinearMap(rewriter, loc, slotOf, {ids.warp})[0], 0);

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
