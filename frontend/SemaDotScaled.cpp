//===- SemaDotScaled.cpp - tl.dot_scaled as upcast, scale, dot ------------===//
//
// `tl.dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format,
// acc, fast_math, lhs_k_pack, rhs_k_pack, out_dtype)`: the product of two
// blocks in OCP microscaling formats. Neither sm_80 nor sm_90 multiplies
// these natively, so this is what Triton 3.6 does there too: each operand
// is converted to a 16-bit compute type (fp16 when either format is fp16,
// else bf16), multiplied by its scale broadcast along K (one scale per
// group of K / scale-columns elements; an e8m0 scale is the exponent
// 2^(s - 127), 0xFF is NaN unless fast_math), and the two meet in an
// ordinary dot. Everything is elaborated into the block operations the
// kernel could have written, so the interpreter and both GPU targets run
// it unchanged.
//
// Operand storage, as Triton accepts it: e2m1 packs two values per uint8
// (the first in the low nibble) along K, or along M / N with
// `*_k_pack=False`; e4m3 / e5m2 are fp8 or their uint8 bits; bf16 / fp16
// are themselves or their uint16 bits. Scales are uint8 (e8m0) or fp8
// e4m3, shaped [M, K / group] for lhs and [N, K / group] for rhs.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include <cmath>

