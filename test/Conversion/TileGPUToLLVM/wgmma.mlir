// RUN: tile-opt %s -split-input-file --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Warp-group MMA: two staging allocs share one barrier before and one after
// (a proxy fence after each one's 16-byte swizzled stores), then one wgmma
// per 64-row repetition and k-step of 16, a commit and a wait.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#sb = #tilegpu.nvmma_shared<{swizzle = 32, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK: llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 1024 : i64}
  // CHECK-LABEL: llvm.func @wgmma
  // Descriptors: A swizzles by 64 bytes (mode 2 << 62), 8 rows apart by
  // 512 bytes (32 << 32), leading offset unused (1 << 16); B by 32 bytes
  // (mode 3), 8 rows of 32 bytes apart (16 << 32), its one column 1024
  // bytes long (64 << 16).
  // CHECK-DAG: llvm.mlir.constant(-9223371899415756800 : i64)
  // CHECK-DAG: llvm.mlir.constant(-4611685949703716864 : i64)
  func.func @wgmma(%x: f16, %z: f32) attributes {tile.kernel} {
    %av = tile.splat %x : tensor<128x32xf16, #a>
    %bv = tile.splat %x : tensor<32x16xf16, #b>
    %c = tile.splat %z : tensor<128x16xf32, #mma>
    // A (8 KiB) at 0, B 1024-aligned after it.
    // CHECK: nvvm.barrier0
    // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
    // CHECK-NOT: nvvm.barrier0
    // CHECK: "fence.proxy.async.shared::cta;"
    // CHECK-NOT: nvvm.barrier0
    // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
    // CHECK: "fence.proxy.async.shared::cta;"
    // CHECK-NEXT: nvvm.barrier0
    %sa = tilegpu.local_alloc %av : (tensor<128x32xf16, #a>) -> !tilegpu.memdesc<128x32xf16, #sa>
    %sb = tilegpu.local_alloc %bv : (tensor<32x16xf16, #b>) -> !tilegpu.memdesc<32x16xf16, #sb>
    // A's descriptor: the warp group's first row (warp / 4 * 64 rows of 64
    // bytes) is added to the address, which then becomes the start field
    // ORed with the constant fields. Added to the finished descriptor, it
    // made offline ptxas drop the fields' high word (wrong cubins).
    // CHECK: %[[ROWS:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
    // CHECK-NEXT: %[[AADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
    // CHECK-NEXT: %[[AROW:.*]] = llvm.add %[[AADDR]], %[[ROWS]] : i64
    // CHECK-NEXT: %[[AMASK:.*]] = llvm.and %[[AROW]], %{{.*}} : i64
    // CHECK-NEXT: %[[ASTART:.*]] = llvm.lshr %[[AMASK]], %{{.*}} : i64
    // CHECK-NEXT: llvm.or %[[ASTART]], %{{.*}} : i64
    // CHECK: "wgmma.fence.sync.aligned;"
    // One asm statement per 64-row repetition (two here) with both k-steps:
    // the accumulators are its operands once; descriptors per k-step.
    // CHECK-COUNT-2: "{\0A.reg .pred p;\0Asetp.ne.b32 p, $12, 0;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7}, $8, $9, p, 1, 1, 0, 1;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {$0, $1, $2, $3, $4, $5, $6, $7}, $10, $11, p, 1, 1, 0, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,l,l,l,l,r,0,1,2,3,4,5,6,7"
    // CHECK-NOT: wgmma.mma_async
    // CHECK: "wgmma.commit_group.sync.aligned;"
    // CHECK: "wgmma.wait_group.sync.aligned 0;"
    %d = tilegpu.warpgroup_dot %sa, %sb, %c : !tilegpu.memdesc<128x32xf16, #sa>, !tilegpu.memdesc<32x16xf16, #sb> -> tensor<128x16xf32, #mma>
    tile.print "", %d : tensor<128x16xf32, #mma>
    return
  }
}

// -----

// tf32: f32 rounded to nearest (cvt.rna) on the way to shared memory, B
// stored contiguous along K, one m64nNk8 per k-step of 8 with no
// transpose operands (both k-steps in one asm statement).
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#sb = #tilegpu.nvmma_shared<{swizzle = 64, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 8]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @tf32
  func.func @tf32(%x: f32, %z: f32) attributes {tile.kernel} {
    %av = tile.splat %x : tensor<64x16xf32, #a>
    %bv = tile.splat %x : tensor<16x16xf32, #a>
    %c = tile.splat %z : tensor<64x16xf32, #mma>
    // CHECK: "cvt.rna.tf32.f32 $0, $1;"
    // CHECK: "fence.proxy.async.shared::cta;"
    // CHECK: wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {$0, $1, $2, $3, $4, $5, $6, $7}, $8, $9, p, 1, 1;\0Awgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {$0, $1, $2, $3, $4, $5, $6, $7}, $10, $11, p, 1, 1;\0A}"
    // CHECK: "wgmma.wait_group.sync.aligned 0;"
    %sa = tilegpu.local_alloc %av {tilegpu.round_tf32} : (tensor<64x16xf32, #a>) -> !tilegpu.memdesc<64x16xf32, #sa>
    %sb = tilegpu.local_alloc %bv {tilegpu.round_tf32} : (tensor<16x16xf32, #a>) -> !tilegpu.memdesc<16x16xf32, #sb>
    %d = tilegpu.warpgroup_dot %sa, %sb, %c : !tilegpu.memdesc<64x16xf32, #sa>, !tilegpu.memdesc<16x16xf32, #sb> -> tensor<64x16xf32, #mma>
    tile.print "", %d : tensor<64x16xf32, #mma>
    return
  }
}

// -----

// A zero accumulator is not read: the first k-step has scale-d 0 (its own
// predicate p0, from a 0 operand), the others 1, and the accumulator
// operands are undefined (no register is zeroed first).
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#sb = #tilegpu.nvmma_shared<{swizzle = 64, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 8]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @zero_acc
  func.func @zero_acc(%x: f32) attributes {tile.kernel} {
    %av = tile.splat %x : tensor<64x16xf32, #a>
    %bv = tile.splat %x : tensor<16x16xf32, #a>
    %c = arith.constant dense<0.0> : tensor<64x16xf32, #mma>
    // CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
    // CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
    // CHECK-DAG: %[[U:.*]] = llvm.mlir.undef : f32
    // CHECK: "{\0A.reg .pred p, p0;\0Asetp.ne.b32 p, $12, 0;\0Asetp.ne.b32 p0, $13, 0;\0Awgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {$0, $1, $2, $3, $4, $5, $6, $7}, $8, $9, p0, 1, 1;\0Awgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {$0, $1, $2, $3, $4, $5, $6, $7}, $10, $11, p, 1, 1;\0A}", "=f,=f,=f,=f,=f,=f,=f,=f,l,l,l,l,r,r,0,1,2,3,4,5,6,7" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %[[ZERO]], %[[U]], %[[U]], %[[U]], %[[U]], %[[U]], %[[U]], %[[U]], %[[U]]
    %sa = tilegpu.local_alloc %av {tilegpu.round_tf32} : (tensor<64x16xf32, #a>) -> !tilegpu.memdesc<64x16xf32, #sa>
    %sb = tilegpu.local_alloc %bv {tilegpu.round_tf32} : (tensor<16x16xf32, #a>) -> !tilegpu.memdesc<16x16xf32, #sb>
    %d = tilegpu.warpgroup_dot %sa, %sb, %c : !tilegpu.memdesc<64x16xf32, #sa>, !tilegpu.memdesc<16x16xf32, #sb> -> tensor<64x16xf32, #mma>
    tile.print "", %d : tensor<64x16xf32, #mma>
    return
  }
}
