//===- AccessWidth.cpp - How wide a global access may be ------------------===//
//
// The vector width of global accesses from the axis analysis (see
// AccessWidth.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AccessWidth.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

using namespace mlir;
using namespace mlir::tilegpu;

unsigned mlir::tilegpu::getAccessVectorWidth(const AxisInfo &ptr, unsigned dim,
                                             unsigned elementBytes,
                                             unsigned elementsPerThread,
                                             const AxisInfo *allOrNothingMask) {
  int64_t width = std::min<int64_t>(16 / elementBytes, elementsPerThread);
  width = std::min(width, ptr.contiguity[dim]);
  // The first address of each run must be aligned to the whole access.
  int64_t alignmentElements =
      std::max<int64_t>(1, ptr.divisibility[dim] / elementBytes);
  width = std::min(width, alignmentElements);
  // A power of two, at least 1.
  unsigned pow2 = 1;
  while (pow2 * 2 <= width)
    pow2 *= 2;
  // A run's mask must be one value (the access is all or nothing).
  if (allOrNothingMask)
    while (pow2 > 1 && !isUniformOverRuns(*allOrNothingMask, dim, pow2))
      pow2 /= 2;
  return pow2;
}

bool mlir::tilegpu::isUniformOverRuns(const AxisInfo &mask, unsigned dim,
                                      unsigned width) {
  return mask.constancy[dim] % width == 0;
}

unsigned mlir::tilegpu::getPointeeBytes(RankedTensorType ptrType) {
  auto pointer = cast<tile::PointerType>(ptrType.getElementType());
  return getSharedElementBytes(pointer.getPointeeType());
}

std::optional<AccessVectorWidth>
mlir::tilegpu::getAccessVectorWidth(const AxisInfoAnalysis &analysis, Value ptr,
                                    Value allOrNothingMask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  if (!type)
    return std::nullopt;
  auto layout = dyn_cast<BlockedEncodingAttr>(type.getEncoding());
  if (!layout)
    return std::nullopt;
  unsigned fast = layout.getOrder().front();
  unsigned perThread =
      std::min<int64_t>(layout.getSizePerThread()[fast], type.getDimSize(fast));
  std::optional<AxisInfo> mask;
  if (allOrNothingMask)
    mask = analysis.getAxisInfo(allOrNothingMask);
  unsigned width = getAccessVectorWidth(analysis.getAxisInfo(ptr), fast,
                                        getPointeeBytes(type), perThread,
                                        mask ? &*mask : nullptr);
  return AccessVectorWidth{fast, width};
}
