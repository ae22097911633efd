// RUN: tile-opt %s -split-input-file -verify-diagnostics
// Malformed shared-memory tiles (!tilegpu.memdesc): the type's verifier
// rejects them (see README.txt for the whole corpus). Each used to verify
// and reach the shared-memory allocator, which sized them wrong: 2^32 x 2^32
// or 2^40 elements wrapped to 0 bytes, a rank-0 tile took 16 bytes, a
// zero-size dimension 0 bytes.

#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @+1 {{a shared-memory tile has more than 1048576 (2^20) elements}}
func.func @huge(%m: !tilegpu.memdesc<4294967296x4294967296xf32, #shared>) {
  return
}

// -----

#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @huge_alloc() {
  // expected-error @+1 {{a shared-memory tile has more than 1048576 (2^20) elements}}
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<1099511627776xf32, #shared>
  return
}

// -----

#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @rank0() {
  // expected-error @+1 {{a shared-memory tile must have rank 1 or more}}
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<f32, #shared>
  return
}

// -----

#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
func.func @zero() {
  // expected-error @+1 {{a shared-memory tile has a dimension of size 0}}
  %m = tilegpu.local_alloc : () -> !tilegpu.memdesc<0x16xf32, #shared>
  return
}

// -----

// A register layout is not a shared-memory layout.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @register_layout(%x: tensor<128xf16, #b>) {
  // expected-error @+1 {{shared-memory tiles need a #tilegpu.shared or #tilegpu.nvmma_shared layout, got #tilegpu.blocked}}
  %m = tilegpu.local_alloc %x : (tensor<128xf16, #b>) -> !tilegpu.memdesc<128xf16, #b>
  return
}
