//===- AccelerateMatmul.cpp - tilegpu-accelerate-matmul -------------------===//
//
// Moves dots that tensor cores can compute onto mma.sync layouts: the
// accumulator gets an #mma layout, the operands #dot_op layouts, and
// conversions connect them to the surrounding blocked layouts.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUACCELERATEMATMUL
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Splits `numWarps` over an [M, N] accumulator in 16 x 8 tiles, doubling
/// the side whose per-warp extent is larger.
std::pair<unsigned, unsigned> chooseWarps(int64_t m, int64_t n,
                                          unsigned numWarps) {
  unsigned wm = 1, wn = 1;
  while (wm * wn < numWarps) {
    bool canM = m / (16 * wm * 2) >= 1, canN = n / (8 * wn * 2) >= 1;
    if (canM && (m / wm >= n / wn || !canN))
      wm *= 2;
    else if (canN)
      wn *= 2;
    else
      wm *= 2; // More warps than tiles: duplicates.
  }
  return {wm, wn};
}

struct AccelerateMatmulPass
    : mlir::tilegpu::impl::TileGPUAccelerateMatmulBase<AccelerateMatmulPass> {
  using TileGPUAccelerateMatmulBase::TileGPUAccelerateMatmulBase;

  void runOnOperation() override {
    if (computeCapability < 80)
      return;
    ModuleOp module = getOperation();
    unsigned numWarps = getNumWarps(module);
    MLIRContext *context = &getContext();
    module.walk([&](tile::DotOp dot) {
      RankedTensorType aType = dot.getA().getType();
      RankedTensorType bType = dot.getB().getType();
      RankedTensorType cType = dot.getType();
      if (isa_and_nonnull<MmaEncodingAttr>(cType.getEncoding()))
        return;
      Type element = aType.getElementType();
      unsigned kWidth;
      if (element.isF16() || element.isBF16())
        kWidth = 2;
      else if (element.isF32() &&
               dot.getInputPrecision() == tile::InputPrecision::TF32)
        kWidth = 1;
      else
        return;
      int64_t m = cType.getDimSize(0), n = cType.getDimSize(1);
      int64_t k = aType.getDimSize(1);
      if (m % 16 || n % 8 || k % (8 * kWidth))
        return;
      auto [wm, wn] = chooseWarps(m, n, numWarps);
      auto mma = MmaEncodingAttr::get(context, 2, {wm, wn}, {16, 8});
      auto aLayout = DotOperandEncodingAttr::get(context, 0, mma, kWidth);
      auto bLayout = DotOperandEncodingAttr::get(context, 1, mma, kWidth);
      OpBuilder builder(dot);
      Location loc = dot.getLoc();
      auto convert = [&](Value value, Attribute layout) -> Value {
        auto type = cast<RankedTensorType>(value.getType());
        return ConvertLayoutOp::create(builder, loc, withLayout(type, layout),
                                       value);
      };
      Value a = convert(dot.getA(), aLayout);
      Value b = convert(dot.getB(), bLayout);
      Value c = convert(dot.getAcc(), mma);
      auto mmaDot = tile::DotOp::create(builder, loc, withLayout(cType, mma), a,
                                        b, c, dot.getInputPrecision());
      Value result = ConvertLayoutOp::create(builder, loc, cType, mmaDot);
      dot.replaceAllUsesWith(result);
      dot.erase();
    });
  }
};
} // namespace
