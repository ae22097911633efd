//===- Passes.h - Passes of the tilegpu dialect -----------------*- C++ -*-===//
//
// Declarations and registration of the passes on tilegpu IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
#define TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_H

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tilegpu {
#define GEN_PASS_DECL
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_H
