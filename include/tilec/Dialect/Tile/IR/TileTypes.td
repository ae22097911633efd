//===- TileTypes.td - Types and type constraints of tile ---*- tablegen -*-===//
//
// The pointer type of the tile dialect and the type constraints its ops use:
// scalars, pointers and blocks (ranked tensors) of them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILETYPES_TD
#define TILEC_DIALECT_TILE_IR_TILETYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "tilec/Dialect/Tile/IR/TileDialect.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tile_PointerType : Tile_Type<"Pointer", "ptr"> {
  let summary = "Pointer to global memory holding elements of a scalar type";
  let description = [{
    `!tile.ptr<f16>` is a 64-bit address of an `f16` in global memory.
    Pointer arithmetic (`tile.addptr`) counts in elements of the pointee.

    Example:
    ```mlir
    func.func @k(%arg0: !tile.ptr<f32>)
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
}

// Scalars of a block: signless integers, the float types, the fp8 storage
// types (loaded, stored, converted; no arithmetic), pointers.
def Tile_Float : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;
def Tile_FP8 : AnyTypeOf<[F8E4M3FN, F8E5M2], "fp8">;
def Tile_Int : AnyTypeOf<[I1, I8, I16, I32, I64], "integer">;
def Tile_Ptr : Type<CPred<"::llvm::isa<::mlir::tile::PointerType>($_self)">,
                    "tile pointer", "::mlir::tile::PointerType">;
def Tile_Scalar : AnyTypeOf<[Tile_Float, Tile_FP8, Tile_Int, Tile_Ptr],
                            "tile scalar">;

def Tile_FloatTensor : RankedTensorOf<[Tile_Float]>;
def Tile_IntTensor : RankedTensorOf<[Tile_Int]>;
def Tile_I1Tensor : RankedTensorOf<[I1]>;
def Tile_I32Tensor : RankedTensorOf<[I32]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_Ptr]>;
def Tile_Tensor : RankedTensorOf<[Tile_Scalar]>;

def Tile_FloatLike : AnyTypeOf<[Tile_Float, Tile_FloatTensor]>;
def Tile_IntLike : AnyTypeOf<[Tile_Int, Tile_IntTensor]>;
def Tile_PtrLike : AnyTypeOf<[Tile_Ptr, Tile_PtrTensor]>;
def Tile_BoolLike : AnyTypeOf<[I1, Tile_I1Tensor]>;
def Tile_Any : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;

#endif // TILEC_DIALECT_TILE_IR_TILETYPES_TD
