//===- ArithOps.cpp - arith and math ops of the interpreter ---------------===//
//
// Elementwise `arith` and `math` ops. Floats are computed in float64 and
// rounded only by `truncf`, conversions to integers and bitcasts; integers
// wrap at their width like the GPU's instructions: division by zero is an
// error, shifts by the width or more give 0 (or the sign, for `shrsi`) as
// PTX clamps them, and float-to-integer conversions saturate (NaN gives 0)
// as `cvt.rzi` does. Index arithmetic also computes exact values, which
// comparisons use (TileValue in Executor.h). `math` ops are in MathOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/Transforms/ExactIntegers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tilec::interp;

namespace {
/// Sets the exact values of `result` to `fn(i)`, keeping `exact` empty
/// while they equal the values as computed.
template <typename Fn> void setExact(TileValue &result, Fn fn) {
  for (std::int64_t i = 0, e = result.size(); i < e; ++i) {
    std::int64_t value = fn(i);
    if (!result.exact.empty()) {
      result.exact[i] = value;
    } else if (value != result.ints[i]) {
      result.exact = result.ints;
      result.exact[i] = value;
    }
  }
}

/// `fn(a, b, width)` on the two integer operands; wraps the result. Ops
/// that propagate exact values get `fn` of the operands' exact values in
/// 64 bits too.
template <typename Fn>
LogicalResult intBinary(Executor &exec, Operation *op, Fn fn) {
  const TileValue &a = exec.get(op->getOperand(0));
  const TileValue &b = exec.get(op->getOperand(1));
  unsigned width = getIntWidth(getElementType(op->getOperand(0)));
  TileValue result = makeLike(op->getResult(0), ElemKind::Int);
  for (std::int64_t i = 0, e = result.size(); i < e; ++i)
    result.ints[i] = wrapInt(fn(a.ints[i], b.ints[i], width), width);
  // Exactness follows the same rule as tile-promote-offsets; a bitwise op
  // works on its operands' bits as computed (ExactIntegers.h), so its exact
  // value is the computed one.
  if ((width < 64 || !a.exact.empty() || !b.exact.empty()) &&
      mlir::tile::ExactIntegerAnalysis::propagatesExactValue(op) &&
      !isa<mlir::arith::AndIOp, mlir::arith::OrIOp, mlir::arith::XOrIOp>(op))
    setExact(result, [&](std::int64_t i) {
      return fn(a.exactAt(i), b.exactAt(i), 64);
    });
  exec.set(op->getResult(0), std::move(result));
  return success();
}

/// Integer division and remainder; division by zero is an error.
enum class DivKind { DivS, DivU, RemS, RemU, CeilDivS, CeilDivU, FloorDivS };

LogicalResult intDivide(Executor &exec, Operation *op, DivKind kind) {
  const TileValue &a = exec.get(op->getOperand(0));
  const TileValue &b = exec.get(op->getOperand(1));
  unsigned width = getIntWidth(getElementType(op->getOperand(0)));
  TileValue result = makeLike(op->getResult(0), ElemKind::Int);
  for (std::int64_t i = 0, e = result.size(); i < e; ++i) {
    std::int64_t x = a.ints[i], y = b.ints[i];
    if (y == 0)
      return exec.error(op)
             << "integer division by zero "
             << exec.where(result.shape, result.shape.empty() ? -1 : i);
    std::uint64_t ux = zextInt(x, width), uy = zextInt(y, width);
    // The one signed overflow, INT_MIN / -1, wraps to INT_MIN (rem: 0).
    std::int64_t minimum = wrapInt(
        static_cast<std::int64_t>(std::uint64_t(1) << (width - 1)), width);
    bool overflow = y == -1 && x == minimum;
    std::int64_t r = 0;
    switch (kind) {
    case DivKind::DivS:
      r = overflow ? x : x / y;
      break;
    case DivKind::RemS:
      r = overflow ? 0 : x % y;
      break;
    case DivKind::DivU:
      r = static_cast<std::int64_t>(ux / uy);
      break;
    case DivKind::RemU:
      r = static_cast<std::int64_t>(ux % uy);
      break;
    case DivKind::CeilDivU:
      r = static_cast<std::int64_t>(ux / uy + (ux % uy != 0));
      break;
    case DivKind::CeilDivS:
    case DivKind::FloorDivS: {
      if (overflow) {
        r = x;
        break;
      }
      std::int64_t q = x / y;
      bool inexact = x % y != 0, positive = (x < 0) == (y < 0);
      if (kind == DivKind::CeilDivS && inexact && positive)
        ++q;
      if (kind == DivKind::FloorDivS && inexact && !positive)
        --q;
      r = q;
      break;
    }
    }
    result.ints[i] = wrapInt(r, width);
  }
  exec.set(op->getResult(0), std::move(result));
  return success();
}

/// Shifts by the width or more clamp, as PTX's `shl`/`shr` do.
enum class ShiftKind { Left, RightSigned, RightUnsigned };

std::int64_t shift(std::int64_t a, std::int64_t b, unsigned width,
                   ShiftKind kind) {
  std::uint64_t amount = zextInt(b, width);
  if (amount >= width)
    return kind == ShiftKind::RightSigned && a < 0 ? -1 : 0;
  switch (kind) {
  case ShiftKind::Left:
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) << amount);
  case ShiftKind::RightSigned:
    return a >> amount;
  case ShiftKind::RightUnsigned:
    return static_cast<std::int64_t>(zextInt(a, width) >> amount);
  }
  return 0;
}

