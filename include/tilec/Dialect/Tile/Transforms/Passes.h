//===- Passes.h - Passes of the tile dialect --------------------*- C++ -*-===//
//
// Declarations and registration of the passes on tile-dialect IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tile {
#define GEN_PASS_DECL
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
