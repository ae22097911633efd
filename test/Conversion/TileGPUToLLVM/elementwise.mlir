// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Elementwise ops apply per register; splat constants fill every register;
// math functions call libdevice, but f32 exp, exp2 and division have short
// sequences of their own.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @ops
  // CHECK-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>}
  func.func @ops(%s: f32) attributes {tile.kernel} {
    // CHECK-DAG: %[[LN2LO:.*]] = llvm.mlir.constant(-1.90465421E-9 : f32) : f32
    // CHECK-DAG: %[[LN2HI:.*]] = llvm.mlir.constant(0.693147182 : f32) : f32
    // CHECK-DAG: %[[HMAX:.*]] = llvm.mlir.constant(127.999992 : f32) : f32
    // CHECK-DAG: %[[LOG2E:.*]] = llvm.mlir.constant(1.44269502 : f32) : f32
    // CHECK-DAG: %[[XMIN:.*]] = llvm.mlir.constant(-1.040000e+02 : f32) : f32
    // CHECK: %[[C:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
    %c = arith.constant dense<2.0> : tensor<64xf32, #b>
    // Elements that differ (a splat would be computed once: see
    // compare_once_per_run).
    %s0 = tile.splat %s : tensor<64xf32, #b>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>
    %rf = arith.sitofp %r : tensor<64xi32, #b> to tensor<64xf32, #b>
    %x = arith.addf %s0, %rf : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.fmul %{{.*}}, %[[C]] : f32
    %y = arith.mulf %x, %c : tensor<64xf32, #b>
    // f32 exp: 2^hi * (1 + r) with hi = x * log2(e) and r its rounding
    // error (x - hi * ln2, ln2 in two halves); x clamped below (NaN kept) and
    // hi below 128, so that 2^hi stays finite.
    // CHECK-NOT: __nv_expf
    // CHECK: %[[X:.*]] = llvm.intr.maximum(%{{.*}}, %[[XMIN]])
    // CHECK: %[[P0:.*]] = llvm.fmul %[[X]], %[[LOG2E]] : f32
    // CHECK: %[[HI:.*]] = llvm.intr.minnum(%[[P0]], %[[HMAX]])
    // CHECK: %[[NHI:.*]] = llvm.fneg %[[HI]] : f32
    // CHECK: %[[R0:.*]] = llvm.intr.fma(%[[NHI]], %[[LN2HI]], %[[X]])
    // CHECK: %[[R:.*]] = llvm.intr.fma(%[[NHI]], %[[LN2LO]], %[[R0]])
    // CHECK: %[[P:.*]] = llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[HI]]
    // CHECK: llvm.intr.fma(%[[P]], %[[R]], %[[P]])
    %e0 = math.exp %y : tensor<64xf32, #b>
    // f32 exp2: ex2.approx.ftz alone (as Triton; subnormal results flush).
    // CHECK: %[[E1:.*]] = llvm.intr.fma(%[[P1:.*]], %{{.*}}, %[[P1]])
    // CHECK-NEXT: llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %{{.*}}
    // CHECK-NEXT: llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[E1]]
    %e = math.exp2 %e0 : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.fcmp "olt"
    %m = arith.cmpf olt, %e, %c : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.select
    %w = arith.select %m, %e, %c : tensor<64xi1, #b>, tensor<64xf32, #b>
    // f32 division is div.full.f32 (2 ulp), as in Triton.
    // CHECK-COUNT-2: llvm.inline_asm asm_dialect = att "div.full.f32 $0, $1, $2;", "=f,f,f"
    %q = arith.divf %w, %c : tensor<64xf32, #b>
    // CHECK-COUNT-2: llvm.fptrunc %{{.*}} : f32 to f16
    %h = arith.truncf %q : tensor<64xf32, #b> to tensor<64xf16, #b>
    // div_rn (tile.ieee_rounding): div.rn.f32, rounded as IEEE asks.
    // CHECK-COUNT-2: llvm.inline_asm asm_dialect = att "div.rn.f32 $0, $1, $2;", "=f,f,f"
    %qrn = arith.divf %w, %c {tile.ieee_rounding} : tensor<64xf32, #b>
    tile.print "", %h, %qrn : tensor<64xf16, #b>, tensor<64xf32, #b>
    return
  }
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @casts
  func.func @casts(%p: !tile.ptr<f32>) attributes {tile.kernel} {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #b>
    // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
    %i = tile.ptr_to_int %ps : tensor<32x!tile.ptr<f32>, #b> -> tensor<32xi64, #b>
    // CHECK: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
    %q = tile.int_to_ptr %i : tensor<32xi64, #b> -> tensor<32x!tile.ptr<f16>, #b>
    tile.print "", %q : tensor<32x!tile.ptr<f16>, #b>
    return
  }
}

