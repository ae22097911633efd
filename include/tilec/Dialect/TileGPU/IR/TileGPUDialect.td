//===- TileGPUDialect.td - The tilegpu dialect -------------*- tablegen -*-===//
//
// The `tilegpu` dialect: tile programs whose blocks carry a layout saying
// which thread and warp hold which element (like Triton's TTGIR).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD

include "mlir/IR/OpBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mlir::tilegpu";
  let summary = "Tile programs with layouts: which thread holds which element";
  let description = [{
    After layout assignment (`convert-tile-to-tilegpu`) every block of a
    kernel is a `tensor` whose encoding attribute is a layout of this dialect:
    `#tilegpu.blocked` (each thread holds `sizePerThread` contiguous elements,
    threads and warps tile the block in `order`), `#tilegpu.slice` (the
    layout of a reduction's result: the parent with one dimension removed),
    `#tilegpu.shared` (a tile staged in shared memory), and the tensor-core
    layouts `#tilegpu.mma` and `#tilegpu.dot_op`. The module carries
    `tilegpu.num_warps`; `tilegpu.shared` (bytes of shared memory) is set by
    shared-memory allocation.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // `tilegpu.num_warps` on the module: every register layout inside is for
  // that many warps.
  let hasOperationAttrVerify = 1;
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
