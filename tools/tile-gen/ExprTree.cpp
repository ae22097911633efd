//===- ExprTree.cpp - Random expression trees of the .tile generator ------===//
//
// Picks the operation at each node of an expression tree: arithmetic, math
// built-ins, maximum/minimum, where, fma, reductions (sum/max/min/argmax/
// argmin over an axis or all), conversions and transposes, for floats,
// integers and conditions. Leaves are variables, loads, parameters and
// literals (ExprGen.cpp).
//
//===----------------------------------------------------------------------===//

#include "GenImpl.h"

#include <cstdio>

using namespace tilec::gen;
using namespace tilec::gen::detail;

namespace {
const char *const kCompares[] = {"<", "<=", ">", ">=", "==", "!="};
} // namespace

Value KernelGen::literalValue(DType type, double value) {
  Value v;
  v.type = type;
  v.isConst = true;
  v.lo = v.hi = value;
  char buffer[32];
  if (isFloat(type))
    std::snprintf(buffer, sizeof(buffer), "%g", value);
  else
    std::snprintf(buffer, sizeof(buffer), "%d", static_cast<int>(value));
  v.text = buffer;
  if (isFloat(type) && v.text.find_first_of(".e") == std::string::npos)
    v.text += ".0";
  v.atom = value >= 0;
  return v;
}

std::optional<Value> KernelGen::minMax(const std::string &fn, const Value &a,
                                       const Value &b) {
  if ((a.isConst && b.isConst) ||
      (a.type != b.type && !a.isConst && !b.isConst))
    return std::nullopt;
  Value v = a.isConst ? b : a;
  v.shape = join(a.shape, b.shape);
  v.text = callPrefix(c, true) + fn + "(" + operand(a, v.shape) + ", " +
           operand(b, v.shape) + ")";
  v.atom = true;
  v.isConst = false;
  if (fn == "maximum")
    hull(v, {std::max(a.lo, b.lo), std::max(a.hi, b.hi)});
  else
    hull(v, {std::min(a.lo, b.lo), std::min(a.hi, b.hi)});
  v.err = std::max(a.err, b.err);
  v.exact = a.exact && b.exact;
  feature(fn);
  return v;
}

