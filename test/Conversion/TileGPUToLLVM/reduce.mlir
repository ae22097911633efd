// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Reductions: registers, then lanes (shfl.sync.bfly), then warps through
// shared memory between barriers.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 32 : i32} {
  // CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  // CHECK-LABEL: llvm.func @sum
  func.func @sum(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<1024xf32, #b>
    // CHECK-COUNT-7: llvm.fadd
    // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
    // CHECK-COUNT-4: nvvm.shfl.sync bfly
    // CHECK: nvvm.barrier0
    // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
    %s = tile.reduce sum %v axis = 0 {tilegpu.scratch_offset = 0 : i32} : tensor<1024xf32, #b> -> f32
    tile.print "", %s : f32
    return
  }
}

// -----

// One warp, lanes along the reduced axis only: no shared memory.
#p = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #p}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @argmax_rows
  func.func @argmax_rows(%x: i32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<4x8xi32, #p>
    // The index travels with the value: 3 lane steps of 2 shuffles each.
    // CHECK-COUNT-6: nvvm.shfl.sync bfly
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.icmp "sgt"
    %m = tile.reduce argmax %v axis = 1 : tensor<4x8xi32, #p> -> tensor<4xi32, #s>
    tile.print "", %m : tensor<4xi32, #s>
    return
  }
}

// -----

// A combine region over a (value, index) tuple: the same three steps, each
// value shuffled and stored in its own section of the scratch (the i32
// indices after the f16 values, 4-byte aligned).
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {tilegpu.num_warps = 2 : i32, tilegpu.shared = 12 : i32} {
  // CHECK-LABEL: llvm.func @combine_pairs
  func.func @combine_pairs(%x: f16, %i: i32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64xf16, #b>
    %j = tile.splat %i : tensor<64xi32, #b>
    // CHECK-COUNT-5: nvvm.shfl.sync bfly %{{.*}} : i32 -> i32
    // CHECK: nvvm.barrier0
    // CHECK: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
    // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    // CHECK: llvm.fcmp "ogt"
    %r:2 = tile.combine_reduce %v, %j axis = 0 {tilegpu.scratch_offset = 0 : i32} : tensor<64xf16, #b>, tensor<64xi32, #b> -> f16, i32 {
    ^bb0(%v0: f16, %i0: i32, %v1: f16, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f16
      %v2 = arith.select %gt, %v0, %v1 : f16
      %i2 = arith.select %gt, %i0, %i1 : i32
      tile.combine_yield %v2, %i2 : f16, i32
    }
    tile.print "", %r#0, %r#1 : f16, i32
    return
  }
}

// -----

// A user's combine need not be commutative: in each butterfly step both
// lanes combine the lower lane's partial with the higher one's (selected by
// the lane's bit), so every copy of the result is combine(x[0], x[1]) --
// here the first element, which `split` relies on.
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @combine_first
  func.func @combine_first(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<2xf32, #l>
    // CHECK: %[[LANE:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
    // CHECK: %[[BIT:.*]] = llvm.and %[[LANE]], %[[ONE:.*]] : i32
    // CHECK: %[[HIGH:.*]] = llvm.icmp "ne" %[[BIT]], %{{.*}} : i32
    // CHECK: nvvm.shfl.sync  bfly %{{.*}}, %[[MINE:[^,]*]], %[[ONE]]
    // CHECK: llvm.select %[[HIGH]], %{{.*}}, %[[MINE]] : i1, f32
    %r = tile.combine_reduce %v axis = 0 : tensor<2xf32, #l> -> f32 {
    ^bb0(%a: f32, %b: f32):
      tile.combine_yield %a : f32
    }
    tile.print "", %r : f32
    return
  }
}
