//===- KernelCompiler.cpp - Compile one .tile kernel to PTX ---------------===//
//
// The whole compile of one kernel: semantic checks, MLIRGen, the pass
// pipeline up to the requested stage, PTX through NVPTX, and the metadata
// the runtime launches it with. Every error, from the frontend or from deep
// in the pipeline, is printed clang-style against the .tile source.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Conversion/Passes.h"
#include "tilec/Frontend/MLIRGen.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Pipeline/Pipeline.h"
#include "tilec/Runtime/Hash.h"
#include "tilec/Target/PTX.h"

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;

std::unique_ptr<TileSource>
TileSource::parse(std::unique_ptr<llvm::MemoryBuffer> buffer,
                  llvm::raw_ostream &diagOS) {
  std::unique_ptr<TileSource> source(new TileSource());
  source->srcMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  DiagnosticEngine diags(source->srcMgr, diagOS);
  source->module = parseModule(source->srcMgr, diags);
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

KernelCompiler::KernelCompiler(CompileOptions options)
    : options(std::move(options)) {
  DialectRegistry registry;
  registerTilecDialects(registry);
  registerTilecTranslations(registry);
  context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
}

KernelCompiler::~KernelCompiler() = default;

bool KernelCompiler::isAssumedOne(const checked::KernelParam &param) const {
  return param.type.isInteger() &&
         llvm::is_contained(options.unitParams, param.name);
}

int64_t KernelCompiler::getAssumedDivisibility(
    const checked::KernelParam &param) const {
  if (param.type.isPointer)
    return options.pointerAlignment;
  if (param.type.isInteger() &&
      llvm::is_contained(options.divisibleParams, param.name))
    return 16;
  return 1;
}

void KernelCompiler::applySpecialization(ModuleOp module,
                                         const checked::CheckedKernel &kernel,
                                         llvm::raw_ostream &diagOS) {
  OpBuilder builder(module.getContext());
  module.walk([&](func::FuncOp func) {
    for (auto [i, param] : llvm::enumerate(kernel.params)) {
      if (isAssumedOne(param)) {
        BlockArgument arg = func.getArgument(i);
        builder.setInsertionPointToStart(&func.front());
        Value one = arith::ConstantOp::create(
            builder, arg.getLoc(), builder.getIntegerAttr(arg.getType(), 1));
        arg.replaceAllUsesWith(one);
        continue;
      }
      int64_t divisibility = getAssumedDivisibility(param);
      if (divisibility > 1)
        func.setArgAttr(i, mlir::tilegpu::kDivisibilityArgAttrName,
                        builder.getI32IntegerAttr(divisibility));
    }
  });
}

namespace {
/// The most shared memory one block may use on `arch`, in bytes.
int64_t getSharedMemoryLimit(llvm::StringRef arch) {
  if (arch.starts_with("sm_90"))
    return 232448; // 227 KiB
  if (arch == "sm_80" || arch == "sm_87")
    return 166912; // 163 KiB
  return 101376;   // sm_86, sm_89: 99 KiB
}

/// Fails with a diagnostic at the kernel when its blocks need more shared
/// memory than the target has.
LogicalResult checkSharedMemory(ModuleOp module, llvm::StringRef kernel,
                                llvm::StringRef arch) {
  auto attr =
      module->getAttrOfType<IntegerAttr>(mlir::tilegpu::kSharedBytesAttrName);
  int64_t limit = getSharedMemoryLimit(arch);
  if (!attr || attr.getInt() <= limit)
    return success();
  Location loc = module.getLoc();
  if (auto func = module.lookupSymbol<func::FuncOp>(kernel))
    loc = func.getLoc();
  return emitError(loc)
         << "kernel '" << kernel << "' needs " << attr.getInt()
         << " bytes of shared memory per block; " << arch << " has at most "
         << limit << " (smaller blocks or a smaller num_stages need less)";
}
} // namespace

std::optional<CompileResult>
KernelCompiler::compile(TileSource &source, llvm::StringRef kernel,
                        const ConstexprBindings &bindings, EmitStage stage,
                        llvm::raw_ostream &diagOS) {
  CompileResult result;
  if (stage == EmitStage::AST) {
    llvm::raw_string_ostream os(result.text);
    ast::dumpAST(source.getModule(), os);
    return result;
  }

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
  if (!checked || diags.hasErrors())
    return std::nullopt;

  SourceMgrDiagnosticHandler handler(source.getSourceMgr(), context.get(),
                                     diagOS);
  OwningOpRef<ModuleOp> module;
  {
    TimingScope scope = root.nest("mlirgen");
    module = mlirGen(*context, *checked);
  }
  if (!module)
    return std::nullopt;
  applySpecialization(*module, *checked, diagOS);

  PassManager pm(context.get(), ModuleOp::getOperationName());
  if (options.printIRAfterAll)
    pm.enableIRPrinting(
        /*shouldPrintBeforePass=*/[](Pass *, Operation *) { return false; },
        /*shouldPrintAfterPass=*/[](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
  TimingScope passScope = root.nest("passes");
  if (options.timing)
    pm.enableTiming(passScope);
  buildTilePipeline(pm);
  if (stage >= EmitStage::TileGPU)
    buildTileGPUPipeline(pm, checked->numWarps, options.arch);
  if (stage == EmitStage::PTX && options.optLevel > 0) {
    // To PTX with LLVM's optimizations, buildLLVMPipeline's closing cleanup
    // is cut to what LLVM does not redo: canonicalize without its region
    // simplification (block merging and dead block arguments, which LLVM's
    // SimplifyCFG does) and without cse (LLVM's EarlyCSE and GVN): conv2d's
    // MLIR passes are ~8 ms shorter, and the examples and benchmark kernels
    // get the same registers and SASS size (canonicalize itself is needed:
    // without it three conv2d variants used up to 32 more registers).
    // --emit=llvm prints the fully cleaned-up IR.
    pm.addPass(::mlir::tilegpu::createConvertTileGPUToLLVM());
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    pm.addPass(createCanonicalizerPass(config));
  } else if (stage >= EmitStage::LLVM) {
    buildLLVMPipeline(pm);
  }
  if (failed(pm.run(*module)))
    return std::nullopt;
  passScope.stop();
  if (stage >= EmitStage::LLVM &&
      failed(checkSharedMemory(*module, checked->name, options.arch)))
    return std::nullopt;

  if (stage != EmitStage::PTX) {
    llvm::raw_string_ostream os(result.text);
    module->print(os);
    return result;
  }

  PTXOptions ptxOptions;
  ptxOptions.arch = options.arch;
  ptxOptions.optLevel = options.optLevel;
  ptxOptions.fpFusion = options.fpFusion;
  FailureOr<std::string> ptx;
  {
    TimingScope scope = root.nest("llvm + ptx");
    ptx = translateToPTX(*module, ptxOptions, /*llvmIROut=*/nullptr, &scope);
  }
  if (failed(ptx))
    return std::nullopt;
  result.text = std::move(*ptx);

  KernelMetadata &meta = result.metadata;
  meta.kernel = checked->name;
  meta.arch = options.arch;
  meta.numWarps = tilegpu::getNumWarps(*module);
  meta.numStages = checked->numStages;
  meta.threadsPerBlock = 32 * meta.numWarps;
  if (auto shared =
          (*module)->getAttrOfType<IntegerAttr>(tilegpu::kSharedBytesAttrName))
    meta.sharedBytes = shared.getInt();
  for (const checked::KernelParam &param : checked->params) {
    KernelParam &out = meta.params.emplace_back();
    out.name = param.name;
    out.type = param.type.getParamType();
    out.equalToOne = isAssumedOne(param);
    if (!out.equalToOne)
      out.divisibility = static_cast<uint32_t>(getAssumedDivisibility(param));
  }
  for (const checked::ConstexprParam &param : checked->constexprs)
    meta.constexprs[param.name] = param.value;
  meta.sourceHash = sha256Hex(source.getText().str());
  meta.compilerVersion = getVersionString();
  return result;
}
