// RUN: tile-opt %s --tilegpu-pipeline -canonicalize -cse | FileCheck %s --enable-var-scope
// The loads feeding a dot are issued one iteration ahead.

#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#bo = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @matmul
  // CHECK-SAME: (%[[P:.*]]: tensor<32x32x!tile.ptr<f16>, #blocked>, %[[N:.*]]: i32)
  func.func @matmul(%p: tensor<32x32x!tile.ptr<f16>, #b>, %n: i32) -> tensor<32x32xf32, #mma> attributes {tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<32> : tensor<32x32xi32, #b>
    %z = arith.constant dense<0.0> : tensor<32x32xf32, #mma>
    // Iteration 0's load, guarded by 0 < n.
    // CHECK: %[[RUNS:.*]] = arith.cmpi sgt, %[[N]], %{{.*}} : i32
    // CHECK: %[[M0:.*]] = tile.splat %[[RUNS]] : tensor<32x32xi1, #blocked>
    // CHECK: %[[FIRST:.*]] = tile.load %[[P]], %[[M0]], %{{.*}} : tensor<32x32x!tile.ptr<f16>, #blocked>
    // CHECK: scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[PTR:.*]] = %[[P]], %[[CUR:.*]] = %[[FIRST]])
    %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z, %ptr = %p) -> (tensor<32x32xf32, #mma>, tensor<32x32x!tile.ptr<f16>, #b>) : i32 {
      // The next iteration's address and load come first.
      // CHECK: %[[NEXTK:.*]] = arith.addi %[[K]], %{{.*}} : i32
      // CHECK: %[[NEXTPTR:.*]] = tile.addptr %[[PTR]]
      // CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[NEXTK]], %[[N]] : i32
      // CHECK: %[[MN:.*]] = tile.splat %[[MORE]]
      // CHECK: %[[NEXT:.*]] = tile.load %[[NEXTPTR]], %[[MN]]
      %x = tile.load %ptr : tensor<32x32x!tile.ptr<f16>, #b>
      // CHECK: tilegpu.convert_layout %[[CUR]]
      %xa = tilegpu.convert_layout %x : tensor<32x32xf16, #b> -> tensor<32x32xf16, #a>
      %xb = tilegpu.convert_layout %x : tensor<32x32xf16, #b> -> tensor<32x32xf16, #bo>
      // CHECK: %[[D:.*]] = tile.dot
      %d = tile.dot %xa, %xb, %acc : tensor<32x32xf16, #a> * tensor<32x32xf16, #bo> -> tensor<32x32xf32, #mma>
      %np = tile.addptr %ptr, %step : tensor<32x32x!tile.ptr<f16>, #b>, tensor<32x32xi32, #b>
      // CHECK: scf.yield %[[D]], %[[NEXTPTR]], %[[NEXT]]
      scf.yield %d, %np : tensor<32x32xf32, #mma>, tensor<32x32x!tile.ptr<f16>, #b>
    }
    return %r#0 : tensor<32x32xf32, #mma>
  }
}
