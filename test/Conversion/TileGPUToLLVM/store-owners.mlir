// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s -split-input-file --convert-tilegpu-to-llvm | tile-translate --mlir-to-ptx --arch=sm_80 -o %t.ptx && %ptxas -arch=sm_80 %t.ptx -o %t.cubin %}
// A store writes one copy of each element, as Triton: a scalar from
// thread 0 only, a block whose layout repeats elements over lanes or warps
// from the thread whose repeating id bits are 0. (A program's
// `store(p, load(p) + 1)` then adds 1 once, not once per warp.)

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @scalar
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
  // CHECK: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[OWNER]]
  func.func @scalar(%p: !tile.ptr<i32>) attributes {tile.kernel} {
    %x = tile.load %p : !tile.ptr<i32>
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    tile.store %p, %y : !tile.ptr<i32>
    return
  }
}

// -----

// 32 elements over 4 warps of 32 lanes: every warp holds all of them (the
// warp bits have zero bases); warp 0 stores, the mask and-ed in.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @replicated
  // CHECK: %[[WARP:.*]] = nvvm.shfl.sync idx
  // CHECK: %[[M:.*]] = llvm.icmp "slt"
  // CHECK: %[[W:.*]] = llvm.and %[[WARP]], %{{.*}} : i32
  // CHECK: %[[OWN:.*]] = llvm.icmp "eq" %[[W]], %{{.*}} : i32
  // CHECK: %[[BOTH:.*]] = llvm.and %[[M]], %[[OWN]] : i1
  // CHECK: "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b" %{{.*}}, %{{.*}}, %[[BOTH]]
  func.func @replicated(%p: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #b>
    %ptrs = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
    %ns = tile.splat %n : tensor<32xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #b>
    tile.store %ptrs, %r, %m : tensor<32x!tile.ptr<i32>, #b>
    return
  }
}

// -----

// 128 elements over 4 warps of 32 lanes: no copies, no predicate added.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @distinct
  // CHECK-NOT: icmp
  // CHECK: "st.global.b32 [ $0 + 0 ], $1;", "l,r"
  func.func @distinct(%p: !tile.ptr<i32>) attributes {tile.kernel} {
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tile.splat %p : tensor<128x!tile.ptr<i32>, #b>
    %ptrs = tile.addptr %ps, %r : tensor<128x!tile.ptr<i32>, #b>, tensor<128xi32, #b>
    tile.store %ptrs, %r : tensor<128x!tile.ptr<i32>, #b>
    return
  }
}
