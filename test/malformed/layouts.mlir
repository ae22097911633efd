// RUN: tile-opt %s -split-input-file -verify-diagnostics
// Malformed laid-out blocks the verifiers reject, beyond the blocked-layout
// cases of test/Dialect/TileGPU/invalid.mlir (see README.txt for the whole
// corpus): the warps of mma, dot-operand and slice layouts against the
// module's, too many warps, and the shape limits of the tile dialect on
// blocks that carry a layout (power-of-two dimensions: TileGPU/invalid.mlir).

// An mma layout over 8 warps in a 4-warp module.
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @mma_warps(%x: tensor<64x64xf32, #mma>) {
    // expected-error @+1 {{has a layout for 8 warps in a module of 4}}
    tile.print "", %x : tensor<64x64xf32, #mma>
    return
  }
}

// -----

// A dot operand of that mma layout.
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @dot_operand_warps(%x: tensor<64x64xf16, #a>) {
    // expected-error @+1 {{has a layout for 8 warps in a module of 4}}
    tile.print "", %x : tensor<64x64xf16, #a>
    return
  }
}

// -----

// A slice of an 8-warp blocked layout.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #b}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @slice_warps(%x: tensor<64xf32, #s>) {
    // expected-error @+1 {{has a layout for 8 warps in a module of 4}}
    tile.print "", %x : tensor<64xf32, #s>
    return
  }
}

// -----

// 64 warps: more than a thread block has.
// expected-error @+1 {{at most 1048576 elements per thread and 32 warps}}
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 8], order = [1, 0]}>
func.func @too_many_warps(%x: tensor<64x64xf32, #b>) {
  return
}

// -----

// 2^32 x 2^32 elements under a layout (it used to lower to a function with
// no memory accesses).
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @huge(%x: tensor<4294967296x4294967296xf32, #b>) {
  // expected-error @+1 {{has more than 1048576 (2^20) elements}}
  tile.print "", %x : tensor<4294967296x4294967296xf32, #b>
  return
}

// -----

// A rank-0 block with a layout.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{a 1-D layout on a 0-D block}}
func.func @rank0(%x: tensor<f32, #b>) {
  return
}

// -----

// A zero-size dimension under a layout.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{a block with a register layout needs power-of-two dimensions, got 0 in dimension 0}}
func.func @zero(%x: tensor<0x16xf32, #b>) {
  tile.print "", %x : tensor<0x16xf32, #b>
  return
}

// -----

// A conversion to a layout of another rank.
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @convert_rank(%x: tensor<16x16xf32, #b2>) {
  // expected-error @+1 {{a 1-D layout on a 2-D block}}
  %y = tilegpu.convert_layout %x : tensor<16x16xf32, #b2> -> tensor<16x16xf32, #b1>
  return
}
