// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// The FMA dot: operands staged in shared memory, f16 widened to f32, f32
// rounded to tf32 unless ieee.

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 1 : i32, tilegpu.shared = 1024 : i32} {
  // CHECK-LABEL: llvm.func @dot_f16
  func.func @dot_f16(%x: f16, %c: f32) attributes {tile.kernel} {
    %a = tile.splat %x : tensor<16x16xf16, #b>
    %acc = tile.splat %c : tensor<16x16xf32, #b>
    // CHECK: nvvm.barrier0
    // CHECK: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK: llvm.fpext %{{.*}} : f16 to f32
    // CHECK: llvm.intr.fma
    %d = tile.dot %a, %a, %acc {tilegpu.scratch_offset = 0 : i32} : tensor<16x16xf16, #b> * tensor<16x16xf16, #b> -> tensor<16x16xf32, #b>
    tile.print "", %d : tensor<16x16xf32, #b>
    return
  }

  // CHECK-LABEL: llvm.func @dot_tf32
  func.func @dot_tf32(%x: f32) attributes {tile.kernel} {
    %a = tile.splat %x : tensor<16x16xf32, #b>
    // CHECK: cvt.rna.tf32.f32
    %d = tile.dot %a, %a, %a {tilegpu.scratch_offset = 0 : i32} : tensor<16x16xf32, #b> * tensor<16x16xf32, #b> -> tensor<16x16xf32, #b>
    tile.print "", %d : tensor<16x16xf32, #b>
    return
  }

  // CHECK-LABEL: llvm.func @dot_ieee
  func.func @dot_ieee(%x: f32) attributes {tile.kernel} {
    %a = tile.splat %x : tensor<16x16xf32, #b>
    // CHECK-NOT: cvt.rna.tf32.f32
    // CHECK: llvm.intr.fma
    %d = tile.dot %a, %a, %a inputPrecision = ieee {tilegpu.scratch_offset = 0 : i32} : tensor<16x16xf32, #b> * tensor<16x16xf32, #b> -> tensor<16x16xf32, #b>
    tile.print "", %d : tensor<16x16xf32, #b>
    return
  }
}
