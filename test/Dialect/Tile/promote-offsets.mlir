// RUN: tile-opt %s -split-input-file -tile-promote-offsets | FileCheck %s --enable-var-scope
// The tile-promote-offsets pass: addptr offsets and integer comparisons that
// may wrap in i32 are recomputed in i64; provably small ones stay i32.

// pid * BLOCK + arange: pid may reach 2^31 - 2, so the sum may wrap. The
// uniform part (pid * BLOCK) moves into the scalar pointer in i64, the
// per-element part stays i32. The mask `pid * BLOCK + r < n` becomes
// `r < n - pid * BLOCK`, the bound clamped to [-2^31, 2^30] (r lies strictly
// inside, so every signed comparison keeps its result) and compared in i32.
// CHECK-LABEL: func.func @uniform_split
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32)
func.func @uniform_split(%x: !tile.ptr<f32>, %n: i32) -> tensor<256xf32> {
  // CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
  // CHECK: %[[C256:.*]] = arith.constant 256 : i32
  // CHECK: %[[C256W:.*]] = arith.extsi %[[C256]] : i32 to i64
  // CHECK: %[[PID:.*]] = tile.program_id 0 : i32
  // CHECK: %[[PID64:.*]] = arith.extsi %[[PID]] : i32 to i64
  // CHECK: %[[BASE64:.*]] = arith.muli %[[PID64]], %[[C256W]] : i64
  // CHECK: %[[R:.*]] = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  // CHECK: %[[LEFT:.*]] = arith.subi %[[N64]], %[[BASE64]] : i64
  // CHECK: %[[HI:.*]] = arith.constant 1073741824 : i64
  // CHECK: %[[MIN:.*]] = arith.minsi %[[LEFT]], %[[HI]] : i64
  // CHECK: %[[LO:.*]] = arith.constant -2147483648 : i64
  // CHECK: %[[MAX:.*]] = arith.maxsi %[[MIN]], %[[LO]] : i64
  // CHECK: %[[B32:.*]] = arith.trunci %[[MAX]] : i64 to i32
  // CHECK: %[[BS:.*]] = tile.splat %[[B32]] : tensor<256xi32>
  // CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[R]], %[[BS]] : tensor<256xi32>
  // CHECK: %[[MOVED:.*]] = tile.addptr %[[X]], %[[BASE64]] : !tile.ptr<f32>, i64
  // CHECK: %[[MS:.*]] = tile.splat %[[MOVED]] : tensor<256x!tile.ptr<f32>>
  // CHECK: %[[P:.*]] = tile.addptr %[[MS]], %[[R]] : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  // CHECK: tile.load %[[P]], %[[MASK]]
  %c256 = arith.constant 256 : i32
  %pid = tile.program_id 0 : i32
  %base = arith.muli %pid, %c256 : i32
  %r = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %s = tile.splat %base : tensor<256xi32>
  %offs = arith.addi %s, %r : tensor<256xi32>
  %ns = tile.splat %n : tensor<256xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
  %xs = tile.splat %x : tensor<256x!tile.ptr<f32>>
  %p = tile.addptr %xs, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %v = tile.load %p, %mask : tensor<256x!tile.ptr<f32>>
  return %v : tensor<256xf32>
}

// -----

// Offsets bounded by arange and constants, and a loop index below a bound
// of 1024: i32 is exact, nothing changes.
// CHECK-LABEL: func.func @provably_small
func.func @provably_small(%x: !tile.ptr<f32>) {
  // CHECK-NOT: i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1024 = arith.constant 1024 : i32
  %c4 = arith.constant dense<4> : tensor<64xi32>
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %xs = tile.splat %x : tensor<64x!tile.ptr<f32>>
  scf.for %i = %c0 to %c1024 step %c1 : i32 {
    %scaled = arith.muli %r, %c4 : tensor<64xi32>
    %is = tile.splat %i : tensor<64xi32>
    %offs = arith.addi %scaled, %is : tensor<64xi32>
    %p = tile.addptr %xs, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %v = tile.load %p : tensor<64x!tile.ptr<f32>>
    tile.store %p, %v : tensor<64x!tile.ptr<f32>>
  }
  return
}

// -----

