//===- SemaExpr.cpp - Expressions, promotion and broadcasting -------------===//
//
// Elaboration of expressions: literals, names, attributes, operators and
// subscripts. Implements Triton's type promotion (weak Python-number
// constants, int/float mixes, f16+bf16 -> f32, unsigned rules), NumPy
// broadcasting made explicit (splat, expand_dims, broadcast), pointer
// arithmetic, and folding of compile-time constants.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

//===----------------------------------------------------------------------===//
// Constants, casts, shapes
//===----------------------------------------------------------------------===//

Value Sema::makeConst(const ConstexprValue &v, SourceLoc loc) {
  ScalarType kind = ScalarType::F32;
  if (v.isBool())
    kind = ScalarType::I1;
  else if (v.isInt())
    kind = (v.asInt() >= INT32_MIN && v.asInt() <= INT32_MAX) ? ScalarType::I32
                                                              : ScalarType::I64;
  return Value::ofExpr(std::make_unique<ck::ConstantExpr>(TType(kind), loc, v),
                       /*weak=*/true);
}

/// Converts a constant to the representation used for element `kind`.
static ConstexprValue convertConst(const ConstexprValue &v, ScalarType kind) {
  if (kind == ScalarType::F8E4M3)
    return ConstexprValue::ofFloat(
        f8e4m3::fromFloat(static_cast<float>(v.asFloat())).toFloat());
  if (kind == ScalarType::F8E5M2)
    return ConstexprValue::ofFloat(
        f8e5m2::fromFloat(static_cast<float>(v.asFloat())).toFloat());
  if (isFloatType(kind))
    return ConstexprValue::ofFloat(v.asFloat());
  if (kind == ScalarType::I1)
    return ConstexprValue::ofBool(v.asBool());
  if (v.isFloat()) {
    double d = v.asFloat();
    if (std::isnan(d))
      return ConstexprValue::ofInt(0);
    d = std::trunc(d);
    if (d >= 9.2e18)
      return ConstexprValue::ofInt(INT64_MAX);
    if (d <= -9.2e18)
      return ConstexprValue::ofInt(INT64_MIN);
    return ConstexprValue::ofInt(static_cast<int64_t>(d));
  }
  unsigned width = scalarTypeBits(kind);
  int64_t x = v.asInt();
  if (width < 64) {
    uint64_t mask = (uint64_t(1) << width) - 1;
    uint64_t bits = static_cast<uint64_t>(x) & mask;
    if (!isUnsignedType(kind) && (bits >> (width - 1)) & 1)
      bits |= ~mask;
    x = static_cast<int64_t>(bits);
  }
  return ConstexprValue::ofInt(x);
}

ExprPtr Sema::makeConstExpr(const ConstexprValue &v, TType type,
                            SourceLoc loc) {
  ConstexprValue c = convertConst(v, type.elem);
  return std::make_unique<ck::ConstantExpr>(std::move(type), loc, c);
}

ExprPtr Sema::castTo(ExprPtr e, ScalarType kind, SourceLoc loc) {
  if (!e || e->getType().isPointer || e->getType().elem == kind)
    return e;
  if (auto *c = llvm::dyn_cast<ck::ConstantExpr>(e.get()))
    return makeConstExpr(c->value, c->getType().withElem(kind), c->getLoc());
  TType type = e->getType().withElem(kind);
  return std::make_unique<ck::CastExpr>(type, loc, std::move(e));
}

ExprPtr Sema::toBool(ExprPtr e, SourceLoc loc) {
  if (!e || e->getType().elem == ScalarType::I1 || e->getType().isPointer)
    return e;
  TType type = e->getType();
  ExprPtr zero = makeConstExpr(ConstexprValue::ofInt(0), type, loc);
  return std::make_unique<ck::BinaryExpr>(type.withElem(ScalarType::I1), loc,
                                          ck::BinaryOp::Ne, std::move(e),
                                          std::move(zero));
}

bool Sema::checkShape(llvm::ArrayRef<int64_t> shape, SourceLoc loc) {
  // Every dimension is a power of two, so the element count is 2^log2Count,
  // summed in exponents: no product that could wrap.
  unsigned log2Count = 0;
  for (int64_t d : shape) {
    if (d < 1 || !llvm::isPowerOf2_64(static_cast<uint64_t>(d))) {
      error(loc, "block dimension " + llvm::Twine(d) +
                     " is not a power of two (shape " + formatShape(shape) +
                     "); pad the block and mask the extra elements");
      return false;
    }
    log2Count += llvm::Log2_64(static_cast<uint64_t>(d));
  }
  if (log2Count > llvm::Log2_64(kMaxBlockElements)) {
    std::string count = log2Count <= 40
                            ? std::to_string(int64_t(1) << log2Count)
                            : "2^" + std::to_string(log2Count);
    error(loc, "block of " + count + " elements (shape " + formatShape(shape) +
                   ") exceeds the limit of " + llvm::Twine(kMaxBlockElements) +
                   " (2^20) elements per block");
    return false;
  }
  return true;
}

