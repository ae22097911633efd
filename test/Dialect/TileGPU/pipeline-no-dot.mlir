// RUN: tile-opt %s -split-input-file --tilegpu-pipeline=tma=false -canonicalize -cse | FileCheck %s --enable-var-scope
// A loop that asks for pipelining itself (its own tile.num_stages, as
// `tl.range(..., num_stages=)` sets) and has no dot gets its loads
// pipelined, as Triton does: each load cp.async can copy (runs of 4 bytes
// or more) whose address the loop computes from its induction variable and
// iter args is staged in a row-major tile (the copying thread reads its
// elements back: no swizzle), in a ring of num_stages tiles filled
// num_stages - 1 iterations ahead. A masked-off copy writes zero; a nonzero
// `other` comes back through a select. The rings must fit 96 KB: fewer
// stages first, else nothing is staged.

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$S:.*]] = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
  // CHECK-LABEL: func.func @rows
  // CHECK-SAME: (%[[OUT:[^:]*]]: !tile.ptr<f32> {{.*}}, %[[IN:[^:]*]]: !tile.ptr<f32> {{.*}}, %[[STRIDE:[^:]*]]: i32 {{.*}}, %[[N:[^:]*]]: i32 {{.*}}, %[[LB:[^:]*]]: i32, %[[UB:[^:]*]]: i32, %[[STEP:[^:]*]]: i32)
  func.func @rows(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %in: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %lb: i32, %ub: i32, %step: i32) {
    // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
    // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
    // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : i32
    // CHECK-DAG: %[[NINF:.*]] = arith.constant dense<0xFF800000>
    // CHECK: %[[MASK:.*]] = arith.cmpi slt
    // CHECK-NEXT: %[[RING:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x512xf32, #[[$S]]>
    // CHECK-NEXT: tilegpu.barrier
    // Rows lb and lb + step into slots 0 and 1, each masked by "the row exists".
    // CHECK: %[[HAS0:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
    // CHECK: %[[T0:.*]] = tilegpu.memdesc_index %[[RING]][%[[C0]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[T0]], %{{.*}} : tensor<512x!tile.ptr<f32>, #blocked> -> !tilegpu.memdesc<512xf32, #[[$S]]> mask tensor<512xi1, #blocked>
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK: %[[T1:.*]] = tilegpu.memdesc_index %[[RING]][%[[C1]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[T1]]
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK: scf.if %[[HAS0]] {
    // CHECK-NEXT: scf.for %[[ROW:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[READ:.*]] = %[[C0]], %[[FETCH:.*]] = %[[C2]]) -> (i32, i32)
    // This row's copies have landed; then row + 2 * step into the slot read last.
    // CHECK-NEXT: tilegpu.async_wait {num = 1 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // CHECK-NEXT: %[[AHEAD:.*]] = arith.muli %[[STEP]], %[[C2]] : i32
    // CHECK-NEXT: arith.addi %[[ROW]], %[[AHEAD]] : i32
    // CHECK: %[[TF:.*]] = tilegpu.memdesc_index %[[RING]][%[[FETCH]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[TF]]
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK-NEXT: %[[TR:.*]] = tilegpu.memdesc_index %[[RING]][%[[READ]]]
    // CHECK-NOT: tile.load
    // CHECK: %[[X:.*]] = tilegpu.local_load %[[TR]] : !tilegpu.memdesc<512xf32, #[[$S]]> -> tensor<512xf32, #blocked>
    // CHECK-NEXT: %[[XS:.*]] = arith.select %[[MASK]], %[[X]], %[[NINF]]
    // CHECK-NEXT: tile.reduce max %[[XS]]
    // CHECK: tile.store
    // CHECK: scf.yield
    // CHECK: } {tile.num_stages = 3 : i32}
    // CHECK: tilegpu.async_wait {num = 0 : i32}
    // CHECK-NEXT: tilegpu.barrier
    %cols = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %ns = tile.splat %n : tensor<512xi32, #b>
    %mask = arith.cmpi slt, %cols, %ns : tensor<512xi32, #b>
    %ninf = arith.constant dense<0xFF800000> : tensor<512xf32, #b>
    scf.for %row = %lb to %ub step %step : i32 {
      %off = arith.muli %row, %stride : i32
      %base = tile.addptr %in, %off : !tile.ptr<f32>, i32
      %bs = tile.splat %base : tensor<512x!tile.ptr<f32>, #b>
      %p = tile.addptr %bs, %cols : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
      %x = tile.load %p, %mask, %ninf : tensor<512x!tile.ptr<f32>, #b>
      %m = tile.reduce max %x axis = 0 : tensor<512xf32, #b> -> f32
      %ms = tile.splat %m : tensor<512xf32, #b>
      %y = arith.subf %x, %ms : tensor<512xf32, #b>
      %obase = tile.addptr %out, %off : !tile.ptr<f32>, i32
      %os = tile.splat %obase : tensor<512x!tile.ptr<f32>, #b>
      %q = tile.addptr %os, %cols : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
      tile.store %q, %y, %mask : tensor<512x!tile.ptr<f32>, #b>
    } {tile.num_stages = 3 : i32}
    return
  }
}

// -----

// The same loop without a depth of its own (the kernel's num_stages is a
// default, not a request): its load stays where it is, as in Triton.
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @kernel_depth_only
  // CHECK-NOT: local_alloc
  // CHECK-NOT: async_copy
  // CHECK: scf.for
  // CHECK-NEXT: tile.addptr
  // CHECK-NEXT: tile.load
  func.func @kernel_depth_only(%in: tensor<512x!tile.ptr<f32>, #b> {tile.divisibility = 16 : i32, tile.contiguity = 512 : i32}, %out: !tile.ptr<f32>, %lb: i32, %ub: i32) attributes {tile.num_stages = 3 : i32} {
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<512> : tensor<512xi32, #b>
    %r = scf.for %i = %lb to %ub step %c1 iter_args(%p = %in) -> (tensor<512x!tile.ptr<f32>, #b>) : i32 {
      %q = tile.addptr %p, %step : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
      %x = tile.load %q : tensor<512x!tile.ptr<f32>, #b>
      %s = tile.reduce sum %x axis = 0 : tensor<512xf32, #b> -> f32
      %o = tile.addptr %out, %i : !tile.ptr<f32>, i32
      tile.store %o, %s : !tile.ptr<f32>
      scf.yield %q : tensor<512x!tile.ptr<f32>, #b>
    }
    return
  }
}

