//===- tile-opt.cpp - The tilec optimizer driver --------------------------===//
//
// mlir-opt for tilec: parses MLIR containing the tile dialect (and the
// upstream dialects it uses), runs the passes named on the command line and
// prints the result. Lit tests use it to exercise one pass at a time.
// `tile-opt --version` prints the same line as `tilec --version`:
// `tilec VERSION (LLVM VERSION)`. It also registers the test-only passes
// of test/lib.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"
#include "tilec/Driver/Pipeline.h"

#include "TestPasses.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  // Replaces LLVM's version text (MlirOptMain parses the command line with
  // the printer set here).
  llvm::cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { os << ::tilec::getVersionString() << "\n"; });
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerInlinerPass();
  mlir::registerSymbolDCEPass();
  mlir::tile::registerTilePasses();
  mlir::tilegpu::registerTileGPUPasses();
  mlir::tilegpu::registerTilecConversionPasses();
  ::tilec::registerTilecPipelines();
  ::tilec::test::registerTilecTestPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect, mlir::tilegpu::TileGPUDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}
