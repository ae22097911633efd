// RUN: tile-opt %s -split-input-file --tilegpu-pipeline=tma=false | FileCheck %s --enable-var-scope
// mma.sync dots (sm_80 on) read their operands from registers. When a
// loop's operands are loads converted to dot-operand layouts, the loads are
// staged in swizzled shared memory (local_alloc, then local_load into the
// dot-operand layout) and pipelined with rings of num_stages cp.async
// buffers. The reads are synchronous: each iteration waits for its group,
// one barrier (no proxy fence: no async-proxy reader), starts the copies
// of iteration i + num_stages - 1 into the slot the previous iteration
// read, then reads its own slot. Loads that cannot be copied that way keep
// the register prefetch (pipeline.mlir), their conversions unchanged.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // A (64 x 32 f16, 64-byte rows) gets a 64-byte swizzle, B (32 x 128 f16,
  // 256-byte rows) a 128-byte one, both contiguous as their loads.
  // CHECK-DAG: #[[$SA:.*]] = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
  // CHECK-DAG: #[[$SB:.*]] = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
  // CHECK-DAG: #[[$DA:.*]] = #tilegpu.dot_op<{opIdx = 0, parent = #{{.*}}, kWidth = 2}>
  // CHECK-DAG: #[[$DB:.*]] = #tilegpu.dot_op<{opIdx = 1, parent = #{{.*}}, kWidth = 2}>
  // CHECK-LABEL: func.func @matmul
  func.func @matmul(%pa0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x128xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x128xf32, #mma>
    %sa = arith.constant dense<32> : tensor<64x32xi32, #a>
    %sb = arith.constant dense<4096> : tensor<32x128xi32, #b>
    // A: 64 rows of 32 elements, B: 32 rows of 128 (both dense).
    %ra = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #a}>>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #a}>> -> tensor<64x1xi32, #a>
    %lda = arith.constant dense<32> : tensor<64x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<64x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<64x1xi32, #a> -> tensor<64x32xi32, #a>
    %ca = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #a}>>
    %ca1 = tile.expand_dims %ca {axis = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
    %ca2 = tile.broadcast %ca1 : tensor<1x32xi32, #a> -> tensor<64x32xi32, #a>
    %oa = arith.addi %ra3, %ca2 : tensor<64x32xi32, #a>
    %pas = tile.splat %pa0 : tensor<64x32x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
    %rb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #b}>>
    %rb1 = tile.expand_dims %rb {axis = 1 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #b}>> -> tensor<32x1xi32, #b>
    %ldb = arith.constant dense<128> : tensor<32x1xi32, #b>
    %rb2 = arith.muli %rb1, %ldb : tensor<32x1xi32, #b>
    %rb3 = tile.broadcast %rb2 : tensor<32x1xi32, #b> -> tensor<32x128xi32, #b>
    %cb = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #b}>>
    %cb1 = tile.expand_dims %cb {axis = 0 : i32} : tensor<128xi32, #tilegpu.slice<{dim = 0, parent = #b}>> -> tensor<1x128xi32, #b>
    %cb2 = tile.broadcast %cb1 : tensor<1x128xi32, #b> -> tensor<32x128xi32, #b>
    %ob = arith.addi %rb3, %cb2 : tensor<32x128xi32, #b>
    %pbs = tile.splat %pb0 : tensor<32x128x!tile.ptr<f16>, #b>
    %b0 = tile.addptr %pbs, %ob : tensor<32x128x!tile.ptr<f16>, #b>, tensor<32x128xi32, #b>
    // CHECK: %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x32xf16, #[[$SA]]>
    // CHECK-NEXT: %[[RB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x32x128xf16, #[[$SB]]>
    // CHECK-NEXT: tilegpu.barrier
    // Prologue: iterations 0 and 1, one commit group each.
    // CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32x!tile.ptr<f16>, #{{.*}}> -> !tilegpu.memdesc<64x32xf16, #[[$SA]]>
    // CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x128x!tile.ptr<f16>, #{{.*}}> -> !tilegpu.memdesc<32x128xf16, #[[$SB]]>
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK: tilegpu.async_copy_global_to_local
    // CHECK: tilegpu.async_copy_global_to_local
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^ ]*}}, {{.*}}, %[[READ:[^ ]*]] = %{{[^ ]*}}, %[[FETCH:[^ ]*]] = %{{[^ ]*}})
    // CHECK-NEXT: tilegpu.async_wait {num = 1 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // The copies of two iterations ahead, into the slot read last time.
    // CHECK: %[[FA:.*]] = tilegpu.memdesc_index %[[RA]][%[[FETCH]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[FA]], %{{.*}}
    // CHECK: %[[FB:.*]] = tilegpu.memdesc_index %[[RB]][%[[FETCH]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[FB]], %{{.*}}
    // CHECK-NEXT: tilegpu.async_commit_group
    // Then this iteration's tiles, read into the dot-operand layouts.
    // CHECK: %[[XA:.*]] = tilegpu.memdesc_index %[[RA]][%[[READ]]]
    // CHECK-NEXT: %[[XB:.*]] = tilegpu.memdesc_index %[[RB]][%[[READ]]]
    // CHECK-NEXT: %[[LA:.*]] = tilegpu.local_load %[[XA]] : !tilegpu.memdesc<64x32xf16, #[[$SA]]> -> tensor<64x32xf16, #[[$DA]]>
    // CHECK-NEXT: %[[LB:.*]] = tilegpu.local_load %[[XB]] : !tilegpu.memdesc<32x128xf16, #[[$SB]]> -> tensor<32x128xf16, #[[$DB]]>
    // CHECK-NEXT: %{{.*}} = tile.dot %[[LA]], %[[LB]], %[[ACC]]
    // CHECK-NOT: tilegpu.fence_async_shared
    // CHECK-NOT: tilegpu.convert_layout
    // CHECK: scf.yield
    // CHECK: tilegpu.async_wait {num = 0 : i32}
    // CHECK-NEXT: tilegpu.barrier
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %pa = %a0, %pb = %b0) -> (tensor<64x128xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x128x!tile.ptr<f16>, #b>) : i32 {
      %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #a>
      %y = tile.load %pb : tensor<32x128x!tile.ptr<f16>, #b>
      %xd = tilegpu.convert_layout %x : tensor<64x32xf16, #a> -> tensor<64x32xf16, #da>
      %yd = tilegpu.convert_layout %y : tensor<32x128xf16, #b> -> tensor<32x128xf16, #db>
      %d = tile.dot %xd, %yd, %acc : tensor<64x32xf16, #da> * tensor<32x128xf16, #db> -> tensor<64x128xf32, #mma>
      %na = tile.addptr %pa, %sa : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
      %nb = tile.addptr %pb, %sb : tensor<32x128x!tile.ptr<f16>, #b>, tensor<32x128xi32, #b>
      scf.yield %d, %na, %nb : tensor<64x128xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x128x!tile.ptr<f16>, #b>
    }
    return %res#0 : tensor<64x128xf32, #mma>
  }
}