// (offs % m) * stride: the remainder is below |m| (any i32), the product
// may wrap: the product and the 2-D sum are computed in i64 (the remainder
// itself is exact in i32 and only sign-extended). The i32 originals are left
// for the canonicalizer to remove.
// CHECK-LABEL: func.func @rows_times_stride
// CHECK-SAME: (%[[A:.*]]: !tile.ptr<f16>, %[[M:.*]]: i32, %[[STRIDE:.*]]: i32)
func.func @rows_times_stride(%a: !tile.ptr<f16>, %m: i32, %stride: i32) -> tensor<64x32xf16> {
  // CHECK: %[[REM:.*]] = arith.remsi %{{.*}}, %{{.*}} : tensor<64xi32>
  // CHECK: %[[COL:.*]] = tile.expand_dims %[[REM]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // CHECK: %[[COL64:.*]] = arith.extsi %[[COL]] : tensor<64x1xi32> to tensor<64x1xi64>
  // CHECK: %[[ST64:.*]] = arith.extsi %{{.*}} : tensor<64x1xi32> to tensor<64x1xi64>
  // CHECK: %[[ROWS:.*]] = arith.muli %[[COL64]], %[[ST64]] : tensor<64x1xi64>
  // CHECK: %[[ROWSB:.*]] = tile.broadcast %[[ROWS]] : tensor<64x1xi64> -> tensor<64x32xi64>
  // CHECK: %[[OFFS:.*]] = arith.addi %[[ROWSB]], %{{.*}} : tensor<64x32xi64>
  // CHECK: tile.addptr %{{.*}}, %[[OFFS]] : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi64>
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ms = tile.splat %m : tensor<64xi32>
  %rem = arith.remsi %r, %ms : tensor<64xi32>
  %col = tile.expand_dims %rem {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %st = tile.splat %stride : tensor<64x1xi32>
  %rows = arith.muli %col, %st : tensor<64x1xi32>
  %rowsb = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x32xi32>
  %k = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %row = tile.expand_dims %k {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %kb = tile.broadcast %row : tensor<1x32xi32> -> tensor<64x32xi32>
  %offs = arith.addi %rowsb, %kb : tensor<64x32xi32>
  %as = tile.splat %a : tensor<64x32x!tile.ptr<f16>>
  %p = tile.addptr %as, %offs : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %v = tile.load %p : tensor<64x32x!tile.ptr<f16>>
  return %v : tensor<64x32xf16>
}

// -----

// A scalar offset (row * stride, both any i32) becomes an i64 product; a
// sign extension of a value that may wrap is replaced by the exact value.
// CHECK-LABEL: func.func @scalar_and_extsi
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[ROW:.*]]: i32, %[[STRIDE:.*]]: i32, %[[N:.*]]: i64)
func.func @scalar_and_extsi(%x: !tile.ptr<f32>, %row: i32, %stride: i32, %n: i64) -> (!tile.ptr<f32>, i1) {
  // CHECK-DAG: %[[ROW64:.*]] = arith.extsi %[[ROW]] : i32 to i64
  // CHECK-DAG: %[[STRIDE64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
  // CHECK: %[[PROD:.*]] = arith.muli %[[ROW64]], %[[STRIDE64]] : i64
  // CHECK: %[[CMP:.*]] = arith.cmpi slt, %[[PROD]], %[[N]] : i64
  // CHECK: %[[P:.*]] = tile.addptr %[[X]], %[[PROD]] : !tile.ptr<f32>, i64
  // CHECK: return %[[P]], %[[CMP]]
  %prod = arith.muli %row, %stride : i32
  %wide = arith.extsi %prod : i32 to i64
  %cmp = arith.cmpi slt, %wide, %n : i64
  %p = tile.addptr %x, %prod : !tile.ptr<f32>, i32
  return %p, %cmp : !tile.ptr<f32>, i1
}

// -----

// Values the analysis does not see through are taken as computed: a loaded
// offset, a truncation, a loop-carried integer.
// CHECK-LABEL: func.func @barriers
func.func @barriers(%x: !tile.ptr<f32>, %idx: !tile.ptr<i32>, %w: i64) {
  // CHECK-NOT: arith.extsi
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f32>, i32
  // CHECK: scf.for
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f32>, i32
  %r = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %is = tile.splat %idx : tensor<16x!tile.ptr<i32>>
  %ip = tile.addptr %is, %r : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  %loaded = tile.load %ip : tensor<16x!tile.ptr<i32>>
  %xs = tile.splat %x : tensor<16x!tile.ptr<f32>>
  %p = tile.addptr %xs, %loaded : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %v = tile.load %p : tensor<16x!tile.ptr<f32>>
  %t = arith.trunci %w : i64 to i32
  %q = tile.addptr %x, %t : !tile.ptr<f32>, i32
  tile.store %p, %v : tensor<16x!tile.ptr<f32>>
  %s = tile.load %q : !tile.ptr<f32>
  tile.store %q, %s : !tile.ptr<f32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %last = scf.for %i = %c0 to %c8 step %c1 iter_args(%off = %c0) -> (i32) : i32 {
    %pi = tile.addptr %x, %off : !tile.ptr<f32>, i32
    %f = tile.load %pi : !tile.ptr<f32>
    tile.store %pi, %f : !tile.ptr<f32>
    %next = arith.addi %off, %c8 : i32
    scf.yield %next : i32
  }
  return
}

