// Calls to libdevice (`__nv_expf`, `__nv_erff`, what convert-gpu-to-nvvm
// emits for math.exp and math.erf) are linked from libdevice.10.bc and
// inlined: the PTX calls nothing, defines only the kernel, and libdevice's
// `__nvvm_reflect` queries are folded.

// REQUIRES: libdevice
// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s
// RUN: tile-translate --mlir-to-ptx -O0 %s | FileCheck %s --check-prefix=O0
// RUN: tile-translate --mlir-to-llvmir %s | FileCheck %s --check-prefix=IR
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90 %s -o %t.sm90.ptx && %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx -O0 %s -o %t.O0.ptx && %ptxas -arch=sm_90 %t.O0.ptx -o %t.O0.cubin %}

// CHECK-NOT: .func
// CHECK-NOT: __nv_
// CHECK-LABEL: .visible .entry gelu_exp(
// CHECK-NOT: call
// CHECK-NOT: __nv_
// CHECK-NOT: __nvvm_reflect
// CHECK: ex2.approx
// CHECK: ret;
// CHECK-NOT: .func

// libdevice's functions are `alwaysinline`: even -O0 leaves no call.
// O0-NOT: .func
// O0: .visible .entry gelu_exp(
// O0-NOT: call
// O0: ex2.approx
// O0-NOT: .func

// IR: target triple = "nvptx64-nvidia-cuda"
// IR: define ptx_kernel void @gelu_exp(
// IR-NOT: call {{.*}}@__nv_
// IR-NOT: define {{.*}}@__nv_
// IR: !{i32 4, !"nvvm-reflect-ftz", i32 0}

llvm.func @__nv_expf(f32) -> f32
llvm.func @__nv_erff(f32) -> f32

llvm.func @gelu_exp(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>)
    attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %tid64 = llvm.zext %tid : i32 to i64
  %src = llvm.getelementptr %in[%tid64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %x = llvm.load %src : !llvm.ptr<1> -> f32
  %e = llvm.call @__nv_expf(%x) : (f32) -> f32
  %erf = llvm.call @__nv_erff(%x) : (f32) -> f32
  %sum = llvm.fadd %e, %erf : f32
  %dst = llvm.getelementptr %out[%tid64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %sum, %dst : f32, !llvm.ptr<1>
  llvm.return
}
