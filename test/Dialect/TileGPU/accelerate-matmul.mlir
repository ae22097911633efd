// RUN: tile-opt %s -split-input-file --tilegpu-accelerate-matmul | FileCheck %s --enable-var-scope
// Dots that fit mma.sync go on tensor cores: mma accumulator, dot-operand
// operands, conversions around.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {tilegpu.num_warps = 8 : i32} {
  // 128 x 128 over 8 warps: 4 along M (32 rows each), 2 along N (64 cols).
  // CHECK-DAG: #[[$MMA:.*]] = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
  // CHECK-DAG: #[[$A:.*]] = #tilegpu.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>
  // CHECK-DAG: #[[$B:.*]] = #tilegpu.dot_op<{opIdx = 1, parent = #[[$MMA]], kWidth = 2}>
  // CHECK-DAG: #tilegpu.dot_op<{opIdx = 0, parent = #{{.*}}, kWidth = 1}>
  // CHECK-LABEL: func.func @f16
  func.func @f16(%x: tensor<128x32xf16, #a>, %y: tensor<32x128xf16, #b>, %z: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    // CHECK: %[[A:.*]] = tilegpu.convert_layout %{{.*}} : tensor<128x32xf16, #{{.*}}> -> tensor<128x32xf16, #[[$A]]>
    // CHECK: %[[B:.*]] = tilegpu.convert_layout %{{.*}} : tensor<32x128xf16, #{{.*}}> -> tensor<32x128xf16, #[[$B]]>
    // CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32, #[[$MMA]]>
    // CHECK: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : {{.*}} -> tensor<128x128xf32, #[[$MMA]]>
    // CHECK: tilegpu.convert_layout %[[D]] : tensor<128x128xf32, #[[$MMA]]> -> tensor<128x128xf32, #{{.*}}>
    %d = tile.dot %x, %y, %z : tensor<128x32xf16, #a> * tensor<32x128xf16, #b> -> tensor<128x128xf32, #c>
    return %d : tensor<128x128xf32, #c>
  }

  // tf32: one f32 per register.
  // CHECK-LABEL: func.func @tf32
  func.func @tf32(%x: tensor<64x64xf32, #c>) -> tensor<64x64xf32, #c> {
    // CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #mma{{.*}}>
    %d = tile.dot %x, %x, %x : tensor<64x64xf32, #c> * tensor<64x64xf32, #c> -> tensor<64x64xf32, #c>
    return %d : tensor<64x64xf32, #c>
  }

  // ieee precision stays on the FMA path.
  // CHECK-LABEL: func.func @ieee
  func.func @ieee(%x: tensor<64x64xf32, #c>) -> tensor<64x64xf32, #c> {
    // CHECK-NOT: convert_layout
    // CHECK: tile.dot {{.*}} inputPrecision = ieee : {{.*}} -> tensor<64x64xf32, #blocked{{.*}}>
    %d = tile.dot %x, %x, %x inputPrecision = ieee : tensor<64x64xf32, #c> * tensor<64x64xf32, #c> -> tensor<64x64xf32, #c>
    return %d : tensor<64x64xf32, #c>
  }
}
