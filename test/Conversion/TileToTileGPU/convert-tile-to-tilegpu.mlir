// RUN: tile-opt %s -split-input-file --convert-tile-to-tilegpu -verify-diagnostics | FileCheck %s --enable-var-scope
// Layout assignment: default blocked layouts per shape, slices for
// reductions, conversions where operands need another layout.

// CHECK-DAG: #[[$B1:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: module attributes {tilegpu.num_warps = 4 : i32}
// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // CHECK: tile.make_range {{.*}} : tensor<1024xi32, #[[$B1]]>
  %r = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  // CHECK: tile.splat %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B1]]>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %a = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // CHECK: %[[X:.*]] = tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B1]]>
  %x = tile.load %a : tensor<1024x!tile.ptr<f32>>
  // CHECK: arith.constant dense<2.000000e+00> : tensor<1024xf32, #[[$B1]]>
  %c = arith.constant dense<2.0> : tensor<1024xf32>
  // CHECK: arith.mulf %[[X]], %{{.*}} : tensor<1024xf32, #[[$B1]]>
  %y = arith.mulf %x, %c : tensor<1024xf32>
  // CHECK-NOT: tilegpu.convert_layout
  tile.store %a, %y : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// The kernel's warp count picks the layout.
// CHECK-DAG: #[[$B8:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-LABEL: module attributes {tilegpu.num_warps = 8 : i32}
// CHECK-LABEL: func.func @warps
func.func @warps() attributes {tile.kernel, tile.num_warps = 8 : i32} {
  // CHECK: tensor<512xi32, #[[$B8]]>
  %r = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32>
  return
}

// -----

// A 2-D block: lanes along the fast dimension first, then warps.
// CHECK-DAG: #[[$B2:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[$S:.*]] = #tilegpu.slice<{dim = 1, parent = #[[$B2]]}>
// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: f32) attributes {tile.kernel} {
  // CHECK: %[[B:.*]] = tile.splat %{{.*}} : tensor<64x128xf32, #[[$B2]]>
  %b = tile.splat %x : tensor<64x128xf32>
  // CHECK: tile.reduce sum %[[B]] axis = 1 : tensor<64x128xf32, #[[$B2]]> -> tensor<64xf32, #[[$S]]>
  %s = tile.reduce sum %b axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  // CHECK-NOT: tilegpu.convert_layout
  tile.print "s", %s : tensor<64xf32>
  return
}

// -----

// A combine reduction's results are slices of its sources' layout; a scan's
// results have its sources' layout.
// CHECK-DAG: #[[$B2:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[$S:.*]] = #tilegpu.slice<{dim = 1, parent = #[[$B2]]}>
// CHECK-LABEL: func.func @combine
func.func @combine(%x: f32, %i: i32) attributes {tile.kernel} {
  %b = tile.splat %x : tensor<64x128xf32>
  %j = tile.splat %i : tensor<64x128xi32>
  // CHECK: tile.combine_reduce %{{.*}}, %{{.*}} axis = 1 : tensor<64x128xf32, #[[$B2]]>, tensor<64x128xi32, #[[$B2]]> -> tensor<64xf32, #[[$S]]>, tensor<64xi32, #[[$S]]>
  %r:2 = tile.combine_reduce %b, %j axis = 1 : tensor<64x128xf32>, tensor<64x128xi32> -> tensor<64xf32>, tensor<64xi32> {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    tile.combine_yield %v0, %i0 : f32, i32
  }
  // CHECK: tile.scan %{{.*}} axis = 0 : tensor<64x128xf32, #[[$B2]]> -> tensor<64x128xf32, #[[$B2]]>
  %c = tile.scan %b axis = 0 : tensor<64x128xf32> -> tensor<64x128xf32> {
  ^bb0(%a: f32, %d: f32):
    tile.combine_yield %a : f32
  }
  // CHECK-NOT: tilegpu.convert_layout
  tile.print "s", %r#0, %r#1, %c : tensor<64xf32>, tensor<64xi32>, tensor<64x128xf32>
  return
}

// -----

