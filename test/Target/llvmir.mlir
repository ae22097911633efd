// The LLVM IR the PTX is made from: the NVPTX triple and data layout (with
// 32-bit pointers to shared, constant and local memory: -nvptx-short-ptr),
// `nvvm.kernel` as the `ptx_kernel` calling convention, block sizes as
// function attributes, and non-kernel functions internalized (so -O3
// inlines and drops them, -O0 keeps them as `.func`, not `.visible .func`).

// RUN: tile-translate --mlir-to-llvmir -O0 %s | FileCheck %s
// RUN: tile-translate --mlir-to-ptx -O0 %s | FileCheck %s --check-prefix=PTX-O0
// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s --check-prefix=PTX-O3
// RUN: tile-translate --mlir-to-ptx --fp-fusion=false %s | FileCheck %s --check-prefix=NOFUSE

// CHECK: target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
// CHECK: target triple = "nvptx64-nvidia-cuda"
// CHECK: define internal float @twice(float
// CHECK: define ptx_kernel void @scale(ptr addrspace(1) %{{.*}}) #[[ATTRS:[0-9]+]]
// CHECK: call float @twice(
// CHECK: attributes #[[ATTRS]] = { "nvvm.maxntid"="256,1,1" }

// PTX-O0: .func  (.param .b32 func_retval0) twice(
// PTX-O0: .visible .entry scale(
// PTX-O0: .maxntid 256, 1, 1
// PTX-O0: call.uni (retval0), twice,

// PTX-O3-NOT: .func
// PTX-O3: .visible .entry scale(
// PTX-O3-NOT: call
// PTX-O3: add.f32
// PTX-O3-NOT: .func

// Without fp fusion every add is rounded on its own (.rn keeps ptxas from
// contracting it).
// NOFUSE: add.rn.f32

llvm.func @twice(%x: f32) -> f32 {
  %0 = llvm.fadd %x, %x : f32
  llvm.return %0 : f32
}

llvm.func @scale(%p: !llvm.ptr<1>)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>} {
  %x = llvm.load %p : !llvm.ptr<1> -> f32
  %y = llvm.call @twice(%x) : (f32) -> f32
  llvm.store %y, %p : f32, !llvm.ptr<1>
  llvm.return
}
