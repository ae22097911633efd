//===- ElementwiseOpToLLVM.cpp - Elementwise ops on blocks to LLVM --------===//
//
// An `arith` or `math` op on blocks becomes the same op on each register
// (the scalar op is then lowered by the upstream arith/math patterns or,
// for fp8 conversions, FP8ConversionToLLVM.cpp; an fp8 register is an i8),
// once per run of registers the axis analysis shows equal; a splat constant
// block becomes its scalar in every register (an fp8 one its bits in an
// i8); pointer casts and bitcasts apply per register.
//
//===----------------------------------------------------------------------===//

#include "InlineAsm.h"
#include "Patterns.h"
#include "RegisterPacking.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
bool isFP8(Type type) { return isa<Float8E4M3FNType, Float8E5M2Type>(type); }

/// \p value as \p type (an fp8 value and its i8 register), for the
/// conversion to resolve.
Value castRegister(OpBuilder &builder, Location loc, Value value, Type type) {
  return UnrealizedConversionCastOp::create(builder, loc, type, value)
      .getResult(0);
}

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
      // An fp8 register (i8) is given to the scalar op as the fp8 value.
      Type element = getElementTypeOrSelf(original.getType());
      if (isFP8(element))
        for (Value &reg : registers)
          reg = castRegister(rewriter, loc, reg, element);
      if (registers.size() != numRegisters)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
      unpacked.push_back(std::move(registers));
    }
    // Registers of one run of equal results take the first one's value.
    SmallVector<int32_t> representatives;
    if (auto runs = op->getAttrOfType<DenseI64ArrayAttr>(kConstancyAttrName))
      if (std::optional<LinearLayout> layout = toLinearLayout(type))
        if (layout->getInputSize(layout_dims::kRegister) ==
            int32_t(numRegisters))
          representatives = getRunRepresentatives(*layout, runs.asArrayRef());
    SmallVector<NamedAttribute> attributes;
    for (NamedAttribute attribute : op->getAttrs())
      if (attribute.getName() != kConstancyAttrName)
        attributes.push_back(attribute);
    SmallVector<Value> results;
    for (unsigned i = 0; i < numRegisters; ++i) {
      if (!representatives.empty() && representatives[i] != int32_t(i)) {
        results.push_back(results[representatives[i]]);
        continue;
      }
      OperationState state(loc, op->getName());
      for (auto &registers : unpacked)
        state.addOperands(registers[i]);
      state.addTypes(type.getElementType());
      state.addAttributes(attributes);
      Value result = rewriter.create(state)->getResult(0);
      if (isFP8(result.getType()))
        result =
            castRegister(rewriter, loc, result,
                         getTypeConverter()->convertType(result.getType()));
      results.push_back(result);
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
    auto value = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    // A float LLVM has no type for (fp8) is its bits in an integer.
    Type registerType = getTypeConverter()->convertType(elementType);
    if (auto floatValue = dyn_cast<FloatAttr>(value);
        floatValue && isa<IntegerType>(registerType))
      value = rewriter.getIntegerAttr(registerType,
                                      floatValue.getValue().bitcastToAPInt());
    Value scalar =
        LLVM::ConstantOp::create(rewriter, op.getLoc(), registerType, value);
    SmallVector<Value> registers(tilegpu::getNumRegisters(type), scalar);
    rewriter.replaceOp(op,
                       packRegisters(rewriter, op.getLoc(), registers,
                                     getTypeConverter()->convertType(type)));
    return success();
  }
};

/// `a / b` on f32 scalars: `div.full.f32` (at most 2 ulp), as Triton divides
/// by default; the IEEE-rounded division is several times longer. The
/// reciprocal of tile-divide-by-scalar (`1.0 / s` marked
/// `tile.normal_reciprocal`: s and 1/s are normal) is `rcp.approx.ftz.f32`
/// (1 ulp), so that x * (1/s) is within 1.5 ulp of x / s.
/// (Benefit 5, above the arith patterns.)
struct FastF32DivConversion : OpConversionPattern<arith::DivFOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    SmallVector<Value, 2> operands = {adaptor.getLhs(), adaptor.getRhs()};
    StringRef text = "div.full.f32 $0, $1, $2;", constraints = "=f,f,f";
    if (op->hasAttr(tile::kIeeeRoundingAttrName))
      text = "div.rn.f32 $0, $1, $2;";
    else if (op->hasAttr(tile::kNormalReciprocalAttrName) &&
             matchPattern(op.getLhs(), m_OneFloat())) {
      operands = {adaptor.getRhs()};
      text = "rcp.approx.ftz.f32 $0, $1;";
      constraints = "=f,f";
    }
    auto asmOp = createInlineAsm(rewriter, op.getLoc(), rewriter.getF32Type(),
                                 operands, text, constraints,
                                 /*hasSideEffects=*/false);
    rewriter.replaceOp(op, asmOp.getResult(0));
    return success();
  }
};

