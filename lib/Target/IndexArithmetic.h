//===- IndexArithmetic.h - LLVM IR passes over address arithmetic -*- C++
//-*-===//
//
// Rewrites of the integer arithmetic that tilec's lowering emits for
// per-register addresses, run in tilec's LLVM optimization pipeline (see
// buildOptimizationPipeline in PTX.cpp). The first two do, for the shapes
// tilec produces, what straight-line strength reduction would do, which the
// code generator skips for its compile time (CodeGenPassGate in PTX.cpp);
// the last (WidenProductsOfWordsPass) is for instruction selection.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_INDEXARITHMETIC_H
#define TILEC_LIB_TARGET_INDEXARITHMETIC_H

#include "llvm/IR/PassManager.h"

namespace tilec::detail {

/// Rewrites `(X + C1) * C2` into `X * C2 + C1 * C2`, and `(X + C1) << C2`
/// into `(X << C2) + (C1 << C2)`, when the addition (an `add nuw` or an
/// `or disjoint`) and the multiplication or shift do not wrap unsigned,
/// whatever the number of uses of `X + C1` (InstCombine makes the same
/// rewrite only when it has one). tilec's lowering computes shared-memory
/// addresses as `(row | k) * stride + col`, rows `k` apart from a common
/// one; distributed, they differ by constants that NVPTX's
/// SeparateConstOffsetFromGEP folds into the addressing mode (`[%r+640]`):
/// one base register for all of them. `X * C2` and `X << C2` do not wrap:
/// they are at most `(X + C1) * C2` and `(X + C1) << C2`.
struct DistributeConstantOffsetsPass
    : llvm::PassInfoMixin<DistributeConstantOffsetsPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
};

/// Rewrites the products `ext(X + C_k) * S` of one block, for one `X` and
/// one run-time `S` and several constants `C_k` (`ext` a `zext` of an
/// `add nuw`/`or disjoint`, a `sext` of an `add nsw`, or no extension), into
/// one product and a chain of additions: in order of `C_k`,
/// `P_0 = ext(X) * S + C_0 * S`, `P_k = P_(k-1) + (C_k - C_(k-1)) * S`, each
/// distinct difference multiplied once. A register's row of a tile is the
/// thread's row plus a constant, so `rows[:, None] * stride` was one 64-bit
/// multiply per register (three or four SASS instructions each); now it is
/// one per thread and an add per register; when every product only
/// addresses one array, the chain is one of addresses. Runs after the last
/// InstCombine, which would factor `ext(X) * S + C_0 * S` back.
///
/// Only in functions without loops. Measured on an H200 (bench/RESULTS.md,
/// session 14): the ragged f16 128x64 transpose went from 0.82x to 1.00x
/// Triton; in matmuls, whose time is their K loop, the cheaper prologue and
/// epilogue changed how ptxas scheduled the (unchanged) loop, and the
/// same-config sweep lost up to 12 % (128x128x32 w4: 0.99x -> 0.92x).
struct ChainStridedProductsPass
    : llvm::PassInfoMixin<ChainStridedProductsPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
};

/// Emits the 64-bit products of two signed 32-bit words as `mul.wide.s32`
/// (inline PTX, one IMAD.WIDE): `mul i64 %a, %b` whose operands are each a
/// `sext i32`, a `zext i32` of a value known non-negative or a constant that
/// fits in 32 bits (then an immediate). NVPTX's instruction selection forms
/// `mul.wide.s32` only when both operands are sign extensions as it sees
/// them, and it sees neither a program id's extension (its range makes it a
/// zero extension) nor a kernel parameter's (folded into a sign-extending
/// `ld.param.s32`): `pid * stride` was a `mul.lo.s64` (three or four SASS
/// instructions) after a conversion. Only in functions without loops, as
/// ChainStridedProductsPass (with it in matmul prologues too, the sweep's
/// 128x128x32 w4 s4 fell to 0.92x Triton: ptxas scheduled the unchanged
/// loop differently; bench/RESULTS.md, session 24). The pipeline's last
/// pass: nothing after it would fold the inline PTX.
struct WidenProductsOfWordsPass
    : llvm::PassInfoMixin<WidenProductsOfWordsPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &);
};

} // namespace tilec::detail

#endif // TILEC_LIB_TARGET_INDEXARITHMETIC_H
