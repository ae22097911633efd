//===- LayoutUtils.cpp - What a layout says about a block -----------------===//
//
// Describes blocked, slice, mma and dot-operand layouts applied to a block
// (registers per thread, register order, strides of the thread ids),
// evaluates their layout functions (LayoutFunctions.h) for one thread, and
// derives what the passes ask of layouts: the default layout of a shape,
// equivalence, vector runs, scratch sizes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LayoutFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
std::optional<DistributedLayout> buildLayout(Attribute encoding,
                                             ArrayRef<int64_t> shape) {
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(encoding)) {
    if (blocked.getRank() != shape.size())
      return std::nullopt;
    DistributedLayout layout;
    layout.root = blocked;
    layout.rootShape.assign(shape.begin(), shape.end());
    for (unsigned d = 0; d < shape.size(); ++d) {
      layout.blockDims.push_back(d);
      unsigned spt = blocked.getSizePerThread()[d];
      unsigned tile =
          spt * blocked.getThreadsPerWarp()[d] * blocked.getWarpsPerCTA()[d];
      int64_t reps = std::max<int64_t>(1, shape[d] / tile);
      layout.tileShape.push_back(tile);
      layout.elemsPerThread.push_back(spt * reps);
    }
    return layout;
  }
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    unsigned dim = slice.getDim();
    if (dim > shape.size())
      return std::nullopt;
    SmallVector<int64_t> parentShape(shape);
    parentShape.insert(parentShape.begin() + dim, 1);
    std::optional<DistributedLayout> layout =
        buildLayout(slice.getParent(), parentShape);
    if (!layout)
      return std::nullopt;
    unsigned rootDim = layout->blockDims[dim];
    layout->blockDims.erase(layout->blockDims.begin() + dim);
    layout->elemsPerThread[rootDim] = 1;
    return layout;
  }
  return std::nullopt;
}
} // namespace

std::optional<DistributedLayout>
mlir::tilegpu::getDistributedLayout(RankedTensorType type) {
  return buildLayout(type.getEncoding(), type.getShape());
}

bool mlir::tilegpu::isDistributedLayout(Attribute layout) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr>(layout);
}

unsigned mlir::tilegpu::getNumRegisters(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 1;
  if (auto layout = getDistributedLayout(tensor))
    return layout->getNumRegisters();
  if (auto layout = getMmaLayout(tensor))
    return layout->getNumRegisters();
  if (auto layout = getDotOperandLayout(tensor))
    return layout->getNumRegisters();
  return tensor.getNumElements();
}

unsigned DistributedLayout::getNumRegisters() const {
  unsigned count = 1;
  for (unsigned e : elemsPerThread)
    count *= e;
  return count;
}

SmallVector<unsigned> DistributedLayout::getRegisterCoords(unsigned reg) const {
  SmallVector<unsigned> coords(elemsPerThread.size(), 0);
  for (unsigned d : root.getOrder()) {
    coords[d] = reg % elemsPerThread[d];
    reg /= elemsPerThread[d];
  }
  return coords;
}

unsigned DistributedLayout::getRegister(ArrayRef<unsigned> coords) const {
  unsigned reg = 0, stride = 1;
  for (unsigned d : root.getOrder()) {
    reg += coords[d] * stride;
    stride *= elemsPerThread[d];
  }
  return reg;
}

unsigned DistributedLayout::getRegisterOffset(unsigned d, unsigned k) const {
  unsigned spt = root.getSizePerThread()[d];
  return (k / spt) * tileShape[d] + k % spt;
}

/// The stride of dimension `d` in an id that counts `counts[d']` along each
/// dimension d', the dimensions of `order` fastest first.
static unsigned getIdStride(ArrayRef<unsigned> order, ArrayRef<unsigned> counts,
                            unsigned d) {
  unsigned stride = 1;
  for (unsigned other : order) {
    if (other == d)
      break;
    stride *= counts[other];
  }
  return stride;
}

