//===- ExprGen.cpp - Random well-conditioned .tile expressions ------------===//
//
// Expressions of a requested type whose shape fits a requested shape, with
// the interval, error bound and exactness of their value (see GenImpl.h).
// Every operation checks its preconditions on the operands' intervals (a
// divisor away from 0, log and sqrt of values >= 0.5, exp of bounded
// arguments, integers within 2^20) and gives up when they fail; the caller
// then tries another operation, and finally a leaf, which always works.
//
//===----------------------------------------------------------------------===//

#include "GenImpl.h"

#include <cstdio>

using namespace tilec::gen;
using namespace tilec::gen::detail;

namespace {
/// Float literals exact in f16 (so a literal means the same in f16, f32 and
/// float64).
const double kFloatLiterals[] = {0.5,  2.0, 1.5,  0.25, 3.0,
                                 0.75, 1.0, -0.5, -2.0, 1.25};
const int kIntLiterals[] = {1, 2, 3, 5, 7, -1, -3, 16, 4, 0};

std::string formatNumber(double value, bool isFloat) {
  char buffer[64];
  if (!isFloat)
    std::snprintf(buffer, sizeof(buffer), "%lld",
                  static_cast<long long>(value));
  else if (value == std::floor(value) && std::fabs(value) < 1e6)
    std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  else
    std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

/// The float result of an operation on f32, rounded to f16 for f16.
double roundingError(DType type, double mag, double ulps) {
  double err = ulps * unitRoundoff(DType::F32) * std::max(mag, 1e-30);
  if (type == DType::F16)
    err += unitRoundoff(DType::F16) * mag;
  return err;
}

bool withinCaps(const Value &v) {
  if (!std::isfinite(v.lo) || !std::isfinite(v.hi) || !std::isfinite(v.err))
    return false;
  if (v.type == DType::I32)
    return v.mag() <= kMaxInt;
  if (isFloat(v.type))
    return v.mag() + v.err <= maxMagnitude(v.type);
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Types and shapes
//===----------------------------------------------------------------------===//

tilec::ScalarType tilec::gen::detail::scalarType(DType type) {
  static const ScalarType types[] = {ScalarType::I1, ScalarType::I32,
                                     ScalarType::F16, ScalarType::F32};
  return types[static_cast<int>(type)];
}

const char *tilec::gen::detail::typeName(DType type) {
  return scalarTypeName(scalarType(type));
}

double tilec::gen::detail::unitRoundoff(DType type) {
  if (type == DType::F16)
    return std::ldexp(1.0, -11);
  if (type == DType::F32)
    return std::ldexp(1.0, -24);
  return 0;
}

double tilec::gen::detail::maxMagnitude(DType type) {
  return type == DType::F16 ? 64.0 : 1024.0;
}

bool tilec::gen::detail::fitsIn(Shape a, Shape b) {
  return a == b || a == Shape::Scalar || b == Shape::Tile;
}

Shape tilec::gen::detail::join(Shape a, Shape b) {
  if (a == b || b == Shape::Scalar)
    return a;
  if (a == Shape::Scalar)
    return b;
  return Shape::Tile;
}

/// A call prefix: none, `tl.` or `tl.math.` (math built-ins only).
std::string tilec::gen::detail::callPrefix(ChoiceSource &c, bool math) {
  switch (c.below(math ? 6 : 4)) {
  case 3:
    return "tl.";
  case 4:
  case 5:
    return math ? "tl.math." : "";
  default:
    return "";
  }
}

std::string tilec::gen::detail::typeSpelling(ChoiceSource &c, DType type) {
  std::string triton = tritonDTypeName(scalarType(type)); // "tl.int32"
  switch (c.below(3)) {
  case 0:
    return typeName(type);
  case 1:
    return triton.substr(3); // The long name: "int32".
  default:
    return triton;
  }
}

std::string KernelGen::operand(const Value &value, Shape shape) const {
  std::string text = value.atom ? value.text : "(" + value.text + ")";
  if (shape == Shape::Tile && value.shape == Shape::Row)
    return text + "[:, None]";
  if (shape == Shape::Tile && value.shape == Shape::Col)
    return text + "[None, :]";
  return text;
}

Shape KernelGen::pickShape(Shape max) {
  if (max == Shape::Scalar)
    return max;
  if (max != Shape::Tile)
    return c.chance(20) ? Shape::Scalar : max;
  static const Shape shapes[] = {Shape::Tile, Shape::Tile, Shape::Tile,
                                 Shape::Row,  Shape::Col,  Shape::Scalar};
  return shapes[c.below(6)];
}

//===----------------------------------------------------------------------===//
// Leaves
//===----------------------------------------------------------------------===//

Value KernelGen::literal(DType type) {
  Value v;
  v.type = type;
  v.isConst = true;
  double value =
      isFloat(type) ? kFloatLiterals[c.below(10)] : kIntLiterals[c.below(10)];
  v.lo = v.hi = value;
  v.text = formatNumber(value, isFloat(type));
  v.atom = value >= 0;
  return v;
}

std::optional<Value> KernelGen::load(DType type, Shape shape) {
  std::string offsets, mask;
  uint64_t count;
  loadAddress(shape, offsets, mask, count);
  std::string name = addInput(type, count);
  const ParamSpec &input =
      *std::find_if(params.begin(), params.end(),
                    [&](const ParamSpec &p) { return p.name == name; });
  Value v;
  v.type = type;
  v.shape = shape;
  v.lo = input.lo;
  v.hi = input.hi;
  std::string text = "load(" + name + " + " + offsets;
  if (!mask.empty()) {
    if (c.chance(20)) {
      mask = "(" + mask + ") & (" + offsets + " % " +
             std::to_string(c.inRange(2, 5)) + " != 0)";
      feature("load_mask_expr");
    }
    text += (c.chance(30) ? ", " : ", mask=") + mask;
    if (c.chance(70)) {
      Value other = literal(type);
      text += ", other=" + other.text;
      v.lo = std::min(v.lo, other.lo);
      v.hi = std::max(v.hi, other.hi);
      feature("load_other");
    } else {
      v.lo = std::min(v.lo, 0.0);
      v.hi = std::max(v.hi, 0.0);
    }
    feature("load_mask");
  }
  v.text = text + ")";
  return v;
}

std::optional<Value> KernelGen::leaf(DType type, Shape shape, bool exactOnly) {
  if (type == DType::F16 && !options.allowF16)
    type = DType::F32;
  std::vector<size_t> candidates;
  for (size_t i = 0; i < vars.size(); ++i) {
    const Value &var = vars[i];
    if (fitsIn(var.shape, shape) && !hidden.count(var.text) &&
        (!exactOnly || var.exact) &&
        (var.type == type || (var.type != DType::I1 && c.chance(30))))
      candidates.push_back(i);
  }
  if (!candidates.empty() && !c.chance(35)) {
    // Prefer recent variables: deeper data flow.
    size_t n = candidates.size();
    size_t index = candidates[n - 1 - std::min(c.below(n), c.below(n))];
    if (std::optional<Value> converted = convert(vars[index], type))
      if (!exactOnly || converted->exact) {
        vars[index].used = true;
        return converted;
      }
  }
  if (type == DType::I1)
    return std::nullopt;
  if (shape != Shape::Scalar && c.chance(15)) {
    // A scalar parameter broadcasts into the block.
    shape = Shape::Scalar;
  }
  if (shape == Shape::Scalar && c.chance(50)) {
    Value v;
    v.type = type;
    if (type == DType::I32) {
      const Axis &axis = c.chance(50) ? dom.rows : dom.cols;
      if (!dom.twoD || c.chance(50)) {
        v.text = axis.size;
        v.lo = v.hi = static_cast<double>(axis.extent);
      } else {
        v.text = axis.pid;
        v.lo = 0;
        v.hi = static_cast<double>(axis.programs - 1);
      }
      return v;
    }
    static const double values[] = {0.75, 1.5, -0.25, 2.0, 0.5};
    double value = values[c.below(5)];
    v.text = addScalar(DType::F32, value);
    v.lo = v.hi = value;
    v.type = DType::F32;
    feature("scalar_param");
    return convert(v, type);
  }
  return load(type, pickShape(shape));
}

//===----------------------------------------------------------------------===//
// Conversions and broadcasts
//===----------------------------------------------------------------------===//

std::optional<Value> KernelGen::convert(const Value &value, DType type) {
  if (value.type == type)
    return value;
  if (value.isConst || type == DType::I1)
    return std::nullopt;
  Value v = value;
  v.type = type;
  if (isFloat(value.type) && type == DType::I32) {
    if (!value.exact)
      return std::nullopt;
    v.lo = std::trunc(value.lo);
    v.hi = std::trunc(value.hi);
  } else if (value.type == DType::F32 && type == DType::F16) {
    v.err += unitRoundoff(DType::F16) * value.mag();
    v.exact = false;
  }
  if (!withinCaps(v))
    return std::nullopt;
  std::string spelling = typeSpelling(c, type);
  if (c.chance(15))
    v.text = "cast(" + value.text + ", " + spelling + ")";
  else
    v.text = operand(value, value.shape) + ".to(" + spelling + ")";
  v.atom = true;
  feature("cast");
  return v;
}

Value KernelGen::broadcastTo(const Value &value, Shape shape) {
  if (value.shape == shape)
    return value;
  std::string shapeText;
  if (shape == Shape::Tile)
    shapeText = "(" + dom.rows.blockName + ", " + dom.cols.blockName + ")";
  else
    shapeText =
        "(" + (shape == Shape::Row ? dom.rows : dom.cols).blockName + ",)";
  std::string type = typeSpelling(c, value.type);
  Value v = value;
  v.shape = shape;
  v.isConst = false;
  v.atom = true;
  if (value.shape == Shape::Scalar) {
    if (c.chance(50) || value.isConst)
      v.text = "full(" + shapeText + ", " + value.text + ", " + type + ")";
    else
      v.text = "(" + operand(value, shape) + " + zeros(" + shapeText + ", " +
               type + "))";
    feature("full");
    return v;
  }
  // A row or column to a tile.
  std::string expanded;
  int axis = value.shape == Shape::Row ? 1 : 0;
  if (c.chance(30)) {
    expanded = "expand_dims(" + value.text + ", " + std::to_string(axis) + ")";
    feature("expand_dims");
  } else {
    expanded = operand(value, shape);
  }
  if (c.chance(50))
    v.text = "broadcast_to(" + expanded + ", " + shapeText + ")";
  else
    v.text = "(" + expanded + " + zeros(" + shapeText + ", " + type + "))";
  feature("broadcast");
  return v;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

std::optional<Value> KernelGen::binary(const std::string &op, const Value &a,
                                       const Value &b) {
  if (a.isConst && b.isConst)
    return std::nullopt;
  if (a.type != b.type && !a.isConst && !b.isConst)
    return std::nullopt;
  DType type = a.isConst ? b.type : a.type;
  Value v;
  v.type = type;
  // `/` on integers gives f32; on f16 it computes (and stays) in f32.
  if (op == "/" && type != DType::F32)
    v.type = type = DType::F32;
  v.shape = join(a.shape, b.shape);
  v.text = operand(a, v.shape) + " " + op + " " + operand(b, v.shape);
  v.atom = false;
  v.exact = a.exact && b.exact;
  double u = unitRoundoff(type);
  bool isCompare = op == "<" || op == "<=" || op == ">" || op == ">=" ||
                   op == "==" || op == "!=";
  if (isCompare) {
    if (!v.exact)
      return std::nullopt;
    v.type = DType::I1;
    v.lo = 0;
    v.hi = 1;
    return v;
  }
  if (op == "+" || op == "-") {
    if (op == "+")
      hull(v, {a.lo + b.lo, a.hi + b.hi});
    else
      hull(v, {a.lo - b.hi, a.hi - b.lo});
    if (isFloat(type)) {
      v.err = a.err + b.err + u * v.mag();
      v.exact = false;
    }
  } else if (op == "*") {
    hull(v, {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi});
    if (isFloat(type)) {
      v.err = a.err * b.mag() + b.err * a.mag() + a.err * b.err + u * v.mag();
      // Scaling by a power of two >= 1 is exact.
      const Value &k = a.isConst ? a : b;
      bool scale = k.isConst && k.lo == k.hi && k.lo >= 1 &&
                   std::exp2(std::round(std::log2(k.lo))) == k.lo;
      v.exact = v.exact && scale;
    }
  } else if (op == "/") {
    double dmin = b.gpuLo() >= 0.5 ? b.gpuLo() : -b.gpuHi();
    if (dmin < 0.5)
      return std::nullopt;
    hull(v, {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi});
    v.err = a.err / dmin + (a.mag() + a.err) * b.err / (dmin * dmin) +
            roundingError(type, v.mag(), 4);
    v.exact = false;
  } else if (op == "//" || op == "%") {
    if (type != DType::I32 || !(b.lo >= 1 || b.hi <= -1))
      return std::nullopt;
    if (op == "//") {
      hull(v, {std::trunc(a.lo / b.lo), std::trunc(a.lo / b.hi),
               std::trunc(a.hi / b.lo), std::trunc(a.hi / b.hi)});
    } else {
      double r = b.mag() - 1;
      v.lo = a.lo >= 0 ? 0 : -std::min(-a.lo, r);
      v.hi = a.hi <= 0 ? 0 : std::min(a.hi, r);
    }
  } else if (op == "&" || op == "|" || op == "^") {
    if (type == DType::I1) {
      v.lo = 0;
      v.hi = 1;
      return v;
    }
    if (type != DType::I32)
      return std::nullopt;
    const Value &k = b.isConst ? b : a;
    if (op == "&" && k.isConst && k.lo >= 0) {
      v.lo = 0;
      v.hi = k.lo;
    } else if (a.lo >= 0 && b.lo >= 0) {
      v.lo = 0;
      v.hi = std::exp2(std::ceil(std::log2(std::max(a.hi, b.hi) + 1))) - 1;
    } else {
      return std::nullopt;
    }
  } else if (op == "<<" || op == ">>") {
    if (type != DType::I32 || !b.isConst || b.lo < 0 || b.lo > 4)
      return std::nullopt;
    double scale = std::exp2(b.lo);
    if (op == "<<")
      hull(v, {a.lo * scale, a.hi * scale});
    else
      hull(v, {std::floor(a.lo / scale), std::floor(a.hi / scale)});
  } else {
    return std::nullopt;
  }
  if (!withinCaps(v))
    return std::nullopt;
  return v;
}

std::optional<Value> KernelGen::unary(const std::string &fn, const Value &x) {
  if (x.isConst || x.type == DType::I1)
    return std::nullopt;
  Value v = x;
  v.atom = true;
  if (fn == "-") {
    v.text = "-" + operand(x, x.shape);
    v.atom = false;
    hull(v, {-x.hi, -x.lo});
    return v;
  }
  if (fn == "abs") {
    v.text = callPrefix(c, true) + "abs(" + x.text + ")";
    if (x.lo >= 0)
      return v;
    if (x.hi <= 0)
      hull(v, {-x.hi, -x.lo});
    else
      hull(v, {0.0, x.mag()});
    return v;
  }
  if (!isFloat(x.type))
    return std::nullopt;
  v.text = callPrefix(c, true) + fn + "(" + x.text + ")";
  v.exact = false;
  double lo = x.gpuLo(), hi = x.gpuHi();
  double slope;
  if (fn == "floor" || fn == "ceil") {
    if (!x.exact)
      return std::nullopt;
    v.exact = true;
    bool isFloor = fn == "floor";
    hull(v, {isFloor ? std::floor(x.lo) : std::ceil(x.lo),
             isFloor ? std::floor(x.hi) : std::ceil(x.hi)});
    return v;
  }
  if (fn == "exp" || fn == "exp2") {
    if (hi > (fn == "exp" ? 4 : 5) || lo < -30)
      return std::nullopt;
    double base = fn == "exp" ? std::exp(1.0) : 2.0;
    hull(v, {std::pow(base, x.lo), std::pow(base, x.hi)});
    slope = std::pow(base, hi) * std::log(base);
  } else if (fn == "log" || fn == "log2" || fn == "sqrt" || fn == "rsqrt") {
    if (lo < 0.5)
      return std::nullopt;
    if (fn == "log") {
      hull(v, {std::log(x.lo), std::log(x.hi)});
      slope = 1 / lo;
    } else if (fn == "log2") {
      hull(v, {std::log2(x.lo), std::log2(x.hi)});
      slope = 1 / (lo * std::log(2.0));
    } else if (fn == "sqrt") {
      hull(v, {std::sqrt(x.lo), std::sqrt(x.hi)});
      slope = 0.5 / std::sqrt(lo);
    } else {
      hull(v, {1 / std::sqrt(x.lo), 1 / std::sqrt(x.hi)});
      slope = 0.5 / (lo * std::sqrt(lo));
    }
  } else if (fn == "sin" || fn == "cos") {
    if (x.mag() > 64)
      return std::nullopt;
    hull(v, {-1.0, 1.0});
    slope = 1;
  } else if (fn == "tanh") {
    hull(v, {std::tanh(x.lo), std::tanh(x.hi)});
    slope = 1;
  } else if (fn == "erf") {
    hull(v, {std::erf(x.lo), std::erf(x.hi)});
    slope = 1.13;
  } else if (fn == "sigmoid") {
    hull(v, {1 / (1 + std::exp(-x.lo)), 1 / (1 + std::exp(-x.hi))});
    slope = 0.25;
  } else {
    return std::nullopt;
  }
  v.err = slope * x.err + roundingError(x.type, v.mag(), 8);
  feature("math_" + fn);
  if (!withinCaps(v))
    return std::nullopt;
  return v;
}
