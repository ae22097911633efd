// RUN: tile-opt %s -split-input-file --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Data movement chosen from the two linear layouts: a conversion that
// leaves every element in its thread is a register permutation, one that
// keeps every element in its warp is warp shuffles; neither touches shared
// memory. Reductions, expand_dims and broadcast of mma layouts (and their
// slices) stay in registers too.

// The f16 accumulator of mma.sync with all warps along M is the A operand's
// layout up to the order of registers: no shared memory, no barrier, no
// shuffle.
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK: module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 0 : i32}
  // CHECK-LABEL: llvm.func @accumulator_to_operand
  // The warp id (made uniform at the entry) is the only shuffle.
  // CHECK: %[[WARP:.*]] = llvm.lshr
  // CHECK-NEXT: nvvm.shfl.sync idx %{{.*}}, %[[WARP]]
  func.func @accumulator_to_operand(%x: f16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x32xf16, #mma>
    // CHECK-NOT: nvvm.barrier0
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK-NOT: !llvm.ptr<3>
    %c = tilegpu.convert_layout %v : tensor<64x32xf16, #mma> -> tensor<64x32xf16, #a>
    tile.print "", %c : tensor<64x32xf16, #a>
    return
  }
}

// -----

// Lanes that trade places within the warp: one shfl.sync.idx per register.
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @lanes_trade
  func.func @lanes_trade(%p: !tile.ptr<i32>) attributes {tile.kernel} {
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #rows}>>
    %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #rows}>> -> tensor<1x32xi32, #rows>
    %v = tile.broadcast %e : tensor<1x32xi32, #rows> -> tensor<4x32xi32, #rows>
    // CHECK-NOT: nvvm.barrier0
    // CHECK-COUNT-4: nvvm.shfl.sync idx
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK-NOT: nvvm.barrier0
    %c = tilegpu.convert_layout %v : tensor<4x32xi32, #rows> -> tensor<4x32xi32, #cols>
    tile.print "", %c : tensor<4x32xi32, #cols>
    return
  }
}

// -----

// Row maxima of an mma accumulator: each thread's registers, then the four
// lanes of a row (butterflies 1 and 2); the row statistics stay in the
// slice of the accumulator layout and broadcast back without moving.
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @row_max
  func.func @row_max(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x64xf32, #mma>
    // Two rows per thread (8 apart), each over the lanes xor 1 and xor 2.
    // CHECK-DAG: %[[B1:.*]] = llvm.mlir.constant(1 : i32) : i32
    // CHECK-DAG: %[[B2:.*]] = llvm.mlir.constant(2 : i32) : i32
    // CHECK-NOT: nvvm.barrier0
    // CHECK-COUNT-2: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[B1]]
    // CHECK-COUNT-2: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[B2]]
    // CHECK-NOT: nvvm.shfl.sync
    // CHECK-NOT: nvvm.barrier0
    %m = tile.reduce max %v axis = 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
    %e = tile.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
    %b = tile.broadcast %e : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
    %d = arith.subf %v, %b : tensor<64x64xf32, #mma>
    tile.print "", %d : tensor<64x64xf32, #mma>
    return
  }
}
