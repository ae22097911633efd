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
