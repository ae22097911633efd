//===- SharedExchangeLayoutTest.cpp - Scratch layouts of exchanges --------===//
//
// getSharedExchangeLayout over many pairs of register layouts (blocked
// variants, transposes as trans sees them, mma v2/v3 accumulators, dot
// operands with kWidth 1/2/4; f16, f32 and others; shapes 16..128): the
// scratch is a bijection onto the block, the offsets the lowering derives
// by composition agree with it, and an independent simulation of the
// accesses counts the wavefronts.
//
// The simulated hardware: 32 banks of 4 bytes; an access of B bytes per
// lane runs in phases of 128 / B consecutive lanes when B >= 4 (8 lanes of
// 16 bytes, 16 of 8, 32 of 4) and of all 32 lanes when B < 4; a phase
// takes as many wavefronts as the largest number of distinct 4-byte words
// it touches in any one bank. One instruction is one vector per thread, as
// the lowering issues them: the registers whose elements share an aligned
// vector of the scratch (each distinct vector once per thread). A phase
// that touches each bank's words at most once is conflict-free.
//
// The same simulation measures the scheme this replaced (rows padded by 16
// bytes when a row is a multiple of 32 bytes, row-major unpadded
// otherwise, each side's vectors its runs along the last dimension); the
// new layout must never take more wavefronts.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/SharedExchangeLayout.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tilegpu;
namespace dims = mlir::tilegpu::layout_dims;

namespace {

/// Row-major element index of a block index.
int64_t linearize(ArrayRef<int32_t> index, ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (auto [value, size] : llvm::zip(index, shape))
    linear = linear * size + value;
  return linear;
}

/// Where a scheme puts each element (an element offset in the scratch).
using OffsetFn = std::function<int64_t(ArrayRef<int32_t> index)>;

struct Simulated {
  int64_t wavefronts = 0, instructions = 0, phases = 0;
};

/// The wavefronts of all warps' accesses of a block of layout `layout`
/// (register, lane, warp -> index), vectors of `width` elements of `bytes`
/// at the offsets `offsetOf` gives. Fails the test if a thread's vector
/// would not be aligned or its registers' grouping differed between lanes.
Simulated simulate(const LinearLayout &layout, ArrayRef<int64_t> shape,
                   const OffsetFn &offsetOf, int64_t width, int64_t bytes,
                   bool dedupe) {
  int32_t registers = layout.getInputSize(dims::kRegister);
  int32_t warps = layout.getInputSize(dims::kWarp);
  int64_t accessBytes = width * bytes;
  int64_t lanesPerPhase = accessBytes >= 4 ? 128 / accessBytes : 32;
  lanesPerPhase = std::min<int64_t>(32, lanesPerPhase);
  Simulated result;
  for (int32_t warp = 0; warp < warps; ++warp) {
    // Instructions: lane 0's vectors (aligned offset / width), in order.
    std::map<int64_t, SmallVector<int32_t>> groups;
    std::set<int64_t> seenElements;
    for (int32_t r = 0; r < registers; ++r) {
      SmallVector<int32_t> index = layout.apply({r, 0, warp});
      if (dedupe && !seenElements.insert(linearize(index, shape)).second)
        continue;
      groups[offsetOf(index) / width].push_back(r);
    }
    for (auto &[key, regs] : groups) {
      ++result.instructions;
      std::vector<std::map<int64_t, std::set<int64_t>>> banks(32 /
                                                              lanesPerPhase);
      for (int32_t lane = 0; lane < 32; ++lane) {
        int64_t vector = -1;
        for (int32_t r : regs) {
          int64_t v = offsetOf(layout.apply({r, lane, warp})) / width;
          EXPECT_TRUE(vector == -1 || vector == v)
              << "registers of one vector in different vectors, lane " << lane;
          vector = v;
        }
        int64_t first = vector * width * bytes;
        for (int64_t byte = first; byte < first + accessBytes; byte += 4)
          banks[lane / lanesPerPhase][(byte / 4) % 32].insert(byte / 4);
      }
      for (auto &phase : banks) {
        size_t most = 0;
        for (auto &[bank, words] : phase)
          most = std::max(most, words.size());
        result.wavefronts += std::max<size_t>(most, 1);
        ++result.phases;
      }
    }
  }
  return result;
}

/// The longest aligned run of registers along the last dimension (as the
/// replaced scheme vectorized), at most `most` elements.
int64_t lastDimRun(const LinearLayout &layout, int64_t most) {
  ArrayRef<LinearLayout::Basis> regs = layout.getBases(dims::kRegister);
  unsigned last = layout.getOutputs().size() - 1;
  int64_t run = 1;
  for (const LinearLayout::Basis &basis : regs) {
    bool next = run < most && basis[last] == run;
    for (unsigned d = 0; d < last; ++d)
      next &= basis[d] == 0;
    if (!next)
      break;
    run *= 2;
  }
  // Aligned: no other basis moves the low bits of the last dimension.
  auto aligned = [&](int64_t r) {
    for (const LinearLayout::InputDim &in : layout.getInputs())
      for (auto [i, basis] : llvm::enumerate(in.bases))
        if ((in.name != dims::kRegister || (int64_t(1) << i) >= r) &&
            (basis[last] & (r - 1)))
          return false;
    return true;
  };
  while (run > 1 && !aligned(run))
    run /= 2;
  return run;
}

class SharedExchangeLayouts : public ::testing::Test {
protected:
  SharedExchangeLayouts() { context.loadDialect<TileGPUDialect>(); }

