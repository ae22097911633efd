// A vector add: thread and block indices, a bounds check, i32 indices
// widened to i64 for the address arithmetic, global loads and stores. The
// kernel is a `.visible .entry` with its parameters in order.

// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s
// RUN: tile-translate --mlir-to-ptx --arch=sm_80 %s | FileCheck %s --check-prefix=SM80
// RUN: tile-translate --mlir-to-ptx -O0 %s | FileCheck %s --check-prefix=O0
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90 %s -o %t.sm90.ptx && %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90a %s -o %t.sm90a.ptx && %ptxas -arch=sm_90a %t.sm90a.ptx -o %t.sm90a.cubin %}

// CHECK: .version 8.4
// CHECK-NEXT: .target sm_90
// CHECK-NEXT: .address_size 64
// CHECK-LABEL: .visible .entry vadd(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 vadd_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 vadd_param_1,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 vadd_param_2,
// CHECK-NEXT: .param .u32 vadd_param_3
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 128, 1, 1
// CHECK-DAG: mov.u32 %[[TID:r[0-9]+]], %tid.x;
// CHECK-DAG: mov.u32 %[[CTAID:r[0-9]+]], %ctaid.x;
// CHECK-DAG: mov.u32 %[[NTID:r[0-9]+]], %ntid.x;
// CHECK: mad.lo.s32 %[[I:r[0-9]+]], %[[CTAID]], %[[NTID]], %[[TID]];
// CHECK: mul.wide.s32 %rd{{[0-9]+}}, %[[I]], 4;
// CHECK: ld.global.b32 %[[X:r[0-9]+]]
// CHECK: ld.global.b32 %[[Y:r[0-9]+]]
// CHECK: add.f32 %[[S:r[0-9]+]], %[[X]], %[[Y]];
// CHECK: st.global.b32 [%rd{{[0-9]+}}], %[[S]];
// CHECK: ret;

// SM80: .target sm_80
// SM80: .visible .entry vadd(

// O0: .visible .entry vadd(
// O0: st.global.b32

// Offsets of a row-major 2-D access, `row * stride + col`, in i64.
// CHECK-LABEL: .visible .entry copy_row(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 copy_row_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 copy_row_param_1,
// CHECK-NEXT: .param .u64 copy_row_param_2
// CHECK-NEXT: )
// CHECK: mad.lo.s64 %[[OFF:rd[0-9]+]],
// CHECK: shl.b64 %{{rd[0-9]+}}, %[[OFF]], 1;
// CHECK: ld.global.b16
// CHECK: st.global.b16

module {
  llvm.func @vadd(%out: !llvm.ptr<1>, %a: !llvm.ptr<1>, %b: !llvm.ptr<1>,
                  %n: i32)
      attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %ctaid = nvvm.read.ptx.sreg.ctaid.x : i32
    %ntid = nvvm.read.ptx.sreg.ntid.x : i32
    %base = llvm.mul %ctaid, %ntid : i32
    %i = llvm.add %base, %tid : i32
    %in = llvm.icmp "slt" %i, %n : i32
    llvm.cond_br %in, ^body, ^exit
  ^body:
    %i64 = llvm.sext %i : i32 to i64
    %pa = llvm.getelementptr inbounds %a[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %pb = llvm.getelementptr inbounds %b[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %po = llvm.getelementptr inbounds %out[%i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %x = llvm.load %pa : !llvm.ptr<1> -> f32
    %y = llvm.load %pb : !llvm.ptr<1> -> f32
    %s = llvm.fadd %x, %y : f32
    llvm.store %s, %po : f32, !llvm.ptr<1>
    llvm.br ^exit
  ^exit:
    llvm.return
  }

  llvm.func @copy_row(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>, %stride: i64)
      attributes {nvvm.kernel} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %row = nvvm.read.ptx.sreg.ctaid.y : i32
    %row64 = llvm.zext %row : i32 to i64
    %col64 = llvm.zext %tid : i32 to i64
    %rowOffset = llvm.mul %row64, %stride : i64
    %offset = llvm.add %rowOffset, %col64 : i64
    %src = llvm.getelementptr %in[%offset] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
    %dst = llvm.getelementptr %out[%offset] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
    %v = llvm.load %src : !llvm.ptr<1> -> i16
    llvm.store %v, %dst : i16, !llvm.ptr<1>
    llvm.return
  }
}
