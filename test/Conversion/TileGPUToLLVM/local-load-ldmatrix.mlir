// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -o %t.mlir && tile-translate %t.mlir --mlir-to-ptx --arch=sm_80 -o %t.ptx && %ptxas -arch=sm_80 %t.ptx -o %t.cubin %}
// tilegpu.local_load from a swizzled (#tilegpu.nvmma_shared) tile into
// mma.sync operand layouts: 16-bit fragments with ldmatrix alone (no
// stores, no barrier): .x4 per 16 x 16 fragment of A and per pair of 16 x 8
// fragments of B, .x2 for a lone B fragment; read as stored where the tile
// runs along K (A row-major, B transposed), .trans where it runs along M or
// N. Other layouts read element by element.

#sa = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#sb = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// A stored contiguous along M, B along K: A transposed, B as stored. The
// swizzle: chunk (byte offset bits 4..6) XOR 128-byte row (bits 7..9).
#ta0 = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#ta = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
#tb = #tilegpu.nvmma_shared<{swizzle = 32, order = [0, 1]}>
#mma2 = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#ea = #tilegpu.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>
#eb = #tilegpu.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>

// tf32 operands (f32, kWidth 1): one ld.shared per element.
#u = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma3 = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#fa = #tilegpu.dot_op<{opIdx = 0, parent = #mma3, kWidth = 1}>
#fb = #tilegpu.dot_op<{opIdx = 1, parent = #mma3, kWidth = 1}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @row_major
  func.func @row_major(%out: !tile.ptr<f32>) attributes {tile.kernel} {
    %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #sa>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x64xf16, #sb>
    // A: 2 row repetitions x 2 k-steps; B: 2 pairs of N tiles x 2 k-steps.
    // CHECK-NOT: nvvm.barrier0
    // CHECK-NOT: llvm.store
    // CHECK-COUNT-4: "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [ $4 + 0 ];", "=r,=r,=r,=r,r"
    // CHECK-NOT: ldmatrix
    // CHECK-COUNT-4: "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [ $4 + 0 ];", "=r,=r,=r,=r,r"
    // CHECK-NOT: ldmatrix
    // CHECK-COUNT-16: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
    %x = tilegpu.local_load %a : !tilegpu.memdesc<64x32xf16, #sa> -> tensor<64x32xf16, #da>
    %y = tilegpu.local_load %b : !tilegpu.memdesc<32x64xf16, #sb> -> tensor<32x64xf16, #db>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.dot %x, %y, %z : tensor<64x32xf16, #da> * tensor<32x64xf16, #db> -> tensor<64x64xf32, #mma>
    %p = tile.splat %out : tensor<64x64x!tile.ptr<f32>, #mma>
    tile.store %p, %d : tensor<64x64x!tile.ptr<f32>, #mma>
    return
  }

  // CHECK-LABEL: llvm.func @transposed
  func.func @transposed(%out: !tile.ptr<f32>) attributes {tile.kernel} {
    // A through a transposed view of a 16 x 64 tile (nothing emitted).
    %a0 = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x64xf16, #ta0>
    %a = tilegpu.memdesc_trans %a0 : !tilegpu.memdesc<16x64xf16, #ta0> -> !tilegpu.memdesc<64x16xf16, #ta>
    %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x16xf16, #tb>
    // CHECK: llvm.lshr %{{.*}}, %{{.*}} : i32
    // CHECK: llvm.xor
    // CHECK-COUNT-2: "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [ $4 + 0 ];"
    // CHECK-NOT: ldmatrix
    // One N tile per warp: a lone B fragment.
    // CHECK: "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {$0, $1}, [ $2 + 0 ];", "=r,=r,r"
    // CHECK-NOT: ldmatrix
    %x = tilegpu.local_load %a : !tilegpu.memdesc<64x16xf16, #ta> -> tensor<64x16xf16, #ea>
    %y = tilegpu.local_load %b : !tilegpu.memdesc<16x16xf16, #tb> -> tensor<16x16xf16, #eb>
    %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma2>
    %d = tile.dot %x, %y, %z : tensor<64x16xf16, #ea> * tensor<16x16xf16, #eb> -> tensor<64x16xf32, #mma2>
    %p = tile.splat %out : tensor<64x16x!tile.ptr<f32>, #mma2>
    tile.store %p, %d : tensor<64x16x!tile.ptr<f32>, #mma2>
    return
  }

  // CHECK-LABEL: llvm.func @tf32
  func.func @tf32(%out: !tile.ptr<f32>) attributes {tile.kernel} {
    %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<32x32xf32, #u>
    // CHECK-NOT: ldmatrix
    // A: 32 x 32 over 2 x 2 warps: 16 x 32 per warp, 4 k-steps of 8, 4
    // registers each; B: 32 x 16 per warp, 2 N tiles x 4 k-steps x 2.
    // CHECK-COUNT-32: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
    // CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
    // CHECK: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
    %x = tilegpu.local_load %a : !tilegpu.memdesc<32x32xf32, #u> -> tensor<32x32xf32, #fa>
    %y = tilegpu.local_load %a : !tilegpu.memdesc<32x32xf32, #u> -> tensor<32x32xf32, #fb>
    %z = arith.constant dense<0.0> : tensor<32x32xf32, #mma3>
    %d = tile.dot %x, %y, %z : tensor<32x32xf32, #fa> * tensor<32x32xf32, #fb> -> tensor<32x32xf32, #mma3>
    %p = tile.splat %out : tensor<32x32x!tile.ptr<f32>, #mma3>
    tile.store %p, %d : tensor<32x32x!tile.ptr<f32>, #mma3>
    return
  }
}
