// RUN: tile-opt %s -split-input-file --tilegpu-pipeline | FileCheck %s --enable-var-scope
// A wgmma operand load whose addresses are base + (x0 + i) * stride +
// (x1 + j) and whose mask is "x0 + i < R and x1 + j < C" (either part
// optional) is a box of an R x C tensor: tilegpu-pipeline copies it with
// the copy engine (TMA) into the ring, each slot completing on its own
// mbarrier. Loads it cannot prove that of keep cp.async
// (pipeline-async.mlir) or register prefetching (pipeline.mlir).

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$S:.*]] = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
  // CHECK-DAG: #[[$P:.*]] = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
  // CHECK-LABEL: func.func @matmul
  // CHECK-SAME: (%[[PA:[^:]*]]: !tile.ptr<f16> {{.*}}, %[[PB:[^:]*]]: !tile.ptr<f16> {{.*}}, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32, %[[LDA:[^:]*]]: i32 {{.*}}, %[[LDB:[^:]*]]: i32 {{.*}})
  func.func @matmul(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    // A: rows pid * 64 + i (masked by M), columns j (masked by K - 64 k),
    // advanced by 64 columns per iteration.
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %row0s = tile.splat %row0 : tensor<128xi32, #rows>
    %r = arith.addi %row0s, %ri : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %c2d = tile.broadcast %c1d : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %ms = tile.splat %m : tensor<128x1xi32, #a>
    %rowmask = arith.cmpi slt, %r1, %ms : tensor<128x1xi32, #a>
    %rowmask2 = tile.broadcast %rowmask : tensor<128x1xi1, #a> -> tensor<128x64xi1, #a>
    %n = arith.addi %k, %c64 : i32

    // Before the loop, a warp builds A's tensor map (its slot locked: the
    // loop's first map): extents M x K (at
    // least 1), rows LDA elements apart, boxes of 128x64.
    // CHECK: %[[M64:.*]] = arith.extsi %[[M]] : i32 to i64
    // CHECK: %[[EMPTYM:.*]] = arith.cmpi slt, %[[M64]], %{{.*}} : i64
    // CHECK: %[[K64:.*]] = arith.extsi %[[K]] : i32 to i64
    // CHECK: %[[EMPTYK:.*]] = arith.cmpi slt, %[[K64]], %{{.*}} : i64
    // CHECK: %[[LDA64:.*]] = arith.extsi %[[LDA]] : i32 to i64
    // CHECK: %[[MAP:.*]] = tilegpu.create_tensor_map %[[PA]], %{{.*}}, %{{.*}}, %[[LDA64]] {lock} : !tile.ptr<f16> -> !tilegpu.tensor_map<128x64xf16, #[[$S]]>
    // A ring of 3 tiles and 3 mbarriers (thread 0 initializes them, then
    // acquires the map after the barrier).
    // CHECK: %[[RING:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x128x64xf16, #[[$S]]>
    // CHECK: %[[BARS:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x1xi64, #[[$P]]>
    // CHECK-COUNT-3: tilegpu.init_barrier %{{.*}}, 1 : !tilegpu.memdesc<1xi64, #[[$P]]>
    // CHECK-NEXT: tilegpu.barrier
    // CHECK-NEXT: tilegpu.fence_tensor_map %[[MAP]]
    // Prologue: iterations 0 and 1, each: arrive expecting 16 KiB, copy the
    // box at (pid * 64, 64 k) (coordinates 1 when an extent is empty).
    // CHECK: %[[IN0:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
    // CHECK: tilegpu.barrier_expect %{{.*}}, 16384, %[[IN0]]
    // CHECK: %[[X0:.*]] = arith.select %[[EMPTYM]]
    // CHECK: %[[Y0:.*]] = arith.select %[[EMPTYK]]
    // CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]][%[[X0]], %[[Y0]]] %{{.*}}, %{{.*}}, %[[IN0]]
    // CHECK: tilegpu.barrier_expect %{{.*}}, 16384,
    // CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]]
    // CHECK-NOT: tile.load
    // CHECK-NOT: async_copy_global_to_local
    // The loop no longer carries A's pointers: accumulator, read and fetch
    // slots, barrier phase.
    // CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[READ:.*]] = %{{.*}}, %[[FETCH:.*]] = %{{.*}}, %[[PHASE:.*]] = %{{.*}}) -> (tensor<128x64xf32, #mma>, i32, i32, i32)
    // CHECK: %[[RB:.*]] = tilegpu.memdesc_index %[[BARS]][%[[READ]]]
    // CHECK-NEXT: tilegpu.wait_barrier %[[RB]], %[[PHASE]]
    // CHECK: tilegpu.warpgroup_dot {{.*}} {isAsync}
    // CHECK: tilegpu.warpgroup_dot_wait {{.*}} {pendings = 1 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // CHECK: tilegpu.barrier_expect
    // CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]]
    // The phase flips when the read slot wraps.
    // CHECK: %[[FLIP:.*]] = arith.xori %[[PHASE]]
    // CHECK: arith.select %{{.*}}, %[[FLIP]], %[[PHASE]] : i32
    // CHECK: scf.yield
    // After the loop: barriers invalidated, the map's slot released.
    // CHECK: tilegpu.barrier
    // CHECK-COUNT-3: tilegpu.inval_barrier
    // CHECK-NEXT: tilegpu.release_tensor_map %[[MAP]]
    %res:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %z, %p = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %left = arith.subi %k, %kk : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %colmask = arith.cmpi slt, %c1d, %lefts : tensor<1x64xi32, #a>
      %colmask2 = tile.broadcast %colmask : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %mask = arith.andi %rowmask2, %colmask2 : tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %pn = tile.addptr %p, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %pn : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// Rows wrapped with `% M` (Triton's idiom) are not a box: no bulk copies.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @wrapped_rows
  // CHECK-NOT: tensor_map
  // CHECK: scf.for
  // CHECK-NOT: tensor_map
  func.func @wrapped_rows(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %row0s = tile.splat %row0 : tensor<128xi32, #rows>
    %rr = arith.addi %row0s, %ri : tensor<128xi32, #rows>
    %ms = tile.splat %m : tensor<128xi32, #rows>
    %r = arith.remsi %rr, %ms : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %res = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %kks = tile.splat %kk : tensor<1x64xi32, #a>
      %col = arith.addi %c1d, %kks : tensor<1x64xi32, #a>
      %c2d = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
      %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
      %p = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %ks = tile.splat %k : tensor<1x64xi32, #a>
      %cm = arith.cmpi slt, %col, %ks : tensor<1x64xi32, #a>
      %mask = tile.broadcast %cm : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    return %res : tensor<128x64xf32, #mma>
  }
}

