// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse -o %t.mlir && tile-translate %t.mlir --mlir-to-ptx --arch=sm_80 -o %t80.ptx && %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse -o %t.mlir && tile-translate %t.mlir --mlir-to-ptx --arch=sm_90a -o %t90.ptx && %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
// Exchanges through shared memory down to PTX that ptxas accepts, with the
// vector widths the scratch layout (SharedExchangeLayout.h) gives.

// A 64x64 f32 transpose as the bench's transpose.tile does it: the rows'
// 4 consecutive registers go out as pairs (8 bytes), the transposed rows
// come back one element at a time; both without bank conflicts.
#rows = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// An mma accumulator to 16-byte rows of halves: the accumulator's column
// pairs as 4-byte stores, the rows' 8 consecutive registers as 16-byte
// loads.
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#rows8 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// Element types: i1 as bytes (8 to a store), f64, pointers as 64-bit
// integers, i8 in 3-D blocks.
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#a3 = #tilegpu.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 2, 1], order = [2, 1, 0]}>
#b3 = #tilegpu.blocked<{sizePerThread = [4, 1, 1], threadsPerWarp = [4, 8, 1], warpsPerCTA = [1, 4, 1], order = [0, 1, 2]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: .entry transpose
  // CHECK: bar.sync 0
  // CHECK-COUNT-2: st.shared.v2.b32
  // CHECK-NEXT: xor.b32
  // CHECK-COUNT-14: st.shared.v2.b32
  // CHECK-NOT: st.shared
  // CHECK: bar.sync 0
  // CHECK-COUNT-32: ld.shared.b32
  // CHECK-NOT: ld.shared
  func.func @transpose(%p: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = tile.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %f = arith.sitofp %r : tensor<4096xi32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> to tensor<4096xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %x = tile.reshape %f : tensor<4096xf32, #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>> -> tensor<64x64xf32, #rows>
    %t = tile.trans %x : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #rows>
    tile.print "", %t : tensor<64x64xf32, #rows>
    return
  }

  // CHECK-LABEL: .entry accumulator_to_rows
  // CHECK: bar.sync 0
  // CHECK-COUNT-16: st.shared.b32
  // CHECK-NOT: st.shared
  // CHECK: bar.sync 0
  // CHECK-COUNT-4: ld.shared.v4.b32
  // CHECK-NOT: ld.shared
  func.func @accumulator_to_rows(%x: f16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x64xf16, #mma>
    %c = tilegpu.convert_layout %v : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #rows8>
    tile.print "", %c : tensor<64x64xf16, #rows8>
    return
  }
  // CHECK-LABEL: .entry element_types
  // CHECK: bar.sync 0
  // CHECK-COUNT-1: st.shared.v2.b32
  // CHECK: bar.sync 0
  // CHECK-COUNT-8: ld.shared.b8
  // CHECK: bar.sync 0
  // CHECK-COUNT-4: st.shared.v2.b64
  // CHECK: bar.sync 0
  // CHECK-COUNT-8: ld.shared.b64
  // CHECK: bar.sync 0
  // CHECK-COUNT-4: st.shared.v2.b64
  // CHECK: bar.sync 0
  // CHECK-COUNT-8: ld.shared.b64
  // CHECK: bar.sync 0
  // CHECK-COUNT-8: st.shared.b32
  // CHECK: bar.sync 0
  // CHECK: ld.shared.v{{[24]}}.b32
  func.func @element_types(%x: i32, %y: f64, %p: !tile.ptr<f32>, %z: i8) attributes {tile.kernel} {
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #a}>>
    %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
    %w = tile.broadcast %e : tensor<1x32xi32, #a> -> tensor<32x32xi32, #a>
    %s = tile.splat %x : tensor<32x32xi32, #a>
    %m = arith.cmpi slt, %w, %s : tensor<32x32xi32, #a>
    %mb = tilegpu.convert_layout %m : tensor<32x32xi1, #a> -> tensor<32x32xi1, #b>
    tile.print "", %mb : tensor<32x32xi1, #b>
    %d = tile.splat %y : tensor<32x32xf64, #a>
    %db = tilegpu.convert_layout %d : tensor<32x32xf64, #a> -> tensor<32x32xf64, #b>
    tile.print "", %db : tensor<32x32xf64, #b>
    %ps = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #a>
    %pp = tile.addptr %ps, %w : tensor<32x32x!tile.ptr<f32>, #a>, tensor<32x32xi32, #a>
    %pb = tilegpu.convert_layout %pp : tensor<32x32x!tile.ptr<f32>, #a> -> tensor<32x32x!tile.ptr<f32>, #b>
    %l = tile.load %pb : tensor<32x32x!tile.ptr<f32>, #b>
    tile.print "", %l : tensor<32x32xf32, #b>
    %z3 = tile.splat %z : tensor<8x16x32xi8, #a3>
    %zb = tilegpu.convert_layout %z3 : tensor<8x16x32xi8, #a3> -> tensor<8x16x32xi8, #b3>
    tile.print "", %zb : tensor<8x16x32xi8, #b3>
    return
  }
}
