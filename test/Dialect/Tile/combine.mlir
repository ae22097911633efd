// RUN: tile-opt %s -split-input-file -tile-combine | FileCheck %s --enable-var-scope
// The tile-combine pass: dot + c into the accumulator; addptr chains.

// CHECK-LABEL: func.func @dot_add
// CHECK-SAME: (%[[A:.*]]: tensor<32x16xf16>, %[[B:.*]]: tensor<16x32xf16>, %[[C:.*]]: tensor<32x32xf32>)
func.func @dot_add(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) -> tensor<32x32xf32> {
  // CHECK: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  // CHECK-NEXT: return %[[D]]
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.dot %a, %b, %zero : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  %r = arith.addf %d, %c : tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// The dot may be on the right of the addition; the precision is kept.
// CHECK-LABEL: func.func @add_dot_ieee
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf32>, %[[C:.*]]: tensor<16x16xf32>)
func.func @add_dot_ieee(%a: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  // CHECK: %[[D:.*]] = tile.dot %[[A]], %[[A]], %[[C]] inputPrecision = ieee
  // CHECK-NEXT: return %[[D]]
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %a, %zero inputPrecision = ieee : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %r = arith.addf %c, %d : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// -----

// Not fused: the accumulator is not zero, or the dot has another use.
// CHECK-LABEL: func.func @dot_add_not_fused
func.func @dot_add_not_fused(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  // CHECK: %[[D1:.*]] = tile.dot
  // CHECK: arith.addf %[[D1]]
  // CHECK: %[[D2:.*]] = tile.dot
  // CHECK: arith.addf %[[D2]]
  %one = arith.constant dense<1.0> : tensor<16x16xf32>
  %d1 = tile.dot %a, %a, %one : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r1 = arith.addf %d1, %c : tensor<16x16xf32>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d2 = tile.dot %a, %a, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %r2 = arith.addf %d2, %c : tensor<16x16xf32>
  %s = arith.addf %r1, %d2 : tensor<16x16xf32>
  return %r2, %s : tensor<16x16xf32>, tensor<16x16xf32>
}

// -----

// CHECK-LABEL: func.func @addptr_chain
// CHECK-SAME: (%[[P:.*]]: tensor<16x!tile.ptr<f32>>, %[[X:.*]]: tensor<16xi32>, %[[Y:.*]]: tensor<16xi32>)
func.func @addptr_chain(%p: tensor<16x!tile.ptr<f32>>, %x: tensor<16xi32>, %y: tensor<16xi32>) -> tensor<16x!tile.ptr<f32>> {
  // CHECK: %[[S:.*]] = arith.addi %[[X]], %[[Y]] : tensor<16xi32>
  // CHECK-NEXT: %[[R:.*]] = tile.addptr %[[P]], %[[S]]
  // CHECK-NEXT: return %[[R]]
  %0 = tile.addptr %p, %x : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %1 = tile.addptr %0, %y : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  return %1 : tensor<16x!tile.ptr<f32>>
}

// -----

// Offsets of different types are left alone.
// CHECK-LABEL: func.func @addptr_chain_mixed
func.func @addptr_chain_mixed(%p: !tile.ptr<f32>, %x: i32, %y: i64) -> !tile.ptr<f32> {
  // CHECK: tile.addptr
  // CHECK-NEXT: tile.addptr
  %0 = tile.addptr %p, %x : !tile.ptr<f32>, i32
  %1 = tile.addptr %0, %y : !tile.ptr<f32>, i64
  return %1 : !tile.ptr<f32>
}