// -----

// tf32 operands (f32, kWidth 1) are staged too; their local_loads read
// element by element. B's tile is contiguous along N, as loaded.
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#db = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @tf32
  func.func @tf32(%a0: tensor<32x32x!tile.ptr<f32>, #a>, %n: i32) -> tensor<32x32xf32, #mma> attributes {tile.num_stages = 2 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
    %s = arith.constant dense<32> : tensor<32x32xi32, #a>
    // CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<2x32x32xf32, #[[S:.*]]>
    // CHECK: scf.for
    // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // CHECK: tilegpu.async_copy_global_to_local
    // CHECK: tilegpu.local_load %{{.*}} : !tilegpu.memdesc<32x32xf32, #[[S]]> -> tensor<32x32xf32, #{{.*}}>
    // CHECK: tilegpu.local_load %{{.*}} : !tilegpu.memdesc<32x32xf32, #[[S]]> -> tensor<32x32xf32, #{{.*}}>
    // CHECK-NEXT: tile.dot
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %p = %a0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tile.ptr<f32>, #a>) : i32 {
      %x = tile.load %p : tensor<32x32x!tile.ptr<f32>, #a>
      %y = tile.load %p : tensor<32x32x!tile.ptr<f32>, #a>
      %xd = tilegpu.convert_layout %x : tensor<32x32xf32, #a> -> tensor<32x32xf32, #da>
      %yd = tilegpu.convert_layout %y : tensor<32x32xf32, #a> -> tensor<32x32xf32, #db>
      %d = tile.dot %xd, %yd, %acc : tensor<32x32xf32, #da> * tensor<32x32xf32, #db> -> tensor<32x32xf32, #mma>
      %np = tile.addptr %p, %s : tensor<32x32x!tile.ptr<f32>, #a>, tensor<32x32xi32, #a>
      scf.yield %d, %np : tensor<32x32xf32, #mma>, tensor<32x32x!tile.ptr<f32>, #a>
    }
    return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A's runs are single f16 elements (2 bytes: too narrow for cp.async): the