std::optional<Value> KernelGen::select(const Value &cond, const Value &a,
                                       const Value &b) {
  if (cond.type != DType::I1 || (a.isConst && b.isConst) ||
      (a.type != b.type && !a.isConst && !b.isConst))
    return std::nullopt;
  Value v = a.isConst ? b : a;
  v.shape = join(cond.shape, join(a.shape, b.shape));
  std::string cs = operand(cond, v.shape), as = operand(a, v.shape),
              bs = operand(b, v.shape);
  if (c.chance(25)) {
    v.text = as + " if " + cs + " else " + bs;
    v.atom = false;
  } else {
    v.text = callPrefix(c, false) + "where(" + cs + ", " + as + ", " + bs + ")";
    v.atom = true;
  }
  v.isConst = false;
  hull(v, {a.lo, b.lo, a.hi, b.hi});
  v.err = std::max(a.err, b.err);
  v.exact = a.exact && b.exact;
  feature("where");
  return v;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

Value KernelGen::gen(DType type, Shape shape, int depth) {
  if (type == DType::F16 && !options.allowF16)
    type = DType::F32;
  if (type == DType::I1)
    return genCond(shape, depth);
  for (int attempt = 0; depth > 0 && attempt < 4 && !c.chance(20); ++attempt) {
    std::optional<Value> v =
        type == DType::I32 ? intOp(shape, depth) : floatOp(type, shape, depth);
    if (v && !v->isConst && v->type == type && fitsIn(v->shape, shape))
      return *v;
  }
  if (std::optional<Value> v = leaf(type, shape, /*exactOnly=*/false))
    if (!v->isConst && v->type == type)
      return *v;
  return *load(type, pickShape(shape));
}

Value KernelGen::genExact(DType type, Shape shape, int depth) {
  if (type == DType::F16 && !options.allowF16)
    type = DType::F32;
  if (type == DType::I1)
    return genCond(shape, depth);
  if (type == DType::I32)
    return gen(type, shape, depth);
  for (int attempt = 0; depth > 0 && attempt < 4 && !c.chance(30); ++attempt) {
    std::optional<Value> v = exactFloatOp(type, shape, depth);
    if (v && v->exact && !v->isConst && v->type == type &&
        fitsIn(v->shape, shape))
      return *v;
  }
  if (std::optional<Value> v = leaf(type, shape, /*exactOnly=*/true))
    if (!v->isConst && v->exact && v->type == type)
      return *v;
  return *load(type, pickShape(shape));
}

Value KernelGen::genPositive(DType type, Shape shape, int depth) {
  Value x = gen(type, shape, depth);
  if (x.gpuLo() >= 0.5)
    return x;
  static const double offsets[] = {0.5, 1.0, 2.0};
  Value k = literalValue(type, offsets[c.below(3)]);
  std::optional<Value> v;
  switch (c.below(4)) {
  case 0:
    if (std::optional<Value> a = unary("abs", x))
      v = binary("+", *a, k);
    break;
  case 1:
    if (std::optional<Value> sq = binary("*", x, x))
      v = binary("+", *sq, k);
    break;
  case 2:
    if (std::optional<Value> s = unary("sigmoid", x))
      v = binary("+", *s, literalValue(type, 1.0));
    break;
  default:
    v = minMax("maximum", x, literalValue(type, 1.0));
    break;
  }
  if (v && v->gpuLo() >= 0.5)
    return *v;
  Value one = literalValue(type, 1.0);
  return *binary("+", *unary("abs", *load(type, pickShape(shape))), one);
}

Value KernelGen::genNonZero(Shape shape, int depth) {
  static const int literals[] = {2, 3, 5, 7, -3, 1};
  std::optional<Value> v;
  switch (c.below(4)) {
  case 0:
    return literalValue(DType::I32, literals[c.below(6)]);
  case 1:
    if (std::optional<Value> a = unary("abs", gen(DType::I32, shape, depth)))
      v = binary("+", *a, literalValue(DType::I32, 1));
    break;
  case 2:
    if (std::optional<Value> r = binary("%", gen(DType::I32, shape, depth),
                                        literalValue(DType::I32, 7)))
      v = binary("+", *r, literalValue(DType::I32, 8));
    break;
  default:
    v = minMax("maximum", gen(DType::I32, shape, depth),
               literalValue(DType::I32, 1));
    break;
  }
  if (v && (v->lo >= 1 || v->hi <= -1))
    return *v;
  return literalValue(DType::I32, 3);
}

Value KernelGen::genCond(Shape shape, int depth) {
  std::optional<Value> v;
  unsigned pick = depth > 0 ? c.below(5) : 0;
  if (pick == 4) {
    std::vector<const Value *> conds;
    for (const Value &var : vars)
      if (var.type == DType::I1 && fitsIn(var.shape, shape) &&
          !hidden.count(var.text))
        conds.push_back(&var);
    if (!conds.empty())
      return *conds[c.below(conds.size())];
    pick = 0;
  }
  if (pick == 2) {
    static const char *const ops[] = {"&", "|", "^"};
    v = binary(ops[c.below(3)], genCond(shape, depth - 1),
               genCond(shape, depth - 1));
  } else if (pick == 3) {
    Value x = genCond(shape, depth - 1);
    x.text = "~" + operand(x, x.shape);
    x.atom = false;
    v = x;
  }
  if (v)
    return *v;
  static const DType types[] = {DType::I32, DType::I32, DType::F32, DType::F16};
  DType type = types[c.below(4)];
  if (type == DType::F16 && !options.allowF16)
    type = DType::F32;
  Value a = genExact(type, shape, std::max(depth - 1, 0));
  Value b = c.chance(50) ? literal(type)
                         : genExact(type, shape, std::max(depth - 1, 0));
  if (c.chance(50) && !b.isConst)
    std::swap(a, b);
  v = binary(kCompares[c.below(6)], a, b);
  if (!v) // Cannot happen: both operands are exact and of one type.
    v = binary("<", a, literal(a.type));
  feature("compare");
  return *v;
}

//===----------------------------------------------------------------------===//
// Operations by result type
//===----------------------------------------------------------------------===//

std::optional<Value> KernelGen::arithmetic(DType type, Shape shape, int depth) {
  static const char *const ops[] = {"+", "-", "*"};
  Value a = gen(type, shape, depth - 1);
  Value b = c.chance(30) ? literal(type) : gen(type, shape, depth - 1);
  if (c.chance(50))
    std::swap(a, b);
  return binary(ops[c.below(3)], a, b);
}

std::optional<Value> KernelGen::floatOp(DType type, Shape shape, int depth) {
  auto sub = [&] { return gen(type, shape, depth - 1); };
  switch (c.below(12)) {
  case 0:
  case 1:
    return arithmetic(type, shape, depth);
  case 2: {
    feature("div");
    Value a = sub();
    std::optional<Value> v =
        c.chance(30)
            ? binary("/", a, literalValue(type, c.chance(50) ? 4.0 : -2.0))
            : binary("/", a, genPositive(type, shape, depth - 1));
    // f16 / f16 is f32.
    return v ? convert(*v, type) : v;
  }
  case 3:
  case 4: {
    static const char *const fns[] = {"exp",     "exp2", "log", "log2", "sqrt",
                                      "rsqrt",   "sin",  "cos", "tanh", "erf",
                                      "sigmoid", "abs",  "-"};
    std::string fn = fns[c.below(13)];
    bool positive =
        fn == "log" || fn == "log2" || fn == "sqrt" || fn == "rsqrt";
    return unary(fn, positive ? genPositive(type, shape, depth - 1) : sub());
  }
  case 5:
    return minMax(c.chance(50) ? "maximum" : "minimum", sub(),
                  c.chance(30) ? literal(type) : sub());
  case 6:
    return select(genCond(shape, depth - 1), sub(),
                  c.chance(30) ? literal(type) : sub());
  case 7: {
    Value a = sub(), b = sub(), d = sub();
    std::optional<Value> product = binary("*", a, b);
    if (!product)
      return std::nullopt;
    std::optional<Value> v = binary("+", *product, d);
    if (!v)
      return std::nullopt;
    v->text = callPrefix(c, true) + "fma(" + operand(a, v->shape) + ", " +
              operand(b, v->shape) + ", " + operand(d, v->shape) + ")";
    v->atom = true;
    feature("fma");
    return v;
  }
  case 8:
    return reduction(type, shape, depth, /*exactOnly=*/false);
  case 9: {
    static const DType others[] = {DType::F32, DType::F16, DType::I32};
    DType other = others[c.below(3)];
    if (other == type || (other == DType::F16 && !options.allowF16))
      other = DType::I32;
    return convert(gen(other, shape, depth - 1), type);
  }
  case 10:
    if (type == DType::F32) {
      feature("int_div");
      return binary("/", gen(DType::I32, shape, depth - 1),
                    genNonZero(shape, depth - 1));
    }
    return std::nullopt;
  default:
    if (dom.twoD && shape == Shape::Tile && dom.rows.block == dom.cols.block &&
        c.chance(40)) {
      Value v = broadcastTo(sub(), Shape::Tile);
      v.text = c.chance(50) ? "trans(" + v.text + ")"
                            : operand(v, Shape::Tile) + ".T";
      v.atom = true;
      feature("trans");
      return v;
    }
    return exactFloatOp(type, shape, depth);
  }
}

std::optional<Value> KernelGen::exactFloatOp(DType type, Shape shape,
                                             int depth) {
  auto sub = [&] { return genExact(type, shape, depth - 1); };
  switch (c.below(7)) {
  case 0:
    return unary(c.chance(50) ? "abs" : "-", sub());
  case 1:
    return minMax(c.chance(50) ? "maximum" : "minimum", sub(),
                  c.chance(30) ? literal(type) : sub());
  case 2:
    return select(genCond(shape, depth - 1), sub(), sub());
  case 3:
    return binary("*", sub(), literalValue(type, c.chance(50) ? 2.0 : 4.0));
  case 4:
    return unary(c.chance(50) ? "floor" : "ceil", sub());
  case 5:
    return convert(gen(DType::I32, shape, depth - 1), type);
  default:
    return reduction(type, shape, depth, /*exactOnly=*/true);
  }
}

std::optional<Value> KernelGen::intOp(Shape shape, int depth) {
  const DType i32 = DType::I32;
  auto sub = [&] { return gen(i32, shape, depth - 1); };
  switch (c.below(10)) {
  case 0:
  case 1:
    return arithmetic(i32, shape, depth);
  case 2:
    feature("int_divmod");
    return binary(c.chance(50) ? "//" : "%", sub(),
                  genNonZero(shape, depth - 1));
  case 3:
    feature("bitwise");
    if (c.chance(50))
      return binary("&", sub(), literalValue(i32, c.inRange(1, 255)));
    return binary(c.chance(50) ? "|" : "^", sub(), sub());
  case 4:
    feature("shift");
    return binary(c.chance(50) ? "<<" : ">>", sub(),
                  literalValue(i32, c.inRange(0, 4)));
  case 5:
    return unary(c.chance(50) ? "abs" : "-", sub());
  case 6:
    if (c.chance(50))
      return minMax(c.chance(50) ? "maximum" : "minimum", sub(),
                    c.chance(30) ? literal(i32) : sub());
    return select(genCond(shape, depth - 1), sub(),
                  c.chance(30) ? literal(i32) : sub());
  case 7:
    return reduction(i32, shape, depth, /*exactOnly=*/false);
  case 8: {
    static const double scales[] = {1.0, 2.0, 4.0, 8.0, 16.0};
    DType from = c.chance(50) || !options.allowF16 ? DType::F32 : DType::F16;
    std::optional<Value> scaled =
        binary("*", genExact(from, shape, depth - 1),
               literalValue(from, scales[c.below(5)]));
    if (!scaled)
      return std::nullopt;
    feature("float_to_int");
    return convert(*scaled, i32);
  }
  default: {
    if (c.chance(50))
      return convert(genCond(shape, depth - 1), i32);
    Value a = sub();
    int64_t k = c.inRange(1, 8);
    Value v = a;
    v.text = callPrefix(c, false) + "cdiv(" + a.text + ", " +
             std::to_string(k) + ")";
    v.atom = true;
    hull(v, {std::trunc((a.lo + k - 1) / k), std::trunc((a.hi + k - 1) / k)});
    feature("cdiv");
    return v;
  }
  }
}

std::optional<Value> KernelGen::reduction(DType type, Shape shape, int depth,
                                          bool exactOnly) {
  // (source shape, axis (-1: all), result shape)
  struct Form {
    Shape source;
    int axis;
  };
  std::vector<Form> forms;
  if (dom.twoD) {
    if (fitsIn(Shape::Row, shape))
      forms.push_back({Shape::Tile, 1});
    if (fitsIn(Shape::Col, shape))
      forms.push_back({Shape::Tile, 0});
    forms.push_back({Shape::Col, 0});
    forms.push_back({Shape::Tile, -1});
  }
  forms.push_back({Shape::Row, 0});
  forms.push_back({Shape::Row, -1});
  Form form = forms[c.below(forms.size())];
  int64_t n = reducedLength(form.source, form.axis);
  bool argReduce = type == DType::I32 && !exactOnly && c.chance(50);
  if (argReduce && form.axis < 0)
    form.axis = form.source == Shape::Tile ? 1 : 0;
  std::string fn;
  DType sourceType = type;
  if (argReduce) {
    static const DType types[] = {DType::F32, DType::F16, DType::I32};
    sourceType = types[c.below(3)];
    if (sourceType == DType::F16 && !options.allowF16)
      sourceType = DType::F32;
    fn = c.chance(50) ? "argmax" : "argmin";
  } else {
    static const char *const fns[] = {"sum", "max", "min"};
    fn = fns[exactOnly ? 1 + c.below(2) : c.below(3)];
    // f16 sums of many elements lose too much: sum them in f32.
    if (fn == "sum" && type == DType::F16 && n > 16)
      fn = "max";
  }
  bool widen =
      fn == "sum" && type == DType::F32 && options.allowF16 && c.chance(25);
  if (widen)
    sourceType = DType::F16;
  Value x = exactOnly || argReduce
                ? genExact(sourceType, form.source, depth - 1)
                : gen(sourceType, form.source, depth - 1);
  x = broadcastTo(x, form.source);

  Value v = x;
  v.type = type;
  v.atom = true;
  v.isConst = false;
  v.shape = form.axis < 0                ? Shape::Scalar
            : form.source != Shape::Tile ? Shape::Scalar
            : form.axis == 1             ? Shape::Row
                                         : Shape::Col;
  std::string axis = form.axis < 0 ? "None" : std::to_string(form.axis);
  if (form.axis >= 0 && c.chance(20))
    axis = form.source == Shape::Tile ? std::to_string(form.axis - 2) : "-1";
  std::string extra =
      widen ? ", dtype=" + std::string(c.chance(50) ? "float32" : "tl.float32")
            : "";
  if (c.chance(25) && !argReduce)
    v.text = operand(x, x.shape) + "." + fn + "(axis=" + axis + extra + ")";
  else
    v.text = callPrefix(c, false) + fn + "(" + x.text + ", axis=" + axis +
             extra + ")";
  feature("reduce_" + fn);
  if (argReduce) {
    v.lo = 0;
    v.hi = static_cast<double>(n - 1);
    v.err = 0;
    v.exact = true;
    return v;
  }
  if (fn != "sum")
    return v;
  double nd = static_cast<double>(n);
  hull(v, {nd * x.lo, nd * x.hi});
  if (isFloat(type)) {
    v.err = nd * x.err + (nd - 1) * unitRoundoff(type) * nd * x.mag();
    v.exact = false;
    // Scale large sums back by a power of two.
    double cap = maxMagnitude(type) / 2;
    if (v.mag() + v.err > cap) {
      double scale = std::exp2(std::floor(std::log2(cap / (v.mag() + v.err))));
      return binary("*", v, literalValue(type, scale));
    }
  }
  if (type == DType::I32 && v.mag() > kMaxInt)
    return std::nullopt;
  return v;
}
