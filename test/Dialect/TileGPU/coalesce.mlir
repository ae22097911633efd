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

// -----

// Two 64x64 f16 tiles in one layout, one contiguous along its rows (dim 1),
// one along its columns (dim 0; a K-major operand). The layout follows the
// first; the second load keeps a layout of its own (8 per thread along
// dim 0), its pointers rebuilt in it by the canonicalizer, and its result
// converted back for its users.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #tilegpu.slice<{dim = 0, parent = #b}>
#s1 = #tilegpu.slice<{dim = 1, parent = #b}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$ROWS:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
  // CHECK-DAG: #[[$COLS:.*]] = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
  // CHECK-LABEL: func.func @two_orders
  func.func @two_orders(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}) {
    %c64 = arith.constant dense<64> : tensor<64x64xi32, #b>
    %r0 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #s0>
    %r1 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #s1>
    %row = tile.expand_dims %r0 {axis = 0 : i32} : tensor<64xi32, #s0> -> tensor<1x64xi32, #b>
    %col = tile.expand_dims %r1 {axis = 1 : i32} : tensor<64xi32, #s1> -> tensor<64x1xi32, #b>
    %rowb = tile.broadcast %row : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %colb = tile.broadcast %col : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    // Row-major: element (i, j) at i * 64 + j.
    %ci = arith.muli %colb, %c64 : tensor<64x64xi32, #b>
    %offA = arith.addi %ci, %rowb : tensor<64x64xi32, #b>
    // Column-major: element (i, j) at j * 64 + i.
    %rj = arith.muli %rowb, %c64 : tensor<64x64xi32, #b>
    %offB = arith.addi %rj, %colb : tensor<64x64xi32, #b>
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<f16>, #b>
    %qs = tile.splat %q : tensor<64x64x!tile.ptr<f16>, #b>
    %a = tile.addptr %ps, %offA : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %bp = tile.addptr %qs, %offB : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    // CHECK: tile.load %{{.*}} : tensor<64x64x!tile.ptr<f16>, #[[$ROWS]]>
    // CHECK: %[[B:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f16>, #[[$COLS]]>
    // CHECK: %[[BACK:.*]] = tilegpu.convert_layout %[[B]] : tensor<64x64xf16, #[[$COLS]]> -> tensor<64x64xf16, #[[$ROWS]]>
    // CHECK: arith.addf %{{.*}}, %[[BACK]] : tensor<64x64xf16, #[[$ROWS]]>
    %x = tile.load %a : tensor<64x64x!tile.ptr<f16>, #b>
    %y = tile.load %bp : tensor<64x64x!tile.ptr<f16>, #b>
    %z = arith.addf %x, %y : tensor<64x64xf16, #b>
    tile.store %a, %z : tensor<64x64x!tile.ptr<f16>, #b>
    return
  }
}

// -----

// A dot operand of unaligned rows (a run-time row stride, nothing known
// of it): each element is its own access, yet each thread takes runs of 8
// f16 along the rows, so that a run shares one address (fewer pointer
// registers in the loops that carry them). The f32 result stored through
// the same unaligned offsets keeps a layout of its own, a lane per
// element: in the loads' layout its lanes would write 8 elements apart.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s0 = #tilegpu.slice<{dim = 0, parent = #b}>
#s1 = #tilegpu.slice<{dim = 1, parent = #b}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$ROW8:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
  // CHECK-DAG: #[[$ROW1:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
  // CHECK-LABEL: func.func @dot_operand_runs
  // CHECK: tile.load %{{.*}} : tensor<64x64x!tile.ptr<f16>, #[[$ROW8]]>
  // CHECK: %[[D:.*]] = tile.dot
  // CHECK: %[[DC:.*]] = tilegpu.convert_layout %[[D]] : tensor<64x64xf32, #[[$ROW8]]> -> tensor<64x64xf32, #[[$ROW1]]>
  // CHECK: tile.store %{{.*}}, %[[DC]] : tensor<64x64x!tile.ptr<f32>, #[[$ROW1]]>
  func.func @dot_operand_runs(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %lda: i32) {
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #b>
    %r0 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #s1>
    %r1 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #s0>
    %rows = tile.expand_dims %r0 {axis = 1 : i32} : tensor<64xi32, #s1> -> tensor<64x1xi32, #b>
    %cols = tile.expand_dims %r1 {axis = 0 : i32} : tensor<64xi32, #s0> -> tensor<1x64xi32, #b>
    %ldas = tile.splat %lda : tensor<64x1xi32, #b>
    %ro = arith.muli %rows, %ldas : tensor<64x1xi32, #b>
    %rob = tile.broadcast %ro : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %cob = tile.broadcast %cols : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %off = arith.addi %rob, %cob : tensor<64x64xi32, #b>
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<f16>, #b>
    %a = tile.addptr %ps, %off : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %x = tile.load %a : tensor<64x64x!tile.ptr<f16>, #b>
    %d = tile.dot %x, %x, %zero : tensor<64x64xf16, #b> * tensor<64x64xf16, #b> -> tensor<64x64xf32, #b>
    %os = tile.splat %out : tensor<64x64x!tile.ptr<f32>, #b>
    %o = tile.addptr %os, %off : tensor<64x64x!tile.ptr<f32>, #b>, tensor<64x64xi32, #b>
    tile.store %o, %d : tensor<64x64x!tile.ptr<f32>, #b>
    return
  }
}
