// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | tile-translate --mlir-to-ptx --arch=sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// wgmma with A from registers: an f16 accumulator converted to the A
// operand layout in registers (no shared memory, no barrier) feeds each
// k-step as four 32-bit registers (pairs of halves), B from shared memory
// by descriptor. An asynchronous one does not wait: its wait op does
// (ptxas keeps A's registers untouched until the tensor cores read them).

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#sb = #tilegpu.nvmma_shared<{swizzle = 32, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // Shared memory holds B alone (32 x 16 halves); its staging has the only
  // two barriers.
  // CHECK: module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 1024 : i32}
  // CHECK-LABEL: llvm.func @wgmma_register_a
  func.func @wgmma_register_a(%x: f32, %y: f16, %z: f32) attributes {tile.kernel} {
    %s = tile.splat %x : tensor<64x32xf32, #mma>
    %p = arith.truncf %s : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
    // CHECK-COUNT-2: nvvm.barrier0
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
    %pa = tilegpu.convert_layout %p : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #a>
    %bv = tile.splat %y : tensor<32x16xf16, #b>
    %sb = tilegpu.local_alloc %bv : (tensor<32x16xf16, #b>) -> !tilegpu.memdesc<32x16xf16, #sb>
    %c = tile.splat %z : tensor<64x16xf32, #mma>
    // CHECK: "wgmma.fence.sync.aligned;"
    // One 64-row repetition, two k-steps of four A registers and a B
    // descriptor each; no transpose flag for A.
    // CHECK: "{\0A.reg .pred p;\0Asetp.ne.b32 p, $18, 0;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$8, $9, $10, $11}, $12, p, 1, 1, 1;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$13, $14, $15, $16}, $17, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,r,r,r,r,l,r,r,r,r,l,r,0,1,2,3,4,5,6,7"
    // CHECK-NOT: wgmma.mma_async
    // CHECK: "wgmma.commit_group.sync.aligned;"
    // CHECK-NOT: wgmma.wait_group
    // CHECK: llvm.call @vprintf
    // CHECK: "wgmma.wait_group.sync.aligned 1;"
    %d = tilegpu.warpgroup_dot %pa, %sb, %c {isAsync} : tensor<64x32xf16, #a>, !tilegpu.memdesc<32x16xf16, #sb> -> tensor<64x16xf32, #mma>
    %seven = arith.constant 7 : i32
    tile.print "", %seven : i32
    %w = tilegpu.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<64x16xf32, #mma>
    tile.print "", %w : tensor<64x16xf32, #mma>
    return
  }
}
