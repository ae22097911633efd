//===- LinearLayoutConversions.cpp - Encodings as linear layouts ----------===//
//
// Each encoding's layout as the image of every input bit. The register
// numbering is the one the lowering packs blocks with (LayoutUtils.h):
//  - blocked/slice: per root dimension in `order`, the sizePerThread bits
//    then the repetition bits; lanes and warps split over the dimensions in
//    `order`;
//  - mma (v2 and v3): register (m, n, j) is (m * repN + n) * 4 + j, j's bit 0
//    the next column, bit 1 eight rows down; lane = 4 * row + column pair;
//    warp w at (w % wm, w / wm);
//  - dot_op: per k-step kWidth elements, then the fragment's halves, then
//    the k-steps, then the repetitions along M (A) or N (B).
// Then every output wraps around the block's extent.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <array>
#include <numeric>

using namespace mlir;
using namespace mlir::tilegpu;
namespace dims = mlir::tilegpu::layout_dims;

namespace {
/// Collects the bases of a layout onto the dimensions of a block of
/// `shape`, masking each value to the block's extent (the wrap-around), and
/// remembers along which dimension each register basis goes (a slice drops
/// the registers along its dimension).
class BasesBuilder {
public:
  explicit BasesBuilder(ArrayRef<int64_t> shape) : shape(shape) {}

  /// Appends a basis of input `in`: `value` along block dimension `dim`
  /// (none if `dim` is std::nullopt: a sliced-away dimension).
  void add(StringRef in, std::optional<unsigned> dim, int64_t value) {
    LinearLayout::Basis basis(shape.size(), 0);
    if (dim)
      basis[*dim] = int32_t(value & (shape[*dim] - 1));
    getInput(in).push_back(std::move(basis));
    if (in == dims::kRegister)
      registerDims.push_back(dim);
  }
  /// Appends `log2(count)` bases of `in` along `dim`, the first `value`,
  /// each twice the previous.
  void addRun(StringRef in, std::optional<unsigned> dim, int64_t count,
              int64_t value) {
    for (int64_t step = 1; step < count; step *= 2, value *= 2)
      add(in, dim, value);
  }

  /// Removes block dimension `dim` and the registers along it.
  void removeDim(unsigned dim) {
    SmallVector<LinearLayout::Basis> kept;
    SmallVector<std::optional<unsigned>> keptDims;
    for (auto [basis, d] : llvm::zip(registers, registerDims)) {
      if (d == dim)
        continue;
      kept.push_back(basis);
      keptDims.push_back(d && *d > dim ? std::optional<unsigned>(*d - 1) : d);
    }
    registers = std::move(kept);
    registerDims = std::move(keptDims);
    for (auto *bases : {&registers, &lanes, &warps})
      for (LinearLayout::Basis &basis : *bases)
        basis.erase(basis.begin() + dim);
    shape.erase(shape.begin() + dim);
  }

