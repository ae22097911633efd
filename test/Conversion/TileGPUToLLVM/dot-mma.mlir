// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Dots on tensor cores: one mma.sync per 16 x 8 tile and k-step, operands
// packed two 16-bit elements per 32-bit register.

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#at = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#bt = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // 16 x 16 over k 32: 2 n-tiles x 2 k-steps.
  // CHECK-LABEL: llvm.func @f16
  func.func @f16(%x: f16, %z: f32) attributes {tile.kernel} {
    %a = tile.splat %x : tensor<16x32xf16, #a>
    %b = tile.splat %x : tensor<32x16xf16, #b>
    %c = tile.splat %z : tensor<16x16xf32, #mma>
    // CHECK: llvm.bitcast %{{.*}} : vector<2xf16> to i32
    // CHECK-COUNT-4: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3"
    %d = tile.dot %a, %b, %c : tensor<16x32xf16, #a> * tensor<32x16xf16, #b> -> tensor<16x16xf32, #mma>
    tile.print "", %d : tensor<16x16xf32, #mma>
    return
  }

  // CHECK-LABEL: llvm.func @bf16
  func.func @bf16(%x: bf16, %z: f32) attributes {tile.kernel} {
    %a = tile.splat %x : tensor<16x16xbf16, #a>
    %b = tile.splat %x : tensor<16x16xbf16, #b>
    %c = tile.splat %z : tensor<16x16xf32, #mma>
    // CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
    %d = tile.dot %a, %b, %c : tensor<16x16xbf16, #a> * tensor<16x16xbf16, #b> -> tensor<16x16xf32, #mma>
    tile.print "", %d : tensor<16x16xf32, #mma>
    return
  }

  // CHECK-LABEL: llvm.func @tf32
  func.func @tf32(%x: f32) attributes {tile.kernel} {
    %a = tile.splat %x : tensor<16x16xf32, #at>
    %b = tile.splat %x : tensor<16x16xf32, #bt>
    %c = tile.splat %x : tensor<16x16xf32, #mma>
    // CHECK-COUNT-4: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
    %d = tile.dot %a, %b, %c : tensor<16x16xf32, #at> * tensor<16x16xf32, #bt> -> tensor<16x16xf32, #mma>
    tile.print "", %d : tensor<16x16xf32, #mma>
    return
  }
}
