// RUN: tile-opt %s -split-input-file -verify-diagnostics
// One case per verifier error of the tilegpu dialect.

// expected-error @+1 {{sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same length}}
#bad = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @f(%x: tensor<16x16xf32, #bad>)

// -----

// expected-error @+1 {{layout sizes must be powers of two, got 3}}
#bad = #tilegpu.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @f(%x: tensor<16xf32, #bad>)

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
#bad = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>
func.func @f(%x: tensor<16xf32, #bad>)

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
#bad = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>
func.func @f(%x: tensor<16x16xf32, #bad>)

// -----

// expected-error @+1 {{slice parent must be a blocked, mma or slice layout}}
#bad = #tilegpu.slice<{dim = 0, parent = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>}>
func.func @f(%x: tensor<16xf32, #bad>)

// -----

#one = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s = #tilegpu.slice<{dim = 0, parent = #one}>
// expected-error @+1 {{slice of a slice with no dimension left}}
#bad = #tilegpu.slice<{dim = 0, parent = #s}>
func.func @f(%x: tensor<16xf32, #bad>)

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{slice dim 1 out of range for a 1-D parent}}
#bad = #tilegpu.slice<{dim = 1, parent = #blocked}>
func.func @f(%x: tensor<16xf32, #bad>)

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @alloc_shape(%x: tensor<16x16xf32, #blocked>) {
  // expected-error @+1 {{differ in shape or element type}}
  %0 = tilegpu.local_alloc %x : (tensor<16x16xf32, #blocked>) -> !tilegpu.memdesc<16x32xf32, #shared>
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @load_type(%b: !tilegpu.memdesc<16x16xf32, #shared>) {
  // expected-error @+1 {{differ in shape or element type}}
  %0 = tilegpu.local_load %b : !tilegpu.memdesc<16x16xf32, #shared> -> tensor<16x16xf16, #blocked>
  return
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @store_shape(%x: tensor<16x16xf32, #blocked>, %b: !tilegpu.memdesc<32x16xf32, #shared>) {
  // expected-error @+1 {{differ in shape or element type}}
  tilegpu.local_store %x, %b : tensor<16x16xf32, #blocked> -> !tilegpu.memdesc<32x16xf32, #shared>
  return
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_shape(%x: tensor<16xf32, #a>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = tilegpu.convert_layout %x : tensor<16xf32, #a> -> tensor<32xf32, #a>
  return
}

// -----

// expected-error @+1 {{swizzle must be 32, 64 or 128 bytes, got 16}}
#bad = #tilegpu.nvmma_shared<{swizzle = 16, order = [1, 0]}>
func.func @f(%x: !tilegpu.memdesc<64x64xf16, #bad>)

// -----

// expected-error @+1 {{order must be [1, 0] or [0, 1]}}
#bad = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 1]}>
func.func @f(%x: !tilegpu.memdesc<64x64xf16, #bad>)

// -----

// expected-error @+1 {{mma versionMajor must be 2 or 3, got 1}}
#bad = #tilegpu.mma<{versionMajor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
func.func @f(%x: tensor<32x32xf32, #bad>)

// -----

// expected-error @+1 {{mma warpsPerCTA must have two entries}}
#bad = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4], instrShape = [16, 8]}>
func.func @f(%x: tensor<32x32xf32, #bad>)

// -----

// expected-error @+1 {{mma warpsPerCTA must be powers of two, got 3}}
#bad = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [3, 1], instrShape = [16, 8]}>
func.func @f(%x: tensor<32x32xf32, #bad>)

// -----

// expected-error @+1 {{mma version 3 needs warpsPerCTA = [4k, 1]}}
#bad = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [2, 2], instrShape = [64, 16, 16]}>
func.func @f(%x: tensor<64x64xf32, #bad>)

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @wg_shapes(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<32x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{shapes do not form [M, K] x [K, N] -> [M, N]}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<32x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @wg_register_a(%a: tensor<64x64xf16, #blocked>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{a block in registers must be f16 or bf16 with the accumulator's #tilegpu.dot_op layout (opIdx 0, kWidth 2)}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : tensor<64x64xf16, #blocked>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @wg_rank(%a: !tilegpu.memdesc<64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{operands must be 2-D}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @wg_types(%a: !tilegpu.memdesc<64x64xf32, #s>, %b: !tilegpu.memdesc<64x64xf32, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{tf32 operands must be contiguous along K (a: order [1, 0], b: order [0, 1])}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf32, #s>, !tilegpu.memdesc<64x64xf32, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @wg_acc(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf16, #mma>) {
  // expected-error @+1 {{accumulator must be f32}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf16, #mma>
  return
}

// -----

#s = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @wg_layouts(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{operands must have #tilegpu.nvmma_shared layouts}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
func.func @wg_version(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{accumulator must have an #tilegpu.mma layout of version 3}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]}>
func.func @wg_fit(%a: !tilegpu.memdesc<64x64xf16, #s>, %b: !tilegpu.memdesc<64x64xf16, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{shape 64x64x64 does not fit wgmma: M a multiple of 128, N a multiple of 8 up to 256, K of 16}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @index_rank(%b: !tilegpu.memdesc<64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{result '!tilegpu.memdesc<64x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>>' is not one tile of '!tilegpu.memdesc<64x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>>'}}
  %t = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @index_shape(%b: !tilegpu.memdesc<3x64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{is not one tile of}}
  %t = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<3x64x64xf16, #s> -> !tilegpu.memdesc<64x32xf16, #s>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @index_element(%b: !tilegpu.memdesc<3x64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{is not one tile of}}
  %t = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<3x64x64xf16, #s> -> !tilegpu.memdesc<64x64xbf16, #s>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#s64 = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
func.func @index_layout(%b: !tilegpu.memdesc<3x64x64xf16, #s>, %i: i32) {
  // expected-error @+1 {{is not one tile of}}
  %t = tilegpu.memdesc_index %b[%i] : !tilegpu.memdesc<3x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s64>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @copy_pointee(%p: tensor<64x64x!tile.ptr<f32>, #b>, %t: !tilegpu.memdesc<64x64xf16, #s>) {
  // expected-error @+1 {{pointers 'tensor<64x64x!tile.ptr<f32>, #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' do not address the elements of '!tilegpu.memdesc<64x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>>'}}
  tilegpu.async_copy_global_to_local %p, %t : tensor<64x64x!tile.ptr<f32>, #b> -> !tilegpu.memdesc<64x64xf16, #s>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @copy_shape(%p: tensor<64x32x!tile.ptr<f16>, #b>, %t: !tilegpu.memdesc<64x64xf16, #s>) {
  // expected-error @+1 {{do not address the elements of}}
  tilegpu.async_copy_global_to_local %p, %t : tensor<64x32x!tile.ptr<f16>, #b> -> !tilegpu.memdesc<64x64xf16, #s>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @copy_not_pointers(%p: tensor<64x64xf16, #b>, %t: !tilegpu.memdesc<64x64xf16, #s>) {
  // expected-error @+1 {{do not address the elements of}}
  tilegpu.async_copy_global_to_local %p, %t : tensor<64x64xf16, #b> -> !tilegpu.memdesc<64x64xf16, #s>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @copy_mask_shape(%p: tensor<64x64x!tile.ptr<f16>, #b>, %t: !tilegpu.memdesc<64x64xf16, #s>, %m: tensor<64x32xi1, #b>) {
  // expected-error @+1 {{mask must be an i1 block of the pointers' shape}}
  tilegpu.async_copy_global_to_local %p, %t, %m : tensor<64x64x!tile.ptr<f16>, #b> -> !tilegpu.memdesc<64x64xf16, #s> mask tensor<64x32xi1, #b>
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @copy_mask_type(%p: tensor<64x64x!tile.ptr<f16>, #b>, %t: !tilegpu.memdesc<64x64xf16, #s>, %m: tensor<64x64xi8, #b>) {
  // expected-error @+1 {{mask must be an i1 block of the pointers' shape}}
  tilegpu.async_copy_global_to_local %p, %t, %m : tensor<64x64x!tile.ptr<f16>, #b> -> !tilegpu.memdesc<64x64xf16, #s> mask tensor<64x64xi8, #b>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
func.func @wg_types(%a: !tilegpu.memdesc<64x64xi8, #s>, %b: !tilegpu.memdesc<64x64xi8, #s>, %c: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{operands must both be f16, bf16 or f32 (tf32)}}
  %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<64x64xi8, #s>, !tilegpu.memdesc<64x64xi8, #s> -> tensor<64x64xf32, #mma>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{tensor map boxes need an nvmma_shared layout}}
func.func @tm_layout(%m: !tilegpu.tensor_map<128x64xf16, #p>) {
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{tensor map elements must be f16, bf16 or f32, got 'i8'}}
func.func @tm_elem(%m: !tilegpu.tensor_map<128x64xi8, #s>) {
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{tensor map boxes must be 2-D}}
func.func @tm_rank(%m: !tilegpu.tensor_map<64xf16, #s>) {
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{the box's contiguous dimension must span the 128-byte swizzle, got 32 elements}}
func.func @tm_inner(%m: !tilegpu.tensor_map<128x32xf16, #s>) {
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{the box's other dimension must be a multiple of 8 up to 256, got 512}}
func.func @tm_outer(%m: !tilegpu.tensor_map<512x64xf16, #s>) {
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @tm_base(%b: !tile.ptr<f32>, %x: i64) {
  // expected-error @+1 {{base points to 'f32' but the tensor map copies 'f16'}}
  %m = tilegpu.create_tensor_map %b, %x, %x, %x : !tile.ptr<f32> -> !tilegpu.tensor_map<128x64xf16, #s>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @tma_dst_layout(%m: !tilegpu.tensor_map<128x64xf16, #s>, %t: !tilegpu.memdesc<128x64xf16, #p>, %bar: !tilegpu.memdesc<1xi64, #p>, %x: i32, %c: i1) {
  // expected-error @+1 {{destination '!tilegpu.memdesc<128x64xf16, #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>>' is not laid out as the boxes of}}
  tilegpu.async_tma_copy_global_to_local %m[%x, %x] %t, %bar, %c : !tilegpu.tensor_map<128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #p>, !tilegpu.memdesc<1xi64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @tma_dst_shape(%m: !tilegpu.tensor_map<128x64xf16, #s>, %t: !tilegpu.memdesc<64x64xf16, #s>, %bar: !tilegpu.memdesc<1xi64, #p>, %x: i32, %c: i1) {
  // expected-error @+1 {{is not a whole number of boxes of}}
  tilegpu.async_tma_copy_global_to_local %m[%x, %x] %t, %bar, %c : !tilegpu.tensor_map<128x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>, !tilegpu.memdesc<1xi64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @tma_bar(%m: !tilegpu.tensor_map<128x64xf16, #s>, %t: !tilegpu.memdesc<128x64xf16, #s>, %bar: !tilegpu.memdesc<2xi64, #p>, %x: i32, %c: i1) {
  // expected-error @+1 {{expects an mbarrier (!tilegpu.memdesc<1xi64, ...>), got}}
  tilegpu.async_tma_copy_global_to_local %m[%x, %x] %t, %bar, %c : !tilegpu.tensor_map<128x64xf16, #s> -> !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<2xi64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @init_count(%bar: !tilegpu.memdesc<1xi64, #p>) {
  // expected-error @+1 {{count must be positive, got 0}}
  tilegpu.init_barrier %bar, 0 : !tilegpu.memdesc<1xi64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @init_type(%bar: !tilegpu.memdesc<1xi32, #p>) {
  // expected-error @+1 {{expects an mbarrier}}
  tilegpu.init_barrier %bar, 1 : !tilegpu.memdesc<1xi32, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @inval_type(%bar: !tilegpu.memdesc<1x1xi64, #p>) {
  // expected-error @+1 {{expects an mbarrier}}
  tilegpu.inval_barrier %bar : !tilegpu.memdesc<1x1xi64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @expect_bytes(%bar: !tilegpu.memdesc<1xi64, #p>, %c: i1) {
  // expected-error @+1 {{bytes must be in [0, 2^20), got 2097152}}
  tilegpu.barrier_expect %bar, 2097152, %c : !tilegpu.memdesc<1xi64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @expect_type(%bar: !tilegpu.memdesc<1xf64, #p>, %c: i1) {
  // expected-error @+1 {{expects an mbarrier}}
  tilegpu.barrier_expect %bar, 16, %c : !tilegpu.memdesc<1xf64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#p = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @wait_type(%bar: !tilegpu.memdesc<2xi64, #p>, %ph: i32) {
  // expected-error @+1 {{expects an mbarrier}}
  tilegpu.wait_barrier %bar, %ph : !tilegpu.memdesc<2xi64, #p>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
func.func @trans_order(%b: !tilegpu.memdesc<64x32xf16, #s>) {
  // expected-error @+1 {{result '!tilegpu.memdesc<32x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>>' is not the transposed view '!tilegpu.memdesc<32x64xf16, #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>>'}}
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x32xf16, #s> -> !tilegpu.memdesc<32x64xf16, #s>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#t = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
func.func @trans_shape(%b: !tilegpu.memdesc<64x32xf16, #s>) {
  // expected-error @+1 {{is not the transposed view}}
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x32xf16, #s> -> !tilegpu.memdesc<64x32xf16, #t>
  return
}

// -----

#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#t64 = #tilegpu.nvmma_shared<{swizzle = 64, order = [0, 1]}>
func.func @trans_swizzle(%b: !tilegpu.memdesc<64x32xf16, #s>) {
  // expected-error @+1 {{is not the transposed view}}
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x32xf16, #s> -> !tilegpu.memdesc<32x64xf16, #t64>
  return
}

// -----

#plain = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#plaint = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
func.func @trans_plain(%b: !tilegpu.memdesc<64x32xf16, #plain>) {
  // expected-error @+1 {{expected a 2-D tile of #tilegpu.nvmma_shared layout, got '!tilegpu.memdesc<64x32xf16, #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>>'}}
  %t = tilegpu.memdesc_trans %b : !tilegpu.memdesc<64x32xf16, #plain> -> !tilegpu.memdesc<32x64xf16, #plaint>
  return
}

// -----

// Layouts hold as many dimensions as the blocks they lay out (issue 25: a
// 1-D layout on a 16x16 block used to lower, touching 16 elements).
#one = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{a 1-D layout on a 2-D block}}
func.func @f(%x: tensor<16x16xf32, #one>)

// -----

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{a 2-D layout on a 1-D block}}
func.func @f(%x: tensor<16xf32, #mma>)

// -----

// Register layouts describe power-of-two extents only (issue 25: a 24x32
// block under a 32-row layout read registers past its end): every
// dimension of a laid-out block is a power of two, as in the language.
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{a block with a register layout needs power-of-two dimensions, got 24 in dimension 0}}
func.func @f(%x: tensor<24x32xf16, #b>)

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 0, parent = #b}>
// expected-error @+1 {{a block with a register layout needs power-of-two dimensions, got 24 in dimension 0}}
func.func @f(%x: tensor<24xf32, #s>)

// -----

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{a block with a register layout needs power-of-two dimensions, got 48 in dimension 0}}
func.func @f(%x: tensor<48x64xf32, #mma>)

// -----

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
// expected-error @+1 {{a block with a register layout needs power-of-two dimensions, got 40 in dimension 1}}
func.func @f(%x: tensor<64x40xf16, #a>)

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{a block with a register layout needs a static shape}}
func.func @f(%x: tensor<?xf32, #b>)

// -----

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{dot operand index must be 0 (A) or 1 (B), got 7}}
#bad = #tilegpu.dot_op<{opIdx = 7, parent = #mma, kWidth = 2}>
func.func @f(%x: tensor<16x16xf16, #bad>)

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{dot operand parent must be an mma layout}}
#bad = #tilegpu.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>
func.func @f(%x: tensor<16x16xf16, #bad>)

// -----

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// expected-error @+1 {{kWidth must be 1, 2, 4 or 8, got 3}}
#bad = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 3}>
func.func @f(%x: tensor<16x16xf16, #bad>)

// -----

// sizePerThread 2^30 used to divide by zero in the lowering.
// expected-error @+1 {{at most 1048576 elements per thread and 32 warps}}
#bad = #tilegpu.blocked<{sizePerThread = [1073741824], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
func.func @f(%x: tensor<16xf32, #bad>)

// -----

// An 8-warp layout in a 4-warp module used to lower and leave half the
// block to warps that do not run.
#eight = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @f(%x: tensor<256xf32, #eight>) {
    // expected-error @+1 {{has a layout for 8 warps in a module of 4}}
    %y = arith.addf %x, %x : tensor<256xf32, #eight>
    return
  }
}

// -----

// expected-error @+1 {{tilegpu.num_warps must be a power of two in [1, 32] on a module}}
module attributes {tilegpu.num_warps = 3 : i32} {
}

// -----

func.func @f() {
  // async_wait -5 used to emit cp.async.wait_group 4294967291.
  // expected-error @+1 {{attribute 'num' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  tilegpu.async_wait {num = -5 : i32}
  return
}

// -----

// mma.sync reads each operand as one 32-bit register per k-step: a kWidth
// that does not pack f16 pairs used to crash the lowering (kWidth 1) or
// make invalid LLVM (kWidth 4).
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#a1 = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 1 : i32} {
  func.func @f(%a: tensor<16x32xf16, #a1>, %b: tensor<32x16xf16, #b>, %c: tensor<16x16xf32, #mma>) -> tensor<16x16xf32, #mma> {
    // expected-error @+1 {{operand a of an mma.sync dot must have the accumulator's #tilegpu.dot_op layout with opIdx 0 and kWidth 2 (one 32-bit register of 'f16' per k-step)}}
    %d = tile.dot %a, %b, %c : tensor<16x32xf16, #a1> * tensor<32x16xf16, #b> -> tensor<16x16xf32, #mma>
    return %d : tensor<16x16xf32, #mma>
  }
}

// -----

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#b0 = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
module attributes {tilegpu.num_warps = 1 : i32} {
  func.func @f(%a: tensor<16x8xf32, #a>, %b: tensor<8x16xf32, #b0>, %c: tensor<16x16xf32, #mma>) -> tensor<16x16xf32, #mma> {
    // expected-error @+1 {{operand b of an mma.sync dot must have the accumulator's #tilegpu.dot_op layout with opIdx 1 and kWidth 1 (one 32-bit register of 'f32' per k-step)}}
    %d = tile.dot %a, %b, %c : tensor<16x8xf32, #a> * tensor<8x16xf32, #b0> -> tensor<16x16xf32, #mma>
    return %d : tensor<16x16xf32, #mma>
  }
}

// -----

#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @f(%a: tensor<64x16xf16, #a>, %b: tensor<16x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    // expected-error @+1 {{an accumulator in an #tilegpu.mma layout must be of version 2 (mma.sync); version 3 is for tilegpu.warp_group_dot}}
    %d = tile.dot %a, %b, %c : tensor<64x16xf16, #a> * tensor<16x64xf16, #b> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  func.func @f(%a: tensor<16x16xf16, #a>, %b: tensor<16x16xf16, #blocked>, %c: tensor<16x16xf32, #blocked>) -> tensor<16x16xf32, #blocked> {
    // expected-error @+1 {{operands in #tilegpu.dot_op layouts need an accumulator in an #tilegpu.mma layout}}
    %d = tile.dot %a, %b, %c : tensor<16x16xf16, #a> * tensor<16x16xf16, #blocked> -> tensor<16x16xf32, #blocked>
    return %d : tensor<16x16xf32, #blocked>
  }
}

// -----

// A per-thread tile far larger than the block used to build a million
// values per thread in the lowering (out of memory).
#big = #tilegpu.blocked<{sizePerThread = [1024, 1024], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{this layout gives each thread 1048576 registers of the block; at most 32768}}
func.func @f(%x: tensor<16x16xf32, #big>)
