//===- LinearLayoutTest.cpp - Unit tests of the layout algebra ------------===//
//
// The algebra of LinearLayout (products, composition, inversion) on small
// hand-checked maps, and toLinearLayout of every encoding checked element
// by element against an independent evaluation of the encodings' formulas
// (register layouts) and the shared-tile offsets (NVMMASharedLayout), over
// a sweep of shapes and parameters; slices of mma layouts by what a slice
// means (each thread holds its parent's rows).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LinearLayout.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <array>
#include <set>

using namespace mlir;
using namespace mlir::tilegpu;
namespace dims = mlir::tilegpu::layout_dims;

namespace {

LinearLayout reg(int32_t size, StringRef out) {
  return LinearLayout::identity1D(size, dims::kRegister, out);
}
LinearLayout lane(int32_t size, StringRef out) {
  return LinearLayout::identity1D(size, dims::kLane, out);
}

TEST(LinearLayoutAlgebra, ProductPutsTheSecondFactorAbove) {
  // 4 registers then 8 lanes along dim1, 4 lanes along dim0.
  LinearLayout l = reg(4, "dim1") * lane(8, "dim1") * lane(4, "dim0");
  EXPECT_EQ(l.getOutputSize("dim1"), 32);
  EXPECT_EQ(l.getOutputSize("dim0"), 4);
  EXPECT_EQ(l.getInputSize(dims::kLane), 32);
  // Lane 9 = lane bits 0 and 3: dim1 4 (bit 0 of the 8 lanes) and dim0 1.
  EXPECT_EQ(l.applyOne(dims::kLane, 9), (SmallVector<int32_t>{4, 1}));
  EXPECT_EQ(l.apply({3, 9}), (SmallVector<int32_t>{7, 1}));
  EXPECT_TRUE(l.isInjective());
  EXPECT_TRUE(l.isSurjective());
}

TEST(LinearLayoutAlgebra, ZerosAreBroadcast) {
  LinearLayout l =
      reg(4, "dim0") * LinearLayout::zeros1D(4, dims::kLane, "dim0");
  EXPECT_EQ(l.getOutputSize("dim0"), 4);
  EXPECT_TRUE(l.isZero(dims::kLane));
  EXPECT_FALSE(l.isInjective());
  EXPECT_TRUE(l.isSurjective());
  EXPECT_FALSE(l.invert().has_value());
}

TEST(LinearLayoutAlgebra, InvertUndoes) {
  // A swizzle: offset bit 2 moves both dimensions.
  LinearLayout l({{"offset", {{1, 0}, {2, 0}, {1, 1}, {0, 2}}}},
                 {{"dim0", 2}, {"dim1", 2}});
  std::optional<LinearLayout> inverse = l.invert();
  ASSERT_TRUE(inverse.has_value());
  for (int32_t offset = 0; offset < 16; ++offset) {
    SmallVector<int32_t> index = l.apply({offset});
    EXPECT_EQ(inverse->apply(index), (SmallVector<int32_t>{offset}));
  }
  EXPECT_EQ(l.compose(*inverse),
            LinearLayout::identity1D(16, "offset", "offset"));
}

TEST(LinearLayoutAlgebra, InvertAndComposeFindsTheHolder) {
  // src: 4 registers along dim0; dst: 4 lanes along dim0.
  LinearLayout src = reg(4, "dim0");
  LinearLayout dst = lane(4, "dim0");
  std::optional<LinearLayout> c = src.invertAndCompose(dst);
  ASSERT_TRUE(c.has_value());
  // dst's lane 3 holds what src's register 3 holds.
  EXPECT_EQ(c->applyOne(dims::kLane, 3), (SmallVector<int32_t>{3}));
  // Not every element of a bigger dst is in src.
  EXPECT_FALSE(src.invertAndCompose(lane(8, "dim0")).has_value());
}

TEST(LinearLayoutAlgebra, InvertAndComposePrefersTheSamePlace) {
  // Both hold dim0 in registers 0..1 and broadcast over lane bit 0; the
  // lane bit should map onto itself, not onto lane 0.
  LinearLayout l =
      reg(2, "dim0") * LinearLayout::zeros1D(2, dims::kLane, "dim0");
  std::optional<LinearLayout> c = l.invertAndCompose(l);
  ASSERT_TRUE(c.has_value());
  EXPECT_TRUE(c->isIdentity(dims::kLane, dims::kLane));
  EXPECT_TRUE(c->isIdentity(dims::kRegister, dims::kRegister));
}

TEST(LinearLayoutAlgebra, SublayoutAndOutputs) {
  LinearLayout l = reg(2, "dim1") * lane(4, "dim0");
  EXPECT_TRUE(l.sublayout({dims::kLane}, {"dim1"}).isZero(dims::kLane));
  // Outputs are [dim1, dim0]; the lanes go onto dim0 alone.
  EXPECT_TRUE(l.isIdentity(dims::kLane, "dim0"));
  EXPECT_FALSE(l.isIdentity(dims::kRegister, "dim0"));
  LinearLayout wrapped = l.withOutputSize("dim0", 1);
  EXPECT_EQ(wrapped.applyOne(dims::kLane, 3), (SmallVector<int32_t>{0, 1}));
  LinearLayout sliced = l.withoutOutput("dim1");
  EXPECT_EQ(sliced.getOutputs().size(), 1u);
  // Reordered to [dim0, dim1], then renamed as a transpose would.
  LinearLayout reordered = l.withOutputs({1, 0}, {"dim0", "dim1"});
  EXPECT_EQ(reordered.applyOne(dims::kRegister, 1),
            (SmallVector<int32_t>{0, 1}));
  LinearLayout transposed = l.withOutputs({0, 1}, {"dim0", "dim1"});
  EXPECT_EQ(transposed.applyOne(dims::kRegister, 1),
            (SmallVector<int32_t>{1, 0}));
}

//===----------------------------------------------------------------------===//
// Encodings against an independent evaluation
//===----------------------------------------------------------------------===//

/// The element (register, lane, warp) holds, evaluated from the encodings'
/// documented formulas (TileGPUAttrs.td, the PTX ISA's mma fragment tables)
/// with integer arithmetic, independently of LinearLayout: the oracle the
/// linear layouts are checked against.
namespace reference {
int64_t wrap(int64_t value, int64_t size) { return value % size; }

/// Blocked layout `root` on `rootShape` (1 along sliced dimensions), the
/// block's dimensions `blockDims`: registers numbered per root dimension
/// in `order`, sizePerThread then repetitions.
SmallVector<int64_t> blocked(BlockedEncodingAttr root,
                             ArrayRef<int64_t> rootShape,
                             ArrayRef<unsigned> blockDims, unsigned reg,
                             unsigned lane, unsigned warp) {
  unsigned rank = rootShape.size();
  SmallVector<int64_t> perThread(rank), tile(rank);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t spt = root.getSizePerThread()[d];
    tile[d] = spt * root.getThreadsPerWarp()[d] * root.getWarpsPerCTA()[d];
    perThread[d] = spt * std::max<int64_t>(1, rootShape[d] / tile[d]);
    if (!llvm::is_contained(blockDims, d))
      perThread[d] = 1;
  }
  SmallVector<int64_t> k(rank), laneD(rank), warpD(rank);
  for (unsigned d : root.getOrder()) {
    k[d] = reg % perThread[d];
    reg /= perThread[d];
    laneD[d] = lane % root.getThreadsPerWarp()[d];
    lane /= root.getThreadsPerWarp()[d];
    warpD[d] = warp % root.getWarpsPerCTA()[d];
    warp /= root.getWarpsPerCTA()[d];
  }
  SmallVector<int64_t> index;
  for (unsigned d : blockDims) {
    int64_t spt = root.getSizePerThread()[d];
    int64_t tpw = root.getThreadsPerWarp()[d];
    index.push_back(wrap(warpD[d] * tpw * spt + laneD[d] * spt +
                             (k[d] / spt) * tile[d] + k[d] % spt,
                         rootShape[d]));
  }
  return index;
}

/// mma.sync m16n8 accumulator tiles, warps (w % wm, w / wm).
SmallVector<int64_t> mma(MmaEncodingAttr mma, ArrayRef<int64_t> shape,
                         unsigned reg, unsigned lane, unsigned warp) {
  int64_t wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  int64_t repN = std::max<int64_t>(1, shape[1] / (8 * wn));
  int64_t j = reg % 4, t = reg / 4, m = t / repN, n = t % repN;
  int64_t row = (warp % wm) * 16 + lane / 4 + m * 16 * wm + (j >= 2 ? 8 : 0);
  int64_t col = (warp / wm % wn) * 8 + 2 * (lane % 4) + n * 8 * wn + j % 2;
  return {wrap(row, shape[0]), wrap(col, shape[1])};
}

/// mma.sync operand fragments: A per (m, k-step) 4 groups of kWidth, B 2.
SmallVector<int64_t> dotOperand(DotOperandEncodingAttr dot,
                                ArrayRef<int64_t> shape, unsigned reg,
                                unsigned lane, unsigned warp) {
  auto parent = cast<MmaEncodingAttr>(dot.getParent());
  int64_t wm = parent.getWarpsPerCTA()[0], wn = parent.getWarpsPerCTA()[1];
  int64_t kWidth = dot.getKWidth(), kStep = 8 * kWidth;
  bool isA = dot.getOpIdx() == 0;
  int64_t k = isA ? shape[1] : shape[0];
  int64_t kSteps = std::max<int64_t>(1, k / kStep);
  int64_t perStep = (isA ? 4 : 2) * kWidth;
  int64_t i = reg % perStep, group = reg / perStep;
  int64_t outer = group / kSteps, step = group % kSteps;
  int64_t p = i / kWidth, e = i % kWidth;
  int64_t kIndex = (lane % 4) * kWidth + step * kStep + e;
  if (isA) {
    int64_t row = (warp % wm) * 16 + lane / 4 + outer * 16 * wm + (p % 2) * 8;
    return {wrap(row, shape[0]), wrap(kIndex + (p / 2) * (kStep / 2), k)};
  }
  int64_t col = (warp / wm % wn) * 8 + lane / 4 + outer * 8 * wn;
  return {wrap(kIndex + p * (kStep / 2), k), wrap(col, shape[1])};
}

/// Any register layout of `type`, or std::nullopt (a slice of a non-blocked
/// parent, checked by its properties instead).
std::optional<SmallVector<int64_t>>
evaluate(RankedTensorType type, unsigned reg, unsigned lane, unsigned warp) {
  Attribute encoding = type.getEncoding();
  SmallVector<int64_t> rootShape(type.getShape());
  SmallVector<unsigned> removed;
  while (auto slice = dyn_cast<SliceEncodingAttr>(encoding)) {
    rootShape.insert(rootShape.begin() + slice.getDim(), 1);
    removed.push_back(slice.getDim());
    encoding = slice.getParent();
  }
  if (auto root = dyn_cast<BlockedEncodingAttr>(encoding)) {
    // The root dimensions left after the slices, outermost slice last.
    SmallVector<unsigned> blockDims;
    for (unsigned d = 0; d < rootShape.size(); ++d)
      blockDims.push_back(d);
    for (unsigned dim : llvm::reverse(removed))
      blockDims.erase(blockDims.begin() + dim);
    return blocked(root, rootShape, blockDims, reg, lane, warp);
  }
  if (!removed.empty())
    return std::nullopt;
  if (auto m = dyn_cast<MmaEncodingAttr>(encoding))
    return mma(m, type.getShape(), reg, lane, warp);
  if (auto dot = dyn_cast<DotOperandEncodingAttr>(encoding))
    return dotOperand(dot, type.getShape(), reg, lane, warp);
  return std::nullopt;
}
} // namespace reference

