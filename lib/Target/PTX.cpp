//===- PTX.cpp - LLVM-dialect MLIR to PTX text ----------------------------===//
//
// The target stage: MLIR (LLVM dialect + NVVM) → LLVM IR → PTX through
// LLVM's NVPTX backend. The steps, in order: translate with the builtin,
// LLVM and NVVM translation interfaces (`nvvm.kernel` becomes the
// `ptx_kernel` calling convention, `nvvm.maxntid`/`nvvm.reqntid` become
// function attributes NVPTX prints as `.maxntid`/`.reqntid`); set the
// nvptx64-nvidia-cuda triple and the TargetMachine's data layout; link
// libdevice when `__nv_*` functions are called; internalize non-kernels;
// make zero-length shared arrays extern (dynamic shared memory); verify; run
// the new-pass-manager pipeline of the optimization level with the NVPTX
// TargetMachine (which adds NVVMReflect and NVPTX's IR passes); print PTX with
// the legacy code generator. Every failure becomes an MLIR diagnostic on the
// module, including errors the LLVM backend reports through its LLVMContext
// (which would otherwise exit the process).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX.h"

#include "Libdevice.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;

namespace tilec {

void registerTilecTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

/// Initializes the NVPTX target, and only it, once per process.
static void initializeNVPTXTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

namespace {
/// A GPU tilec emits PTX for and the oldest PTX ISA version (times ten)
/// that can target it.
struct ArchInfo {
  llvm::StringLiteral name;
  int minPTXVersion;
};
} // namespace

/// The GPUs tilec emits PTX for; all are served by PTX ISA 8.4.
static constexpr ArchInfo kSupportedArchs[] = {{"sm_80", 70}, {"sm_86", 71},
                                               {"sm_87", 74}, {"sm_89", 78},
                                               {"sm_90", 78}, {"sm_90a", 80}};

/// The PTX ISA versions (times ten) the NVPTX backend of LLVM 22 knows,
/// from 7.0 on.
static constexpr int kKnownPTXVersions[] = {
    70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90};

/// Makes sure `context` can translate the LLVM and NVVM dialects: registers
/// the translation interfaces when the LLVM dialect lacks them and loads the
/// NVVM dialect. Without that, a module built in C++ whose functions carry
/// `nvvm.kernel` but that holds no NVVM op loses the attribute silently
/// (its translation interface is looked up among the loaded dialects) and
/// the kernel becomes a `.func`. (The parser loads the dialect itself.)
static void prepareContext(MLIRContext &context) {
  auto *llvmDialect = context.getOrLoadDialect<LLVM::LLVMDialect>();
  if (!llvmDialect->getRegisteredInterface<LLVMTranslationDialectInterface>()) {
    DialectRegistry registry;
    registerTilecTranslations(registry);
    context.appendDialectRegistry(registry);
  }
  context.getOrLoadDialect<NVVM::NVVMDialect>();
}

namespace {
/// Collects the errors LLVM reports through its LLVMContext (the default
/// handler would print them and exit); warnings and remarks are dropped.
struct CollectingDiagnosticHandler : public llvm::DiagnosticHandler {
  std::string errors;
  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (info.getSeverity() != llvm::DS_Error)
      return true;
    llvm::raw_string_ostream os(errors);
    if (!errors.empty())
      os << "\n";
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    return true;
  }
};
} // namespace

