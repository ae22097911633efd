//===- FP8ConversionToLLVM.cpp - fp8 <-> wider float conversions ---------===//
//
// `arith.extf`/`fptosi`/`fptoui` from and `arith.truncf`/`sitofp`/`uitofp`
// to the fp8 types (f8E4M3FN, f8E5M2) on scalars (the elementwise lowering
// splits blocks into per-register scalar ops first; canonicalization may
// fold an integer's `.to()` through f32 into one sitofp). fp8 values live
// in i8 registers. PTX converts fp8 only on sm_89 and newer:
//   fp8 -> f16:  `cvt.rn.f16x2.{e4m3x2,e5m2x2}` (exact), then f16 -> the
//                target type (exact: every fp8 value is an f16 and a bf16;
//                integers through f32);
//   x -> fp8:    x -> f32 (exact but for f64 and large integers), then
//                `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`: round to nearest
//                even, beyond the largest finite value (and infinity) gives
//                the largest finite value, NaN gives NaN.
// On older targets checkFP8Conversions reports each conversion as an error
// that names the target, before the conversion runs (the interpreter has no
// such limit).
//
//===----------------------------------------------------------------------===//

#include "FP8Conversion.h"
#include "InlineAsm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

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

/// The f16 value of the fp8 register \p byte (i8; exact).
Value fp8ToHalf(OpBuilder &builder, Location loc, Value byte, StringRef fp8) {
  Value wide = LLVM::ZExtOp::create(builder, loc, builder.getI16Type(), byte);
  std::string text = ("{ .reg .b32 t; .reg .b16 hi;\n\tcvt.rn.f16x2." + fp8 +
                      "x2 t, $1;\n\tmov.b32 {$0, hi}, t; }")
                         .str();
  Value half = createInlineAsm(builder, loc, builder.getI16Type(), {wide}, text,
                               "=h,h", /*hasSideEffects=*/false)
                   .getResult(0);
  return LLVM::BitcastOp::create(builder, loc, builder.getF16Type(), half);
}

/// The fp8 register (i8) of the f32 \p value, rounded and saturated.
Value f32ToFP8(OpBuilder &builder, Location loc, Value value, StringRef fp8) {
  // The pair's low byte converts the second source operand.
  std::string text = ("cvt.rn.satfinite." + fp8 + "x2.f32 $0, $1, $1;").str();
  Value pair = createInlineAsm(builder, loc, builder.getI16Type(), {value},
                               text, "=h,f", /*hasSideEffects=*/false)
                   .getResult(0);
  return LLVM::TruncOp::create(builder, loc, builder.getI8Type(), pair);
}

/// A conversion from an fp8 type: to a float (`arith.extf`, exact) or an
/// integer (`arith.fptosi`/`fptoui`, through f32, which holds every fp8
/// value).
template <typename Op> struct FromFP8Conversion : OpConversionPattern<Op> {
  FromFP8Conversion(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<Op>(converter, context, /*benefit=*/5) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef fp8 = getPtxFP8Name(op.getIn().getType());
    if (fp8.empty() || isa<ShapedType>(op.getType()))
      return failure();
    Location loc = op.getLoc();
    Value half = fp8ToHalf(rewriter, loc, adaptor.getIn(), fp8);
    if constexpr (std::is_same_v<Op, arith::ExtFOp>) {
      rewriter.replaceOp(op, convertFloat(rewriter, loc, half, op.getType()));
    } else {
      Value wide =
          LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), half);
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
template <typename Op> struct ToFP8Conversion : OpConversionPattern<Op> {
  ToFP8Conversion(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<Op>(converter, context, /*benefit=*/5) {}

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
    rewriter.replaceOp(op, f32ToFP8(rewriter, loc, wide, fp8));
    return success();
  }
};
} // namespace

LogicalResult mlir::tilegpu::checkFP8Conversions(ModuleOp module,
                                                 unsigned computeCapability) {
  if (computeCapability == 0 || computeCapability >= 89)
    return success();
  bool found = false;
  module.walk([&](Operation *op) {
    if (!isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
             arith::FPToSIOp, arith::FPToUIOp>(op))
      return;
    Type from = getElementTypeOrSelf(op->getOperand(0).getType());
    Type to = getElementTypeOrSelf(op->getResult(0).getType());
    bool fromFP8 = !getPtxFP8Name(from).empty();
    Type fp8 = fromFP8 ? from : to;
    if (getPtxFP8Name(fp8).empty())
      return;
    op->emitError() << "converting " << (fromFP8 ? "from " : "to ")
                    << (isa<Float8E4M3FNType>(fp8) ? "f8e4m3" : "f8e5m2")
                    << " needs sm_89 or newer (earlier GPUs have no fp8 "
                       "conversions); the target is sm_"
                    << computeCapability;
    found = true;
  });
  return failure(found);
}

void mlir::tilegpu::populateFP8ConversionToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<FromFP8Conversion<arith::ExtFOp>, FromFP8Conversion<arith::FPToSIOp>,
           FromFP8Conversion<arith::FPToUIOp>, ToFP8Conversion<arith::TruncFOp>,
           ToFP8Conversion<arith::SIToFPOp>, ToFP8Conversion<arith::UIToFPOp>>(
          converter, patterns.getContext());
}
