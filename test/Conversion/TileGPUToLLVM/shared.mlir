// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Layout conversions, trans and reshape that registers cannot do go
// through shared memory, in a scratch layout chosen from both layouts
// (SharedExchangeLayout.h): vectors over the bits the layouts hold in
// registers, an XOR swizzle keeping each access in distinct banks.

#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#one = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32, tilegpu.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @convert
  func.func @convert(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<32x32xf32, #a>
    // Columns to rows: each thread stores its column as 8 vectors of 4
    // (the destination's lanes read them in distinct banks), then loads its
    // row element by element.
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
    // CHECK-NOT: llvm.store
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
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

// An mma accumulator to 16-byte rows: both hold column pairs in registers,
// the rows also the next 3 pairs, so the stores move 2 halves and the loads
// 8 (16 bytes, consecutive registers). Addresses XOR a swizzle into the
// thread's offset.
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 8192 : i32} {
  // CHECK-LABEL: llvm.func @accumulator_to_rows
  func.func @accumulator_to_rows(%x: f16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x64xf16, #mma>
    // CHECK: nvvm.barrier0
    // CHECK: llvm.xor
    // CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<3>
    // CHECK-NOT: llvm.store
    // CHECK: nvvm.barrier0
    // CHECK: llvm.xor
    // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
    // CHECK-NOT: llvm.load
    %c = tilegpu.convert_layout %v {tilegpu.scratch_offset = 0 : i32} : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #rows>
    tile.print "", %c : tensor<64x64xf16, #rows>
    return
  }
}
