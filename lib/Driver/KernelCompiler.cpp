//===- KernelCompiler.cpp - Every stage of compiling a kernel -------------===//
//
// The whole compile of one kernel: semantic checks, MLIRGen, argument
// specialization, the pass pipelines (Pipeline.cpp) up to the requested
// stage, PTX through NVPTX, the cubin through ptxas, and the metadata the
// runtime launches it with. Every error, from the frontend or from deep in
// the pipeline, is printed clang-style against the .tile source. A kernel of
// a tilegpu-level .mlir file (TileGPUSource) takes the same path from its
// layouts on, with its diagnostics against the .mlir file.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/KernelCompiler.h"
#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Frontend/Diagnostics.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilec/Driver/Pipeline.h"
#include "tilec/Driver/TileGPUSource.h"
#include "tilec/Frontend/MLIRGen.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/PythonSource.h"
#include "tilec/Runtime/Hash.h"
#include "tilec/Runtime/SpareRegisters.h"
#include "tilec/Target/CudaToolkit.h"
#include "tilec/Target/PTX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "tilec-kernel-compiler"

using namespace mlir;
using namespace tilec;

std::unique_ptr<TileSource>
TileSource::parse(std::unique_ptr<llvm::MemoryBuffer> buffer,
                  llvm::raw_ostream &diagOS, SourceLanguage language,
                  llvm::StringRef kernel) {
  std::unique_ptr<TileSource> source(new TileSource());
  HostCode host;
  if (language == SourceLanguage::Python)
    buffer = llvm::MemoryBuffer::getMemBufferCopy(
        extractTritonCode(buffer->getBuffer(), kernel, &host),
        buffer->getBufferIdentifier());
  source->srcMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  DiagnosticEngine diags(source->srcMgr, diagOS);
  source->module = parseModule(source->srcMgr, diags, language);
  if (source->module) {
    source->module->hostNames = std::move(host.names);
    source->module->hostNameNotes = std::move(host.whyUndecided);
    source->module->moduleAliases = std::move(host.moduleAliases);
    source->module->languageAliases = std::move(host.languageAliases);
  }
  if (!source->module || diags.hasErrors())
    return nullptr;
  return source;
}

std::vector<std::string> TileSource::getKernelNames() const {
  return listKernels(*module);
}

llvm::StringRef TileSource::getText() const {
  return srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBuffer();
}

KernelCompiler::KernelCompiler() {
  DialectRegistry registry;
  registerTilecDialects(registry);
  registerTilecTranslations(registry);
  context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
}

KernelCompiler::~KernelCompiler() = default;

std::string tilec::printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