// -----

// The uniform side on the left (`bound > r` becomes `r < bound`); an
// unsigned comparison is taken as computed (exact values are signed).
// CHECK-LABEL: func.func @compare_forms
// CHECK-SAME: (%[[K:.*]]: i32, %[[J:.*]]: i32)
func.func @compare_forms(%k: i32, %j: i32) -> (tensor<32xi1>, tensor<32xi1>) {
  // CHECK: %[[LS:.*]] = tile.splat %{{.*}} : tensor<32xi32>
  // CHECK: %[[R:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  // CHECK: %[[B32:.*]] = arith.trunci %{{.*}} : i64 to i32
  // CHECK: %[[BS:.*]] = tile.splat %[[B32]] : tensor<32xi32>
  // CHECK: %[[A:.*]] = arith.cmpi slt, %[[R]], %[[BS]] : tensor<32xi32>
  // CHECK: %[[B:.*]] = arith.cmpi ult, %[[R]], %[[LS]] : tensor<32xi32>
  // CHECK: return %[[A]], %[[B]]
  %c32 = arith.constant 32 : i32
  %kk = arith.muli %k, %c32 : i32
  %left = arith.subi %j, %kk : i32
  %ls = tile.splat %left : tensor<32xi32>
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %a = arith.cmpi sgt, %ls, %r : tensor<32xi32>
  %b = arith.cmpi ult, %r, %ls : tensor<32xi32>
  return %a, %b : tensor<32xi1>, tensor<32xi1>
}

// -----

// An induction variable from 0 by 64 below any i32 bound stays a whole
// number of steps: at most 2^31 - 64, so adding arange(0, 64) cannot wrap
// and the comparison stays i32 (attention's `start_n + offs_n < seq_len`).
// From 1 by 64 it may reach 2^31 - 63: that sum may wrap, so the uniform
// part moves to the other side, computed exactly (n - i in i64, clamped).
// CHECK-LABEL: func.func @aligned_induction_variable
func.func @aligned_induction_variable(%n: i32, %out: !tile.ptr<i1>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %ns = tile.splat %n : tensor<64xi32>
  %outs = tile.splat %out : tensor<64x!tile.ptr<i1>>
  // CHECK: scf.for
  // CHECK-NOT: arith.extsi
  // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32>
  scf.for %i = %c0 to %n step %c64 : i32 {
    %is = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %is, %r : tensor<64xi32>
    %valid = arith.cmpi slt, %cols, %ns : tensor<64xi32>
    tile.store %outs, %valid : tensor<64x!tile.ptr<i1>>
  }
  // CHECK: scf.for
  // CHECK: arith.subi %{{.*}}, %{{.*}} : i64
  // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32>
  scf.for %i = %c1 to %n step %c64 : i32 {
    %is = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %is, %r : tensor<64xi32>
    %valid = arith.cmpi slt, %cols, %ns : tensor<64xi32>
    tile.store %outs, %valid : tensor<64x!tile.ptr<i1>>
  }
  return
}

// -----