// expand_dims takes the slice of its result's layout; broadcast its
// result's layout.
// CHECK-DAG: #[[$R:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$E:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$F:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[$SE:.*]] = #tilegpu.slice<{dim = 1, parent = #[[$E]]}>
// CHECK-LABEL: func.func @expand_broadcast
func.func @expand_broadcast() attributes {tile.kernel} {
  // CHECK: %[[R:.*]] = tile.make_range {{.*}} : tensor<128xi32, #[[$R]]>
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // CHECK: %[[C:.*]] = tilegpu.convert_layout %[[R]] : tensor<128xi32, #[[$R]]> -> tensor<128xi32, #[[$SE]]>
  // CHECK: %[[X:.*]] = tile.expand_dims %[[C]] {axis = 1 : i32} : {{.*}} -> tensor<128x1xi32, #[[$E]]>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  // CHECK: %[[D:.*]] = tilegpu.convert_layout %[[X]] : tensor<128x1xi32, #[[$E]]> -> tensor<128x1xi32, #[[$F]]>
  // CHECK: tile.broadcast %[[D]] : tensor<128x1xi32, #[[$F]]> -> tensor<128x128xi32, #[[$F]]>
  %b = tile.broadcast %e : tensor<128x1xi32> -> tensor<128x128xi32>
  tile.print "b", %b : tensor<128x128xi32>
  return
}

// -----

// Loop-carried blocks take the default layout; yields convert to it.
// CHECK-LABEL: func.func @loop
func.func @loop(%n: i32) -> f32 attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64xf32>
  // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64xf32, #[[$L:.*]]>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64xf32>) : i32 {
    %one = arith.constant dense<1.0> : tensor<64xf32>
    // CHECK: arith.addf %[[ACC]], %{{.*}} : tensor<64xf32, #[[$L]]>
    %next = arith.addf %acc, %one : tensor<64xf32>
    scf.yield %next : tensor<64xf32>
  }
  %s = tile.reduce sum %r axis = 0 : tensor<64xf32> -> f32
  return %s : f32
}

// -----

// A dot's accumulator takes the result's layout.
// CHECK-LABEL: func.func @dot
func.func @dot(%x: f16, %c: f32) attributes {tile.kernel} {
  %a = tile.splat %x : tensor<32x16xf16>
  %b = tile.splat %x : tensor<16x32xf16>
  %z = tile.splat %c : tensor<32x32xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x16xf16, #{{.*}}> * tensor<16x32xf16, #{{.*}}> -> tensor<32x32xf32, #[[$D:.*]]>
  %d = tile.dot %a, %b, %z : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  tile.print "d", %d : tensor<32x32xf32>
  return
}

// -----

// A reshape keeps its source's map where a blocked layout says it: the
// 1024 elements (one per lane, 128 apart in each thread) split as 64 x 16
// stay in their threads: 16 lanes along a row, 2 rows per warp, the warps
// and then the registers down the rows; no conversion.
// CHECK-DAG: #[[$FLAT:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$ROWS:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @reshape
func.func @reshape(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %r = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %a = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  // CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$FLAT]]>
  %x = tile.load %a : tensor<1024x!tile.ptr<f32>>
  // CHECK: tile.reshape %{{.*}} : tensor<1024xf32, #[[$FLAT]]> -> tensor<64x16xf32, #[[$ROWS]]>
  %y = tile.reshape %x : tensor<1024xf32> -> tensor<64x16xf32>
  // CHECK-NOT: convert_layout
  tile.print "y", %y : tensor<64x16xf32>
  return
}

// -----

// A reshape of row sums (a slice: the 16 low lanes of a row hold copies of
// each sum) to 8 x 8: a column-major blocked layout keeps each sum in its
// threads (8 registers down a column, the copies across 16 lanes, then 2
// lanes and 4 warps along the row).
// CHECK-DAG: #[[$SUMS:.*]] = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @reshape_slice
func.func @reshape_slice(%x: f32) attributes {tile.kernel} {
  %t = tile.splat %x : tensor<64x16xf32>
  %s = tile.reduce sum %t axis = 1 : tensor<64x16xf32> -> tensor<64xf32>
  // CHECK: tile.reshape %{{.*}} : tensor<64xf32, #{{.*}}> -> tensor<8x8xf32, #[[$SUMS]]>
  %y = tile.reshape %s : tensor<64xf32> -> tensor<8x8xf32>
  // CHECK-NOT: convert_layout
  tile.print "y", %y : tensor<8x8xf32>
  return
}

// -----

func.func @tensor_argument(%x: tensor<16xf32>) {
  return
}
// expected-error @-3 {{blocks cannot be passed to or returned from 'tensor_argument'}}

// -----

// A block the layouts cannot describe is an error, also outside a
// `tile.kernel` function (a rank-0 tensor crashed the pass, issue 25).
func.func @rank0() {
  // expected-error @+1 {{'arith.constant' op result #0 'tensor<f32>' must have rank 1 or more (a scalar is not a block)}}
  %c = arith.constant dense<1.0> : tensor<f32>
  %d = arith.addf %c, %c : tensor<f32>
  return
}
