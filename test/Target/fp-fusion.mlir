// Floating-point contraction (PTXOptions::fpFusion, `--fp-fusion`): on by
// default, as Triton's enable_fp_fusion and nvcc's -fmad=true. A multiply
// feeding an add becomes one fma, and the remaining multiplies and adds are
// printed without a rounding modifier so that ptxas may contract them too.
// Off, each is rounded on its own: `.rn` forbids ptxas to fuse.

// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s --check-prefix=FUSE
// RUN: tile-translate --mlir-to-ptx --fp-fusion=false %s | FileCheck %s --check-prefix=NOFUSE
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90a %s -o %t.sm90a.ptx && %ptxas -arch=sm_90a %t.sm90a.ptx -o %t.sm90a.cubin %}

// FUSE-LABEL: .visible .entry axpy(
// FUSE: fma.rn.f32
// FUSE-NOT: mul
// FUSE: mul.f32
// FUSE-NOT: .rn.f32
// FUSE: ret;

// NOFUSE-LABEL: .visible .entry axpy(
// NOFUSE-NOT: fma
// NOFUSE: mul.rn.f32
// NOFUSE: add.rn.f32
// NOFUSE: mul.rn.f32
// NOFUSE-NOT: fma
// NOFUSE: ret;

llvm.func @axpy(%p: !llvm.ptr<1>, %a: f32)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %x = llvm.load %p : !llvm.ptr<1> -> f32
  %ax = llvm.fmul %a, %x : f32
  %y = llvm.fadd %ax, %x : f32
  %z = llvm.fmul %y, %y : f32
  llvm.store %z, %p : f32, !llvm.ptr<1>
  llvm.return
}
