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
// the optimization pipeline (LLVM's -O0 one, or tilec's lean one at -O1 to
// -O3, with NVPTX's NVVMReflect and NVVMIntrRange); print PTX with the legacy
// code generator, behind a pass gate that skips the passes that cost more
// compile time than they gain (buildOptimizationPipeline and CodeGenPassGate
// say which and why). Every failure becomes an MLIR diagnostic on the
// module, including errors the LLVM backend reports through its LLVMContext
// (which would otherwise exit the process).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX.h"

#include "IndexArithmetic.h"
#include "Libdevice.h"
#include "PtxasWorkarounds.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/Inliner.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/InferAlignment.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Scalar/Reassociate.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

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
  std::optional<Target> arch = Target::parse(opts.arch);
  if (!arch) {
    std::string expected = Target::getSupportedNames();
    llvm::erase(expected, ',');
    emitError(module.getLoc()) << "unsupported GPU architecture '" << opts.arch
                               << "'; expected one of " << expected;
    return nullptr;
  }
  if (opts.optLevel < 0 || opts.optLevel > 3) {
    emitError(module.getLoc())
        << "optimization level must be 0 to 3, got " << opts.optLevel;
    return nullptr;
  }
  int ptxVersion =
      opts.ptxVersion ? opts.ptxVersion : Target::kDefaultPTXVersion;
  if (!llvm::is_contained(kKnownPTXVersions, ptxVersion)) {
    emitError(module.getLoc()) << "unknown PTX version " << ptxVersion
                               << "; expected 70 to 90 (7.0 to 9.0)";
    return nullptr;
  }
  if (ptxVersion < arch->getMinPTXVersion()) {
    int minVersion = arch->getMinPTXVersion();
    emitError(module.getLoc())
        << "PTX version " << ptxVersion / 10 << "." << ptxVersion % 10
        << " cannot target " << opts.arch << " (it needs " << minVersion / 10
        << "." << minVersion % 10 << " or newer)";
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
  // -O3 generates code at NVPTX's default level: its aggressive level only
  // runs GVN where the default runs EarlyCSE (twice, before instruction
  // selection), which changed no example or benchmark kernel's PTX and cost
  // conv2d 4 ms.
  static constexpr llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Default};
  std::string features = "+ptx" + std::to_string(ptxVersion);
  llvm::TargetOptions targetOptions;
  // Fast: NVPTX forms fma from fmul+fadd and leaves mul/add without `.rn`,
  // so ptxas may contract them too. Standard: only explicit fma intrinsics
  // fuse, and NVPTX writes `.rn` to keep ptxas from fusing.
  targetOptions.AllowFPOpFusion =
      opts.fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, opts.arch, features, targetOptions, std::nullopt, std::nullopt,
      levels[opts.optLevel]));
  if (!machine)
    emitError(module.getLoc())
        << "cannot create the NVPTX target machine for " << opts.arch;
  return machine;
}

/// Builds tilec's optimization pipeline for -O1 to -O3 (the CLI offers -O3).
/// The module is one kernel lowered from MLIR, its libdevice callees
/// (`alwaysinline`, internal) and no other calls. LLVM's -O3 pipeline spends
/// most of its time on what such a module does not need (the CGSCC inliner
/// and IPO, loop vectorization, unswitching and unrolling, nine InstCombine
/// runs); this one keeps what changes the PTX of tilec's kernels:
/// SimplifyCFG first (it folds libdevice's two-way branches into selects
/// before InstCombine grows the blocks), SROA, EarlyCSE, InstCombine,
/// Reassociate (lets InstCombine see that a vector's lanes are in bounds
/// when its last lane is), LICM around loop rotation (bottom-tested loops:
/// without, layernorm and the f32 matmul ran 7 and 10 % slower), the
/// distribution of constant offsets (IndexArithmetic.h), GVN, the chains of
/// strided products (IndexArithmetic.h, after the last InstCombine), and
/// alignment inference (the code generator vectorizes shared-memory loads
/// only when it knows they are aligned). The code generator then runs at
/// NVPTX's default level. The SLP vectorizer, off in LLVM's -O3 as tilec ran
/// it, stays off: it made three f16 matmuls 3-9 % slower (and costs gelu 10
/// ms).
static llvm::ModulePassManager
buildOptimizationPipeline(llvm::PassBuilder &builder,
                          llvm::OptimizationLevel level, bool hasHelpers) {
  llvm::ModulePassManager passes;
  // NVPTX's own passes: NVVMReflect (for libdevice) and NVVMIntrRange.
  builder.invokePipelineStartEPCallbacks(passes, level);
  // libdevice's functions are `alwaysinline`; other non-kernel functions
  // (none in what tilec's own pipeline emits, which inlines helpers in
  // MLIR) go through the inliner's cost model, as at LLVM's -O3.
  if (hasHelpers)
    passes.addPass(llvm::ModuleInlinerWrapperPass(
        llvm::getInlineParams(level.getSpeedupLevel(), level.getSizeLevel())));
  else
    passes.addPass(llvm::AlwaysInlinerPass(/*InsertLifetimeIntrinsics=*/false));
  passes.addPass(llvm::GlobalDCEPass());

  llvm::FunctionPassManager function;
  function.addPass(llvm::SimplifyCFGPass());
  function.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  function.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
  function.addPass(llvm::InstCombinePass());
  function.addPass(llvm::ReassociatePass());
  function.addPass(llvm::SimplifyCFGPass());
  {
    llvm::LoopPassManager loop;
    loop.addPass(llvm::LICMPass(llvm::LICMOptions(
        llvm::SetLicmMssaOptCap, llvm::SetLicmMssaNoAccForPromotionCap,
        /*AllowSpeculation=*/false)));
    loop.addPass(llvm::LoopRotatePass());
    loop.addPass(llvm::LICMPass(llvm::LICMOptions()));
    function.addPass(llvm::createFunctionToLoopPassAdaptor(
        std::move(loop), /*UseMemorySSA=*/true));
  }
  function.addPass(detail::DistributeConstantOffsetsPass());
  function.addPass(llvm::GVNPass());
  function.addPass(llvm::InstCombinePass());
  function.addPass(llvm::SimplifyCFGPass());
  function.addPass(detail::ChainStridedProductsPass());
  function.addPass(llvm::InferAlignmentPass());
  function.addPass(detail::WidenProductsOfWordsPass());

  passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(function)));
  return passes;
}

