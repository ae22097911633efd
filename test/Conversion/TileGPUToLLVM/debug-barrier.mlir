// RUN: tile-opt %s --convert-tilegpu-to-llvm | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s --convert-tilegpu-to-llvm | tile-translate --mlir-to-ptx --arch=sm_80 -o %t.ptx && %ptxas -arch=sm_80 %t.ptx -o %t.cubin %}
// tile.debug_barrier (Triton's tl.debug_barrier): a barrier of the whole
// program, between the accesses around it.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @debug_barrier
  // CHECK: "@$2 st.global.b32
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: "ld.global.b32
  func.func @debug_barrier(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %v: f32) attributes {tile.kernel} {
    tile.store %p, %v : !tile.ptr<f32>
    tile.debug_barrier
    %x = tile.load %q : !tile.ptr<f32>
    tile.store %p, %x : !tile.ptr<f32>
    return
  }
}