namespace {
/// Whether `options` specialize the integer `param` to 1.
bool isAssumedOne(const CompileOptions &options,
                  const checked::KernelParam &param) {
  return param.type.isInteger() &&
         llvm::is_contained(options.unitParams, param.name);
}

/// What `options` let the code assume `param` (a pointer's address or an
/// integer's value) to be a multiple of; 1 for nothing.
int64_t getAssumedDivisibility(const CompileOptions &options,
                               const checked::KernelParam &param) {
  if (param.type.isPointer)
    return llvm::is_contained(options.unalignedParams, param.name)
               ? 1
               : options.pointerAlignment;
  if (param.type.isInteger() &&
      llvm::is_contained(options.divisibleParams, param.name))
    return 16;
  return 1;
}

/// Diagnoses the names of `--divisible` and `--unit` against the kernel:
/// one that names no run-time parameter gets a warning (several kernels of
/// a file share the options, as with -D); one that names a pointer or a
/// float is an error (only integers can be specialized). False after an
/// error.
bool checkSpecializedNames(const checked::CheckedKernel &kernel,
                           const CompileOptions &options,
                           tilec::DiagnosticEngine &diags) {
  bool ok = true;
  auto check = [&](llvm::ArrayRef<std::string> names, llvm::StringRef flag) {
    for (const std::string &name : names) {
      const checked::KernelParam *param = nullptr;
      for (const checked::KernelParam &p : kernel.params)
        if (p.name == name)
          param = &p;
      if (!param) {
        diags.warning(tilec::SourceLoc(),
                      flag + "=" + name +
                          " does not name a run-time parameter "
                          "of kernel '" +
                          kernel.name + "'");
      } else if (!param->type.isInteger()) {
        diags.error(param->loc, flag + "=" + name + ": '" + name + "' is a " +
                                    param->type.str() + " parameter; " + flag +
                                    " takes integer parameters");
        ok = false;
      }
    }
  };
  check(options.divisibleParams, "--divisible");
  check(options.unitParams, "--unit");
  return ok;
}

/// Marks the kernel's arguments with what `options` let the code assume:
/// unit integers become the constant 1, divisibilities become argument
/// attributes the axis analysis reads.
void applySpecialization(ModuleOp module, const checked::CheckedKernel &kernel,
                         const CompileOptions &options) {
  OpBuilder builder(module.getContext());
  module.walk([&](func::FuncOp func) {
    for (auto [i, param] : llvm::enumerate(kernel.params)) {
      if (isAssumedOne(options, param)) {
        BlockArgument arg = func.getArgument(i);
        builder.setInsertionPointToStart(&func.front());
        Value one = arith::ConstantOp::create(
            builder, arg.getLoc(), builder.getIntegerAttr(arg.getType(), 1));
        arg.replaceAllUsesWith(one);
        continue;
      }
      int64_t divisibility = getAssumedDivisibility(options, param);
      if (divisibility > 1)
        func.setArgAttr(i, mlir::tilegpu::kDivisibilityArgAttrName,
                        builder.getI32IntegerAttr(divisibility));
    }
  });
}

/// Fails with a diagnostic at the kernel when its blocks need more shared
/// memory than `target` has.
LogicalResult checkSharedMemory(ModuleOp module, llvm::StringRef kernel,
                                Target target) {
  auto attr =
      module->getAttrOfType<IntegerAttr>(mlir::tilegpu::kSharedBytesAttrName);
  int64_t limit = target.getSharedMemoryPerBlock();
  if (!attr || attr.getInt() <= limit)
    return success();
  Location loc = module.getLoc();
  if (auto func = module.lookupSymbol<func::FuncOp>(kernel))
    loc = func.getLoc();
  return emitError(loc)
         << "kernel '" << kernel << "' needs " << attr.getInt()
         << " bytes of shared memory per block; " << target.str()
         << " has at most " << limit
         << " (smaller blocks or a smaller num_stages need less)";
}

/// The kernel's name, parameters (with the assumptions `options` make) and
/// constexpr values.
void describeKernel(const checked::CheckedKernel &checked,
                    const CompileOptions &options, KernelMetadata &meta) {
  meta.kernel = checked.name;
  meta.numStages = checked.numStages;
  for (const checked::KernelParam &param : checked.params) {
    KernelParam &out = meta.params.emplace_back();
    out.name = param.name;
    out.type = param.type.getParamType();
    out.equalToOne = isAssumedOne(options, param);
    if (!out.equalToOne)
      out.divisibility =
          static_cast<uint32_t>(getAssumedDivisibility(options, param));
  }
  meta.descriptors = checked.descriptors;
  for (const checked::ConstexprParam &param : checked.constexprs)
    meta.constexprs[param.name] = param.value;
}

/// The launch fields of the metadata, from the compiled module.
void describeLaunch(ModuleOp module, llvm::StringRef sourceText, Target target,
                    KernelMetadata &meta) {
  meta.arch = target.str();
  meta.numWarps = tilegpu::getNumWarps(module);
  meta.threadsPerBlock = 32 * meta.numWarps;
  if (auto shared =
          module->getAttrOfType<IntegerAttr>(tilegpu::kSharedBytesAttrName))
    meta.sharedBytes = shared.getInt();
  meta.sourceHash = sha256Hex(sourceText.str());
  meta.compilerVersion = getVersionString();
}

/// What a compile starts from.
enum class Entry {
  /// tile IR (from a .tile source): every pass.
  Tile,
  /// tilegpu IR with its layouts written (a .mlir input): the passes after
  /// layout assignment that keep them.
  LaidOutTileGPU,
};

/// Adds the passes from `entry` to `stage` to `pm`.
void buildPasses(PassManager &pm, Entry entry, Stage stage, unsigned numWarps,
                 const CompileOptions &options) {
  if (entry == Entry::LaidOutTileGPU) {
    buildLaidOutTileGPUPipeline(pm, options.getTarget());
  } else {
    buildTilePipeline(pm);
    if (stage >= Stage::TileGPU)
      buildTileGPUPipeline(pm, numWarps, options.getTarget());
  }
  if (stage >= Stage::PTX && options.optLevel > 0)
    buildLLVMPipeline(pm, LLVMCleanup::BeforeLLVMOptimization,
                      options.getTarget());
  else if (stage >= Stage::LLVM)
    buildLLVMPipeline(pm, LLVMCleanup::Full, options.getTarget());
}
} // namespace

