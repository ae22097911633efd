//===- ScanOpToLLVM.cpp - tile.scan to LLVM -------------------------------===//
//
// An inclusive scan along an axis, for any layout whose bits step along the
// axis by distinct powers of two (getScanBits). The bits are taken from the
// least significant up, in runs of one level: after the runs below
// significance j, each register holds S (the scan within its block of 2^j
// elements along the axis) and T (that block's total). A run combines the
// blocks it spans: registers sequentially within the thread; lanes with
// Kogge-Stone steps of `shfl.sync.up` (`down` for a reverse scan) on T and
// one more step for the exclusive prefix; warps through shared memory (each
// thread stores its block totals, then reads those of the blocks before
// it). A reverse scan runs the same steps from the axis's end.
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

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// One value per source.
using Values = SmallVector<Value>;

/// The state of one scan while its runs of bits are lowered.
class ScanLowering {
public:
  ScanLowering(ConversionPatternRewriter &rewriter, tile::ScanOp op,
               RankedTensorType srcType, unsigned registerZero)
      : rewriter(rewriter), op(op), loc(op.getLoc()), srcType(srcType),
        registerZero(registerZero), reverse(op.getReverse()) {}

  /// Scans `sources` (per source, its registers) over `bits`; returns the
  /// registers of each result.
  SmallVector<Values> run(ArrayRef<Values> sources, ArrayRef<ScanBit> bits) {
    ids = getThreadIds(rewriter, loc);
    unsigned registers = sources.front().size();
    scans.assign(registers, Values());
    totals.assign(registers, Values());
    for (unsigned reg = 0; reg < registers; ++reg) {
      if (reg & registerZero)
        continue;
      for (const Values &source : sources)
        scans[reg].push_back(source[reg]);
      totals[reg] = scans[reg];
    }
    for (size_t i = 0; i < bits.size();) {
      size_t end = i + 1;
      while (end < bits.size() && bits[end].level == bits[i].level &&
             (bits[i].level != ScanBit::Level::Lane ||
              bits[end].bit == bits[end - 1].bit + 1))
        ++end;
      ArrayRef<ScanBit> runBits = ArrayRef<ScanBit>(bits).slice(i, end - i);
      switch (bits[i].level) {
      case ScanBit::Level::Register:
        scanRegisters(runBits);
        for (const ScanBit &bit : runBits)
          lowerRegisterBits |= 1u << bit.bit;
        break;
      case ScanBit::Level::Lane:
        scanLanes(runBits);
        break;
      case ScanBit::Level::Warp:
        scanWarps(runBits);
        break;
      }
      i = end;
    }
    SmallVector<Values> results(sources.size());
    for (unsigned reg = 0; reg < registers; ++reg)
      for (auto [k, result] : llvm::enumerate(results))
        result.push_back(scans[reg & ~registerZero][k]);
    return results;
  }

private:
  Values combine(ArrayRef<Value> earlier, ArrayRef<Value> later) {
    return emitCombineRegion(rewriter, op.getCombine(), earlier, later);
  }

  Values select(Value cond, ArrayRef<Value> a, ArrayRef<Value> b) {
    Values result;
    for (auto [x, y] : llvm::zip(a, b))
      result.push_back(LLVM::SelectOp::create(rewriter, loc, cond, x, y));
    return result;
  }

  /// The registers of the block of 2^j elements whose first register is
  /// `first` (registers differing from it in axis bits below j).
  SmallVector<unsigned> blockOf(unsigned first) const {
    SmallVector<unsigned> members;
    for (unsigned sub = lowerRegisterBits;;
         sub = (sub - 1) & lowerRegisterBits) {
      members.push_back(first | sub);
      if (sub == 0)
        break;
    }
    return members;
  }

  /// The first register of each block of 2^j elements (canonical: no copy
  /// bits), where also the bits `alsoClear` are clear.
  SmallVector<unsigned> blockStarts(unsigned alsoClear = 0) const {
    SmallVector<unsigned> starts;
    for (unsigned reg = 0; reg < scans.size(); ++reg)
      if (!(reg & (registerZero | lowerRegisterBits | alsoClear)))
        starts.push_back(reg);
    return starts;
  }

  /// After a run, each register of the block starting at `first` (whose
  /// total was `total`) gets `combine(prefix, scan)` where `hasPrefix` (the
  /// blocks before it in the run), or `inclusive` when given and its scan
  /// is the block's total; the block's total becomes `newTotal`.
  void applyPrefix(unsigned first, const Values &total, Value hasPrefix,
                   const Values &prefix, const Values *inclusive,
                   const Values &newTotal) {
    for (unsigned reg : blockOf(first)) {
      Values &scan = scans[reg];
      if (inclusive && scan == total)
        scan = *inclusive;
      else
        scan = select(hasPrefix, combine(prefix, scan), scan);
      totals[reg] = newTotal;
    }
  }

