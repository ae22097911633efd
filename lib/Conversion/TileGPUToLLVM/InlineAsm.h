//===- InlineAsm.h - Inline PTX statements ----------------------*- C++ -*-===//
//
// The one way the lowering writes PTX that has no NVVM op: an
// `llvm.inline_asm` statement in the AT&T dialect; and the pattern of ops
// that lower to one such statement.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_INLINEASM_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_INLINEASM_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

#include <string>

namespace mlir::tilegpu {

/// Inline PTX (AT&T dialect) with at most one result (null `result`: none;
/// a struct for several outputs).
LLVM::InlineAsmOp createInlineAsm(OpBuilder &builder, Location loc, Type result,
                                  ValueRange operands, StringRef text,
                                  StringRef constraints,
                                  bool hasSideEffects = true);

/// One side-effecting PTX statement without results: its text, operand
/// constraints and operands.
struct PtxStatement {
  std::string text;
  std::string constraints;
  SmallVector<Value> operands;
};

/// Lowers an op without results to the PTX statement `build` returns for
/// it (building the operands at the op) and erases the op.
template <typename Op> struct PtxStatementConversion : OpConversionPattern<Op> {
  using Build = FailureOr<PtxStatement> (*)(Op, typename Op::Adaptor,
                                            ConversionPatternRewriter &);
  PtxStatementConversion(const TypeConverter &converter, MLIRContext *context,
                         Build build)
      : OpConversionPattern<Op>(converter, context), build(build) {}
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<PtxStatement> statement = build(op, adaptor, rewriter);
    if (failed(statement))
      return failure();
    createInlineAsm(rewriter, op.getLoc(), Type(), statement->operands,
                    statement->text, statement->constraints);
    rewriter.eraseOp(op);
    return success();
  }
  Build build;
};

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_INLINEASM_H