  LinearLayout build() const {
    SmallVector<LinearLayout::OutputDim> outputs;
    for (auto [d, size] : llvm::enumerate(shape))
      outputs.push_back({dims::getBlockDimName(d), llvm::Log2_64(size)});
    return LinearLayout({{dims::kRegister.str(), registers},
                         {dims::kLane.str(), lanes},
                         {dims::kWarp.str(), warps}},
                        std::move(outputs));
  }

private:
  SmallVector<LinearLayout::Basis> &getInput(StringRef name) {
    if (name == dims::kRegister)
      return registers;
    return name == dims::kLane ? lanes : warps;
  }
  SmallVector<int64_t> shape;
  SmallVector<LinearLayout::Basis> registers, lanes, warps;
  SmallVector<std::optional<unsigned>> registerDims;
};

bool isPowerOf2Shape(ArrayRef<int64_t> shape) {
  return llvm::all_of(shape,
                      [](int64_t size) { return llvm::isPowerOf2_64(size); });
}

void addBlockedBases(BasesBuilder &builder, const DistributedLayout &layout) {
  BlockedEncodingAttr root = layout.root;
  // The block dimension of each root dimension (none when sliced away).
  SmallVector<std::optional<unsigned>> blockDim(layout.rootShape.size());
  for (auto [i, d] : llvm::enumerate(layout.blockDims))
    blockDim[d] = i;
  for (unsigned d : root.getOrder())
    for (unsigned k = 1; k < layout.elemsPerThread[d]; k *= 2)
      builder.add(dims::kRegister, blockDim[d], layout.getRegisterOffset(d, k));
  for (unsigned d : root.getOrder())
    builder.addRun(dims::kLane, blockDim[d], root.getThreadsPerWarp()[d],
                   root.getSizePerThread()[d]);
  for (unsigned d : root.getOrder())
    builder.addRun(dims::kWarp, blockDim[d], root.getWarpsPerCTA()[d],
                   int64_t(root.getSizePerThread()[d]) *
                       root.getThreadsPerWarp()[d]);
}

/// Lane bits of an mma fragment: 2 bits of thread-in-group (along the
/// other dimension, `threadInGroupStep` apart), then 3 of group id (along
/// `groupDim`).
void addFragmentLanes(BasesBuilder &builder, unsigned groupDim,
                      int64_t threadInGroupStep) {
  builder.addRun(dims::kLane, 1 - groupDim, 4, threadInGroupStep);
  builder.addRun(dims::kLane, groupDim, 8, 1);
}

/// Warp bits: log2(wm) along M (dimension `mDim`, 16 apart), then log2(wn)
/// along N (8 apart; dimension `nDim`), each set to 0 when the layout does
/// not vary along it (`std::nullopt`).
void addMmaWarps(BasesBuilder &builder, unsigned wm, unsigned wn,
                 std::optional<unsigned> mDim, std::optional<unsigned> nDim) {
  builder.addRun(dims::kWarp, mDim, wm, 16);
  builder.addRun(dims::kWarp, nDim, wn, 8);
}

void addMmaBases(BasesBuilder &builder, const MmaLayout &layout) {
  builder.add(dims::kRegister, 1, 1);
  builder.add(dims::kRegister, 0, 8);
  builder.addRun(dims::kRegister, 1, layout.repN, 8 * layout.wn);
  builder.addRun(dims::kRegister, 0, layout.repM, 16 * layout.wm);
  addFragmentLanes(builder, /*groupDim=*/0, 2);
  addMmaWarps(builder, layout.wm, layout.wn, 0, 1);
}

void addDotOperandBases(BasesBuilder &builder, const DotOperandLayout &layout) {
  unsigned kWidth = layout.kWidth, kStep = layout.getKStep();
  // A is [M, K] (K is dimension 1), B is [K, N] (K is dimension 0).
  bool isA = layout.opIdx == 0;
  unsigned kDim = isA ? 1 : 0, outerDim = isA ? 0 : 1;
  builder.addRun(dims::kRegister, kDim, kWidth, 1);
  if (isA)
    builder.add(dims::kRegister, outerDim, 8);
  builder.add(dims::kRegister, kDim, kStep / 2);
  builder.addRun(dims::kRegister, kDim, layout.kSteps, kStep);
  builder.addRun(dims::kRegister, outerDim, layout.rep,
                 isA ? 16 * layout.wm : 8 * layout.wn);
  addFragmentLanes(builder, /*groupDim=*/outerDim, kWidth);
  if (isA)
    addMmaWarps(builder, layout.wm, layout.wn, outerDim, std::nullopt);
  else
    addMmaWarps(builder, layout.wm, layout.wn, std::nullopt, outerDim);
}

/// The bases of a block of `shape` with register layout `encoding`: a slice
/// is its parent's with the sliced dimension of extent 1, less that
/// dimension and the registers along it.
std::optional<BasesBuilder>
buildRegisterBases(Attribute encoding, ArrayRef<int64_t> shape, Type element) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    if (slice.getDim() > shape.size())
      return std::nullopt;
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + slice.getDim(), 1);
    auto builder = buildRegisterBases(slice.getParent(), parentShape, element);
    if (builder)
      builder->removeDim(slice.getDim());
    return builder;
  }
  auto type = RankedTensorType::get(shape, element, encoding);
  BasesBuilder builder(shape);
  if (auto layout = getDistributedLayout(type))
    addBlockedBases(builder, *layout);
  else if (auto layout = getMmaLayout(type))
    addMmaBases(builder, *layout);
  else if (auto layout = getDotOperandLayout(type))
    addDotOperandBases(builder, *layout);
  else
    return std::nullopt;
  return builder;
}