  struct Result {
    Simulated store, load;
    int64_t oldWavefronts = 0;
  };

  /// Checks the exchange from `src` to `dst` (layouts of a block of
  /// `shape`), elements of `bytes`; `transposed` when `dst` is a `trans`
  /// result's view (the replaced scheme then had no padding or vectors).
  Result check(const LinearLayout &src, const LinearLayout &dst,
               ArrayRef<int64_t> shape, int64_t bytes, bool transposed) {
    Result result;
    std::optional<SharedExchangeLayout> exchange =
        getSharedExchangeLayout(src, dst, bytes);
    EXPECT_TRUE(exchange.has_value());
    if (!exchange)
      return result;
    const LinearLayout &scratch = exchange->scratch;
    int64_t elements = 1;
    for (int64_t size : shape)
      elements *= size;
    EXPECT_EQ(exchange->getScratchBytes(), elements * bytes);
    // A bijection onto the block: a table of every offset's element.
    std::vector<int64_t> offsetOfElement(elements, -1);
    for (int32_t offset = 0; offset < scratch.getInputSize(dims::kOffset);
         ++offset) {
      int64_t element = linearize(scratch.apply({offset}), shape);
      EXPECT_EQ(offsetOfElement[element], -1) << "offset " << offset;
      offsetOfElement[element] = offset;
    }
    EXPECT_EQ(scratch.getInputSize(dims::kOffset), elements);
    OffsetFn offsetOf = [&](ArrayRef<int32_t> index) {
      return offsetOfElement[linearize(index, shape)];
    };
    // The lowering's offsets (layout composed with the inverse) agree.
    std::optional<LinearLayout> inverse = scratch.invert();
    EXPECT_TRUE(inverse.has_value());
    if (!inverse)
      return result;
    for (const LinearLayout *layout : {&src, &dst}) {
      LinearLayout composed = layout->compose(*inverse);
      for (int32_t w = 0; w < layout->getInputSize(dims::kWarp); ++w)
        for (int32_t l = 0; l < 32; ++l)
          for (int32_t r = 0; r < layout->getInputSize(dims::kRegister); ++r)
            EXPECT_EQ(composed.apply({r, l, w})[0],
                      offsetOf(layout->apply({r, l, w})));
    }
    // Every element is stored (some thread holds it) and read back from
    // where it was stored (one table serves both).
    std::set<int64_t> stored;
    for (int32_t w = 0; w < src.getInputSize(dims::kWarp); ++w)
      for (int32_t l = 0; l < 32; ++l)
        for (int32_t r = 0; r < src.getInputSize(dims::kRegister); ++r)
          stored.insert(offsetOf(src.apply({r, l, w})));
    EXPECT_EQ(int64_t(stored.size()), elements);

    result.store =
        simulate(src, shape, offsetOf, int64_t(1) << exchange->storeVectorLog2,
                 bytes, /*dedupe=*/true);
    result.load =
        simulate(dst, shape, offsetOf, int64_t(1) << exchange->loadVectorLog2,
                 bytes, /*dedupe=*/true);
    // The model the choice used agrees with the simulation (per warp).
    int64_t warps = src.getInputSize(dims::kWarp);
    EXPECT_EQ(exchange->storeWavefronts * warps, result.store.wavefronts);
    EXPECT_EQ(exchange->loadWavefronts * dst.getInputSize(dims::kWarp),
              result.load.wavefronts);

    // The replaced scheme.
    int64_t stride = shape.back(), storeRun = 1, loadRun = 1;
    if (!transposed) {
      int64_t rowBytes = shape.back() * bytes;
      if (shape.size() == 2 && rowBytes >= 32 && rowBytes % 32 == 0 &&
          16 % bytes == 0) {
        stride += 16 / bytes;
        storeRun = lastDimRun(src, 16 / bytes);
        loadRun = lastDimRun(dst, 16 / bytes);
      }
    }
    OffsetFn oldOffsetOf = [&](ArrayRef<int32_t> index) {
      int64_t offset = 0;
      for (unsigned d = 0; d + 1 < index.size(); ++d)
        offset = offset * shape[d] + index[d];
      return offset * stride + index.back();
    };
    result.oldWavefronts =
        simulate(src, shape, oldOffsetOf, storeRun, bytes, false).wavefronts +
        simulate(dst, shape, oldOffsetOf, loadRun, bytes, false).wavefronts;
    EXPECT_LE(result.store.wavefronts + result.load.wavefronts,
              result.oldWavefronts);
    return result;
  }