bool compareInts(arith::CmpIPredicate predicate, std::int64_t a, std::int64_t b,
                 unsigned width) {
  using P = arith::CmpIPredicate;
  bool isUnsigned = predicate == P::ult || predicate == P::ule ||
                    predicate == P::ugt || predicate == P::uge;
  std::uint64_t ua = zextInt(a, width), ub = zextInt(b, width);
  // a < b and a == b in the predicate's signedness.
  bool less = isUnsigned ? ua < ub : a < b;
  bool equal = isUnsigned ? ua == ub : a == b;
  switch (predicate) {
  case P::eq:
    return equal;
  case P::ne:
    return !equal;
  case P::slt:
  case P::ult:
    return less;
  case P::sle:
  case P::ule:
    return less || equal;
  case P::sgt:
  case P::ugt:
    return !less && !equal;
  case P::sge:
  case P::uge:
    return !less;
  }
  return false;
}

bool compareFloats(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

/// maxnum/minnum: a NaN operand yields the other.
double maxnum(double a, double b, bool isMax) {
  if (std::isnan(a))
    return b;
  if (std::isnan(b))
    return a;
  return floatMaximum(a, b, isMax);
}

/// `value` truncated toward zero and saturated to a `width`-bit integer, as
/// `cvt.rzi` converts (NaN gives 0).
std::int64_t floatToInt(double value, unsigned width, bool isUnsigned) {
  if (std::isnan(value))
    return 0;
  double t = std::trunc(value);
  if (isUnsigned) {
    double limit = std::ldexp(1.0, width); // 2^width
    if (t <= 0)
      return 0;
    if (t >= limit)
      return wrapInt(-1, width); // all ones
    return wrapInt(static_cast<std::int64_t>(static_cast<std::uint64_t>(t)),
                   width);
  }
  double limit = std::ldexp(1.0, width - 1);
  if (t < -limit)
    return wrapInt(static_cast<std::int64_t>(std::uint64_t(1) << (width - 1)),
                   width);
  if (t >= limit)
    return static_cast<std::int64_t>((std::uint64_t(1) << (width - 1)) - 1);
  return static_cast<std::int64_t>(t);
}

/// The bits of element `i` of `value` (of element type `elem`).
std::uint64_t getBits(const TileValue &value, std::int64_t i, Type elem) {
  if (isa<FloatType>(elem))
    return floatToBits(value.floats[i], elem);
  return zextInt(value.ints[i], getIntWidth(elem));
}

/// Sets element `i` of `value` (of element type `elem`) from bits.
void setBits(TileValue &value, std::int64_t i, Type elem, std::uint64_t bits) {
  if (isa<FloatType>(elem))
    value.floats[i] = bitsToFloat(bits, elem);
  else
    value.ints[i] = wrapInt(static_cast<std::int64_t>(bits), getIntWidth(elem));
}

LogicalResult runConstant(Executor &exec, arith::ConstantOp op) {
  Type type = op.getType();
  Type elem = getElementTypeOrSelf(type);
  TileValue result = TileValue::zeros(type);
  auto fill = [&](std::int64_t i, Attribute attr) {
    if (auto floatAttr = dyn_cast<FloatAttr>(attr))
      result.floats[i] = bitsToFloat(
          floatAttr.getValue().bitcastToAPInt().getZExtValue(), elem);
    else if (auto intAttr = dyn_cast<IntegerAttr>(attr))
      result.ints[i] = intAttr.getValue().getSExtValue();
  };
  Attribute value = op.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat()) {
      fill(0, dense.getSplatValue<Attribute>());
      if (isa<FloatType>(elem))
        result.floats.assign(result.size(), result.floats[0]);
      else
        result.ints.assign(result.size(), result.ints[0]);
    } else {
      for (auto [i, attr] : llvm::enumerate(dense.getValues<Attribute>()))
        fill(i, attr);
    }
  } else if (isa<FloatAttr, IntegerAttr>(value)) {
    fill(0, value);
  } else {
    return exec.error(op) << "the interpreter does not support the constant "
                          << value;
  }
  exec.set(op.getResult(), std::move(result));
  return success();
}

