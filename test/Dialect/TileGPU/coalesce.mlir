// RUN: tile-opt %s -split-input-file --tilegpu-coalesce -canonicalize | FileCheck %s --enable-var-scope
// Coalescing: the layout of blocks that memory accesses go through follows
// the addresses' contiguity, with one aligned 16-byte access per thread.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // f32 from a 16-byte aligned pointer: 4 per thread. Every block of the
  // old layout follows, so the chain needs no conversion.
  // CHECK-DAG: #[[$V4:.*]] = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
  // CHECK-LABEL: func.func @aligned
  func.func @aligned(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    // CHECK: tile.make_range {{.*}} : tensor<1024xi32, #[[$V4]]>
    %r = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
    // CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$V4]]>
    %x = tile.load %a : tensor<1024x!tile.ptr<f32>, #b>
    %y = arith.addf %x, %x : tensor<1024xf32, #b>
    // CHECK-NOT: tilegpu.convert_layout
    tile.store %a, %y : tensor<1024x!tile.ptr<f32>, #b>
    return
  }
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // f16 (2 bytes): 8 per thread.
  // CHECK-DAG: #[[$V8:.*]] = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
  // CHECK-LABEL: func.func @half
  func.func @half(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %ps = tile.splat %p : tensor<1024x!tile.ptr<f16>, #b>
    %a = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
    // CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f16>, #[[$V8]]>
    %x = tile.load %a : tensor<1024x!tile.ptr<f16>, #b>
    tile.store %a, %x : tensor<1024x!tile.ptr<f16>, #b>
    return
  }
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // Nothing known about the pointer's alignment: the layout stays.
  // CHECK-LABEL: func.func @unaligned
  // CHECK: tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #blocked>
  // CHECK-NOT: sizePerThread = [4]
  func.func @unaligned(%p: !tile.ptr<f32>) {
    %r = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>, #b>, tensor<1024xi32, #b>
    %x = tile.load %a : tensor<1024x!tile.ptr<f32>, #b>
    tile.store %a, %x : tensor<1024x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// A 2-D tile whose rows are contiguous (column index fastest), rows a
// multiple of 16 elements apart: vectors along dim 1.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #tilegpu.slice<{dim = 0, parent = #b}>
#s1 = #tilegpu.slice<{dim = 1, parent = #b}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$T:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
  // CHECK-LABEL: func.func @tile2d
  func.func @tile2d(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) {
    %rows = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #s1>
    %cols = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #s0>
    %re = tile.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #s1> -> tensor<64x1xi32, #b>
    %ss = tile.splat %stride : tensor<64x1xi32, #b>
    %ro = arith.muli %re, %ss : tensor<64x1xi32, #b>
    %rb = tile.broadcast %ro : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %ce = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #s0> -> tensor<1x64xi32, #b>
    %cb = tile.broadcast %ce : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %off = arith.addi %rb, %cb : tensor<64x64xi32, #b>
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %off : tensor<64x64x!tile.ptr<f32>, #b>, tensor<64x64xi32, #b>
    // CHECK: tile.load %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[$T]]>
    %x = tile.load %a : tensor<64x64x!tile.ptr<f32>, #b>
    tile.store %a, %x : tensor<64x64x!tile.ptr<f32>, #b>
    return
  }
}