class LinearLayoutEncodings : public ::testing::Test {
protected:
  LinearLayoutEncodings() { context.loadDialect<TileGPUDialect>(); }

  /// Checks every (register, lane, warp) of a block of `type`.
  void expectAgrees(RankedTensorType type) {
    SCOPED_TRACE(llvm::formatv("{0}", type).str());
    std::optional<LinearLayout> layout = toLinearLayout(type);
    ASSERT_TRUE(layout.has_value());
    unsigned registers = getNumRegisters(type);
    unsigned warps = getLayoutNumWarps(type.getEncoding());
    ASSERT_EQ(layout->getInputSize(dims::kRegister), int32_t(registers));
    ASSERT_EQ(layout->getInputSize(dims::kLane), 32);
    ASSERT_EQ(layout->getInputSize(dims::kWarp), int32_t(warps));
    for (unsigned warp = 0; warp < warps; ++warp)
      for (unsigned ln = 0; ln < 32; ++ln)
        for (unsigned r = 0; r < registers; ++r) {
          std::optional<SmallVector<int64_t>> expected =
              reference::evaluate(type, r, ln, warp);
          ASSERT_TRUE(expected.has_value());
          SmallVector<int32_t> actual =
              layout->apply({int32_t(r), int32_t(ln), int32_t(warp)});
          ASSERT_EQ(SmallVector<int64_t>(actual.begin(), actual.end()),
                    *expected)
              << "register " << r << " lane " << ln << " warp " << warp;
        }
  }

