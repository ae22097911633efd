//===- SemaOps.cpp - Unary and binary operators ---------------------------===//
//
// The operators of .tile: constant folding for compile-time values,
// pointer arithmetic, and typed, broadcast binary/unary operations for
// run-time values, following Triton's promotion rules (see SemaExpr.cpp).
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "tilec/Support/FloorDivision.h"

#include <cmath>

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;
using ast::BinaryOp;

Value Sema::foldBinary(BinaryOp op, const ConstexprValue &a,
                       const ConstexprValue &b, SourceLoc loc) {
  llvm::StringRef spelling = ast::getBinaryOpSpelling(op);
  bool anyFloat = a.isFloat() || b.isFloat();
  switch (op) {
  case BinaryOp::Eq:
  case BinaryOp::Ne:
  case BinaryOp::Lt:
  case BinaryOp::Le:
  case BinaryOp::Gt:
  case BinaryOp::Ge: {
    int cmp;
    if (anyFloat) {
      double x = a.asFloat(), y = b.asFloat();
      if (std::isnan(x) || std::isnan(y))
        return makeConst(ConstexprValue::ofBool(op == BinaryOp::Ne), loc);
      cmp = x < y ? -1 : x > y ? 1 : 0;
    } else {
      cmp = a.asInt() < b.asInt() ? -1 : a.asInt() > b.asInt() ? 1 : 0;
    }
    bool r = op == BinaryOp::Eq   ? cmp == 0
             : op == BinaryOp::Ne ? cmp != 0
             : op == BinaryOp::Lt ? cmp < 0
             : op == BinaryOp::Le ? cmp <= 0
             : op == BinaryOp::Gt ? cmp > 0
                                  : cmp >= 0;
    return makeConst(ConstexprValue::ofBool(r), loc);
  }
  case BinaryOp::And:
    return makeConst(a.asBool() ? b : a, loc);
  case BinaryOp::Or:
    return makeConst(a.asBool() ? a : b, loc);
  default:
    break;
  }
  if (anyFloat || op == BinaryOp::Div) {
    double x = a.asFloat(), y = b.asFloat(), r;
    switch (op) {
    case BinaryOp::Add:
      r = x + y;
      break;
    case BinaryOp::Sub:
      r = x - y;
      break;
    case BinaryOp::Mul:
      r = x * y;
      break;
    case BinaryOp::Div:
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod:
      if (y == 0) {
        error(loc, "division by zero in a constant expression");
        return Value::invalid();
      }
      r = op == BinaryOp::Div        ? x / y
          : op == BinaryOp::FloorDiv ? std::floor(x / y)
                                     : floorModulo(x, y);
      break;
    case BinaryOp::Pow:
      r = std::pow(x, y);
      break;
    default:
      error(loc, "'" + spelling + "' is not supported on floats");
      return Value::invalid();
    }
    return makeConst(ConstexprValue::ofFloat(r), loc);
  }
  // Integers and bools (bools behave as 0/1 except in bitwise ops).
  bool bothBool = a.isBool() && b.isBool();
  int64_t x = a.asInt(), y = b.asInt(), r = 0;
  bool overflow = false;
  switch (op) {
  case BinaryOp::Add:
    overflow = __builtin_add_overflow(x, y, &r);
    break;
  case BinaryOp::Sub:
    overflow = __builtin_sub_overflow(x, y, &r);
    break;
  case BinaryOp::Mul:
    overflow = __builtin_mul_overflow(x, y, &r);
    break;
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod:
    if (y == 0) {
      error(loc, "division by zero in a constant expression");
      return Value::invalid();
    }
    if (x == INT64_MIN && y == -1) {
      overflow = op == BinaryOp::FloorDiv;
      r = op == BinaryOp::FloorDiv ? 0 : 0;
      break;
    }
    // Python's semantics, as Triton folds constexprs: `//` rounds toward
    // negative infinity and `%` takes the divisor's sign (the run-time
    // operators truncate toward zero, as Triton's generated code does).
    r = op == BinaryOp::FloorDiv ? floorDivide(x, y) : floorModulo(x, y);
    break;
  case BinaryOp::Pow: {
    if (y < 0)
      return makeConst(ConstexprValue::ofFloat(std::pow(double(x), double(y))),
                       loc);
    r = 1;
    for (int64_t i = 0; i < y && !overflow; ++i)
      overflow = __builtin_mul_overflow(r, x, &r);
    break;
  }
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    if (y < 0 || y > 63) {
      error(loc, "shift amount " + llvm::Twine(y) + " out of range 0..63");
      return Value::invalid();
    }
    if (op == BinaryOp::Shl) {
      r = static_cast<int64_t>(static_cast<uint64_t>(x) << y);
      overflow = (r >> y) != x;
    } else {
      r = x >> y;
    }
    break;
  case BinaryOp::BitAnd:
    r = x & y;
    break;
  case BinaryOp::BitOr:
    r = x | y;
    break;
  case BinaryOp::BitXor:
    r = x ^ y;
    break;
  default:
    error(loc, "'" + spelling + "' is not supported on these operands");
    return Value::invalid();
  }
  if (overflow) {
    error(loc,
          "integer overflow in a constant expression ('" + spelling + "')");
    return Value::invalid();
  }
  if (bothBool && (op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
                   op == BinaryOp::BitXor))
    return makeConst(ConstexprValue::ofBool(r != 0), loc);
  return makeConst(ConstexprValue::ofInt(r), loc);
}

