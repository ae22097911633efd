//===- TileGPUToLLVMPass.cpp - convert-tilegpu-to-llvm --------------------===//
//
// The pass that lowers a laid-out module to LLVM + NVVM: structured control
// flow to `cf` first, then one dialect conversion with the tilegpu patterns
// of this folder and the upstream arith, math (libdevice), cf and func
// patterns; kernels get `nvvm.kernel` and their block size, and the
// registers extracted from packed blocks are forwarded (RegisterPacking.h).
//
//===----------------------------------------------------------------------===//

#include "FP8Conversion.h"
#include "GlobalMemoryAccess.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "tilec/Analysis/AccessWidth.h"
#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Conversion/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "convert-tilegpu-to-llvm"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_CONVERTTILEGPUTOLLVM
#include "tilec/Conversion/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Sets `tilegpu.vector_width` (and `tilegpu.uniform_mask`) on global loads
/// and stores whose addresses the axis analysis shows contiguous and aligned
/// along the layout's fastest dimension.
void annotateVectorWidths(ModuleOp module, const AxisInfoAnalysis &analysis) {
  Builder builder(module.getContext());
  module.walk([&](Operation *op) {
    Value ptr, mask;
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      ptr = load.getPtr();
      mask = load.getMask();
    } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
      ptr = store.getPtr();
      mask = store.getMask();
    } else if (auto copy = dyn_cast<tilegpu::AsyncCopyGlobalToLocalOp>(op)) {
      ptr = copy.getSrc();
      mask = copy.getMask();
    } else {
      return;
    }
    // An asynchronous copy is all or nothing: its runs shrink until the
    // mask is one value over each.
    bool allOrNothing = isa<tilegpu::AsyncCopyGlobalToLocalOp>(op);
    std::optional<AccessVectorWidth> access =
        getAccessVectorWidth(analysis, ptr, allOrNothing ? mask : Value());
    if (!access || access->width <= 1)
      return;
    op->setAttr(kVectorWidthAttrName, builder.getI32IntegerAttr(access->width));
    if (mask && isUniformOverRuns(analysis.getAxisInfo(mask), access->dim,
                                  access->width))
      op->setAttr(kUniformMaskAttrName, builder.getUnitAttr());
  });
}

/// Sets `tilegpu.constancy` on elementwise arith/math ops whose result the
/// axis analysis shows constant over aligned runs (the largest power of two
/// dividing each dimension's constancy): their lowering computes one
/// register per run and copies it (as Triton's elementwise lowering
/// deduplicates): `cols < n` with `cols` a range from a multiple of 64 and
/// `n` a multiple of 16 is 4 compares per thread of an mma row, not 16.
void annotateConstancy(ModuleOp module, const AxisInfoAnalysis &analysis) {
  Builder builder(module.getContext());
  module.walk([&](Operation *op) {
    // Only the analysis says where values repeat: the attribute of an input
    // (a tilegpu module as written) is dropped.
    op->removeAttr(kConstancyAttrName);
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->getNumResults() != 1 || isa<arith::ConstantOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !hasRegisterLayout(type.getEncoding()))
      return;
    SmallVector<int64_t> runs;
    bool anyRun = false;
    for (int64_t constancy : analysis.getAxisInfo(op->getResult(0)).constancy) {
      runs.push_back(constancy & -constancy);
      anyRun |= runs.back() > 1;
    }
    if (anyRun)
      op->setAttr(kConstancyAttrName, builder.getDenseI64ArrayAttr(runs));
  });
}

