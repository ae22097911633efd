//===- LLVMBuilders.h - One-line LLVM-dialect values ------------*- C++ -*-===//
//
// The smallest builders every lowering pattern uses: i32 and i64 constants
// and element addresses (GEPs).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LLVMBUILDERS_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LLVMBUILDERS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// Integer constants.
Value createI32(OpBuilder &builder, Location loc, int64_t value);
Value createI64(OpBuilder &builder, Location loc, int64_t value);

/// `base + index * sizeof(elementType)` in address space of `base`.
Value gep(OpBuilder &builder, Location loc, Type elementType, Value base,
          Value index);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_LLVMBUILDERS_H
