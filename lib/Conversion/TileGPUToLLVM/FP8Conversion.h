//===- FP8Conversion.h - fp8 conversion patterns ----------------*- C++ -*-===//
//
// The population function of FP8ConversionToLLVM.cpp: conversions from and
// to the fp8 types.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H

#include "TypeConverter.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tilegpu {

/// fp8 <-> wider float conversions: PTX's cvt from sm_89 on (and for an
/// unknown `computeCapability`, 0), integer operations before.
void populateFP8ConversionToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_FP8CONVERSION_H
