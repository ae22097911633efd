//===- ReduceOpToLLVM.cpp - tile.reduce, tile.combine_reduce to LLVM ------===//
//
// A reduction along an axis in three steps, each only as far as the layout
// spreads distinct elements: combine a thread's registers, then lanes with
// butterfly shuffles (`shfl.sync.bfly`), then warps through shared memory.
// One lowering serves both ops: a partial result is one value per source,
// combined by the built-in kind (argmax/argmin carry (value, index) pairs
// and keep the first extreme) or by the user's combine region.
//
//===----------------------------------------------------------------------===//

#include "CombineRegion.h"
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
/// A partial result: one value per source (for argmax/argmin, the value
/// and its index).
using Partial = SmallVector<Value>;
/// Partial results by register key (the register index with the axis
/// bits clear), in register order.
using Partials = llvm::MapVector<unsigned, Partial>;

/// Combines partial results according to a built-in reduction kind.
class Combiner {
public:
  Combiner(OpBuilder &builder, Location loc, tile::ReduceKind kind)
      : builder(builder), loc(loc), kind(kind) {}

  bool isArg() const {
    return kind == tile::ReduceKind::ArgMax || kind == tile::ReduceKind::ArgMin;
  }

  Partial combine(ArrayRef<Value> a, ArrayRef<Value> b) {
    Type type = a[0].getType();
    bool isFloat = isa<FloatType>(type);
    switch (kind) {
    case tile::ReduceKind::Sum:
      return {create<LLVM::FAddOp, LLVM::AddOp>(a[0], b[0])};
    case tile::ReduceKind::Max:
      return {create<LLVM::MaximumOp, LLVM::SMaxOp>(a[0], b[0])};
    case tile::ReduceKind::Min:
      return {create<LLVM::MinimumOp, LLVM::SMinOp>(a[0], b[0])};
    case tile::ReduceKind::ArgMax:
    case tile::ReduceKind::ArgMin: {
      bool max = kind == tile::ReduceKind::ArgMax;
      Value aValue = a[0], aIndex = a[1], bValue = b[0], bIndex = b[1];
      // b's value against a's, ordered for floats, signed for integers.
      auto compare = [&](LLVM::FCmpPredicate floatPredicate,
                         LLVM::ICmpPredicate intPredicate) -> Value {
        if (isFloat)
          return LLVM::FCmpOp::create(builder, loc, floatPredicate, bValue,
                                      aValue);
        return LLVM::ICmpOp::create(builder, loc, intPredicate, bValue, aValue);
      };
      Value better =
          max ? compare(LLVM::FCmpPredicate::ogt, LLVM::ICmpPredicate::sgt)
              : compare(LLVM::FCmpPredicate::olt, LLVM::ICmpPredicate::slt);
      Value equal = compare(LLVM::FCmpPredicate::oeq, LLVM::ICmpPredicate::eq);
      Value earlier = LLVM::ICmpOp::create(
          builder, loc, LLVM::ICmpPredicate::slt, bIndex, aIndex);
      if (isFloat) {
        // NaN is the most extreme value (docs/spec.md): a NaN beats a
        // number, and of two NaNs the first wins, as of two equal values.
        auto isNaN = [&](Value v) -> Value {
          return LLVM::FCmpOp::create(builder, loc, LLVM::FCmpPredicate::uno, v,
                                      v);
        };
        Value aNaN = isNaN(aValue), bNaN = isNaN(bValue);
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
      return {LLVM::SelectOp::create(builder, loc, takeB, bValue, aValue),
              LLVM::SelectOp::create(builder, loc, takeB, bIndex, aIndex)};
    }
    }
    return Partial(a);
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

/// The reduction of one op's sources, all in the layout of `srcType`.
struct AxisReduction {
  Operation *op;
  RankedTensorType srcType;
  unsigned axis;
  LinearLayout layout;
  ReductionBits bits;
  ThreadIds ids;

  /// Reduces `sources` (per source, the registers of `srcType`'s layout)
  /// along the axis: every thread ends with the partials of the outputs it
  /// holds. With `ordered` (a user's combine function, which need not be
  /// commutative) both lanes of a butterfly step combine the lower lane's
  /// partial with the higher one's, so every copy of a result is the same
  /// (a `split` reads either copy).
  FailureOr<Partials> run(ConversionPatternRewriter &rewriter,
                          ArrayRef<SmallVector<Value>> sources,
                          CombineFn combine, bool ordered = false) const {
    Location loc = op->getLoc();
    // 1. Within the thread: one partial per register with the axis bits
    //    clear; registers with a zero-basis bit are copies.
    Partials partials;
    for (unsigned reg = 0; reg < sources.front().size(); ++reg) {
      if (reg & bits.registerZero)
        continue;
      unsigned key = reg & ~bits.registerAxis;
      Partial partial;
      for (const SmallVector<Value> &source : sources)
        partial.push_back(source[reg]);
      auto it = partials.find(key);
      if (it == partials.end())
        partials.insert({key, partial});
      else
        it->second = combine(it->second, partial);
    }

    // 2. Across the lanes along the axis.
    for (unsigned bit = 0; bit < 5; ++bit) {
      if (!((bits.laneAxis >> bit) & 1))
        continue;
      Value laneMask = createI32(rewriter, loc, 1u << bit);
      Value isHigh;
      if (ordered)
        isHigh = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::ne,
            LLVM::AndOp::create(rewriter, loc, ids.lane, laneMask),
            createI32(rewriter, loc, 0));
      for (auto &entry : partials) {
        Partial other;
        for (Value value : entry.second)
          other.push_back(createShuffle(rewriter, loc, value, laneMask,
                                        NVVM::ShflKind::bfly));
        if (!ordered) {
          entry.second = combine(entry.second, other);
          continue;
        }
        Partial low, high;
        for (auto [mine, theirs] : llvm::zip(entry.second, other)) {
          low.push_back(
              LLVM::SelectOp::create(rewriter, loc, isHigh, theirs, mine));
          high.push_back(
              LLVM::SelectOp::create(rewriter, loc, isHigh, mine, theirs));
        }
        entry.second = combine(low, high);
      }
    }

    // 3. Across the warps along the axis, through shared memory.
    if (bits.warpAxis)
      reduceAcrossWarps(rewriter, combine, partials);
    return partials;
  }

  /// The result of `op` made of value `index` of each partial: a scalar, or
  /// the registers of the sliced layout, matched to the partials by the
  /// index their registers hold.
  FailureOr<Value> pack(ConversionPatternRewriter &rewriter,
                        const TypeConverter &converter, Type type,
                        const Partials &partials, unsigned index) const {
    Location loc = op->getLoc();
    if (!isa<RankedTensorType>(type))
      return partials.front().second[index];
    auto resultType = cast<RankedTensorType>(type);
    std::optional<LinearLayout> resultLayout =
        tilegpu::toLinearLayout(resultType);
    if (!resultLayout)
      return rewriter.notifyMatchFailure(op, "result layout has no registers");
    namespace dims = layout_dims;
    LinearLayout reduced = layout.withoutOutput(dims::getBlockDimName(axis));
    std::map<SmallVector<int32_t>, unsigned> keyOfIndex;
    for (auto &[key, partial] : partials) {
      SmallVector<int32_t> elementIndex = layout.applyOne(dims::kRegister, key);
      elementIndex.erase(elementIndex.begin() + axis);
      keyOfIndex.insert({elementIndex, key});
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
      results.push_back(partials.find(it->second)->second[index]);
    }
    if (!sameThreads ||
        int32_t(results.size()) != resultLayout->getInputSize(dims::kRegister))
      return rewriter.notifyMatchFailure(
          op, "result layout is not the source's slice along the axis");
    return packRegisters(rewriter, loc, results,
                         converter.convertType(resultType));
  }

private:
  /// Each warp writes its partials to slot [warp along axis][output
  /// element] of one section per value; every thread then combines the
  /// slots of its outputs. Warps that hold copies write the same values to
  /// the same slots.
  void reduceAcrossWarps(ConversionPatternRewriter &rewriter, CombineFn combine,
                         Partials &partials) const {
    Location loc = op->getLoc();
    SmallVector<int64_t> outShape(srcType.getShape());
    outShape.erase(outShape.begin() + axis);
    int64_t outputs = 1;
    for (int64_t d : outShape)
      outputs *= d;
    unsigned warps = 1u << llvm::popcount(uint32_t(bits.warpAxis));
    Value base = getScratchBase(rewriter, loc, op);
    SmallVector<Type> types;
    for (Value value : partials.front().second)
      types.push_back(value.getType());
    SmallVector<Value> sections =
        getScratchSectionBases(rewriter, loc, base, types, warps * outputs);
    // This warp's position along the axis: its axis bits, packed.
    LinearLayout::InputDim warpBits{layout_dims::kWarp.str(), {}};
    unsigned next = 0;
    for (unsigned bit = 0; bit < layout.getInputLog2Size(layout_dims::kWarp);
         ++bit)
      warpBits.bases.push_back(
          {((bits.warpAxis >> bit) & 1) ? int32_t(1) << next++ : 0});
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
      for (auto [value, type, section] : llvm::zip(partial, types, sections))
        storeShared(rewriter, loc, gep(rewriter, loc, type, section, slot),
                    value);
    }
    createBarrier(rewriter, loc);
    for (auto &[key, partial] : partials) {
      Partial total;
      for (unsigned w = 0; w < warps; ++w) {
        Value slot = LLVM::AddOp::create(rewriter, loc,
                                         createI32(rewriter, loc, w * outputs),
                                         outputIndex[key]);
        Partial loaded;
        for (auto [type, section] : llvm::zip(types, sections))
          loaded.push_back(loadShared(rewriter, loc, type,
                                      gep(rewriter, loc, type, section, slot)));
        total = w == 0 ? loaded : combine(total, loaded);
      }
      partial = total;
    }
  }
};

/// The reduction of sources of type `srcType` along `axis`, or failure
/// (reported on `op`) when the layout does not separate the axis.
FailureOr<AxisReduction> planReduction(ConversionPatternRewriter &rewriter,
                                       Operation *op, RankedTensorType srcType,
                                       unsigned axis) {
  std::optional<LinearLayout> layout = tilegpu::toLinearLayout(srcType);
  std::optional<ReductionBits> bits;
  if (layout)
    bits = getReductionBits(*layout, axis);
  if (!bits)
    return rewriter.notifyMatchFailure(
        op, "source layout does not separate the axis");
  return AxisReduction{op, srcType, axis, *layout, *bits, ThreadIds()};
}

struct ReduceOpConversion : OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    FailureOr<AxisReduction> reduction =
        planReduction(rewriter, op, srcType, op.getAxis());
    if (failed(reduction))
      return failure();
    Combiner combiner(rewriter, loc, op.getKind());
    reduction->ids = getThreadIds(rewriter, loc);
    SmallVector<SmallVector<Value>> sources = {
        unpackRegisters(rewriter, loc, adaptor.getSrc())};
    // argmax/argmin reduce (value, index along the axis) pairs.
    if (combiner.isArg()) {
      SmallVector<Value> &axisIndices = sources.emplace_back();
      for (SmallVector<Value> &index :
           emitIndices(rewriter, loc, srcType, reduction->ids))
        axisIndices.push_back(index[op.getAxis()]);
    }
    FailureOr<Partials> partials = reduction->run(
        rewriter, sources, [&](ArrayRef<Value> a, ArrayRef<Value> b) {
          return combiner.combine(a, b);
        });
    if (failed(partials))
      return failure();
    FailureOr<Value> result =
        reduction->pack(rewriter, *getTypeConverter(), op.getType(), *partials,
                        combiner.isArg() ? 1 : 0);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct CombineReduceOpConversion : OpConversionPattern<tile::CombineReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::CombineReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    for (Value src : op.getSrcs())
      if (cast<RankedTensorType>(src.getType()).getEncoding() !=
          srcType.getEncoding())
        return rewriter.notifyMatchFailure(op, "sources differ in layout");
    FailureOr<AxisReduction> reduction =
        planReduction(rewriter, op, srcType, op.getAxis());
    if (failed(reduction))
      return failure();
    reduction->ids = getThreadIds(rewriter, loc);
    SmallVector<SmallVector<Value>> sources;
    for (Value src : adaptor.getSrcs())
      sources.push_back(unpackRegisters(rewriter, loc, src));
    FailureOr<Partials> partials = reduction->run(
        rewriter, sources,
        [&](ArrayRef<Value> a, ArrayRef<Value> b) {
          return emitCombineRegion(rewriter, op.getCombine(), a, b);
        },
        /*ordered=*/true);
    if (failed(partials))
      return failure();
    SmallVector<Value> results;
    for (auto [index, result] : llvm::enumerate(op.getResults())) {
      FailureOr<Value> packed = reduction->pack(
          rewriter, *getTypeConverter(), result.getType(), *partials, index);
      if (failed(packed))
        return failure();
      results.push_back(*packed);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateReduceOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion, CombineReduceOpConversion>(
      converter, patterns.getContext());
}