/// Whether `llvmModule` defines a function that is neither a kernel nor
/// `alwaysinline`, which only the inliner's cost model would inline.
static bool hasHelperFunctions(const llvm::Module &llvmModule) {
  return llvm::any_of(llvmModule, [](const llvm::Function &function) {
    return !function.isDeclaration() &&
           function.getCallingConv() != llvm::CallingConv::PTX_Kernel &&
           !function.hasFnAttribute(llvm::Attribute::AlwaysInline);
  });
}

/// Runs the optimization pipeline of `optLevel` on `llvmModule`: LLVM's
/// -O0 pipeline at 0, tilec's (buildOptimizationPipeline) otherwise.
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
  llvm::ModulePassManager passes;
  if (optLevel == 0)
    passes = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
  else
    passes = buildOptimizationPipeline(builder, levels[optLevel],
                                       hasHelperFunctions(llvmModule));
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

namespace {
/// The pass gate of tilec's code generation: skips two of the IR passes that
/// NVPTX's code generator runs before instruction selection, then asks the
/// gate it replaces (LLVM's -opt-bisect-limit, say).
///
/// StraightLineStrengthReduce ("slsr"): on LLVM 22 it checks, for every
/// (basis, candidate) pair, that reusing the basis adds no poison, and each
/// check walks the basis's operands and scans ahead of each of them
/// (llvm-project PR 196545 hoists the check out of the pair loop, after 22).
/// That is 23,700 checks and 150 ms on conv2d (nine unrolled K loops), 35 ms
/// on matmul: most of their code generation. Most of what it gained on
/// tilec's kernels, base + constant addresses for shared memory, comes from
/// DistributeConstantOffsetsPass, ChainStridedProductsPass and
/// SeparateConstOffsetFromGEP instead
/// (on an H200, matmul 4096^3 is still 1.5 % slower without it).
/// NaryReassociate, which NVPTX runs after it, then changed no kernel for
/// the better (conv2d's registers rose).
class CodeGenPassGate : public llvm::OptPassGate {
public:
  /// Installs the gate on `context` for its lifetime.
  explicit CodeGenPassGate(llvm::LLVMContext &context)
      : context(context), next(context.getOptPassGate()) {
    context.setOptPassGate(*this);
  }
  ~CodeGenPassGate() override { context.setOptPassGate(next); }
  CodeGenPassGate(const CodeGenPassGate &) = delete;
  CodeGenPassGate &operator=(const CodeGenPassGate &) = delete;

  bool isEnabled() const override { return true; }
  bool shouldRunPass(llvm::StringRef pass,
                     llvm::StringRef irDescription) const override {
    if (pass == "slsr" || pass == "Straight line strength reduction" ||
        pass == "nary-reassociate" || pass == "Nary reassociation")
      return false;
    return !next.isEnabled() || next.shouldRunPass(pass, irDescription);
  }

private:
  llvm::LLVMContext &context;
  llvm::OptPassGate &next;
};
} // namespace