// Inside a loop's body the loop ran: `for k in range(0, cdiv(K, 32))` has
// (K + 31) / 32 >= 1 there, so K >= 1 and k * 32 <= K - 1: the remaining
// extent `K - k * 32` (matmul's K mask) stays i32, no clamp. With k * 64 it
// may reach 2^32 below the same bound: that one is computed in i64. The
// bound's fact holds only inside: the same difference after the loop is i64.
// CHECK-LABEL: func.func @loop_bound_implies
func.func @loop_bound_implies(%k: i32, %out: !tile.ptr<i1>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %outs = tile.splat %out : tensor<32x!tile.ptr<i1>>
  %sum = arith.addi %k, %c31 : i32
  %n = arith.divsi %sum, %c32 : i32
  // CHECK: scf.for
  // CHECK: %[[LEFT:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[LS:.*]] = tile.splat %[[LEFT]] : tensor<32xi32>
  // CHECK-NEXT: arith.cmpi slt, %{{.*}}, %[[LS]] : tensor<32xi32>
  // CHECK: arith.subi %{{.*}}, %{{.*}} : i64
  // CHECK: arith.minsi
  // CHECK: }
  scf.for %i = %c0 to %n step %c1 : i32 {
    %done = arith.muli %i, %c32 : i32
    %left = arith.subi %k, %done : i32
    %ls = tile.splat %left : tensor<32xi32>
    %valid = arith.cmpi slt, %r, %ls : tensor<32xi32>
    tile.store %outs, %valid : tensor<32x!tile.ptr<i1>>
    %far = arith.muli %i, %c64 : i32
    %farleft = arith.subi %k, %far : i32
    %fs = tile.splat %farleft : tensor<32xi32>
    %fvalid = arith.cmpi slt, %r, %fs : tensor<32xi32>
    tile.store %outs, %fvalid : tensor<32x!tile.ptr<i1>>
  }
  // CHECK: arith.subi %{{.*}}, %{{.*}} : i64
  // CHECK: arith.minsi
  // CHECK: return
  %after = arith.subi %k, %n : i32
  %as = tile.splat %after : tensor<32xi32>
  %avalid = arith.cmpi slt, %r, %as : tensor<32xi32>
  tile.store %outs, %avalid : tensor<32x!tile.ptr<i1>>
  return
}

// -----

// Rows from the induction variable times a stride (attention's
// `k + (start_n + offs_n)[:, None] * stride + offs_d[None, :]`): the sum
// splits through the expand_dims and the product by a splat into the
// uniform `start_n * stride`, a scalar product that goes into the base,
// and `offs_n[:, None] * stride`, which does not depend on the loop (the
// code generator computes it once): no 64-bit product per row and
// iteration. (Adding the uniform part last instead, after pointers built
// before the loop, took 16-28 more registers in attention and measured
// slower, bench/RESULTS.md session 12.)
// CHECK-LABEL: func.func @rows_from_induction_variable
// CHECK-SAME: (%[[K:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32, %[[STRIDE:.*]]: i32)
func.func @rows_from_induction_variable(%k: !tile.ptr<f16>, %n: i32, %stride: i32) -> tensor<64x64xf16> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf16>
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %cols = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %colsb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  // CHECK: %[[S64:.*]] = arith.extsi %[[STRIDE]] : i32 to i64
  // CHECK: %[[R:.*]] = tile.make_range
  // CHECK: %[[R64:.*]] = arith.extsi %[[R]] : tensor<64xi32> to tensor<64xi64>
  // CHECK: scf.for %[[I:[^ ]*]] =
  %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> tensor<64x64xf16> : i32 {
    %is = tile.splat %i : tensor<64xi32>
    %rows = arith.addi %is, %r : tensor<64xi32>
    %rowse = tile.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %st = tile.splat %stride : tensor<64x1xi32>
    %roff = arith.muli %rowse, %st : tensor<64x1xi32>
    %ks = tile.splat %k : tensor<64x1x!tile.ptr<f16>>
    // CHECK: %[[I64:.*]] = arith.extsi %[[I]] : i32 to i64
    // CHECK: %[[U:.*]] = arith.muli %[[I64]], %[[S64]] : i64
    // CHECK: %[[BASE:.*]] = tile.addptr %[[K]], %[[U]] : !tile.ptr<f16>, i64
    // CHECK: %[[SB:.*]] = tile.splat %[[BASE]] : tensor<64x1x!tile.ptr<f16>>
    // CHECK: %[[E:.*]] = tile.expand_dims %[[R64]] {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
    // CHECK: %[[SS:.*]] = tile.splat %[[S64]] : tensor<64x1xi64>
    // CHECK: %[[RS:.*]] = arith.muli %[[E]], %[[SS]] : tensor<64x1xi64>
    // CHECK: %[[P:.*]] = tile.addptr %[[SB]], %[[RS]] : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi64>
    // CHECK: tile.broadcast %[[P]]
    %p = tile.addptr %ks, %roff : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
    %pb = tile.broadcast %p : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
    %pc = tile.addptr %pb, %colsb : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %v = tile.load %pc : tensor<64x64x!tile.ptr<f16>>
    %sum = arith.addf %acc, %v : tensor<64x64xf16>
    scf.yield %sum : tensor<64x64xf16>
  }
  return %res : tensor<64x64xf16>
}

// -----

