//===- SemaMath.cpp - Elementwise math and creation builtins --------------===//
//
// `exp`, `sqrt`, `tanh`, ... (constant-folded for compile-time operands,
// computed in f32 for f16/bf16 and integer inputs) and the block creation
// builtins `zeros`, `full` and `zeros_like`.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <limits>
#include <utility>

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

namespace {
/// A math builtin's value at a compile-time float.
double foldMath(ck::MathFn fn, double d) {
  using Fold = double (*)(double);
  static const std::pair<ck::MathFn, Fold> folds[] = {
      {ck::MathFn::Exp, [](double x) { return std::exp(x); }},
      {ck::MathFn::Exp2, [](double x) { return std::exp2(x); }},
      {ck::MathFn::Log, [](double x) { return std::log(x); }},
      {ck::MathFn::Log2, [](double x) { return std::log2(x); }},
      {ck::MathFn::Sqrt, [](double x) { return std::sqrt(x); }},
      {ck::MathFn::Rsqrt, [](double x) { return 1.0 / std::sqrt(x); }},
      {ck::MathFn::Abs, [](double x) { return std::fabs(x); }},
      {ck::MathFn::Sin, [](double x) { return std::sin(x); }},
      {ck::MathFn::Cos, [](double x) { return std::cos(x); }},
      {ck::MathFn::Tanh, [](double x) { return std::tanh(x); }},
      {ck::MathFn::Erf, [](double x) { return std::erf(x); }},
      {ck::MathFn::Sigmoid,
       [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
      {ck::MathFn::Floor, [](double x) { return std::floor(x); }},
      {ck::MathFn::Ceil, [](double x) { return std::ceil(x); }},
      {ck::MathFn::Log1p, [](double x) { return std::log1p(x); }},
      {ck::MathFn::Expm1, [](double x) { return std::expm1(x); }},
      {ck::MathFn::Log10, [](double x) { return std::log10(x); }},
      {ck::MathFn::Exp10, [](double x) { return std::pow(10.0, x); }},
      {ck::MathFn::Asin, [](double x) { return std::asin(x); }},
      {ck::MathFn::Acos, [](double x) { return std::acos(x); }},
      {ck::MathFn::Atan, [](double x) { return std::atan(x); }},
      {ck::MathFn::Sinh, [](double x) { return std::sinh(x); }},
      {ck::MathFn::Cosh, [](double x) { return std::cosh(x); }},
      {ck::MathFn::Tan, [](double x) { return std::tan(x); }},
      {ck::MathFn::Cbrt, [](double x) { return std::cbrt(x); }},
      {ck::MathFn::Trunc, [](double x) { return std::trunc(x); }},
      {ck::MathFn::Round, [](double x) { return std::round(x); }},
      {ck::MathFn::Rint, [](double x) { return std::nearbyint(x); }},
  };
  for (const auto &[key, fold] : folds)
    if (key == fn)
      return fold(d);
  llvm_unreachable("a math builtin without a constant fold");
}
} // namespace

Value Sema::builtinErfinvHypot(llvm::StringRef name, CallArgs &args,
                               SourceLoc loc) {
  bool isHypot = name == "hypot";
  std::vector<Value> slots;
  if (!bindArgs(args, name,
                isHypot ? llvm::ArrayRef<const char *>{"arg0", "arg1"}
                        : llvm::ArrayRef<const char *>{"arg0"},
                isHypot ? 2 : 1, slots))
    return Value::invalid();
  // f16 / bf16 inputs (all of one type) give a result of that type.
  std::optional<ScalarType> narrow;
  for (size_t i = 0; i < slots.size(); ++i) {
    if (!requireExpr(slots[i], args.argLoc(i), "'" + name.str() + "'"))
      return Value::invalid();
    const TType &t = slots[i].type();
    bool half = t.elem == ScalarType::F16 || t.elem == ScalarType::BF16;
    if (i == 0)
      narrow = half ? std::optional<ScalarType>(t.elem) : std::nullopt;
    else if (narrow != t.elem)
      narrow.reset();
    if (t.isPointer || isFP8Type(t.elem)) {
      error(loc, "'" + name + "' expects numbers; got " + t.str());
      return Value::invalid();
    }
    // Computed in f32 (f64 stays f64), as the other libdevice functions.
    ScalarType kind =
        t.elem == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
    slots[i] = materializeTrivial(
        Value::ofExpr(castTo(std::move(slots[i].expr), kind, loc)), loc, name);
  }
  // Every intermediate is made trivial (a name or a constant), so the
  // helpers below copy their operands.
  using ast::BinaryOp;
  auto num = [&](double v) {
    return makeConst(ConstexprValue::ofFloat(v), loc);
  };
  auto bin = [&](BinaryOp op, const Value &a, const Value &b) {
    return materializeTrivial(binaryOp(op, a.clone(), b.clone(), loc), loc,
                              name);
  };
  auto call = [&](llvm::StringRef fn, std::initializer_list<const Value *> in) {
    CallArgs a;
    a.loc = loc;
    for (const Value *v : in) {
      a.args.push_back(v->clone());
      a.argLocs.push_back(loc);
    }
    return materializeTrivial(callBuiltin(fn, a, loc), loc, name);
  };
  double inf = std::numeric_limits<double>::infinity();
  Value one = num(1.0), zero = num(0.0), posInf = num(inf);
  if (isHypot) {
    // max * sqrt(1 + (min / max)^2) (no overflow for large inputs); 0 when
    // both are 0; inf when either is inf, even with a NaN (IEEE's hypot).
    Value ax = call("abs", {&slots[0]});
    Value ay = call("abs", {&slots[1]});
    Value big = call("maximum", {&ax, &ay});
    Value small = call("minimum", {&ax, &ay});
    Value ratio = bin(BinaryOp::Div, small, big);
    Value square = bin(BinaryOp::Mul, ratio, ratio);
    Value sum = bin(BinaryOp::Add, one, square);
    Value root = call("sqrt", {&sum});
    Value scaled = bin(BinaryOp::Mul, big, root);
    Value bothZero = bin(BinaryOp::Eq, big, zero);
    Value r = call("where", {&bothZero, &zero, &scaled});
    Value xInf = bin(BinaryOp::Eq, ax, posInf);
    Value yInf = bin(BinaryOp::Eq, ay, posInf);
    Value anyInf = bin(BinaryOp::BitOr, xInf, yInf);
    Value result = call("where", {&anyInf, &posInf, &r});
    if (narrow)
      return castValue(std::move(result), *narrow, loc);
    return result;
  }
  // erfinv: M. Giles' single-precision approximation ("Approximating the
  // erfinv function", GPU Computing Gems, 2011), two polynomials in
  // w = -log((1 - x)(1 + x)); +-inf at +-1, NaN outside [-1, 1].
  const Value &x = slots[0];
  Value below = bin(BinaryOp::Sub, one, x);
  Value above = bin(BinaryOp::Add, one, x);
  Value product = bin(BinaryOp::Mul, below, above);
  Value logged = call("log", {&product});
  Value w = bin(BinaryOp::Sub, zero, logged);
  auto poly = [&](const Value &t, llvm::ArrayRef<double> c) {
    Value p = num(c[0]);
    for (double coeff : c.drop_front())
      p = bin(BinaryOp::Add, num(coeff), bin(BinaryOp::Mul, p, t));
    return p;
  };
  Value shifted = bin(BinaryOp::Sub, w, num(2.5));
  Value central = poly(shifted, {2.81022636e-08, 3.43273939e-07, -3.5233877e-06,
                                 -4.39150654e-06, 0.00021858087, -0.00125372503,
                                 -0.00417768164, 0.246640727, 1.50140941});
  Value rootW = call("sqrt", {&w});
  Value tailT = bin(BinaryOp::Sub, rootW, num(3.0));
  Value tail = poly(tailT, {-0.000200214257, 0.000100950558, 0.00134934322,
                            -0.00367342844, 0.00573950773, -0.0076224613,
                            0.00943887047, 1.00167406, 2.83297682});
  Value isCentral = bin(BinaryOp::Lt, w, num(5.0));
  Value p = call("where", {&isCentral, &central, &tail});
  Value r = bin(BinaryOp::Mul, p, x);
  Value ax = call("abs", {&x});
  Value negative = bin(BinaryOp::Lt, x, zero);
  Value negInf = num(-inf);
  Value edge = call("where", {&negative, &negInf, &posInf});
  Value atOne = bin(BinaryOp::Eq, ax, one);
  r = call("where", {&atOne, &edge, &r});
  Value outside = bin(BinaryOp::Gt, ax, one);
  Value nan = num(std::numeric_limits<double>::quiet_NaN());
  Value result = call("where", {&outside, &nan, &r});
  if (narrow)
    return castValue(std::move(result), *narrow, loc);
  return result;
}

Value Sema::builtinFloatClass(llvm::StringRef name, CallArgs &args,
                              SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, name, {"arg0"}, 1, slots) ||
      !requireExpr(slots[0], args.loc, "'" + name.str() + "'"))
    return Value::invalid();
  Value x = std::move(slots[0]);
  TType t = x.type();
  if (!t.isFloat() || isFP8Type(t.elem)) {
    error(loc, "'" + name + "' expects a float (f16, bf16, f32, f64); got " +
                   t.str());
    return Value::invalid();
  }
  Value truth;
  if (name == "isnan") {
    // NaN is the only value not equal to itself.
    Value copy = x.clone();
    truth = binaryOp(ast::BinaryOp::Ne, std::move(x), std::move(copy), loc);
  } else if (name == "isinf") {
    CallArgs absArgs;
    absArgs.loc = loc;
    absArgs.args.push_back(std::move(x));
    absArgs.argLocs.push_back(args.loc);
    Value magnitude = builtinMath("abs", absArgs, loc);
    if (magnitude.isInvalid())
      return magnitude;
    truth = binaryOp(ast::BinaryOp::Eq, std::move(magnitude),
                     makeConst(ConstexprValue::ofFloat(
                                   std::numeric_limits<double>::infinity()),
                               loc),
                     loc);
  } else {
    // The sign bit: the bits as a signed integer of the same width, < 0.
    ScalarType ints = scalarTypeBits(t.elem) == 16   ? ScalarType::I16
                      : scalarTypeBits(t.elem) == 64 ? ScalarType::I64
                                                     : ScalarType::I32;
    Value bits = Value::ofExpr(std::make_unique<ck::BitcastExpr>(
        TType(ints, false, t.shape), loc, std::move(x.expr)));
    truth = binaryOp(ast::BinaryOp::Lt, std::move(bits),
                     makeConst(ConstexprValue::ofInt(0), loc), loc);
  }
  if (truth.isInvalid())
    return truth;
  return castValue(std::move(truth), ScalarType::I32, loc);
}

