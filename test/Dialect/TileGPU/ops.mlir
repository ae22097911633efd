// RUN: tile-opt %s | tile-opt | FileCheck %s --enable-var-scope
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s --enable-var-scope
// Round trip of the tilegpu layouts, the memdesc type and every op.

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#slice = #tilegpu.slice<{dim = 1, parent = #blocked}>
#shared = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dot_a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#nvmma = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#nvmma_t = #tilegpu.nvmma_shared<{swizzle = 32, order = [0, 1]}>
#mma3 = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]}>
#plain = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma_rows = #tilegpu.slice<{dim = 1, parent = #mma}>

// CHECK-DAG: #[[$BLOCKED:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$BLOCKED1:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$SLICE:.*]] = #tilegpu.slice<{dim = 1, parent = #[[$BLOCKED]]}>
// CHECK-DAG: #[[$SHARED:.*]] = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[$MMA:.*]] = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[$DOTA:.*]] = #tilegpu.dot_op<{opIdx = 0, parent = #[[$MMA]], kWidth = 2}>
// CHECK-DAG: #[[$NVMMA:.*]] = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// CHECK-DAG: #[[$NVMMAT:.*]] = #tilegpu.nvmma_shared<{swizzle = 32, order = [0, 1]}>
// CHECK-DAG: #[[$PLAIN:.*]] = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #[[$MMAROWS:.*]] = #tilegpu.slice<{dim = 1, parent = #[[$MMA]]}>
// CHECK-DAG: #[[$MMA3:.*]] = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]}>

// CHECK-LABEL: func.func @convert
func.func @convert(%x: tensor<16xf32, #slice>, %y: tensor<16x32xf16, #mma>) -> tensor<16xf32, #blocked1> {
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<16xf32, #[[$SLICE]]> -> tensor<16xf32, #[[$BLOCKED1]]>
  %0 = tilegpu.convert_layout %x : tensor<16xf32, #slice> -> tensor<16xf32, #blocked1>
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<16x32xf16, #[[$MMA]]> -> tensor<16x32xf16, #[[$DOTA]]>
  %1 = tilegpu.convert_layout %y : tensor<16x32xf16, #mma> -> tensor<16x32xf16, #dot_a>
  // A slice of an mma layout: where row statistics of an accumulator live.
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<16xf32, #[[$SLICE]]> -> tensor<16xf32, #[[$MMAROWS]]>
  %2 = tilegpu.convert_layout %x : tensor<16xf32, #slice> -> tensor<16xf32, #mma_rows>
  return %0 : tensor<16xf32, #blocked1>
}

// CHECK-LABEL: func.func @shared
func.func @shared(%x: tensor<16x32xf16, #blocked>) -> tensor<16x32xf16, #blocked> {
  // CHECK: %[[A:.*]] = tilegpu.local_alloc %{{.*}} {offset = 0 : i64} : (tensor<16x32xf16, #[[$BLOCKED]]>) -> !tilegpu.memdesc<16x32xf16, #[[$SHARED]]>
  %0 = tilegpu.local_alloc %x {offset = 0 : i64} : (tensor<16x32xf16, #blocked>) -> !tilegpu.memdesc<16x32xf16, #shared>
  // CHECK: %[[B:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x32xf16, #[[$SHARED]]>
  %1 = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x32xf16, #shared>
  // CHECK: tilegpu.local_store %{{.*}}, %[[B]] : tensor<16x32xf16, #[[$BLOCKED]]> -> !tilegpu.memdesc<16x32xf16, #[[$SHARED]]>
  tilegpu.local_store %x, %1 : tensor<16x32xf16, #blocked> -> !tilegpu.memdesc<16x32xf16, #shared>
  // CHECK: tilegpu.barrier
  tilegpu.barrier
  // CHECK: tilegpu.local_load %[[A]] : !tilegpu.memdesc<16x32xf16, #[[$SHARED]]> -> tensor<16x32xf16, #[[$BLOCKED]]>
  %2 = tilegpu.local_load %0 : !tilegpu.memdesc<16x32xf16, #shared> -> tensor<16x32xf16, #blocked>
  return %2 : tensor<16x32xf16, #blocked>
}

// CHECK-LABEL: func.func @warpgroup_dot
func.func @warpgroup_dot(%a: !tilegpu.memdesc<64x64xf16, #nvmma>, %b: !tilegpu.memdesc<64x16xf16, #nvmma_t>, %c: tensor<64x16xf32, #mma3>) -> tensor<64x16xf32, #mma3> {
  // CHECK: tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} : !tilegpu.memdesc<64x64xf16, #[[$NVMMA]]>, !tilegpu.memdesc<64x16xf16, #[[$NVMMAT]]> -> tensor<64x16xf32, #[[$MMA3]]>
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #nvmma>, !tilegpu.memdesc<64x16xf16, #nvmma_t> -> tensor<64x16xf32, #mma3>
  return %d : tensor<64x16xf32, #mma3>
}

// CHECK-LABEL: func.func @async_copy
func.func @async_copy(%p: tensor<64x64x!tile.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>, %i: i32) -> tensor<64x16xf32, #mma3> {
  // CHECK: %[[RING:.*]] = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #[[$NVMMA]]>
  %ring = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #nvmma>
  // CHECK: %[[T:.*]] = tilegpu.memdesc_index %[[RING]][%{{.*}}] : !tilegpu.memdesc<3x64x64xf16, #[[$NVMMA]]> -> !tilegpu.memdesc<64x64xf16, #[[$NVMMA]]>
  %t = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<3x64x64xf16, #nvmma> -> !tilegpu.memdesc<64x64xf16, #nvmma>
  // CHECK: tilegpu.memdesc_trans %[[T]] : !tilegpu.memdesc<64x64xf16, #[[$NVMMA]]> -> !tilegpu.memdesc<64x64xf16, #{{.*}}>
  %tt = tilegpu.memdesc_trans %t : !tilegpu.memdesc<64x64xf16, #nvmma> -> !tilegpu.memdesc<64x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>>
  // CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %[[T]] : tensor<64x64x!tile.ptr<f16>, #[[$BLOCKED]]> -> !tilegpu.memdesc<64x64xf16, #[[$NVMMA]]>{{$}}
  tilegpu.async_copy_global_to_local %p, %t : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<64x64xf16, #nvmma>
  // CHECK: tilegpu.async_copy_global_to_local %{{.*}}, %[[T]], %{{.*}} : tensor<64x64x!tile.ptr<f16>, #[[$BLOCKED]]> -> !tilegpu.memdesc<64x64xf16, #[[$NVMMA]]> mask tensor<64x64xi1, #[[$BLOCKED]]>
  tilegpu.async_copy_global_to_local %p, %t, %m : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<64x64xf16, #nvmma> mask tensor<64x64xi1, #blocked>
  // CHECK: tilegpu.async_commit_group{{$}}
  tilegpu.async_commit_group
  // CHECK: tilegpu.async_wait {num = 1 : i32}
  tilegpu.async_wait {num = 1 : i32}
  // CHECK: tilegpu.fence_async_shared{{$}}
  tilegpu.fence_async_shared
  %b = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x16xf16, #nvmma_t>
  %z = arith.constant dense<0.0> : tensor<64x16xf32, #mma3>
  // CHECK: tilegpu.warpgroup_dot %[[T]]
  %d = tilegpu.warpgroup_dot %t, %b, %z : !tilegpu.memdesc<64x64xf16, #nvmma>, !tilegpu.memdesc<64x16xf16, #nvmma_t> -> tensor<64x16xf32, #mma3>
  return %d : tensor<64x16xf32, #mma3>
}