/// `ex2.approx.ftz.f32 x`: 2^x on f32 in one instruction (2 ulp), results
/// below 2^-126 flushed to 0. The one emission of it, for exp and exp2.
Value createEx2Ftz(OpBuilder &builder, Location loc, Value x) {
  return createInlineAsm(builder, loc, builder.getF32Type(), ValueRange{x},
                         "ex2.approx.ftz.f32 $0, $1;", "=f,f",
                         /*hasSideEffects=*/false)
      .getResult(0);
}

/// `exp(x)` on f32 in 7 instructions (libdevice's `__nv_expf` takes about
/// 10): 2^hi * e^r with hi = x * L (L = log2(e) in f32) rounded, whose
/// rounding error r = x - hi * ln2 two fmas recover (ln2 split in two f32s),
/// and e^r = 1 + r since |r| < 2^-17 (r^2 / 2 is far below an ulp):
///   xc = maximum(x, -104)                  (NaN-propagating max)
///   hi = min(xc * L, 128 - 2^-17)          (the largest f32 below 128)
///   r = fma(-hi, LN2_HI, x);  r = fma(-hi, LN2_LO, r)
///   result = fma(ex2.approx.ftz(hi), r, ex2.approx.ftz(hi))
/// The clamps keep 2^hi finite, so 0 * r and inf * r never meet: below -104
/// 2^hi is 0 and the result 0 (exp(-inf) = 0); above 88.7228 (and for +inf)
/// r > 0 pushes 2^hi * (1 + r) past the largest float, to inf; a NaN x gives
/// a NaN r. Results below 2^-126 (x < -87.34) flush to 0: the
/// subnormal-preserving ex2.approx.f32 costs ptxas a range check and a
/// rescale per element and more registers (70 instead of 62 in the 16-warp
/// softmax of 16384 columns, which then fits one block per SM instead of
/// two). The error is ex2.approx's plus one rounding; Triton's
/// `ex2.approx(x * log2(e))` adds up to |x| / 2 ulp (its rounding of the
/// product goes into the exponent). (Benefit 12, above the libdevice and
/// elementwise patterns.)
struct FastF32ExpConversion : OpConversionPattern<math::ExpOp> {
  using OpConversionPattern::OpConversionPattern;
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
    Value x = LLVM::MaximumOp::create(rewriter, loc, adaptor.getOperand(),
                                      constant(-104.0f));
    Value hi = LLVM::FMulOp::create(rewriter, loc, x,
                                    constant(1.44269502162933349609375f));
    hi = LLVM::MinNumOp::create(rewriter, loc, hi, constant(0x1.fffffep6f));
    Value minusHi = LLVM::FNegOp::create(rewriter, loc, hi);
    Value r = LLVM::FMAOp::create(rewriter, loc, minusHi,
                                  constant(0.693147182464599609375f), x);
    r = LLVM::FMAOp::create(rewriter, loc, minusHi,
                            constant(-1.9046542121259336e-09f), r);
    Value power = createEx2Ftz(rewriter, loc, hi);
    rewriter.replaceOp(op, LLVM::FMAOp::create(rewriter, loc, power, r, power));
    return success();
  }
};

/// `exp2(x)` on f32 as Triton makes it: one `ex2.approx.ftz.f32` (2 ulp,
/// libdevice's `__nv_exp2f` is the same instruction). Results below 2^-126
/// (x < -126) flush to 0, as `exp`'s: the subnormal-preserving form costs
/// ptxas a range check, a rescale and a multiply per element (in attention's
/// loop, 102 of its 555 SASS instructions). (Benefit 12, above the libdevice
/// and elementwise patterns.)
struct FastF32Exp2Conversion : OpConversionPattern<math::Exp2Op> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::Exp2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOp(
        op, createEx2Ftz(rewriter, op.getLoc(), adaptor.getOperand()));
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
    auto *converter =
        this->template getTypeConverter<TileGPUToLLVMTypeConverter>();
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
  patterns.add<FastF32DivConversion>(converter, context, /*benefit=*/5);
  patterns.add<FastF32ExpConversion, FastF32Exp2Conversion>(converter, context,
                                                            /*benefit=*/12);
  patterns.add<PerRegisterCastConversion<tile::PtrToIntOp, LLVM::PtrToIntOp>,
               PerRegisterCastConversion<tile::IntToPtrOp, LLVM::IntToPtrOp>,
               PerRegisterCastConversion<tile::BitcastOp, LLVM::BitcastOp>>(
      converter, context);
}
