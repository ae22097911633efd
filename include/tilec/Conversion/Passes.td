//===- Passes.td - Conversions between tilec dialects ------*- tablegen -*-===//
//
// tile -> tilegpu (layout assignment) and tilegpu -> LLVM + NVVM.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_PASSES_TD
#define TILEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "::mlir::ModuleOp"> {
  let summary = "Assign a layout to every block (the tiling pass)";
  let description = [{
    Gives every block a blocked layout for `num-warps` warps (the default
    layout of its shape), reductions the slice layout of their source,
    reshapes the layout that keeps each element of their source in its
    thread (when a blocked layout does), and
    inserts `tilegpu.convert_layout` where an op needs its operand in a
    layout other than the one it was produced in (the source of
    `expand_dims` must be the slice of its result's layout; the source of
    `broadcast` must have its result's layout). The module records
    `tilegpu.num_warps`.

    Before:
    ```mlir
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    ```
    After:
    ```mlir
    #blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    ```
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"0",
           "Warps per program (thread block); 0 takes the kernel's "
           "tile.num_warps attribute, else 4">
  ];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def ConvertTileGPUToLLVM : Pass<"convert-tilegpu-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower laid-out tile programs to per-thread LLVM + NVVM";
  let description = [{
    Each block becomes an LLVM struct of the registers the thread holds;
    elementwise ops apply to each register; loads and stores become
    predicated global accesses; reductions combine registers, then lanes
    with `shfl.sync.bfly`, then warps through shared memory; layout
    conversions, `trans` and `reshape` go through shared memory (16-bit
    elements with `ldmatrix` from compute capability 75 and `stmatrix`
    from 90 where the layouts fit them); `dot` is computed with FMAs.
    Kernels become `llvm.func` with `nvvm.kernel` and
    `nvvm.reqntid`. Math functions call libdevice (`__nv_expf`, ...).
    Control flow must already be in `cf` form (run `convert-scf-to-cf`).

    Before:
    ```mlir
    %pid = tile.program_id 0 : i32
    ```
    After:
    ```mlir
    %pid = nvvm.read.ptx.sreg.ctaid.x : i32
    ```
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "unsigned", "0",
           "Target compute capability (75, 80, 89, 90): layout exchanges use "
           "ldmatrix from 75, stmatrix from 90; fp8 converts with PTX's cvt "
           "from 89, with integer operations below; 0 (the default): "
           "neither ldmatrix nor stmatrix, fp8 with cvt">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

#endif // TILEC_CONVERSION_PASSES_TD
