//===- ExactIntegers.cpp - Where narrow integer arithmetic may wrap -------===//
//
// Interval arithmetic over the kernel in program order. Ranges are those of
// the exact values; an operation whose exact result leaves its type's range,
// or one that computes on an operand that may wrap, may wrap. Loop bodies
// add what their running implies (ExactIntegers.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/ExactIntegers.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <initializer_list>
#include <optional>

using namespace mlir;
using namespace mlir::tile;

namespace {
using Wide = __int128;

int64_t saturate(Wide value) {
  if (value < Wide(INT64_MIN))
    return INT64_MIN;
  if (value > Wide(INT64_MAX))
    return INT64_MAX;
  return static_cast<int64_t>(value);
}

/// The smallest range holding every value of `values`.
IntegerBounds enclose(std::initializer_list<Wide> values) {
  Wide lo = *std::min_element(values.begin(), values.end());
  Wide hi = *std::max_element(values.begin(), values.end());
  return {saturate(lo), saturate(hi)};
}

/// The width of an integer (or integer block) type other than i1, else 0.
unsigned integerWidth(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  if (!integer || integer.getWidth() == 1)
    return 0;
  return integer.getWidth();
}

/// [-(2^k), 2^k - 1] for the smallest k holding both ranges: the result of a
/// bitwise operation on them lies there too (two's complement).
IntegerBounds bitwiseEnclosure(IntegerBounds a, IntegerBounds b) {
  for (unsigned k = 0; k < 63; ++k) {
    Wide lo = -(Wide(1) << k), hi = (Wide(1) << k) - 1;
    if (a.lo >= lo && b.lo >= lo && a.hi <= hi && b.hi <= hi)
      return {a.lo >= 0 && b.lo >= 0 ? 0 : saturate(lo), saturate(hi)};
  }
  return {};
}

/// The values both ranges hold (lo > hi when none).
IntegerBounds intersect(IntegerBounds a, IntegerBounds b) {
  return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)};
}

/// The constant value of `value`, if it is an integer constant.
std::optional<int64_t> constantOf(Value value) {
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)))
    return std::nullopt;
  return constant.getSExtValue();
}

IntegerBounds divide(IntegerBounds a, IntegerBounds b) {
  if (b.lo <= 0 && b.hi >= 0) {
    // |a / b| <= |a| for any nonzero b.
    Wide magnitude = std::max(-Wide(a.lo), Wide(a.hi));
    return enclose({-magnitude, magnitude});
  }
  return enclose({Wide(a.lo) / b.lo, Wide(a.lo) / b.hi, Wide(a.hi) / b.lo,
                  Wide(a.hi) / b.hi});
}

IntegerBounds remainder(IntegerBounds a, IntegerBounds b) {
  // |a % b| < |b|, with the sign of a.
  Wide bound = std::max(-Wide(b.lo), Wide(b.hi)) - 1;
  bound = std::max(bound, Wide(0));
  if (a.lo >= 0)
    return enclose({0, std::min(Wide(a.hi), bound)});
  if (a.hi <= 0)
    return enclose({std::max(Wide(a.lo), -bound), 0});
  return enclose({-bound, bound});
}
} // namespace

bool IntegerBounds::fitsSigned(unsigned width) const {
  IntegerBounds type = ofWidth(width);
  return lo >= type.lo && hi <= type.hi;
}

IntegerBounds IntegerBounds::ofWidth(unsigned width) {
  if (width >= 64)
    return {};
  return {-(int64_t(1) << (width - 1)), (int64_t(1) << (width - 1)) - 1};
}

bool ExactIntegerAnalysis::propagatesExactValue(Operation *op) {
  if (isa<arith::ShLIOp, arith::ShRSIOp>(op)) {
    APInt amount;
    return matchPattern(op->getOperand(1), m_ConstantInt(&amount)) &&
           amount.ult(integerWidth(op->getResult(0).getType()));
  }
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MinSIOp,
             arith::MaxSIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
             arith::SelectOp, arith::ExtSIOp, SplatOp, BroadcastOp,
             ExpandDimsOp, ReshapeOp, TransOp, HintOp>(op);
}