/// Creates the NVPTX TargetMachine of `opts`, or emits an error on `module`.
static std::unique_ptr<llvm::TargetMachine>
createNVPTXTargetMachine(ModuleOp module, const PTXOptions &opts) {
  initializeNVPTXTarget();
  const ArchInfo *arch =
      llvm::find_if(kSupportedArchs, [&](const ArchInfo &info) {
        return info.name == opts.arch;
      });
  if (arch == std::end(kSupportedArchs)) {
    InFlightDiagnostic diag = emitError(module.getLoc())
                              << "unsupported GPU architecture '" << opts.arch
                              << "'; expected one of";
    for (const ArchInfo &info : kSupportedArchs)
      diag << " " << info.name;
    return nullptr;
  }
  if (opts.optLevel < 0 || opts.optLevel > 3) {
    emitError(module.getLoc())
        << "optimization level must be 0 to 3, got " << opts.optLevel;
    return nullptr;
  }
  int ptxVersion = opts.ptxVersion ? opts.ptxVersion : kDefaultPTXVersion;
  if (!llvm::is_contained(kKnownPTXVersions, ptxVersion)) {
    emitError(module.getLoc()) << "unknown PTX version " << ptxVersion
                               << "; expected 70 to 90 (7.0 to 9.0)";
    return nullptr;
  }
  if (ptxVersion < arch->minPTXVersion) {
    emitError(module.getLoc())
        << "PTX version " << ptxVersion / 10 << "." << ptxVersion % 10
        << " cannot target " << opts.arch << " (it needs "
        << arch->minPTXVersion / 10 << "." << arch->minPTXVersion % 10
        << " or newer)";
    return nullptr;
  }

  llvm::Triple triple(kNVPTXTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    emitError(module.getLoc()) << "NVPTX target unavailable: " << error;
    return nullptr;
  }
  static constexpr llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  std::string features = "+ptx" + std::to_string(ptxVersion);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, opts.arch, features, llvm::TargetOptions(), std::nullopt,
      std::nullopt, levels[opts.optLevel]));
  if (!machine)
    emitError(module.getLoc())
        << "cannot create the NVPTX target machine for " << opts.arch;
  return machine;
}

/// Runs the new-pass-manager pipeline of `optLevel` on `llvmModule`.
static void optimize(llvm::Module &llvmModule, llvm::TargetMachine &machine,
                     int optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);

  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::ModulePassManager passes =
      optLevel == 0
          ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
          : builder.buildPerModuleDefaultPipeline(levels[optLevel]);
  passes.run(llvmModule, mam);
}

/// Verifies `llvmModule`; on failure emits `what` and the verifier's
/// messages on `module`.
static LogicalResult verify(ModuleOp module, const llvm::Module &llvmModule,
                            llvm::StringRef what) {
  std::string messages;
  llvm::raw_string_ostream os(messages);
  if (!llvm::verifyModule(llvmModule, &os))
    return success();
  emitError(module.getLoc()) << what << ":\n" << messages;
  return failure();
}

/// Makes every zero-length array in shared memory (address space 3) an
/// extern declaration aligned to at least 16 bytes, which NVPTX prints as
/// `.extern .shared .align 16 .b8 NAME[]`, the dynamic shared memory sized
/// at launch. An `internal` one (as `llvm.mlir.global internal` gives) would
/// otherwise be demoted to a one-byte `.shared` variable of the function
/// that uses it, and every access past it would be out of bounds.
static void makeDynamicSharedMemoryExtern(llvm::Module &llvmModule) {
  constexpr unsigned kSharedAddressSpace = 3;
  for (llvm::GlobalVariable &global : llvmModule.globals()) {
    auto *type = llvm::dyn_cast<llvm::ArrayType>(global.getValueType());
    if (global.getAddressSpace() != kSharedAddressSpace || !type ||
        type->getNumElements() != 0)
      continue;
    if (global.hasInitializer())
      global.setInitializer(nullptr);
    global.setLinkage(llvm::GlobalValue::ExternalLinkage);
    global.setAlignment(
        std::max(global.getAlign().valueOrOne(), llvm::Align(16)));
  }
}

/// Describes the GPUs `version` names: "sm_90a" or "sm_80 or newer".
static std::string describeSM(const NVVM::NVVMCheckSMVersion &version) {
  std::string text;
  for (int sm : version.smVersionList) {
    if (!text.empty())
      text += " or ";
    text += "sm_" + std::to_string(sm) + (version.archAccelerated ? "a" : "");
  }
  return version.archAccelerated ? text : text + " or newer";
}