  /// The slice along `dim` of a block of `parentType` gives each thread
  /// exactly the indices (less `dim`) the thread holds in the parent: a
  /// reduction along `dim` leaves its results where its inputs were.
  void expectSliceHoldsParentElements(RankedTensorType parentType,
                                      unsigned dim) {
    SCOPED_TRACE(llvm::formatv("{0} sliced along {1}", parentType, dim).str());
    SmallVector<int64_t> shape(parentType.getShape());
    shape.erase(shape.begin() + dim);
    auto slice =
        SliceEncodingAttr::get(&context, dim, parentType.getEncoding());
    std::optional<LinearLayout> parent = toLinearLayout(parentType);
    std::optional<LinearLayout> sliced = toLinearLayout(block(shape, slice));
    ASSERT_TRUE(parent && sliced);
    for (int32_t warp = 0; warp < parent->getInputSize(dims::kWarp); ++warp)
      for (int32_t ln = 0; ln < 32; ++ln) {
        std::set<int32_t> inParent, inSlice;
        for (int32_t r = 0; r < parent->getInputSize(dims::kRegister); ++r)
          inParent.insert(parent->apply({r, ln, warp})[1 - dim]);
        for (int32_t r = 0; r < sliced->getInputSize(dims::kRegister); ++r)
          inSlice.insert(sliced->apply({r, ln, warp})[0]);
        ASSERT_EQ(inParent, inSlice) << "lane " << ln << " warp " << warp;
      }
  }

