//===- InlineAsm.h - Inline PTX statements ----------------------*- C++ -*-===//
//
// The one way the lowering writes PTX that has no NVVM op: an
// `llvm.inline_asm` statement in the AT&T dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_INLINEASM_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_INLINEASM_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// Inline PTX (AT&T dialect) with at most one result (null `result`: none;
/// a struct for several outputs).
LLVM::InlineAsmOp createInlineAsm(OpBuilder &builder, Location loc, Type result,
                                  ValueRange operands, StringRef text,
                                  StringRef constraints,
                                  bool hasSideEffects = true);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_INLINEASM_H
