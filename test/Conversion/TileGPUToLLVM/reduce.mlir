// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Reductions: registers, then lanes (shfl.sync.bfly), then warps through
// shared memory between barriers.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 32 : i32} {
  // CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  // CHECK-LABEL: llvm.func @sum
  func.func @sum(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<1024xf32, #b>
    // CHECK-COUNT-7: llvm.fadd
    // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
    // CHECK-COUNT-4: nvvm.shfl.sync bfly
    // CHECK: nvvm.barrier0
    // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
    %s = tile.reduce sum %v axis = 0 {tilegpu.scratch_offset = 0 : i32} : tensor<1024xf32, #b> -> f32
    tile.print "", %s : f32
    return
  }
}

// -----

// One warp, lanes along the reduced axis only: no shared memory.
#p = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #p}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @argmax_rows
  func.func @argmax_rows(%x: i32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<4x8xi32, #p>
    // The index travels with the value: 3 lane steps of 2 shuffles each.
    // CHECK-COUNT-6: nvvm.shfl.sync bfly
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.icmp "sgt"
    %m = tile.reduce argmax %v axis = 1 : tensor<4x8xi32, #p> -> tensor<4xi32, #s>
    tile.print "", %m : tensor<4xi32, #s>
    return
  }
}