// -----

// A row stride not known to be a multiple of 16 bytes: no bulk copies.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @unaligned_stride
  // CHECK-NOT: tensor_map
  // CHECK: scf.for
  // CHECK-NOT: tensor_map
  func.func @unaligned_stride(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 ) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %row0s = tile.splat %row0 : tensor<128xi32, #rows>
    %rr = arith.addi %row0s, %ri : tensor<128xi32, #rows>
    %r = arith.addi %rr, %ri : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %res = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %kks = tile.splat %kk : tensor<1x64xi32, #a>
      %col = arith.addi %c1d, %kks : tensor<1x64xi32, #a>
      %c2d = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
      %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
      %p = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %ks = tile.splat %k : tensor<1x64xi32, #a>
      %cm = arith.cmpi slt, %col, %ks : tensor<1x64xi32, #a>
      %mask = tile.broadcast %cm : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    return %res : tensor<128x64xf32, #mma>
  }
}

// -----

// A bound that moves with the loop (col < K - 64 iv while col itself
// advances) is not a fixed extent: no bulk copies.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @moving_bound
  // CHECK-NOT: tensor_map
  // CHECK: scf.for
  // CHECK-NOT: tensor_map
  func.func @moving_bound(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %row0s = tile.splat %row0 : tensor<128xi32, #rows>
    %rr = arith.addi %row0s, %ri : tensor<128xi32, #rows>
    %r = arith.addi %rr, %ri : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %res = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %kks = tile.splat %kk : tensor<1x64xi32, #a>
      %col = arith.addi %c1d, %kks : tensor<1x64xi32, #a>
      %c2d = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
      %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
      %p = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %left = arith.subi %k, %kk : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %cm = arith.cmpi slt, %col, %lefts : tensor<1x64xi32, #a>
      %mask = tile.broadcast %cm : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    return %res : tensor<128x64xf32, #mma>
  }
}