Value Sema::builtinMath(llvm::StringRef name, CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, name, {"x"}, 1, slots))
    return Value::invalid();
  Value &x = slots[0];
  if (!requireExpr(x, args.loc, "'" + name.str() + "'"))
    return Value::invalid();
  if (x.type().isPointer) {
    error(loc, "'" + name + "' expects a number or a block of numbers; got " +
                   x.type().str());
    return Value::invalid();
  }
  ck::MathFn fn = *ck::parseMathFnName(name);
  if (const ConstexprValue *c = x.getConst(); c && x.weak) {
    if (fn == ck::MathFn::Abs && c->isInt())
      return makeConst(
          ConstexprValue::ofInt(c->asInt() < 0 ? -c->asInt() : c->asInt()),
          loc);
    return makeConst(ConstexprValue::ofFloat(foldMath(fn, c->asFloat())), loc);
  }
  ScalarType elem = x.type().elem;
  if (fn == ck::MathFn::Abs && x.type().isInteger()) {
    TType type = x.type();
    return Value::ofExpr(
        std::make_unique<ck::MathExpr>(type, loc, fn, std::move(x.expr)));
  }
  ScalarType computeKind =
      elem == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
  ExprPtr operand = castTo(std::move(x.expr), computeKind, loc);
  TType type = operand->getType();
  ExprPtr result =
      std::make_unique<ck::MathExpr>(type, loc, fn, std::move(operand));
  if (elem == ScalarType::F16 || elem == ScalarType::BF16 || isFP8Type(elem))
    result = castTo(std::move(result), elem, loc);
  return Value::ofExpr(std::move(result));
}

