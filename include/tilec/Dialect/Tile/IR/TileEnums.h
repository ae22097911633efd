//===- TileEnums.h - Enumerations of the tile dialect -----------*- C++ -*-===//
//
// The enums of TileEnums.td (mlir::tile::ReduceKind, InputPrecision,
// AtomicRMWKind, MemSemantic, MemSyncScope), with stringify/symbolize
// functions. The
// generated code needs LLVM only (mlir/Support/LLVM.h is a header of
// using-declarations of LLVM types), so the MLIR-free frontend includes this
// header and links the TilecTileEnums library, as the dialect does.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEENUMS_H
#define TILEC_DIALECT_TILE_IR_TILEENUMS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

#include "tilec/Dialect/Tile/IR/TileEnums.h.inc"

#endif // TILEC_DIALECT_TILE_IR_TILEENUMS_H
