// RUN: tile-opt %s --tilegpu-test-print-axis-info -o /dev/null | FileCheck %s
// The axis analysis: contiguity, divisibility (bytes for pointers) and
// constancy per dimension, with argument specialization.

// CHECK-LABEL: range: contiguity = [128], divisibility = [1073741824], constancy = [1]
// CHECK-NEXT: base: contiguity = [1], divisibility = [1024], constancy = [128]
// CHECK-NEXT: offs: contiguity = [128], divisibility = [1024], constancy = [1]
// CHECK-NEXT: mask: contiguity = [1], divisibility = [1], constancy = [16]
// CHECK-NEXT: ptrs: contiguity = [128], divisibility = [16], constancy = [1]
// CHECK-NEXT: wrapped: contiguity = [16], divisibility = [16], constancy = [1]
// CHECK-NEXT: rows: contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]
// CHECK-NEXT: cols: contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1]
// CHECK-NEXT: tile: contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1]
// CHECK-NEXT: product: contiguity = [1], divisibility = [16], constancy = [1]
// CHECK-NEXT: hinted: contiguity = [4], divisibility = [8], constancy = [128]
// CHECK-NEXT: scaled: contiguity = [1, 1], divisibility = [1, 1], constancy = [1, 64]
// CHECK-NEXT: exp_mask: contiguity = [1], divisibility = [1], constancy = [16]
// CHECK-NEXT: iv_offs: contiguity = [32], divisibility = [32], constancy = [1]
func.func @f(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %s: i32 {tile.divisibility = 16 : i32}, %u: i32) {
  %pid = tile.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %r = tile.make_range {end = 128 : i32, start = 0 : i32, test.name = "range"} : tensor<128xi32>
  %b = tile.splat %start {test.name = "base"} : tensor<128xi32>
  %offs = arith.addi %b, %r {test.name = "offs"} : tensor<128xi32>
  %ns = tile.splat %n : tensor<128xi32>
  %m = arith.cmpi slt, %offs, %ns {test.name = "mask"} : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %a = tile.addptr %ps, %offs {test.name = "ptrs"} : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %w = arith.remsi %offs, %ns {test.name = "wrapped"} : tensor<128xi32>
  %r64 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %re = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ss = tile.splat %s : tensor<64x1xi32>
  %rows = arith.muli %re, %ss {test.name = "rows"} : tensor<64x1xi32>
  %ce = tile.expand_dims %r64 {axis = 0 : i32, test.name = "cols"} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tile.broadcast %ce : tensor<1x64xi32> -> tensor<64x64xi32>
  %t = arith.addi %rb, %cb {test.name = "tile"} : tensor<64x64xi32>
  %us = tile.splat %s : tensor<128xi32>
  %prod = arith.muli %offs, %us {test.name = "product"} : tensor<128xi32>
  %uu = tile.splat %u : tensor<128xi32>
  %h = tile.hint %uu {contiguity = array<i64: 4>, divisibility = array<i64: 8>, test.name = "hinted"} : tensor<128xi32>
  // Other pure elementwise ops are constant where every operand is: a row
  // broadcast times a splat, a float select by a mask of runs of 16.
  %xf = arith.sitofp %rb : tensor<64x64xi32> to tensor<64x64xf32>
  %two = arith.constant dense<2.0> : tensor<64x64xf32>
  %sc = arith.mulf %xf, %two {test.name = "scaled"} : tensor<64x64xf32>
  %one = arith.constant dense<1.0> : tensor<128xf32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %sel = arith.select %m, %one, %zero : tensor<128xi1>, tensor<128xf32>
  %ex = math.exp %sel {test.name = "exp_mask"} : tensor<128xf32>
  // A loop variable stepping by 32 from 0: multiples of 32.
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  scf.for %c = %c0 to %n step %c32 : i32 {
    %cs = tile.splat %c : tensor<32xi32>
    %r32 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %o = arith.addi %cs, %r32 {test.name = "iv_offs"} : tensor<32xi32>
  }
  return
}
