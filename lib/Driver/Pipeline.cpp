//===- Pipeline.cpp - The pass pipelines of tilec -------------------------===//
//
// The passes from tile IR to LLVM + NVVM, in the order of
// docs/architecture.md: tile-level cleanups, layout assignment, layout
// cleanups, software pipelining, shared-memory allocation, lowering to LLVM;
// and the part after layout assignment that keeps the layouts of tilegpu IR
// as written (a .mlir input of tilec).
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Pipeline.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace tilec {
using namespace mlir;

const char *getVersion() { return TILEC_VERSION; }

std::string getVersionString() {
  return std::string("tilec ") + TILEC_VERSION + " (LLVM " +
         TILEC_LLVM_VERSION + ")";
}

void registerTilecDialects(DialectRegistry &registry) {
  registry
      .insert<tile::TileDialect, tilegpu::TileGPUDialect, arith::ArithDialect,
              math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
              func::FuncDialect, LLVM::LLVMDialect, NVVM::NVVMDialect>();
}

void buildTilePipeline(OpPassManager &pm) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tile::createTileCombine());
  pm.addPass(tile::createTileDivideByScalar());
  pm.addPass(tile::createTilePromoteOffsets());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
}

namespace {
/// Software pipelining for `target` (TMA on sm_90a).
void addPipeliningPass(OpPassManager &pm, Target target) {
  ::mlir::tilegpu::TileGPUPipelineOptions pipelineOptions;
  pipelineOptions.tma = target.hasTMA();
  pm.addPass(tilegpu::createTileGPUPipeline(pipelineOptions));
}
} // namespace

void buildTileGPUPipeline(OpPassManager &pm, unsigned numWarps, Target target) {
  ::mlir::tilegpu::ConvertTileToTileGPUOptions options;
  options.numWarps = numWarps;
  pm.addPass(::mlir::tilegpu::createConvertTileToTileGPU(options));
  pm.addPass(tilegpu::createTileGPUCoalesce());
  ::mlir::tilegpu::TileGPUAccelerateMatmulOptions matmulOptions;
  matmulOptions.computeCapability = target.getCapability();
  matmulOptions.wgmma = target.hasWgmma();
  pm.addPass(tilegpu::createTileGPUAccelerateMatmul(matmulOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions());
  pm.addPass(createCanonicalizerPass());
  addPipeliningPass(pm, target);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(tilegpu::createTileGPUAllocateSharedMemory());
}

void buildLaidOutTileGPUPipeline(OpPassManager &pm, Target target) {
  // No canonicalize either: its patterns recompute cheap producers of a
  // conversion in the target layout (the conversion would go).
  addPipeliningPass(pm, target);
  pm.addPass(createCSEPass());
  pm.addPass(tilegpu::createTileGPUAllocateSharedMemory());
}

void buildLLVMPipeline(OpPassManager &pm, LLVMCleanup cleanup, Target target) {
  ::mlir::tilegpu::ConvertTileGPUToLLVMOptions options;
  options.computeCapability = target.getCapability();
  pm.addPass(::mlir::tilegpu::createConvertTileGPUToLLVM(options));
  if (cleanup == LLVMCleanup::Full) {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    return;
  }
  // Before LLVM's -O3 pipeline, the cleanup is cut to what LLVM does not
  // redo: canonicalize without its region simplification (block merging
  // and dead block arguments, which SimplifyCFG does) and without CSE
  // (EarlyCSE and GVN): conv2d's MLIR passes are ~8 ms shorter, and the
  // examples and benchmark kernels get the same registers and SASS size
  // (canonicalize itself is needed: without it three conv2d variants used
  // up to 32 more registers).
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  pm.addPass(createCanonicalizerPass(config));
}

void registerTilecPipelines() {
  PassPipelineRegistration<>("tilec-tile", "tile-level cleanups",
                             [](OpPassManager &pm) { buildTilePipeline(pm); });
  PassPipelineRegistration<>("tilec-tilegpu",
                             "tile IR to laid-out tilegpu IR (4 warps)",
                             [](OpPassManager &pm) {
                               buildTilePipeline(pm);
                               buildTileGPUPipeline(pm, 0);
                             });
  PassPipelineRegistration<>("tilec-llvm", "tile IR to LLVM + NVVM",
                             [](OpPassManager &pm) {
                               buildTilePipeline(pm);
                               buildTileGPUPipeline(pm, 0);
                               buildLLVMPipeline(pm);
                             });
}
} // namespace tilec
