//===- TileEnums.cpp - Enumerations of the tile dialect -------------------===//
//
// The generated stringify/symbolize functions of the enums in TileEnums.td.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileEnums.h"

#include "llvm/ADT/StringSwitch.h"

#include "tilec/Dialect/Tile/IR/TileEnums.cpp.inc"
