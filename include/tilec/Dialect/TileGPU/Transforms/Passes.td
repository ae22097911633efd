//===- Passes.td - Passes of the tilegpu dialect -----------*- tablegen -*-===//
//
// Passes on laid-out (tilegpu) IR.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUAllocateSharedMemory
    : Pass<"tilegpu-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Give every shared-memory buffer an offset from liveness";
  let description = [{
    Ops that exchange data between threads through shared memory (cross-warp
    reductions, layout conversions, transposes, reshapes, the FMA dot) need
    scratch space only while they run; explicit buffers
    (`tilegpu.local_alloc`) live from their allocation to their last use.
    Buffers whose live ranges overlap get disjoint offsets; scratch space
    of different ops is reused. The pass sets `tilegpu.scratch_offset` on each
    op that needs scratch, `offset` on each `local_alloc`, and the module's
    `tilegpu.shared` to the total bytes (the kernel's dynamic shared memory).

    Before:
    ```mlir
    %r = tile.reduce sum %x axis = 0 : tensor<1024xf32, #blocked> -> f32
    ```
    After:
    ```mlir
    module attributes {tilegpu.shared = 16 : i32} {
      %r = tile.reduce sum %x axis = 0 {tilegpu.scratch_offset = 0 : i32} : ...
    ```
  }];
}

def TileGPUCoalesce : Pass<"tilegpu-coalesce", "::mlir::ModuleOp"> {
  let summary = "Lay blocks out so memory accesses are coalesced and vectorized";
  let description = [{
    For every global load, store and atomic, the axis analysis says along
    which dimension the addresses are contiguous and how well they are
    aligned. The block's layout becomes one whose fastest dimension follows
    that contiguity, with as many consecutive elements per thread as fit one
    aligned access of up to 16 bytes (`ld.global.v4.b32`). Every block that
    had the old layout gets the new one (so elementwise chains need no
    conversion); slices follow their parent; conversions are inserted where
    ops still need another layout.

    Before (a row of f32 from a 16-byte aligned pointer):
    ```mlir
    #blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    %x = tile.load %p : tensor<1024x!tile.ptr<f32>, #blocked>
    ```
    After:
    ```mlir
    #blocked = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    %x = tile.load %p : tensor<1024x!tile.ptr<f32>, #blocked>
    ```
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPUTestPrintLayout
    : Pass<"tilegpu-test-print-layout", "::mlir::ModuleOp"> {
  let summary = "Print which (register, lane, warp) holds each element";
  let description = [{
    A test aid: for every block-typed argument of every function, prints the
    layout function, element by element, in row-major order:
    `[i, j]: r0 l3 w0, r0 l19 w0` lists every (register, lane, warp) holding
    element (i, j). Lowering tests FileCheck it to pin down layouts.
  }];
}

#endif // TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
