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
// A side that uses ldmatrix / stmatrix (16-bit elements, a target that has
// them) is simulated from the instructions' definition: the addresses its
// MatrixAccessPlan gives each lane must put every element of every
// register where the scratch has it, and each 8x8 matrix (8 rows of 16
// bytes) is a phase.
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

/// The wavefronts of all warps' matrix accesses (ldmatrix / stmatrix of
/// `access`) of a block of layout `layout`; checks that the lanes' row
/// addresses give each register the element the layout puts there.
Simulated simulateMatrices(const LinearLayout &layout, const OffsetFn &offsetOf,
                           const LinearLayout &toOffset,
                           const SharedAccess &access) {
  Simulated result;
  LinearLayout offsets = layout.compose(toOffset);
  std::optional<MatrixAccessPlan> plan =
      getMatrixAccessPlan(offsets, access.kind, access.pairRegister);
  EXPECT_TRUE(plan.has_value()) << "no plan for the chosen matrix access";
  if (!plan)
    return result;
  bool trans = plan->kind == SharedAccessKind::TransposedMatrix;
  unsigned count = 1u << plan->matrixRegisters.size();
  auto laneAddress = [&](int32_t lane) {
    int64_t address = 0;
    for (unsigned b = 0; b < 5; ++b)
      if (lane & (1 << b))
        address ^= plan->laneAddressBases[b];
    return address;
  };
  for (int32_t warp = 0; warp < layout.getInputSize(dims::kWarp); ++warp) {
    int64_t warpOffset = offsets.applyOne(dims::kWarp, warp)[0];
    std::set<int64_t> instructions;
    for (int32_t reg = 0; reg < layout.getInputSize(dims::kRegister); ++reg) {
      // The register's instruction (the offset of its other bits), matrix
      // and half.
      int32_t rest = reg & ~(1 << plan->pairRegister);
      int32_t half = (reg >> plan->pairRegister) & 1, matrix = 0;
      for (auto [i, bit] : llvm::enumerate(plan->matrixRegisters)) {
        rest &= ~(1 << bit);
        matrix |= ((reg >> bit) & 1) << i;
      }
      int64_t key = offsets.applyOne(dims::kRegister, rest)[0];
      instructions.insert(key);
      for (int32_t lane = 0; lane < 32; ++lane) {
        // Where the instruction puts this lane's value (register `matrix`,
        // half `half`).
        int32_t row = trans ? 2 * (lane % 4) + half : lane / 4;
        int32_t col = trans ? lane / 4 : 2 * (lane % 4) + half;
        int64_t address = laneAddress(8 * matrix + row) ^ warpOffset ^ key;
        EXPECT_EQ(address % 8, 0) << "row not 16-byte aligned";
        EXPECT_EQ(address + col, offsetOf(layout.apply({reg, lane, warp})))
            << "register " << reg << " lane " << lane << " warp " << warp;
      }
    }
    for (int64_t key : instructions) {
      ++result.instructions;
      for (unsigned matrix = 0; matrix < count; ++matrix) {
        std::map<int64_t, std::set<int64_t>> banks;
        for (int32_t row = 0; row < 8; ++row) {
          int64_t word =
              ((laneAddress(8 * matrix + row) ^ warpOffset ^ key) * 2) / 4;
          for (int64_t w = word; w < word + 4; ++w)
            banks[w % 32].insert(w);
        }
        size_t most = 0;
        for (auto &[bank, words] : banks)
          most = std::max(most, words.size());
        result.wavefronts += most;
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
    std::pair<SharedAccessKind, SharedAccessKind> kinds;
  };

  /// Checks the exchange from `src` to `dst` (layouts of a block of
  /// `shape`), elements of `bytes`; `transposed` when `dst` is a `trans`
  /// result's view (the replaced scheme then had no padding or vectors).
  Result check(const LinearLayout &src, const LinearLayout &dst,
               ArrayRef<int64_t> shape, int64_t bytes, bool transposed,
               MatrixInstructions matrix = MatrixInstructions()) {
    Result result;
    std::optional<SharedExchangeLayout> exchange =
        getSharedExchangeLayout(src, dst, bytes, matrix);
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

    result.kinds = {exchange->store.kind, exchange->load.kind};
    EXPECT_TRUE(!exchange->store.isMatrix() || matrix.stmatrix);
    EXPECT_TRUE(!exchange->load.isMatrix() || matrix.ldmatrix);
    result.store =
        exchange->store.isMatrix()
            ? simulateMatrices(src, offsetOf, *inverse, exchange->store)
            : simulate(src, shape, offsetOf,
                       int64_t(1) << exchange->store.vectorLog2, bytes,
                       /*dedupe=*/true);
    result.load =
        exchange->load.isMatrix()
            ? simulateMatrices(dst, offsetOf, *inverse, exchange->load)
            : simulate(dst, shape, offsetOf,
                       int64_t(1) << exchange->load.vectorLog2, bytes,
                       /*dedupe=*/true);
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
  Result expectConflictFree(const LinearLayout &src, const LinearLayout &dst,
                            ArrayRef<int64_t> shape, int64_t bytes,
                            bool transposed,
                            MatrixInstructions matrix = MatrixInstructions()) {
    Result r = check(src, dst, shape, bytes, transposed, matrix);
    EXPECT_EQ(r.store.wavefronts, r.store.phases) << "stores conflict";
    EXPECT_EQ(r.load.wavefronts, r.load.phases) << "loads conflict";
    return r;
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
      LinearLayout dst = getPermutedView(
          layoutOf(transposed, rowLayout(transposed, bytes, c.warps)), {1, 0});
      expectConflictFree(src, dst, shape, bytes, /*transposed=*/true);
    }
}

TEST_F(SharedExchangeLayouts, SixteenBitTransposesUseMatrices) {
  // The layouts the compiler gives a ragged tile (one element per thread,
  // lanes along the rows) and its transpose, as bench/kernels/transpose.tile
  // has them: the source's registers run down the columns, the result's
  // along the rows, so vectors leave one side 2 bytes wide. ldmatrix.trans
  // lets the result's lanes 2-4 read the source's 16-byte vectors.
  struct Case {
    int64_t m, n;
    SmallVector<unsigned> srcWarps, resultWarps;
  };
  for (Case c : {Case{128, 64, {4, 2}, {2, 4}}, Case{64, 64, {2, 2}, {2, 2}},
                 Case{32, 32, {4, 1}, {4, 1}}}) {
    SmallVector<int64_t> shape{c.m, c.n}, transposed{c.n, c.m};
    SCOPED_TRACE(describe(shape, 2));
    auto layout = [&](ArrayRef<unsigned> warps) {
      return BlockedEncodingAttr::get(&context, {1, 1}, {1, 32}, warps, {1, 0});
    };
    LinearLayout src = layoutOf(shape, layout(c.srcWarps));
    LinearLayout dst =
        getPermutedView(layoutOf(transposed, layout(c.resultWarps)), {1, 0});
    Result plain = check(src, dst, shape, 2, /*transposed=*/true);
    EXPECT_EQ(plain.kinds, std::make_pair(SharedAccessKind::Vector,
                                          SharedAccessKind::Vector));
    for (unsigned capability : {80u, 90u}) {
      SCOPED_TRACE("sm_" + std::to_string(capability));
      Result matrix =
          expectConflictFree(src, dst, shape, 2, /*transposed=*/true,
                             MatrixInstructions::forCapability(capability));
      // sm_80 has only ldmatrix; sm_90 may as well store with
      // stmatrix.trans (the source's lanes 2-4 along the result's vectors).
      if (capability == 80 || matrix.kinds.first == SharedAccessKind::Vector)
        EXPECT_EQ(matrix.kinds,
                  std::make_pair(SharedAccessKind::Vector,
                                 SharedAccessKind::TransposedMatrix));
      else
        EXPECT_EQ(matrix.kinds,
                  std::make_pair(SharedAccessKind::TransposedMatrix,
                                 SharedAccessKind::Vector));
      // 16 bytes a lane on both sides: the 2-byte side's 32 lanes of one
      // access fit one wavefront, but take 8 times the instructions and
      // twice the wavefronts of the 8x8 matrices.
      Simulated before = plain.store.wavefronts > plain.load.wavefronts
                             ? plain.store
                             : plain.load;
      Simulated after = matrix.kinds.first == SharedAccessKind::Vector
                            ? matrix.load
                            : matrix.store;
      EXPECT_EQ(after.wavefronts * 2, before.wavefronts);
      EXPECT_EQ(after.instructions * 8, before.instructions);
    }
    // 4-byte elements keep their vectors; no target means no matrices.
    EXPECT_EQ(
        check(src, dst, shape, 4, true, MatrixInstructions{true, true}).kinds,
        std::make_pair(SharedAccessKind::Vector, SharedAccessKind::Vector));
    EXPECT_EQ(
        check(src, dst, shape, 2, true, MatrixInstructions::forCapability(0))
            .kinds,
        std::make_pair(SharedAccessKind::Vector, SharedAccessKind::Vector));
  }
  // The 16-byte row layouts of a transpose (coalesced loads and stores):
  // with ldmatrix and stmatrix both sides move 16 bytes a lane.
  for (unsigned capability : {80u, 90u})
    for (int64_t n : {64, 128}) {
      SmallVector<int64_t> shape{128, n}, transposed{n, 128};
      SCOPED_TRACE(describe(shape, 2) + " sm_" + std::to_string(capability));
      LinearLayout src = layoutOf(shape, rowLayout(shape, 2, 8));
      LinearLayout dst = getPermutedView(
          layoutOf(transposed, rowLayout(transposed, 2, 8)), {1, 0});
      Result r =
          expectConflictFree(src, dst, shape, 2, /*transposed=*/true,
                             MatrixInstructions::forCapability(capability));
      EXPECT_TRUE(r.kinds.first != SharedAccessKind::Vector ||
                  r.kinds.second != SharedAccessKind::Vector);
      EXPECT_EQ(r.store.instructions, r.load.instructions);
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
          // With ldmatrix / stmatrix (2-byte elements): every matrix access
          // chosen moves the right elements, and never costs more.
          if (bytes == 2)
            for (unsigned capability : {80u, 90u}) {
              SCOPED_TRACE("sm_" + std::to_string(capability));
              Result m = check(src, dst, shape, bytes, /*transposed=*/false,
                               MatrixInstructions::forCapability(capability));
              EXPECT_LE(m.store.wavefronts + m.load.wavefronts,
                        r.store.wavefronts + r.load.wavefronts);
            }
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
        // With ldmatrix and stmatrix: still conflict-free, no more
        // wavefronts (the matrices move the right elements: check).
        if (bytes == 2)
          for (auto [from, to] :
               {std::pair(&src, &dst), std::pair(&dst, &src)}) {
            Result vectors = check(*from, *to, shape, bytes, false);
            Result matrices = check(*from, *to, shape, bytes, false,
                                    MatrixInstructions::forCapability(90));
            EXPECT_LE(matrices.store.wavefronts + matrices.load.wavefronts,
                      vectors.store.wavefronts + vectors.load.wavefronts);
          }
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
            // ldmatrix (sm_80) reads the operands where it helps.
            if (bytes == 2)
              check(src, dst, shape, bytes, false,
                    MatrixInstructions::forCapability(80));
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

namespace {
TEST_F(SharedExchangeLayouts, PermutedViewsAndJoinSplitExchanges) {
  // The exchanges of Triton's epilogue-subtile idiom (blocks.tile's
  // join_split): [64, 32, 2] permuted to [64, 2, 32], reshaped to [64, 64].
  auto b3 = BlockedEncodingAttr::get(&context, {1, 1, 1}, {1, 16, 2}, {2, 2, 1},
                                     {2, 1, 0});
  auto b3t = BlockedEncodingAttr::get(&context, {1, 1, 1}, {1, 1, 32},
                                      {2, 2, 1}, {2, 1, 0});
  auto b2 = BlockedEncodingAttr::get(&context, {1, 4}, {2, 16}, {4, 1}, {1, 0});
  // A permuted view gives each place the source index of its element:
  // result index r is source index s with s[order[i]] = r[i].
  for (SmallVector<int32_t> order :
       {SmallVector<int32_t>{0, 2, 1}, SmallVector<int32_t>{1, 2, 0},
        SmallVector<int32_t>{2, 0, 1}}) {
    SmallVector<int64_t> source = {64, 32, 2}, shape;
    for (int32_t d : order)
      shape.push_back(source[d]);
    LinearLayout result = layoutOf(shape, b3t);
    LinearLayout view = getPermutedView(result, order);
    for (int32_t w = 0; w < 4; ++w)
      for (int32_t l = 0; l < 32; ++l)
        for (int32_t r = 0; r < result.getInputSize(dims::kRegister); ++r) {
          SmallVector<int32_t> at = result.apply({r, l, w});
          SmallVector<int32_t> expected(3);
          for (auto [i, d] : llvm::enumerate(order))
            expected[d] = at[i];
          ASSERT_EQ(view.apply({r, l, w}), expected);
        }
  }
  LinearLayout joined = layoutOf({64, 32, 2}, b3);
  LinearLayout permuted =
      getPermutedView(layoutOf({64, 2, 32}, b3t), {0, 2, 1});
  check(joined, permuted, {64, 32, 2}, 4, /*transposed=*/true);
  LinearLayout reshaped = getReshapedView(layoutOf({64, 64}, b2), {64, 2, 32});
  check(layoutOf({64, 2, 32}, b3t), reshaped, {64, 2, 32}, 4,
        /*transposed=*/true);
}
} // namespace