LogicalResult runSelect(Executor &exec, arith::SelectOp op) {
  const TileValue &cond = exec.get(op.getCondition());
  const TileValue &a = exec.get(op.getTrueValue());
  const TileValue &b = exec.get(op.getFalseValue());
  bool scalarCond = cond.shape.empty();
  auto pick = [&](std::int64_t i) {
    return cond.ints[scalarCond ? 0 : i] != 0;
  };
  TileValue result = b.asComputed();
  for (std::int64_t i = 0, e = result.size(); i < e; ++i) {
    if (!pick(i))
      continue;
    if (!a.floats.empty())
      result.floats[i] = a.floats[i];
    else
      result.ints[i] = a.ints[i];
  }
  if (!a.exact.empty() || !b.exact.empty())
    setExact(result, [&](std::int64_t i) {
      return pick(i) ? a.exactAt(i) : b.exactAt(i);
    });
  exec.set(op.getResult(), std::move(result));
  return success();
}

/// Integer-to-integer, float and bit conversions.
LogicalResult runCast(Executor &exec, Operation *op) {
  Value source = op->getOperand(0);
  const TileValue &a = exec.get(source);
  Type from = getElementType(source), to = getElementType(op->getResult(0));
  unsigned fromWidth = isa<FloatType>(from) ? 0 : getIntWidth(from);
  unsigned toWidth = isa<FloatType>(to) ? 0 : getIntWidth(to);
  if (isa<arith::ExtSIOp>(op)) {
    // Sign extension keeps the exact value.
    TileValue result = a;
    exec.set(op->getResult(0), std::move(result));
    return success();
  }
  if (isa<arith::TruncIOp, arith::IndexCastOp>(op))
    return mapInts(exec, op, [&](std::int64_t i) { return a.ints[i]; });
  if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op))
    return mapInts(exec, op, [&](std::int64_t i) {
      return static_cast<std::int64_t>(zextInt(a.ints[i], fromWidth));
    });
  // An integer converted to fp8 (a folded `.to()` through f32) is rounded
  // as the GPU code rounds it; to the other types it stays exact.
  bool toFP8 = isa<Float8E4M3FNType, Float8E5M2Type>(to);
  auto narrow = [&](double value) {
    return toFP8 ? roundToFloat(value, to) : value;
  };
  if (isa<arith::SIToFPOp>(op))
    return mapFloats(exec, op, [&](std::int64_t i) {
      return narrow(static_cast<double>(a.ints[i]));
    });
  if (isa<arith::UIToFPOp>(op))
    return mapFloats(exec, op, [&](std::int64_t i) {
      return narrow(static_cast<double>(zextInt(a.ints[i], fromWidth)));
    });
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    bool isUnsigned = isa<arith::FPToUIOp>(op);
    return mapInts(exec, op, [&](std::int64_t i) {
      return floatToInt(roundToFloat(a.floats[i], from), toWidth, isUnsigned);
    });
  }
  if (isa<arith::ExtFOp>(op))
    return mapFloats(exec, op, [&](std::int64_t i) { return a.floats[i]; });
  if (isa<arith::TruncFOp>(op))
    return mapFloats(exec, op, [&](std::int64_t i) {
      return roundToFloat(a.floats[i], to);
    });
  // arith.bitcast, tile.bitcast (pointers keep their address)
  TileValue result = TileValue::zeros(op->getResult(0).getType());
  for (std::int64_t i = 0, e = result.size(); i < e; ++i)
    setBits(result, i, to, getBits(a, i, from));
  exec.set(op->getResult(0), std::move(result));
  return success();
}

