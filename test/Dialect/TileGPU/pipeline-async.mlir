// RUN: tile-opt %s -split-input-file --tilegpu-pipeline=tma=false | FileCheck %s --enable-var-scope
// Loops whose dot operands are loaded from global memory and staged in
// swizzled shared memory for tilegpu.warpgroup_dot get a ring of
// num_stages buffers per operand, filled num_stages - 1 iterations ahead
// by cp.async copies (one commit group per iteration). A load that cannot
// be copied that way (a nonzero `other`, runs under 4 bytes, a mask that
// is not one value over a run) keeps the register prefetch of
// pipeline.mlir. (Bulk tensor copies, the default where they apply, are
// pipeline-tma.mlir.)

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$S:.*]] = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
  // CHECK-LABEL: func.func @matmul
  // CHECK-SAME: (%[[PA:[^:]*]]: !tile.ptr<f16> {{.*}}, %[[PB:[^:]*]]: !tile.ptr<f16> {{.*}}, %[[N:[^:]*]]: i32 {{.*}}, %[[LDB:[^:]*]]: i32 {{.*}})
  func.func @matmul(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    // CHECK: %[[C0:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i32
    // CHECK: %[[STEPA:.*]] = arith.constant dense<64> : tensor<128x64xi32, #blocked>
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    // A: 128x64, rows 64 elements apart.
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    // CHECK: %[[A0:.*]] = tile.addptr %{{.*}} : tensor<128x64x!tile.ptr<f16>, #blocked>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    // B: 64x64, rows %ldb elements apart.
    %rb = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %rb1 = tile.expand_dims %rb {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ldbs = tile.splat %ldb : tensor<64x1xi32, #a>
    %rb2 = arith.muli %rb1, %ldbs : tensor<64x1xi32, #a>
    %rb3 = tile.broadcast %rb2 : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %cb = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %ob = arith.addi %rb3, %cb : tensor<64x64xi32, #a>
    %pbs = tile.splat %pb : tensor<64x64x!tile.ptr<f16>, #a>
    // CHECK: %[[B0:.*]] = tile.addptr %{{.*}} : tensor<64x64x!tile.ptr<f16>, #blocked>
    %b0 = tile.addptr %pbs, %ob : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>

    // One ring of 3 tiles per operand.
    // CHECK-NEXT: %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x128x64xf16, #[[$S]]>
    // CHECK-NEXT: %[[RB:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[$S]]>
    // The rings may reuse bytes other warps still read (a conversion's
    // scratch): a barrier before the first copy.
    // CHECK-NEXT: tilegpu.barrier
    // CHECK-NOT: tile.load
    // Prologue, iteration 0 (k = 0) into slot 0: A's mask (0 < n - 0) and
    // B's (none) both guarded by 0 < n.
    // CHECK-NEXT: %[[SLOT0:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[RUN0:.*]] = arith.cmpi slt, %[[C0]], %[[N]] : i32
    // CHECK-NEXT: %[[LEFT0:.*]] = arith.subi %[[N]], %[[C0]] : i32
    // CHECK: %[[MA0:.*]] = tile.broadcast %{{.*}} : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    // CHECK-NEXT: %[[G0:.*]] = tile.splat %[[RUN0]] : tensor<128x64xi1, #blocked>
    // CHECK-NEXT: %[[GA0:.*]] = arith.andi %[[MA0]], %[[G0]] : tensor<128x64xi1, #blocked>
    // CHECK-NEXT: %[[TA0:.*]] = tilegpu.memdesc_index %[[RA]][%[[SLOT0]]] : !tilegpu.memdesc<3x128x64xf16, #[[$S]]> -> !tilegpu.memdesc<128x64xf16, #[[$S]]>
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %[[A0]], %[[TA0]], %[[GA0]] : tensor<128x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<128x64xf16, #[[$S]]> mask tensor<128x64xi1, #blocked>
    // CHECK-NEXT: %[[GB0:.*]] = tile.splat %[[RUN0]] : tensor<64x64xi1, #blocked>
    // CHECK-NEXT: %[[TB0:.*]] = tilegpu.memdesc_index %[[RB]][%[[SLOT0]]] : !tilegpu.memdesc<3x64x64xf16, #[[$S]]> -> !tilegpu.memdesc<64x64xf16, #[[$S]]>
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %[[B0]], %[[TB0]], %[[GB0]] : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<64x64xf16, #[[$S]]> mask tensor<64x64xi1, #blocked>
    // CHECK-NEXT: tilegpu.async_commit_group
    // The addresses one iteration on.
    // CHECK-NEXT: %[[A1:.*]] = tile.addptr %[[A0]], %[[STEPA]]
    // CHECK-NEXT: %[[SB0:.*]] = arith.muli %[[LDB]], %[[C64]] : i32
    // CHECK-NEXT: %[[SB0S:.*]] = tile.splat %[[SB0]]
    // CHECK-NEXT: %[[B1:.*]] = tile.addptr %[[B0]], %[[SB0S]]
    // Iteration 1 (k = 0 + 64 * 1) into slot 1.
    // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[D1:.*]] = arith.muli %[[C64]], %[[ONE]] : i32
    // CHECK-NEXT: %[[K1:.*]] = arith.addi %[[C0]], %[[D1]] : i32
    // CHECK-NEXT: %[[SLOT1:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[RUN1:.*]] = arith.cmpi slt, %[[K1]], %[[N]] : i32
    // CHECK-NEXT: %[[LEFT1:.*]] = arith.subi %[[N]], %[[K1]] : i32
    // CHECK: %[[TA1:.*]] = tilegpu.memdesc_index %[[RA]][%[[SLOT1]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %[[A1]], %[[TA1]], %{{.*}} :
    // CHECK-NEXT: %[[GB1:.*]] = tile.splat %[[RUN1]] : tensor<64x64xi1, #blocked>
    // CHECK-NEXT: %[[TB1:.*]] = tilegpu.memdesc_index %[[RB]][%[[SLOT1]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %[[B1]], %[[TB1]], %[[GB1]] :
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK-NEXT: %[[A2:.*]] = tile.addptr %[[A1]], %[[STEPA]]
    // CHECK: %[[B2:.*]] = tile.addptr %[[B1]]
    // No third prologue group: slot 2 is fetched by iteration 0.
    // CHECK-NOT: tilegpu.async_copy_global_to_local
    // CHECK-NOT: tilegpu.async_commit_group
    // The loop carries the next addresses to fetch, the slot read by this
    // iteration (0) and the slot fetched into (2).
    // CHECK: %[[READ0:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[FETCH0:.*]] = arith.constant 2 : i32
    // The loop may run no iteration (n is not known): it is guarded, so the
    // path that skips it never reaches the final wait of its dots.
    // CHECK-NEXT: %[[RUNS:.*]] = arith.cmpi slt, %[[C0]], %[[N]] : i32
    // CHECK-NEXT: %[[IF:.*]]:3 = scf.if %[[RUNS]] -> (tensor<128x64xf32, #{{.*}}>, tensor<128x64x!tile.ptr<f16>, #{{.*}}>, tensor<64x64x!tile.ptr<f16>, #{{.*}}>) {
    // The pointers the loads used are not carried: the copies take theirs
    // from the fetch state, two iterations ahead.
    // CHECK-NEXT: %[[RES:.*]]:5 = scf.for %[[K:.*]] = %[[C0]] to %[[N]] step %[[C64]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[FA:.*]] = %[[A2]], %[[FB:.*]] = %[[B2]], %[[READ:.*]] = %[[READ0]], %[[FETCH:.*]] = %[[FETCH0]])
    // Iteration k's group has landed (at most one younger one in flight)
    // in every thread: no proxy fence (its MEMBAR would wait for the younger
    // groups too).
    // CHECK-NEXT: tilegpu.async_wait {num = 1 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // The dot reads this iteration's slot.
    // CHECK-NEXT: %[[XA:.*]] = tilegpu.memdesc_index %[[RA]][%[[READ]]] : !tilegpu.memdesc<3x128x64xf16, #[[$S]]> -> !tilegpu.memdesc<128x64xf16, #[[$S]]>
    // CHECK-NEXT: %[[XB:.*]] = tilegpu.memdesc_index %[[RB]][%[[READ]]] : !tilegpu.memdesc<3x64x64xf16, #[[$S]]> -> !tilegpu.memdesc<64x64xf16, #[[$S]]>
    // CHECK-NOT: tile.load
    // CHECK-NOT: tilegpu.local_alloc
    // The accumulating dot runs asynchronously; the previous iteration's
    // has completed after the wait, in every warp after the barrier.
    // CHECK: %[[D0:.*]] = tilegpu.warpgroup_dot %[[XA]], %[[XB]], %[[ACC]] {isAsync}
    // CHECK-NEXT: %[[D:.*]] = tilegpu.warpgroup_dot_wait %[[D0]] {pendings = 1 : i32}
    // CHECK-NOT: tilegpu.barrier
    // Then (one warp group: its wait suffices, no barrier) the copies of
    // iteration k + 2 * 64 into the slot that dot read.
    // CHECK: %[[TWO:.*]] = arith.constant 2 : i32
    // CHECK-NEXT: %[[AHEAD:.*]] = arith.muli %[[C64]], %[[TWO]] : i32
    // CHECK-NEXT: %[[KF:.*]] = arith.addi %[[K]], %[[AHEAD]] : i32
    // CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[KF]], %[[N]] : i32
    // CHECK-NEXT: %[[LEFTF:.*]] = arith.subi %[[N]], %[[KF]] : i32
    // CHECK: %[[MAF:.*]] = tile.broadcast %{{.*}} : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    // CHECK-NEXT: %[[GF:.*]] = tile.splat %[[MORE]] : tensor<128x64xi1, #blocked>
    // CHECK-NEXT: %[[GAF:.*]] = arith.andi %[[MAF]], %[[GF]]
    // CHECK-NEXT: %[[TAF:.*]] = tilegpu.memdesc_index %[[RA]][%[[FETCH]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %[[FA]], %[[TAF]], %[[GAF]] :
    // CHECK-NEXT: %[[GBF:.*]] = tile.splat %[[MORE]] : tensor<64x64xi1, #blocked>
    // CHECK-NEXT: %[[TBF:.*]] = tilegpu.memdesc_index %[[RB]][%[[FETCH]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %[[FB]], %[[TBF]], %[[GBF]] :
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK-NEXT: %[[NFA:.*]] = tile.addptr %[[FA]], %[[STEPA]]
    // CHECK: %[[NFB:.*]] = tile.addptr %[[FB]]
    // Both slots advance modulo 3.
    // CHECK: %[[ONE1:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[R1:.*]] = arith.addi %[[READ]], %[[ONE1]] : i32
    // CHECK-NEXT: %[[THREE:.*]] = arith.constant 3 : i32
    // CHECK-NEXT: %[[RW:.*]] = arith.cmpi eq, %[[R1]], %[[THREE]] : i32
    // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[NR:.*]] = arith.select %[[RW]], %[[ZERO]], %[[R1]] : i32
    // CHECK-NEXT: %[[ONE2:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[F1:.*]] = arith.addi %[[FETCH]], %[[ONE2]] : i32
    // CHECK-NEXT: %[[THREE2:.*]] = arith.constant 3 : i32
    // CHECK-NEXT: %[[FW:.*]] = arith.cmpi eq, %[[F1]], %[[THREE2]] : i32
    // CHECK-NEXT: %[[ZERO2:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[NF:.*]] = arith.select %[[FW]], %[[ZERO2]], %[[F1]] : i32
    // CHECK-NEXT: scf.yield %[[D]], %[[NFA]], %[[NFB]], %[[NR]], %[[NF]] :
    // CHECK-NEXT: }
    // The last dot completes; no copy may still be writing when the buffers
    // are reused. (The dropped pointers' results, unused, are their inits.)
    // CHECK-NEXT: %[[DONE:.*]] = tilegpu.warpgroup_dot_wait %[[RES]]#0 {pendings = 0 : i32}
    // CHECK-NEXT: scf.yield %[[DONE]], %[[A0]], %[[B0]] :
    // CHECK-NEXT: } else {
    // CHECK-NEXT: scf.yield %{{.*}}, %[[A0]], %[[B0]] :
    // CHECK-NEXT: }
    // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // CHECK-NEXT: return %[[IF]]#0
    %res:3 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0, %pb_k = %b0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      // A is masked along K by n - k, a multiple of 16: the mask is one
      // value over each 16-byte run.
      %left = arith.subi %n, %k : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %m1 = arith.cmpi slt, %col, %lefts : tensor<1x64xi32, #a>
      %m = tile.broadcast %m1 : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %x = tile.load %pa_k, %m, %zero : tensor<128x64x!tile.ptr<f16>, #a>
      %y = tile.load %pb_k : tensor<64x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %ys, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %sb = arith.muli %ldb, %c64 : i32
      %sbs = tile.splat %sb : tensor<64x64xi32, #a>
      %nb = tile.addptr %pb_k, %sbs : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      scf.yield %d, %na, %nb : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// The other depths: num_stages = 2 (one prologue group, wait for all) and
// 4 (three prologue groups, two younger ones may stay in flight). B is
// loop-invariant here; A's load is the only one feeding the dot.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @two_stages
  // CHECK: %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x128x64xf16, #{{.*}}>
  // CHECK: %[[SLOT0:.*]] = arith.constant 0 : i32
  // CHECK: %[[T0:.*]] = tilegpu.memdesc_index %[[RA]][%[[SLOT0]]]
  // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[T0]], %{{.*}}
  // CHECK-NEXT: tilegpu.async_commit_group
  // CHECK-NOT: tilegpu.async_copy_global_to_local
  // CHECK: %[[READ0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[FETCH0:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: arith.cmpi slt
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: scf.for %[[K:.*]] = {{.*}} iter_args({{.*}}, %[[READ:.*]] = %[[READ0]], %[[FETCH:.*]] = %[[FETCH0]])
  // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
  // CHECK-NEXT: tilegpu.barrier
  // CHECK: %[[X:.*]] = tilegpu.memdesc_index %[[RA]][%[[READ]]]
  // CHECK: tilegpu.warpgroup_dot %[[X]], {{.*}} {isAsync}
  // CHECK-NEXT: tilegpu.warpgroup_dot_wait {{.*}} {pendings = 1 : i32}
  // CHECK-NOT: tilegpu.barrier
  // CHECK: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[AHEAD:.*]] = arith.muli %{{.*}}, %[[ONE]] : i32
  // CHECK-NEXT: %[[KF:.*]] = arith.addi %[[K]], %[[AHEAD]] : i32
  // CHECK: tilegpu.memdesc_index %[[RA]][%[[FETCH]]]
  // CHECK-NEXT: tilegpu.async_copy_global_to_local
  // CHECK-NEXT: tilegpu.async_commit_group
  // CHECK: %[[R1:.*]] = arith.addi %[[READ]], %{{.*}} : i32
  // CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: arith.cmpi eq, %[[R1]], %[[TWO]] : i32
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tilegpu.warpgroup_dot_wait {{.*}} {pendings = 0 : i32}
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
  // CHECK-NEXT: tilegpu.barrier
  func.func @two_stages(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 2 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<128x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %na : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }

  // CHECK-LABEL: func.func @four_stages
  // CHECK: %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<4x128x64xf16, #{{.*}}>
  // CHECK: %[[SLOT0:.*]] = arith.constant 0 : i32
  // CHECK: tilegpu.memdesc_index %[[RA]][%[[SLOT0]]]
  // CHECK-NEXT: tilegpu.async_copy_global_to_local
  // CHECK-NEXT: tilegpu.async_commit_group
  // CHECK: arith.addi
  // CHECK-NEXT: %[[SLOT1:.*]] = arith.constant 1 : i32
  // CHECK: tilegpu.memdesc_index %[[RA]][%[[SLOT1]]]
  // CHECK-NEXT: tilegpu.async_copy_global_to_local
  // CHECK-NEXT: tilegpu.async_commit_group
  // CHECK: arith.addi
  // CHECK-NEXT: %[[SLOT2:.*]] = arith.constant 2 : i32
  // CHECK: tilegpu.memdesc_index %[[RA]][%[[SLOT2]]]
  // CHECK-NEXT: tilegpu.async_copy_global_to_local
  // CHECK-NEXT: tilegpu.async_commit_group
  // CHECK-NOT: tilegpu.async_copy_global_to_local
  // CHECK: %[[READ0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[FETCH0:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: arith.cmpi slt
  // CHECK-NEXT: scf.if
  // CHECK-NEXT: scf.for %[[K:.*]] = {{.*}} iter_args({{.*}}, %[[READ:.*]] = %[[READ0]], %[[FETCH:.*]] = %[[FETCH0]])
  // CHECK-NEXT: tilegpu.async_wait {num = 2 : i32}
  // CHECK-NEXT: tilegpu.barrier
  // CHECK: %[[X:.*]] = tilegpu.memdesc_index %[[RA]][%[[READ]]]
  // CHECK: tilegpu.warpgroup_dot %[[X]], {{.*}} {isAsync}
  // CHECK-NEXT: tilegpu.warpgroup_dot_wait {{.*}} {pendings = 1 : i32}
  // CHECK-NOT: tilegpu.barrier
  // CHECK: %[[THREE:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: %[[AHEAD:.*]] = arith.muli %{{.*}}, %[[THREE]] : i32
  // CHECK-NEXT: %[[KF:.*]] = arith.addi %[[K]], %[[AHEAD]] : i32
  // CHECK: tilegpu.memdesc_index %[[RA]][%[[FETCH]]]
  // CHECK-NEXT: tilegpu.async_copy_global_to_local
  // CHECK-NEXT: tilegpu.async_commit_group
  // CHECK: %[[R1:.*]] = arith.addi %[[READ]], %{{.*}} : i32
  // CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : i32
  // CHECK-NEXT: arith.cmpi eq, %[[R1]], %[[FOUR]] : i32
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tilegpu.warpgroup_dot_wait {{.*}} {pendings = 0 : i32}
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
  // CHECK-NEXT: tilegpu.barrier
  func.func @four_stages(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<128x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %na : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// Loads that cannot be copied asynchronously: the register prefetch of
// pipeline.mlir instead (a guarded load before the loop, the next
// iteration's load in it, the staging alloc of the carried block).
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // A masked-off copy writes zeros: `other = 1.0` needs the load.
  // CHECK-LABEL: func.func @nonzero_other
  // CHECK-NOT: tilegpu.async
  // CHECK-NOT: !tilegpu.memdesc<3x
  // CHECK: %[[FIRST:.*]] = tile.load
  // CHECK-NOT: tilegpu.async
  // CHECK: scf.for {{.*}} iter_args({{.*}}, %[[CUR:.*]] = %[[FIRST]])
  // CHECK-NOT: tilegpu.async
  // CHECK: tile.load
  // CHECK-NOT: tilegpu.async
  // CHECK: tilegpu.local_alloc %[[CUR]]
  // CHECK-NOT: tilegpu.async
  // CHECK: return
  func.func @nonzero_other(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %one = arith.constant dense<1.0> : tensor<128x64xf16, #a>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %left = arith.subi %n, %k : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %m1 = arith.cmpi slt, %col, %lefts : tensor<1x64xi32, #a>
      %m = tile.broadcast %m1 : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %x = tile.load %pa_k, %m, %one : tensor<128x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %na : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }

  // Columns %sk elements apart (a runtime stride): single f16 elements,
  // under the 4 bytes cp.async copies at the least. The next block is
  // loaded into registers one iteration ahead: 32 registers of
  // accumulator, 64 of pointers and twice 32 f16 (one register each).
  // CHECK-LABEL: func.func @strided_small
  // CHECK-NOT: tilegpu.async
  // CHECK-NOT: !tilegpu.memdesc<3x
  // CHECK: %[[FIRST:.*]] = tile.load
  // CHECK-NOT: tilegpu.async
  // CHECK: scf.for {{.*}} iter_args({{.*}}, %[[CUR:.*]] = %[[FIRST]])
  // CHECK-NOT: tilegpu.async
  // CHECK: tile.load
  // CHECK-NOT: tilegpu.async
  // CHECK: tilegpu.local_alloc %[[CUR]]
  // CHECK-NOT: tilegpu.async
  // CHECK: return
  func.func @strided_small(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %sk: i32, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step_a = arith.constant dense<64> : tensor<64x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<64x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %sks = tile.splat %sk : tensor<1x64xi32, #a>
    %cols = arith.muli %col, %sks : tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<64x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %ca = tile.broadcast %cols : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<64x64xi32, #a>
    %pas = tile.splat %pa : tensor<64x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<64x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      scf.yield %d, %na : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<64x64xf32, #mma>
  }

  // The same with 128 rows: 64 registers of accumulator, 128 of pointers
  // and 64 f16 loaded an element at a time, each in a register of its own
  // until stored (not 32 packed ones): a second block in flight would pass
  // the 255 registers a thread has. The load stays where it is.
  // CHECK-LABEL: func.func @strided(
  // CHECK-NOT: tile.load
  // CHECK: scf.for {{.*}} -> (tensor<128x64xf32, #{{.*}}>, tensor<128x64x!tile.ptr<f16>, #{{.*}}>)
  // CHECK-NEXT: %[[X:.*]] = tile.load
  // CHECK-NEXT: tilegpu.local_alloc %[[X]]
  // CHECK-NOT: tilegpu.async
  // CHECK: return
  func.func @strided(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %sk: i32, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %sks = tile.splat %sk : tensor<1x64xi32, #a>
    %cols = arith.muli %col, %sks : tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %cols : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<128x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %na : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }

  // A bound %n of unknown alignment: the mask may change inside every run
  // of the contiguous addresses, so each f16 would be a copy of its own.
  // CHECK-LABEL: func.func @ragged_mask
  // CHECK-NOT: tilegpu.async
  // CHECK-NOT: !tilegpu.memdesc<3x
  // CHECK: %[[FIRST:.*]] = tile.load
  // CHECK-NOT: tilegpu.async
  // CHECK: scf.for {{.*}} iter_args({{.*}}, %[[CUR:.*]] = %[[FIRST]])
  // CHECK-NOT: tilegpu.async
  // CHECK: tile.load
  // CHECK-NOT: tilegpu.async
  // CHECK: tilegpu.local_alloc %[[CUR]]
  // CHECK-NOT: tilegpu.async
  // CHECK: return
  func.func @ragged_mask(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %left = arith.subi %n, %k : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %m1 = arith.cmpi slt, %col, %lefts : tensor<1x64xi32, #a>
      %m = tile.broadcast %m1 : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %x = tile.load %pa_k, %m, %zero : tensor<128x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %na : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// Two warp groups: a barrier after the wait, before the slot the previous
// dot read (both groups read B) is overwritten.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 8 : i32} {
  // CHECK-LABEL: func.func @two_groups
  // CHECK: scf.for
  // CHECK: tilegpu.warpgroup_dot {{.*}} {isAsync}
  // CHECK-NEXT: tilegpu.warpgroup_dot_wait {{.*}} {pendings = 1 : i32}
  // CHECK-NOT: tilegpu.async_copy_global_to_local
  // CHECK: tilegpu.barrier
  // CHECK: tilegpu.async_copy_global_to_local
  // CHECK: scf.yield
  func.func @two_groups(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<128x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %na : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// tf32 staging (f32 rounded to tf32 when stored from registers) is copied
// as it is: the tensor cores read the tf32 part. The loop runs 4 iterations
// (constant bounds): no guard.
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#sb = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @tf32_constant_trips
  // CHECK: tilegpu.local_alloc : () -> !tilegpu.memdesc<3x128x32xf32, #{{.*}}>
  // CHECK: tilegpu.async_copy_global_to_local
  // CHECK-NOT: scf.if
  // CHECK: scf.for
  // CHECK: tilegpu.warpgroup_dot {{.*}} {isAsync}
  // CHECK: tilegpu.async_copy_global_to_local
  // CHECK: scf.yield
  // CHECK-NEXT: }
  // CHECK-NEXT: tilegpu.warpgroup_dot_wait {{.*}} {pendings = 0 : i32}
  // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
  func.func @tf32_constant_trips(%a0: tensor<128x32x!tile.ptr<f32>, #a> {tile.contiguity = array<i32: 1, 4>, tile.divisibility = array<i32: 16, 16>}, %bs: !tilegpu.memdesc<32x64xf32, #sb>) -> tensor<128x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %c128 = arith.constant 128 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %step = arith.constant dense<32> : tensor<128x32xi32, #a>
    %res:2 = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x64xf32, #mma>, tensor<128x32x!tile.ptr<f32>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<128x32x!tile.ptr<f32>, #a>
      %xs = tilegpu.local_alloc %x {tilegpu.round_tf32} : (tensor<128x32xf32, #a>) -> !tilegpu.memdesc<128x32xf32, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x32xf32, #s>, !tilegpu.memdesc<32x64xf32, #sb> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step : tensor<128x32x!tile.ptr<f32>, #a>, tensor<128x32xi32, #a>
      scf.yield %d, %na : tensor<128x64xf32, #mma>, tensor<128x32x!tile.ptr<f32>, #a>
    }
    return %res#0 : tensor<128x64xf32, #mma>
  }
}

// -----

// A tile read through a transposed view (a dot of trans(x)): the ring holds
// x as loaded; each iteration views its slot transposed.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#t = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @transposed_view
  func.func @transposed_view(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %bs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step_a = arith.constant dense<4096> : tensor<64x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<64x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<64x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<64x64xi32, #a>
    %pas = tile.splat %pa : tensor<64x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    // CHECK: %[[RA:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[S:.*]]>
    // CHECK: scf.for
    // CHECK: %[[X:.*]] = tilegpu.memdesc_index %[[RA]]
    // CHECK-NEXT: %[[XT:.*]] = tilegpu.memdesc_trans %[[X]] : !tilegpu.memdesc<64x64xf16, #[[S]]> -> !tilegpu.memdesc<64x64xf16, #{{.*}}>
    // CHECK-NEXT: tilegpu.warpgroup_dot %[[XT]]
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<64x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %xt = tilegpu.memdesc_trans %xs : !tilegpu.memdesc<64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #t>
      %d = tilegpu.warpgroup_dot %xt, %bs, %acc : !tilegpu.memdesc<64x64xf16, #t>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      scf.yield %d, %na : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Two dots per iteration, the second's result only yielded but not
// accumulating into its own iter arg (attention: S = Q K^T, then
// O = P V + f(O)): the second runs on into the next iteration, which waits
// for it just before O is first used. The first dot waits at once (for
// the previous iteration's second dot too): after it and a barrier every
// warp is done with the previous slot, and the next iteration's copies
// start there, overlapping the rest of the body. After the loop, the last
// dot completes.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#t = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#p = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @two_dots_deferred
  func.func @two_dots_deferred(%pk: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pv: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %qs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 2 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #a>
    %ld = arith.constant dense<64> : tensor<64x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ra2 = arith.muli %ra1, %ld : tensor<64x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %o = arith.addi %ra3, %ca : tensor<64x64xi32, #a>
    %pks = tile.splat %pk : tensor<64x64x!tile.ptr<f16>, #a>
    %k0 = tile.addptr %pks, %o : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    %pvs = tile.splat %pv : tensor<64x64x!tile.ptr<f16>, #a>
    %v0 = tile.addptr %pvs, %o : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    // CHECK: %[[RK:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16, #[[S:[^>]*]]>
    // CHECK-NEXT: %[[RV:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16, #[[S]]>
    // CHECK: scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = 
    // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // CHECK-NOT: tilegpu.async_copy_global_to_local
    // CHECK: %[[S1:.*]] = tilegpu.warpgroup_dot %{{.*}} -> tensor<64x64xf32, #mma>
    // CHECK-NEXT: tilegpu.barrier
    // CHECK: %[[NK:.*]] = tilegpu.memdesc_index %[[RK]][%[[FETCH:arg[0-9]+]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[NK]]
    // CHECK: %[[NV:.*]] = tilegpu.memdesc_index %[[RV]][%[[FETCH]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[NV]]
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK: %[[O:.*]] = tilegpu.warpgroup_dot_wait %[[ACC]] {pendings = 0 : i32}
    // CHECK-NEXT: %[[F:.*]] = arith.addf %[[O]], %[[S1]]
    // CHECK-NEXT: %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %[[F]] {isAsync} : tensor<64x64xf16, #dot_op>
    // CHECK-NOT: tilegpu.async_copy_global_to_local
    // CHECK: scf.yield %[[D]],
    // CHECK: tilegpu.warpgroup_dot_wait %{{.*}}#0 {pendings = 0 : i32}
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %z, %pk_i = %k0, %pv_i = %v0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      %k = tile.load %pk_i : tensor<64x64x!tile.ptr<f16>, #a>
      %ks = tilegpu.local_alloc %k : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %kt = tilegpu.memdesc_trans %ks : !tilegpu.memdesc<64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #t>
      %s1 = tilegpu.warpgroup_dot %qs, %kt, %z : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #t> -> tensor<64x64xf32, #mma>
      %p = arith.truncf %s1 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #p>
      %v = tile.load %pv_i : tensor<64x64x!tile.ptr<f16>, #a>
      %vs = tilegpu.local_alloc %v : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %scaled = arith.addf %acc, %s1 : tensor<64x64xf32, #mma>
      %d = tilegpu.warpgroup_dot %pa, %vs, %scaled : tensor<64x64xf16, #p>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
      %nk = tile.addptr %pk_i, %step : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      %nv = tile.addptr %pv_i, %step : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      scf.yield %d, %nk, %nv : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The same loop with 8 stages: its rings (2 x 8 x 8 KiB) leave no room for
// a second block on the SM, so the barrier and the next copies move to the
// end of the body, after the second dot starts: the barrier's wait then
// overlaps that dot's tensor-core work, which no other block would fill.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#t = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#p = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @two_dots_deferred_alone
  func.func @two_dots_deferred_alone(%pk: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pv: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %qs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 8 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #a>
    %ld = arith.constant dense<64> : tensor<64x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ra2 = arith.muli %ra1, %ld : tensor<64x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %o = arith.addi %ra3, %ca : tensor<64x64xi32, #a>
    %pks = tile.splat %pk : tensor<64x64x!tile.ptr<f16>, #a>
    %k0 = tile.addptr %pks, %o : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    %pvs = tile.splat %pv : tensor<64x64x!tile.ptr<f16>, #a>
    %v0 = tile.addptr %pvs, %o : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    // CHECK: %[[RK:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<8x64x64xf16, #[[S:[^>]*]]>
    // CHECK: scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = 
    // CHECK: %[[S1:.*]] = tilegpu.warpgroup_dot %{{.*}} -> tensor<64x64xf32, #mma>
    // CHECK-NOT: tilegpu.barrier
    // CHECK-NOT: tilegpu.async_copy_global_to_local
    // CHECK: %[[O:.*]] = tilegpu.warpgroup_dot_wait %[[ACC]] {pendings = 0 : i32}
    // CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} {isAsync} : tensor<64x64xf16, #dot_op>
    // CHECK-NEXT: tilegpu.barrier
    // CHECK: %[[NK:.*]] = tilegpu.memdesc_index %[[RK]][%[[FETCH:arg[0-9]+]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[NK]]
    // CHECK: scf.yield %[[D]],
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %z, %pk_i = %k0, %pv_i = %v0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      %k = tile.load %pk_i : tensor<64x64x!tile.ptr<f16>, #a>
      %ks = tilegpu.local_alloc %k : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %kt = tilegpu.memdesc_trans %ks : !tilegpu.memdesc<64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #t>
      %s1 = tilegpu.warpgroup_dot %qs, %kt, %z : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #t> -> tensor<64x64xf32, #mma>
      %p = arith.truncf %s1 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #p>
      %v = tile.load %pv_i : tensor<64x64x!tile.ptr<f16>, #a>
      %vs = tilegpu.local_alloc %v : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %scaled = arith.addf %acc, %s1 : tensor<64x64xf32, #mma>
      %d = tilegpu.warpgroup_dot %pa, %vs, %scaled : tensor<64x64xf16, #p>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
      %nk = tile.addptr %pk_i, %step : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      %nv = tile.addptr %pv_i, %step : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      scf.yield %d, %nk, %nv : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// The same loop with O used in the body after the second dot: both dots
// complete in their own iteration, so after the wait for this iteration's
// slot and its barrier every warp is done with the previous slot, and the
// next iteration's copies start there before the dots, overlapping the
// whole body.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#t = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#p = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @two_dots_in_iteration
  func.func @two_dots_in_iteration(%pk: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pv: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %qs: !tilegpu.memdesc<64x64xf16, #s>) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 2 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %step = arith.constant dense<4096> : tensor<64x64xi32, #a>
    %ld = arith.constant dense<64> : tensor<64x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ra2 = arith.muli %ra1, %ld : tensor<64x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %o = arith.addi %ra3, %ca : tensor<64x64xi32, #a>
    %pks = tile.splat %pk : tensor<64x64x!tile.ptr<f16>, #a>
    %k0 = tile.addptr %pks, %o : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    %pvs = tile.splat %pv : tensor<64x64x!tile.ptr<f16>, #a>
    %v0 = tile.addptr %pvs, %o : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    // CHECK: %[[RK:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16, #[[S:[^>]*]]>
    // CHECK-NEXT: %[[RV:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x64xf16, #[[S]]>
    // CHECK: scf.for
    // CHECK-NEXT: tilegpu.async_wait {num = 0 : i32}
    // CHECK-NEXT: tilegpu.barrier
    // CHECK-NOT: tilegpu.warpgroup_dot
    // CHECK: %[[NK:.*]] = tilegpu.memdesc_index %[[RK]][%[[FETCH:arg[0-9]+]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[NK]], %{{.*}} : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<64x64xf16, #[[S]]>
    // CHECK: %[[NV:.*]] = tilegpu.memdesc_index %[[RV]][%[[FETCH]]]
    // CHECK-NEXT: tilegpu.async_copy_global_to_local %{{.*}}, %[[NV]]
    // CHECK-NEXT: tilegpu.async_commit_group
    // CHECK-NOT: tilegpu.async_copy_global_to_local
    // CHECK: %[[S1:.*]] = tilegpu.warpgroup_dot %{{.*}} -> tensor<64x64xf32, #mma>
    // CHECK-NOT: tilegpu.async_copy_global_to_local
    // CHECK: tilegpu.warpgroup_dot %{{.*}} : tensor<64x64xf16, #dot_op>, !tilegpu.memdesc<64x64xf16, #[[S]]> -> tensor<64x64xf32, #mma>
    // CHECK-NOT: tilegpu.async_copy_global_to_local
    // CHECK: scf.yield
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %z, %pk_i = %k0, %pv_i = %v0) -> (tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      %k = tile.load %pk_i : tensor<64x64x!tile.ptr<f16>, #a>
      %ks = tilegpu.local_alloc %k : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %kt = tilegpu.memdesc_trans %ks : !tilegpu.memdesc<64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #t>
      %s1 = tilegpu.warpgroup_dot %qs, %kt, %z : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #t> -> tensor<64x64xf32, #mma>
      %p = arith.truncf %s1 : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %pa = tilegpu.convert_layout %p : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #p>
      %v = tile.load %pv_i : tensor<64x64x!tile.ptr<f16>, #a>
      %vs = tilegpu.local_alloc %v : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %scaled = arith.addf %acc, %s1 : tensor<64x64xf32, #mma>
      %d0 = tilegpu.warpgroup_dot %pa, %vs, %scaled : tensor<64x64xf16, #p>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
      %d = arith.addf %d0, %s1 : tensor<64x64xf32, #mma>
      %nk = tile.addptr %pk_i, %step : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      %nv = tile.addptr %pv_i, %step : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      scf.yield %d, %nk, %nv : tensor<64x64xf32, #mma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<64x64xf32, #mma>
  }
}

// -----

// Loads that cannot be copied asynchronously (one unaligned f16 at a time)
// beside a 128x128 accumulator: the loop carries 128 registers of
// accumulator and 128 of pointers per thread, and prefetching would keep a
// second block of 64 f16 live, past the 255 registers a thread has (ptxas
// would spill in the loop). The loads stay where they are.
#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @registers_full
  // CHECK-NOT: tile.load
  // CHECK: scf.for {{.*}} -> (tensor<128x128xf32, #{{.*}}>, tensor<128x64x!tile.ptr<f16>, #{{.*}}>)
  // CHECK-NEXT: %[[X:.*]] = tile.load
  // CHECK-NEXT: tilegpu.local_alloc %[[X]]
  // CHECK-NOT: tilegpu.async
  // CHECK: return
  func.func @registers_full(%pa: !tile.ptr<f16>, %sa: i32, %n: i32, %bs: !tilegpu.memdesc<64x128xf16, #s>) -> tensor<128x128xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %lda = tile.splat %sa : tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %res:2 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0) -> (tensor<128x128xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>) : i32 {
      %x = tile.load %pa_k : tensor<128x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %bs, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x128xf16, #s> -> tensor<128x128xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      scf.yield %d, %na : tensor<128x128xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>
    }
    return %res#0 : tensor<128x128xf32, #mma>
  }
}
