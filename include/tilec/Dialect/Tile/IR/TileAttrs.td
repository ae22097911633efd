//===- TileAttrs.td - Enums and attributes of tile ---------*- tablegen -*-===//
//
// Enumerations used as op attributes: the reduction kind and the input
// precision of `tile.dot`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEATTRS_TD
#define TILEC_DIALECT_TILE_IR_TILEATTRS_TD

include "mlir/IR/EnumAttr.td"

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "kind of a tile.reduce", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"ArgMax", 3, "argmax">,
    I32EnumAttrCase<"ArgMin", 4, "argmin">
  ]> {
  let cppNamespace = "::mlir::tile";
}

def Tile_InputPrecision : I32EnumAttr<"InputPrecision",
    "precision of f32 inputs of tile.dot", [
    I32EnumAttrCase<"TF32", 0, "tf32">,
    I32EnumAttrCase<"IEEE", 1, "ieee">
  ]> {
  let cppNamespace = "::mlir::tile";
}

#endif // TILEC_DIALECT_TILE_IR_TILEATTRS_TD
