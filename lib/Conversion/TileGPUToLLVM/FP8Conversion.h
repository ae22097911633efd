//===- FP8Conversion.h - fp8 conversion patterns ----------------*- C++ -*-===//
//
// The target check and the population function of FP8ConversionToLLVM.cpp:
// `arith.extf` from and `arith.truncf` to the fp8 types.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H

#include "TypeConverter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tilegpu {

/// Reports every fp8 conversion of \p module as an error when the target
/// (`computeCapability`, 0: unknown) has none (below sm_89).
LogicalResult checkFP8Conversions(ModuleOp module, unsigned computeCapability);
/// fp8 <-> wider float conversions (sm_89 and newer).
void populateFP8ConversionToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H