ExactIntegerAnalysis::ExactIntegerAnalysis(Operation *root) {
  root->walk<WalkOrder::PreOrder>([&](Operation *op) { visit(op); });
}

ExactIntegerAnalysis::Fact ExactIntegerAnalysis::lookup(Value value) const {
  auto it = facts.find(value);
  if (it != facts.end())
    return it->second;
  unsigned width = integerWidth(value.getType());
  return {IntegerBounds::ofWidth(width ? width : 64), false};
}

ExactIntegerAnalysis::Fact
ExactIntegerAnalysis::lookupIn(Value value, Operation *scope) const {
  Fact fact = lookup(value);
  if (loopFacts.empty() || fact.mayWrap)
    return fact;
  for (Operation *op = scope; op; op = op->getParentOp()) {
    auto it = loopFacts.find(op);
    if (it == loopFacts.end())
      continue;
    for (const auto &[narrowed, bounds] : it->second)
      if (narrowed == value)
        fact.bounds = intersect(fact.bounds, bounds);
  }
  return fact;
}

IntegerBounds ExactIntegerAnalysis::asComputedIn(Value value,
                                                 Operation *scope) const {
  Fact fact = lookupIn(value, scope);
  if (!fact.mayWrap)
    return fact.bounds;
  unsigned width = integerWidth(value.getType());
  return IntegerBounds::ofWidth(width ? width : 64);
}

IntegerBounds ExactIntegerAnalysis::asComputed(Value value) const {
  Fact fact = lookup(value);
  if (!fact.mayWrap)
    return fact.bounds;
  unsigned width = integerWidth(value.getType());
  return IntegerBounds::ofWidth(width ? width : 64);
}

IntegerBounds ExactIntegerAnalysis::getBounds(Value value) const {
  return lookup(value).bounds;
}

bool ExactIntegerAnalysis::mayWrap(Value value) const {
  return lookup(value).mayWrap;
}

void ExactIntegerAnalysis::visit(Operation *op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    // The induction variable runs from the lower bound to below the upper;
    // from a constant lower bound by a constant step, it stays a whole
    // number of steps above it (0, 64, ... below 2^31 stops at 2^31 - 64,
    // so that adding an offset under 64 cannot wrap).
    Value iv = forOp.getInductionVar();
    if (unsigned width = integerWidth(iv.getType())) {
      Operation *outside = forOp->getParentOp();
      IntegerBounds lb = asComputedIn(forOp.getLowerBound(), outside);
      IntegerBounds ub = asComputedIn(forOp.getUpperBound(), outside);
      IntegerBounds step = asComputedIn(forOp.getStep(), outside);
      // The body runs only while the bound exceeds the induction variable.
      if (lb.lo < IntegerBounds::ofWidth(width).hi)
        narrowInside(forOp, forOp.getUpperBound(),
                     {lb.lo + 1, IntegerBounds::ofWidth(width).hi}, 0);
      IntegerBounds range{lb.lo, std::max(lb.lo, saturate(Wide(ub.hi) - 1))};
      if (lb.lo == lb.hi && step.lo == step.hi && step.lo > 0)
        range.hi = lb.lo + (Wide(range.hi) - lb.lo) / step.lo * step.lo;
      if (range.fitsSigned(width))
        facts[iv] = {range, false};
    }
  }
  for (Value result : op->getResults())
    if (unsigned width = integerWidth(result.getType()))
      facts[result] = compute(op, width);
}