  /// Checks and expects every phase of every access to take one wavefront.
  void expectConflictFree(const LinearLayout &src, const LinearLayout &dst,
                          ArrayRef<int64_t> shape, int64_t bytes,
                          bool transposed) {
    Result r = check(src, dst, shape, bytes, transposed);
    EXPECT_EQ(r.store.wavefronts, r.store.phases) << "stores conflict";
    EXPECT_EQ(r.load.wavefronts, r.load.phases) << "loads conflict";
  }

  LinearLayout layoutOf(ArrayRef<int64_t> shape, Attribute encoding) {
    auto type =
        RankedTensorType::get(shape, Builder(&context).getF32Type(), encoding);
    std::optional<LinearLayout> layout = toLinearLayout(type);
    EXPECT_TRUE(layout.has_value());
    return layout ? *layout : LinearLayout();
  }

  /// The row-major blocked layout the compiler gives a tile of `shape`:
  /// 16-byte vectors along the rows, a warp's lanes along them first.
  Attribute rowLayout(ArrayRef<int64_t> shape, int64_t bytes, unsigned warps) {
    unsigned spt = std::min<int64_t>(16 / bytes, shape[1]);
    unsigned along = std::min<int64_t>(32, shape[1] / spt);
    return BlockedEncodingAttr::get(&context, {1, spt}, {32 / along, along},
                                    {warps, 1}, {1, 0});
  }

