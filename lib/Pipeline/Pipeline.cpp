//===- Pipeline.cpp - The tilec pass pipeline -----------------------------===//
//
// The passes from tile IR to LLVM + NVVM, in the order of ARCHITECTURE.md:
// tile-level cleanups, layout assignment, layout cleanups, shared-memory
// allocation, lowering to LLVM.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipeline/Pipeline.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Pass/PassRegistry.h"
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

void buildTileGPUPipeline(OpPassManager &pm, unsigned numWarps,
                          llvm::StringRef arch) {
  ::mlir::tilegpu::ConvertTileToTileGPUOptions options;
  options.numWarps = numWarps;
  pm.addPass(::mlir::tilegpu::createConvertTileToTileGPU(options));
  pm.addPass(tilegpu::createTileGPUCoalesce());
  ::mlir::tilegpu::TileGPUAccelerateMatmulOptions matmulOptions;
  unsigned capability = 90;
  llvm::StringRef digits = arch;
  if (digits.consume_front("sm_"))
    digits.take_while(llvm::isDigit).getAsInteger(10, capability);
  matmulOptions.computeCapability = capability;
  // wgmma and the tensor-map instructions TMA needs are sm_90a's.
  bool hopperFeatures = capability == 90 && arch.ends_with("a");
  matmulOptions.wgmma = hopperFeatures;
  pm.addPass(tilegpu::createTileGPUAccelerateMatmul(matmulOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tilegpu::createTileGPURemoveLayoutConversions());
  pm.addPass(createCanonicalizerPass());
  ::mlir::tilegpu::TileGPUPipelineOptions pipelineOptions;
  pipelineOptions.tma = hopperFeatures;
  pm.addPass(tilegpu::createTileGPUPipeline(pipelineOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCSEPass());
  pm.addPass(tilegpu::createTileGPUAllocateSharedMemory());
}

void buildLLVMPipeline(OpPassManager &pm) {
  pm.addPass(::mlir::tilegpu::createConvertTileGPUToLLVM());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
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
