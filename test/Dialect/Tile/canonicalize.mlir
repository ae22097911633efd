// RUN: tile-opt %s -split-input-file -canonicalize | FileCheck %s --enable-var-scope
// Folders and canonicalization patterns of the tile ops.

// CHECK-LABEL: func.func @splat_constant
func.func @splat_constant() -> tensor<16xf32> {
  // CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<16xf32>
  // CHECK-NEXT: return %[[C]]
  %c = arith.constant 2.0 : f32
  %0 = tile.splat %c : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
func.func @broadcast_of_splat(%x: f32) -> tensor<8x16xf32> {
  // CHECK: %[[S:.*]] = tile.splat %[[X]] : tensor<8x16xf32>
  // CHECK-NEXT: return %[[S]]
  %0 = tile.splat %x : tensor<1x16xf32>
  %1 = tile.broadcast %0 : tensor<1x16xf32> -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_splat
// CHECK-SAME: (%[[X:.*]]: i32)
func.func @expand_dims_of_splat(%x: i32) -> tensor<16x1xi32> {
  // CHECK: %[[S:.*]] = tile.splat %[[X]] : tensor<16x1xi32>
  // CHECK-NEXT: return %[[S]]
  %0 = tile.splat %x : tensor<16xi32>
  %1 = tile.expand_dims %0 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  return %1 : tensor<16x1xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x1xf32>)
func.func @broadcast_chain(%x: tensor<1x1xf32>) -> tensor<8x16xf32> {
  // CHECK: %[[B:.*]] = tile.broadcast %[[X]] : tensor<1x1xf32> -> tensor<8x16xf32>
  // CHECK-NEXT: return %[[B]]
  %0 = tile.broadcast %x : tensor<1x1xf32> -> tensor<1x16xf32>
  %1 = tile.broadcast %0 : tensor<1x16xf32> -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @identity_shape_ops
// CHECK-SAME: (%[[X:.*]]: tensor<16x16xf32>)
func.func @identity_shape_ops(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // CHECK-NEXT: return %[[X]]
  %0 = tile.broadcast %x : tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = tile.reshape %0 : tensor<16x16xf32> -> tensor<16x16xf32>
  %2 = tile.trans %1 : tensor<16x16xf32> -> tensor<16x16xf32>
  %3 = tile.trans %2 : tensor<16x16xf32> -> tensor<16x16xf32>
  %4 = tile.bitcast %3 : tensor<16x16xf32> -> tensor<16x16xf32>
  return %4 : tensor<16x16xf32>
}

// -----

// A permutation and its inverse, and an identity order, fold away; a chain
// of permutations becomes one (four 3-cycles are one 3-cycle).
// CHECK-LABEL: func.func @permutations
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
func.func @permutations(%x: tensor<2x4x8xf32>) -> (tensor<2x4x8xf32>, tensor<4x8x2xf32>) {
  // CHECK-NEXT: %[[C:.*]] = tile.trans %[[X]] {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  // CHECK-NEXT: return %[[X]], %[[C]]
  %0 = tile.trans %x {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %1 = tile.trans %0 {order = array<i32: 2, 0, 1>} : tensor<4x8x2xf32> -> tensor<2x4x8xf32>
  %2 = tile.trans %1 {order = array<i32: 0, 1, 2>} : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %3 = tile.trans %x {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %4 = tile.trans %3 {order = array<i32: 1, 2, 0>} : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  %5 = tile.trans %4 {order = array<i32: 1, 2, 0>} : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  %6 = tile.trans %5 {order = array<i32: 1, 2, 0>} : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  return %2, %6 : tensor<2x4x8xf32>, tensor<4x8x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<16x16xf32>)
func.func @reshape_chain(%x: tensor<16x16xf32>) -> tensor<4x64xf32> {
  // CHECK: %[[R:.*]] = tile.reshape %[[X]] : tensor<16x16xf32> -> tensor<4x64xf32>
  // CHECK-NEXT: return %[[R]]
  %0 = tile.reshape %x : tensor<16x16xf32> -> tensor<256xf32>
  %1 = tile.reshape %0 : tensor<256xf32> -> tensor<4x64xf32>
  return %1 : tensor<4x64xf32>
}

// -----

// CHECK-LABEL: func.func @addptr_zero
// CHECK-SAME: (%[[P:.*]]: tensor<16x!tile.ptr<f32>>)
func.func @addptr_zero(%p: tensor<16x!tile.ptr<f32>>) -> tensor<16x!tile.ptr<f32>> {
  // CHECK-NEXT: return %[[P]]
  %z = arith.constant dense<0> : tensor<16xi32>
  %0 = tile.addptr %p, %z : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  return %0 : tensor<16x!tile.ptr<f32>>
}

// -----

// CHECK-LABEL: func.func @load_mask_all_true
// CHECK-SAME: (%[[P:.*]]: tensor<16x!tile.ptr<f32>>, %[[O:.*]]: tensor<16xf32>)
func.func @load_mask_all_true(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: %[[L:.*]] = tile.load %[[P]] : tensor<16x!tile.ptr<f32>>
  // CHECK-NEXT: return %[[L]]
  %m = arith.constant dense<true> : tensor<16xi1>
  %0 = tile.load %p, %m, %o : tensor<16x!tile.ptr<f32>>
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @load_mask_all_false
// CHECK-SAME: (%[[P:.*]]: tensor<16x!tile.ptr<f32>>, %[[O:.*]]: tensor<16xf32>)
func.func @load_mask_all_false(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<16xf32>
  // CHECK-NOT: tile.load
  // CHECK: return %[[O]], %[[Z]]
  %m = arith.constant dense<false> : tensor<16xi1>
  %0 = tile.load %p, %m, %o : tensor<16x!tile.ptr<f32>>
  %1 = tile.load %p, %m : tensor<16x!tile.ptr<f32>>
  return %0, %1 : tensor<16xf32>, tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @store_constant_masks
// CHECK-SAME: (%[[P:.*]]: tensor<16x!tile.ptr<f32>>, %[[V:.*]]: tensor<16xf32>)
func.func @store_constant_masks(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // CHECK-NEXT: tile.store %[[P]], %[[V]] : tensor<16x!tile.ptr<f32>>
  // CHECK-NEXT: return
  %t = arith.constant dense<true> : tensor<16xi1>
  %f = arith.constant dense<false> : tensor<16xi1>
  tile.store %p, %v, %t : tensor<16x!tile.ptr<f32>>
  tile.store %p, %v, %f : tensor<16x!tile.ptr<f32>>
  return
}

// -----

// Loads that are not used are dead; stores and atomics never are.
// CHECK-LABEL: func.func @side_effects
func.func @side_effects(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  // CHECK-NOT: tile.load
  // CHECK: tile.atomic_rmw
  // CHECK: tile.atomic_cas
  // CHECK: tile.store
  %0 = tile.load %p : tensor<16x!tile.ptr<f32>>
  %1 = tile.atomic_rmw add acq_rel gpu %p, %v : tensor<16x!tile.ptr<f32>>
  %2 = tile.atomic_cas relaxed cta %p, %v, %v : tensor<16x!tile.ptr<f32>>
  tile.store %p, %v : tensor<16x!tile.ptr<f32>>
  return
}