  RankedTensorType block(ArrayRef<int64_t> shape, Attribute encoding,
                         Type element = {}) {
    return RankedTensorType::get(
        shape, element ? element : Builder(&context).getF32Type(), encoding);
  }

  /// 2-D blocked layouts of every kind of order, replication and spread.
  SmallVector<BlockedEncodingAttr> getBlockedSweep() {
    struct Params {
      SmallVector<unsigned> spt, tpw, wpc, order;
    };
    SmallVector<Params> params = {
        {{1, 4}, {4, 8}, {4, 1}, {1, 0}},  {{1, 1}, {1, 32}, {1, 4}, {1, 0}},
        {{4, 1}, {8, 4}, {1, 2}, {0, 1}},  {{2, 2}, {2, 16}, {2, 2}, {1, 0}},
        {{1, 8}, {32, 1}, {8, 1}, {1, 0}}, {{2, 4}, {4, 8}, {1, 1}, {0, 1}}};
    SmallVector<BlockedEncodingAttr> layouts;
    for (const Params &p : params)
      layouts.push_back(
          BlockedEncodingAttr::get(&context, p.spt, p.tpw, p.wpc, p.order));
    return layouts;
  }
  /// Blocks smaller and larger than those layouts' tiles.
  static constexpr std::array<std::array<int64_t, 2>, 7> kSweepShapes = {
      {{1, 1}, {2, 8}, {16, 16}, {64, 32}, {128, 128}, {4, 256}, {256, 2}}};

