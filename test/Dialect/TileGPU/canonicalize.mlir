// RUN: tile-opt %s -split-input-file -canonicalize | FileCheck %s --enable-var-scope
// Folds of tilegpu.convert_layout and rematerialization of cheap sources.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<128xf32, #{{.*}}>)
func.func @identity(%x: tensor<128xf32, #a>) -> tensor<128xf32, #a> {
  // CHECK-NEXT: return %[[X]]
  %0 = tilegpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #a>
  return %0 : tensor<128xf32, #a>
}

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<128xf32, #[[A:.*]]>)
func.func @chain(%x: tensor<128xf32, #a>) -> tensor<128xf32, #c> {
  // CHECK-NEXT: %[[R:.*]] = tilegpu.convert_layout %[[X]] : tensor<128xf32, #[[A]]> -> tensor<128xf32, #[[C:.*]]>
  // CHECK-NEXT: return %[[R]]
  %0 = tilegpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %1 = tilegpu.convert_layout %0 : tensor<128xf32, #b> -> tensor<128xf32, #c>
  return %1 : tensor<128xf32, #c>
}

// CHECK-LABEL: func.func @remat
// CHECK-SAME: (%[[S:.*]]: f32)
func.func @remat(%s: f32) -> (tensor<128xf32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>) {
  // CHECK-DAG: %[[K:.*]] = arith.constant dense<3.000000e+00> : tensor<128xf32, #[[B:.*]]>
  // CHECK-DAG: %[[SP:.*]] = tile.splat %[[S]] : tensor<128xf32, #[[B]]>
  // CHECK-DAG: %[[R:.*]] = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[B]]>
  // CHECK-NOT: tilegpu.convert_layout
  // CHECK: return %[[SP]], %[[R]], %[[K]]
  %0 = tile.splat %s : tensor<128xf32, #a>
  %1 = tilegpu.convert_layout %0 : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %2 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
  %3 = tilegpu.convert_layout %2 : tensor<128xi32, #a> -> tensor<128xi32, #b>
  %4 = arith.constant dense<3.0> : tensor<128xf32, #a>
  %5 = tilegpu.convert_layout %4 : tensor<128xf32, #a> -> tensor<128xf32, #b>
  return %1, %3, %5 : tensor<128xf32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>
}