// -----

// A lower bound (col >= K) is not an extent: no bulk copies.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @lower_bound
  // CHECK-NOT: tensor_map
  // CHECK: scf.for
  // CHECK-NOT: tensor_map
  func.func @lower_bound(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %row0s = tile.splat %row0 : tensor<128xi32, #rows>
    %rr = arith.addi %row0s, %ri : tensor<128xi32, #rows>
    %r = arith.addi %rr, %ri : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %res = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %kks = tile.splat %kk : tensor<1x64xi32, #a>
      %col = arith.addi %c1d, %kks : tensor<1x64xi32, #a>
      %c2d = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
      %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
      %p = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %ks = tile.splat %k : tensor<1x64xi32, #a>
      %cm = arith.cmpi sge, %col, %ks : tensor<1x64xi32, #a>
      %mask = tile.broadcast %cm : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    return %res : tensor<128x64xf32, #mma>
  }
}

// -----

// Addresses computed from the induction variable, columns masked by K:
// a box (this case checks TMA is used; the first split checks the details).
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @iv_addresses
  // CHECK: tilegpu.create_tensor_map
  // CHECK-NOT: async_copy_global_to_local
  // CHECK: tilegpu.async_tma_copy_global_to_local
  // CHECK-NOT: async_copy_global_to_local
  func.func @iv_addresses(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %row0s = tile.splat %row0 : tensor<128xi32, #rows>
    %rr = arith.addi %row0s, %ri : tensor<128xi32, #rows>
    %r = arith.addi %rr, %ri : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %res = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #mma>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %kks = tile.splat %kk : tensor<1x64xi32, #a>
      %col = arith.addi %c1d, %kks : tensor<1x64xi32, #a>
      %c2d = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
      %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
      %p = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %ks = tile.splat %k : tensor<1x64xi32, #a>
      %cm = arith.cmpi slt, %col, %ks : tensor<1x64xi32, #a>
      %mask = tile.broadcast %cm : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    return %res : tensor<128x64xf32, #mma>
  }
}

// -----