// Outside a loop the uniform part goes into the scalar base (one scalar
// addptr), now also through a product by a splat and an expand_dims:
// `(pid * 64 + arange)[:, None] * stride`.
// CHECK-LABEL: func.func @uniform_scaled_into_base
// CHECK-SAME: (%[[Q:.*]]: !tile.ptr<f16>, %[[STRIDE:.*]]: i32)
func.func @uniform_scaled_into_base(%q: !tile.ptr<f16>, %stride: i32) -> tensor<64x1xf16> {
  %c64 = arith.constant 64 : i32
  %pid = tile.program_id 0 : i32
  %start = arith.muli %pid, %c64 : i32
  %s = tile.splat %start : tensor<64xi32>
  %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %rows = arith.addi %s, %r : tensor<64xi32>
  %rowse = tile.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %st = tile.splat %stride : tensor<64x1xi32>
  %roff = arith.muli %rowse, %st : tensor<64x1xi32>
  %qs = tile.splat %q : tensor<64x1x!tile.ptr<f16>>
  // CHECK: %[[BASE:.*]] = tile.addptr %[[Q]], %{{.*}} : !tile.ptr<f16>, i64
  // CHECK: %[[SB:.*]] = tile.splat %[[BASE]] : tensor<64x1x!tile.ptr<f16>>
  // CHECK: %[[E:.*]] = tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
  // CHECK: %[[O:.*]] = arith.muli %[[E]], %{{.*}} : tensor<64x1xi64>
  // CHECK: tile.addptr %[[SB]], %[[O]] : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi64>
  %p = tile.addptr %qs, %roff : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
  %v = tile.load %p : tensor<64x1x!tile.ptr<f16>>
  return %v : tensor<64x1xf16>
}

// -----

// In a loop (from any start, so that the sum may wrap), a range's offsets
// stay per element and the uniform part goes into the scalar base: from
// there the range's offsets fold into the accesses' immediates.
// CHECK-LABEL: func.func @range_in_loop_into_base
func.func @range_in_loop_into_base(%x: !tile.ptr<f16>, %n: i32, %c0: i32) -> tensor<1024xf16> {
  %c1024 = arith.constant 1024 : i32
  %zero = arith.constant dense<0.0> : tensor<1024xf16>
  %r = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f16>>
  // CHECK: scf.for
  // CHECK: %[[BASE:.*]] = tile.addptr %{{.*}}, %{{.*}} : !tile.ptr<f16>, i64
  // CHECK: %[[SB:.*]] = tile.splat %[[BASE]] : tensor<1024x!tile.ptr<f16>>
  // CHECK: tile.addptr %[[SB]], %{{.*}} : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %res = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> tensor<1024xf16> : i32 {
    %os = tile.splat %off : tensor<1024xi32>
    %cols = arith.addi %os, %r : tensor<1024xi32>
    %p = tile.addptr %xs, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
    %v = tile.load %p : tensor<1024x!tile.ptr<f16>>
    %sum = arith.addf %acc, %v : tensor<1024xf16>
    scf.yield %sum : tensor<1024xf16>
  }
  return %res : tensor<1024xf16>
}

// -----

// A bitwise op of a product that may wrap is a hash of the bits as computed
// (Philox, murmur): the comparison stays on the i32 value, while the
// product alone is compared exactly in i64.
// CHECK-LABEL: func.func @hash_compare
// CHECK-SAME: (%[[X:.*]]: tensor<8xi32>)
// CHECK: %[[P:.*]] = arith.muli %[[X]], %{{.*}} : tensor<8xi32>
// CHECK: %[[WIDE:.*]] = arith.muli %{{.*}}, %{{.*}} : tensor<8xi64>
// CHECK: %[[H:.*]] = arith.xori %[[P]], %[[X]] : tensor<8xi32>
// CHECK: %[[HASH:.*]] = arith.cmpi slt, %[[H]], %{{.*}} : tensor<8xi32>
// CHECK: %[[EXACT:.*]] = arith.cmpi slt, %[[WIDE]], %{{.*}} : tensor<8xi64>
// CHECK: return %[[HASH]], %[[EXACT]]
func.func @hash_compare(%x: tensor<8xi32>) -> (tensor<8xi1>, tensor<8xi1>) {
  %c = arith.constant dense<1640531527> : tensor<8xi32>
  %zero = arith.constant dense<0> : tensor<8xi32>
  %p = arith.muli %x, %c : tensor<8xi32>
  %h = arith.xori %p, %x : tensor<8xi32>
  %hash = arith.cmpi slt, %h, %zero : tensor<8xi32>
  %exact = arith.cmpi slt, %p, %zero : tensor<8xi32>
  return %hash, %exact : tensor<8xi1>, tensor<8xi1>
}
