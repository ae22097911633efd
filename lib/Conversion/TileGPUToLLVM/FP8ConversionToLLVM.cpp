//===- FP8ConversionToLLVM.cpp - fp8 <-> wider float conversions ---------===//
//
// `arith.extf`/`fptosi`/`fptoui` from and `arith.truncf`/`sitofp`/`uitofp`
// to the fp8 types (f8E4M3FN, f8E5M2) on scalars (the elementwise lowering
// splits blocks into per-register scalar ops first; canonicalization may
// fold an integer's `.to()` through f32 into one sitofp). fp8 values live
// in i8 registers. On sm_89 and newer PTX converts them:
//   fp8 -> f16:  `cvt.rn.f16x2.{e4m3x2,e5m2x2}` (exact), then f16 -> the
//                target type (exact: every fp8 value is an f16 and a bf16;
//                integers through f32);
//   x -> fp8:    x -> f32 (exact but for f64 and large integers), then
//                `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`: round to nearest
//                even, beyond the largest finite value (and infinity) gives
//                the largest finite value, NaN gives 0x7F.
// Older targets (sm_80..sm_87) have no fp8 conversions: integer operations
// compute the same bits (an e5m2 byte is the high byte of an f16; an e4m3
// byte shifted into an f16 is its value times 2^-8; to fp8, the f32 bits are
// rounded to nearest even in the normal range and the value is scaled and
// rounded to an integer in the subnormal one, then saturated). Any other
// arith or math op on fp8 values is an error (verifyFP8OnlyConverted).
//
//===----------------------------------------------------------------------===//

#include "FP8Conversion.h"
#include "InlineAsm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The PTX name of an fp8 type ("e4m3"), or empty for other types.
StringRef getPtxFP8Name(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return "e4m3";
  if (isa<Float8E5M2Type>(type))
    return "e5m2";
  return "";
}

/// Converts the float \p value to \p type with fpext/fptrunc (exact where
/// the lowering uses it).
Value convertFloat(OpBuilder &builder, Location loc, Value value, Type type) {
  unsigned from = value.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (value.getType() == type)
    return value;
  if (from == to) { // bf16 <-> f16: through f32.
    value = LLVM::FPExtOp::create(builder, loc, builder.getF32Type(), value);
    from = 32;
  }
  if (from < to)
    return LLVM::FPExtOp::create(builder, loc, type, value);
  return LLVM::FPTruncOp::create(builder, loc, type, value);
}

/// The constant \p value of integer type \p type.
Value intConstant(OpBuilder &builder, Location loc, Type type, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, type,
                                  builder.getIntegerAttr(type, value));
}

/// The value of the fp8 register \p byte (i8), exactly: an f16 with the
/// hardware conversion, an f32 without it (\p hasCvt false).
Value fp8ToFloat(OpBuilder &builder, Location loc, Value byte, StringRef fp8,
                 bool hasCvt) {
  Type i16 = builder.getI16Type(), f16 = builder.getF16Type();
  Type f32 = builder.getF32Type();
  Value wide = LLVM::ZExtOp::create(builder, loc, i16, byte);
  if (hasCvt) {
    std::string text = ("{ .reg .b32 t; .reg .b16 hi;\n\tcvt.rn.f16x2." + fp8 +
                        "x2 t, $1;\n\tmov.b32 {$0, hi}, t; }")
                           .str();
    Value half = createInlineAsm(builder, loc, i16, {wide}, text, "=h,h",
                                 /*hasSideEffects=*/false)
                     .getResult(0);
    return LLVM::BitcastOp::create(builder, loc, f16, half);
  }
  auto c16 = [&](int64_t v) { return intConstant(builder, loc, i16, v); };
  if (fp8 == "e5m2") { // The high byte of an f16.
    Value bits = LLVM::ShlOp::create(builder, loc, wide, c16(8));
    Value half = LLVM::BitcastOp::create(builder, loc, f16, bits);
    return LLVM::FPExtOp::create(builder, loc, f32, half);
  }
  // e4m3: its 7 magnitude bits at the top of an f16's are its value times
  // 2^-8 (normal and subnormal alike); 0x7F is NaN.
  Value magnitude = LLVM::AndOp::create(builder, loc, wide, c16(0x7F));
  Value sign = LLVM::AndOp::create(builder, loc, wide, c16(0x80));
  Value bits = LLVM::OrOp::create(
      builder, loc, LLVM::ShlOp::create(builder, loc, magnitude, c16(7)),
      LLVM::ShlOp::create(builder, loc, sign, c16(8)));
  Value value = LLVM::FPExtOp::create(
      builder, loc, f32, LLVM::BitcastOp::create(builder, loc, f16, bits));
  value = LLVM::FMulOp::create(
      builder, loc, value,
      LLVM::ConstantOp::create(builder, loc, f32,
                               builder.getF32FloatAttr(256.0f)));
  Value isNaN = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                     magnitude, c16(0x7F));
  Value nan = LLVM::ConstantOp::create(
      builder, loc, f32,
      builder.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
  return LLVM::SelectOp::create(builder, loc, isNaN, nan, value);
}

