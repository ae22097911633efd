// RUN: tile-opt %s --tilegpu-remove-layout-conversions -canonicalize | FileCheck %s --enable-var-scope
// A loop-carried accumulator is carried in the layout the loop uses it in,
// and so are pointers the loop advances (`ptrs += step`).

#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#k = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @loop
  func.func @loop(%x: tensor<64x32xf16, #a>, %y: tensor<32x64xf16, #b>, %n: i32) -> tensor<64x64xf32, #c> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[$MMA:mma]]>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #c>
    // CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64x64xf32, #[[$MMA]]>)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #c>) : i32 {
      // CHECK-NOT: convert_layout
      // CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]]
      // CHECK-NEXT: scf.yield %[[D]] : tensor<64x64xf32, #[[$MMA]]>
      %c = tilegpu.convert_layout %acc : tensor<64x64xf32, #c> -> tensor<64x64xf32, #mma>
      %d = tile.dot %x, %y, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      %e = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
      scf.yield %e : tensor<64x64xf32, #c>
    }
    // CHECK: %[[OUT:.*]] = tilegpu.convert_layout %[[R]] : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #blocked>
    // CHECK: return %[[OUT]]
    return %r : tensor<64x64xf32, #c>
  }

  // The pointers are used as #k and advanced as #c: both happen in #k now,
  // the step recomputed there, no conversion left in the loop.
  // CHECK-LABEL: func.func @advance
  func.func @advance(%p: tensor<32x64x!tile.ptr<f32>, #c>, %s: i32, %n: i32) -> tensor<32x64xf32, #k> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<32x64xf32, #k>
    // CHECK: %[[P0:.*]] = tilegpu.convert_layout %{{.*}} : tensor<32x64x!tile.ptr<f32>, #blocked> -> tensor<32x64x!tile.ptr<f32>, #[[$K:blocked[0-9]+]]>
    // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[P:.*]] = %[[P0]]) -> (tensor<32x64xf32, #[[$K]]>, tensor<32x64x!tile.ptr<f32>, #[[$K]]>)
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %ptrs = %p) -> (tensor<32x64xf32, #k>, tensor<32x64x!tile.ptr<f32>, #c>) : i32 {
      // CHECK-NOT: convert_layout
      // CHECK: %[[X:.*]] = tile.load %[[P]] : tensor<32x64x!tile.ptr<f32>, #[[$K]]>
      // CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]]
      // CHECK: %[[STEP:.*]] = tile.splat %{{.*}} : tensor<32x64xi32, #[[$K]]>
      // CHECK: %[[NEXT:.*]] = tile.addptr %[[P]], %[[STEP]] : tensor<32x64x!tile.ptr<f32>, #[[$K]]>
      // CHECK: scf.yield %[[SUM]], %[[NEXT]]
      %pk = tilegpu.convert_layout %ptrs : tensor<32x64x!tile.ptr<f32>, #c> -> tensor<32x64x!tile.ptr<f32>, #k>
      %x = tile.load %pk : tensor<32x64x!tile.ptr<f32>, #k>
      %sum = arith.addf %acc, %x : tensor<32x64xf32, #k>
      %step = tile.splat %s : tensor<32x64xi32, #c>
      %next = tile.addptr %ptrs, %step : tensor<32x64x!tile.ptr<f32>, #c>, tensor<32x64xi32, #c>
      scf.yield %sum, %next : tensor<32x64xf32, #k>, tensor<32x64x!tile.ptr<f32>, #c>
    }
    return %r#0 : tensor<32x64xf32, #k>
  }

  // A narrowing cast of a converted block runs before the conversion.
  // CHECK-LABEL: func.func @narrow_first
  func.func @narrow_first(%x: tensor<64x64xf32, #mma>) -> tensor<64x64xf16, #c> {
    // CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[$MMA]]> to tensor<64x64xf16, #[[$MMA]]>
    // CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<64x64xf16, #[[$MMA]]> -> tensor<64x64xf16, #blocked>
    // CHECK-NEXT: return %[[C]]
    %c = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    %t = arith.truncf %c : tensor<64x64xf32, #c> to tensor<64x64xf16, #c>
    return %t : tensor<64x64xf16, #c>
  }
}
