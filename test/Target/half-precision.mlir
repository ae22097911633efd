// f16 and bf16 loads, widening to f32, f32 arithmetic and rounding back,
// the way `.tile` code computes on f16/bf16 inputs; and f16 arithmetic,
// which sm_80+ has natively.

// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s
// RUN: tile-translate --mlir-to-ptx --arch=sm_80 %s | FileCheck %s
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90 %s -o %t.sm90.ptx && %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

// CHECK-LABEL: .visible .entry scale_f16_bf16(
// CHECK: .param .f32 scale_f16_bf16_param_2
// CHECK-DAG: ld.global.b16 %[[H:rs[0-9]+]],
// CHECK-DAG: ld.global.b16 %[[B:rs[0-9]+]],
// CHECK-DAG: cvt.f32.f16 %{{r[0-9]+}}, %[[H]];
// CHECK-DAG: cvt.f32.bf16 %{{r[0-9]+}}, %[[B]];
// CHECK: mul.f32
// CHECK-DAG: cvt.rn.f16.f32
// CHECK-DAG: cvt.rn.bf16.f32
// CHECK: st.global.b16
// CHECK: st.global.b16

// f16 parameters are passed as 2-byte, 2-aligned byte arrays.
// CHECK-LABEL: .visible .entry add_f16(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 add_f16_param_0,
// CHECK-NEXT: .param .align 2 .b8 add_f16_param_1[2],
// CHECK-NEXT: .param .align 2 .b8 add_f16_param_2[2]
// CHECK-NEXT: )
// CHECK: add.f16
llvm.func @scale_f16_bf16(%h: !llvm.ptr<1>, %b: !llvm.ptr<1>, %scale: f32)
    attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %tid64 = llvm.zext %tid : i32 to i64
  %ph = llvm.getelementptr %h[%tid64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  %pb = llvm.getelementptr %b[%tid64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
  %xh = llvm.load %ph : !llvm.ptr<1> -> f16
  %xb = llvm.load %pb : !llvm.ptr<1> -> bf16
  %fh = llvm.fpext %xh : f16 to f32
  %fb = llvm.fpext %xb : bf16 to f32
  %sh = llvm.fmul %fh, %scale : f32
  %sb = llvm.fmul %fb, %scale : f32
  %yh = llvm.fptrunc %sh : f32 to f16
  %yb = llvm.fptrunc %sb : f32 to bf16
  llvm.store %yh, %ph : f16, !llvm.ptr<1>
  llvm.store %yb, %pb : bf16, !llvm.ptr<1>
  llvm.return
}

llvm.func @add_f16(%out: !llvm.ptr<1>, %a: f16, %b: f16)
    attributes {nvvm.kernel} {
  %s = llvm.fadd %a, %b : f16
  llvm.store %s, %out : f16, !llvm.ptr<1>
  llvm.return
}