// CHECK-LABEL: func.func @tma
func.func @tma(%base: !tile.ptr<f16>, %m: i64, %k: i64, %ld: i64, %x: i32, %y: i32, %p: i1, %phase: i32) {
  // CHECK: %[[MAP:.*]] = tilegpu.create_tensor_map %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {lock} : !tile.ptr<f16> -> !tilegpu.tensor_map<128x64xf16, #[[$NVMMA]]>
  %map = tilegpu.create_tensor_map %base, %m, %k, %ld {lock} : !tile.ptr<f16> -> !tilegpu.tensor_map<128x64xf16, #nvmma>
  // CHECK: tilegpu.create_tensor_map %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !tile.ptr<f16>
  %map2 = tilegpu.create_tensor_map %base, %m, %k, %ld : !tile.ptr<f16> -> !tilegpu.tensor_map<128x64xf16, #nvmma>
  %bars = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x1xi64, #plain>
  %c0 = arith.constant 0 : i32
  // CHECK: %[[BAR:.*]] = tilegpu.memdesc_index {{.*}} -> !tilegpu.memdesc<1xi64, #[[$PLAIN]]>
  %bar = tilegpu.memdesc_index %bars[%c0] : !tilegpu.memdesc<2x1xi64, #plain> -> !tilegpu.memdesc<1xi64, #plain>
  // CHECK: tilegpu.init_barrier %[[BAR]], 1 : !tilegpu.memdesc<1xi64, #[[$PLAIN]]>
  tilegpu.init_barrier %bar, 1 : !tilegpu.memdesc<1xi64, #plain>
  // CHECK: tilegpu.barrier_expect %[[BAR]], 32768, %{{.*}} : !tilegpu.memdesc<1xi64, #[[$PLAIN]]>
  tilegpu.barrier_expect %bar, 32768, %p : !tilegpu.memdesc<1xi64, #plain>
  %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<128x128xf16, #nvmma>
  // Two boxes (swizzle-wide columns) of 128x64.
  // CHECK: tilegpu.async_tma_copy_global_to_local %[[MAP]][%{{.*}}, %{{.*}}] %{{.*}}, %[[BAR]], %{{.*}} : !tilegpu.tensor_map<128x64xf16, #[[$NVMMA]]> -> !tilegpu.memdesc<128x128xf16, #[[$NVMMA]]>, !tilegpu.memdesc<1xi64, #[[$PLAIN]]>
  tilegpu.async_tma_copy_global_to_local %map[%x, %y] %t, %bar, %p : !tilegpu.tensor_map<128x64xf16, #nvmma> -> !tilegpu.memdesc<128x128xf16, #nvmma>, !tilegpu.memdesc<1xi64, #plain>
  // CHECK: tilegpu.wait_barrier %[[BAR]], %{{.*}} : !tilegpu.memdesc<1xi64, #[[$PLAIN]]>
  tilegpu.wait_barrier %bar, %phase : !tilegpu.memdesc<1xi64, #plain>
  // CHECK: tilegpu.inval_barrier %[[BAR]] : !tilegpu.memdesc<1xi64, #[[$PLAIN]]>
  tilegpu.inval_barrier %bar : !tilegpu.memdesc<1xi64, #plain>
  // CHECK: tilegpu.fence_tensor_map %[[MAP]] : !tilegpu.tensor_map<128x64xf16, #[[$NVMMA]]>
  tilegpu.fence_tensor_map %map : !tilegpu.tensor_map<128x64xf16, #nvmma>
  // CHECK: tilegpu.release_tensor_map %[[MAP]] : !tilegpu.tensor_map<128x64xf16, #[[$NVMMA]]>
  tilegpu.release_tensor_map %map : !tilegpu.tensor_map<128x64xf16, #nvmma>
  return
}
