// RUN: tile-opt %s -split-input-file --tilegpu-remove-layout-conversions | FileCheck %s --enable-var-scope
// Layout propagation through reshapes (getReshapedLayout): a block flows
// through a reshape into the layout that keeps each element in its thread,
// so the reshape moves no data; a split (a combine_reduce over a new pair
// dimension) and a join (expand_dims, broadcast and a select) follow, and
// a conversion of a cast of a conversion becomes one conversion.

#ld = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#flat = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#pairs = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$LD:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
  // CHECK-DAG: #[[$PAIRS:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
  // CHECK-DAG: #[[$HALF:slice[0-9]*]] = #tilegpu.slice<{dim = 2, parent = #[[$PAIRS]]}>

  // The interleaved rotary pattern: x (loaded 8 per thread) split into
  // even and odd elements, rotated, joined and stored where it was loaded.
  // CHECK-LABEL: func.func @split_join
  // CHECK-NOT: convert_layout
  // CHECK: %[[X:.*]] = tile.load {{.*}} : tensor<16x64x!tile.ptr<f32>, #[[$LD]]>
  // CHECK: %[[P:.*]] = tile.reshape %[[X]] : tensor<16x64xf32, #[[$LD]]> -> tensor<16x32x2xf32, #[[$PAIRS]]>
  // CHECK: tile.combine_reduce %[[P]] axis = 2 : tensor<16x32x2xf32, #[[$PAIRS]]> -> tensor<16x32xf32, #[[$HALF]]>
  // CHECK-NOT: convert_layout
  // CHECK: tile.reshape %{{.*}} : tensor<16x32x2xf32, #[[$PAIRS]]> -> tensor<16x64xf32, #[[$LD]]>
  // CHECK-NOT: convert_layout
  // CHECK: tile.store
  func.func @split_join(%in: tensor<16x64x!tile.ptr<f32>, #ld>, %out: tensor<16x64x!tile.ptr<f32>, #ld>) {
    %x = tile.load %in : tensor<16x64x!tile.ptr<f32>, #ld>
    %xf = tilegpu.convert_layout %x : tensor<16x64xf32, #ld> -> tensor<16x64xf32, #flat>
    %p = tile.reshape %xf : tensor<16x64xf32, #flat> -> tensor<16x32x2xf32, #pairs>
    %even = tile.combine_reduce %p axis = 2 : tensor<16x32x2xf32, #pairs> -> tensor<16x32xf32, #tilegpu.slice<{dim = 2, parent = #pairs}>> {
    ^bb0(%a: f32, %b: f32):
      tile.combine_yield %a : f32
    }
    %odd = tile.combine_reduce %p axis = 2 : tensor<16x32x2xf32, #pairs> -> tensor<16x32xf32, #tilegpu.slice<{dim = 2, parent = #pairs}>> {
    ^bb0(%a: f32, %b: f32):
      tile.combine_yield %b : f32
    }
    %d = arith.subf %even, %odd : tensor<16x32xf32, #tilegpu.slice<{dim = 2, parent = #pairs}>>
    %s = arith.addf %even, %odd : tensor<16x32xf32, #tilegpu.slice<{dim = 2, parent = #pairs}>>
    %de = tile.expand_dims %d {axis = 2 : i32} : tensor<16x32xf32, #tilegpu.slice<{dim = 2, parent = #pairs}>> -> tensor<16x32x1xf32, #pairs>
    %se = tile.expand_dims %s {axis = 2 : i32} : tensor<16x32xf32, #tilegpu.slice<{dim = 2, parent = #pairs}>> -> tensor<16x32x1xf32, #pairs>
    %db = tile.broadcast %de : tensor<16x32x1xf32, #pairs> -> tensor<16x32x2xf32, #pairs>
    %sb = tile.broadcast %se : tensor<16x32x1xf32, #pairs> -> tensor<16x32x2xf32, #pairs>
    %r = tile.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %r3 = tile.reshape %r : tensor<2xi32, #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<1x1x2xi32, #pairs>
    %rb = tile.broadcast %r3 : tensor<1x1x2xi32, #pairs> -> tensor<16x32x2xi32, #pairs>
    %zero = arith.constant dense<0> : tensor<16x32x2xi32, #pairs>
    %first = arith.cmpi eq, %rb, %zero : tensor<16x32x2xi32, #pairs>
    %j = arith.select %first, %db, %sb : tensor<16x32x2xi1, #pairs>, tensor<16x32x2xf32, #pairs>
    %o = tile.reshape %j : tensor<16x32x2xf32, #pairs> -> tensor<16x64xf32, #flat>
    %oc = tilegpu.convert_layout %o : tensor<16x64xf32, #flat> -> tensor<16x64xf32, #ld>
    tile.store %out, %oc : tensor<16x64x!tile.ptr<f32>, #ld>
    return
  }
}

// -----

#ld = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#e = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#t = #tilegpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$T:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
  // CHECK-DAG: #[[$TROW:slice[0-9]*]] = #tilegpu.slice<{dim = 0, parent = #[[$T]]}>

  // A loaded row block converted, cast, expanded and broadcast, then
  // converted to the tile's layout (cos/sin of a rotary embedding): the
  // second conversion moves before the broadcast and the expand_dims,
  // then before the cast, and folds into the first: one conversion, of
  // the loaded bf16 elements.
  // CHECK-LABEL: func.func @cast_between_conversions
  // CHECK: %[[X:.*]] = tile.load %arg0
  // CHECK: %[[C:.*]] = tilegpu.convert_layout %[[X]] : tensor<8x32xbf16, #{{.*}}> -> tensor<8x32xbf16, #[[$TROW]]>
  // CHECK-NEXT: %[[F:.*]] = arith.extf %[[C]] : tensor<8x32xbf16, #[[$TROW]]> to tensor<8x32xf32, #[[$TROW]]>
  // CHECK-NEXT: tile.expand_dims %[[F]] {axis = 0 : i32} : tensor<8x32xf32, #[[$TROW]]> -> tensor<1x8x32xf32, #[[$T]]>
  // CHECK-NOT: convert_layout
  // CHECK: tile.store
  func.func @cast_between_conversions(%in: tensor<8x32x!tile.ptr<bf16>, #ld>, %py: tensor<2x8x32x!tile.ptr<f32>, #t>, %out: tensor<2x8x32x!tile.ptr<f32>, #t>) {
    %y = tile.load %py : tensor<2x8x32x!tile.ptr<f32>, #t>
    %x = tile.load %in : tensor<8x32x!tile.ptr<bf16>, #ld>
    %a = tilegpu.convert_layout %x : tensor<8x32xbf16, #ld> -> tensor<8x32xbf16, #tilegpu.slice<{dim = 0, parent = #e}>>
    %f = arith.extf %a : tensor<8x32xbf16, #tilegpu.slice<{dim = 0, parent = #e}>> to tensor<8x32xf32, #tilegpu.slice<{dim = 0, parent = #e}>>
    %g = tile.expand_dims %f {axis = 0 : i32} : tensor<8x32xf32, #tilegpu.slice<{dim = 0, parent = #e}>> -> tensor<1x8x32xf32, #e>
    %h = tile.broadcast %g : tensor<1x8x32xf32, #e> -> tensor<2x8x32xf32, #e>
    %b = tilegpu.convert_layout %h : tensor<2x8x32xf32, #e> -> tensor<2x8x32xf32, #t>
    %m = arith.mulf %b, %y : tensor<2x8x32xf32, #t>
    tile.store %out, %m : tensor<2x8x32x!tile.ptr<f32>, #t>
    return
  }
}
