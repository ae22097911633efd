//===- SemaRandom.cpp - Triton's Philox random numbers --------------------===//
//
// tl.randint4x / randint / rand / rand4x / randn / randn4x, and the two
// conversions Triton exports with them (uint_to_uniform_float,
// pair_uniform_to_normal), elaborated into the block arithmetic the
// kernel's own code would be: the same stream as Triton 3.6 for the same
// seed and offsets. Philox-4x32 counter = (offset low, offset high, 0, 0),
// key = (seed low, seed high), `n_rounds` rounds (default 10); a 32-bit
// random word becomes a float by reading it as i32, folding the negative
// half onto the positive one and scaling by ~2^-31.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

namespace tilec::sema {
namespace {
constexpr int64_t kPhiloxKeyA = 0x9E3779B9;
constexpr int64_t kPhiloxKeyB = 0xBB67AE85;
constexpr int64_t kPhiloxRoundA = 0xD2511F53;
constexpr int64_t kPhiloxRoundB = 0xCD9E8D57;
} // namespace

bool isRandomName(llvm::StringRef name) {
  return llvm::is_contained({"randint4x", "randint", "rand", "rand4x", "randn",
                             "randn4x", "uint_to_uniform_float",
                             "pair_uniform_to_normal"},
                            name);
}

Value Sema::builtinRandom(llvm::StringRef name, CallArgs &args, SourceLoc loc) {
  using ast::BinaryOp;
  auto call = [&](llvm::StringRef fn, auto... values) {
    return callBuiltinOn(fn, args.loc, loc, std::move(values)...);
  };
  auto op = [&](BinaryOp o, Value a, Value b) {
    return binaryOp(o, std::move(a), std::move(b), loc);
  };
  auto u32 = [&](int64_t v) {
    return castValue(makeConst(ConstexprValue::ofInt(v), loc), ScalarType::U32,
                     loc);
  };
  auto f32 = [&](double v) {
    return makeConst(ConstexprValue::ofFloat(v), loc);
  };
  // A random word -> U[0, 1): i32 view, negatives folded, times 2^-31
  // (rounded so that the largest value stays below 1).
  auto toUniform = [&](Value x) {
    if (!requireExpr(x, args.loc, "'uint_to_uniform_float'"))
      return Value::invalid();
    ScalarType elem = x.type().elem;
    if (elem != ScalarType::I32 && elem != ScalarType::U32) {
      error(args.loc, "'uint_to_uniform_float' expects 32-bit integers; got " +
                          x.type().str());
      return Value::invalid();
    }
    // The sign and the fold as bit operations on the word (x < 0 and
    // -x - 1 would be integer arithmetic, which tile-promote-offsets may
    // recompute without the wrap-around that Philox relies on).
    x = castValue(std::move(x), ScalarType::U32, loc);
    Value negative = op(
        BinaryOp::Ne,
        op(BinaryOp::Shr, x.clone(), makeConst(ConstexprValue::ofInt(31), loc)),
        u32(0));
    Value folded = unaryOp(ast::UnaryOp::Invert, x.clone(), loc);
    Value v = castValue(
        call("where", std::move(negative), std::move(folded), std::move(x)),
        ScalarType::I32, loc);
    return op(BinaryOp::Mul, std::move(v), f32(4.6566127342e-10));
  };
  // Box-Muller: (r cos th, r sin th).
  auto toNormal = [&](Value u1, Value u2) -> std::pair<Value, Value> {
    u1 = call("maximum", f32(1.0e-7), std::move(u1));
    Value th = op(BinaryOp::Mul, f32(6.283185307179586), std::move(u2));
    Value r =
        call("sqrt", op(BinaryOp::Mul, f32(-2.0), call("log", std::move(u1))));
    return {op(BinaryOp::Mul, r.clone(), call("cos", th.clone())),
            op(BinaryOp::Mul, std::move(r), call("sin", std::move(th)))};
  };

  auto tuple = [](auto... values) {
    std::vector<Value> elements;
    (elements.push_back(std::move(values)), ...);
    return Value::ofTuple(std::move(elements));
  };

  std::vector<Value> slots;
  if (name == "uint_to_uniform_float") {
    if (!bindArgs(args, name, {"x"}, 1, slots))
      return Value::invalid();
    return toUniform(std::move(slots[0]));
  }
  if (name == "pair_uniform_to_normal") {
    if (!bindArgs(args, name, {"u1", "u2"}, 2, slots))
      return Value::invalid();
    auto [n1, n2] = toNormal(std::move(slots[0]), std::move(slots[1]));
    return tuple(std::move(n1), std::move(n2));
  }

  if (!bindArgs(args, name, {"seed", "offset", "n_rounds"}, 2, slots))
    return Value::invalid();
  int64_t rounds = 10;
  if (!slots[2].isNone()) {
    auto n = requireConstInt(slots[2], args.argLoc(2), "'n_rounds'");
    if (!n)
      return Value::invalid();
    if (*n < 1 || *n > 64) {
      error(args.argLoc(2),
            "'n_rounds' must be between 1 and 64; got " + llvm::Twine(*n));
      return Value::invalid();
    }
    rounds = *n;
  }
  Value seed = std::move(slots[0]), offset = std::move(slots[1]);
  if (!requireExpr(seed, args.argLoc(0), "the seed of '" + name.str() + "'") ||
      !requireExpr(offset, args.argLoc(1),
                   "the offsets of '" + name.str() + "'"))
    return Value::invalid();
  if (!seed.type().isScalar() || !seed.type().isInteger()) {
    error(args.argLoc(0), "the seed of '" + name +
                              "' must be an integer scalar; got " +
                              seed.type().str());
    return Value::invalid();
  }
  if (!offset.type().isInteger() || offset.type().isPointer) {
    error(args.argLoc(1), "the offsets of '" + name +
                              "' must be integers; got " + offset.type().str());
    return Value::invalid();
  }
  unsigned offsetBits = scalarTypeBits(offset.type().elem);
  if (offsetBits != 32 && offsetBits != 64) {
    error(args.argLoc(1), "the offsets of '" + name +
                              "' must be 32- or 64-bit integers; got " +
                              offset.type().str());
    return Value::invalid();
  }

  // Key: the seed as u64, split in halves.
  Value seed64 = castValue(std::move(seed), ScalarType::U64, loc);
  Value k0 = castValue(op(BinaryOp::BitAnd, seed64.clone(),
                          makeConst(ConstexprValue::ofInt(0xffffffff), loc)),
                       ScalarType::U32, loc);
  Value k1 = castValue(op(BinaryOp::BitAnd,
                          op(BinaryOp::Shr, std::move(seed64),
                             makeConst(ConstexprValue::ofInt(32), loc)),
                          makeConst(ConstexprValue::ofInt(0xffffffff), loc)),
                       ScalarType::U32, loc);
  // Counter: the offsets' low and high words, then two zeros.
  Value c0 = castValue(offset.clone(), ScalarType::U32, loc);
  Value zero = op(BinaryOp::Mul, c0.clone(), u32(0));
  Value c1 = offsetBits > 32
                 ? castValue(op(BinaryOp::Shr, std::move(offset),
                                makeConst(ConstexprValue::ofInt(32), loc)),
                             ScalarType::U32, loc)
                 : zero.clone();
  Value c2 = zero.clone(), c3 = std::move(zero);
  for (int64_t round = 0; round < rounds; ++round) {
    Value prev0 = c0.clone(), prev2 = c2.clone();
    c0 = op(BinaryOp::BitXor,
            op(BinaryOp::BitXor, call("umulhi", u32(kPhiloxRoundB), c2.clone()),
               std::move(c1)),
            k0.clone());
    c2 =
        op(BinaryOp::BitXor,
           op(BinaryOp::BitXor,
              call("umulhi", u32(kPhiloxRoundA), prev0.clone()), std::move(c3)),
           k1.clone());
    c1 = op(BinaryOp::Mul, u32(kPhiloxRoundB), std::move(prev2));
    c3 = op(BinaryOp::Mul, u32(kPhiloxRoundA), std::move(prev0));
    k0 = op(BinaryOp::Add, std::move(k0), u32(kPhiloxKeyA));
    k1 = op(BinaryOp::Add, std::move(k1), u32(kPhiloxKeyB));
    if (c0.isInvalid() || c1.isInvalid() || c2.isInvalid() || c3.isInvalid())
      return Value::invalid();
  }
  if (name == "randint4x")
    return tuple(std::move(c0), std::move(c1), std::move(c2), std::move(c3));
  if (name == "randint")
    return c0;
  if (name == "rand")
    return toUniform(std::move(c0));
  if (name == "rand4x")
    return tuple(toUniform(std::move(c0)), toUniform(std::move(c1)),
                 toUniform(std::move(c2)), toUniform(std::move(c3)));
  auto [n1, n2] = toNormal(toUniform(std::move(c0)), toUniform(std::move(c1)));
  if (name == "randn")
    return std::move(n1);
  auto [n3, n4] = toNormal(toUniform(std::move(c2)), toUniform(std::move(c3)));
  return tuple(std::move(n1), std::move(n2), std::move(n3), std::move(n4));
}

} // namespace tilec::sema
