//===- DivideByScalar.cpp - The tile-divide-by-scalar pass ----------------===//
//
// `x / splat(s)` on f32 tiles becomes `x * splat(1 / s)` under a uniform
// check that `s` and `1 / s` are normal floats; the division stays in the
// other branch. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEDIVIDEBYSCALAR
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Threads per program when the kernel does not say (the language default).
constexpr int64_t kDefaultNumWarps = 4;

/// The scalar f32 that `divisor` splats, if it is one.
Value getSplattedScalar(Value divisor) {
  auto splat = divisor.getDefiningOp<SplatOp>();
  if (!splat || !splat.getSrc().getType().isF32())
    return nullptr;
  return splat.getSrc();
}

/// Elements per thread from which the branch and the reciprocal (about 6
/// instructions and a branch, once) cost less than the divisions they save
/// (a `div.full.f32` is several instructions more than a multiply).
constexpr int64_t kMinElementsPerThread = 4;

/// Whether `div` divides a large enough f32 tile by a splat scalar.
bool isCandidate(arith::DivFOp div, int64_t numThreads) {
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
  // 2^-126 <= |s| <= 2^126: s and 1/s are normal. False for NaN.
  Value magnitude = math::AbsFOp::create(builder, loc, scalar);
  Value notTiny = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OGE,
                                        magnitude, constant(0x1p-126f));
  Value notHuge = arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OLE,
                                        magnitude, constant(0x1p126f));
  Value normal = arith::AndIOp::create(builder, loc, notTiny, notHuge);
  Type type = div.getType();
  auto branch = scf::IfOp::create(builder, loc, type, normal,
                                  /*withElseRegion=*/true);

  builder.setInsertionPointToStart(branch.thenBlock());
  auto reciprocal = arith::DivFOp::create(builder, loc, constant(1.0f), scalar);
  reciprocal->setAttr(kNormalReciprocalAttrName, builder.getUnitAttr());
  Value splat = SplatOp::create(builder, loc, type, reciprocal);
  Value product = arith::MulFOp::create(builder, loc, div.getLhs(), splat,
                                        div.getFastmathAttr());
  scf::YieldOp::create(builder, loc, product);

  builder.setInsertionPointToStart(branch.elseBlock());
  Operation *fallback = builder.clone(*div);
  scf::YieldOp::create(builder, loc, fallback->getResult(0));

  div.replaceAllUsesWith(branch.getResult(0));
  div.erase();
}

struct TileDivideByScalarPass
    : mlir::tile::impl::TileDivideByScalarBase<TileDivideByScalarPass> {
  void runOnOperation() override {
    getOperation()->walk([&](func::FuncOp func) {
      int64_t numWarps = kDefaultNumWarps;
      if (auto attr = func->getAttrOfType<IntegerAttr>(kNumWarpsAttrName))
        numWarps = attr.getInt();
      SmallVector<arith::DivFOp> candidates;
      func.walk([&](arith::DivFOp div) {
        if (isCandidate(div, 32 * numWarps))
          candidates.push_back(div);
      });
      for (arith::DivFOp div : candidates)
        rewrite(div);
      numDivisionsRewritten += candidates.size();
    });
  }
};
} // namespace
