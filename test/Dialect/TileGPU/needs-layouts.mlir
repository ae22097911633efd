// Tile-level IR (blocks without layouts) given to a tilegpu pass: an error
// naming the pass, exit code 1, no crash (issue 25: coalesce and the
// conversion to LLVM used to dereference the missing layout).
// RUN: not tile-opt %s --tilegpu-coalesce 2>&1 | FileCheck %s --check-prefix=COALESCE
// RUN: not tile-opt %s --tilegpu-accelerate-matmul 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not tile-opt %s --tilegpu-remove-layout-conversions 2>&1 | FileCheck %s --check-prefix=REMOVE
// RUN: not tile-opt %s --tilegpu-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not tile-opt %s --tilegpu-allocate-shared-memory 2>&1 | FileCheck %s --check-prefix=ALLOCATE
// RUN: not tile-opt %s --convert-tilegpu-to-llvm 2>&1 | FileCheck %s --check-prefix=LLVM

// COALESCE: needs-layouts.mlir:[[# @LINE + 7]]:8: error: tilegpu-coalesce needs tilegpu layouts on every block, got 'tensor<128xi32>' (run convert-tile-to-tilegpu first)
// MATMUL: error: tilegpu-accelerate-matmul needs tilegpu layouts on every block
// REMOVE: error: tilegpu-remove-layout-conversions needs tilegpu layouts on every block
// PIPELINE: error: tilegpu-pipeline needs tilegpu layouts on every block
// ALLOCATE: error: tilegpu-allocate-shared-memory needs tilegpu layouts on every block
// LLVM: error: convert-tilegpu-to-llvm needs tilegpu layouts on every block
func.func @k(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %a = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %a : tensor<128x!tile.ptr<f32>>
  tile.store %a, %v : tensor<128x!tile.ptr<f32>>
  return
}