/// The fp8 register (i8) of the f32 \p value, rounded to nearest even and
/// saturated; with the hardware conversion or (\p hasCvt false) integer
/// operations that give the same bits.
Value f32ToFP8(OpBuilder &builder, Location loc, Value value, StringRef fp8,
               bool hasCvt) {
  Type i8 = builder.getI8Type(), i32 = builder.getI32Type();
  Type f32 = builder.getF32Type();
  if (hasCvt) {
    // The pair's low byte converts the second source operand.
    std::string text = ("cvt.rn.satfinite." + fp8 + "x2.f32 $0, $1, $1;").str();
    Value pair = createInlineAsm(builder, loc, builder.getI16Type(), {value},
                                 text, "=h,f", /*hasSideEffects=*/false)
                     .getResult(0);
    return LLVM::TruncOp::create(builder, loc, i8, pair);
  }
  bool e4m3 = fp8 == "e4m3";
  int64_t mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int64_t maxFinite = e4m3 ? 0x7E : 0x7B, shift = 23 - mantissaBits;
  auto c32 = [&](int64_t v) { return intConstant(builder, loc, i32, v); };
  auto ult = [&](Value a, Value b) {
    return LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult, a, b);
  };
  Value bits = LLVM::BitcastOp::create(builder, loc, i32, value);
  Value magnitude = LLVM::AndOp::create(builder, loc, bits, c32(0x7FFFFFFF));
  Value sign = LLVM::AndOp::create(
      builder, loc, LLVM::LShrOp::create(builder, loc, bits, c32(24)),
      c32(0x80));
  // Normal range: round the f32 mantissa to nearest even, then rebias.
  Value odd = LLVM::AndOp::create(
      builder, loc, LLVM::LShrOp::create(builder, loc, magnitude, c32(shift)),
      c32(1));
  Value rounded = LLVM::AddOp::create(
      builder, loc,
      LLVM::AddOp::create(builder, loc, magnitude,
                          c32((int64_t(1) << (shift - 1)) - 1)),
      odd);
  Value normal = LLVM::SubOp::create(
      builder, loc, LLVM::LShrOp::create(builder, loc, rounded, c32(shift)),
      c32((127 - bias) << mantissaBits));
  // Subnormal range: the value in units of the smallest subnormal, rounded.
  Value scaled = LLVM::FMulOp::create(
      builder, loc, LLVM::BitcastOp::create(builder, loc, f32, magnitude),
      LLVM::ConstantOp::create(
          builder, loc, f32,
          builder.getF32FloatAttr(std::ldexp(1.0f, bias - 1 + mantissaBits))));
  Value subnormal = LLVM::FPToUIOp::create(
      builder, loc, i32, LLVM::RoundEvenOp::create(builder, loc, f32, scaled));
  Value code = LLVM::SelectOp::create(
      builder, loc, ult(magnitude, c32((128 - bias) << 23)), subnormal, normal);
  code = LLVM::SelectOp::create(builder, loc, ult(c32(maxFinite), code),
                                c32(maxFinite), code);
  code = LLVM::OrOp::create(builder, loc, code, sign);
  code = LLVM::SelectOp::create(builder, loc, ult(c32(0x7F800000), magnitude),
                                c32(0x7F), code);
  return LLVM::TruncOp::create(builder, loc, i8, code);
}

