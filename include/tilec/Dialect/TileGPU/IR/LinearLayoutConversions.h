//===- LinearLayoutConversions.h - Encodings as linear layouts --*- C++ -*-===//
//
// The one place that says, for every tilegpu encoding, which hardware place
// holds which element of a block, as a LinearLayout:
//  - register layouts (blocked, slice, mma v2/v3, dot_op): inputs
//    `register`, `lane`, `warp`; outputs `dim0..dim<rank-1>`;
//  - shared layouts (shared, nvmma_shared): input `offset` (in elements);
//    outputs `dim0..dim<rank-1>`.
// Blocks smaller than a layout's tile wrap around (bases beyond the shape
// become 0: duplicates); larger blocks take more registers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_LINEARLAYOUTCONVERSIONS_H
#define TILEC_DIALECT_TILEGPU_IR_LINEARLAYOUTCONVERSIONS_H

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayout.h"
#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include <optional>

namespace mlir::tilegpu {

/// The layout of a block of `type` whose encoding holds registers, or
/// std::nullopt (another encoding, or a shape it cannot describe).
std::optional<LinearLayout> toLinearLayout(RankedTensorType type);

/// The layout of a shared-memory tile of `type`: element offset -> index,
/// or std::nullopt (an encoding without a linear form).
std::optional<LinearLayout> toLinearLayout(MemDescType type);

/// The layout of a `trans` result seen through its source's indices
/// (result dim i is source dim order[i]): its outputs permuted back.
LinearLayout getPermutedView(const LinearLayout &result,
                             ArrayRef<int32_t> order);

/// The layout of a `reshape` result seen through its source's indices (of
/// `srcShape`): elements keep their row-major position.
LinearLayout getReshapedView(const LinearLayout &result,
                             ArrayRef<int64_t> srcShape);

/// A blocked layout whose map is `layout` (a register layout onto
/// `dim0..`), up to the order of its registers (a register permutation
/// moves no data), or null when no blocked layout is.
BlockedEncodingAttr findBlockedLayout(MLIRContext *context,
                                      const LinearLayout &layout);

/// The layout a `reshape` of a block of `srcType` to `dstShape` takes so
/// that no element moves between threads: the source's map with its
/// outputs split as the new shape (row-major positions kept), when a
/// blocked layout says it; else null.
BlockedEncodingAttr getReshapedLayout(RankedTensorType srcType,
                                      ArrayRef<int64_t> dstShape);

/// Whether a reshape of a block of `srcType` to `resultType` moves no element
/// between threads: the result's layout is its source's (getReshapedLayout).
bool isThreadLocalReshape(RankedTensorType srcType,
                          RankedTensorType resultType);

/// The offset -> index layout of a tile of an nvmma_shared encoding.
LinearLayout toLinearLayout(const NVMMASharedLayout &layout);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_LINEARLAYOUTCONVERSIONS_H