// -----

// tile-divide-by-scalar's reciprocal (1.0 / s marked tile.normal_reciprocal:
// s and 1/s are normal) is rcp.approx.ftz.f32, not div.full.
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @ieee_reciprocal
  func.func @ieee_reciprocal(%s: f32) attributes {tile.kernel} {
    %one = arith.constant 1.0 : f32
    // CHECK-NOT: div.full
    // CHECK: llvm.inline_asm asm_dialect = att "rcp.approx.ftz.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
    // CHECK-NOT: div.full
    %r = arith.divf %one, %s {tile.normal_reciprocal} : f32
    tile.print "", %r : f32
    return
  }
}

// -----

// A result the axis analysis shows constant over aligned runs is computed
// once per run: `start + arange < n` with start a multiple of 64 and n one
// of 16 is equal over runs of 16, and each thread's 8 consecutive elements
// lie in one run: one compare per thread, not 8.
#b8 = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @compare_once_per_run
  func.func @compare_once_per_run(%n: i32 {tile.divisibility = 16 : i32}, %start: i32 {tile.divisibility = 64 : i32}) attributes {tile.kernel} {
    %r = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b8>
    %s = tile.splat %start : tensor<256xi32, #b8>
    %c = arith.addi %s, %r : tensor<256xi32, #b8>
    %ns = tile.splat %n : tensor<256xi32, #b8>
    // CHECK-COUNT-1: llvm.icmp "slt"
    // CHECK-NOT: llvm.icmp
    // CHECK: llvm.return
    %m = arith.cmpi slt, %c, %ns : tensor<256xi32, #b8>
    tile.print "", %m : tensor<256xi1, #b8>
    return
  }
}

// -----

// Without the divisibility of n the compares differ: one per register.
#b8 = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @compare_per_register
  func.func @compare_per_register(%n: i32, %start: i32 {tile.divisibility = 64 : i32}) attributes {tile.kernel} {
    %r = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b8>
    %s = tile.splat %start : tensor<256xi32, #b8>
    %c = arith.addi %s, %r : tensor<256xi32, #b8>
    %ns = tile.splat %n : tensor<256xi32, #b8>
    // CHECK-COUNT-8: llvm.icmp "slt"
    // CHECK-NOT: llvm.icmp
    // CHECK: llvm.return
    %m = arith.cmpi slt, %c, %ns : tensor<256xi32, #b8>
    tile.print "", %m : tensor<256xi1, #b8>
    return
  }
}

// -----

// Runs across registers that are not adjacent (an mma accumulator row of 64
// columns: each thread holds columns 2 * (lane % 4) + {0, 1} + 8 * j): with
// runs of 16, registers j = 2k and 2k + 1 share a run: 4 compares of 16.
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @mma_row_runs
  func.func @mma_row_runs(%n: i32 {tile.divisibility = 16 : i32}, %start: i32 {tile.divisibility = 64 : i32}) attributes {tile.kernel} {
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #mma}>>
    %e = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #mma}>> -> tensor<1x64xi32, #mma>
    %s = tile.splat %start : tensor<1x64xi32, #mma>
    %c = arith.addi %s, %e : tensor<1x64xi32, #mma>
    %ns = tile.splat %n : tensor<1x64xi32, #mma>
    // CHECK-COUNT-4: llvm.icmp "slt"
    // CHECK-NOT: llvm.icmp
    // CHECK: llvm.return
    %m = arith.cmpi slt, %c, %ns : tensor<1x64xi32, #mma>
    tile.print "", %m : tensor<1x64xi1, #mma>
    return
  }
}

// -----

// Only the axis analysis says where values repeat: a tilegpu.constancy
// written in the input (here: all 256 equal, which they are not) is
// dropped, and the compares stay one per register.
#b8 = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @constancy_from_input
  func.func @constancy_from_input(%n: i32, %start: i32 {tile.divisibility = 64 : i32}) attributes {tile.kernel} {
    %r = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b8>
    %s = tile.splat %start : tensor<256xi32, #b8>
    %c = arith.addi %s, %r : tensor<256xi32, #b8>
    %ns = tile.splat %n : tensor<256xi32, #b8>
    // CHECK-COUNT-8: llvm.icmp "slt"
    // CHECK-NOT: llvm.icmp
    // CHECK: llvm.return
    %m = arith.cmpi slt, %c, %ns {tilegpu.constancy = array<i64: 256>} : tensor<256xi32, #b8>
    tile.print "", %m : tensor<256xi1, #b8>
    return
  }
}
