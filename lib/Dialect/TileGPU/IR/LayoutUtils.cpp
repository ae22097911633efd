//===- LayoutUtils.cpp - What a layout says about a block -----------------===//
//
// Describes blocked, slice, mma and dot-operand layouts applied to a block
// (registers per thread, register order, strides of the thread ids),
// evaluates their linear layouts for one thread, and derives what the
// passes ask of layouts: the default layout of a shape, equivalence, vector
// runs, scratch sizes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"
#include "tilec/Dialect/TileGPU/IR/SharedExchangeLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

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
  if (hasRegisterLayout(tensor.getEncoding()))
    if (std::optional<LinearLayout> layout = toLinearLayout(tensor))
      return layout->getInputSize(layout_dims::kRegister);
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
  std::optional<LinearLayout> la = toLinearLayout(a);
  std::optional<LinearLayout> lb = toLinearLayout(b);
  return la && lb && *la == *lb;
}

unsigned mlir::tilegpu::getSharedElementBytes(Type elementType) {
  if (isa<tile::PointerType>(elementType))
    return 8;
  return std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::tilegpu::getSharedBufferBytes(MemDescType type) {
  int64_t elements = 1;
  for (int64_t extent : type.getShape())
    elements *= extent;
  return elements * getSharedElementBytes(type.getElementType());
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
  // Registers are cheaper where they suffice.
  std::optional<LinearLayout> from = toLinearLayout(src);
  std::optional<LinearLayout> to = toLinearLayout(dst);
  if (from && to && canExchangeInRegisters(*from, *to))
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

Attribute mlir::tilegpu::getRowMajorSharedLayout(MLIRContext *context,
                                                 unsigned rank) {
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  return SharedEncodingAttr::get(context, 1, 1, 1, order);
}

bool mlir::tilegpu::isRowMajorShared(MemDescType type) {
  auto shared = dyn_cast<SharedEncodingAttr>(type.getEncoding());
  if (!shared || shared.getVec() != 1 || shared.getPerPhase() != 1 ||
      shared.getMaxPhase() != 1)
    return false;
  ArrayRef<unsigned> order = shared.getOrder();
  if (order.size() > type.getShape().size())
    return false;
  for (unsigned i = 0; i < order.size(); ++i)
    if (order[i] != order.size() - 1 - i)
      return false;
  return true;
}

unsigned mlir::tilegpu::getContiguousRegisterRun(RankedTensorType type,
                                                 unsigned maxElements) {
  if (!hasRegisterLayout(type.getEncoding()) || type.getRank() == 0)
    return 1;
  std::optional<LinearLayout> layout = toLinearLayout(type);
  if (!layout)
    return 1;
  // A run of 2^k: register bits 0..k-1 step the last dimension by 1, 2, ..,
  // and nothing else moves it below 2^k (so each run starts aligned).
  unsigned last = type.getRank() - 1;
  ArrayRef<LinearLayout::Basis> registers =
      layout->getBases(layout_dims::kRegister);
  unsigned bits = 0;
  while ((1u << (bits + 1)) <= maxElements && bits < registers.size()) {
    const LinearLayout::Basis &basis = registers[bits];
    bool steps = basis[last] == (int32_t(1) << bits);
    for (unsigned d = 0; d < last; ++d)
      steps &= basis[d] == 0;
    if (!steps)
      break;
    ++bits;
  }
  auto isAligned = [&](unsigned k) {
    int32_t low = (int32_t(1) << k) - 1;
    for (const LinearLayout::InputDim &in : layout->getInputs())
      for (auto [i, basis] : llvm::enumerate(in.bases))
        if ((in.name != layout_dims::kRegister || i >= k) &&
            (basis[last] & low) != 0)
          return false;
    return true;
  };
  while (bits > 0 && !isAligned(bits))
    --bits;
  return 1u << bits;
}

LogicalResult mlir::tilegpu::verifyBlocksHaveLayouts(Operation *module,
                                                     StringRef passName) {
  auto hasNoLayout = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && !hasRegisterLayout(tensor.getEncoding());
  };
  WalkResult result = module->walk([&](Operation *op) {
    for (Type type :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      if (hasNoLayout(type)) {
        op->emitError() << passName << " needs tilegpu layouts on every "
                        << "block, got " << type
                        << " (run convert-tile-to-tilegpu first)";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

std::optional<ReductionBits>
mlir::tilegpu::getReductionBits(const LinearLayout &layout, unsigned axis) {
  namespace dims = layout_dims;
  ReductionBits bits;
  for (auto [name, axisMask, zeroMask] :
       {std::tuple{dims::kRegister, &bits.registerAxis, &bits.registerZero},
        std::tuple{dims::kLane, &bits.laneAxis, (int32_t *)nullptr},
        std::tuple{dims::kWarp, &bits.warpAxis, (int32_t *)nullptr}}) {
    for (auto [bit, basis] : llvm::enumerate(layout.getBases(name))) {
      bool alongAxis = basis[axis] != 0, elsewhere = false;
      for (auto [d, value] : llvm::enumerate(basis))
        elsewhere |= d != axis && value != 0;
      if (alongAxis && elsewhere)
        return std::nullopt;
      if (alongAxis)
        *axisMask |= int32_t(1) << bit;
      else if (!elsewhere && zeroMask)
        *zeroMask |= int32_t(1) << bit;
    }
  }
  return bits;
}

std::optional<SmallVector<ScanBit>>
mlir::tilegpu::getScanBits(const LinearLayout &layout, unsigned axis) {
  namespace dims = layout_dims;
  if (!getReductionBits(layout, axis))
    return std::nullopt;
  SmallVector<ScanBit> bits;
  int32_t covered = 0;
  for (auto [name, level] :
       {std::pair{dims::kRegister, ScanBit::Level::Register},
        std::pair{dims::kLane, ScanBit::Level::Lane},
        std::pair{dims::kWarp, ScanBit::Level::Warp}})
    for (auto [bit, basis] : llvm::enumerate(layout.getBases(name))) {
      int32_t step = basis[axis];
      if (step == 0)
        continue;
      if (!llvm::isPowerOf2_32(step) || (covered & step))
        return std::nullopt;
      covered |= step;
      bits.push_back({level, unsigned(bit), llvm::Log2_32(step)});
    }
  if (covered + 1 != layout.getOutputSize(dims::getBlockDimName(axis)))
    return std::nullopt;
  llvm::sort(bits, [](const ScanBit &a, const ScanBit &b) {
    return a.significance < b.significance;
  });
  return bits;
}

SmallVector<int64_t> mlir::tilegpu::getScratchSections(TypeRange types,
                                                       int64_t slots) {
  SmallVector<int64_t> offsets;
  int64_t bytes = 0;
  for (Type type : types) {
    int64_t element = getSharedElementBytes(getElementTypeOrSelf(type));
    bytes = llvm::alignTo(bytes, std::max<int64_t>(4, element));
    offsets.push_back(bytes);
    bytes += slots * element;
  }
  offsets.push_back(bytes);
  return offsets;
}

bool mlir::tilegpu::holdsCopies(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return true;
  std::optional<LinearLayout> layout = toLinearLayout(tensor);
  if (!layout)
    return true;
  for (StringRef input :
       {layout_dims::kRegister, layout_dims::kLane, layout_dims::kWarp})
    for (const auto &basis : layout->getBases(input))
      if (llvm::all_of(basis, [](int32_t v) { return v == 0; }))
        return true;
  return false;
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
    std::optional<LinearLayout> layout = toLinearLayout(type);
    if (!layout)
      return 0;
    // One slot per warp position along the axis and output element.
    std::optional<ReductionBits> bits =
        getReductionBits(*layout, reduce.getAxis());
    if (!bits || !bits->warpAxis)
      return 0;
    int64_t warps = int64_t(1) << llvm::popcount(uint32_t(bits->warpAxis));
    int64_t outputs = type.getNumElements() / type.getDimSize(reduce.getAxis());
    // Values, plus i32 indices for argmax/argmin (4-byte aligned).
    int64_t valueBytes = llvm::alignTo(
        warps * outputs * getSharedElementBytes(type.getElementType()), 4);
    return valueBytes + warps * outputs * 4;
  }
  if (auto reduce = dyn_cast<tile::CombineReduceOp>(op)) {
    auto type = cast<RankedTensorType>(reduce.getSrcs().front().getType());
    std::optional<LinearLayout> layout = toLinearLayout(type);
    std::optional<ReductionBits> bits;
    if (layout)
      bits = getReductionBits(*layout, reduce.getAxis());
    if (!bits || !bits->warpAxis)
      return 0;
    int64_t warps = int64_t(1) << llvm::popcount(uint32_t(bits->warpAxis));
    int64_t outputs = type.getNumElements() / type.getDimSize(reduce.getAxis());
    return getScratchSections(reduce.getSrcs().getTypes(), warps * outputs)
        .back();
  }
  if (auto scan = dyn_cast<tile::ScanOp>(op)) {
    // One slot per block of elements below the lowest warp bit.
    auto type = cast<RankedTensorType>(scan.getSrcs().front().getType());
    std::optional<LinearLayout> layout = toLinearLayout(type);
    std::optional<SmallVector<ScanBit>> bits;
    if (layout)
      bits = getScanBits(*layout, scan.getAxis());
    if (!bits)
      return 0;
    for (const ScanBit &bit : *bits)
      if (bit.level == ScanBit::Level::Warp)
        return getScratchSections(scan.getSrcs().getTypes(),
                                  type.getNumElements() >> bit.significance)
            .back();
    return 0;
  }
  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    if (isLdmatrixConversion(convert.getSrc().getType(), convert.getType())) {
      auto shape = convert.getType().getShape();
      return shape[0] * (shape[1] + kLdmatrixRowPadding) * 2;
    }
  if (isa<ConvertLayoutOp, tile::TransOp, tile::ReshapeOp>(op))
    return getExchangeScratchBytes(op);
  if (auto dot = dyn_cast<tile::DotOp>(op)) {
    if (isa_and_nonnull<MmaEncodingAttr>(dot.getType().getEncoding()))
      return 0;
    return bytesOf(dot.getA()) + bytesOf(dot.getB());
  }
  if (isa<CreateTensorMapOp>(op))
    return kTensorMapBytes;
  if (isa<tile::AtomicRMWOp, tile::AtomicCASOp>(op)) {
    Value old = op->getResult(0);
    if (old.use_empty() || !holdsCopies(old.getType()))
      return 0;
    auto tensor = dyn_cast<RankedTensorType>(old.getType());
    int64_t elements = tensor ? tensor.getNumElements() : 1;
    return (elements + 1) *
           getSharedElementBytes(getElementTypeOrSelf(old.getType()));
  }
  return 0;
}

int64_t mlir::tilegpu::getScratchAlignment(Operation *op) {
  return isa<CreateTensorMapOp>(op) ? kTensorMapBytes : 16;
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
  std::optional<LinearLayout> layout = toLinearLayout(type);
  if (!layout)
    return std::nullopt;
  SmallVector<int32_t> index =
      layout->apply({int32_t(reg), int32_t(lane), int32_t(warp)});
  return SmallVector<int64_t>(index.begin(), index.end());
}

int64_t NVMMASharedLayout::getOffset(int64_t row, int64_t col) const {
  int64_t perRow = getElementsPerRow();
  return (col / perRow) * getColumnStride() + row * swizzle +
         (col % perRow) * elementBytes;
}

int64_t NVMMASharedLayout::applySwizzle(int64_t offset) const {
  return offset ^ (((offset >> 7) & (swizzle / 16 - 1)) << 4);
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
