//===- Patterns.h - Pattern sets of the tilegpu lowering --------*- C++ -*-===//
//
// One population function per op family (one source file each), the
// module preparations some families need before the conversion runs, and
// the pattern of ops that lower to their only operand.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_PATTERNS_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_PATTERNS_H

#include "TypeConverter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tilegpu {

/// The lowering of an op that is its only operand once lowered (hints,
/// shared-memory views).
template <typename Op>
struct ForwardOperandConversion : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperands().front());
    return success();
  }
};

/// Name of the attribute the lowering pass puts on elementwise ops whose
/// result is constant over aligned runs of elements (one power of two per
/// dimension): their lowering computes one register per run.
inline constexpr llvm::StringLiteral kConstancyAttrName = "tilegpu.constancy";

void populateElementwiseOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateMemoryOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
/// Atomics; `computeCapability` (0: unknown, taken as the newest) decides
/// whether bf16 adds have an instruction (sm_90) or a swap loop.
void populateAtomicOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    unsigned computeCapability);
void populateShapeOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateScanOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);
/// `computeCapability` (0: unknown) decides which of ldmatrix and stmatrix
/// the exchanges may use.
void populateSharedMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability);
void populateLocalMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateLdmatrixConversionPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// `tile.elementwise_inline_asm` (InlineAsmOpToLLVM.cpp).
void populateInlineAsmOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populatePrintOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);
/// `tile.gdc_wait` / `tile.gdc_launch_dependents`: griddepcontrol on sm_90
/// and later (or an unknown target, 0), nothing before
/// (GridDepControlToLLVM.cpp).
void populateGridDepControlToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability);
void populateAsyncCopyOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// Numbers each function's tensor-map creations (their pool slots
/// depend on it); before the conversion.
void numberTensorMaps(ModuleOp module);
void populateTMAOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateWarpGroupDotOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// Marks runs of adjacent swizzled staging allocs so that one barrier
/// before and one after the run serve all of them (run before lowering).
void markStagingBarriers(Operation *root);
void populateDotOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_PATTERNS_H