unsigned DistributedLayout::getLaneStride(unsigned d) const {
  return getIdStride(root.getOrder(), root.getThreadsPerWarp(), d);
}

unsigned DistributedLayout::getWarpStride(unsigned d) const {
  return getIdStride(root.getOrder(), root.getWarpsPerCTA(), d);
}

unsigned DistributedLayout::getDistinctLanes(unsigned d) const {
  int64_t spt = root.getSizePerThread()[d];
  int64_t lanes = std::max<int64_t>(1, rootShape[d] / spt);
  return std::min<int64_t>(root.getThreadsPerWarp()[d], lanes);
}

unsigned DistributedLayout::getDistinctWarps(unsigned d) const {
  int64_t perWarp = root.getSizePerThread()[d] * root.getThreadsPerWarp()[d];
  int64_t warps = std::max<int64_t>(1, rootShape[d] / perWarp);
  return std::min<int64_t>(root.getWarpsPerCTA()[d], warps);
}

/// The index register `reg` of (lane, warp) holds in `layout`, evaluated
/// from the layout function of LayoutFunctions.h.
template <typename Layout>
static SmallVector<int64_t> evaluateLayout(const Layout &layout, unsigned reg,
                                           unsigned lane, unsigned warp) {
  IntIndexArith arith;
  SmallVector<int64_t> threadPart = getThreadPart(layout, arith, lane, warp);
  return getRegisterIndex(layout, arith, threadPart, reg);
}

SmallVector<int64_t> DistributedLayout::getElementIndex(unsigned reg,
                                                        unsigned lane,
                                                        unsigned warp) const {
  return evaluateLayout(*this, reg, lane, warp);
}

BlockedEncodingAttr mlir::tilegpu::getBlockedLayout(
    MLIRContext *context, ArrayRef<int64_t> shape, unsigned numWarps,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> order) {
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(sizePerThread), tpw(rank, 1), wpc(rank, 1);
  unsigned lanes = 32;
  for (unsigned d : order) {
    int64_t fit = std::max<int64_t>(1, shape[d] / spt[d]);
    tpw[d] = std::min<int64_t>(lanes, fit);
    lanes /= tpw[d];
  }
  tpw[order.front()] *= lanes;
  unsigned warps = numWarps;
  for (unsigned d : order) {
    int64_t fit = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d]));
    wpc[d] = std::min<int64_t>(warps, fit);
    warps /= wpc[d];
  }
  wpc[order.back()] *= warps;
  return BlockedEncodingAttr::get(context, spt, tpw, wpc, order);
}

BlockedEncodingAttr mlir::tilegpu::getDefaultBlockedLayout(
    MLIRContext *context, ArrayRef<int64_t> shape, unsigned numWarps,
    ArrayRef<unsigned> sizePerThread) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order, spt(rank, 1);
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  if (!sizePerThread.empty())
    spt.assign(sizePerThread.begin(), sizePerThread.end());
  return getBlockedLayout(context, shape, numWarps, spt, order);
}

RankedTensorType mlir::tilegpu::withLayout(RankedTensorType type,
                                           Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

bool mlir::tilegpu::layoutsAreEquivalent(RankedTensorType a,
                                         RankedTensorType b) {
  if (a.getShape() != b.getShape())
    return false;
  if (a.getEncoding() == b.getEncoding())
    return true;
  if (!hasRegisterLayout(a.getEncoding()) ||
      !hasRegisterLayout(b.getEncoding()))
    return false;
  unsigned registers = getNumRegisters(a);
  unsigned warps = getLayoutNumWarps(a.getEncoding());
  if (registers != getNumRegisters(b) ||
      warps != getLayoutNumWarps(b.getEncoding()))
    return false;
  for (unsigned warp = 0; warp < warps; ++warp)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned reg = 0; reg < registers; ++reg)
        if (getElementIndex(a, reg, lane, warp) !=
            getElementIndex(b, reg, lane, warp))
          return false;
  return true;
}

unsigned mlir::tilegpu::getSharedElementBytes(Type elementType) {
  if (isa<tile::PointerType>(elementType))
    return 8;
  return std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
}

