// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Elementwise ops apply per register; splat constants fill every register;
// math functions call libdevice.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @ops
  // CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>}
  func.func @ops(%s: f32) attributes {tile.kernel} {
    // CHECK: %[[C:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %c = arith.constant dense<2.0> : tensor<64xf32, #b>
    %x = tile.splat %s : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.fmul %{{.*}}, %[[C]] : f32
    %y = arith.mulf %x, %c : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.call @__nv_expf
    %e = math.exp %y : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.fcmp "olt"
    %m = arith.cmpf olt, %e, %c : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.select
    %w = arith.select %m, %e, %c : tensor<64xi1, #b>, tensor<64xf32, #b>
    // f32 division is div.full.f32 (2 ulp), as in Triton.
    // CHECK-COUNT-2: llvm.inline_asm asm_dialect = att "div.full.f32 $0, $1, $2;", "=f,f,f"
    %q = arith.divf %w, %c : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.fptrunc %{{.*}} : f32 to f16
    %h = arith.truncf %q : tensor<64xf32, #b> to tensor<64xf16, #b>
    tile.print "", %h : tensor<64xf16, #b>
    return
  }
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @casts
  func.func @casts(%p: !tile.ptr<f32>) attributes {tile.kernel} {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #b>
    // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
    %i = tile.ptr_to_int %ps : tensor<32x!tile.ptr<f32>, #b> -> tensor<32xi64, #b>
    // CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
    %q = tile.int_to_ptr %i : tensor<32xi64, #b> -> tensor<32x!tile.ptr<f16>, #b>
    tile.print "", %q : tensor<32x!tile.ptr<f16>, #b>
    return
  }
}
