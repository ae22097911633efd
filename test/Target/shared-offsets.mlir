// Shared-memory addresses of rows a constant apart, `((row | 8) * 40 + col)`
// as tilec's lowering computes them, share one base register in the PTX. The
// -O3 pipeline distributes the multiplication over the `or disjoint` (which
// InstCombine leaves alone when `row | 8` has other uses), one `mul` is left
// (by 80: 40 halves of 2 bytes, the byte offset of a row, as shared-memory
// pointers are 32 bits), and NVPTX folds the constants into the addressing
// mode, `[%r+640]` (8 rows * 40 halves * 2 bytes). -O0 keeps the three
// multiplications.

// RUN: tile-translate --mlir-to-llvmir %s | FileCheck %s
// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s --check-prefix=PTX
// RUN: tile-translate --mlir-to-llvmir -O0 %s | FileCheck %s --check-prefix=O0
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90 %s -o %t.sm90.ptx && %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

// CHECK-LABEL: define ptx_kernel void @rows(
// CHECK-NOT: mul {{.*}}i32 %{{.*}}, {{40|80}}
// CHECK: mul nuw nsw i32 %{{.*}}, 80
// CHECK-NOT: mul {{.*}}i32 %{{.*}}, {{40|80}}
// CHECK: ret void

// PTX-LABEL: .visible .entry rows(
// PTX: st.shared.b16 [%r{{[0-9]+}}], %rs{{[0-9]+}};
// PTX: st.shared.b16 [[[BASE:%r[0-9]+]]+640], %rs{{[0-9]+}};
// PTX: st.shared.b16 [[[BASE]]+1280], %rs{{[0-9]+}};

// O0-LABEL: define ptx_kernel void @rows(
// O0: or disjoint i32 %{{.*}}, 8
// O0: mul nuw i32 %{{.*}}, 40

llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

llvm.func @rows(%out: !llvm.ptr<1>, %a: i16, %b: i16, %c: i16)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c31 = llvm.mlir.constant(31 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i32) : i32
  %c40 = llvm.mlir.constant(40 : i32) : i32
  %row = llvm.lshr %tid, %c5 : i32
  %col = llvm.and %tid, %c31 : i32
  %row8 = llvm.or disjoint %row, %c8 : i32
  %row16 = llvm.or disjoint %row, %c16 : i32
  %smem = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // Row `row`.
  %m0 = llvm.mul %row, %c40 overflow<nuw> : i32
  %i0 = llvm.add %m0, %col overflow<nuw> : i32
  %z0 = llvm.zext nneg %i0 : i32 to i64
  %p0 = llvm.getelementptr %smem[%z0] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i16
  llvm.store %a, %p0 : i16, !llvm.ptr<3>
  // Row `row | 8`.
  %m1 = llvm.mul %row8, %c40 overflow<nuw> : i32
  %i1 = llvm.add %m1, %col overflow<nuw> : i32
  %z1 = llvm.zext nneg %i1 : i32 to i64
  %p1 = llvm.getelementptr %smem[%z1] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i16
  llvm.store %b, %p1 : i16, !llvm.ptr<3>
  // Row `row | 16`.
  %m2 = llvm.mul %row16, %c40 overflow<nuw> : i32
  %i2 = llvm.add %m2, %col overflow<nuw> : i32
  %z2 = llvm.zext nneg %i2 : i32 to i64
  %p2 = llvm.getelementptr %smem[%z2] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i16
  llvm.store %c, %p2 : i16, !llvm.ptr<3>
  // Other uses of the rows keep InstCombine from distributing on its own.
  %r8 = llvm.zext %row8 : i32 to i64
  %q8 = llvm.getelementptr %out[%r8] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  llvm.store %row8, %q8 : i32, !llvm.ptr<1>
  %r16 = llvm.zext %row16 : i32 to i64
  %q16 = llvm.getelementptr %out[%r16] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  llvm.store %row16, %q16 : i32, !llvm.ptr<1>
  llvm.return
}
