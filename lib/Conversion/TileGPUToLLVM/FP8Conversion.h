//===- FP8Conversion.h - fp8 conversion patterns ----------------*- C++ -*-===//
//
// The population function of FP8ConversionToLLVM.cpp (conversions from and
// to the fp8 types) and the check that fp8 values are only converted.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H

#include "TypeConverter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tilegpu {

/// Checks that the arith and math ops of `module` on fp8 values are the
/// ones this lowering has: conversions (extf, truncf, fptosi, fptoui,
/// sitofp, uitofp), select and constants. fp8 is a storage type: the
/// frontend computes in a wider type, but a tilegpu input could write
/// `arith.addf` on fp8, which LLVM has no instruction for. Reports each
/// other op.
LogicalResult verifyFP8OnlyConverted(ModuleOp module);

/// fp8 <-> wider float conversions: PTX's cvt from sm_89 on (and for an
/// unknown `computeCapability`, 0), integer operations before.
void populateFP8ConversionToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H