  MLIRContext context;
};

std::string describe(ArrayRef<int64_t> shape, int64_t bytes) {
  return llvm::formatv("{0}x{1}, {2} bytes", shape[0], shape[1], bytes).str();
}

TEST_F(SharedExchangeLayouts, TransposesAreConflictFree) {
  struct Case {
    int64_t m, n;
    unsigned warps;
  };
  for (Case c : {Case{32, 32, 4}, Case{64, 64, 4}, Case{128, 64, 8},
                 Case{64, 128, 4}, Case{16, 64, 4}})
    for (int64_t bytes : {4, 2}) {
      SmallVector<int64_t> shape{c.m, c.n}, transposed{c.n, c.m};
      SCOPED_TRACE(describe(shape, bytes));
      LinearLayout src = layoutOf(shape, rowLayout(shape, bytes, c.warps));
      LinearLayout dst = getTransposedView(
          layoutOf(transposed, rowLayout(transposed, bytes, c.warps)));
      expectConflictFree(src, dst, shape, bytes, /*transposed=*/true);
    }
}

TEST_F(SharedExchangeLayouts, BlockedPairs) {
  struct Blocked {
    SmallVector<unsigned> spt, tpw, wpc, order;
  };
  SmallVector<Blocked> blocked = {
      {{1, 4}, {4, 8}, {4, 1}, {1, 0}},  {{1, 1}, {1, 32}, {1, 4}, {1, 0}},
      {{4, 1}, {8, 4}, {1, 4}, {0, 1}},  {{2, 2}, {2, 16}, {2, 2}, {1, 0}},
      {{1, 8}, {32, 1}, {4, 1}, {1, 0}}, {{2, 4}, {4, 8}, {2, 2}, {0, 1}},
      {{1, 4}, {2, 16}, {4, 1}, {1, 0}}, {{4, 1}, {16, 2}, {1, 4}, {0, 1}}};
  for (SmallVector<int64_t> shape :
       {SmallVector<int64_t>{16, 16}, {64, 64}, {16, 128}, {128, 16}})
    for (int64_t bytes : {1, 2, 4, 8})
      for (const Blocked &a : blocked)
        for (const Blocked &b : blocked) {
          SCOPED_TRACE(describe(shape, bytes));
          auto from =
              BlockedEncodingAttr::get(&context, a.spt, a.tpw, a.wpc, a.order);
          auto to =
              BlockedEncodingAttr::get(&context, b.spt, b.tpw, b.wpc, b.order);
          LinearLayout src = layoutOf(shape, from), dst = layoutOf(shape, to);
          if (canExchangeInRegisters(src, dst))
            continue;
          Result r = check(src, dst, shape, bytes, /*transposed=*/false);
          // Two row-major layouts and their transposes exchange without
          // conflicts in 4- and 2-byte elements.
          if (a.order == b.order || bytes > 4)
            continue;
          if ((a.spt == SmallVector<unsigned>{1, 4} &&
               b.spt == SmallVector<unsigned>{4, 1}) ||
              (a.spt == SmallVector<unsigned>{4, 1} &&
               b.spt == SmallVector<unsigned>{1, 4})) {
            EXPECT_EQ(r.store.wavefronts, r.store.phases);
            EXPECT_EQ(r.load.wavefronts, r.load.phases);
          }
        }
}

TEST_F(SharedExchangeLayouts, MmaAccumulatorsToBlocked) {
  struct Case {
    unsigned version;
    SmallVector<unsigned> warps, instr;
  };
  SmallVector<Case> cases = {
      {2, {2, 2}, {16, 8}},      {2, {4, 1}, {16, 8}},
      {2, {1, 4}, {16, 8}},      {2, {2, 4}, {16, 8}},
      {3, {4, 1}, {64, 64, 16}}, {3, {4, 1}, {64, 128, 16}},
      {3, {8, 1}, {64, 128, 16}}};
  for (const Case &c : cases)
    for (SmallVector<int64_t> shape :
         {SmallVector<int64_t>{64, 64}, {128, 128}, {64, 128}})
      for (int64_t bytes : {4, 2}) {
        SCOPED_TRACE(describe(shape, bytes) + " mma v" +
                     std::to_string(c.version));
        auto mma = MmaEncodingAttr::get(&context, c.version, c.warps, c.instr);
        unsigned warps = c.warps[0] * c.warps[1];
        LinearLayout src = layoutOf(shape, mma);
        LinearLayout dst = layoutOf(shape, rowLayout(shape, bytes, warps));
        expectConflictFree(src, dst, shape, bytes, /*transposed=*/false);
        // And back.
        check(dst, src, shape, bytes, /*transposed=*/false);
      }
}

TEST_F(SharedExchangeLayouts, BlockedToDotOperands) {
  for (SmallVector<unsigned> warps :
       {SmallVector<unsigned>{2, 2}, {4, 1}, {1, 4}})
    for (SmallVector<int64_t> shape :
         {SmallVector<int64_t>{64, 64}, {128, 32}, {32, 128}, {16, 64}})
      for (unsigned opIdx : {0u, 1u})
        for (unsigned kWidth : {1u, 2u, 4u})
          for (int64_t bytes : {4, 2}) {
            SCOPED_TRACE(describe(shape, bytes) + " operand " +
                         std::to_string(opIdx) + " kWidth " +
                         std::to_string(kWidth));
            auto mma = MmaEncodingAttr::get(&context, 2, warps, {16, 8});
            auto dot =
                DotOperandEncodingAttr::get(&context, opIdx, mma, kWidth);
            LinearLayout src =
                layoutOf(shape, rowLayout(shape, bytes, warps[0] * warps[1]));
            LinearLayout dst = layoutOf(shape, dot);
            if (canExchangeInRegisters(src, dst))
              continue;
            // Operand A (K along rows) reads rows as the blocked layout
            // wrote them; B (K down the columns) transposes, which its
            // kWidth elements along K make conflict-free only in 4-byte
            // words (a kWidth of 2 f16, or 1 f32).
            if (opIdx == 0 || kWidth * bytes == 4)
              expectConflictFree(src, dst, shape, bytes, false);
            else
              check(src, dst, shape, bytes, false);
          }
}

TEST_F(SharedExchangeLayouts, SlicesAndOtherRanks) {
  auto b2 = BlockedEncodingAttr::get(&context, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  auto b1 = BlockedEncodingAttr::get(&context, {4}, {32}, {4}, {0});
  for (unsigned dim : {0u, 1u}) {
    auto slice = SliceEncodingAttr::get(&context, dim, b2);
    for (int64_t n : {64, 128, 512}) {
      LinearLayout src = layoutOf({n}, slice), dst = layoutOf({n}, b1);
      if (!canExchangeInRegisters(src, dst)) {
        check(src, dst, {n}, 4, false);
        check(dst, src, {n}, 4, false);
      }
    }
  }
  auto b3 = BlockedEncodingAttr::get(&context, {1, 2, 2}, {2, 4, 4}, {2, 1, 2},
                                     {2, 1, 0});
  auto c3 = BlockedEncodingAttr::get(&context, {4, 1, 1}, {4, 8, 1}, {1, 4, 1},
                                     {0, 1, 2});
  check(layoutOf({8, 16, 32}, b3), layoutOf({8, 16, 32}, c3), {8, 16, 32}, 2,
        false);
}

TEST_F(SharedExchangeLayouts, ReshapedViewKeepsRowMajorPositions) {
  // A reshape's result seen through its source's indices: the element each
  // place holds has the same row-major position in both shapes.
  auto b2 = BlockedEncodingAttr::get(&context, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  auto b1 = BlockedEncodingAttr::get(&context, {4}, {32}, {4}, {0});
  auto b3 = BlockedEncodingAttr::get(&context, {1, 2, 2}, {2, 4, 4}, {2, 1, 2},
                                     {2, 1, 0});
  struct Case {
    SmallVector<int64_t> result, source;
    Attribute encoding;
  };
  for (const Case &c : {Case{{64, 32}, {2048}, b2}, Case{{1024}, {32, 32}, b1},
                        Case{{4, 8, 16}, {32, 16}, b3}}) {
    LinearLayout result = layoutOf(c.result, c.encoding);
    LinearLayout view = getReshapedView(result, c.source);
    for (int32_t w = 0; w < result.getInputSize(dims::kWarp); ++w)
      for (int32_t l = 0; l < 32; ++l)
        for (int32_t r = 0; r < result.getInputSize(dims::kRegister); ++r)
          ASSERT_EQ(linearize(view.apply({r, l, w}), c.source),
                    linearize(result.apply({r, l, w}), c.result));
    // Through shared memory where registers do not suffice (the replaced
    // scheme: row-major, element by element, as for trans).
    LinearLayout src = layoutOf(c.source, c.source.size() == 2 ? Attribute(b2)
                                                               : Attribute(b1));
    if (!canExchangeInRegisters(src, view))
      check(src, view, c.source, 4, /*transposed=*/true);
  }
}

} // namespace
