//===- InlineAsm.cpp - Inline PTX statements ------------------------------===//
//
// Builds `llvm.inline_asm` statements of PTX.
//
//===----------------------------------------------------------------------===//

#include "InlineAsm.h"

using namespace mlir;
using namespace mlir::tilegpu;

LLVM::InlineAsmOp
mlir::tilegpu::createInlineAsm(OpBuilder &builder, Location loc, Type result,
                               ValueRange operands, StringRef text,
                               StringRef constraints, bool hasSideEffects) {
  return LLVM::InlineAsmOp::create(
      builder, loc, result ? TypeRange(result) : TypeRange(), operands, text,
      constraints, hasSideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}
