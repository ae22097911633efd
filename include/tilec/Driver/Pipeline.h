//===- Pipeline.h - The pass pipelines of tilec -----------------*- C++ -*-===//
//
// The passes of each stage of a compile, in one place: tile-level cleanups,
// layout assignment through shared-memory allocation for a Target (or, for
// tilegpu IR with its layouts written, the part after layout assignment),
// and the lowering to LLVM + NVVM. KernelCompiler (the whole compile of a
// kernel) and tile-opt's registered pipelines (`--tilec-tile`,
// `--tilec-tilegpu`,
// `--tilec-llvm`) build their pass managers from these functions only.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DRIVER_PIPELINE_H
#define TILEC_DRIVER_PIPELINE_H

#include "tilec/Support/Target.h"

#include <string>

namespace mlir {
class DialectRegistry;
class OpPassManager;
} // namespace mlir

namespace tilec {

/// The version of tilec, e.g. "0.1.0".
const char *getVersion();
/// "tilec 0.1.0 (LLVM 22.1.8)": recorded in metadata and cache keys.
std::string getVersionString();

/// Registers every dialect tilec IR may contain.
void registerTilecDialects(mlir::DialectRegistry &registry);

/// Passes on tile IR: inline, canonicalize, tile-combine, divide-by-scalar,
/// promote-offsets, CSE.
void buildTilePipeline(mlir::OpPassManager &pm);
/// Layout assignment through shared-memory allocation (tilegpu IR) for
/// `target` (mma.sync from sm_80, wgmma and TMA on sm_90a). `numWarps` 0
/// keeps the module's own `tilegpu.num-warps` (4 when it has none).
void buildTileGPUPipeline(mlir::OpPassManager &pm, unsigned numWarps,
                          Target target = Target::getDefault());
/// For tilegpu IR whose layouts are given (a `.mlir` input of tilec): the
/// passes of buildTileGPUPipeline after layout assignment that keep every
/// layout as written: software pipelining, CSE, shared-memory allocation.
/// Coalescing, tensor-core selection, layout propagation and canonicalize
/// (which recomputes cheap producers of a conversion) do not run.
void buildLaidOutTileGPUPipeline(mlir::OpPassManager &pm,
                                 Target target = Target::getDefault());
/// How far buildLLVMPipeline cleans up after the lowering.
enum class LLVMCleanup {
  /// Canonicalize and CSE: the IR `--emit=llvm` prints.
  Full,
  /// For LLVM's own optimizations to follow (the PTX stage at -O3):
  /// canonicalize without region simplification and without CSE, which
  /// LLVM's SimplifyCFG, EarlyCSE and GVN redo.
  BeforeLLVMOptimization,
};
/// tilegpu IR to LLVM + NVVM for `target` (ldmatrix from sm_80, stmatrix
/// on sm_90 in layout exchanges).
void buildLLVMPipeline(mlir::OpPassManager &pm,
                       LLVMCleanup cleanup = LLVMCleanup::Full,
                       Target target = Target::getDefault());
/// Registers `tilec-tile`, `tilec-tilegpu` and `tilec-llvm` pipelines
/// (for tile-opt).
void registerTilecPipelines();

} // namespace tilec

#endif // TILEC_DRIVER_PIPELINE_H
