//===- TileAttrs.td - Attributes of tile -------------------*- tablegen -*-===//
//
// Attributes used by tile ops: the enumerations of TileEnums.td (the
// reduction kind and the input precision of `tile.dot`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEATTRS_TD
#define TILEC_DIALECT_TILE_IR_TILEATTRS_TD

include "tilec/Dialect/Tile/IR/TileEnums.td"

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_TD
