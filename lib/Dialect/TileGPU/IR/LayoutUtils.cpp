//===- LayoutUtils.cpp - What a layout says about a block -----------------===//
//
// Implements the layout function of blocked and slice layouts: registers
// per thread, register order, the index each (register, lane, warp) holds,
// and the default layout of a shape.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Position of root dimension `d` in `order`.
unsigned positionInOrder(ArrayRef<unsigned> order, unsigned d) {
  return std::find(order.begin(), order.end(), d) - order.begin();
}

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

unsigned DistributedLayout::getLaneStride(unsigned d) const {
  unsigned stride = 1;
  for (unsigned other : root.getOrder()) {
    if (other == d)
      break;
    stride *= root.getThreadsPerWarp()[other];
  }
  return stride;
}

unsigned DistributedLayout::getWarpStride(unsigned d) const {
  unsigned stride = 1;
  for (unsigned other : root.getOrder()) {
    if (other == d)
      break;
    stride *= root.getWarpsPerCTA()[other];
  }
  return stride;
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

SmallVector<int64_t> DistributedLayout::getElementIndex(unsigned reg,
                                                        unsigned lane,
                                                        unsigned warp) const {
  SmallVector<unsigned> coords = getRegisterCoords(reg);
  SmallVector<int64_t> index;
  for (unsigned d : blockDims) {
    unsigned spt = root.getSizePerThread()[d];
    unsigned tpw = root.getThreadsPerWarp()[d];
    unsigned wpc = root.getWarpsPerCTA()[d];
    unsigned laneD = (lane / getLaneStride(d)) % tpw;
    unsigned warpD = (warp / getWarpStride(d)) % wpc;
    int64_t value =
        getRegisterOffset(d, coords[d]) + warpD * tpw * spt + laneD * spt;
    index.push_back(value % rootShape[d]);
  }
  return index;
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
  std::function<SmallVector<int64_t>(unsigned, unsigned, unsigned)> index;
  if (auto layout = getDistributedLayout(type))
    index = [layout](unsigned r, unsigned l, unsigned w) {
      return layout->getElementIndex(r, l, w);
    };
  else if (auto layout = getMmaLayout(type))
    index = [layout](unsigned r, unsigned l, unsigned w) {
      return layout->getElementIndex(r, l, w);
    };
  else if (auto layout = getDotOperandLayout(type))
    index = [layout](unsigned r, unsigned l, unsigned w) {
      return layout->getElementIndex(r, l, w);
    };
  if (!index || type.getRank() == 0)
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
      perThread.push_back(index(reg, lane, warp));
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
  unsigned j = reg % 4, tile = reg / 4;
  int64_t m = tile / repN, n = tile % repN;
  unsigned warpM = warp % wm, warpN = (warp / wm) % wn;
  int64_t row = m * 16 * wm + warpM * 16 + lane / 4 + (j >= 2 ? 8 : 0);
  int64_t col = n * 8 * wn + warpN * 8 + (lane % 4) * 2 + (j % 2);
  return {row % shape[0], col % shape[1]};
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
  unsigned perStep = getRegistersPerStep();
  unsigned i = reg % perStep, group = reg / perStep;
  int64_t outer = group / kSteps, step = group % kSteps;
  unsigned p = i / kWidth, e = i % kWidth;
  unsigned groupId = lane / 4, tig = lane % 4;
  unsigned kStep = getKStep();
  if (opIdx == 0) {
    unsigned warpM = warp % wm;
    int64_t row = outer * 16 * wm + warpM * 16 + groupId + (p % 2) * 8;
    int64_t k = step * kStep + tig * kWidth + e + (p / 2) * (kStep / 2);
    return {row % shape[0], k % shape[1]};
  }
  unsigned warpN = (warp / wm) % wn;
  int64_t k = step * kStep + tig * kWidth + e + p * (kStep / 2);
  int64_t col = outer * 8 * wn + warpN * 8 + groupId;
  return {k % shape[0], col % shape[1]};
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