Value Sema::unaryOp(ast::UnaryOp op, Value v, SourceLoc loc) {
  if (v.isInvalid())
    return v;
  llvm::StringRef spelling = ast::getUnaryOpSpelling(op);
  if (op == ast::UnaryOp::Not && v.isNone())
    return makeConst(ConstexprValue::ofBool(true), loc);
  if (!requireExpr(v, loc, "operand of '" + spelling.str() + "'"))
    return Value::invalid();
  const TType &t = v.type();
  if (t.isPointer) {
    error(loc,
          "'" + spelling + "' is not supported on pointers (" + t.str() + ")");
    return Value::invalid();
  }
  if (const ConstexprValue *c = v.getConst(); c && v.weak) {
    switch (op) {
    case ast::UnaryOp::Pos:
      return v;
    case ast::UnaryOp::Neg:
      if (c->isFloat())
        return makeConst(ConstexprValue::ofFloat(-c->asFloat()), loc);
      if (c->asInt() == INT64_MIN) {
        error(loc, "integer overflow in a constant expression ('-')");
        return Value::invalid();
      }
      return makeConst(ConstexprValue::ofInt(-c->asInt()), loc);
    case ast::UnaryOp::Invert:
      if (c->isFloat())
        break;
      if (c->isBool())
        return makeConst(ConstexprValue::ofBool(!c->asInt()), loc);
      return makeConst(ConstexprValue::ofInt(~c->asInt()), loc);
    case ast::UnaryOp::Not:
      return makeConst(ConstexprValue::ofBool(!c->asBool()), loc);
    }
  }
  if (op != ast::UnaryOp::Pos && op != ast::UnaryOp::Not &&
      !rejectFP8(t, loc, "'" + spelling.str() + "'"))
    return Value::invalid();
  switch (op) {
  case ast::UnaryOp::Pos:
    return v;
  case ast::UnaryOp::Neg: {
    TType type = t;
    return Value::ofExpr(std::make_unique<ck::UnaryExpr>(
        type, loc, ck::UnaryOp::Neg, std::move(v.expr)));
  }
  case ast::UnaryOp::Invert: {
    if (t.isFloat()) {
      error(loc, "'~' requires an integer or boolean operand; got " + t.str());
      return Value::invalid();
    }
    TType type = t;
    return Value::ofExpr(std::make_unique<ck::UnaryExpr>(
        type, loc, ck::UnaryOp::Not, std::move(v.expr)));
  }
  case ast::UnaryOp::Not: {
    ExprPtr b = toBool(std::move(v.expr), loc);
    TType type = b->getType();
    return Value::ofExpr(std::make_unique<ck::UnaryExpr>(
        type, loc, ck::UnaryOp::Not, std::move(b)));
  }
  }
  return Value::invalid();
}