// -----

// An index block and the block gathered through it: the gathered load is
// staged; its address comes from the index load, which each fetch issues
// again for the iteration it fetches (masked by "the iteration exists"),
// so the index block is not staged itself (and its load in the body, now
// unused, goes).
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @gather
  // CHECK: %[[RING:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x512xf32, #{{.*}}>
  // CHECK-NOT: local_alloc
  // CHECK: %[[HAS0:.*]] = tile.splat %{{.*}} : tensor<512xi1, #blocked>
  // CHECK-NEXT: %[[J0:.*]] = tile.load %{{.*}}, %[[HAS0]] : tensor<512x!tile.ptr<i32>, #blocked>
  // CHECK-NEXT: %[[G0:.*]] = tile.addptr %{{.*}}, %[[J0]]
  // CHECK: tilegpu.async_copy_global_to_local %[[G0]], %{{.*}}, %[[HAS0]]
  // CHECK: scf.for
  // CHECK: %[[HAS:.*]] = tile.splat %{{.*}} : tensor<512xi1, #blocked>
  // CHECK-NEXT: %[[J:.*]] = tile.load %{{.*}}, %[[HAS]] : tensor<512x!tile.ptr<i32>, #blocked>
  // CHECK-NEXT: %[[G:.*]] = tile.addptr %{{.*}}, %[[J]]
  // CHECK: tilegpu.async_copy_global_to_local %[[G]], %{{.*}}, %[[HAS]]
  // CHECK-NOT: tile.load
  // CHECK: tilegpu.local_load
  // CHECK-NOT: tile.load
  // CHECK: scf.yield
  func.func @gather(%idx: tensor<512x!tile.ptr<i32>, #b> {tile.divisibility = 16 : i32, tile.contiguity = 512 : i32}, %src: tensor<512x!tile.ptr<f32>, #b>, %out: !tile.ptr<f32>, %lb: i32, %ub: i32) {
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<512> : tensor<512xi32, #b>
    %r = scf.for %i = %lb to %ub step %c1 iter_args(%p = %idx) -> (tensor<512x!tile.ptr<i32>, #b>) : i32 {
      %j = tile.load %p : tensor<512x!tile.ptr<i32>, #b>
      %g = tile.addptr %src, %j : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
      %x = tile.load %g : tensor<512x!tile.ptr<f32>, #b>
      %s = tile.reduce sum %x axis = 0 : tensor<512xf32, #b> -> f32
      %o = tile.addptr %out, %i : !tile.ptr<f32>, i32
      tile.store %o, %s : !tile.ptr<f32>
      %q = tile.addptr %p, %step : tensor<512x!tile.ptr<i32>, #b>, tensor<512xi32, #b>
      scf.yield %q : tensor<512x!tile.ptr<i32>, #b>
    } {tile.num_stages = 2 : i32}
    return
  }
}

// -----

// Rings over budget: 8192 f32 (32 KB a tile) asked for 5 stages get 3
// (96 KB); 32768 f32 (128 KB a tile) are not staged even at 2 stages.
// f16 runs of one element (2 bytes: the pointers' alignment is unknown)
// are too narrow for cp.async and stay loads.
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @budget
  // CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x8192xf32
  // CHECK-NOT: local_alloc
  // CHECK: scf.for
  // CHECK: tilegpu.async_wait {num = 1 : i32}
  // CHECK: tile.load %{{.*}} : tensor<32768x!tile.ptr<f32>, #blocked>
  // CHECK: tile.load %{{.*}} : tensor<512x!tile.ptr<f16>, #blocked>
  func.func @budget(%a: tensor<8192x!tile.ptr<f32>, #b> {tile.divisibility = 16 : i32, tile.contiguity = 8192 : i32}, %big: tensor<32768x!tile.ptr<f32>, #b> {tile.divisibility = 16 : i32, tile.contiguity = 32768 : i32}, %h: tensor<512x!tile.ptr<f16>, #b>, %out: !tile.ptr<f32>, %lb: i32, %ub: i32) {
    %c1 = arith.constant 1 : i32
    scf.for %i = %lb to %ub step %c1 : i32 {
      %x = tile.load %a : tensor<8192x!tile.ptr<f32>, #b>
      %y = tile.load %big : tensor<32768x!tile.ptr<f32>, #b>
      %z = tile.load %h : tensor<512x!tile.ptr<f16>, #b>
      %sx = tile.reduce sum %x axis = 0 : tensor<8192xf32, #b> -> f32
      %sy = tile.reduce sum %y axis = 0 : tensor<32768xf32, #b> -> f32
      %zf = arith.extf %z : tensor<512xf16, #b> to tensor<512xf32, #b>
      %sz = tile.reduce sum %zf axis = 0 : tensor<512xf32, #b> -> f32
      %s1 = arith.addf %sx, %sy : f32
      %s = arith.addf %s1, %sz : f32
      %o = tile.addptr %out, %i : !tile.ptr<f32>, i32
      tile.store %o, %s : !tile.ptr<f32>
    } {tile.num_stages = 5 : i32}
    return
  }
}