std::optional<CompileResult>
KernelCompiler::compile(TileSource &source, llvm::StringRef kernel,
                        const ConstexprBindings &bindings,
                        const CompileOptions &options, Stage stage,
                        llvm::raw_ostream &diagOS, CompileFailure *failure) {
  if (failure)
    *failure = CompileFailure::Input;
  CompileResult result;
  if (stage == Stage::AST) {
    llvm::raw_string_ostream os(result.text);
    ast::dumpAST(source.getModule(), os);
    return result;
  }
  LLVM_DEBUG(llvm::dbgs() << "compiling '" << kernel << "' for "
                          << options.getTarget().str() << " to stage "
                          << static_cast<int>(stage) << "\n");

  DefaultTimingManager timing;
  timing.setEnabled(options.timing);
  TimingScope root = timing.getRootScope();

  ConstexprBindings effective = bindings;
  if (options.numWarps > 0)
    effective.numWarps = options.numWarps;
  if (options.numStages > 0)
    effective.numStages = options.numStages;
  DiagnosticEngine diags(source.getSourceMgr(), diagOS);
  std::optional<checked::CheckedKernel> checked;
  {
    TimingScope scope = root.nest("check (sema)");
    checked = checkKernel(source.getModule(), kernel, effective, diags);
  }
  if (!checked || diags.hasErrors() ||
      !checkSpecializedNames(*checked, options, diags))
    return std::nullopt;
  describeKernel(*checked, options, result.metadata);

  ControlEscapingOstream escaped(diagOS);
  SourceMgrDiagnosticHandler handler(source.getSourceMgr(), context.get(),
                                     escaped);
  uint64_t reported = diagOS.tell();
  {
    TimingScope scope = root.nest("mlirgen");
    result.module = mlirGen(*context, *checked);
  }
  if (!result.module) {
    // A failure must say so: a construct MLIRGen does not handle is a bug,
    // not a silent exit status.
    if (diagOS.tell() == reported)
      diagOS << source.getSourceMgr()
                    .getMemoryBuffer(source.getSourceMgr().getMainFileID())
                    ->getBufferIdentifier()
             << ": error: internal error: generating the "
             << "IR of kernel '" << checked->name
             << "' failed without a diagnostic (please report this)\n";
    return std::nullopt;
  }
  ModuleOp module = *result.module;
  applySpecialization(module, *checked, options);

  PassManager pm(context.get(), ModuleOp::getOperationName());
  buildPasses(pm, Entry::Tile, stage, checked->numWarps, options);
  if (!runToStage(pm, result, checked->name, source.getText(), options, stage,
                  root, diagOS, failure))
    return std::nullopt;
  return result;
}

