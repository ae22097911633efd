// 64-bit products of two 32-bit words (a program id times a stride
// parameter, as tile-promote-offsets writes `pid * stride` exactly) are one
// mul.wide.s32 in a function without loops, a constant factor an immediate:
// NVPTX's instruction selection sees the program id's extension as a zero
// extension (its range) and the parameter's folded into ld.param.s32, and
// made a mul.lo.s64 of two converted operands (WidenProductsOfWordsPass,
// lib/Target/IndexArithmetic.h). A zero extension of a value that may be
// negative as a signed word, and the products of a function with a loop
// (as ChainStridedProductsPass: how ptxas schedules a matmul's loop
// follows its prologue), stay 64-bit multiplies.

// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s
// RUN: tile-translate --mlir-to-ptx -O0 %s | FileCheck %s --check-prefix=O0
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90a %s -o %t.sm90.ptx && %ptxas -arch=sm_90a %t.sm90.ptx -o %t.sm90.cubin %}

// CHECK-LABEL: .visible .entry words(
// CHECK-DAG: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK-DAG: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, {{[0-9]+}};
// CHECK-DAG: mul.lo.s64
// CHECK: ret;
// O0-LABEL: .visible .entry words(
// O0-NOT: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// O0: ret;
llvm.func @words(%p: !llvm.ptr<1>, %stride: i32, %u: i32) attributes {nvvm.kernel} {
  %pid = nvvm.read.ptx.sreg.ctaid.y : i32
  %e = llvm.zext %pid : i32 to i64
  %s = llvm.sext %stride : i32 to i64
  %o = llvm.mul %e, %s : i64
  %q = llvm.getelementptr %p[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  %c12 = llvm.mlir.constant(12 : i64) : i64
  %o2 = llvm.mul %s, %c12 : i64
  %q2 = llvm.getelementptr %q[%o2] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  // %u may be negative as a signed word: its zero extension times the
  // stride is not a signed word product.
  %ue = llvm.zext %u : i32 to i64
  %o3 = llvm.mul %ue, %s : i64
  %q3 = llvm.getelementptr %q2[%o3] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  %z = llvm.mlir.constant(0.0 : f16) : f16
  llvm.store %z, %q3 : f16, !llvm.ptr<1>
  llvm.return
}

// CHECK-LABEL: .visible .entry in_loop(
// CHECK-NOT: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK: ret;
llvm.func @in_loop(%p: !llvm.ptr<1>, %stride: i32, %n: i32) attributes {nvvm.kernel} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %z = llvm.mlir.constant(0.0 : f16) : f16
  %s = llvm.sext %stride : i32 to i64
  %pid = nvvm.read.ptx.sreg.ctaid.x : i32
  %pe = llvm.zext %pid : i32 to i64
  %base = llvm.mul %pe, %s : i64
  %p0 = llvm.getelementptr %p[%base] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  llvm.store %z, %p0 : f16, !llvm.ptr<1>
  llvm.br ^loop(%c0 : i32)
^loop(%i: i32):
  %ie = llvm.sext %i : i32 to i64
  %ii = llvm.mul %ie, %ie : i64
  %o = llvm.mul %ii, %s : i64
  %q = llvm.getelementptr %p[%o] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  llvm.store %z, %q : f16, !llvm.ptr<1>
  %next = llvm.add %i, %c1 : i32
  %more = llvm.icmp "slt" %next, %n : i32
  llvm.cond_br %more, ^loop(%next : i32), ^done
^done:
  llvm.return
}
