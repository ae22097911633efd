// RUN: tile-opt %s --convert-tilegpu-to-llvm | FileCheck %s
// A converted block is a struct of its registers; once the conversion is
// done, each register extracted from a struct is the value inserted there
// (forwardPackedRegisters, RegisterPacking.h), in one pass over each chain:
// canonicalize's fold walked the whole chain for every extract, quadratic
// in the registers a thread holds (issue 25: a 2^20-element block on one
// warp, 32768 registers a thread, compiled for 124 s; now ~9 s). No struct
// of registers is left between the ops of a straight-line kernel (the
// vector loads' inline asm still returns its four words in a struct).

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @add
  // CHECK-NOT: llvm.insertvalue
  // CHECK-NOT: llvm.mlir.undef : !llvm.struct
  // CHECK-COUNT-16: llvm.fadd
  // CHECK-NOT: llvm.insertvalue
  // CHECK-NOT: llvm.mlir.undef : !llvm.struct
  // CHECK: llvm.return
  func.func @add(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %in: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %one = arith.constant dense<1.000000e+00> : tensor<512xf32, #b>
    %offs = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %pin = tile.splat %in : tensor<512x!tile.ptr<f32>, #b>
    %ain = tile.addptr %pin, %offs : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
    %x = tile.load %ain : tensor<512x!tile.ptr<f32>, #b>
    %y = arith.addf %x, %one : tensor<512xf32, #b>
    %pout = tile.splat %out : tensor<512x!tile.ptr<f32>, #b>
    %aout = tile.addptr %pout, %offs : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
    tile.store %aout, %y : tensor<512x!tile.ptr<f32>, #b>
    return
  }
}

// A chain read before one of its members (an extract of another chain) is
// forwarded gets that member's replacement: here ^bb1 reads chain %B
// before ^bb2, which defines %B from an extract of %A, is walked.
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @blocks_out_of_order
  // CHECK-NOT: llvm.extractvalue
  // CHECK: %[[SUM:.*]] = llvm.add %arg1, %arg1 : i32
  // CHECK-NEXT: llvm.return %[[SUM]]
  llvm.func @blocks_out_of_order(%a: i32, %b: i32) -> i32 {
    llvm.br ^bb2
  ^bb1:
    %e1 = llvm.extractvalue %B[0] : !llvm.struct<(i32, i32)>
    llvm.br ^bb3
  ^bb2:
    %u = llvm.mlir.undef : !llvm.struct<(i32, i32)>
    %A0 = llvm.insertvalue %a, %u[0] : !llvm.struct<(i32, i32)>
    %A = llvm.insertvalue %b, %A0[1] : !llvm.struct<(i32, i32)>
    %x = llvm.extractvalue %A[1] : !llvm.struct<(i32, i32)>
    %v = llvm.mlir.undef : !llvm.struct<(i32, i32)>
    %B0 = llvm.insertvalue %x, %v[0] : !llvm.struct<(i32, i32)>
    %B = llvm.insertvalue %a, %B0[1] : !llvm.struct<(i32, i32)>
    llvm.br ^bb1
  ^bb3:
    %e2 = llvm.extractvalue %B[0] : !llvm.struct<(i32, i32)>
    %sum = llvm.add %e1, %e2 : i32
    llvm.return %sum : i32
  }
}
