// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -verify-diagnostics
// RUN: tile-opt %s -split-input-file --tilegpu-test-print-layout -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=PRINT
// Malformed tilegpu IR given to the conversion to LLVM: an error, never a
// crash (see README.txt for the whole corpus). The layout printer says
// where a layout that does not tile its block has no element.

// A swizzled store of a block whose layout does not tile its shape (24 rows
// under a layout of 32): found by the cross-pass sweep, it read registers
// past the end of the block (SIGSEGV); so did the layout printer.
// PRINT: layout of @rows_not_tiled argument 0: tensor<24x32xf16
// PRINT: (r0 l0 w0 holds no element: the layout does not tile the shape)
#b1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
func.func @rows_not_tiled(%y: tensor<24x32xf16, #b1>) {
  // expected-error @+1 {{failed to legalize operation 'tilegpu.local_alloc'}}
  %a = tilegpu.local_alloc %y : (tensor<24x32xf16, #b1>) -> !tilegpu.memdesc<24x32xf16, #nvmma>
  %v = tilegpu.local_load %a : !tilegpu.memdesc<24x32xf16, #nvmma> -> tensor<24x32xf16, #b1>
  tile.print "", %v : tensor<24x32xf16, #b1>
  return
}