std::optional<std::vector<int64_t>>
Sema::broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                      SourceLoc loc, llvm::StringRef what) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      error(loc, "shape mismatch in " + what + ": " + formatShape(a) + " and " +
                     formatShape(b) + " cannot be broadcast together");
      return std::nullopt;
    }
    result[i] = std::max(da, db);
  }
  if (!checkShape(result, loc))
    return std::nullopt;
  return result;
}

ExprPtr Sema::broadcastTo(ExprPtr e, llvm::ArrayRef<int64_t> shape,
                          SourceLoc loc) {
  const TType &t = e->getType();
  if (llvm::ArrayRef<int64_t>(t.shape) == shape)
    return e;
  if (t.isScalar()) {
    TType type = t.withShape(shape);
    if (auto *c = llvm::dyn_cast<ck::ConstantExpr>(e.get()))
      return std::make_unique<ck::ConstantExpr>(type, c->getLoc(), c->value);
    return std::make_unique<ck::SplatExpr>(type, loc, std::move(e));
  }
  while (e->getType().shape.size() < shape.size()) {
    std::vector<int64_t> s = e->getType().shape;
    s.insert(s.begin(), 1);
    TType type = e->getType().withShape(s);
    if (auto *c = llvm::dyn_cast<ck::ConstantExpr>(e.get()))
      e = std::make_unique<ck::ConstantExpr>(type, c->getLoc(), c->value);
    else
      e = std::make_unique<ck::ExpandDimsExpr>(type, loc, std::move(e), 0);
  }
  if (llvm::ArrayRef<int64_t>(e->getType().shape) == shape)
    return e;
  TType type = e->getType().withShape(shape);
  if (auto *c = llvm::dyn_cast<ck::ConstantExpr>(e.get()))
    return std::make_unique<ck::ConstantExpr>(type, c->getLoc(), c->value);
  return std::make_unique<ck::BroadcastExpr>(type, loc, std::move(e));
}

bool Sema::broadcastPair(ExprPtr &a, ExprPtr &b, SourceLoc loc,
                         llvm::StringRef what) {
  auto shape =
      broadcastShapes(a->getType().shape, b->getType().shape, loc, what);
  if (!shape)
    return false;
  a = broadcastTo(std::move(a), *shape, loc);
  b = broadcastTo(std::move(b), *shape, loc);
  return true;
}

bool Sema::requireExpr(const Value &v, SourceLoc loc, llvm::StringRef what) {
  if (v.isExpr())
    return true;
  if (!v.isInvalid())
    error(loc, "expected a value for " + what + ", got " + v.describe());
  return false;
}

bool Sema::requireExprs(llvm::ArrayRef<Value> values, SourceLoc loc,
                        llvm::StringRef what) {
  return llvm::all_of(
      values, [&](const Value &v) { return requireExpr(v, loc, what); });
}

std::optional<int64_t> Sema::requireConstInt(const Value &v, SourceLoc loc,
                                             llvm::StringRef what) {
  if (v.isInvalid())
    return std::nullopt;
  const ConstexprValue *c = v.getConst();
  if (!c || c->isFloat()) {
    std::string got = c            ? "the float " + c->pythonStr()
                      : v.isExpr() ? "a run-time " + v.describe()
                                   : v.describe();
    error(loc, "expected a compile-time constant (constexpr) integer for " +
                   what + ", got " + got);
    return std::nullopt;
  }
  return c->asInt();
}

std::optional<std::vector<int64_t>>
Sema::requireShape(const Value &v, SourceLoc loc, llvm::StringRef what) {
  std::vector<int64_t> shape;
  if (v.kind == Value::Kind::Tuple) {
    for (const Value &el : v.elements) {
      auto d = requireConstInt(el, loc, what);
      if (!d)
        return std::nullopt;
      shape.push_back(*d);
    }
  } else {
    auto d = requireConstInt(v, loc, what);
    if (!d)
      return std::nullopt;
    shape.push_back(*d);
  }
  if (!checkShape(shape, loc))
    return std::nullopt;
  return shape;
}

