// RUN: tile-opt %s -split-input-file -tile-divide-by-scalar | FileCheck %s --enable-var-scope
// The tile-divide-by-scalar pass: an f32 tile divided by a splat scalar s is
// multiplied by the reciprocal of s * c, then by c, where the power of two c
// (2^24 for tiny s, 1/4 for huge s, else 1) keeps s * c and its reciprocal
// normal. No branch, no division left.

// CHECK-LABEL: func.func @softmax_row
// CHECK-SAME: (%[[X:.*]]: tensor<1024xf32>, %[[S:.*]]: f32)
func.func @softmax_row(%x: tensor<1024xf32>, %s: f32) -> tensor<1024xf32>
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // CHECK-NOT: scf.if
  // CHECK: %[[A:.*]] = math.absf %[[S]] : f32
  // CHECK: %[[TINY:.*]] = arith.constant 1.17549435E-38 : f32
  // CHECK: %[[LO:.*]] = arith.cmpf olt, %[[A]], %[[TINY]] : f32
  // CHECK: %[[HUGE:.*]] = arith.constant 8.50705917E+37 : f32
  // CHECK: %[[HI:.*]] = arith.cmpf ogt, %[[A]], %[[HUGE]] : f32
  // CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
  // CHECK-DAG: %[[QUARTER:.*]] = arith.constant 2.500000e-01 : f32
  // CHECK: %[[C0:.*]] = arith.select %[[HI]], %[[QUARTER]], %[[ONE]] : f32
  // CHECK: %[[P24:.*]] = arith.constant 0x4B800000 : f32
  // CHECK: %[[C:.*]] = arith.select %[[LO]], %[[P24]], %[[C0]] : f32
  // CHECK: %[[SC:.*]] = arith.mulf %[[S]], %[[C]] : f32
  // CHECK: %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
  // CHECK: %[[R:.*]] = arith.divf %[[ONE2]], %[[SC]] {tile.normal_reciprocal} : f32
  // CHECK: %[[RS:.*]] = tile.splat %[[R]] : tensor<1024xf32>
  // CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[RS]] : tensor<1024xf32>
  // CHECK: %[[CS:.*]] = tile.splat %[[C]] : tensor<1024xf32>
  // CHECK: %[[Q:.*]] = arith.mulf %[[M]], %[[CS]] : tensor<1024xf32>
  // CHECK-NOT: arith.divf
  // CHECK: return %[[Q]]
  %d = tile.splat %s : tensor<1024xf32>
  %q = arith.divf %x, %d : tensor<1024xf32>
  return %q : tensor<1024xf32>
}

// -----

// Left alone: a divisor that is not a splat, f64 and f16 tiles, and a tile of
// fewer than four elements per thread (8 warps: 256 threads, 512 elements).
// CHECK-LABEL: func.func @unchanged
func.func @unchanged(%x: tensor<1024xf32>, %y: tensor<1024xf32>, %z: tensor<1024xf64>,
                     %h: tensor<1024xf16>, %w: tensor<512xf32>, %s: f32, %t: f64, %u: f16)
    -> (tensor<1024xf32>, tensor<1024xf64>, tensor<1024xf16>, tensor<512xf32>)
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  // CHECK-NOT: tile.normal_reciprocal
  // CHECK-COUNT-4: arith.divf
  // CHECK-NOT: tile.normal_reciprocal
  %a = arith.divf %x, %y : tensor<1024xf32>
  %ts = tile.splat %t : tensor<1024xf64>
  %b = arith.divf %z, %ts : tensor<1024xf64>
  %us = tile.splat %u : tensor<1024xf16>
  %c = arith.divf %h, %us : tensor<1024xf16>
  %ss = tile.splat %s : tensor<512xf32>
  %e = arith.divf %w, %ss : tensor<512xf32>
  return %a, %b, %c, %e : tensor<1024xf32>, tensor<1024xf64>, tensor<1024xf16>, tensor<512xf32>
}

// -----

// The fastmath flags of the division carry over to both multiplications.
// CHECK-LABEL: func.func @fastmath
func.func @fastmath(%x: tensor<2048xf32>, %s: f32) -> tensor<2048xf32>
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // CHECK: %[[M:.*]] = arith.mulf %{{.*}}, %{{.*}} fastmath<nnan,ninf> : tensor<2048xf32>
  // CHECK: arith.mulf %[[M]], %{{.*}} fastmath<nnan,ninf> : tensor<2048xf32>
  %d = tile.splat %s : tensor<2048xf32>
  %q = arith.divf %x, %d fastmath<nnan,ninf> : tensor<2048xf32>
  return %q : tensor<2048xf32>
}

// -----

// A division rounded as IEEE asks (div_rn) stays one division.
// CHECK-LABEL: func.func @ieee_rounding
// CHECK: arith.divf %{{.*}}, %{{.*}} {tile.ieee_rounding} : tensor<1024xf32>
// CHECK-NOT: arith.mulf
func.func @ieee_rounding(%x: tensor<1024xf32>, %s: f32) -> tensor<1024xf32>
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %ss = tile.splat %s : tensor<1024xf32>
  %q = arith.divf %x, %ss {tile.ieee_rounding} : tensor<1024xf32>
  return %q : tensor<1024xf32>
}
