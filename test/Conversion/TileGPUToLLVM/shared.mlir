// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Layout conversions, trans and reshape go through shared memory.

#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#one = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32, tilegpu.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @convert
  func.func @convert(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<32x32xf32, #a>
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-32: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
    %c = tilegpu.convert_layout %v {tilegpu.scratch_offset = 0 : i32} : tensor<32x32xf32, #a> -> tensor<32x32xf32, #c>
    // CHECK: nvvm.barrier0
    %t = tile.trans %c {tilegpu.scratch_offset = 0 : i32} : tensor<32x32xf32, #c> -> tensor<32x32xf32, #c>
    // CHECK: nvvm.barrier0
    %r = tile.reshape %t {tilegpu.scratch_offset = 0 : i32} : tensor<32x32xf32, #c> -> tensor<1024xf32, #one>
    tile.print "", %r : tensor<1024xf32, #one>
    return
  }
}

// -----

// 2-D conversions whose rows are whole 32-byte units pad each row by 16
// bytes (rows of 64 halves are 72 apart: the 8 rows an mma fragment writes
// at once fall in distinct banks) and access aligned runs of a row as one
// vector: the accumulator's column pairs as 4 bytes, the blocked layout's 8
// halves as 16.
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 9216 : i32} {
  // CHECK-LABEL: llvm.func @padded_rows
  func.func @padded_rows(%x: f16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x64xf16, #mma>
    // CHECK: llvm.mlir.constant(72 : i32)
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
    // CHECK-NOT: llvm.store
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
    // CHECK-NOT: llvm.load
    %c = tilegpu.convert_layout %v {tilegpu.scratch_offset = 0 : i32} : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #rows>
    tile.print "", %c : tensor<64x64xf16, #rows>
    return
  }
}