bool Sema::rejectFP8(const TType &type, SourceLoc loc, llvm::StringRef what) {
  if (type.isPointer || !isFP8Type(type.elem))
    return true;
  error(loc, what + " on " + llvm::Twine(scalarTypeName(type.elem)) +
                 " is not supported: fp8 is a storage type; convert with "
                 ".to(tl.float32) first");
  return false;
}

std::optional<ScalarType> Sema::requireDType(const Value &v, SourceLoc loc,
                                             llvm::StringRef what) {
  if (v.isScalarDType())
    return v.dtype;
  if (v.kind == Value::Kind::DType) {
    error(loc, "expected a scalar dtype (tl.float32, tl.int64, ...) for " +
                   what + "; got the " + v.describe() +
                   (v.dtypeIsPointer && !v.dtypeShape
                        ? " (its pointee is .element_ty)"
                        : ""));
    return std::nullopt;
  }
  if (!v.isInvalid())
    error(loc, "expected a dtype (tl.float32, tl.int64, ...) for " + what +
                   ", got " + v.describe());
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Type promotion
//===----------------------------------------------------------------------===//

/// bool < uint < int < float, as in Triton's scalar promotion.
static int kindClass(ScalarType k) {
  if (k == ScalarType::I1)
    return 0;
  if (isUnsignedType(k))
    return 1;
  return isFloatType(k) ? 3 : 2;
}

static ScalarType integerPromote(ScalarType a, ScalarType b) {
  if (a == ScalarType::I1)
    return b;
  if (b == ScalarType::I1)
    return a;
  unsigned wa = scalarTypeBits(a), wb = scalarTypeBits(b);
  bool ua = isUnsignedType(a), ub = isUnsignedType(b);
  if (ua == ub)
    return wa >= wb ? a : b;
  ScalarType u = ua ? a : b, s = ua ? b : a;
  return scalarTypeBits(u) >= scalarTypeBits(s) ? u : s;
}

std::optional<ScalarType> Sema::computationType(const Value &a, const Value &b,
                                                bool divOrMod, SourceLoc loc,
                                                llvm::StringRef op) {
  ScalarType ka = a.type().elem, kb = b.type().elem;
  bool wa = a.weak && a.getConst(), wb = b.weak && b.getConst();
  auto isHalf = [](ScalarType k) {
    return k == ScalarType::F16 || k == ScalarType::BF16;
  };
  if (wa != wb) {
    ScalarType weak = wa ? ka : kb, strong = wa ? kb : ka;
    if (kindClass(weak) <= kindClass(strong))
      return divOrMod && isHalf(strong) ? ScalarType::F32 : strong;
  }
  if (ka == ScalarType::F64 || kb == ScalarType::F64)
    return ScalarType::F64;
  if (ka == ScalarType::F32 || kb == ScalarType::F32)
    return ScalarType::F32;
  if (isHalf(ka) || isHalf(kb)) {
    if (divOrMod)
      return ScalarType::F32;
    if (isHalf(ka) && isHalf(kb) && ka != kb)
      return ScalarType::F32;
    return isHalf(ka) ? ka : kb;
  }
  // Triton's rule: two fp8 types give fp16 unless they are the same; an
  // integer with an fp8 gives the fp8 type.
  if (isFP8Type(ka) && isFP8Type(kb))
    return ka == kb ? ka : ScalarType::F16;
  if (isFP8Type(ka) || isFP8Type(kb))
    return isFP8Type(ka) ? ka : kb;
  if (divOrMod && ka != ScalarType::I1 && kb != ScalarType::I1 &&
      isUnsignedType(ka) != isUnsignedType(kb)) {
    error(loc, "cannot use '" + op + "' with " + a.type().str() + " and " +
                   b.type().str() +
                   " because they have different signedness; convert one "
                   "with .to(...)");
    return std::nullopt;
  }
  return integerPromote(ka, kb);
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Value Sema::elabExpr(const ast::Expr &e) {
  SourceLoc loc = e.getLoc();
  switch (e.getKind()) {
  case ast::Expr::Kind::Int: {
    uint64_t v = llvm::cast<ast::IntLiteral>(e).value;
    if (v > static_cast<uint64_t>(INT64_MAX)) {
      error(loc, "integer literal is too large for i64");
      return Value::invalid();
    }
    return makeConst(ConstexprValue::ofInt(static_cast<int64_t>(v)), loc);
  }
  case ast::Expr::Kind::Float:
    return makeConst(
        ConstexprValue::ofFloat(llvm::cast<ast::FloatLiteral>(e).value), loc);
  case ast::Expr::Kind::Bool:
    return makeConst(
        ConstexprValue::ofBool(llvm::cast<ast::BoolLiteral>(e).value), loc);
  case ast::Expr::Kind::None:
    return Value::none();
  case ast::Expr::Kind::String:
    return Value::ofString(llvm::cast<ast::StringLiteral>(e).value);
  case ast::Expr::Kind::Name:
    return elabName(llvm::cast<ast::NameExpr>(e));
  case ast::Expr::Kind::Attribute:
    return elabAttribute(llvm::cast<ast::AttributeExpr>(e));
  case ast::Expr::Kind::Call:
    return elabCall(llvm::cast<ast::CallExpr>(e));
  case ast::Expr::Kind::Subscript:
    return elabSubscript(llvm::cast<ast::SubscriptExpr>(e));
  case ast::Expr::Kind::Slice:
    error(loc, "a slice is only allowed inside a subscript");
    return Value::invalid();
  case ast::Expr::Kind::Unary: {
    auto &u = llvm::cast<ast::UnaryExpr>(e);
    return unaryOp(u.op, elabExpr(*u.operand), loc);
  }
  case ast::Expr::Kind::Binary: {
    auto &b = llvm::cast<ast::BinaryExpr>(e);
    Value lhs = elabExpr(*b.lhs);
    // `and`/`or` short-circuit on compile-time values.
    if (b.op == ast::BinaryOp::And || b.op == ast::BinaryOp::Or) {
      if (std::optional<bool> c = lhs.getConstTruth())
        return (*c == (b.op == ast::BinaryOp::Or)) ? std::move(lhs)
                                                   : elabExpr(*b.rhs);
    }
    Value rhs = elabExpr(*b.rhs);
    return binaryOp(b.op, std::move(lhs), std::move(rhs), loc);
  }
  case ast::Expr::Kind::Tuple: {
    Value v;
    v.kind = Value::Kind::Tuple;
    for (const auto &el : llvm::cast<ast::TupleExpr>(e).elements) {
      v.elements.push_back(elabExpr(*el));
      if (v.elements.back().isInvalid())
        return Value::invalid();
    }
    return v;
  }
  case ast::Expr::Kind::Ternary:
    return elabTernary(llvm::cast<ast::TernaryExpr>(e));
  }
  return Value::invalid();
}

Value Sema::elabName(const ast::NameExpr &e) {
  const std::string &name = e.name;
  SourceLoc loc = e.getLoc();
  if (frame->env.count(name))
    return lookupName(name, loc);
  if (const ast::ConstexprGlobal *global = module.lookupGlobal(name))
    return elabGlobal(*global, loc);
  if (name == "inf")
    return makeConst(ConstexprValue::ofFloat(INFINITY), loc);
  if (name == "nan")
    return makeConst(ConstexprValue::ofFloat(NAN), loc);
  if (std::optional<ScalarType> k = parseDTypeName(name))
    return Value::ofDType(*k);
  if (isUnsupportedFP8Name(name)) {
    error(loc, "'" + name +
                   "' is not supported; tilec has the fp8 types float8e4nv "
                   "and float8e5");
    return Value::invalid();
  }
  if (isLanguageModuleName(name)) {
    error(loc, "'" + name + "' is a module; use it as " + name + ".NAME");
    return Value::invalid();
  }
  if (isBuiltinName(name) || module.lookup(name)) {
    error(loc, "'" + name + "' is a function; call it with (...)");
    return Value::invalid();
  }
  if (llvm::is_contained(module.hostNames, name)) {
    error(loc, module.describeHostName(name) +
                   "; a kernel can use a module-level value that is a "
                   "tl.constexpr (" +
                   name + " = tl.constexpr(...))");
    return Value::invalid();
  }
  std::string hint = findClosestName(name, visibleNames());
  error(loc,
        "unknown name '" + name + "'" +
            (hint.empty() ? std::string() : "; did you mean '" + hint + "'?"));
  return Value::invalid();
}

Value Sema::elabAttribute(const ast::AttributeExpr &e) {
  if (auto *base = llvm::dyn_cast<ast::NameExpr>(e.base.get())) {
    if (isLanguageModuleName(base->name) && !frame->env.count(base->name)) {
      if (std::optional<ScalarType> k = parseDTypeName(e.attr))
        return Value::ofDType(*k);
      if (isUnsupportedFP8Name(e.attr)) {
        error(e.attrLoc, "'tl." + e.attr +
                             "' is not supported; tilec has the fp8 types "
                             "tl.float8e4nv and tl.float8e5");
        return Value::invalid();
      }
      if (e.attr == "language" || e.attr == "math")
        return Value::invalid();
      if (isBuiltinName(e.attr)) {
        error(e.attrLoc, "'tl." + e.attr +
                             "' is a function; call it with "
                             "(...)");
        return Value::invalid();
      }
      std::vector<std::string> names = builtinNames();
      std::string hint = findClosestName(e.attr, names);
      error(e.attrLoc,
            "unknown name 'tl." + e.attr + "'" +
                (hint.empty() ? std::string()
                              : "; did you mean 'tl." + hint + "'?"));
      return Value::invalid();
    }
  }
  Value base = elabExpr(*e.base);
  if (base.isInvalid())
    return base;
  if (base.kind == Value::Kind::DType)
    return dtypeAttribute(base, e.attr, e.attrLoc);
  if (base.kind == Value::Kind::TensorDesc ||
      base.kind == Value::Kind::BlockPtr)
    return descriptorAttribute(base, e.attr, e.attrLoc);
  if (base.isExpr()) {
    const TType &t = base.type();
    if (e.attr == "dtype")
      return Value::ofElementDType(t);
    if (e.attr == "type")
      return Value::ofTypeOf(t);
    if (e.attr == "shape") {
      Value v;
      v.kind = Value::Kind::Tuple;
      for (int64_t d : t.shape)
        v.elements.push_back(makeConst(ConstexprValue::ofInt(d), e.attrLoc));
      return v;
    }
    if (e.attr == "T") {
      CallArgs args;
      args.loc = e.attrLoc;
      args.args.push_back(std::move(base));
      args.argLocs.push_back(e.getLoc());
      return callBuiltin("trans", args, e.attrLoc);
    }
  }
  error(e.attrLoc,
        "a " + base.describe() + " value has no attribute '" + e.attr + "'");
  return Value::invalid();
}

Value Sema::dtypeAttribute(const Value &type, llvm::StringRef attr,
                           SourceLoc loc) {
  bool isScalar = type.isScalarDType();
  if (attr == "element_ty" && type.dtypePointsToBlock) {
    // A block pointer's pointee: the block type.
    Value block = type.clone();
    block.dtypePointsToBlock = false;
    return block;
  }
  if (attr == "element_ty" || attr == "scalar") {
    // A block type's element; a pointer type's pointee.
    if (type.dtypeShape)
      return Value::ofDType(type.dtype, type.dtypeIsPointer);
    if (type.dtypeIsPointer && attr == "element_ty")
      return Value::ofDType(type.dtype);
    if (attr == "scalar")
      return type.clone();
  }
  if (attr == "shape" && type.dtypeShape) {
    Value v;
    v.kind = Value::Kind::Tuple;
    for (int64_t d : *type.dtypeShape)
      v.elements.push_back(makeConst(ConstexprValue::ofInt(d), loc));
    return v;
  }
  if (attr == "primitive_bitwidth" && isScalar)
    return makeConst(ConstexprValue::ofInt(scalarTypeBits(type.dtype)), loc);
  error(loc, "a " + type.describe() + " value has no attribute '" + attr + "'" +
                 (attr == "element_ty"
                      ? " (only pointer and block types have an element_ty)"
                      : ""));
  return Value::invalid();
}

/// The answer of the predicate method \p name of the scalar dtype \p k;
/// nullopt when \p name is none of Triton's.
static std::optional<bool> scalarDTypePredicate(ScalarType k,
                                                llvm::StringRef name) {
  if (name == "is_floating")
    return isFloatType(k);
  if (name == "is_int")
    return isIntegerType(k);
  if (name == "is_int_signed")
    return isIntegerType(k) && !isUnsignedType(k) && k != ScalarType::I1;
  if (name == "is_int_unsigned")
    return isUnsignedType(k);
  if (name == "is_fp8")
    return isFP8Type(k);
  // The predicates of one type each.
  static const std::pair<llvm::StringLiteral, ScalarType> kTypePredicates[] = {
      {"is_bool", ScalarType::I1},        {"is_int1", ScalarType::I1},
      {"is_int8", ScalarType::I8},        {"is_int16", ScalarType::I16},
      {"is_int32", ScalarType::I32},      {"is_int64", ScalarType::I64},
      {"is_uint8", ScalarType::U8},       {"is_uint16", ScalarType::U16},
      {"is_uint32", ScalarType::U32},     {"is_uint64", ScalarType::U64},
      {"is_fp8e4nv", ScalarType::F8E4M3}, {"is_fp8e5", ScalarType::F8E5M2},
      {"is_fp16", ScalarType::F16},       {"is_bf16", ScalarType::BF16},
      {"is_fp32", ScalarType::F32},       {"is_fp64", ScalarType::F64}};
  for (const auto &[predicate, type] : kTypePredicates)
    if (name == predicate)
      return k == type;
  return std::nullopt;
}

std::optional<bool> Sema::dtypePredicate(const Value &type,
                                         llvm::StringRef name) {
  if (name == "is_ptr")
    return type.dtypeIsPointer && !type.dtypeShape;
  if (name == "is_block")
    return bool(type.dtypeShape);
  // A pointer or block type is none of the scalar kinds; a name that is no
  // predicate is no method of it either.
  std::optional<bool> answer = scalarDTypePredicate(type.dtype, name);
  if (!answer)
    return std::nullopt;
  return type.isScalarDType() && *answer;
}

Value Sema::elabSubscript(const ast::SubscriptExpr &e) {
  Value base = elabExpr(*e.base);
  if (base.isInvalid())
    return base;
  if (base.kind == Value::Kind::Tuple) {
    if (e.indices.size() != 1) {
      error(e.getLoc(), "a tuple takes a single index");
      return Value::invalid();
    }
    Value idx = elabExpr(*e.indices[0]);
    auto i = requireConstInt(idx, e.indices[0]->getLoc(), "a tuple index");
    if (!i)
      return Value::invalid();
    int64_t n = static_cast<int64_t>(base.elements.size());
    int64_t k = *i < 0 ? *i + n : *i;
    if (k < 0 || k >= n) {
      error(e.indices[0]->getLoc(), "tuple index " + llvm::Twine(*i) +
                                        " out of range for a tuple of " +
                                        llvm::Twine(n));
      return Value::invalid();
    }
    return std::move(base.elements[k]);
  }
  if (!requireExpr(base, e.getLoc(), "subscript"))
    return Value::invalid();
  int64_t rank = base.type().getRank();
  int64_t slices = 0;
  for (const auto &idx : e.indices) {
    auto *slice = llvm::dyn_cast<ast::SliceExpr>(idx.get());
    if (slice && !slice->lower && !slice->upper && !slice->step) {
      ++slices;
      continue;
    }
    if (llvm::isa<ast::NoneLiteral>(*idx))
      continue;
    error(idx->getLoc(), "only ':' and 'None' are supported when indexing a "
                         "block (e.g. x[:, None]); blocks cannot be sliced or "
                         "indexed element by element");
    return Value::invalid();
  }
  if (slices > rank) {
    error(e.getLoc(), "too many ':' indices (" + llvm::Twine(slices) +
                          ") for a block of rank " + llvm::Twine(rank) + " (" +
                          base.type().str() + ")");
    return Value::invalid();
  }
  ExprPtr x = std::move(base.expr);
  if (x->getType().isScalar()) {
    std::vector<int64_t> ones(e.indices.size(), 1);
    return Value::ofExpr(broadcastTo(std::move(x), ones, e.getLoc()));
  }
  int64_t pos = 0;
  for (const auto &idx : e.indices) {
    if (!llvm::isa<ast::NoneLiteral>(*idx)) {
      ++pos;
      continue;
    }
    std::vector<int64_t> shape = x->getType().shape;
    shape.insert(shape.begin() + pos, 1);
    TType type = x->getType().withShape(shape);
    x = std::make_unique<ck::ExpandDimsExpr>(type, e.getLoc(), std::move(x),
                                             pos);
    ++pos;
  }
  return Value::ofExpr(std::move(x));
}

Value Sema::elabTernary(const ast::TernaryExpr &e) {
  Value cond = elabExpr(*e.cond);
  if (cond.isInvalid())
    return cond;
  if (std::optional<bool> c = cond.getConstTruth())
    return elabExpr(*c ? *e.trueValue : *e.falseValue);
  CallArgs args;
  args.loc = e.getLoc();
  args.args.push_back(std::move(cond));
  args.args.push_back(elabExpr(*e.trueValue));
  args.args.push_back(elabExpr(*e.falseValue));
  args.argLocs = {e.cond->getLoc(), e.trueValue->getLoc(),
                  e.falseValue->getLoc()};
  return callBuiltin("where", args, e.getLoc());
}