  MLIRContext context;
};

TEST_F(LinearLayoutEncodings, BlockedAndSlices) {
  for (BlockedEncodingAttr blocked : getBlockedSweep()) {
    for (ArrayRef<int64_t> shape : kSweepShapes) {
      expectAgrees(block(shape, blocked));
      for (unsigned dim : {0u, 1u}) {
        auto slice = SliceEncodingAttr::get(&context, dim, blocked);
        expectAgrees(block({shape[1 - dim]}, slice));
      }
    }
  }
  // 1-D and 3-D, and a slice of a slice.
  auto b1 = BlockedEncodingAttr::get(&context, {4}, {32}, {4}, {0});
  for (int64_t n : {1, 64, 512, 4096})
    expectAgrees(block({n}, b1));
  auto b3 = BlockedEncodingAttr::get(&context, {1, 2, 2}, {2, 4, 4}, {2, 1, 2},
                                     {2, 1, 0});
  expectAgrees(block({4, 8, 16}, b3));
  auto s1 = SliceEncodingAttr::get(&context, 1, b3);
  expectAgrees(block({4, 16}, s1));
  expectAgrees(block({8}, SliceEncodingAttr::get(&context, 0, s1)));
}

TEST_F(LinearLayoutEncodings, MmaAccumulatorsAndOperands) {
  Builder b(&context);
  struct Case {
    unsigned version;
    SmallVector<unsigned> warps, instr;
  };
  SmallVector<Case> cases = {
      {2, {2, 2}, {16, 8}},      {2, {4, 1}, {16, 8}},
      {2, {1, 4}, {16, 8}},      {2, {8, 1}, {16, 8}},
      {2, {2, 4}, {16, 8}},      {3, {4, 1}, {64, 64, 16}},
      {3, {8, 1}, {64, 128, 16}}};
  SmallVector<SmallVector<int64_t>> shapes = {
      {16, 8}, {16, 16}, {64, 64}, {128, 64}, {128, 256}, {32, 32}, {8, 8}};
  for (const Case &c : cases) {
    auto mma = MmaEncodingAttr::get(&context, c.version, c.warps, c.instr);
    for (auto &shape : shapes) {
      expectAgrees(block(shape, mma));
      for (unsigned dim : {0u, 1u})
        expectSliceHoldsParentElements(block(shape, mma), dim);
      for (unsigned opIdx : {0u, 1u})
        for (unsigned kWidth : {1u, 2u, 4u}) {
          auto dot = DotOperandEncodingAttr::get(&context, opIdx, mma, kWidth);
          expectAgrees(block(shape, dot, b.getF16Type()));
        }
    }
  }
}

