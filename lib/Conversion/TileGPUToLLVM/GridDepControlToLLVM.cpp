//===- GridDepControlToLLVM.cpp - Programmatic dependent launch -----------===//
//
// `tile.gdc_wait` and `tile.gdc_launch_dependents` become PTX's
// `griddepcontrol.wait` / `griddepcontrol.launch_dependents` on sm_90 and
// later. Earlier targets have no dependent launch: stream order already
// makes the wait hold and there is nothing to signal, so they vanish.
//
//===----------------------------------------------------------------------===//

#include "InlineAsm.h"
#include "Patterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
template <typename OpTy>
struct GridDepControlConversion : OpConversionPattern<OpTy> {
  GridDepControlConversion(const TileGPUToLLVMTypeConverter &converter,
                           MLIRContext *context, unsigned computeCapability,
                           StringRef ptx)
      : OpConversionPattern<OpTy>(converter, context),
        computeCapability(computeCapability), ptx(ptx) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // 0: the target is unknown (tile-opt without one); emit the PTX.
    if (computeCapability == 0 || computeCapability >= 90)
      createInlineAsm(rewriter, op.getLoc(), Type(), {}, ptx, "",
                      /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }

  unsigned computeCapability;
  StringRef ptx;
};
} // namespace

void mlir::tilegpu::populateGridDepControlToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability) {
  MLIRContext *context = patterns.getContext();
  patterns.add<GridDepControlConversion<tile::GridDepWaitOp>>(
      converter, context, computeCapability, "griddepcontrol.wait;");
  patterns.add<GridDepControlConversion<tile::GridDepLaunchDependentsOp>>(
      converter, context, computeCapability,
      "griddepcontrol.launch_dependents;");
}