namespace tilec::sema {
namespace {
/// One operand of dot_scaled while it is checked and upcast.
struct ScaledOperand {
  const char *side; // "lhs" / "rhs"
  Value value, scale;
  std::string format;
  bool kPack = true;
  SourceLoc valueLoc, scaleLoc, formatLoc;
  /// The axis of K in the operand (1 for lhs, 0 for rhs).
  unsigned kAxis = 0;
};

bool isKnownFormat(llvm::StringRef f) {
  return llvm::is_contained({"e2m1", "e4m3", "e5m2", "bf16", "fp16"}, f);
}

/// The element type a format's values have, and the unsigned integer type
/// of the same width that may carry their bits instead.
std::pair<ScalarType, ScalarType> formatTypes(llvm::StringRef f) {
  if (f == "e4m3")
    return {ScalarType::F8E4M3, ScalarType::U8};
  if (f == "e5m2")
    return {ScalarType::F8E5M2, ScalarType::U8};
  if (f == "bf16")
    return {ScalarType::BF16, ScalarType::U16};
  if (f == "fp16")
    return {ScalarType::F16, ScalarType::U16};
  return {ScalarType::U8, ScalarType::U8}; // e2m1: packed uint8 only
}
} // namespace

Value Sema::builtinDotScaled(CallArgs &args, SourceLoc loc) {
  using ast::BinaryOp;
  std::vector<Value> slots;
  if (!bindArgs(args, "dot_scaled",
                {"lhs", "lhs_scale", "lhs_format", "rhs", "rhs_scale",
                 "rhs_format", "acc", "fast_math", "lhs_k_pack", "rhs_k_pack",
                 "out_dtype"},
                6, slots))
    return Value::invalid();
  // Where keyword arguments were (CallArgs keeps positional ones only).
  auto slotLoc = [&](size_t i) { return args.argLoc(i); };

  auto call = [&](llvm::StringRef fn, auto... values) {
    return callBuiltinOn(fn, args.loc, loc, std::move(values)...);
  };
  auto op = [&](BinaryOp o, Value a, Value b) {
    return binaryOp(o, std::move(a), std::move(b), loc);
  };
  auto integer = [&](int64_t v) {
    return makeConst(ConstexprValue::ofInt(v), loc);
  };
  auto shapeValue = [&](llvm::ArrayRef<int64_t> shape) {
    std::vector<Value> dims;
    for (int64_t d : shape)
      dims.push_back(integer(d));
    return Value::ofTuple(std::move(dims));
  };
  auto bitcast = [&](Value v, ScalarType to) {
    return bitcastValue(std::move(v), Value::ofDType(to), loc, loc);
  };
  auto flag = [&](size_t slot, bool byDefault,
                  const char *what) -> std::optional<bool> {
    if (slots[slot].isNone())
      return byDefault;
    std::optional<bool> truth = slots[slot].getConstTruth();
    if (!truth)
      error(slotLoc(slot), llvm::Twine("'") + what +
                               "' of 'dot_scaled' must be a compile-time "
                               "bool; got " +
                               slots[slot].describe());
    return truth;
  };

  std::optional<bool> fastMath = flag(7, false, "fast_math");
  std::optional<bool> lhsKPack = flag(8, true, "lhs_k_pack");
  std::optional<bool> rhsKPack = flag(9, true, "rhs_k_pack");
  if (!fastMath || !lhsKPack || !rhsKPack)
    return Value::invalid();

  ScaledOperand operands[2];
  operands[0] = {"lhs",      std::move(slots[0]), std::move(slots[1]),
                 "",         *lhsKPack,           slotLoc(0),
                 slotLoc(1), slotLoc(2),
                 /*kAxis=*/1};
  operands[1] = {"rhs",      std::move(slots[3]), std::move(slots[4]),
                 "",         *rhsKPack,           slotLoc(3),
                 slotLoc(4), slotLoc(5),
                 /*kAxis=*/0};
  const Value *formats[2] = {&slots[2], &slots[5]};

  // Check each operand's format, storage and rank; count K.
  int64_t k[2] = {0, 0};
  int64_t outer[2] = {0, 0}; // M of lhs, N of rhs (unpacked)
  for (int i = 0; i < 2; ++i) {
    ScaledOperand &o = operands[i];
    const Value &format = *formats[i];
    if (format.kind != Value::Kind::String || !isKnownFormat(format.str)) {
      error(o.formatLoc,
            llvm::Twine("'") + o.side +
                "_format' of 'dot_scaled' must be one of "
                "\"e2m1\", \"e4m3\", \"e5m2\", \"bf16\", "
                "\"fp16\"; got " +
                (format.kind == Value::Kind::String ? "\"" + format.str + "\""
                                                    : format.describe()));
      return Value::invalid();
    }
    o.format = format.str;
    if (!requireExpr(o.value, o.valueLoc,
                     std::string("the ") + o.side + " of 'dot_scaled'"))
      return Value::invalid();
    const TType &t = o.value.type();
    if (t.isPointer || t.getRank() != 2) {
      error(o.valueLoc, llvm::Twine("the ") + o.side +
                            " of 'dot_scaled' must be a 2-D block (tilec's "
                            "dot is 2-D); got " +
                            t.str());
      return Value::invalid();
    }
    auto [valueType, bitsType] = formatTypes(o.format);
    if (t.elem != valueType && t.elem != bitsType) {
      std::string expected = o.format == "e2m1"
                                 ? "u8 (two e2m1 values per byte)"
                                 : std::string(scalarTypeName(valueType)) +
                                       " or its bits as " +
                                       scalarTypeName(bitsType);
      error(o.valueLoc, llvm::Twine("the ") + o.side + " of 'dot_scaled' in " +
                            o.format + " format must hold " + expected +
                            "; got " + t.str());
      return Value::invalid();
    }
    if (!o.kPack && o.format != "e2m1") {
      error(args.loc, llvm::Twine("only e2m1 operands of 'dot_scaled' can be "
                                  "packed along a dimension other than K; "
                                  "got ") +
                          o.side + "_k_pack=False with " + o.format);
      return Value::invalid();
    }
    unsigned outerAxis = 1 - o.kAxis;
    k[i] = t.shape[o.kAxis];
    outer[i] = t.shape[outerAxis];
    if (o.format == "e2m1")
      (o.kPack ? k[i] : outer[i]) *= 2;
  }
  if (k[0] != k[1]) {
    error(loc, "'dot_scaled' operands must hold the same K; got " +
                   operands[0].value.type().str() + " (" + operands[0].format +
                   ", K = " + llvm::Twine(k[0]) + ") and " +
                   operands[1].value.type().str() + " (" + operands[1].format +
                   ", K = " + llvm::Twine(k[1]) + ")");
    return Value::invalid();
  }
  const int64_t kSize = k[0];

  bool anyFp16 = operands[0].format == "fp16" || operands[1].format == "fp16";
  ScalarType compute = anyFp16 ? ScalarType::F16 : ScalarType::BF16;

  // An e2m1 nibble (0..15, any integer type) as the compute type: sign,
  // two exponent bits (bias 1), one mantissa bit; exponent 0 is 0 or 0.5
  // (the compute type's exponent of 2^-1 times the mantissa bit).
  auto decodeNibble = [&](Value nibble) {
    bool half = compute == ScalarType::F16;
    int64_t bias = half ? 15 : 127, mantissaBits = half ? 10 : 7;
    Value n = castValue(std::move(nibble), ScalarType::U16, loc);
    Value sign = op(BinaryOp::Shl, op(BinaryOp::Shr, n.clone(), integer(3)),
                    integer(15));
    Value e = op(BinaryOp::BitAnd, op(BinaryOp::Shr, n.clone(), integer(1)),
                 integer(3));
    Value m = op(BinaryOp::BitAnd, std::move(n), integer(1));
    // e > 0: 2^(e-1) * (1 + m/2); e == 0: m/2 (the exponent of 0.5).
    Value normal =
        op(BinaryOp::BitOr,
           op(BinaryOp::Shl, op(BinaryOp::Add, e.clone(), integer(bias - 1)),
              integer(mantissaBits)),
           op(BinaryOp::Shl, m.clone(), integer(mantissaBits - 1)));
    Value subnormal =
        op(BinaryOp::Mul, std::move(m), integer((bias - 1) << mantissaBits));
    Value bits = op(BinaryOp::BitOr,
                    call("where", op(BinaryOp::Eq, std::move(e), integer(0)),
                         std::move(subnormal), std::move(normal)),
                    std::move(sign));
    return bitcast(castValue(std::move(bits), ScalarType::U16, loc), compute);
  };

  // Each operand in the compute type, at its unpacked shape.
  auto upcast = [&](ScaledOperand &o) -> Value {
    const TType t = o.value.type();
    if (o.format != "e2m1") {
      auto [valueType, bitsType] = formatTypes(o.format);
      Value v = std::move(o.value);
      if (t.elem != valueType)
        v = bitcast(std::move(v), valueType);
      return castValue(std::move(v), compute, loc);
    }
    unsigned packedAxis = o.kPack ? o.kAxis : 1 - o.kAxis;
    Value low =
        decodeNibble(op(BinaryOp::BitAnd, o.value.clone(), integer(15)));
    Value high =
        decodeNibble(op(BinaryOp::Shr, std::move(o.value), integer(4)));
    // join: [A, B, 2]; the pair goes next to the packed axis, then merges
    // with it (the low nibble first).
    Value joined = call("join", std::move(low), std::move(high));
    std::vector<int64_t> shape = t.shape;
    shape[packedAxis] *= 2;
    if (packedAxis == 0)
      joined = call("permute", std::move(joined), shapeValue({0, 2, 1}));
    return call("reshape", std::move(joined), shapeValue(shape));
  };

  // The scale of `o` (shape [outer, K / group]) repeated over each group
  // of K and laid out as the operand: [outer, K] for lhs, [K, outer] for
  // rhs. Elementwise work on the result sees one scale per element.
  auto broadcastScale = [&](const ScaledOperand &o, Value s, int64_t outerSize,
                            int64_t groups) {
    int64_t group = kSize / groups;
    s = call("expand_dims", std::move(s), integer(2));
    s = call("broadcast_to", std::move(s),
             shapeValue({outerSize, groups, group}));
    s = call("reshape", std::move(s), shapeValue({outerSize, kSize}));
    if (o.kAxis == 0)
      s = call("trans", std::move(s));
    return s;
  };

  Value scaled[2];
  for (int i = 0; i < 2; ++i) {
    ScaledOperand &o = operands[i];
    Value v = upcast(o);
    if (v.isInvalid())
      return v;
    if (o.scale.isNone()) {
      scaled[i] = std::move(v);
      continue;
    }
    if (!requireExpr(o.scale, o.scaleLoc,
                     std::string("the ") + o.side + "_scale of 'dot_scaled'"))
      return Value::invalid();
    const TType st = o.scale.type();
    if (st.isPointer || st.getRank() != 2 ||
        (st.elem != ScalarType::U8 && st.elem != ScalarType::F8E4M3)) {
      error(o.scaleLoc, llvm::Twine("'") + o.side +
                            "_scale' of 'dot_scaled' must be a 2-D block of "
                            "u8 (e8m0) or f8e4m3 scales; got " +
                            st.str());
      return Value::invalid();
    }
    int64_t groups = st.shape[1];
    if (st.shape[0] != outer[i] || groups > kSize || kSize % groups != 0) {
      error(o.scaleLoc, llvm::Twine("'") + o.side +
                            "_scale' of 'dot_scaled' must be [" +
                            (i == 0 ? "M" : "N") + ", K / group] = [" +
                            llvm::Twine(outer[i]) + ", " + llvm::Twine(kSize) +
                            " / group]; got " + formatShape(st.shape));
      return Value::invalid();
    }
    Value s = broadcastScale(o, std::move(o.scale), outer[i], groups);
    // An e8m0 scale is the exponent field of a float: 2^(s - 127).
    auto exponentField = [&](ScalarType word, int64_t shift, ScalarType fp) {
      Value w = castValue(s.clone(), word, loc);
      // (Shifts promote small unsigned words to i32, as in Triton.)
      w = castValue(op(BinaryOp::Shl, std::move(w), integer(shift)), word, loc);
      return bitcast(std::move(w), fp);
    };
    Value factor;
    if (st.elem == ScalarType::F8E4M3)
      factor = castValue(s.clone(), compute, loc);
    else if (compute == ScalarType::BF16)
      factor = exponentField(ScalarType::U16, 7, ScalarType::BF16); // 0 -> 0
    else // through f32, rounded to fp16 (0 or inf outside its range)
      factor = castValue(exponentField(ScalarType::U32, 23, ScalarType::F32),
                         ScalarType::F16, loc);
    // A NaN scale (0xFF, or an fp8 NaN) makes its group NaN.
    Value isNan = st.elem == ScalarType::U8
                      ? op(BinaryOp::Eq, std::move(s), integer(255))
                      : op(BinaryOp::Ne, factor.clone(), factor.clone());
    Value product = op(BinaryOp::Mul, std::move(v), std::move(factor));
    if (!*fastMath) {
      product = call("where", std::move(isNan),
                     makeConst(ConstexprValue::ofFloat(NAN), loc),
                     std::move(product));
    }
    scaled[i] = std::move(product);
  }
  if (scaled[0].isInvalid() || scaled[1].isInvalid())
    return Value::invalid();

  CallArgs dotArgs;
  dotArgs.loc = args.loc;
  dotArgs.args.push_back(std::move(scaled[0]));
  dotArgs.args.push_back(std::move(scaled[1]));
  dotArgs.argLocs = {operands[0].valueLoc, operands[1].valueLoc};
  if (!slots[6].isNone()) {
    dotArgs.kwargs.emplace_back("acc", std::move(slots[6]));
    dotArgs.kwargLocs.push_back(slotLoc(6));
  }
  if (!slots[10].isNone()) {
    dotArgs.kwargs.emplace_back("out_dtype", std::move(slots[10]));
    dotArgs.kwargLocs.push_back(slotLoc(10));
  }
  return callBuiltin("dot", dotArgs, loc);
}

} // namespace tilec::sema