/// Sets, once per process, the code generator options tilec relies on,
/// unless the process's command line set them:
/// `-cgpp-huge-func=0` makes CodeGenPrepare revisit only the blocks it
/// changed. By default, for functions under 10,000 blocks, every change
/// restarts it from the function's first block; tilec's kernels are a few
/// large blocks with hundreds of shared-memory accesses and inline-asm
/// loads, so that was ~100 passes over conv2d (50 of its 280 ms). The PTX
/// of every example and benchmark kernel is the same either way.
/// `-nvptx-short-ptr` makes shared-memory pointers 32 bits (the target
/// machine's data layout then says p3:32, so it is set before any target
/// machine is made): shared addresses are computed in 32-bit arithmetic
/// instead of 64-bit adds and a conversion before every cp.async,
/// ld/st.shared and ldmatrix.
/// `-lsr-exp-narrow` lets loop strength reduction prefer the solution with
/// fewer expected registers: a pipelined loop's per-register pointers stay
/// induction variables of their own (one 64-bit add each per iteration)
/// instead of eight variables plus a common per-thread offset added before
/// every copy (matmul 128x128x64/w8/s5: 92 PTX instructions per iteration
/// -> 84; attention's loops are the same either way).
static void configureCodeGenerator() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("cgpp-huge-func");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
      (void)it->second->addOccurrence(0, "cgpp-huge-func", "0");
    it = options.find("nvptx-short-ptr");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
      (void)it->second->addOccurrence(0, "nvptx-short-ptr", "true");
    it = options.find("lsr-exp-narrow");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
      (void)it->second->addOccurrence(0, "lsr-exp-narrow", "true");
  });
}

/// Gives every function a debug scope from its location (directives only,
/// as nvcc -lineinfo: line tables would make the target `sm_XX, debug`
/// with DWARF sections), so that the ops' file:line:col locations become
/// the `.file`/`.loc` of the PTX. Relative file names are made absolute
/// first (a profiler reads the source from another directory).
static LogicalResult addLineInfo(ModuleOp module) {
  AttrTypeReplacer absolute;
  absolute.addReplacement([](FileLineColLoc loc) -> std::optional<Location> {
    llvm::SmallString<256> path(loc.getFilename().getValue());
    if (llvm::sys::path::is_absolute(path) || !llvm::sys::fs::exists(path) ||
        llvm::sys::fs::make_absolute(path))
      return std::nullopt;
    return FileLineColLoc::get(loc.getContext(), path, loc.getLine(),
                               loc.getColumn());
  });
  absolute.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true);
  PassManager pm(module.getContext());
  LLVM::DIScopeForLLVMFuncOpPassOptions scopeOptions;
  scopeOptions.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
  pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopeOptions));
  return pm.run(module);
}

/// The body of translateToNVPTXModule with the TargetMachine given.
static FailureOr<std::unique_ptr<llvm::Module>>
translateWithMachine(ModuleOp module, const PTXOptions &opts,
                     llvm::TargetMachine &machine,
                     llvm::LLVMContext &llvmContext, TimingScope &timing) {
  prepareContext(*module.getContext());
  if (failed(checkKernels(module)) ||
      failed(checkRequiredSM(module, opts.arch)))
    return failure();
  TimingScope translateTimer = timing.nest("translate to LLVM IR");
  if (opts.lineInfo && failed(addLineInfo(module)))
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
  translateTimer.stop();

  TimingScope optimizeTimer = timing.nest("optimize LLVM IR");
  optimize(*llvmModule, machine, opts.optLevel);
  detail::hideIntegerMinMaxFromPtxas(*llvmModule);
#ifndef NDEBUG
  if (failed(verify(module, *llvmModule, "invalid LLVM IR after optimization")))
    return failure();
#endif
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
  configureCodeGenerator();
  std::unique_ptr<llvm::TargetMachine> machine =
      createNVPTXTargetMachine(module, opts);
  if (!machine)
    return failure();
  ScopedLLVMDiagnostics diagnostics(llvmContext);
  TimingScope noTiming;
  FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
      translateWithMachine(module, opts, *machine, llvmContext, noTiming);
  if (failed(diagnostics.report(module)))
    return failure();
  return llvmModule;
}

FailureOr<std::string> translateToPTX(ModuleOp module, const PTXOptions &opts,
                                      std::string *llvmIROut,
                                      TimingScope *timing) {
  TimingScope noTiming;
  TimingScope &parent = timing ? *timing : noTiming;
  configureCodeGenerator();
  std::unique_ptr<llvm::TargetMachine> machine =
      createNVPTXTargetMachine(module, opts);
  if (!machine)
    return failure();
  llvm::LLVMContext llvmContext;
  ScopedLLVMDiagnostics diagnostics(llvmContext);
  FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
      translateWithMachine(module, opts, *machine, llvmContext, parent);
  if (failed(diagnostics.report(module)) || failed(llvmModule))
    return failure();

  if (opts.dumpLLVMIR)
    (*llvmModule)->print(llvm::errs(), nullptr);
  if (llvmIROut) {
    llvmIROut->clear();
    llvm::raw_string_ostream os(*llvmIROut);
    (*llvmModule)->print(os, nullptr);
  }

  TimingScope codegenTimer = parent.nest("generate PTX");
  CodeGenPassGate gate(llvmContext);
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