/// The offset -> index layout of a 2-D shared tile whose element at
/// offset `o` is `locate(o)` = {index along dim 0, index along dim 1};
/// `locate` must be linear over F2 (it is evaluated at each offset bit).
LinearLayout
getSharedTileLayout(ArrayRef<int64_t> shape,
                    function_ref<std::array<int64_t, 2>(int64_t)> locate) {
  SmallVector<LinearLayout::Basis> offset;
  for (int64_t bit = 1; bit < shape[0] * shape[1]; bit *= 2) {
    auto [i, j] = locate(bit);
    offset.push_back({int32_t(i), int32_t(j)});
  }
  return LinearLayout(
      {{dims::kOffset.str(), std::move(offset)}},
      {{dims::getBlockDimName(0), unsigned(llvm::Log2_64(shape[0]))},
       {dims::getBlockDimName(1), unsigned(llvm::Log2_64(shape[1]))}});
}

/// {index along dim 0, along dim 1} of (row, column) of a tile whose
/// dimension `contigDim` is the contiguous one.
std::array<int64_t, 2> orient(unsigned contigDim, int64_t row, int64_t col) {
  if (contigDim == 1)
    return {row, col};
  return {col, row};
}
} // namespace

std::optional<LinearLayout>
mlir::tilegpu::toLinearLayout(RankedTensorType type) {
  if (!isPowerOf2Shape(type.getShape()))
    return std::nullopt;
  std::optional<BasesBuilder> builder = buildRegisterBases(
      type.getEncoding(), type.getShape(), type.getElementType());
  if (!builder)
    return std::nullopt;
  return builder->build();
}

LinearLayout mlir::tilegpu::getPermutedView(const LinearLayout &result,
                                            ArrayRef<int32_t> order) {
  // Result dim i is source dim order[i]: source dim j is result dim
  // inverse[j].
  SmallVector<unsigned> inverse(order.size());
  SmallVector<std::string> names;
  for (auto [i, d] : llvm::enumerate(order))
    inverse[d] = i;
  for (size_t j = 0; j < order.size(); ++j)
    names.push_back(dims::getBlockDimName(j));
  return result.withOutputs(inverse, names);
}

LinearLayout mlir::tilegpu::getReshapedView(const LinearLayout &result,
                                            ArrayRef<int64_t> srcShape) {
  // Each basis as a row-major element index, then split over srcShape.
  ArrayRef<LinearLayout::OutputDim> outputs = result.getOutputs();
  SmallVector<unsigned> shifts(outputs.size());
  for (int d = int(outputs.size()) - 2; d >= 0; --d)
    shifts[d] = shifts[d + 1] + outputs[d + 1].log2Size;
  SmallVector<LinearLayout::OutputDim> srcOutputs;
  SmallVector<unsigned> srcShifts(srcShape.size());
  for (auto [d, size] : llvm::enumerate(srcShape))
    srcOutputs.push_back({dims::getBlockDimName(d), llvm::Log2_64(size)});
  for (int d = int(srcShape.size()) - 2; d >= 0; --d)
    srcShifts[d] = srcShifts[d + 1] + srcOutputs[d + 1].log2Size;
  SmallVector<LinearLayout::InputDim> inputs;
  for (const LinearLayout::InputDim &in : result.getInputs()) {
    LinearLayout::InputDim &view = inputs.emplace_back();
    view.name = in.name;
    for (const LinearLayout::Basis &basis : in.bases) {
      int64_t element = 0;
      for (auto [value, shift] : llvm::zip(basis, shifts))
        element |= int64_t(value) << shift;
      LinearLayout::Basis &split = view.bases.emplace_back();
      for (auto [out, shift] : llvm::zip(srcOutputs, srcShifts))
        split.push_back(
            int32_t((element >> shift) & ((int64_t(1) << out.log2Size) - 1)));
    }
  }
  return LinearLayout(std::move(inputs), std::move(srcOutputs));
}

LinearLayout mlir::tilegpu::toLinearLayout(const NVMMASharedLayout &l) {
  // Undo the swizzle (bits 4.. of the byte offset XORed with bits 7..),
  // then split the byte offset into column, row and place in the row.
  SmallVector<int64_t> shape =
      l.contigDim == 1 ? SmallVector<int64_t>{l.rows, l.contigExtent}
                       : SmallVector<int64_t>{l.contigExtent, l.rows};
  return getSharedTileLayout(shape, [&](int64_t element) {
    int64_t bytes = l.applySwizzle(element * l.elementBytes);
    int64_t column = bytes / l.getColumnStride();
    int64_t inColumn = bytes % l.getColumnStride();
    int64_t row = inColumn / l.swizzle;
    int64_t col = column * l.getElementsPerRow() +
                  (inColumn % l.swizzle) / l.elementBytes;
    return orient(l.contigDim, row, col);
  });
}