Value Sema::builtinMathBinary(llvm::StringRef name, CallArgs &args,
                              SourceLoc loc) {
  std::vector<Value> slots;
  bool isFDiv = name == "fdiv";
  if (isFDiv ? !bindArgs(args, name, {"x", "y", "ieee_rounding"}, 2, slots)
             : !bindArgs(args, name, {"x", "y"}, 2, slots))
    return Value::invalid();
  Value &x = slots[0], &y = slots[1];
  std::string what = "'" + name.str() + "'";
  bool ieee = name == "div_rn";
  if (isFDiv && !slots[2].isNone()) {
    const ConstexprValue *c = slots[2].getConst();
    if (!c) {
      error(loc, "ieee_rounding of 'fdiv' must be a compile-time constant");
      return Value::invalid();
    }
    ieee = c->asBool();
  }
  if (!requireExpr(x, args.loc, what) || !requireExpr(y, args.loc, what))
    return Value::invalid();
  if (x.type().isPointer || y.type().isPointer) {
    error(loc, what + " expects numbers or blocks of numbers; got " +
                   x.type().str() + " and " + y.type().str());
    return Value::invalid();
  }
  if (isFDiv && !ieee) // Triton's default: `/` (div.full.f32).
    return binaryOp(ast::BinaryOp::Div, std::move(x), std::move(y), loc);
  const ConstexprValue *cx = x.getConst(), *cy = y.getConst();
  if (ieee && cx && cy && x.weak && y.weak)
    return makeConst(ConstexprValue::ofFloat(cx->asFloat() / cy->asFloat()),
                     loc);
  if (cx && cy && x.weak && y.weak && name == "umulhi" && cx->isInt() &&
      cy->isInt()) {
    uint64_t product = uint64_t(uint32_t(cx->asInt())) * uint32_t(cy->asInt());
    return makeConst(ConstexprValue::ofInt(int64_t(product >> 32)), loc);
  }
  if (cx && cy && x.weak && y.weak && name != "umulhi" && !ieee) {
    double a = cx->asFloat(), b = cy->asFloat();
    double folded = name == "pow"     ? std::pow(a, b)
                    : name == "atan2" ? std::atan2(a, b)
                                      : std::fmod(a, b);
    return makeConst(ConstexprValue::ofFloat(folded), loc);
  }
  auto kind = computationType(x, y, false, loc, name);
  if (!kind || !rejectFP8(TType(*kind), loc, what))
    return Value::invalid();
  if (name == "umulhi") {
    if (*kind != ScalarType::I32 && *kind != ScalarType::U32) {
      error(loc, "'umulhi' expects 32-bit integers (i32, u32); got " +
                     llvm::Twine(scalarTypeName(*kind)));
      return Value::invalid();
    }
    ExprPtr a = castTo(std::move(x.expr), *kind, loc);
    ExprPtr b = castTo(std::move(y.expr), *kind, loc);
    if (!broadcastPair(a, b, loc, what))
      return Value::invalid();
    TType type = a->getType();
    return Value::ofExpr(std::make_unique<ck::BinaryExpr>(
        type, loc, ck::BinaryOp::UMulHi, std::move(a), std::move(b)));
  }
  ScalarType computeKind =
      *kind == ScalarType::F64 ? ScalarType::F64 : ScalarType::F32;
  ExprPtr a = castTo(std::move(x.expr), computeKind, loc);
  ExprPtr b = castTo(std::move(y.expr), computeKind, loc);
  if (!broadcastPair(a, b, loc, what))
    return Value::invalid();
  TType type = a->getType();
  ck::BinaryOp op = ieee              ? ck::BinaryOp::FDivRN
                    : name == "pow"   ? ck::BinaryOp::Pow
                    : name == "atan2" ? ck::BinaryOp::Atan2
                                      : ck::BinaryOp::Rem;
  ExprPtr result = std::make_unique<ck::BinaryExpr>(type, loc, op, std::move(a),
                                                    std::move(b));
  if (*kind == ScalarType::F16 || *kind == ScalarType::BF16)
    result = castTo(std::move(result), *kind, loc);
  return Value::ofExpr(std::move(result));
}