// staging is undone and the loop keeps the register prefetch, both
// conversions in place.
#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @narrow
  // CHECK-NOT: tilegpu.local_alloc
  // CHECK-NOT: tilegpu.local_load
  // CHECK: scf.for {{.*}} -> (tensor<32x32xf32, #{{.*}}>, tensor<32x32x!tile.ptr<f16>, #{{.*}}>, tensor<32x32x!tile.ptr<f16>, #{{.*}}>, tensor<32x32xf16, #{{.*}}>, tensor<32x32xf16, #{{.*}}>)
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<32x32xf16, #{{.*}}> -> tensor<32x32xf16, #dot_op>
  // CHECK-NEXT: tilegpu.convert_layout %{{.*}} : tensor<32x32xf16, #{{.*}}> -> tensor<32x32xf16, #dot_op1>
  // CHECK-NOT: tilegpu.local_alloc
  // CHECK-NOT: tilegpu.local_load
  func.func @narrow(%a0: tensor<32x32x!tile.ptr<f16>, #a>, %b0: tensor<32x32x!tile.ptr<f16>, #b>, %n: i32) -> tensor<32x32xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
    %sa = arith.constant dense<32> : tensor<32x32xi32, #a>
    %sb = arith.constant dense<32> : tensor<32x32xi32, #b>
    %res:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %pa = %a0, %pb = %b0) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tile.ptr<f16>, #a>, tensor<32x32x!tile.ptr<f16>, #b>) : i32 {
      %x = tile.load %pa : tensor<32x32x!tile.ptr<f16>, #a>
      %y = tile.load %pb : tensor<32x32x!tile.ptr<f16>, #b>
      %xd = tilegpu.convert_layout %x : tensor<32x32xf16, #a> -> tensor<32x32xf16, #da>
      %yd = tilegpu.convert_layout %y : tensor<32x32xf16, #b> -> tensor<32x32xf16, #db>
      %d = tile.dot %xd, %yd, %acc : tensor<32x32xf16, #da> * tensor<32x32xf16, #db> -> tensor<32x32xf32, #mma>
      %na = tile.addptr %pa, %sa : tensor<32x32x!tile.ptr<f16>, #a>, tensor<32x32xi32, #a>
      %nb = tile.addptr %pb, %sb : tensor<32x32x!tile.ptr<f16>, #b>, tensor<32x32xi32, #b>
      scf.yield %d, %na, %nb : tensor<32x32xf32, #mma>, tensor<32x32x!tile.ptr<f16>, #a>, tensor<32x32x!tile.ptr<f16>, #b>
    }
    return %res#0 : tensor<32x32xf32, #mma>
  }
}

// -----

// A dot of trans(x): x (loaded 32 x 64, contiguous along its rows) is
// staged as it is and read through memdesc_trans (ldmatrix .trans); the
// register transpose goes.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#da = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#db = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @transposed
  func.func @transposed(%p0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 2 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #a}>>
    %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #a}>> -> tensor<32x1xi32, #a>
    %ld = arith.constant dense<64> : tensor<32x1xi32, #a>
    %r2 = arith.muli %r1, %ld : tensor<32x1xi32, #a>
    %r3 = tile.broadcast %r2 : tensor<32x1xi32, #a> -> tensor<32x64xi32, #a>
    %c = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #a}>>
    %c1d = tile.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #a}>> -> tensor<1x64xi32, #a>
    %c2 = tile.broadcast %c1d : tensor<1x64xi32, #a> -> tensor<32x64xi32, #a>
    %o = arith.addi %r3, %c2 : tensor<32x64xi32, #a>
    %ps = tile.splat %p0 : tensor<32x64x!tile.ptr<f16>, #a>
    %x0 = tile.addptr %ps, %o : tensor<32x64x!tile.ptr<f16>, #a>, tensor<32x64xi32, #a>
    %step = arith.constant dense<2048> : tensor<32x64xi32, #a>
    // CHECK: %[[R:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x32x64xf16, #[[S:.*]]>
    // CHECK: scf.for
    // CHECK: tilegpu.async_commit_group
    // CHECK: %[[X:.*]] = tilegpu.memdesc_index %[[R]][%[[READ:.*]]]
    // CHECK-NEXT: tilegpu.memdesc_index %{{.*}}[%[[READ]]]
    // CHECK-NEXT: %[[XT:.*]] = tilegpu.memdesc_trans %[[X]] : !tilegpu.memdesc<32x64xf16, #[[S]]> -> !tilegpu.memdesc<64x32xf16, #{{.*}}>
    // CHECK-NEXT: %[[L:.*]] = tilegpu.local_load %[[XT]] : {{.*}} -> tensor<64x32xf16, #{{.*}}>
    // CHECK: tile.dot %[[L]]
    // CHECK-NOT: tile.trans
    %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %p = %x0) -> (tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %p : tensor<32x64x!tile.ptr<f16>, #a>
      %xt = tile.trans %x : tensor<32x64xf16, #a> -> tensor<64x32xf16, #t>
      %xd = tilegpu.convert_layout %xt : tensor<64x32xf16, #t> -> tensor<64x32xf16, #da>
      %y = tile.load %p : tensor<32x64x!tile.ptr<f16>, #a>
      %yd = tilegpu.convert_layout %y : tensor<32x64xf16, #a> -> tensor<32x64xf16, #db>
      %d = tile.dot %xd, %yd, %acc : tensor<64x32xf16, #da> * tensor<32x64xf16, #db> -> tensor<64x64xf32, #mma>
      %np = tile.addptr %p, %step : tensor<32x64x!tile.ptr<f16>, #a>, tensor<32x64xi32, #a>
      scf.yield %d, %np : tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<64x64xf32, #mma>
  }
}
