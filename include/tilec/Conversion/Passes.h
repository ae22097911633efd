//===- Passes.h - Conversions between tilec dialects ------------*- C++ -*-===//
//
// Declarations and registration of the conversion passes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_H
#define TILEC_CONVERSION_PASSES_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tilegpu {
#define GEN_PASS_DECL
#include "tilec/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Conversion/Passes.h.inc"
} // namespace mlir::tilegpu

#endif // TILEC_CONVERSION_PASSES_H