Value Sema::builtinCreation(llvm::StringRef name, CallArgs &args,
                            SourceLoc loc) {
  std::vector<Value> slots;
  if (name == "zeros_like") {
    if (!bindArgs(args, name, {"input", "dtype"}, 1, slots) ||
        !requireExpr(slots[0], args.loc, "'zeros_like'"))
      return Value::invalid();
    TType type = slots[0].type();
    if (type.isPointer) {
      error(loc, "zeros_like of a pointer is not supported");
      return Value::invalid();
    }
    if (!slots[1].isNone()) {
      auto kind = requireDType(slots[1], args.loc, "'dtype'");
      if (!kind)
        return Value::invalid();
      type = type.withElem(*kind);
    }
    return Value::ofExpr(makeConstExpr(ConstexprValue::ofInt(0), type, loc));
  }
  bool isFull = name == "full";
  if (isFull ? !bindArgs(args, name, {"shape", "value", "dtype"}, 3, slots)
             : !bindArgs(args, name, {"shape", "dtype"}, 2, slots))
    return Value::invalid();
  auto shape =
      requireShape(slots[0], args.loc, "the shape of '" + name.str() + "'");
  auto kind = requireDType(slots[isFull ? 2 : 1], args.loc, "'dtype'");
  if (!shape || !kind)
    return Value::invalid();
  TType type(*kind, false, *shape);
  if (!isFull)
    return Value::ofExpr(makeConstExpr(ConstexprValue::ofInt(0), type, loc));
  Value &value = slots[1];
  if (!requireExpr(value, args.loc, "the value of 'full'"))
    return Value::invalid();
  if (value.type().isBlock() || value.type().isPointer) {
    error(loc, "the value of 'full' must be a scalar number; got " +
                   value.type().str());
    return Value::invalid();
  }
  if (const ConstexprValue *c = value.getConst())
    return Value::ofExpr(makeConstExpr(*c, type, loc));
  ExprPtr scalar = castTo(std::move(value.expr), *kind, loc);
  return Value::ofExpr(broadcastTo(std::move(scalar), *shape, loc));
}
