// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Scans (ScanOpToLLVM.cpp): a thread's registers in order, then lanes by
// Kogge-Stone steps of shfl.sync.up (down when reversed), then warps
// through shared memory; the combine region is emitted at each step.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 16 : i32} {
  // CHECK-LABEL: llvm.func @cumsum
  func.func @cumsum(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<256xf32, #b>
    // Register 1 after register 0: one add.
    // CHECK: llvm.fadd
    // Five lane steps of (shfl.up, add), the exclusive prefix, the total.
    // CHECK-COUNT-5: nvvm.shfl.sync up %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
    // CHECK: nvvm.shfl.sync up
    // CHECK: nvvm.shfl.sync idx
    // The totals of the warps before this one, from shared memory (the
    // last warp's is only needed for the block's total, which is unused).
    // CHECK: nvvm.barrier0
    // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
    // CHECK-NOT: nvvm.barrier0
    %s = tile.scan %v axis = 0 {tilegpu.scratch_offset = 0 : i32} : tensor<256xf32, #b> -> tensor<256xf32, #b> {
    ^bb0(%a: f32, %c: f32):
      %t = arith.addf %a, %c : f32
      tile.combine_yield %t : f32
    }
    tile.print "", %s : tensor<256xf32, #b>
    return
  }
}

// -----

// Reverse, along the rows of a 2-D block held by one warp: shfl.sync.down,
// no shared memory.
#p = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @reverse_rows
  func.func @reverse_rows(%x: i32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<4x32xi32, #p>
    // CHECK-NOT: nvvm.shfl.sync up
    // CHECK-COUNT-3: llvm.mul
    // CHECK-COUNT-3: nvvm.shfl.sync down
    // CHECK: nvvm.shfl.sync down
    // CHECK: nvvm.shfl.sync idx
    // CHECK-NOT: nvvm.barrier0
    %s = tile.scan %v axis = 1 reverse : tensor<4x32xi32, #p> -> tensor<4x32xi32, #p> {
    ^bb0(%a: i32, %c: i32):
      %t = arith.muli %a, %c : i32
      tile.combine_yield %t : i32
    }
    tile.print "", %s : tensor<4x32xi32, #p>
    return
  }
}

// -----

// A tuple: each value shuffled, one region per combination.
#p = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @pairs
  func.func @pairs(%x: f32, %i: i32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<32xf32, #p>
    %j = tile.splat %i : tensor<32xi32, #p>
    // CHECK: nvvm.shfl.sync up %{{.*}} : f32 -> f32
    // CHECK: nvvm.shfl.sync up %{{.*}} : i32 -> i32
    // CHECK: llvm.fcmp "ogt"
    %s:2 = tile.scan %v, %j axis = 0 : tensor<32xf32, #p>, tensor<32xi32, #p> -> tensor<32xf32, #p>, tensor<32xi32, #p> {
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %v2 = arith.select %gt, %v0, %v1 : f32
      %i2 = arith.select %gt, %i0, %i1 : i32
      tile.combine_yield %v2, %i2 : f32, i32
    }
    tile.print "", %s#0, %s#1 : tensor<32xf32, #p>, tensor<32xi32, #p>
    return
  }
}
