//===- TileEnums.td - Enumerations of tile -----------------*- tablegen -*-===//
//
// The enumerations of the tile dialect: the reduction kind of `tile.reduce`,
// the input precision of `tile.dot`, and the operation, memory ordering and
// scope of the atomics (`tile.atomic_rmw`, `tile.atomic_cas`). mlir-tblgen -gen-enum-decls/-defs
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

// The read-modify-write of `tile.atomic_rmw`. Integers are signless, so the
// unsigned orderings are kinds of their own; `max`/`min` on floats are
// Triton's (TileOps.td says how).
def Tile_AtomicRMWKind : Tile_I32Enum<"AtomicRMWKind",
    "operation of a tile.atomic_rmw", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"UMax", 3, "umax">,
    I32EnumAttrCase<"UMin", 4, "umin">,
    I32EnumAttrCase<"And", 5, "and">,
    I32EnumAttrCase<"Or", 6, "or">,
    I32EnumAttrCase<"Xor", 7, "xor">,
    I32EnumAttrCase<"Xchg", 8, "xchg">
  ]>;

// The memory ordering of an atomic (Triton's `sem=`, PTX's `.sem`).
def Tile_MemSemantic : Tile_I32Enum<"MemSemantic",
    "memory ordering of an atomic", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">
  ]>;

// The threads an atomic's ordering is with (Triton's `scope=`, PTX's
// `.scope`).
def Tile_MemSyncScope : Tile_I32Enum<"MemSyncScope",
    "synchronization scope of an atomic", [
    I32EnumAttrCase<"CTA", 0, "cta">,
    I32EnumAttrCase<"GPU", 1, "gpu">,
    I32EnumAttrCase<"System", 2, "sys">
  ]>;

#endif // TILEC_DIALECT_TILE_IR_TILEENUMS_TD
