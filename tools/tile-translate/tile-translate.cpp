//===- tile-translate.cpp - The tilec translation driver ------------------===//
//
// mlir-translate for tilec's target stage: reads a module in the LLVM
// dialect (with NVVM ops) and prints PTX (`--mlir-to-ptx`) or the LLVM IR
// handed to the NVPTX code generator (`--mlir-to-llvmir`: retargeted,
// libdevice linked, optimized). `--arch=`, `-O`, `--ptx-version=` and
// `--libdevice=` select the PTXOptions. Lit tests in test/Target use it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::OptionCategory targetCategory("tilec target options");

static llvm::cl::opt<std::string>
    arch("arch",
         llvm::cl::desc("GPU architecture: sm_80, sm_86, sm_87, "
                        "sm_89, sm_90, sm_90a"),
         llvm::cl::init("sm_90"), llvm::cl::cat(targetCategory));

static llvm::cl::opt<unsigned>
    optLevel("O", llvm::cl::desc("LLVM optimization level, -O0 to -O3"),
             llvm::cl::Prefix, llvm::cl::init(3),
             llvm::cl::cat(targetCategory));

static llvm::cl::opt<unsigned> ptxVersion(
    "ptx-version",
    llvm::cl::desc("PTX ISA version times ten (84 = 8.4); 0: the default"),
    llvm::cl::init(0), llvm::cl::cat(targetCategory));

static llvm::cl::opt<bool> fpFusion(
    "fp-fusion",
    llvm::cl::desc("Fuse f32/f64 multiplies and adds into fma (default on)"),
    llvm::cl::init(true), llvm::cl::cat(targetCategory));

static llvm::cl::opt<std::string>
    libdevice("libdevice",
              llvm::cl::desc("libdevice.10.bc (or its folder); default: search "
                             "$TILEC_LIBDEVICE, $CUDA_HOME, /usr/local/cuda"),
              llvm::cl::init(""), llvm::cl::cat(targetCategory));

/// The PTXOptions the command line selects.
static tilec::PTXOptions getOptions() {
  tilec::PTXOptions opts;
  opts.arch = arch;
  opts.optLevel = static_cast<int>(optLevel);
  opts.ptxVersion = static_cast<int>(ptxVersion);
  opts.libdevicePath = libdevice;
  opts.fpFusion = fpFusion;
  return opts;
}

/// Registers the dialects the translations read and their LLVM IR
/// translation interfaces.
static void registerDialects(DialectRegistry &registry) {
  registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect>();
  tilec::registerTilecTranslations(registry);
}

/// Returns `op` as a module, or emits an error.
static FailureOr<ModuleOp> getModule(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a builtin.module");
  return module;
}

int main(int argc, char **argv) {
  TranslateFromMLIRRegistration toPTX(
      "mlir-to-ptx", "translate LLVM-dialect MLIR to PTX",
      [](Operation *op, llvm::raw_ostream &output) -> LogicalResult {
        FailureOr<ModuleOp> module = getModule(op);
        if (failed(module))
          return failure();
        FailureOr<std::string> ptx =
            tilec::translateToPTX(*module, getOptions());
        if (failed(ptx))
          return failure();
        output << *ptx;
        return success();
      },
      registerDialects);

  TranslateFromMLIRRegistration toLLVMIR(
      "mlir-to-llvmir",
      "translate LLVM-dialect MLIR to the NVPTX LLVM IR (libdevice linked, "
      "optimized) that PTX is made from",
      [](Operation *op, llvm::raw_ostream &output) -> LogicalResult {
        FailureOr<ModuleOp> module = getModule(op);
        if (failed(module))
          return failure();
        llvm::LLVMContext llvmContext;
        FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
            tilec::translateToNVPTXModule(*module, getOptions(), llvmContext);
        if (failed(llvmModule))
          return failure();
        (*llvmModule)->print(output, nullptr);
        return success();
      },
      registerDialects);

  return failed(mlirTranslateMain(argc, argv, "tilec translation driver\n"));
}
