//===- ElementwiseOpToLLVM.cpp - Elementwise ops on blocks to LLVM --------===//
//
// An `arith` or `math` op on blocks becomes the same op on each register
// (the scalar op is then lowered by the upstream arith/math patterns); a
// splat constant block becomes its scalar in every register; pointer casts
// and bitcasts apply per register.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Any single-result arith/math op whose result is a laid-out block.
struct ElementwiseOpConversion : ConversionPattern {
  ElementwiseOpConversion(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !tilegpu::hasRegisterLayout(type.getEncoding()))
      return failure();
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType)
      return failure();
    Location loc = op->getLoc();
    unsigned numRegisters = tilegpu::getNumRegisters(type);
    SmallVector<SmallVector<Value>> unpacked;
    for (auto [original, converted] : llvm::zip(op->getOperands(), operands)) {
      SmallVector<Value> registers = unpackRegisters(rewriter, loc, converted);
      if (!isa<RankedTensorType>(original.getType()))
        registers.assign(numRegisters, converted);
      if (registers.size() != numRegisters)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
      unpacked.push_back(std::move(registers));
    }
    SmallVector<Value> results;
    for (unsigned i = 0; i < numRegisters; ++i) {
      OperationState state(loc, op->getName());
      for (auto &registers : unpacked)
        state.addOperands(registers[i]);
      state.addTypes(type.getElementType());
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, results, resultType));
    return success();
  }
};

/// A splat constant block: the scalar constant in every register.
struct SplatConstantOpConversion : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type || !tilegpu::hasRegisterLayout(type.getEncoding()))
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return rewriter.notifyMatchFailure(op, "only splat constants");
    Type elementType = type.getElementType();
    Value scalar = LLVM::ConstantOp::create(
        rewriter, op.getLoc(), elementType,
        cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    SmallVector<Value> registers(tilegpu::getNumRegisters(type), scalar);
    rewriter.replaceOp(op,
                       packRegisters(rewriter, op.getLoc(), registers,
                                     getTypeConverter()->convertType(type)));
    return success();
  }
};

/// `a / b` on f32 scalars: `div.full.f32` (at most 2 ulp), as Triton divides
/// by default; the IEEE-rounded division is several times longer. A
/// division marked `tile.ieee` (the reciprocal of tile-divide-by-scalar)
/// is left to the upstream lowering: `div.rn.f32`.
struct FastF32DivConversion : OpConversionPattern<arith::DivFOp> {
  FastF32DivConversion(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/5) {}
  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32() || op->hasAttr(tile::kIEEEDivAttrName))
      return failure();
    auto asmOp = createInlineAsm(rewriter, op.getLoc(), rewriter.getF32Type(),
                                 ValueRange{adaptor.getLhs(), adaptor.getRhs()},
                                 "div.full.f32 $0, $1, $2;", "=f,f,f",
                                 /*hasSideEffects=*/false);
    rewriter.replaceOp(op, asmOp.getResult(0));
    return success();
  }
};

/// `exp(x)` on f32 in 6 instructions (libdevice's `__nv_expf` takes about
/// 10): 2^hi * e^r with hi = x * log2(e) rounded, whose rounding error
/// r = x - hi * ln2 two fmas recover exactly enough (ln2 split in two f32s),
/// so that e^r = 1 + r (|r| < 2^-17, r^2 / 2 far below an ulp):
///   hi = x * L;  r = fma(-hi, LN2_HI, x);  r = fma(-hi, LN2_LO, r)
///   result = fma(ex2.approx(hi), r, ex2.approx(hi))
/// ex2.approx.ftz.f32 gives 0, inf and NaN for hi = -inf, +inf, NaN; r is
/// then NaN, and min(r, 0.5) (PTX min returns the other operand of a NaN)
/// turns it into 0.5, which keeps 0 * 0.5 + 0 = 0 and inf * 0.5 + inf = inf.
/// Results below 2^-126 (x < -87.34) flush to 0: the subnormal-preserving
/// ex2.approx.f32 costs ptxas a range check and a rescale per element and
/// more registers (70 instead of 62 in the 16-warp softmax of 16384
/// columns, which then fits one block per SM instead of two). The error is
/// ex2.approx's plus one rounding; Triton's `ex2.approx(x * log2(e))` adds
/// up to |x| / 2 ulp (its rounding of the product goes into the exponent).
struct FastF32ExpConversion : OpConversionPattern<math::ExpOp> {
  FastF32ExpConversion(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/12) {}
  LogicalResult
  matchAndRewrite(math::ExpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto constant = [&](float value) {
      return LLVM::ConstantOp::create(rewriter, loc, f32,
                                      rewriter.getF32FloatAttr(value));
    };
    Value x = adaptor.getOperand();
    Value hi = LLVM::FMulOp::create(rewriter, loc, x,
                                    constant(1.44269502162933349609375f));
    Value minusHi = LLVM::FNegOp::create(rewriter, loc, hi);
    Value r = LLVM::FMAOp::create(rewriter, loc, minusHi,
                                  constant(0.693147182464599609375f), x);
    r = LLVM::FMAOp::create(rewriter, loc, minusHi,
                            constant(-1.9046542121259336e-09f), r);
    r = LLVM::MinNumOp::create(rewriter, loc, r, constant(0.5f));
    Value power = createInlineAsm(rewriter, loc, f32, ValueRange{hi},
                                  "ex2.approx.ftz.f32 $0, $1;", "=f,f",
                                  /*hasSideEffects=*/false)
                      .getResult(0);
    rewriter.replaceOp(op, LLVM::FMAOp::create(rewriter, loc, power, r, power));
    return success();
  }
};

/// An op applied to each register with a converted result element type.
template <typename SourceOp, typename LLVMOp>
struct PerRegisterCastConversion : OpConversionPattern<SourceOp> {
  using OpConversionPattern<SourceOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto *converter = static_cast<const TileGPUToLLVMTypeConverter *>(
        this->getTypeConverter());
    Type resultType = converter->convertType(op.getType());
    Type elementType =
        converter->convertElementType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !elementType)
      return failure();
    SmallVector<Value> results;
    for (Value value : unpackRegisters(rewriter, loc, adaptor.getSrc())) {
      if (value.getType() == elementType)
        results.push_back(value);
      else
        results.push_back(LLVMOp::create(rewriter, loc, elementType, value));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, results, resultType));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateElementwiseOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ElementwiseOpConversion>(converter, context);
  patterns.add<SplatConstantOpConversion>(converter, context,
                                          /*benefit=*/11);
  patterns.add<FastF32DivConversion, FastF32ExpConversion>(converter, context);
  patterns.add<PerRegisterCastConversion<tile::PtrToIntOp, LLVM::PtrToIntOp>,
               PerRegisterCastConversion<tile::IntToPtrOp, LLVM::IntToPtrOp>,
               PerRegisterCastConversion<tile::BitcastOp, LLVM::BitcastOp>>(
      converter, context);
}
