//===- Swizzle.h - Addresses in swizzled shared-memory tiles ----*- C++ -*-===//
//
// The byte offset of an element of an `#tilegpu.nvmma_shared` tile, emitted
// as IR (NVMMASharedLayout in LayoutUtils.h describes the layout).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_SWIZZLE_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_SWIZZLE_H

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// Byte offset (i32) of element (row, col) of a swizzled tile: `row` along
/// the tile's other dimension, `col` along its contiguous one.
Value emitSwizzledOffset(OpBuilder &builder, Location loc,
                         const NVMMASharedLayout &layout, Value row, Value col);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_SWIZZLE_H