std::optional<LinearLayout> mlir::tilegpu::toLinearLayout(MemDescType type) {
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() != 2 || !isPowerOf2Shape(shape))
    return std::nullopt;
  if (auto layout = getNVMMASharedLayout(type))
    return toLinearLayout(*layout);
  auto shared = dyn_cast<SharedEncodingAttr>(type.getEncoding());
  if (!shared || shared.getOrder().size() != 2)
    return std::nullopt;
  unsigned contigDim = shared.getOrder()[0];
  unsigned perPhase = shared.getPerPhase(), maxPhase = shared.getMaxPhase();
  unsigned vec = shared.getVec();
  if (!llvm::isPowerOf2_32(perPhase) || !llvm::isPowerOf2_32(maxPhase) ||
      !llvm::isPowerOf2_32(vec))
    return std::nullopt;
  int64_t contig = shape[contigDim];
  // Row i keeps its vec-wide chunks XORed with (i / perPhase) % maxPhase.
  return getSharedTileLayout(shape, [&](int64_t element) {
    int64_t row = element / contig;
    int64_t phase = (row / perPhase) % maxPhase;
    int64_t col = (element % contig) ^ ((phase * vec) & (contig - 1));
    return orient(contigDim, row, col);
  });
}

namespace {
/// Where one basis of a register layout goes: nowhere (a copy), or one
/// power of two along one dimension; std::nullopt for anything else.
struct BasisStep {
  bool zero = true;
  unsigned dim = 0;
  int64_t value = 0;
};

std::optional<BasisStep> getBasisStep(const LinearLayout::Basis &basis) {
  BasisStep step;
  for (auto [d, value] : llvm::enumerate(basis)) {
    if (value == 0)
      continue;
    if (!step.zero || !llvm::isPowerOf2_32(uint32_t(value)))
      return std::nullopt;
    step = {false, unsigned(d), value};
  }
  return step;
}

/// Splits the bases of one input (lanes or warps) over the dimensions in
/// `order`, as a blocked layout does: each dimension's run continues from
/// `start[d]` doubling, and once it covers `shape[d]` wraps to copies.
/// counts[d] receives the run's length; false when the bases are not such
/// runs.
bool splitRuns(ArrayRef<BasisStep> steps, ArrayRef<unsigned> order,
               ArrayRef<int64_t> shape, ArrayRef<int64_t> start,
               SmallVectorImpl<unsigned> &counts) {
  counts.assign(shape.size(), 1);
  size_t o = 0;
  for (const BasisStep &step : steps) {
    for (;; ++o) {
      if (o == order.size())
        return false;
      unsigned d = order[o];
      int64_t expected = start[d] * counts[d];
      if (step.zero ? expected >= shape[d]
                    : step.dim == d && step.value == expected)
        break;
    }
    counts[order[o]] *= 2;
  }
  return true;
}

/// Whether two register layouts hold the same elements in the same lanes
/// and warps, their registers possibly numbered differently.
bool equalUpToRegisterOrder(const LinearLayout &a, const LinearLayout &b) {
  if (a.getOutputs().size() != b.getOutputs().size() ||
      a.getInputs().size() != b.getInputs().size())
    return false;
  for (auto [x, y] : llvm::zip(a.getOutputs(), b.getOutputs()))
    if (x.name != y.name || x.log2Size != y.log2Size)
      return false;
  for (auto [x, y] : llvm::zip(a.getInputs(), b.getInputs())) {
    if (x.name != y.name)
      return false;
    if (x.name != dims::kRegister) {
      if (x.bases != y.bases)
        return false;
      continue;
    }
    SmallVector<LinearLayout::Basis> sx(x.bases), sy(y.bases);
    llvm::sort(sx);
    llvm::sort(sy);
    if (sx != sy)
      return false;
  }
  return true;
}
} // namespace

