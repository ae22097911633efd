// The rows a thread holds of a tile are its row plus constants; their
// 64-bit offsets `zext(row | 4k) * stride` (`rows[:, None] * stride` with a
// run-time stride, as tilec's lowering computes them) become one product
// and, as every product only addresses the same array, a tree of address
// increments: each address one `getelementptr` by `4 * stride` or
// `8 * stride` from another (row 12 is row 4 plus 8 rows) (ChainStridedProductsPass, lib/Target/
// IndexArithmetic.h). In a function with a loop, or at -O0, each row keeps
// its own product.

// RUN: tile-translate --mlir-to-llvmir %s | FileCheck %s
// RUN: tile-translate --mlir-to-llvmir -O0 %s | FileCheck %s --check-prefix=O0
// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s --check-prefix=PTX
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90a %s -o %t.sm90.ptx && %ptxas -arch=sm_90a %t.sm90.ptx -o %t.sm90.cubin %}

// The products are 32-bit words' (the thread's row, the stride), so each is
// a mul.wide.s32 (WidenProductsOfWordsPass, test/Target/wide-products.mlir).
// CHECK-LABEL: define ptx_kernel void @rows(
// CHECK: %[[P0:.*]] = call i64 asm "mul.wide.s32 $0, $1, $2;", "=l,r,r"(i32 %{{.*}}, i32 %[[S:[0-9]+]])
// CHECK: %[[A0:.*]] = getelementptr half, ptr addrspace(1) %{{.*}}, i64 %[[P0]]
// CHECK-DAG: %[[S4:.*]] = call i64 asm "mul.wide.s32 $0, $1, $2;", "=l,r,n"(i32 %[[S]], i32 4)
// CHECK-DAG: %[[S8:.*]] = call i64 asm "mul.wide.s32 $0, $1, $2;", "=l,r,n"(i32 %[[S]], i32 8)
// CHECK-DAG: %[[A1:.*]] = getelementptr half, ptr addrspace(1) %[[A0]], i64 %[[S4]]
// CHECK-DAG: getelementptr half, ptr addrspace(1) %[[A0]], i64 %[[S8]]
// CHECK-DAG: getelementptr half, ptr addrspace(1) %[[A1]], i64 %[[S8]]
// CHECK-NOT: "=l,r,r"(i32 %{{.*}}, i32 %[[S]])
// CHECK: ret void

// CHECK-LABEL: define ptx_kernel void @rows_in_loop_kernel(
// CHECK-COUNT-2: mul nsw i64 %{{.*}}, %{{.*}}
// CHECK: ret void

// O0-LABEL: define ptx_kernel void @rows(
// O0-COUNT-4: mul {{.*}}i64 %{{.*}}, %{{.*}}
// O0: ret void

// One product of the row and the stride, no more per row (and no 64-bit
// multiply: the thread's row and the stride are 32-bit words,
// WidenProductsOfWordsPass, test/Target/wide-products.mlir).
// PTX-LABEL: .visible .entry rows(
// PTX-NOT: mul.lo.s64
// PTX: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX-NOT: mul.wide.s32 %rd{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// PTX-NOT: mul.lo.s64
// PTX: ret;

