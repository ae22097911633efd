// RUN: tile-opt %s -split-input-file --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Explicit shared-memory buffers: local_alloc/local_store write the block
// row-major at the buffer's offset between barriers; local_load reads it,
// each aligned run of registers holding consecutive elements of a row (up
// to 16 bytes) in one vector load.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  // CHECK-LABEL: llvm.func @buffers
  func.func @buffers(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<32xf32, #b>
    // CHECK: nvvm.barrier0
    // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
    // CHECK: nvvm.barrier0
    %a = tilegpu.local_alloc %v : (tensor<32xf32, #b>) -> !tilegpu.memdesc<32xf32, #shared>
    // The second buffer lives at byte 128.
    // CHECK: llvm.getelementptr %{{.*}}[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %c = tilegpu.local_alloc : () -> !tilegpu.memdesc<32xf32, #shared>
    // The store's barrier before it is the allocation's after %a's stores
    // (back to back: one is erased).
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.store
    // CHECK: nvvm.barrier0
    tilegpu.local_store %v, %c : tensor<32xf32, #b> -> !tilegpu.memdesc<32xf32, #shared>
    // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
    %l = tilegpu.local_load %a : !tilegpu.memdesc<32xf32, #shared> -> tensor<32xf32, #b>
    // CHECK: nvvm.barrier0
    tilegpu.barrier
    %m = tilegpu.local_load %c : !tilegpu.memdesc<32xf32, #shared> -> tensor<32xf32, #b>
    tile.print "", %l, %m : tensor<32xf32, #b>, tensor<32xf32, #b>
    return
  }
}

// -----

// 2 x 16 f16 rows, 8 consecutive halves per thread: one 16-byte load each;
// i1 stays one byte at a time.
#b8 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
#shared2 = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @vector_reads
  func.func @vector_reads() attributes {tile.kernel} {
    %a = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x16xf16, #shared2>
    %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x16xi1, #shared2>
    // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xf16>
    // CHECK-NOT: -> vector<8xf16>
    // CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
    %x = tilegpu.local_load %a : !tilegpu.memdesc<16x16xf16, #shared2> -> tensor<16x16xf16, #b8>
    %y = tilegpu.local_load %m : !tilegpu.memdesc<16x16xi1, #shared2> -> tensor<16x16xi1, #b8>
    tile.print "", %x, %y : tensor<16x16xf16, #b8>, tensor<16x16xi1, #b8>
    return
  }
}