  /// Registers along the axis: the sub-blocks in order, a carry of their
  /// totals.
  void scanRegisters(ArrayRef<ScanBit> run) {
    unsigned runMask = 0, count = 1u << run.size();
    for (const ScanBit &bit : run)
      runMask |= 1u << bit.bit;
    for (unsigned start : blockStarts(runMask)) {
      SmallVector<unsigned> subStarts;
      for (unsigned step = 0; step < count; ++step) {
        unsigned q = reverse ? count - 1 - step : step, reg = start;
        for (auto [t, bit] : llvm::enumerate(run))
          if ((q >> t) & 1)
            reg |= 1u << bit.bit;
        subStarts.push_back(reg);
      }
      Values carry = totals[subStarts.front()];
      for (unsigned sub : ArrayRef<unsigned>(subStarts).drop_front()) {
        Values total = totals[sub];
        Values inclusive = combine(carry, total);
        for (unsigned reg : blockOf(sub))
          if (scans[reg] == total)
            scans[reg] = inclusive;
          else
            scans[reg] = combine(carry, scans[reg]);
        carry = inclusive;
      }
      for (unsigned sub : subStarts)
        for (unsigned reg : blockOf(sub))
          totals[reg] = carry;
    }
  }

  /// Lanes along the axis (consecutive lane bits): Kogge-Stone on the block
  /// totals, `shfl.sync.up` (`down` when reversed).
  void scanLanes(ArrayRef<ScanBit> run) {
    unsigned first = run.front().bit, count = 1u << run.size();
    NVVM::ShflKind kind = reverse ? NVVM::ShflKind::down : NVVM::ShflKind::up;
    // This lane's sub-block, in scan order.
    Value field = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, ids.lane,
                             createI32(rewriter, loc, first)),
        createI32(rewriter, loc, count - 1));
    Value q =
        reverse
            ? Value(LLVM::XOrOp::create(rewriter, loc, field,
                                        createI32(rewriter, loc, count - 1)))
            : field;
    // The lane holding the last sub-block's inclusive prefix: the total.
    Value lastLane = LLVM::OrOp::create(
        rewriter, loc,
        LLVM::AndOp::create(
            rewriter, loc, ids.lane,
            createI32(rewriter, loc, int32_t(~((count - 1) << first)))),
        createI32(rewriter, loc, reverse ? 0 : (count - 1) << first));
    auto shuffle = [&](const Values &values, Value lane, NVVM::ShflKind k) {
      Values result;
      for (Value value : values)
        result.push_back(createShuffle(rewriter, loc, value, lane, k));
      return result;
    };
    auto atLeast = [&](unsigned d) -> Value {
      return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge, q,
                                  createI32(rewriter, loc, d));
    };
    for (unsigned start : blockStarts()) {
      Values total = totals[start];
      Values prefix = total;
      for (unsigned d = 1; d < count; d <<= 1) {
        Values earlier =
            shuffle(prefix, createI32(rewriter, loc, d << first), kind);
        prefix = select(atLeast(d), combine(earlier, prefix), prefix);
      }
      Values exclusive =
          shuffle(prefix, createI32(rewriter, loc, 1u << first), kind);
      Values newTotal = shuffle(prefix, lastLane, NVVM::ShflKind::idx);
      applyPrefix(start, total, atLeast(1), exclusive, &prefix, newTotal);
    }
  }

  /// Warps along the axis: each block's total to shared memory, then every
  /// thread combines the totals of the blocks before its own.
  void scanWarps(ArrayRef<ScanBit> run) {
    unsigned low = run.front().significance, count = 1u << run.size();
    int64_t axis = op.getAxis();
    SmallVector<int64_t> slotShape(srcType.getShape());
    slotShape[axis] >>= low;
    int64_t slots = 1;
    for (int64_t d : slotShape)
      slots *= d;
    // This warp's sub-block, in scan order.
    Value q = createI32(rewriter, loc, 0);
    for (auto [t, bit] : llvm::enumerate(run)) {
      Value set = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, ids.warp,
                               createI32(rewriter, loc, bit.bit)),
          createI32(rewriter, loc, 1));
      q = LLVM::OrOp::create(
          rewriter, loc, q,
          LLVM::ShlOp::create(rewriter, loc, set, createI32(rewriter, loc, t)));
    }
    if (reverse)
      q = LLVM::XOrOp::create(rewriter, loc, q,
                              createI32(rewriter, loc, count - 1));
    Value base = getScratchBase(rewriter, loc, op);
    SmallVector<Type> types;
    for (Value value : totals[blockStarts().front()])
      types.push_back(value.getType());
    SmallVector<Value> sections =
        getScratchSectionBases(rewriter, loc, base, types, slots);
    SmallVector<SmallVector<Value>> indices =
        emitIndices(rewriter, loc, srcType, ids);
    // The slot of the block whose axis index (in blocks) is `block`.
    auto slotOf = [&](unsigned reg, Value block) {
      SmallVector<Value> index(indices[reg]);
      index[axis] = block;
      return linearizeIndex(rewriter, loc, index, slotShape);
    };
    auto shiftRight = [&](Value value, unsigned bits) -> Value {
      return LLVM::LShrOp::create(rewriter, loc, value,
                                  createI32(rewriter, loc, bits));
    };
    createBarrier(rewriter, loc);
    for (unsigned start : blockStarts()) {
      Value slot = slotOf(start, shiftRight(indices[start][axis], low));
      for (auto [value, type, section] :
           llvm::zip(totals[start], types, sections))
        storeShared(rewriter, loc, gep(rewriter, loc, type, section, slot),
                    value);
    }
    createBarrier(rewriter, loc);
    for (unsigned start : blockStarts()) {
      // The first block of this run's group, in blocks.
      Value group = LLVM::ShlOp::create(
          rewriter, loc, shiftRight(indices[start][axis], low + run.size()),
          createI32(rewriter, loc, run.size()));
      Values running, exclusive;
      for (unsigned step = 0; step < count; ++step) {
        unsigned sub = reverse ? count - 1 - step : step;
        Value slot =
            slotOf(start, LLVM::OrOp::create(rewriter, loc, group,
                                             createI32(rewriter, loc, sub)));
        Values loaded;
        for (auto [type, section] : llvm::zip(types, sections))
          loaded.push_back(loadShared(rewriter, loc, type,
                                      gep(rewriter, loc, type, section, slot)));
        if (step == 0) {
          running = exclusive = loaded;
          continue;
        }
        Value here =
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, q,
                                 createI32(rewriter, loc, step));
        exclusive = select(here, running, exclusive);
        running = combine(running, loaded);
      }
      Value hasPrefix =
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, q,
                               createI32(rewriter, loc, 0));
      applyPrefix(start, totals[start], hasPrefix, exclusive, nullptr, running);
    }
  }

  ConversionPatternRewriter &rewriter;
  tile::ScanOp op;
  Location loc;
  RankedTensorType srcType;
  unsigned registerZero;
  bool reverse;
  ThreadIds ids;
  /// Register bits along the axis below the current run.
  unsigned lowerRegisterBits = 0;
  /// Per register (copies left empty): the scan within its block, and the
  /// block's total.
  SmallVector<Values> scans, totals;
};