/// Whether a 16-bit dot-operand block covers whole fragments (no
/// wrap-around of a block smaller than the tiles).
static bool hasWholeFragments(const DotOperandLayout &dot,
                              ArrayRef<int64_t> shape) {
  int64_t outer = dot.opIdx == 0 ? shape[0] : shape[1];
  int64_t k = dot.opIdx == 0 ? shape[1] : shape[0];
  int64_t tile = dot.opIdx == 0 ? 16 * dot.wm : 8 * dot.wn;
  return outer % tile == 0 && k % 16 == 0;
}

bool mlir::tilegpu::isLdmatrixConversion(RankedTensorType src,
                                         RankedTensorType dst) {
  auto dot = getDotOperandLayout(dst);
  if (!dot || dot->kWidth != 2 || !getDistributedLayout(src))
    return false;
  return src.getElementType().getIntOrFloatBitWidth() == 16 &&
         hasWholeFragments(*dot, src.getShape());
}

MemDescType mlir::tilegpu::getTransposedMemDesc(MemDescType type) {
  if (type.getShape().size() != 2)
    return {};
  SmallVector<int64_t> shape{type.getShape()[1], type.getShape()[0]};
  MLIRContext *context = type.getContext();
  Attribute encoding;
  if (auto nvmma = dyn_cast<NVMMASharedEncodingAttr>(type.getEncoding())) {
    SmallVector<unsigned> order(llvm::reverse(nvmma.getOrder()));
    if (order.size() == 2)
      encoding =
          NVMMASharedEncodingAttr::get(context, nvmma.getSwizzle(), order);
  }
  if (!encoding)
    return {};
  return MemDescType::get(context, shape, type.getElementType(), encoding);
}

bool mlir::tilegpu::isLdmatrixLoad(MemDescType src, RankedTensorType dst) {
  auto dot = getDotOperandLayout(dst);
  if (!dot || dot->kWidth != 2 || !getNVMMASharedLayout(src) ||
      src.getShape() != dst.getShape())
    return false;
  return dst.getElementType().getIntOrFloatBitWidth() == 16 &&
         hasWholeFragments(*dot, dst.getShape());
}

Attribute mlir::tilegpu::getNVMMAStagingLayout(RankedTensorType type,
                                               unsigned contigDim) {
  int64_t rows = type.getDimSize(1 - contigDim);
  int64_t bytes =
      type.getDimSize(contigDim) * getSharedElementBytes(type.getElementType());
  if (rows % 8 != 0)
    return {};
  for (unsigned swizzle : {128u, 64u, 32u})
    if (bytes % swizzle == 0)
      return NVMMASharedEncodingAttr::get(
          type.getContext(), swizzle,
          contigDim == 1 ? ArrayRef<unsigned>{1, 0} : ArrayRef<unsigned>{0, 1});
  return {};
}

int64_t mlir::tilegpu::getExchangeRowPadding(RankedTensorType type) {
  if (type.getRank() != 2)
    return 0;
  unsigned bytes = getSharedElementBytes(type.getElementType());
  int64_t rowBytes = type.getDimSize(1) * bytes;
  if (rowBytes < 32 || rowBytes % 32 != 0 || 16 % bytes != 0)
    return 0;
  return 16 / bytes;
}