/// Checks that every NVVM op of `module` exists on `arch`; the NVPTX code
/// generator would abort the process on one that does not ("Cannot
/// select"). Emits an error on each op that does not.
static LogicalResult checkRequiredSM(ModuleOp module, llvm::StringRef arch) {
  NVVM::NVVMCheckSMVersion target =
      NVVM::NVVMCheckSMVersion::getTargetSMVersionFromStr(arch);
  WalkResult result = module.walk([&](NVVM::RequiresSMInterface op) {
    NVVM::NVVMCheckSMVersion required = op.getRequiredMinSMVersion();
    if (required.isCompatibleWith(target))
      return WalkResult::advance();
    emitError(op->getLoc())
        << "'" << op->getName() << "' requires " << describeSM(required)
        << ", but the target is " << arch;
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The CUDA limits on a thread block: x, y, z and the product.
static constexpr int64_t kMaxBlockDims[] = {1024, 1024, 64};
static constexpr int64_t kMaxThreadsPerBlock = 1024;

/// Checks the block size attribute `name` (`nvvm.maxntid` or
/// `nvvm.reqntid`) of `kernel` against the CUDA limits.
static LogicalResult checkBlockSize(LLVM::LLVMFuncOp kernel,
                                    llvm::StringRef name) {
  auto dims = kernel->getAttrOfType<DenseI32ArrayAttr>(name);
  if (!dims)
    return success();
  if (dims.size() < 1 || dims.size() > 3)
    return emitError(kernel.getLoc())
           << "kernel '" << kernel.getSymName() << "': " << name
           << " must have 1 to 3 dimensions, got " << dims.size();
  int64_t threads = 1;
  for (auto [index, dim] : llvm::enumerate(dims.asArrayRef())) {
    if (dim < 1 || dim > kMaxBlockDims[index])
      return emitError(kernel.getLoc())
             << "kernel '" << kernel.getSymName() << "': " << name
             << " dimension " << index << " is " << dim << "; CUDA allows 1 to "
             << kMaxBlockDims[index];
    threads *= dim;
  }
  if (threads > kMaxThreadsPerBlock)
    return emitError(kernel.getLoc())
           << "kernel '" << kernel.getSymName() << "': " << name << " asks for "
           << threads << " threads per block; CUDA allows at most "
           << kMaxThreadsPerBlock;
  return success();
}

/// Checks what the NVPTX backend would accept silently but print as PTX
/// that ptxas rejects or ignores: kernels must have a body and return void,
/// and their block sizes must fit CUDA's limits.
static LogicalResult checkKernels(ModuleOp module) {
  llvm::StringRef kernelAttr = NVVM::NVVMDialect::getKernelFuncAttrName();
  bool ok = true;
  module.walk([&](LLVM::LLVMFuncOp function) {
    if (!function->hasAttr(kernelAttr))
      return;
    if (function.isExternal()) {
      emitError(function.getLoc())
          << "kernel '" << function.getSymName() << "' has no body";
      ok = false;
      return;
    }
    if (!isa<LLVM::LLVMVoidType>(function.getFunctionType().getReturnType())) {
      emitError(function.getLoc())
          << "kernel '" << function.getSymName() << "' must return void, not "
          << function.getFunctionType().getReturnType();
      ok = false;
    }
    if (failed(checkBlockSize(function, "nvvm.maxntid")) ||
        failed(checkBlockSize(function, "nvvm.reqntid")))
      ok = false;
  });
  return success(ok);
}

/// The body of translateToNVPTXModule with the TargetMachine given.
static FailureOr<std::unique_ptr<llvm::Module>>
translateWithMachine(ModuleOp module, const PTXOptions &opts,
                     llvm::TargetMachine &machine,
                     llvm::LLVMContext &llvmContext) {
  prepareContext(*module.getContext());
  if (failed(checkKernels(module)) ||
      failed(checkRequiredSM(module, opts.arch)))
    return failure();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return failure(); // translateModuleToLLVMIR emitted the diagnostics.

  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());

  llvm::StringRef firstCall = detail::findLibdeviceCall(*llvmModule);
  if (llvm::Error error =
          detail::linkLibdeviceIfNeeded(*llvmModule, opts.libdevicePath)) {
    // Point at the declaration of the function that is still missing.
    llvm::StringRef missing = detail::findLibdeviceCall(*llvmModule);
    Operation *declaration =
        module.lookupSymbol(missing.empty() ? firstCall : missing);
    emitError(declaration ? declaration->getLoc() : module.getLoc())
        << llvm::toString(std::move(error));
    return failure();
  }
  detail::internalizeNonKernels(*llvmModule);
  makeDynamicSharedMemoryExtern(*llvmModule);
  detail::setReflectParameters(*llvmModule);
  if (failed(verify(module, *llvmModule, "invalid LLVM IR")))
    return failure();

  optimize(*llvmModule, machine, opts.optLevel);
  if (failed(verify(module, *llvmModule, "invalid LLVM IR after optimization")))
    return failure();
  return llvmModule;
}

namespace {
/// Installs a collecting diagnostic handler on `context` for its lifetime.
class ScopedLLVMDiagnostics {
public:
  explicit ScopedLLVMDiagnostics(llvm::LLVMContext &context)
      : context(context) {
    auto handler = std::make_unique<CollectingDiagnosticHandler>();
    collector = handler.get();
    previous = context.getDiagnosticHandler();
    context.setDiagnosticHandler(std::move(handler));
  }
  ~ScopedLLVMDiagnostics() {
    context.setDiagnosticHandler(std::move(previous));
  }

  /// Emits the collected errors on `module`; fails if there were any.
  LogicalResult report(ModuleOp module) const {
    if (collector->errors.empty())
      return success();
    emitError(module.getLoc()) << "LLVM: " << collector->errors;
    return failure();
  }

private:
  llvm::LLVMContext &context;
  CollectingDiagnosticHandler *collector;
  std::unique_ptr<llvm::DiagnosticHandler> previous;
};
} // namespace

FailureOr<std::unique_ptr<llvm::Module>>
translateToNVPTXModule(ModuleOp module, const PTXOptions &opts,
                       llvm::LLVMContext &llvmContext) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createNVPTXTargetMachine(module, opts);
  if (!machine)
    return failure();
  ScopedLLVMDiagnostics diagnostics(llvmContext);
  FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
      translateWithMachine(module, opts, *machine, llvmContext);
  if (failed(diagnostics.report(module)))
    return failure();
  return llvmModule;
}

FailureOr<std::string> translateToPTX(ModuleOp module, const PTXOptions &opts,
                                      std::string *llvmIROut) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createNVPTXTargetMachine(module, opts);
  if (!machine)
    return failure();
  llvm::LLVMContext llvmContext;
  ScopedLLVMDiagnostics diagnostics(llvmContext);
  FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
      translateWithMachine(module, opts, *machine, llvmContext);
  if (failed(diagnostics.report(module)) || failed(llvmModule))
    return failure();

  if (opts.dumpLLVMIR)
    (*llvmModule)->print(llvm::errs(), nullptr);
  if (llvmIROut) {
    llvmIROut->clear();
    llvm::raw_string_ostream os(*llvmIROut);
    (*llvmModule)->print(os, nullptr);
  }

  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager codegen;
  codegen.add(new llvm::TargetLibraryInfoWrapperPass(
      llvm::TargetLibraryInfoImpl(machine->getTargetTriple())));
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile)) {
    emitError(module.getLoc()) << "the NVPTX target cannot emit PTX";
    return failure();
  }
  codegen.run(**llvmModule);
  if (failed(diagnostics.report(module)))
    return failure();
  return std::string(ptx.str());
}

} // namespace tilec
