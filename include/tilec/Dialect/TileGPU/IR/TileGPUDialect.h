//===- TileGPUDialect.h - The tilegpu dialect -------------------*- C++ -*-===//
//
// Declares the tilegpu dialect: layout encodings, the memdesc type and the
// layout-conversion and shared-memory operations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TensorEncoding.h"

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.h.inc"

namespace mlir::tilegpu {
/// Module attribute names.
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "tilegpu.num_warps";
inline constexpr llvm::StringLiteral kSharedBytesAttrName = "tilegpu.shared";
inline constexpr llvm::StringLiteral kTargetAttrName = "tilegpu.target";
/// Unit attribute of a `tilegpu.local_alloc` of f32 staged for a tf32
/// warp-group dot: its elements are rounded to tf32 (to nearest) on the way.
inline constexpr llvm::StringLiteral kRoundToTF32AttrName =
    "tilegpu.round_tf32";
/// Per-op attribute: the byte offset of the op's scratch shared memory.
inline constexpr llvm::StringLiteral kScratchOffsetAttrName =
    "tilegpu.scratch_offset";

/// The number of warps a module was laid out for (its `tilegpu.num_warps`
/// attribute), or 4 when absent.
unsigned getNumWarps(Operation *op);
} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_H