struct ConvertTileGPUToLLVMPass
    : mlir::tilegpu::impl::ConvertTileGPUToLLVMBase<ConvertTileGPUToLLVMPass> {
  using ConvertTileGPUToLLVMBase::ConvertTileGPUToLLVMBase;
  void runOnOperation() override {
    if (failed(verifyBlocksHaveLayouts(getOperation(), getArgument())) ||
        failed(verifyFP8OnlyConverted(getOperation())))
      return signalPassFailure();
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // The axis analysis understands structured loops: annotate first.
    {
      AxisInfoAnalysis analysis(module);
      annotateVectorWidths(module, analysis);
      annotateConstancy(module, analysis);
    }
    markStagingBarriers(module);

    // Structured control flow to branches.
    {
      RewritePatternSet patterns(context);
      populateSCFToControlFlowConversionPatterns(patterns);
      ConversionTarget target(*context);
      target.addIllegalDialect<scf::SCFDialect>();
      target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
      if (failed(applyPartialConversion(module, target, std::move(patterns))))
        return signalPassFailure();
    }
    LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] after scf to cf:\n"
                            << module << "\n");

    numberTensorMaps(module);
    SmallVector<std::string> kernels;
    module.walk([&](func::FuncOp func) {
      if (func->hasAttr(tile::kKernelAttrName))
        kernels.push_back(func.getName().str());
    });
    LLVM_DEBUG(llvm::dbgs()
               << "[" DEBUG_TYPE "] " << kernels.size() << " kernel(s), "
               << tilegpu::getNumWarps(module) << " warps\n");

    LowerToLLVMOptions options(context);
    options.overrideIndexBitwidth(32);
    TileGPUToLLVMTypeConverter converter(context, options);
    RewritePatternSet patterns(context);
    populateElementwiseOpToLLVMPatterns(converter, patterns);
    populateFP8ConversionToLLVMPatterns(converter, patterns, computeCapability);
    populateMemoryOpToLLVMPatterns(converter, patterns);
    populateAtomicOpToLLVMPatterns(converter, patterns, computeCapability);
    populateShapeOpToLLVMPatterns(converter, patterns);
    populateReduceOpToLLVMPatterns(converter, patterns);
    populateScanOpToLLVMPatterns(converter, patterns);
    populateSharedMemoryOpToLLVMPatterns(converter, patterns,
                                         computeCapability);
    populateLdmatrixConversionPatterns(converter, patterns);
    populateLocalMemoryOpToLLVMPatterns(converter, patterns);
    populateDotOpToLLVMPatterns(converter, patterns);
    populateWarpGroupDotOpToLLVMPatterns(converter, patterns);
    populateAsyncCopyOpToLLVMPatterns(converter, patterns);
    populateTMAOpToLLVMPatterns(converter, patterns);
    populatePrintOpToLLVMPatterns(converter, patterns);
    populateGridDepControlToLLVMPatterns(converter, patterns,
                                         computeCapability);
    populateInlineAsmOpToLLVMPatterns(converter, patterns);
    populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/10);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*context);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addIllegalDialect<tile::TileDialect, tilegpu::TileGPUDialect,
                             arith::ArithDialect, math::MathDialect,
                             cf::ControlFlowDialect, func::FuncDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] conversion failed\n");
      return signalPassFailure();
    }

    // Mark kernels and their block size.
    unsigned threads = 32 * tilegpu::getNumWarps(module);
    for (const std::string &name : kernels) {
      auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!func)
        continue;
      LLVM_DEBUG(llvm::dbgs() << "[" DEBUG_TYPE "] kernel @" << name << ": "
                              << threads << " threads\n");
      func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    UnitAttr::get(context));
      func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    DenseI32ArrayAttr::get(context, {(int)threads, 1, 1}));
      func->removeAttr(tile::kKernelAttrName);
      func->removeAttr(tile::kNumWarpsAttrName);
      func->removeAttr(tile::kNumStagesAttrName);
      // Argument facts were for the axis analysis; LLVM does not know them.
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.removeArgAttr(i, kDivisibilityArgAttrName);
    }

    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk([&](UnrealizedConversionCastOp op) { casts.push_back(op); });
    reconcileUnrealizedCasts(casts);
    forwardPackedRegisters(module);
    removeBackToBackBarriers(module);
  }
};
} // namespace
