//===- Passes.td - Passes of the tile dialect --------------*- tablegen -*-===//
//
// Passes that run on tile-dialect IR, before layouts are assigned.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCombine : Pass<"tile-combine"> {
  let summary = "Fuse tile-level op patterns (dot + c, chained addptr)";
  let description = [{
    Peephole fusions that later passes rely on:

    * `add(dot(a, b, 0), c)` becomes `dot(a, b, c)` when the dot has no other
      use, so the accumulator lives in the matrix unit's registers:

      ```mlir
      %zero = arith.constant dense<0.0> : tensor<32x32xf32>
      %d = tile.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
      %r = arith.addf %d, %c : tensor<32x32xf32>
      ```
      becomes
      ```mlir
      %r = tile.dot %a, %b, %c : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
      ```
    * `addptr(addptr(p, a), b)` becomes `addptr(p, a + b)` when `a` and `b`
      have the same type, so address arithmetic is done once on integers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numDotsFused", "num-dots-fused",
              "Number of additions folded into a dot's accumulator">,
    Statistic<"numAddPtrsFused", "num-addptrs-fused",
              "Number of addptr chains folded into one">
  ];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
