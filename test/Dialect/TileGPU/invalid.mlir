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

// expected-error @+1 {{slice parent must be a blocked or slice layout}}
#bad = #tilegpu.slice<{dim = 0, parent = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>}>
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