Value Sema::pointerArith(BinaryOp op, Value lhs, Value rhs, SourceLoc loc) {
  llvm::StringRef spelling = ast::getBinaryOpSpelling(op);
  bool lp = lhs.type().isPointer, rp = rhs.type().isPointer;
  if (lp && rp) {
    error(loc, "'" + spelling + "' between two pointers (" + lhs.type().str() +
                   " and " + rhs.type().str() + ") is not supported");
    return Value::invalid();
  }
  if (!(op == BinaryOp::Add || (op == BinaryOp::Sub && lp))) {
    error(loc, "'" + spelling + "' is not supported on pointers (" +
                   (lp ? lhs : rhs).type().str() +
                   "); only pointer + integer and pointer - integer are");
    return Value::invalid();
  }
  Value &ptr = lp ? lhs : rhs;
  Value &off = lp ? rhs : lhs;
  if (!off.type().isInteger() || off.type().elem == ScalarType::I1) {
    error(loc, "a pointer offset must be an integer; got " + off.type().str() +
                   " (convert it with .to(tl.int32))");
    return Value::invalid();
  }
  // Read the constant before the expression is moved out of `off`.
  std::optional<ConstexprValue> offConst;
  if (const ConstexprValue *c = off.getConst(); c && off.weak)
    offConst = *c;
  ExprPtr offset = std::move(off.expr);
  // Offsets are signed; an unsigned one narrower than 64 bits is widened
  // first (zero-extended), so that 2^31 and above stay positive.
  if (isUnsignedType(offset->getType().elem) &&
      offset->getType().elem != ScalarType::U64)
    offset = castTo(std::move(offset), ScalarType::I64, loc);
  if (op == BinaryOp::Sub) {
    if (offConst) {
      if (offConst->asInt() == INT64_MIN) {
        error(loc, "integer overflow in a constant expression ('-')");
        return Value::invalid();
      }
      offset = makeConst(ConstexprValue::ofInt(-offConst->asInt()), loc).expr;
    } else {
      TType type = offset->getType();
      offset = std::make_unique<ck::UnaryExpr>(type, loc, ck::UnaryOp::Neg,
                                               std::move(offset));
    }
  }
  ExprPtr p = std::move(ptr.expr);
  if (!broadcastPair(p, offset, loc, "'" + spelling.str() + "'"))
    return Value::invalid();
  TType type = p->getType();
  return Value::ofExpr(std::make_unique<ck::AddPtrExpr>(type, loc, std::move(p),
                                                        std::move(offset)));
}

