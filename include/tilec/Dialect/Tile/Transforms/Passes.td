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

def TilePromoteOffsets : Pass<"tile-promote-offsets"> {
  let summary = "Compute addresses and comparisons in i64 where i32 may wrap";
  let description = [{
    SPEC 1.4: address arithmetic never overflows silently. An integer range
    analysis (ExactIntegers.h) finds the offsets of `tile.addptr` and the
    operands of `arith.cmpi` whose computation in their declared width may
    differ from the exact value (`pid * BLOCK` when the grid may have 2^31
    programs, `row * stride` for a run-time stride, ...). Their expression
    trees are recomputed in i64, from the leaves where i32 is still exact:

    ```mlir
    %pid = tile.program_id 0 : i32
    %base = arith.muli %pid, %c1024 : i32
    %s = tile.splat %base : tensor<1024xi32>
    %offs = arith.addi %s, %range : tensor<1024xi32>
    %p = tile.addptr %ptrs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    ```
    becomes (the uniform part of a sum moves into the scalar base pointer,
    so the per-element offset stays i32 when that is exact; a mask
    `splat(u) + r < splat(n)` likewise becomes `r < splat(n - u)`, the i64
    bound clamped into i32)
    ```mlir
    %pid64 = arith.extsi %pid : i32 to i64
    %base64 = arith.muli %pid64, %c1024_i64 : i64
    %q = tile.addptr %x, %base64 : !tile.ptr<f32>, i64
    %qs = tile.splat %q : tensor<1024x!tile.ptr<f32>>
    %p = tile.addptr %qs, %range : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    ```
    Values the analysis cannot see through (loads, arguments, loop-carried
    values, truncations, unsigned operations, the operands of division and
    remainder) are taken as computed.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let statistics = [
    Statistic<"numOffsetsPromoted", "num-offsets-promoted",
              "Number of addptr offsets recomputed in i64">,
    Statistic<"numComparisonsPromoted", "num-comparisons-promoted",
              "Number of integer comparisons recomputed in i64">,
    Statistic<"numUniformSplits", "num-uniform-splits",
              "Number of uniform offset parts moved into a scalar pointer">
  ];
}

def TileDivideByScalar : Pass<"tile-divide-by-scalar"> {
  let summary = "Divide f32 tiles by a uniform divisor with one reciprocal";
  let description = [{
    `x / splat(s)` on an f32 tile of at least four elements per thread
    divides every element by the same run-time scalar (softmax's `num / den`,
    a normalization by a norm). Each element's `div.full.f32` (several
    instructions, 2 ulp) becomes two multiplications: by the reciprocal of
    `s * c`, computed once (`tile.normal_reciprocal` asks the lowering for
    `rcp.approx.ftz.f32`, 1 ulp), then by `c`. The power of two `c` keeps
    `s * c` and its reciprocal normal floats: 2^24 for a subnormal or zero
    `s`, 1/4 above 2^126 (or infinite), 1 otherwise (NaN too), chosen by
    uniform selects, with no branch (a branch with the division on the
    other side made ptxas keep both paths' registers). The second product is
    exact and the first cannot overflow or underflow where the quotient
    does not: 1.5 ulp in all, within `div.full`'s 2; zero, infinite and NaN
    divisors give IEEE's infinities, zeros and NaNs.

    ```mlir
    %d = tile.splat %s : tensor<1024xf32>
    %q = arith.divf %x, %d : tensor<1024xf32>
    ```
    becomes
    ```mlir
    %a = math.absf %s : f32
    %tiny = arith.cmpf olt, %a, %c2_pow_m126 : f32
    %huge = arith.cmpf ogt, %a, %c2_pow_126 : f32
    %c0 = arith.select %huge, %cquarter, %c1 : f32
    %c = arith.select %tiny, %c2_pow_24, %c0 : f32
    %sc = arith.mulf %s, %c : f32
    %r = arith.divf %c1, %sc {tile.normal_reciprocal} : f32
    %rs = tile.splat %r : tensor<1024xf32>
    %m = arith.mulf %x, %rs : tensor<1024xf32>
    %cs = tile.splat %c : tensor<1024xf32>
    %q = arith.mulf %m, %cs : tensor<1024xf32>
    ```
    Smaller tiles (fewer elements than four times the threads of
    `tile.num_warps`) keep the division: the reciprocal and the selects
    would cost more than they save.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let statistics = [
    Statistic<"numDivisionsRewritten", "num-divisions-rewritten",
              "Number of tile divisions by a scalar made multiplications">
  ];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
