// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -verify-diagnostics
// RUN: tile-opt %s -split-input-file --tilegpu-test-print-layout -o /dev/null -verify-diagnostics
// Malformed tilegpu IR given to the conversion to LLVM and to the layout
// printer: an error, never a crash (see README.txt for the whole corpus).

// A swizzled store of a block whose layout does not tile its shape (24 rows
// under a layout of 32): found by the cross-pass sweep, it read registers
// past the end of the block (SIGSEGV); so did the layout printer. Register
// layouts describe power-of-two extents only, so the type is rejected
// before any pass sees it.
#b1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
// expected-error @+1 {{a block with a register layout needs power-of-two dimensions, got 24 in dimension 0}}
func.func @rows_not_tiled(%y: tensor<24x32xf16, #b1>) {
  %a = tilegpu.local_alloc %y : (tensor<24x32xf16, #b1>) -> !tilegpu.memdesc<24x32xf16, #nvmma>
  %v = tilegpu.local_load %a : !tilegpu.memdesc<24x32xf16, #nvmma> -> tensor<24x32xf16, #b1>
  tile.print "", %v : tensor<24x32xf16, #b1>
  return
}