std::optional<CompileResult>
KernelCompiler::compile(TileGPUSource &source, llvm::StringRef kernel,
                        const CompileOptions &options, Stage stage,
                        llvm::raw_ostream &diagOS, CompileFailure *failure) {
  if (failure)
    *failure = CompileFailure::Input;
  ControlEscapingOstream escaped(diagOS);
  SourceMgrDiagnosticHandler handler(source.getSourceMgr(), context.get(),
                                     escaped);
  ModuleOp parsed = source.getModule();
  if (stage < Stage::TileGPU) {
    emitError(parsed.getLoc())
        << "a tilegpu input starts after layout assignment: "
           "--emit=ast and --emit=tile need a .tile source";
    return std::nullopt;
  }
  auto func = parsed.lookupSymbol<func::FuncOp>(kernel);
  if (!func || !func->hasAttr(tile::kKernelAttrName)) {
    emitError(parsed.getLoc())
        << "no kernel '" << kernel
        << "' in the file (a func.func with the tile.kernel attribute)";
    return std::nullopt;
  }
  auto warpsAttr =
      parsed->getAttrOfType<IntegerAttr>(tilegpu::kNumWarpsAttrName);
  if (warpsAttr && options.numWarps > 0 &&
      warpsAttr.getInt() != options.numWarps) {
    emitError(parsed.getLoc())
        << "--num-warps=" << options.numWarps << " differs from the module's "
        << tilegpu::kNumWarpsAttrName << " = " << warpsAttr.getInt()
        << ", which its layouts are written for";
    return std::nullopt;
  }

  DefaultTimingManager timing;
  timing.setEnabled(options.timing);
  TimingScope root = timing.getRootScope();
  CompileResult result;
  KernelMetadata &meta = result.metadata;
  meta.kernel = kernel.str();
  if (failed(source.describeParams(func, meta.params)))
    return std::nullopt;
  // The kernel alone, with the options' warps and stages.
  result.module = cast<ModuleOp>(parsed->clone());
  ModuleOp module = *result.module;
  for (auto other : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (other->hasAttr(tile::kKernelAttrName) && other.getName() != kernel)
      other.erase();
  Builder builder(context.get());
  if (!warpsAttr)
    module->setAttr(
        tilegpu::kNumWarpsAttrName,
        builder.getI32IntegerAttr(options.numWarps > 0
                                      ? options.numWarps
                                      : CompileOptions::kDefaultNumWarps));
  func = module.lookupSymbol<func::FuncOp>(kernel);
  if (options.numStages > 0)
    func->setAttr(tile::kNumStagesAttrName,
                  builder.getI32IntegerAttr(options.numStages));
  if (auto stages = func->getAttrOfType<IntegerAttr>(tile::kNumStagesAttrName))
    meta.numStages = stages.getInt();
  if (failed(tilegpu::verifyBlocksHaveLayouts(module, "a tilegpu input")))
    return std::nullopt;

  PassManager pm(context.get(), ModuleOp::getOperationName());
  buildPasses(pm, Entry::LaidOutTileGPU, stage, tilegpu::getNumWarps(module),
              options);
  if (!runToStage(pm, result, kernel, source.getText(), options, stage, root,
                  diagOS, failure))
    return std::nullopt;
  return result;
}

bool KernelCompiler::runToStage(PassManager &pm, CompileResult &result,
                                llvm::StringRef kernel,
                                llvm::StringRef sourceText,
                                const CompileOptions &options, Stage stage,
                                TimingScope &root, llvm::raw_ostream &diagOS,
                                CompileFailure *failure) {
  ModuleOp module = *result.module;
  if (options.printIRAfterAll)
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
  TimingScope passScope = root.nest("passes");
  if (options.timing)
    pm.enableTiming(passScope);
  if (failed(pm.run(module)))
    return false;
  passScope.stop();
  Target target = options.getTarget();
  if (stage >= Stage::LLVM && failed(checkSharedMemory(module, kernel, target)))
    return false;
  if (stage < Stage::PTX)
    return true;

  PTXOptions ptxOptions;
  ptxOptions.arch = target.str();
  ptxOptions.optLevel = options.optLevel;
  ptxOptions.fpFusion = options.fpFusion;
  ptxOptions.lineInfo = options.lineInfo;
  FailureOr<std::string> ptx;
  {
    TimingScope scope = root.nest("llvm + ptx");
    ptx = translateToPTX(module, ptxOptions, /*llvmIROut=*/nullptr, &scope);
  }
  if (failed(ptx))
    return false;
  result.text = std::move(*ptx);
  describeLaunch(module, sourceText, target, result.metadata);
  if (stage < Stage::Cubin && !options.spareRegisters)
    return true;

  // ptxas, and again where it left registers spare (SpareRegisters.h).
  TimingScope scope = root.nest("ptxas");
  int registers = -1;
  llvm::Expected<std::string> cubin =
      assembleCubin(result.text, target, kernel, &registers);
  if (cubin) {
    const KernelMetadata &meta = result.metadata;
    if (std::optional<std::string> spent = spendSpareRegisters(
            result.text, kernel, target, registers, meta.threadsPerBlock,
            std::int64_t(meta.sharedBytes))) {
      cubin = assembleCubin(*spent, target, kernel);
      result.text = std::move(*spent);
    }
  }
  if (!cubin) {
    diagOS << "error: " << llvm::toString(cubin.takeError()) << "\n";
    if (failure)
      *failure = CompileFailure::Environment;
    return false;
  }
  if (stage >= Stage::Cubin)
    result.cubin = std::move(*cubin);
  return true;
}