/// A conversion pattern of `Op` from or to an fp8 type, on targets with
/// (`hasCvt`) or without PTX's fp8 cvt.
template <typename Op> struct FP8ConversionPattern : OpConversionPattern<Op> {
  FP8ConversionPattern(const TypeConverter &converter, MLIRContext *context,
                       bool hasCvt)
      : OpConversionPattern<Op>(converter, context, /*benefit=*/5),
        hasCvt(hasCvt) {}

  bool hasCvt;
};

/// A conversion from an fp8 type: to a float (`arith.extf`, exact) or an
/// integer (`arith.fptosi`/`fptoui`, through f32, which holds every fp8
/// value).
template <typename Op> struct FromFP8Conversion : FP8ConversionPattern<Op> {
  using FP8ConversionPattern<Op>::FP8ConversionPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef fp8 = getPtxFP8Name(op.getIn().getType());
    if (fp8.empty() || isa<ShapedType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    Value value = fp8ToFloat(rewriter, loc, adaptor.getIn(), fp8, this->hasCvt);
    if constexpr (std::is_same_v<Op, arith::ExtFOp>) {
      rewriter.replaceOp(op, convertFloat(rewriter, loc, value, op.getType()));
    } else {
      Value wide = convertFloat(rewriter, loc, value, rewriter.getF32Type());
      if constexpr (std::is_same_v<Op, arith::FPToSIOp>)
        rewriter.replaceOpWithNewOp<LLVM::FPToSIOp>(op, op.getType(), wide);
      else
        rewriter.replaceOpWithNewOp<LLVM::FPToUIOp>(op, op.getType(), wide);
    }
    return success();
  }
};

/// A conversion to an fp8 type: from a float (`arith.truncf`; to f32 first,
/// exact but for f64) or an integer (`arith.sitofp`/`uitofp`, through f32:
/// an integer that f32 rounds is beyond every fp8 range and saturates).
template <typename Op> struct ToFP8Conversion : FP8ConversionPattern<Op> {
  using FP8ConversionPattern<Op>::FP8ConversionPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef fp8 = getPtxFP8Name(op.getType());
    if (fp8.empty() || isa<ShapedType>(op.getIn().getType()))
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value wide;
    if constexpr (std::is_same_v<Op, arith::TruncFOp>)
      wide = convertFloat(rewriter, loc, adaptor.getIn(), f32);
    else if constexpr (std::is_same_v<Op, arith::SIToFPOp>)
      wide = LLVM::SIToFPOp::create(rewriter, loc, f32, adaptor.getIn());
    else
      wide = LLVM::UIToFPOp::create(rewriter, loc, f32, adaptor.getIn());
    rewriter.replaceOp(op, f32ToFP8(rewriter, loc, wide, fp8, this->hasCvt));
    return success();
  }
};
} // namespace

LogicalResult mlir::tilegpu::verifyFP8OnlyConverted(ModuleOp module) {
  auto isFP8 = [](Type type) {
    return isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(type));
  };
  bool ok = true;
  module.walk([&](Operation *op) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::FPToSIOp, arith::FPToUIOp,
            arith::SIToFPOp, arith::UIToFPOp, arith::SelectOp,
            arith::ConstantOp>(op))
      return;
    if (llvm::none_of(op->getOperandTypes(), isFP8) &&
        llvm::none_of(op->getResultTypes(), isFP8))
      return;
    op->emitOpError() << "on fp8 values is not supported: fp8 is a storage "
                         "type; convert them with arith.extf first";
    ok = false;
  });
  return success(ok);
}

void mlir::tilegpu::populateFP8ConversionToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability) {
  // sm_89 has cvt to and from fp8; an unknown target (0) is taken to be new.
  bool hasCvt = computeCapability == 0 || computeCapability >= 89;
  patterns
      .add<FromFP8Conversion<arith::ExtFOp>, FromFP8Conversion<arith::FPToSIOp>,
           FromFP8Conversion<arith::FPToUIOp>, ToFP8Conversion<arith::TruncFOp>,
           ToFP8Conversion<arith::SIToFPOp>, ToFP8Conversion<arith::UIToFPOp>>(
          converter, patterns.getContext(), hasCvt);
}
