//===- Combine.cpp - The tile-combine pass --------------------------------===//
//
// Peephole fusions on tile IR: an addition into a dot's zero accumulator
// becomes the accumulator, and chained pointer advances become one.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECOMBINE
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

#define DEBUG_TYPE "tile-combine"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// `addf(dot(a, b, 0), c)` (either operand order) -> `dot(a, b, c)`.
struct FuseAddIntoDot : OpRewritePattern<arith::AddFOp> {
  FuseAddIntoDot(MLIRContext *context, llvm::Statistic &counter)
      : OpRewritePattern(context), counter(counter) {}

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    for (auto [dotOperand, other] : {std::pair{add.getLhs(), add.getRhs()},
                                     std::pair{add.getRhs(), add.getLhs()}}) {
      auto dot = dotOperand.getDefiningOp<DotOp>();
      if (!dot || !dot->hasOneUse())
        continue;
      Attribute acc;
      if (!matchPattern(dot.getAcc(), m_Constant(&acc)) || !isZeroConstant(acc))
        continue;
      if (other.getType() != dot.getType())
        continue;
      LLVM_DEBUG(llvm::dbgs() << "fusing an addition into the dot at "
                              << add.getLoc() << "\n");
      rewriter.replaceOpWithNewOp<DotOp>(add, dot.getType(), dot.getA(),
                                         dot.getB(), other,
                                         dot.getInputPrecision());
      rewriter.eraseOp(dot);
      ++counter;
      return success();
    }
    return rewriter.notifyMatchFailure(add, "no dot with a zero accumulator");
  }

  llvm::Statistic &counter;
};

/// `addptr(addptr(p, a), b)` -> `addptr(p, addi(a, b))` for same-typed
/// offsets.
struct FuseAddPtrChain : OpRewritePattern<AddPtrOp> {
  FuseAddPtrChain(MLIRContext *context, llvm::Statistic &counter)
      : OpRewritePattern(context), counter(counter) {}

  LogicalResult matchAndRewrite(AddPtrOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getPtr().getDefiningOp<AddPtrOp>();
    if (!inner || inner.getOffset().getType() != op.getOffset().getType())
      return rewriter.notifyMatchFailure(op, "no same-typed addptr chain");
    Value sum = arith::AddIOp::create(rewriter, op.getLoc(), inner.getOffset(),
                                      op.getOffset());
    LLVM_DEBUG(llvm::dbgs()
               << "fusing an addptr chain at " << op.getLoc() << "\n");
    rewriter.replaceOpWithNewOp<AddPtrOp>(op, op.getType(), inner.getPtr(),
                                          sum);
    ++counter;
    return success();
  }

  llvm::Statistic &counter;
};

/// The tile-combine pass: applies the fusions above greedily.
struct TileCombinePass : mlir::tile::impl::TileCombineBase<TileCombinePass> {
  using TileCombineBase::TileCombineBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseAddIntoDot>(&getContext(), numDotsFused);
    patterns.add<FuseAddPtrChain>(&getContext(), numAddPtrsFused);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
