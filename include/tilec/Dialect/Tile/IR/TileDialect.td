//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// The `tile` dialect: block-level (tile) programs, the level at which a
// `.tile` kernel is written. Values are scalars or ranked tensors of scalars
// and global-memory pointers; nothing here says which thread holds what (that
// is the `tilegpu` dialect's job).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Block-level tile programs (the level of a .tile kernel)";
  let description = [{
    The `tile` dialect holds one program of a kernel grid as operations on
    blocks: ranked tensors of static, power-of-two shape whose elements are
    integers, floats or `!tile.ptr<T>` global-memory pointers. It is the
    level the frontend emits and the level of Triton's TTIR: index ranges,
    splats and broadcasts, pointer arithmetic, masked loads and stores,
    `dot`, reductions and shape manipulation. Scalar and elementwise
    arithmetic uses the `arith` and `math` dialects; control flow uses `scf`.
    Kernels are `func.func` operations carrying the `tile.kernel` unit
    attribute and `tile.num_warps` / `tile.num_stages` integer attributes.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // `tile.kernel` on a function: every block in its body is bounded as the
  // tile ops' blocks are (arith, math and scf ops too).
  let hasOperationAttrVerify = 1;
}

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_TD