BlockedEncodingAttr
mlir::tilegpu::findBlockedLayout(MLIRContext *context,
                                 const LinearLayout &layout) {
  ArrayRef<LinearLayout::InputDim> inputs = layout.getInputs();
  if (inputs.size() != 3 || inputs[0].name != dims::kRegister ||
      inputs[1].name != dims::kLane || inputs[2].name != dims::kWarp ||
      layout.getInputLog2Size(dims::kLane) != 5)
    return {};
  unsigned rank = layout.getOutputs().size();
  if (rank == 0)
    return {};
  SmallVector<int64_t> shape;
  for (const LinearLayout::OutputDim &out : layout.getOutputs())
    shape.push_back(int64_t(1) << out.log2Size);
  SmallVector<SmallVector<BasisStep>> steps(3);
  for (auto [i, in] : llvm::enumerate(inputs))
    for (const LinearLayout::Basis &basis : in.bases) {
      std::optional<BasisStep> step = getBasisStep(basis);
      if (!step)
        return {};
      steps[i].push_back(*step);
    }
  // sizePerThread: the registers' run from 1 along each dimension.
  SmallVector<unsigned> spt(rank, 1);
  for (unsigned d = 0; d < rank; ++d)
    while (spt[d] < shape[d] && llvm::any_of(
                                    steps[0],
                                    [&](BasisStep s) {
                                      return !s.zero && s.dim == d &&
                                             s.value == int64_t(spt[d]);
                                    }))
      spt[d] *= 2;
  // Registers that repeat an element: a sizePerThread beyond the extent of a
  // dimension the registers cover (wrapped around).
  unsigned copies =
      llvm::count_if(steps[0], [](BasisStep s) { return s.zero; });
  if (copies) {
    unsigned d = 0;
    while (d < rank && spt[d] < shape[d])
      ++d;
    if (d == rank)
      return {};
    spt[d] <<= copies;
  }
  // The dimensions in the order their bases first appear, then the rest.
  SmallVector<unsigned> natural;
  for (ArrayRef<BasisStep> input : steps)
    for (const BasisStep &step : input)
      if (!step.zero && !llvm::is_contained(natural, step.dim))
        natural.push_back(step.dim);
  for (unsigned d = rank; d-- > 0;)
    if (!llvm::is_contained(natural, d))
      natural.push_back(d);

  auto tryOrder = [&](ArrayRef<unsigned> order) -> BlockedEncodingAttr {
    SmallVector<int64_t> laneStart(spt.begin(), spt.end());
    SmallVector<unsigned> tpw, wpc;
    if (!splitRuns(steps[1], order, shape, laneStart, tpw))
      return {};
    SmallVector<int64_t> warpStart;
    for (unsigned d = 0; d < rank; ++d)
      warpStart.push_back(int64_t(spt[d]) * tpw[d]);
    if (!splitRuns(steps[2], order, shape, warpStart, wpc))
      return {};
    auto blocked = BlockedEncodingAttr::get(context, spt, tpw, wpc, order);
    std::optional<LinearLayout> candidate = toLinearLayout(
        RankedTensorType::get(shape, Float32Type::get(context), blocked));
    if (!candidate || !equalUpToRegisterOrder(*candidate, layout))
      return {};
    return blocked;
  };
  if (BlockedEncodingAttr blocked = tryOrder(natural))
    return blocked;
  if (rank > 4)
    return {};
  // Every order, from the first permutation (0, 1, ...).
  SmallVector<unsigned> order(rank);
  std::iota(order.begin(), order.end(), 0u);
  do {
    if (BlockedEncodingAttr blocked = tryOrder(order))
      return blocked;
  } while (std::next_permutation(order.begin(), order.end()));
  return {};
}

BlockedEncodingAttr
mlir::tilegpu::getReshapedLayout(RankedTensorType srcType,
                                 ArrayRef<int64_t> dstShape) {
  if (!isPowerOf2Shape(dstShape) || !hasRegisterLayout(srcType.getEncoding()))
    return {};
  std::optional<LinearLayout> src = toLinearLayout(srcType);
  if (!src)
    return {};
  return findBlockedLayout(srcType.getContext(),
                           getReshapedView(*src, dstShape));
}

bool mlir::tilegpu::isThreadLocalReshape(RankedTensorType srcType,
                                         RankedTensorType resultType) {
  BlockedEncodingAttr layout =
      getReshapedLayout(srcType, resultType.getShape());
  return layout &&
         layoutsAreEquivalent(resultType, withLayout(resultType, layout));
}