TEST_F(LinearLayoutEncodings, SharedTiles) {
  Builder b(&context);
  SmallVector<Type> elements = {b.getI8Type(), b.getF16Type(), b.getF32Type()};
  SmallVector<SmallVector<int64_t>> shapes = {
      {64, 64}, {128, 32}, {8, 128}, {16, 256}, {4, 64}};
  for (Type element : elements)
    for (unsigned swizzle : {32u, 64u, 128u})
      for (auto order : {SmallVector<unsigned>{1, 0}, {0, 1}})
        for (auto &shape : shapes) {
          auto encoding =
              NVMMASharedEncodingAttr::get(&context, swizzle, order);
          auto type = MemDescType::get(&context, shape, element, encoding);
          std::optional<NVMMASharedLayout> nvmma = getNVMMASharedLayout(type);
          if (!nvmma)
            continue;
          SCOPED_TRACE(llvm::formatv("{0}", type).str());
          std::optional<LinearLayout> layout = toLinearLayout(type);
          ASSERT_TRUE(layout.has_value());
          ASSERT_TRUE(layout->invert().has_value());
          unsigned contig = order[0];
          for (int64_t i = 0; i < shape[0]; ++i)
            for (int64_t j = 0; j < shape[1]; ++j) {
              int64_t row = contig == 1 ? i : j, col = contig == 1 ? j : i;
              int64_t bytes = nvmma->applySwizzle(nvmma->getOffset(row, col));
              ASSERT_EQ(bytes % nvmma->elementBytes, 0);
              SmallVector<int32_t> index =
                  layout->apply({int32_t(bytes / nvmma->elementBytes)});
              ASSERT_EQ(index, (SmallVector<int32_t>{int32_t(i), int32_t(j)}))
                  << "offset " << bytes;
            }
        }
  // A swizzled row-major tile: row 3 (phase 3 with perPhase 1) keeps chunk
  // c at c ^ 3.
  auto shared = SharedEncodingAttr::get(&context, 4, 1, 8, {1, 0});
  auto type = MemDescType::get(&context, {16, 64}, b.getF16Type(), shared);
  std::optional<LinearLayout> layout = toLinearLayout(type);
  ASSERT_TRUE(layout.has_value());
  EXPECT_EQ(layout->apply({3 * 64 + 0}), (SmallVector<int32_t>{3, 12}));
  EXPECT_EQ(layout->apply({3 * 64 + 13}), (SmallVector<int32_t>{3, 13 ^ 12}));
  EXPECT_TRUE(layout->invert().has_value());
}

//===----------------------------------------------------------------------===//
// Blocked layouts recovered from maps; reshapes that move no data
//===----------------------------------------------------------------------===//

/// Whether two register layouts hold the same elements in every thread,
/// each element in the same number of registers.
bool holdSameElements(const LinearLayout &a, const LinearLayout &b) {
  if (a.getInputSize(dims::kLane) != b.getInputSize(dims::kLane) ||
      a.getInputSize(dims::kWarp) != b.getInputSize(dims::kWarp) ||
      a.getInputSize(dims::kRegister) != b.getInputSize(dims::kRegister))
    return false;
  for (int32_t warp = 0; warp < a.getInputSize(dims::kWarp); ++warp)
    for (int32_t ln = 0; ln < 32; ++ln) {
      std::multiset<SmallVector<int32_t>> ea, eb;
      for (int32_t r = 0; r < a.getInputSize(dims::kRegister); ++r) {
        ea.insert(a.apply({r, ln, warp}));
        eb.insert(b.apply({r, ln, warp}));
      }
      if (ea != eb)
        return false;
    }
  return true;
}