llvm.func @rows(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %stride: i32)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c8 = llvm.mlir.constant(8 : i32) : i32
  %c12 = llvm.mlir.constant(12 : i32) : i32
  %warp = llvm.lshr %tid, %c5 : i32
  %row = llvm.and %warp, %c3 : i32
  %row4 = llvm.add %row, %c4 overflow<nsw, nuw> : i32
  %row8 = llvm.add %row, %c8 overflow<nsw, nuw> : i32
  %row12 = llvm.add %row, %c12 overflow<nsw, nuw> : i32
  %s = llvm.sext %stride : i32 to i64
  %e0 = llvm.sext %row : i32 to i64
  %e1 = llvm.sext %row4 : i32 to i64
  %e2 = llvm.sext %row8 : i32 to i64
  %e3 = llvm.sext %row12 : i32 to i64
  %o0 = llvm.mul %e0, %s : i64
  %o1 = llvm.mul %e1, %s : i64
  %o2 = llvm.mul %e2, %s : i64
  %o3 = llvm.mul %e3, %s : i64
  %p0 = llvm.getelementptr %in[%o0] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  %p1 = llvm.getelementptr %in[%o1] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  %p2 = llvm.getelementptr %in[%o2] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  %p3 = llvm.getelementptr %in[%o3] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
  %v0 = llvm.load %p0 : !llvm.ptr<1> -> f16
  %v1 = llvm.load %p1 : !llvm.ptr<1> -> f16
  %v2 = llvm.load %p2 : !llvm.ptr<1> -> f16
  %v3 = llvm.load %p3 : !llvm.ptr<1> -> f16
  %t = llvm.zext %tid : i32 to i64
  %q0 = llvm.getelementptr %out[%t] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xf16>
  %u = llvm.mlir.undef : vector<4xf16>
  %i0 = llvm.mlir.constant(0 : i32) : i32
  %i1 = llvm.mlir.constant(1 : i32) : i32
  %i2 = llvm.mlir.constant(2 : i32) : i32
  %w0 = llvm.insertelement %v0, %u[%i0 : i32] : vector<4xf16>
  %w1 = llvm.insertelement %v1, %w0[%i1 : i32] : vector<4xf16>
  %w2 = llvm.insertelement %v2, %w1[%i2 : i32] : vector<4xf16>
  %w3 = llvm.insertelement %v3, %w2[%c3 : i32] : vector<4xf16>
  llvm.store %w3, %q0 : vector<4xf16>, !llvm.ptr<1>
  llvm.return
}

// The same two rows' products, inside a kernel with a loop: left alone.
llvm.func @rows_in_loop_kernel(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>,
                               %stride: i32, %n: i32)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %c5 = llvm.mlir.constant(5 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %row = llvm.lshr %tid, %c5 : i32
  %row4 = llvm.add %row, %c4 overflow<nsw, nuw> : i32
  %s = llvm.sext %stride : i32 to i64
  %e0 = llvm.sext %row : i32 to i64
  %e1 = llvm.sext %row4 : i32 to i64
  %o0 = llvm.mul %e0, %s : i64
  %o1 = llvm.mul %e1, %s : i64
  %p0 = llvm.getelementptr %in[%o0] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %p1 = llvm.getelementptr %in[%o1] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %z = llvm.mlir.constant(0.0 : f32) : f32
  llvm.br ^loop(%c0, %z : i32, f32)
^loop(%i: i32, %acc: f32):
  %a = llvm.load %p0 : !llvm.ptr<1> -> f32
  %b = llvm.load %p1 : !llvm.ptr<1> -> f32
  %ab = llvm.fadd %a, %b : f32
  %acc2 = llvm.fadd %acc, %ab : f32
  %i2 = llvm.add %i, %c1 : i32
  %more = llvm.icmp "slt" %i2, %n : i32
  llvm.cond_br %more, ^loop(%i2, %acc2 : i32, f32), ^done
^done:
  %t = llvm.zext %tid : i32 to i64
  %q = llvm.getelementptr %out[%t] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %acc2, %q : f32, !llvm.ptr<1>
  llvm.return
}

// A square is a candidate from both of its operands, once: `x * x` and
// `(x + 4) * x` are x's two rows of stride x.
// CHECK-LABEL: define ptx_kernel void @squares(
// CHECK: %[[SQ:.*]] = mul i64 %[[X:.*]], %[[X]]
// CHECK: %[[X4:.*]] = mul i64 %[[X]], 4
// CHECK: add i64 %[[SQ]], %[[X4]]
llvm.func @squares(%out: !llvm.ptr<1>, %v: i64)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
  %c4 = llvm.mlir.constant(4 : i64) : i64
  %v4 = llvm.add %v, %c4 : i64
  %sq = llvm.mul %v, %v : i64
  %sq4 = llvm.mul %v4, %v : i64
  %sum = llvm.xor %sq, %sq4 : i64
  llvm.store %sum, %out : i64, !llvm.ptr<1>
  llvm.return
}
