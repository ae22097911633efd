// RUN: tile-opt %s --tilegpu-test-print-layout -o /dev/null | FileCheck %s
// The layout functions of mma.sync m16n8k16 fragments (PTX ISA, "Matrix
// Fragments for mma.m16n8k16"): accumulator c0..c3, operand a0..a3 and
// b0..b1, two 16-bit elements per register.

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// C: lane l holds rows l/4 and l/4+8, columns 2*(l%4) and 2*(l%4)+1.
// CHECK-LABEL: layout of @f argument 0
// CHECK: registers per thread: 4
// CHECK-NEXT: [0, 0]: r0 l0 w0
// CHECK-NEXT: [0, 1]: r1 l0 w0
// CHECK-NEXT: [0, 2]: r0 l1 w0
// CHECK: [1, 0]: r0 l4 w0
// CHECK: [8, 0]: r2 l0 w0
// CHECK: [15, 7]: r3 l31 w0
// A: a0 (row g, k 2t..2t+1), a1 (row g+8), a2 (k+8), a3 (row g+8, k+8).
// CHECK-LABEL: layout of @f argument 1
// CHECK: registers per thread: 8
// CHECK-NEXT: [0, 0]: r0 l0 w0
// CHECK-NEXT: [0, 1]: r1 l0 w0
// CHECK-NEXT: [0, 2]: r0 l1 w0
// CHECK: [0, 8]: r4 l0 w0
// CHECK: [8, 0]: r2 l0 w0
// CHECK: [15, 15]: r7 l31 w0
// B: b0 (k 2t..2t+1, column g), b1 (k+8).
// CHECK-LABEL: layout of @f argument 2
// CHECK: registers per thread: 4
// CHECK-NEXT: [0, 0]: r0 l0 w0
// CHECK-NEXT: [0, 1]: r0 l4 w0
// CHECK: [1, 0]: r1 l0 w0
// CHECK: [2, 0]: r0 l1 w0
// CHECK: [8, 0]: r2 l0 w0
// CHECK: [15, 7]: r3 l31 w0
func.func @f(%c: tensor<16x8xf32, #mma>, %a: tensor<16x16xf16, #a>, %b: tensor<16x8xf16, #b>) {
  return
}
