//===- TF32Rounding.h - f32 rounded to tf32 ---------------------*- C++ -*-===//
//
// Tensor cores read tf32 operands by truncating the low mantissa bits of an
// f32; the lowering rounds them first (both the mma and the FMA paths).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_TF32ROUNDING_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_TF32ROUNDING_H

#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// Rounds an f32 to tf32 (10 mantissa bits, round to nearest, ties away).
Value roundToTF32(OpBuilder &builder, Location loc, Value value);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_TF32ROUNDING_H
