//===- DivideByScalar.cpp - The tile-divide-by-scalar pass ----------------===//
//
// `x / splat(s)` on f32 tiles becomes `(x * splat(1 / (s * c))) * splat(c)`
// with a power of two c that keeps `s * c` and its reciprocal normal. See
// the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Support/CompileOptions.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/Debug.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEDIVIDEBYSCALAR
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

#define DEBUG_TYPE "tile-divide-by-scalar"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// The scalar f32 that `divisor` splats, if it is one.
Value getSplattedScalar(Value divisor) {
  auto splat = divisor.getDefiningOp<SplatOp>();
  if (!splat || !splat.getSrc().getType().isF32())
    return nullptr;
  return splat.getSrc();
}

/// Elements per thread from which the selects and the reciprocal (about 7
/// instructions, once) and the second multiply per element cost less than
/// the divisions they save (a `div.full.f32` is several instructions).
constexpr int64_t kMinElementsPerThread = 4;

/// Whether `div` divides a large enough f32 tile by a splat scalar.
bool isCandidate(arith::DivFOp div, int64_t numThreads) {
  // A division rounded as IEEE asks stays one.
  if (div->hasAttr(tile::kIeeeRoundingAttrName))
    return false;
  auto type = dyn_cast<RankedTensorType>(div.getType());
  if (!type || !type.getElementType().isF32() ||
      !getSplattedScalar(div.getRhs()))
    return false;
  return type.getNumElements() >= kMinElementsPerThread * numThreads;
}

void rewrite(arith::DivFOp div) {
  OpBuilder builder(div);
  Location loc = div.getLoc();
  Value scalar = getSplattedScalar(div.getRhs());
  auto f32 = builder.getF32Type();
  auto constant = [&](float value) {
    return arith::ConstantOp::create(builder, loc, f32,
                                     builder.getF32FloatAttr(value));
  };
  // A power of two that brings s into [2^-126, 2^126], where s and 1/s are
  // both normal: 2^24 for a subnormal s (or zero), 1/4 above 2^126 (or
  // infinite), 1 otherwise (NaN included). Exact, and uniform: no branch.
  Value magnitude = math::AbsFOp::create(builder, loc, scalar);
  Value tiny = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OLT,
                                     magnitude, constant(0x1p-126f));
  Value huge = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGT,
                                     magnitude, constant(0x1p126f));
  Value bigScale = arith::SelectOp::create(builder, loc, huge,
                                           constant(0x1p-2f), constant(1.0f));
  Value scale =
      arith::SelectOp::create(builder, loc, tiny, constant(0x1p24f), bigScale);
  Value scaled = arith::MulFOp::create(builder, loc, scalar, scale);
  auto reciprocal = arith::DivFOp::create(builder, loc, constant(1.0f), scaled);
  reciprocal->setAttr(kNormalReciprocalAttrName, builder.getUnitAttr());

  // x / s = (x * (1 / (s * scale))) * scale. The first product cannot
  // overflow or underflow where the quotient does not (|x * r| is |x / s|
  // times 2^-24, or times 4 where |s| > 2^126); the second is exact.
  Type type = div.getType();
  Value product = arith::MulFOp::create(
      builder, loc, div.getLhs(),
      SplatOp::create(builder, loc, type, reciprocal), div.getFastmathAttr());
  Value quotient = arith::MulFOp::create(
      builder, loc, product, SplatOp::create(builder, loc, type, scale),
      div.getFastmathAttr());
  div.replaceAllUsesWith(quotient);
  div.erase();
}

struct TileDivideByScalarPass
    : mlir::tile::impl::TileDivideByScalarBase<TileDivideByScalarPass> {
  void runOnOperation() override {
    getOperation()->walk([&](func::FuncOp func) {
      int64_t numWarps = tilec::CompileOptions::kDefaultNumWarps;
      if (auto attr = func->getAttrOfType<IntegerAttr>(kNumWarpsAttrName))
        numWarps = attr.getInt();
      SmallVector<arith::DivFOp> candidates;
      func.walk([&](arith::DivFOp div) {
        if (isCandidate(div, 32 * numWarps))
          candidates.push_back(div);
      });
      LLVM_DEBUG(llvm::dbgs()
                 << "@" << func.getName() << ": " << candidates.size()
                 << " divisions by a splat scalar (" << numWarps
                 << " warps)\n");
      for (arith::DivFOp div : candidates)
        rewrite(div);
      numDivisionsRewritten += candidates.size();
    });
  }
};
} // namespace
