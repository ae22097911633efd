// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Program ids, ranges (start + the element's index from the layout),
// broadcast and expand_dims (registers picked from the source).

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {tilegpu.num_warps = 2 : i32} {
  // CHECK-LABEL: llvm.func @range
  func.func @range() attributes {tile.kernel} {
    // The warp id, once at the entry, made uniform: shfl.sync.idx of
    // tid.x >> 5 from lane 0.
    // CHECK: %[[TID0:.*]] = nvvm.read.ptx.sreg.tid.x : i32
    // CHECK: %[[WARP:.*]] = llvm.lshr %[[TID0]], %{{.*}} : i32
    // CHECK: %[[UWARP:.*]] = nvvm.shfl.sync idx %{{.*}}, %[[WARP]], %{{.*}}, %{{.*}} : i32 -> i32
    // CHECK: nvvm.read.ptx.sreg.ctaid.y : i32
    %pid = tile.program_id 1 : i32
    // CHECK: nvvm.read.ptx.sreg.nctaid.z : i32
    %n = tile.num_programs 2 : i32
    // Two registers per thread, 2 x 32 x 2 = 128 per tile, 256 elements:
    // register k holds (k / 2) * 128 + k % 2 + warp * 64 + lane * 2 + 16.
    // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
    // CHECK-DAG: llvm.and %[[TID]], %{{.*}} : i32
    // CHECK-DAG: llvm.and %[[UWARP]], %{{.*}} : i32
    // CHECK-COUNT-4: llvm.add %{{.*}}, %{{.*}} : i32
    %r = tile.make_range {end = 272 : i32, start = 16 : i32} : tensor<256xi32, #b>
    tile.print "", %pid, %n, %r : i32, i32, tensor<256xi32, #b>
    return
  }
}

// -----

#p = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 0, parent = #p}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @expand_broadcast
  func.func @expand_broadcast(%x: f32) attributes {tile.kernel} {
    // 16 columns over 8 lanes x 2: 2 registers; the result [4, 16] has 2.
    %v = tile.splat %x : tensor<16xf32, #s>
    // CHECK-NOT: llvm.inline_asm
    // CHECK-NOT: nvvm.shfl
    %e = tile.expand_dims %v {axis = 0 : i32} : tensor<16xf32, #s> -> tensor<1x16xf32, #p>
    %b = tile.broadcast %e : tensor<1x16xf32, #p> -> tensor<4x16xf32, #p>
    tile.print "", %b : tensor<4x16xf32, #p>
    return
  }
}