TEST_F(LinearLayoutEncodings, BlockedLayoutsAreFoundFromTheirMaps) {
  // Every blocked layout of the sweep, on blocks smaller and larger than
  // its tile: the layout found holds the same elements in every thread.
  for (BlockedEncodingAttr blocked : getBlockedSweep()) {
    for (ArrayRef<int64_t> shape : kSweepShapes) {
      RankedTensorType type = block(shape, blocked);
      SCOPED_TRACE(llvm::formatv("{0}", type).str());
      std::optional<LinearLayout> layout = toLinearLayout(type);
      ASSERT_TRUE(layout.has_value());
      BlockedEncodingAttr found = findBlockedLayout(&context, *layout);
      ASSERT_TRUE(found);
      std::optional<LinearLayout> again = toLinearLayout(block(shape, found));
      ASSERT_TRUE(again.has_value());
      EXPECT_TRUE(holdSameElements(*layout, *again));
    }
  }
  // A slice along the outer dimension of a 2-D blocked layout is a 1-D
  // blocked layout (the lanes along the sliced dimension come last and
  // become copies, as lanes past a block's extent do).
  auto b2 = BlockedEncodingAttr::get(&context, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  auto rowSlice = SliceEncodingAttr::get(&context, 0, b2);
  std::optional<LinearLayout> sliced = toLinearLayout(block({32}, rowSlice));
  ASSERT_TRUE(sliced.has_value());
  BlockedEncodingAttr found = findBlockedLayout(&context, *sliced);
  ASSERT_TRUE(found);
  EXPECT_TRUE(holdSameElements(*sliced, *toLinearLayout(block({32}, found))));
  // A slice along a middle dimension copies across lanes between two other
  // dimensions' lanes: no blocked layout does that.
  auto b3 = BlockedEncodingAttr::get(&context, {1, 2, 2}, {2, 4, 4}, {2, 1, 2},
                                     {2, 1, 0});
  auto middle = SliceEncodingAttr::get(&context, 1, b3);
  EXPECT_FALSE(
      findBlockedLayout(&context, *toLinearLayout(block({4, 16}, middle))));
  // An mma accumulator is not blocked (its lanes step 2 columns and 1 row).
  auto mma = MmaEncodingAttr::get(&context, 2, {2, 2}, {16, 8});
  EXPECT_FALSE(
      findBlockedLayout(&context, *toLinearLayout(block({32, 32}, mma))));
}

TEST_F(LinearLayoutEncodings, ReshapesKeepElementsInTheirThreads) {
  // FlashAttention's interleaved rotary: [2, 8, 64] loaded 8 per thread,
  // split into pairs along a new last dimension: the pair stays in
  // registers, no element changes thread.
  auto loaded = BlockedEncodingAttr::get(&context, {1, 1, 8}, {1, 4, 8},
                                         {2, 2, 1}, {2, 1, 0});
  RankedTensorType src = block({2, 8, 64}, loaded);
  BlockedEncodingAttr pairs = getReshapedLayout(src, {2, 8, 32, 2});
  ASSERT_TRUE(pairs);
  EXPECT_EQ(pairs.getSizePerThread(), (ArrayRef<unsigned>{1, 1, 4, 2}));
  EXPECT_EQ(pairs.getThreadsPerWarp(), (ArrayRef<unsigned>{1, 4, 8, 1}));
  EXPECT_EQ(pairs.getWarpsPerCTA(), (ArrayRef<unsigned>{2, 2, 1, 1}));
  // Element (h, m, k, p) of the result sits where element (h, m, 2k + p)
  // of the source does, in every thread.
  std::optional<LinearLayout> from = toLinearLayout(src);
  std::optional<LinearLayout> to = toLinearLayout(block({2, 8, 32, 2}, pairs));
  ASSERT_TRUE(from && to);
  EXPECT_TRUE(holdSameElements(*from, getReshapedView(*to, {2, 8, 64})));
  // And back: the source's layout.
  BlockedEncodingAttr back =
      getReshapedLayout(block({2, 8, 32, 2}, pairs), {2, 8, 64});
  ASSERT_TRUE(back);
  EXPECT_TRUE(
      holdSameElements(*from, *toLinearLayout(block({2, 8, 64}, back))));
  // Flattening a 2-D tile whose rows are spread over lanes: blocked again.
  auto rows =
      BlockedEncodingAttr::get(&context, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  EXPECT_TRUE(getReshapedLayout(block({16, 32}, rows), {512}));
  // Flattening a column-major tile: the lanes run along the rows, which
  // are not contiguous in row-major order: no blocked layout says it.
  auto columns =
      BlockedEncodingAttr::get(&context, {4, 1}, {8, 4}, {1, 4}, {0, 1});
  EXPECT_FALSE(getReshapedLayout(block({32, 16}, columns), {512}));
}

} // namespace