Value Sema::binaryOp(BinaryOp op, Value lhs, Value rhs, SourceLoc loc) {
  if (lhs.isInvalid() || rhs.isInvalid())
    return Value::invalid();
  std::string spelling = ast::getBinaryOpSpelling(op).str();
  if (op == BinaryOp::Is || op == BinaryOp::IsNot) {
    bool same;
    if (lhs.isNone() || rhs.isNone())
      same = lhs.isNone() && rhs.isNone();
    else if (lhs.getConst() && rhs.getConst())
      same = *lhs.getConst() == *rhs.getConst();
    else if (lhs.kind == Value::Kind::DType && rhs.kind == Value::Kind::DType)
      same = lhs.sameDType(rhs);
    else {
      error(loc, "'" + spelling +
                     "' is only supported on None, dtypes and "
                     "compile-time constants");
      return Value::invalid();
    }
    return makeConst(ConstexprValue::ofBool(same == (op == BinaryOp::Is)), loc);
  }
  if ((op == BinaryOp::Eq || op == BinaryOp::Ne) &&
      lhs.kind == Value::Kind::String && rhs.kind == Value::Kind::String)
    return makeConst(
        ConstexprValue::ofBool((lhs.str == rhs.str) == (op == BinaryOp::Eq)),
        loc);
  if ((op == BinaryOp::Eq || op == BinaryOp::Ne) &&
      lhs.kind == Value::Kind::DType && rhs.kind == Value::Kind::DType)
    return makeConst(
        ConstexprValue::ofBool(lhs.sameDType(rhs) == (op == BinaryOp::Eq)),
        loc);
  if (op == BinaryOp::MatMul) {
    CallArgs args;
    args.loc = loc;
    args.args.push_back(std::move(lhs));
    args.args.push_back(std::move(rhs));
    args.argLocs = {loc, loc};
    return callBuiltin("dot", args, loc);
  }
  if (!lhs.isExpr() || !rhs.isExpr()) {
    error(loc, "unsupported operands for '" + spelling +
                   "': " + lhs.describe() + " and " + rhs.describe());
    return Value::invalid();
  }
  if (lhs.type().isPointer || rhs.type().isPointer)
    return pointerArith(op, std::move(lhs), std::move(rhs), loc);
  const ConstexprValue *lc = lhs.getConst(), *rc = rhs.getConst();
  if (lc && rc && ((lhs.weak && rhs.weak) || op == BinaryOp::Pow))
    return foldBinary(op, *lc, *rc, loc);
  if (op == BinaryOp::Pow) {
    error(loc, "'**' is only supported on compile-time constants; use "
               "multiplication, exp2 or log2");
    return Value::invalid();
  }
  const TType &lt = lhs.type(), &rt = rhs.type();
  if (op == BinaryOp::And || op == BinaryOp::Or) {
    ExprPtr a = toBool(std::move(lhs.expr), loc);
    ExprPtr b = toBool(std::move(rhs.expr), loc);
    if (!broadcastPair(a, b, loc, "'" + spelling + "'"))
      return Value::invalid();
    TType type = a->getType();
    return Value::ofExpr(std::make_unique<ck::BinaryExpr>(
        type, loc, op == BinaryOp::And ? ck::BinaryOp::And : ck::BinaryOp::Or,
        std::move(a), std::move(b)));
  }
  bool isBitwise = op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
                   op == BinaryOp::BitXor || op == BinaryOp::Shl ||
                   op == BinaryOp::Shr;
  if (isBitwise && (lt.isFloat() || rt.isFloat())) {
    error(loc, "'" + spelling + "' requires integer or boolean operands; got " +
                   lt.str() + " and " + rt.str());
    return Value::invalid();
  }
  if (op == BinaryOp::FloorDiv && (lt.isFloat() || rt.isFloat())) {
    error(loc, "'//' is only supported on integers; got " + lt.str() + " and " +
                   rt.str() + " (use floor(a / b) for floats)");
    return Value::invalid();
  }
  bool divOrMod =
      op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Mod;
  std::optional<ScalarType> elem;
  if (op == BinaryOp::Div && lt.isInteger() && rt.isInteger())
    elem = ScalarType::F32;
  else
    elem = computationType(lhs, rhs, divOrMod, loc, spelling);
  if (!elem ||
      !rejectFP8(lhs.type().withElem(*elem), loc, "'" + spelling + "'"))
    return Value::invalid();
  // Like Triton, an integer literal (or constexpr) that does not fit the
  // integer type of the operation is an error, not a silent wrap-around.
  // Bitwise operators are exempt (`x & 0xFFFFFFFF` is a common mask).
  if (isIntegerType(*elem) && *elem != ScalarType::I1 && !isBitwise) {
    for (const Value *v : {&lhs, &rhs}) {
      const ConstexprValue *c = v->getConst();
      if (!c || !v->weak || !c->isInt())
        continue;
      unsigned width = scalarTypeBits(*elem);
      bool isUnsigned = isUnsignedType(*elem);
      int64_t lo =
          isUnsigned ? 0
                     : (width == 64 ? INT64_MIN : -(int64_t(1) << (width - 1)));
      int64_t hi = width == 64  ? INT64_MAX
                   : isUnsigned ? int64_t((uint64_t(1) << width) - 1)
                                : (int64_t(1) << (width - 1)) - 1;
      if (c->asInt() < lo || c->asInt() > hi) {
        error(loc, "integer constant " + llvm::Twine(c->asInt()) +
                       " is out of range for " + scalarTypeName(*elem) +
                       ", the type of this '" + spelling +
                       "'; convert the other operand first (e.g. .to(" +
                       tritonDTypeName(ScalarType::I64) + "))");
        return Value::invalid();
      }
    }
  }
  ExprPtr a = castTo(std::move(lhs.expr), *elem, loc);
  ExprPtr b = castTo(std::move(rhs.expr), *elem, loc);
  if (!broadcastPair(a, b, loc, "'" + spelling + "'"))
    return Value::invalid();
  ck::BinaryOp kind;
  switch (op) {
  case BinaryOp::Add:
    kind = ck::BinaryOp::Add;
    break;
  case BinaryOp::Sub:
    kind = ck::BinaryOp::Sub;
    break;
  case BinaryOp::Mul:
    kind = ck::BinaryOp::Mul;
    break;
  case BinaryOp::Div:
    kind = ck::BinaryOp::FDiv;
    break;
  case BinaryOp::FloorDiv:
    kind = ck::BinaryOp::IDiv;
    break;
  case BinaryOp::Mod:
    kind = ck::BinaryOp::Rem;
    break;
  case BinaryOp::BitAnd:
    kind = ck::BinaryOp::And;
    break;
  case BinaryOp::BitOr:
    kind = ck::BinaryOp::Or;
    break;
  case BinaryOp::BitXor:
    kind = ck::BinaryOp::Xor;
    break;
  case BinaryOp::Shl:
    kind = ck::BinaryOp::Shl;
    break;
  case BinaryOp::Shr:
    kind = ck::BinaryOp::Shr;
    break;
  case BinaryOp::Eq:
    kind = ck::BinaryOp::Eq;
    break;
  case BinaryOp::Ne:
    kind = ck::BinaryOp::Ne;
    break;
  case BinaryOp::Lt:
    kind = ck::BinaryOp::Lt;
    break;
  case BinaryOp::Le:
    kind = ck::BinaryOp::Le;
    break;
  case BinaryOp::Gt:
    kind = ck::BinaryOp::Gt;
    break;
  case BinaryOp::Ge:
    kind = ck::BinaryOp::Ge;
    break;
  default:
    error(loc, "'" + spelling + "' is not supported here");
    return Value::invalid();
  }
  TType type = a->getType();
  if (ck::isComparison(kind))
    type = type.withElem(ScalarType::I1);
  return Value::ofExpr(std::make_unique<ck::BinaryExpr>(
      type, loc, kind, std::move(a), std::move(b)));
}
