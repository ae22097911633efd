//===- LayoutUtils.cpp - What a layout says about a block -----------------===//
//
// Implements the layout function of blocked and slice layouts: registers
// per thread, register order, the index each (register, lane, warp) holds,
// and the default layout of a shape.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "llvm/ADT/STLExtras.h"

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
    int64_t value = getRegisterOffset(d, coords[d]) + warpD * tpw * spt +
                    laneD * spt;
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

BlockedEncodingAttr
mlir::tilegpu::getDefaultBlockedLayout(MLIRContext *context,
                                       ArrayRef<int64_t> shape,
                                       unsigned numWarps,
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
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               layout);
}

bool mlir::tilegpu::layoutsAreEquivalent(RankedTensorType a,
                                         RankedTensorType b) {
  if (a.getShape() != b.getShape())
    return false;
  if (a.getEncoding() == b.getEncoding())
    return true;
  auto la = getDistributedLayout(a), lb = getDistributedLayout(b);
  if (!la || !lb || la->getNumRegisters() != lb->getNumRegisters())
    return false;
  unsigned warps = la->root.getNumWarps();
  if (warps != lb->root.getNumWarps())
    return false;
  for (unsigned warp = 0; warp < warps; ++warp)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned reg = 0, e = la->getNumRegisters(); reg < e; ++reg)
        if (la->getElementIndex(reg, lane, warp) !=
            lb->getElementIndex(reg, lane, warp))
          return false;
  return true;
}

unsigned mlir::tilegpu::getSharedElementBytes(Type elementType) {
  if (isa<tile::PointerType>(elementType))
    return 8;
  return std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::tilegpu::getScratchBytes(Operation *op) {
  auto bytesOf = [](Value value) -> int64_t {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return 0;
    return type.getNumElements() *
           getSharedElementBytes(type.getElementType());
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
    return bytesOf(convert.getSrc());
  }
  if (isa<tile::TransOp, tile::ReshapeOp>(op))
    return bytesOf(op->getOperand(0));
  if (auto dot = dyn_cast<tile::DotOp>(op))
    return bytesOf(dot.getA()) + bytesOf(dot.getB());
  return 0;
}