ExactIntegerAnalysis::Fact ExactIntegerAnalysis::compute(Operation *op,
                                                         unsigned width) {
  Fact fact{IntegerBounds::ofWidth(width), false};

  // Constants (scalars and blocks).
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto scalar = dyn_cast<IntegerAttr>(constant.getValue())) {
      int64_t value = scalar.getValue().getSExtValue();
      fact.bounds = {value, value};
    } else if (auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue());
               dense && !dense.empty()) {
      fact.bounds = {INT64_MAX, INT64_MIN};
      for (const APInt &element : dense.getValues<APInt>()) {
        fact.bounds.lo = std::min(fact.bounds.lo, element.getSExtValue());
        fact.bounds.hi = std::max(fact.bounds.hi, element.getSExtValue());
      }
    }
    return fact;
  }
  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    fact.bounds = {range.getStart(),
                   std::max<int64_t>(range.getStart(), range.getEnd() - 1)};
    return fact;
  }
  // Grid limits: 2^31 - 1 programs along x, 65535 along y and z.
  if (isa<ProgramIdOp, NumProgramsOp>(op)) {
    unsigned axis = isa<ProgramIdOp>(op) ? cast<ProgramIdOp>(op).getAxis()
                                         : cast<NumProgramsOp>(op).getAxis();
    int64_t limit = axis == 0 ? INT32_MAX : 65535;
    fact.bounds = isa<ProgramIdOp>(op) ? IntegerBounds{0, limit - 1}
                                       : IntegerBounds{1, limit};
    return fact;
  }
  Operation *scope = op->getParentOp();
  if (isa<arith::TruncIOp>(op)) {
    IntegerBounds source = asComputedIn(op->getOperand(0), scope);
    if (source.fitsSigned(width))
      fact.bounds = source;
    return fact;
  }
  if (isa<arith::ExtUIOp>(op)) {
    Fact source = lookupIn(op->getOperand(0), scope);
    unsigned sourceWidth = integerWidth(op->getOperand(0).getType());
    if (!source.mayWrap && source.bounds.lo >= 0)
      fact.bounds = source.bounds;
    else if (sourceWidth && sourceWidth < 64)
      fact.bounds = {0, (int64_t(1) << sourceWidth) - 1};
    return fact;
  }
  // Division and remainder see their operands as computed; their results
  // are bounded by them.
  if (isa<arith::DivSIOp, arith::CeilDivSIOp, arith::FloorDivSIOp,
          arith::RemSIOp>(op)) {
    IntegerBounds a = asComputedIn(op->getOperand(0), scope);
    IntegerBounds b = asComputedIn(op->getOperand(1), scope);
    if (isa<arith::RemSIOp>(op))
      fact.bounds = remainder(a, b);
    else if (isa<arith::DivSIOp>(op))
      fact.bounds = divide(a, b);
    else {
      IntegerBounds quotient = divide(a, b);
      fact.bounds = enclose({Wide(quotient.lo) - 1, Wide(quotient.hi) + 1});
    }
    if (!fact.bounds.fitsSigned(width)) // INT_MIN / -1
      fact.bounds = IntegerBounds::ofWidth(width);
    return fact;
  }
  if (!propagatesExactValue(op))
    return fact;
  // A bit operation on a value whose computation may have wrapped works on
  // the bits as computed (hashes, Philox's rounds: Triton's two's-complement
  // wrap-around is what they mean), so its result is the computed one, not
  // the bit operation of the exact operands.
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op) &&
      llvm::any_of(op->getOperands(), [&](Value value) {
        return integerWidth(value.getType()) && lookup(value).mayWrap;
      }))
    return fact;

  // Exact values: computed from the operands' exact values.
  auto operand = [&](unsigned i) { return lookupIn(op->getOperand(i), scope); };
  for (Value value : op->getOperands())
    if (integerWidth(value.getType()) && lookup(value).mayWrap)
      fact.mayWrap = true;
  IntegerBounds a = operand(0).bounds;
  IntegerBounds b =
      op->getNumOperands() > 1 ? operand(1).bounds : IntegerBounds{};
  if (isa<arith::AddIOp>(op))
    fact.bounds = enclose({Wide(a.lo) + b.lo, Wide(a.hi) + b.hi});
  else if (isa<arith::SubIOp>(op))
    fact.bounds = enclose({Wide(a.lo) - b.hi, Wide(a.hi) - b.lo});
  else if (isa<arith::MulIOp>(op))
    fact.bounds = enclose({Wide(a.lo) * b.lo, Wide(a.lo) * b.hi,
                           Wide(a.hi) * b.lo, Wide(a.hi) * b.hi});
  else if (isa<arith::ShLIOp>(op))
    fact.bounds = enclose(
        {Wide(a.lo) * (Wide(1) << b.lo), Wide(a.hi) * (Wide(1) << b.lo)});
  else if (isa<arith::ShRSIOp>(op))
    fact.bounds = enclose({Wide(a.lo) >> b.lo, Wide(a.hi) >> b.lo});
  else if (isa<arith::MinSIOp>(op))
    fact.bounds = {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  else if (isa<arith::MaxSIOp>(op))
    fact.bounds = {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  else if (isa<arith::AndIOp>(op)) {
    if (a.lo >= 0 || b.lo >= 0)
      fact.bounds = {0, a.lo >= 0 && b.lo >= 0 ? std::min(a.hi, b.hi)
                        : a.lo >= 0            ? a.hi
                                               : b.hi};
    else
      fact.bounds = bitwiseEnclosure(a, b);
  } else if (isa<arith::OrIOp, arith::XOrIOp>(op))
    fact.bounds = bitwiseEnclosure(a, b);
  else if (isa<arith::SelectOp>(op)) {
    IntegerBounds x = operand(1).bounds, y = operand(2).bounds;
    fact.bounds = {std::min(x.lo, y.lo), std::max(x.hi, y.hi)};
  } else
    // Sign extension and shape ops: the operand's exact value.
    fact.bounds = a;
  if (!fact.bounds.fitsSigned(width))
    fact.mayWrap = true;
  return fact;
}

void ExactIntegerAnalysis::narrowInside(scf::ForOp loop, Value value,
                                        IntegerBounds computed,
                                        unsigned depth) {
  unsigned width = integerWidth(value.getType());
  if (!width || depth > 8)
    return;
  IntegerBounds range = intersect(asComputedIn(value, loop), computed);
  if (range.lo > range.hi)
    return;                           // the body never runs
  if (!lookupIn(value, loop).mayWrap) // the exact value is the computed one
    loopFacts[loop].push_back({value, range});

  Operation *producer = value.getDefiningOp();
  if (!producer)
    return;
  IntegerBounds type = IntegerBounds::ofWidth(width);
  if (isa<arith::ExtSIOp>(producer)) {
    narrowInside(loop, producer->getOperand(0), range, depth + 1);
    return;
  }
  // A quotient by a positive constant c bounds the dividend: trunc(y / c)
  // >= m >= 1 means y >= m * c, >= m <= 0 means y >= (m - 1) * c + 1, and
  // <= n means y <= (n + 1) * c - 1 (n >= 0) or y <= n * c; ceil(y / c)
  // >= m means y >= (m - 1) * c + 1, <= n means y <= n * c.
  if (isa<arith::DivSIOp, arith::CeilDivSIOp>(producer)) {
    std::optional<int64_t> divisor = constantOf(producer->getOperand(1));
    if (!divisor || *divisor <= 0)
      return;
    Wide c = *divisor, m = range.lo, n = range.hi;
    bool ceil = isa<arith::CeilDivSIOp>(producer);
    Wide lo = !ceil && m >= 1 ? m * c : (m - 1) * c + 1;
    Wide hi = !ceil && n >= 0 ? (n + 1) * c - 1 : n * c;
    narrowInside(loop, producer->getOperand(0),
                 intersect(type, {saturate(lo), saturate(hi)}), depth + 1);
    return;
  }
  // y = x + c wraps into [MIN, MIN + c - 1] (c > 0) or [MAX + c + 1, MAX]
  // (c < 0): a range of y outside those came without wrapping.
  Value x;
  std::optional<int64_t> addend;
  if (isa<arith::AddIOp>(producer)) {
    for (unsigned i = 0; i < 2 && !addend; ++i)
      if ((addend = constantOf(producer->getOperand(i))))
        x = producer->getOperand(1 - i);
  } else if (isa<arith::SubIOp>(producer)) {
    if (std::optional<int64_t> c = constantOf(producer->getOperand(1));
        c && *c != INT64_MIN) {
      addend = -*c;
      x = producer->getOperand(0);
    }
  }
  if (!addend)
    return;
  Wide c = *addend;
  if (c >= 0 ? range.lo < Wide(type.lo) + c : range.hi > Wide(type.hi) + c)
    return;
  narrowInside(
      loop, x,
      intersect(type, {saturate(range.lo - c), saturate(range.hi - c)}),
      depth + 1);
}