unsigned mlir::tilegpu::getContiguousRegisterRun(RankedTensorType type,
                                                 unsigned maxElements) {
  if (!hasRegisterLayout(type.getEncoding()) || type.getRank() == 0 ||
      !getElementIndex(type, 0, 0, 0))
    return 1;
  unsigned numRegisters = getNumRegisters(type);
  unsigned numWarps = getLayoutNumWarps(type.getEncoding());
  // The register structure repeats across threads; every lane of the first
  // warp and the last lane of the last warp stand for all of them.
  SmallVector<std::pair<unsigned, unsigned>> threads;
  for (unsigned lane = 0; lane < 32; ++lane)
    threads.push_back({lane, 0});
  threads.push_back({31, numWarps - 1});
  SmallVector<SmallVector<SmallVector<int64_t>>> indices;
  for (auto [lane, warp] : threads) {
    auto &perThread = indices.emplace_back();
    for (unsigned reg = 0; reg < numRegisters; ++reg)
      perThread.push_back(*getElementIndex(type, reg, lane, warp));
  }
  for (unsigned run = llvm::bit_floor(std::max(1u, maxElements)); run > 1;
       run /= 2) {
    if (numRegisters % run != 0)
      continue;
    bool ok = llvm::all_of(indices, [&](const auto &perThread) {
      for (unsigned reg = 0; reg < numRegisters; reg += run) {
        ArrayRef<int64_t> first = perThread[reg];
        if (first.back() % run != 0)
          return false;
        for (unsigned i = 1; i < run; ++i) {
          ArrayRef<int64_t> next = perThread[reg + i];
          if (next.drop_back() != first.drop_back() ||
              next.back() != first.back() + i)
            return false;
        }
      }
      return true;
    });
    if (ok)
      return run;
  }
  return 1;
}

int64_t mlir::tilegpu::getScratchBytes(Operation *op) {
  auto bytesOf = [](Value value) -> int64_t {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return 0;
    return type.getNumElements() * getSharedElementBytes(type.getElementType());
  };
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    auto type = reduce.getSrc().getType();
    auto layout = getDistributedLayout(type);
    if (!layout)
      return 0;
    unsigned axisDim = layout->blockDims[reduce.getAxis()];
    unsigned warps = layout->getDistinctWarps(axisDim);
    if (warps <= 1)
      return 0;
    int64_t outputs = type.getNumElements() / type.getDimSize(reduce.getAxis());
    // Values, plus i32 indices for argmax/argmin.
    int64_t perEntry = getSharedElementBytes(type.getElementType()) + 4;
    return warps * outputs * perEntry;
  }
  if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    if (layoutsAreEquivalent(convert.getSrc().getType(), convert.getType()))
      return 0;
    if (isLdmatrixConversion(convert.getSrc().getType(), convert.getType())) {
      auto shape = convert.getType().getShape();
      return shape[0] * (shape[1] + kLdmatrixRowPadding) * 2;
    }
    RankedTensorType type = convert.getSrc().getType();
    if (int64_t padding = getExchangeRowPadding(type))
      return type.getDimSize(0) * (type.getDimSize(1) + padding) *
             getSharedElementBytes(type.getElementType());
    return bytesOf(convert.getSrc());
  }
  if (isa<tile::TransOp, tile::ReshapeOp>(op))
    return bytesOf(op->getOperand(0));
  if (auto dot = dyn_cast<tile::DotOp>(op)) {
    if (isa_and_nonnull<MmaEncodingAttr>(dot.getType().getEncoding()))
      return 0;
    return bytesOf(dot.getA()) + bytesOf(dot.getB());
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Tensor-core layouts
//===----------------------------------------------------------------------===//

std::optional<MmaLayout> mlir::tilegpu::getMmaLayout(RankedTensorType type) {
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(type.getEncoding());
  if (!mma || type.getRank() != 2 || mma.getWarpsPerCTA().size() != 2)
    return std::nullopt;
  MmaLayout layout;
  layout.mma = mma;
  layout.shape.assign(type.getShape().begin(), type.getShape().end());
  layout.wm = mma.getWarpsPerCTA()[0];
  layout.wn = mma.getWarpsPerCTA()[1];
  layout.repM = std::max<int64_t>(1, type.getDimSize(0) / (16 * layout.wm));
  layout.repN = std::max<int64_t>(1, type.getDimSize(1) / (8 * layout.wn));
  return layout;
}

SmallVector<int64_t> MmaLayout::getElementIndex(unsigned reg, unsigned lane,
                                                unsigned warp) const {
  return evaluateLayout(*this, reg, lane, warp);
}

std::optional<DotOperandLayout>
mlir::tilegpu::getDotOperandLayout(RankedTensorType type) {
  auto encoding = dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding());
  if (!encoding || type.getRank() != 2)
    return std::nullopt;
  auto mma = dyn_cast<MmaEncodingAttr>(encoding.getParent());
  if (!mma || mma.getWarpsPerCTA().size() != 2 || encoding.getKWidth() == 0)
    return std::nullopt;
  DotOperandLayout layout;
  layout.encoding = encoding;
  layout.mma = mma;
  layout.shape.assign(type.getShape().begin(), type.getShape().end());
  layout.opIdx = encoding.getOpIdx();
  layout.kWidth = encoding.getKWidth();
  layout.wm = mma.getWarpsPerCTA()[0];
  layout.wn = mma.getWarpsPerCTA()[1];
  int64_t k = layout.opIdx == 0 ? type.getDimSize(1) : type.getDimSize(0);
  layout.kSteps = std::max<int64_t>(1, k / layout.getKStep());
  layout.rep = layout.opIdx == 0
                   ? std::max<int64_t>(1, type.getDimSize(0) / (16 * layout.wm))
                   : std::max<int64_t>(1, type.getDimSize(1) / (8 * layout.wn));
  return layout;
}

