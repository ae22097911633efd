// RUN: tile-opt %s --tilegpu-test-print-layout -o /dev/null | FileCheck %s
// The layout function of blocked and slice layouts, element by element.

#b = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 0, parent = #b}>
#small = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

// 8 x 16: lanes 4 across x 8 down, 2 registers across, 2 warps across.
// CHECK-LABEL: layout of @f argument 0
// CHECK: registers per thread: 2
// CHECK-NEXT: [0, 0]: r0 l0 w0
// CHECK-NEXT: [0, 1]: r1 l0 w0
// CHECK-NEXT: [0, 2]: r0 l1 w0
// CHECK: [0, 8]: r0 l0 w1
// CHECK: [1, 0]: r0 l4 w0
// CHECK: [7, 15]: r1 l31 w1
// The slice along dim 0: the 8 lanes down hold the same elements.
// CHECK-LABEL: layout of @f argument 1
// CHECK: registers per thread: 2
// CHECK-NEXT: [0]: r0 l0 w0, r0 l4 w0, r0 l8 w0, r0 l12 w0, r0 l16 w0, r0 l20 w0, r0 l24 w0, r0 l28 w0
// CHECK: [15]: r1 l3 w1, r1 l7 w1
// A block smaller than the tile: lanes and warps past it repeat it.
// CHECK-LABEL: layout of @f argument 2
// CHECK: registers per thread: 1
// CHECK-NEXT: [0]: r0 l0 w0, r0 l16 w0, r0 l0 w1, r0 l16 w1
// CHECK: [15]: r0 l15 w0, r0 l31 w0, r0 l15 w1, r0 l31 w1
func.func @f(%a: tensor<8x16xf32, #b>, %b: tensor<16xf32, #s>, %c: tensor<16xf32, #small>) {
  return
}
