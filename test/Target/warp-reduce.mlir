// A warp sum by butterfly shuffles (offsets 16, 8, 4, 2, 1), the pattern
// convert-tilegpu-to-llvm emits for `sum(x, axis=0)` within a warp.

// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90 %s -o %t.sm90.ptx && %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

// CHECK-LABEL: .visible .entry warp_sum(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 warp_sum_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 warp_sum_param_1
// CHECK-NEXT: )
// CHECK-NEXT: .reqntid 32, 1, 1
// CHECK: ld.global.b32 %[[V0:r[0-9]+]],
// CHECK: shfl.sync.bfly.b32 %[[S16:r[0-9]+]], %[[V0]], 16, 31, -1;
// CHECK: add.f32 %[[V1:r[0-9]+]], %[[V0]], %[[S16]];
// CHECK: shfl.sync.bfly.b32 %{{r[0-9]+}}, %[[V1]], 8, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK: st.global.b32

llvm.func @warp_sum(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>)
    attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %lane = nvvm.read.ptx.sreg.tid.x : i32
  %lane64 = llvm.zext %lane : i32 to i64
  %src = llvm.getelementptr %in[%lane64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v0 = llvm.load %src : !llvm.ptr<1> -> f32
  %mask = llvm.mlir.constant(-1 : i32) : i32
  %clamp = llvm.mlir.constant(31 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c2 = llvm.mlir.constant(2 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %s16 = nvvm.shfl.sync bfly %mask, %v0, %c16, %clamp : f32 -> f32
  %v1 = llvm.fadd %v0, %s16 : f32
  %s8 = nvvm.shfl.sync bfly %mask, %v1, %c8, %clamp : f32 -> f32
  %v2 = llvm.fadd %v1, %s8 : f32
  %s4 = nvvm.shfl.sync bfly %mask, %v2, %c4, %clamp : f32 -> f32
  %v3 = llvm.fadd %v2, %s4 : f32
  %s2 = nvvm.shfl.sync bfly %mask, %v3, %c2, %clamp : f32 -> f32
  %v4 = llvm.fadd %v3, %s2 : f32
  %s1 = nvvm.shfl.sync bfly %mask, %v4, %c1, %clamp : f32 -> f32
  %v5 = llvm.fadd %v4, %s1 : f32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %first = llvm.icmp "eq" %lane, %zero : i32
  llvm.cond_br %first, ^store, ^exit
^store:
  llvm.store %v5, %out : f32, !llvm.ptr<1>
  llvm.br ^exit
^exit:
  llvm.return
}
