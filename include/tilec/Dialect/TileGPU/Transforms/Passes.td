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

def TileGPUAccelerateMatmul
    : Pass<"tilegpu-accelerate-matmul", "::mlir::ModuleOp"> {
  let summary = "Put dots on tensor cores: mma and dot-operand layouts";
  let description = [{
    A `tile.dot` of f16 or bf16 inputs (or f32 with tf32 precision) whose
    shape fits the `mma.sync` m16n8k16 (m16n8k8 for tf32) instructions of
    sm_80+ gets an `#tilegpu.mma` accumulator layout, with `warpsPerCTA`
    chosen to split the tile evenly, and operands in `#tilegpu.dot_op`
    layouts; conversions are inserted around it. f32 dots with
    `inputPrecision = ieee` stay on the FMA path.

    With `wgmma=true` (sm_90a), an f16/bf16 dot whose tile fits the warp
    group instructions (all warps along M, a multiple of 4 of them, M a
    multiple of 16 per warp, N a multiple of 8 up to 256, K of 16) instead
    stages both operands in shared memory (`tilegpu.local_alloc` with an
    `#tilegpu.nvmma_shared` layout whose contiguous dimension is the one
    the operand's registers are contiguous in) and becomes a
    `tilegpu.warpgroup_dot` with a version-3 `#tilegpu.mma` accumulator:
    ```mlir
    %as = tilegpu.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !tilegpu.memdesc<128x64xf16, #shared>
    %bs = tilegpu.local_alloc %b : (tensor<64x128xf16, #blocked1>) -> !tilegpu.memdesc<64x128xf16, #shared>
    %d2 = tilegpu.warpgroup_dot %as, %bs, %c2 : ... -> tensor<128x128xf32, #mma>
    ```

    Before:
    ```mlir
    %d = tile.dot %a, %b, %c : tensor<128x32xf16, #blocked> * tensor<32x128xf16, #blocked1> -> tensor<128x128xf32, #blocked2>
    ```
    After:
    ```mlir
    %a2 = tilegpu.convert_layout %a : ... -> tensor<128x32xf16, #dot_op>
    %b2 = tilegpu.convert_layout %b : ... -> tensor<32x128xf16, #dot_op1>
    %c2 = tilegpu.convert_layout %c : ... -> tensor<128x128xf32, #mma>
    %d2 = tile.dot %a2, %b2, %c2 : ... -> tensor<128x128xf32, #mma>
    %d = tilegpu.convert_layout %d2 : ... -> tensor<128x128xf32, #blocked2>
    ```
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "unsigned", "90",
           "Target compute capability (80, 90); below 80 nothing changes">,
    Option<"wgmma", "wgmma", "bool", "false",
           "Use Hopper's wgmma (sm_90a) where the tile fits">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPURemoveLayoutConversions
    : Pass<"tilegpu-remove-layout-conversions", "::mlir::ModuleOp"> {
  let summary = "Propagate layouts from the anchors to remove conversions";
  let description = [{
    Layout propagation. Anchors keep their layouts: global loads and stores
    their coalesced ones, dots their mma results and operand layouts. For
    each `convert_layout`, the pass tries computing the blocks downstream
    of it in its source layout (forward from the anchor), and else its
    source in its result layout (a loop-carried block carried in the layout
    its users want). The new layout flows through elementwise ops, `where`,
    casts, reductions and one-block `combine_reduce`s (to the slice of the
    layout along the reduced axis), reshapes (to the layout that keeps each
    element in its thread, when a blocked layout does; a reshape that still
    moves data is tried as a conversion is), expand_dims (slice to parent),
    broadcast, `scf.for` iter_args and
    results, `scf.if` results and `scf.while` arguments; pointers and
    reductions, expand_dims and broadcast stay in blocked and slice layouts
    (the lowering's). A change is kept when the conversions it leaves and
    the registers of the blocks it retypes cost less than before: bytes
    moved (plus 4 KiB a conversion for its barriers) and bytes of registers
    over all threads, weighted by 8 per enclosing loop; splats, constants
    and ranges are free (recreated in the target layout). Then conversions
    of cheap expressions are rematerialized, chains folded, a conversion of
    an expand_dims or broadcast converts its operand instead, so does one of
    an elementwise op whose operands are conversions (they fold), conversions
    of loop-invariant blocks are hoisted before the loop, and conversions
    used in one branch of an `scf.if` moved into it.

    Before:
    ```mlir
    %r = scf.for ... iter_args(%acc = %init) -> (tensor<64x64xf32, #blocked>) {
      %s = tilegpu.convert_layout %acc : ... #blocked> -> ... #mma>
      %c = arith.mulf %s, %alpha : tensor<64x64xf32, #mma>
      %d = tile.dot %a, %b, %c : ... -> tensor<64x64xf32, #mma>
      %y = tilegpu.convert_layout %d : ... #mma> -> ... #blocked>
      scf.yield %y : tensor<64x64xf32, #blocked>
    }
    ```
    After:
    ```mlir
    %i = tilegpu.convert_layout %init : ... #blocked> -> ... #mma>
    %r2 = scf.for ... iter_args(%acc = %i) -> (tensor<64x64xf32, #mma>) {
      %c = arith.mulf %acc, %alpha : tensor<64x64xf32, #mma>
      %d = tile.dot %a, %b, %c : ... -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    %r = tilegpu.convert_layout %r2 : ... #mma> -> ... #blocked>
    ```
  }];
}

def TileGPUPipeline : Pass<"tilegpu-pipeline", "::mlir::ModuleOp"> {
  let summary = "Prefetch the next iteration's dot operands during this one";
  let description = [{
    Software pipelining of loops that feed `tile.dot`: the global loads of
    the next iteration are issued at the top of the body (their addresses
    and masks computed for `iv + step`, guarded by `iv + step < ub`) and
    carried to it, so their latency overlaps the current iteration's
    shared-memory staging and tensor-core work. The first iteration's loads
    move before the loop (guarded by `lb < ub`). Applies when the kernel's
    `num_stages` (or the loop's `tile.num_stages`) is at least 2.

    Before:
    ```mlir
    scf.for %k = %lb to %ub step %s iter_args(%acc = %z, %p = %p0) {
      %a = tile.load %p, %m : ...
      %d = tile.dot %a, ...
      %p1 = tile.addptr %p, %step : ...
      scf.yield %d, %p1
    }
    ```
    After:
    ```mlir
    %a0 = tile.load %p0, (%m0 and %lb < %ub) : ...
    scf.for %k = ... iter_args(%acc = %z, %p = %p0, %a = %a0) {
      %pn = tile.addptr %p, %step : ...
      %an = tile.load %pn, (%mn and %k + %s < %ub) : ...
      %d = tile.dot %a, ...
      scf.yield %d, %pn, %an
    }
    ```

    Operands staged in swizzled shared memory for warp-group dots (sm_90a)
    get a ring of `num_stages` buffers filled `num_stages - 1` iterations
    ahead: with bulk tensor copies (TMA) completing on an mbarrier per
    buffer where the load's addresses and mask are those of a 2-D box of a
    tensor (`tma=true`, the default; see
    include/tilec/Analysis/TensorMapPlan.h), else with `cp.async`.
    Operands of mma.sync dots (sm_80 on) loaded and converted to
    dot-operand layouts are staged the same way (`local_alloc` into a
    swizzled tile, `local_load` into the dot-operand layout, which lowers
    to `ldmatrix`) and read synchronously; the register prefetch above is
    what remains when a loop cannot be pipelined that way.
  }];
  let options = [
    Option<"tma", "tma", "bool", "true",
           "Use bulk tensor copies (TMA) for loads that are boxes of a tensor "
           "(sm_90a; tilec sets it from the target)">
  ];
}

#endif // TILEC_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