/// Compares the exact values (in 64 bits) where an operand has them, for
/// signed and equality predicates; unsigned ones compare the values as
/// computed (as tile-promote-offsets does).
LogicalResult runCmpI(Executor &exec, arith::CmpIOp op) {
  const TileValue &a = exec.get(op.getLhs());
  const TileValue &b = exec.get(op.getRhs());
  using P = arith::CmpIPredicate;
  bool isUnsigned =
      llvm::is_contained({P::ult, P::ule, P::ugt, P::uge}, op.getPredicate());
  if (!isUnsigned && (!a.exact.empty() || !b.exact.empty()))
    return mapInts(exec, op, [&](std::int64_t i) -> std::int64_t {
      return compareInts(op.getPredicate(), a.exactAt(i), b.exactAt(i), 64);
    });
  unsigned width = getIntWidth(getElementType(op.getLhs()));
  return mapInts(exec, op, [&](std::int64_t i) -> std::int64_t {
    return compareInts(op.getPredicate(), a.ints[i], b.ints[i], width);
  });
}

LogicalResult runCmpF(Executor &exec, arith::CmpFOp op) {
  const TileValue &a = exec.get(op.getLhs());
  const TileValue &b = exec.get(op.getRhs());
  return mapInts(exec, op, [&](std::int64_t i) -> std::int64_t {
    return compareFloats(op.getPredicate(), a.floats[i], b.floats[i]);
  });
}
} // namespace