SmallVector<int64_t> DotOperandLayout::getElementIndex(unsigned reg,
                                                       unsigned lane,
                                                       unsigned warp) const {
  return evaluateLayout(*this, reg, lane, warp);
}

bool mlir::tilegpu::hasRegisterLayout(Attribute layout) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr,
                         MmaEncodingAttr, DotOperandEncodingAttr>(layout);
}

unsigned mlir::tilegpu::getLayoutNumWarps(Attribute layout) {
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(layout))
    return blocked.getNumWarps();
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return getLayoutNumWarps(slice.getParent());
  if (auto mma = dyn_cast_or_null<MmaEncodingAttr>(layout)) {
    unsigned warps = 1;
    for (unsigned w : mma.getWarpsPerCTA())
      warps *= w;
    return warps;
  }
  if (auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(layout))
    return getLayoutNumWarps(dot.getParent());
  return 0;
}

std::optional<SmallVector<int64_t>>
mlir::tilegpu::getElementIndex(RankedTensorType type, unsigned reg,
                               unsigned lane, unsigned warp) {
  if (auto layout = getDistributedLayout(type))
    return layout->getElementIndex(reg, lane, warp);
  if (auto layout = getMmaLayout(type))
    return layout->getElementIndex(reg, lane, warp);
  if (auto layout = getDotOperandLayout(type))
    return layout->getElementIndex(reg, lane, warp);
  return std::nullopt;
}

int64_t NVMMASharedLayout::getOffset(int64_t row, int64_t col) const {
  IntIndexArith arith;
  return getUnswizzledOffset(*this, arith, row, col);
}

int64_t NVMMASharedLayout::applySwizzle(int64_t offset) const {
  IntIndexArith arith;
  return tilegpu::applySwizzle(*this, arith, offset);
}

std::optional<NVMMASharedLayout>
mlir::tilegpu::getNVMMASharedLayout(MemDescType type) {
  auto encoding = dyn_cast<NVMMASharedEncodingAttr>(type.getEncoding());
  if (!encoding || type.getShape().size() != 2 ||
      encoding.getOrder().size() != 2)
    return std::nullopt;
  NVMMASharedLayout layout;
  layout.swizzle = encoding.getSwizzle();
  layout.elementBytes = getSharedElementBytes(type.getElementType());
  layout.contigDim = encoding.getOrder()[0];
  layout.rows = type.getShape()[1 - layout.contigDim];
  layout.contigExtent = type.getShape()[layout.contigDim];
  if (layout.contigDim > 1 || layout.elementBytes == 0 ||
      layout.swizzle % layout.elementBytes != 0 ||
      (layout.contigExtent * layout.elementBytes) % layout.swizzle != 0)
    return std::nullopt;
  return layout;
}