// What a tensor descriptor's load gives (frontend/SemaDescriptors.cpp):
// masks `0 <= x < R` as one unsigned comparison, a row stride known only
// from the descriptor's promise (a hint: a multiple of 8 f16 elements), and
// the program id read inside the loop. The copy engine zero-fills negative
// coordinates as the unsigned mask does; the program id moves before the
// loop, so the box's first row is loop-invariant.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @descriptor_box
  // CHECK: tile.program_id 0
  // CHECK: tilegpu.create_tensor_map
  // CHECK: scf.for
  // CHECK-NOT: async_copy_global_to_local
  // CHECK: tilegpu.async_tma_copy_global_to_local
  // CHECK-NOT: async_copy_global_to_local
  func.func @descriptor_box(%pa: !tile.ptr<f16>, %m: i32, %k: i32, %lda: i32) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %base = tile.hint %pa {divisibility = array<i64: 16>} : !tile.ptr<f16>
    %lda64 = arith.extsi %lda : i32 to i64
    %stride = tile.hint %lda64 {divisibility = array<i64: 8>} : i64
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %pas = tile.splat %base : tensor<128x64x!tile.ptr<f16>, #a>
    %res = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #mma>) : i32 {
      %pid = tile.program_id 0 : i32
      %row0 = arith.muli %pid, %c128 : i32
      %row0s = tile.splat %row0 : tensor<128xi32, #rows>
      %r = arith.addi %row0s, %ri : tensor<128xi32, #rows>
      %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
      %r64 = arith.extsi %r1 : tensor<128x1xi32, #a> to tensor<128x1xi64, #a>
      %strides = tile.splat %stride : tensor<128x1xi64, #a>
      %r2 = arith.muli %r64, %strides : tensor<128x1xi64, #a>
      %r3 = tile.broadcast %r2 : tensor<128x1xi64, #a> -> tensor<128x64xi64, #a>
      %kk = arith.muli %iv, %c64 : i32
      %kks = tile.splat %kk : tensor<64xi32, #cols>
      %col1 = arith.addi %kks, %ci : tensor<64xi32, #cols>
      %col = tile.expand_dims %col1 {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
      %col64 = arith.extsi %col : tensor<1x64xi32, #a> to tensor<1x64xi64, #a>
      %c2d = tile.broadcast %col64 : tensor<1x64xi64, #a> -> tensor<128x64xi64, #a>
      %off = arith.addi %r3, %c2d : tensor<128x64xi64, #a>
      %p = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi64, #a>
      %ms = tile.splat %m : tensor<128x1xi32, #a>
      %rm = arith.cmpi ult, %r1, %ms : tensor<128x1xi32, #a>
      %rmask = tile.broadcast %rm : tensor<128x1xi1, #a> -> tensor<128x64xi1, #a>
      %ks = tile.splat %k : tensor<1x64xi32, #a>
      %cm = arith.cmpi ult, %col, %ks : tensor<1x64xi32, #a>
      %cmask = tile.broadcast %cm : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %mask = arith.andi %rmask, %cmask : tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    return %res : tensor<128x64xf32, #mma>
  }
}

// -----