std::optional<LogicalResult> tilec::interp::runArithOp(Executor &exec,
                                                       Operation *op) {
  using Result = std::optional<LogicalResult>;
  auto intOp = [&](auto fn) -> Result { return intBinary(exec, op, fn); };
  auto floatOp = [&](auto fn) -> Result { return floatBinary(exec, op, fn); };
  auto shiftOp = [&](ShiftKind kind) -> Result {
    return intBinary(exec, op,
                     [kind](std::int64_t a, std::int64_t b, unsigned width) {
                       return shift(a, b, width, kind);
                     });
  };
  auto unsignedOp = [&](auto fn) -> Result {
    return intBinary(exec, op,
                     [fn](std::int64_t a, std::int64_t b, unsigned width) {
                       return static_cast<std::int64_t>(
                           fn(zextInt(a, width), zextInt(b, width)));
                     });
  };
  using I = std::int64_t;
  using U = std::uint64_t;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([&](arith::ConstantOp op) { return runConstant(exec, op); })
      .Case([&](arith::AddIOp) {
        return intOp([](I a, I b, unsigned) { return addWrap(a, b); });
      })
      .Case([&](arith::SubIOp) {
        return intOp([](I a, I b, unsigned) { return subWrap(a, b); });
      })
      .Case([&](arith::MulIOp) {
        return intOp([](I a, I b, unsigned) { return mulWrap(a, b); });
      })
      .Case([&](arith::DivSIOp) { return intDivide(exec, op, DivKind::DivS); })
      .Case([&](arith::DivUIOp) { return intDivide(exec, op, DivKind::DivU); })
      .Case([&](arith::RemSIOp) { return intDivide(exec, op, DivKind::RemS); })
      .Case([&](arith::RemUIOp) { return intDivide(exec, op, DivKind::RemU); })
      .Case([&](arith::CeilDivSIOp) {
        return intDivide(exec, op, DivKind::CeilDivS);
      })
      .Case([&](arith::CeilDivUIOp) {
        return intDivide(exec, op, DivKind::CeilDivU);
      })
      .Case([&](arith::FloorDivSIOp) {
        return intDivide(exec, op, DivKind::FloorDivS);
      })
      .Case([&](arith::AndIOp) {
        return intOp([](I a, I b, unsigned) { return a & b; });
      })
      .Case([&](arith::OrIOp) {
        return intOp([](I a, I b, unsigned) { return a | b; });
      })
      .Case([&](arith::XOrIOp) {
        return intOp([](I a, I b, unsigned) { return a ^ b; });
      })
      .Case([&](arith::ShLIOp) { return shiftOp(ShiftKind::Left); })
      .Case([&](arith::ShRSIOp) { return shiftOp(ShiftKind::RightSigned); })
      .Case([&](arith::ShRUIOp) { return shiftOp(ShiftKind::RightUnsigned); })
      .Case([&](arith::MaxSIOp) {
        return intOp([](I a, I b, unsigned) { return std::max(a, b); });
      })
      .Case([&](arith::MinSIOp) {
        return intOp([](I a, I b, unsigned) { return std::min(a, b); });
      })
      .Case([&](arith::MaxUIOp) {
        return unsignedOp([](U a, U b) { return std::max(a, b); });
      })
      .Case([&](arith::MinUIOp) {
        return unsignedOp([](U a, U b) { return std::min(a, b); });
      })
      .Case([&](arith::CmpIOp op) { return runCmpI(exec, op); })
      .Case([&](arith::CmpFOp op) { return runCmpF(exec, op); })
      .Case([&](arith::AddFOp) {
        return floatOp([](double a, double b) { return a + b; });
      })
      .Case([&](arith::SubFOp) {
        return floatOp([](double a, double b) { return a - b; });
      })
      .Case([&](arith::MulFOp) {
        return floatOp([](double a, double b) { return a * b; });
      })
      .Case([&](arith::DivFOp) {
        return floatOp([](double a, double b) { return a / b; });
      })
      .Case([&](arith::RemFOp) {
        return floatOp([](double a, double b) { return std::fmod(a, b); });
      })
      .Case([&](arith::MaximumFOp) {
        return floatOp(
            [](double a, double b) { return floatMaximum(a, b, true); });
      })
      .Case([&](arith::MinimumFOp) {
        return floatOp(
            [](double a, double b) { return floatMaximum(a, b, false); });
      })
      .Case([&](arith::MaxNumFOp) {
        return floatOp([](double a, double b) { return maxnum(a, b, true); });
      })
      .Case([&](arith::MinNumFOp) {
        return floatOp([](double a, double b) { return maxnum(a, b, false); });
      })
      .Case([&](arith::NegFOp) -> Result {
        return floatUnary(exec, op, [](double a) { return -a; });
      })
      .Case([&](arith::SelectOp op) { return runSelect(exec, op); })
      .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp,
            arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp, arith::ExtFOp,
            arith::TruncFOp, arith::BitcastOp, arith::IndexCastOp,
            arith::IndexCastUIOp, mlir::tile::BitcastOp>(
          [&](Operation *op) -> Result { return runCast(exec, op); })
      .Default([](Operation *) -> Result { return std::nullopt; });
}
