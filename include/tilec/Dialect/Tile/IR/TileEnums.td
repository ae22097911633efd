//===- TileEnums.td - Enumerations of tile -----------------*- tablegen -*-===//
//
// The enumerations of the tile dialect: the reduction kind of `tile.reduce`
// and the input precision of `tile.dot`. mlir-tblgen -gen-enum-decls/-defs
// on this file alone gives LLVM-only C++ (the enum classes and their
// stringify/symbolize functions, in TileEnums.h.inc/.cpp.inc) that the
// MLIR-free frontend shares with the dialect: see TileEnums.h and the
// TilecTileEnums library.
//
// Ops store these enums as i32 IntegerAttrs (no specialized attribute
// class, so nothing here needs MLIR's IR library); their getters and
// builders still take the C++ enum, and the assembly format prints the
// keyword ("sum", "ieee").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEENUMS_TD
#define TILEC_DIALECT_TILE_IR_TILEENUMS_TD

include "mlir/IR/EnumAttr.td"

// An i32 enum of the tile dialect, stored in ops as a plain IntegerAttr.
class Tile_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
  let returnType = cppNamespace # "::" # className;
  let convertFromStorage =
      "static_cast<" # returnType # ">($_self.getValue().getZExtValue())";
  let constBuilderCall =
      "$_builder.getI32IntegerAttr(static_cast<int32_t>($0))";
}

def Tile_ReduceKind : Tile_I32Enum<"ReduceKind", "kind of a tile.reduce", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"ArgMax", 3, "argmax">,
    I32EnumAttrCase<"ArgMin", 4, "argmin">
  ]>;

def Tile_InputPrecision : Tile_I32Enum<"InputPrecision",
    "precision of f32 inputs of tile.dot", [
    I32EnumAttrCase<"TF32", 0, "tf32">,
    I32EnumAttrCase<"IEEE", 1, "ieee">
  ]>;

#endif // TILEC_DIALECT_TILE_IR_TILEENUMS_TD