struct ScanOpConversion : OpConversionPattern<tile::ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrcs().front().getType());
    for (Type type : llvm::concat<const Type>(op.getSrcs().getTypes(),
                                              op.getResults().getTypes()))
      if (cast<RankedTensorType>(type).getEncoding() != srcType.getEncoding())
        return rewriter.notifyMatchFailure(op, "sources and results differ "
                                               "in layout");
    std::optional<LinearLayout> layout = tilegpu::toLinearLayout(srcType);
    std::optional<ReductionBits> reductionBits;
    std::optional<SmallVector<ScanBit>> bits;
    if (layout) {
      reductionBits = getReductionBits(*layout, op.getAxis());
      bits = getScanBits(*layout, op.getAxis());
    }
    if (!reductionBits || !bits)
      return rewriter.notifyMatchFailure(
          op, "source layout does not step along the axis by powers of two");
    SmallVector<Values> sources;
    for (Value src : adaptor.getSrcs())
      sources.push_back(unpackRegisters(rewriter, op.getLoc(), src));
    ScanLowering lowering(rewriter, op, srcType, reductionBits->registerZero);
    SmallVector<Values> registers = lowering.run(sources, *bits);
    SmallVector<Value> results;
    for (auto [result, regs] : llvm::zip(op.getResults(), registers))
      results.push_back(
          packRegisters(rewriter, op.getLoc(), regs,
                        getTypeConverter()->convertType(result.getType())));
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateScanOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ScanOpConversion>(converter, patterns.getContext());
}