// Attention's K blocks through a descriptor (tutorial 06): the loop from a
// run-time `lo` carries the row offset, advanced by the loop's step (64)
// every iteration (so it is init + iv - lo), and the row stride is the
// constant head dimension (128): the rows are the start's terms that 128
// divides, bounded by the unsigned row mask.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @carried_offset
  // CHECK: tilegpu.create_tensor_map
  // CHECK-NOT: async_copy_global_to_local
  // CHECK: tilegpu.async_tma_copy_global_to_local
  // CHECK-NOT: async_copy_global_to_local
  func.func @carried_offset(%pk: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %rows_total: i32, %off0: i32, %lo: i32, %hi: i32, %qs: !tilegpu.memdesc<128x128xf16, #s>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero = arith.constant dense<0.0> : tensor<64x128xf16, #a>
    %head = arith.constant dense<128> : tensor<64x1xi64, #a>
    %ri = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %cols = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #a}>>
    %cols64 = arith.extsi %cols : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #a}>> to tensor<128xi64, #tilegpu.slice<{dim = 0, parent = #a}>>
    %c1d = tile.expand_dims %cols64 {axis = 0 : i32} : tensor<128xi64, #tilegpu.slice<{dim = 0, parent = #a}>> -> tensor<1x128xi64, #a>
    %c2d = tile.broadcast %c1d : tensor<1x128xi64, #a> -> tensor<64x128xi64, #a>
    %pks = tile.splat %pk : tensor<64x128x!tile.ptr<f16>, #a>
    %totals = tile.splat %rows_total : tensor<64x1xi32, #a>
    %res:2 = scf.for %iv = %lo to %hi step %c64 iter_args(%acc = %z, %off = %off0) -> (tensor<128x64xf32, #mma>, i32) : i32 {
      %offs = tile.splat %off : tensor<64xi32, #rows>
      %r = arith.addi %offs, %ri : tensor<64xi32, #rows>
      %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
      %r64 = arith.extsi %r1 : tensor<64x1xi32, #a> to tensor<64x1xi64, #a>
      %r2 = arith.muli %r64, %head : tensor<64x1xi64, #a>
      %r3 = tile.broadcast %r2 : tensor<64x1xi64, #a> -> tensor<64x128xi64, #a>
      %o = arith.addi %r3, %c2d : tensor<64x128xi64, #a>
      %p = tile.addptr %pks, %o : tensor<64x128x!tile.ptr<f16>, #a>, tensor<64x128xi64, #a>
      %rm = arith.cmpi ult, %r1, %totals : tensor<64x1xi32, #a>
      %mask = tile.broadcast %rm : tensor<64x1xi1, #a> -> tensor<64x128xi1, #a>
      %k = tile.load %p, %mask, %zero : tensor<64x128x!tile.ptr<f16>, #a>
      %ks = tilegpu.local_alloc %k : (tensor<64x128xf16, #a>) -> !tilegpu.memdesc<64x128xf16, #s>
      %kt = tilegpu.memdesc_trans %ks : !tilegpu.memdesc<64x128xf16, #s> -> !tilegpu.memdesc<128x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>>
      %d = tilegpu.warpgroup_dot %qs, %kt, %acc : !tilegpu.memdesc<128x128xf16, #s>, !tilegpu.memdesc<128x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>> -> tensor<128x64xf32, #mma>
      %next = arith.addi %off, %c64 : i32
      scf.yield %d, %next : tensor<128x64xf32, #mma>, i32
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// The box's first row moved into a scalar base (what tile-promote-offsets
// makes of `(pid * 64 + arange)[:, None] * lda`): the tensor map is still
// the kernel argument's, the base's scalar offsets go into the coordinates.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @advanced_base
  // CHECK-SAME: (%[[PA:[^:]*]]: !tile.ptr<f16>
  // CHECK: tilegpu.create_tensor_map %[[PA]],
  // CHECK: scf.for
  // CHECK: tilegpu.async_tma_copy_global_to_local
  // CHECK-NOT: async_copy_global_to_local
  // CHECK: scf.yield
  func.func @advanced_base(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    %row064 = arith.extsi %row0 : i32 to i64
    %lda64 = arith.extsi %lda : i32 to i64
    %first = arith.muli %row064, %lda64 : i64
    %base = tile.addptr %pa, %first : !tile.ptr<f16>, i64
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %ri {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %c2d = tile.broadcast %c1d : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
    %pas = tile.splat %base : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %n = arith.addi %k, %c64 : i32
    %res:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %z, %p = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %left = arith.subi %k, %kk : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %colmask = arith.cmpi slt, %c1d, %lefts : tensor<1x64xi32, #a>
      %mask = tile.broadcast %colmask : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %bs = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %pn = tile.addptr %p, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %pn : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // The map is created (with its operands' arithmetic) after B's load but
  // before B's store to shared memory, which waits for that load: the
  // map's lock and build overlap it.
  // CHECK-LABEL: func.func @staged_operand
  // CHECK: %[[BT:.*]] = tile.load
  // CHECK: %[[MAP:.*]] = tilegpu.create_tensor_map {{.*}} {lock}
  // CHECK: tilegpu.local_alloc %[[BT]]
  // CHECK: tilegpu.barrier
  // CHECK-NEXT: tilegpu.fence_tensor_map %[[MAP]]
  func.func @staged_operand(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %pid = tile.program_id 0 : i32
    %row0 = arith.muli %pid, %c64 : i32
    // A: rows pid * 64 + i (masked by M), columns j (masked by K - 64 k),
    // advanced by 64 columns per iteration.
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %row0s = tile.splat %row0 : tensor<128xi32, #rows>
    %r = arith.addi %row0s, %ri : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %c2d = tile.broadcast %c1d : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %ms = tile.splat %m : tensor<128x1xi32, #a>
    %rowmask = arith.cmpi slt, %r1, %ms : tensor<128x1xi32, #a>
    %rowmask2 = tile.broadcast %rowmask : tensor<128x1xi1, #a> -> tensor<128x64xi1, #a>
    %n = arith.addi %k, %c64 : i32
    // B, loop-invariant, loaded and stored to shared memory before the loop.
    %pbs = tile.splat %pb : tensor<64x64x!tile.ptr<f16>, #a>
    %bt = tile.load %pbs : tensor<64x64x!tile.ptr<f16>, #a>
    %bq = tilegpu.local_alloc %bt : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>

    // Before the loop, a warp builds A's tensor map (its slot locked: the
    // loop's first map): extents M x K (at
    // least 1), rows LDA elements apart, boxes of 128x64.
    // A ring of 3 tiles and 3 mbarriers (thread 0 initializes them, then
    // acquires the map after the barrier).
    // Prologue: iterations 0 and 1, each: arrive expecting 16 KiB, copy the
    // box at (pid * 64, 64 k) (coordinates 1 when an extent is empty).
    // The loop no longer carries A's pointers: accumulator, read and fetch
    // slots, barrier phase.
    // The phase flips when the read slot wraps.
    // After the loop: barriers invalidated, the map's slot released.
    %res:2 = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %z, %p = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %left = arith.subi %k, %kk : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %colmask = arith.cmpi slt, %c1d, %lefts : tensor<1x64xi32, #a>
      %colmask2 = tile.broadcast %colmask : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %mask = arith.andi %rowmask2, %colmask2 : tensor<128x64xi1, #a>
      %at = tile.load %p, %mask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %as = tilegpu.local_alloc %at : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %as, %bq, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %pn = tile.addptr %p, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %pn : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// The same box read by ldmatrix for mma.sync (sm_80's dot, or a small dot
// on sm_90a) is copied with cp.async, as Triton does: no tensor map, no
// mbarrier (the bulk copies cost more than they save in such kernels).
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#mma2 = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#opa = #tilegpu.dot_op<{opIdx = 0, parent = #mma2, kWidth = 2}>
#opb = #tilegpu.dot_op<{opIdx = 1, parent = #mma2, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @mma_sync_box
  // CHECK-NOT: tensor_map
  // CHECK-NOT: mbarrier
  // CHECK: tilegpu.async_copy_global_to_local
  // CHECK: scf.for
  // CHECK: tilegpu.async_copy_global_to_local
  // CHECK: tilegpu.local_load
  // CHECK-NOT: tensor_map
  func.func @mma_sync_box(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32, %k: i32, %lda: i32 {tile.divisibility = 16 : i32}, %b: tensor<64x64xf16, #opb>) -> tensor<128x64xf32, #mma2> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma2>
    %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %ri = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %r1 = tile.expand_dims %ri {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ldas = tile.splat %lda : tensor<128x1xi32, #a>
    %r2 = arith.muli %r1, %ldas : tensor<128x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ci = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %c1d = tile.expand_dims %ci {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %ms = tile.splat %m : tensor<128x1xi32, #a>
    %rm = arith.cmpi slt, %r1, %ms : tensor<128x1xi32, #a>
    %rowmask = tile.broadcast %rm : tensor<128x1xi1, #a> -> tensor<128x64xi1, #a>
    %res = scf.for %iv = %c0 to %k step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #mma2>) : i32 {
      %kk = arith.muli %iv, %c64 : i32
      %kks = tile.splat %kk : tensor<1x64xi32, #a>
      %col = arith.addi %c1d, %kks : tensor<1x64xi32, #a>
      %c2d = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
      %off = arith.addi %r3, %c2d : tensor<128x64xi32, #a>
      %p = tile.addptr %pas, %off : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %at = tile.load %p, %rowmask, %zero_a : tensor<128x64x!tile.ptr<f16>, #a>
      %ao = tilegpu.convert_layout %at : tensor<128x64xf16, #a> -> tensor<128x64xf16, #opa>
      %d = tile.dot %ao, %b, %acc : tensor<128x64xf16, #opa> * tensor<64x64xf16, #opb> -> tensor<128x64xf32, #mma2>
      scf.yield %d : tensor<128x64xf32, #mma2>
    }
    return %res : tensor<128x64xf32, #mma2>
  }
}
