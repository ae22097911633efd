//===- AxisInfo.cpp - Contiguity, divisibility, constancy -----------------===//
//
// Transfer functions of the axis analysis for the ops of tile programs, and
// a fixed-point iteration over structured loops (loop-carried values meet
// their initial and yielded facts).
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

int64_t pow2Divisor(int64_t value) {
  if (value == 0)
    return kMaxDivisibility;
  int64_t divisor = value & -value;
  return std::min(std::abs(divisor), kMaxDivisibility);
}

int64_t gcd(int64_t a, int64_t b) { return std::gcd(a, b); }

/// Per-entry gcd: what holds on both paths.
AxisInfo meet(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo result = a;
  for (unsigned d = 0; d < a.getRank() && d < b.getRank(); ++d) {
    result.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    result.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    result.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  return result;
}

/// Bytes of the element a pointer block points to.
int64_t pointeeBytes(Type type) {
  auto ptr = cast<tile::PointerType>(getElementTypeOrSelf(type));
  return std::max(1u, ptr.getPointeeType().getIntOrFloatBitWidth() / 8);
}
} // namespace

AxisInfo AxisInfo::unknown(unsigned rank) {
  AxisInfo info;
  info.contiguity.assign(rank, 1);
  info.divisibility.assign(rank, 1);
  info.constancy.assign(rank, 1);
  return info;
}

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  for (int iteration = 0; iteration < 8; ++iteration) {
    changed = false;
    root->walk<WalkOrder::PreOrder>([&](Operation *op) { visit(op); });
    if (!changed)
      break;
  }
}

AxisInfo AxisInfoAnalysis::getAxisInfo(Value value) const {
  return lookup(value);
}

AxisInfo AxisInfoAnalysis::lookup(Value value) const {
  auto it = infos.find(value);
  if (it != infos.end())
    return it->second;
  unsigned rank = shapeOf(value.getType()).size();
  AxisInfo info = AxisInfo::unknown(rank);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner()->isEntryBlock())
      if (auto attr = func.getArgAttrOfType<IntegerAttr>(
              arg.getArgNumber(), kDivisibilityArgAttrName))
        info.divisibility.assign(rank, std::max<int64_t>(1, attr.getInt()));
  }
  return info;
}

void AxisInfoAnalysis::set(Value value, AxisInfo info) {
  auto it = infos.find(value);
  if (it != infos.end() && it->second == info)
    return;
  infos[value] = std::move(info);
  changed = true;
}

void AxisInfoAnalysis::visit(Operation *op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    // The induction variable is lb + i * step: a multiple of what divides
    // both.
    AxisInfo iv = AxisInfo::unknown(1);
    iv.divisibility[0] = gcd(lookup(forOp.getLowerBound()).divisibility[0],
                             lookup(forOp.getStep()).divisibility[0]);
    set(forOp.getInductionVar(), iv);
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs())) {
      AxisInfo info = lookup(forOp.getInitArgs()[i]);
      if (infos.count(yield.getOperand(i)))
        info = meet(info, lookup(yield.getOperand(i)));
      set(arg, info);
      set(forOp.getResult(i), info);
    }
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    auto yield = whileOp.getYieldOp();
    for (auto [i, arg] : llvm::enumerate(whileOp.getBeforeArguments())) {
      AxisInfo info = lookup(whileOp.getInits()[i]);
      if (infos.count(yield.getOperand(i)))
        info = meet(info, lookup(yield.getOperand(i)));
      set(arg, info);
    }
    auto condition = whileOp.getConditionOp();
    for (auto [i, arg] : llvm::enumerate(whileOp.getAfterArguments())) {
      Value forwarded = condition.getArgs()[i];
      AxisInfo info = infos.count(forwarded)
                          ? lookup(forwarded)
                          : AxisInfo::unknown(shapeOf(arg.getType()).size());
      set(arg, info);
      set(whileOp.getResult(i), info);
    }
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    for (unsigned i = 0; i < ifOp.getNumResults(); ++i) {
      Value thenValue = ifOp.thenYield().getOperand(i);
      Value elseValue = ifOp.elseYield().getOperand(i);
      if (infos.count(thenValue) && infos.count(elseValue))
        set(ifOp.getResult(i), meet(lookup(thenValue), lookup(elseValue)));
      else
        set(ifOp.getResult(i),
            AxisInfo::unknown(shapeOf(ifOp.getResult(i).getType()).size()));
    }
    return;
  }
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    set(op->getResult(i), compute(op, i));
}

AxisInfo AxisInfoAnalysis::compute(Operation *op, unsigned resultIndex) {
  Value result = op->getResult(resultIndex);
  SmallVector<int64_t> shape = shapeOf(result.getType());
  unsigned rank = shape.size();
  AxisInfo info = AxisInfo::unknown(rank);
  auto operand = [&](unsigned i) { return lookup(op->getOperand(i)); };

  // Constants: splats (integer ones with their divisibility).
  DenseElementsAttr dense;
  IntegerAttr scalar;
  if (matchPattern(result, m_Constant(&dense)) && dense.isSplat()) {
    if (isa<IntegerType>(dense.getElementType()))
      info.divisibility.assign(
          rank, pow2Divisor(dense.getSplatValue<APInt>().getSExtValue()));
    info.constancy = shape;
    return info;
  }
  if (matchPattern(result, m_Constant(&scalar))) {
    info.divisibility.assign(rank, pow2Divisor(scalar.getInt()));
    return info;
  }

  if (auto range = dyn_cast<tile::MakeRangeOp>(op)) {
    info.contiguity = shape;
    info.divisibility.assign(rank, pow2Divisor(range.getStart()));
    return info;
  }
  if (isa<tile::SplatOp>(op)) {
    AxisInfo src = operand(0);
    info.divisibility.assign(rank, src.divisibility[0]);
    info.constancy = shape;
    return info;
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(op)) {
    AxisInfo src = operand(0);
    auto srcShape = broadcast.getSrc().getType().getShape();
    info = src;
    for (unsigned d = 0; d < rank; ++d)
      if (srcShape[d] == 1 && shape[d] != 1) {
        info.contiguity[d] = 1;
        info.constancy[d] = shape[d];
      }
    return info;
  }
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
    AxisInfo src = operand(0);
    // Along a unit dimension every element starts a run: the divisibility
    // of the elements themselves, 1 where the source is contiguous.
    int64_t divisibility = kMaxDivisibility;
    for (unsigned d = 0; d < src.getRank(); ++d)
      divisibility = std::min(divisibility,
                              src.contiguity[d] > 1 ? 1 : src.divisibility[d]);
    unsigned axis = expand.getAxis();
    info = src;
    info.contiguity.insert(info.contiguity.begin() + axis, 1);
    info.divisibility.insert(info.divisibility.begin() + axis, divisibility);
    info.constancy.insert(info.constancy.begin() + axis, 1);
    return info;
  }
  if (isa<tilegpu::ConvertLayoutOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncIOp, arith::IndexCastOp, tile::BitcastOp>(op))
    return operand(0);
  if (auto hint = dyn_cast<tile::HintOp>(op)) {
    info = operand(0);
    if (auto divisibility = hint.getDivisibility())
      for (unsigned d = 0; d < rank && d < divisibility->size(); ++d)
        info.divisibility[d] =
            std::max(info.divisibility[d], (*divisibility)[d]);
    if (auto contiguity = hint.getContiguity())
      for (unsigned d = 0; d < rank && d < contiguity->size(); ++d)
        info.contiguity[d] = std::max(info.contiguity[d], (*contiguity)[d]);
    return info;
  }
  if (isa<arith::AddIOp, arith::SubIOp, tile::AddPtrOp>(op)) {
    AxisInfo lhs = operand(0), rhs = operand(1);
    int64_t scale = 1;
    if (isa<tile::AddPtrOp>(op))
      scale = pointeeBytes(result.getType());
    bool isSub = isa<arith::SubIOp>(op);
    for (unsigned d = 0; d < rank; ++d) {
      int64_t fromLhs = gcd(lhs.contiguity[d], rhs.constancy[d]);
      int64_t fromRhs = isSub ? 1 : gcd(lhs.constancy[d], rhs.contiguity[d]);
      info.contiguity[d] = std::max(fromLhs, fromRhs);
      info.divisibility[d] =
          gcd(lhs.divisibility[d],
              std::min(kMaxDivisibility, rhs.divisibility[d] * scale));
      info.constancy[d] = gcd(lhs.constancy[d], rhs.constancy[d]);
    }
    return info;
  }
  if (isa<arith::MulIOp>(op)) {
    AxisInfo lhs = operand(0), rhs = operand(1);
    for (unsigned d = 0; d < rank; ++d) {
      // A product's runs are single elements: use what divides every
      // element (1 along a contiguous operand's runs).
      int64_t lhsDiv = lhs.contiguity[d] > 1 ? 1 : lhs.divisibility[d];
      int64_t rhsDiv = rhs.contiguity[d] > 1 ? 1 : rhs.divisibility[d];
      info.divisibility[d] = std::min(kMaxDivisibility, lhsDiv * rhsDiv);
      info.constancy[d] = gcd(lhs.constancy[d], rhs.constancy[d]);
    }
    return info;
  }
  if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
    // `x % n` with n the same along a dimension: runs of x stay runs as
    // long as they cannot cross a multiple of n (as in Triton's analysis).
    AxisInfo lhs = operand(0), rhs = operand(1);
    for (unsigned d = 0; d < rank; ++d) {
      if (rhs.constancy[d] == shape[d]) {
        info.contiguity[d] = gcd(lhs.contiguity[d], rhs.divisibility[d]);
        info.divisibility[d] = gcd(lhs.divisibility[d], rhs.divisibility[d]);
      }
      info.constancy[d] = gcd(lhs.constancy[d], rhs.constancy[d]);
    }
    return info;
  }
  if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op)) {
    AxisInfo lhs = operand(0), rhs = operand(1);
    for (unsigned d = 0; d < rank; ++d)
      info.constancy[d] = gcd(lhs.constancy[d], rhs.constancy[d]);
    return info;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    AxisInfo lhs = operand(0), rhs = operand(1);
    bool ordered = cmp.getPredicate() != arith::CmpIPredicate::eq &&
                   cmp.getPredicate() != arith::CmpIPredicate::ne;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t constancy = gcd(lhs.constancy[d], rhs.constancy[d]);
      // `contiguous < bound`: equal over aligned runs of the range that the
      // bound cannot split.
      if (ordered && rhs.constancy[d] == shape[d])
        constancy = std::max(
            constancy, gcd(lhs.contiguity[d],
                           gcd(lhs.divisibility[d], rhs.divisibility[d])));
      info.constancy[d] = constancy;
    }
    return info;
  }
  if (isa<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op)) {
    // One of the operands, element by element.
    AxisInfo a = operand(0), b = operand(1);
    for (unsigned d = 0; d < rank; ++d) {
      info.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
      info.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    }
    return info;
  }
  if (isa<arith::SelectOp>(op)) {
    AxisInfo cond = operand(0), a = operand(1), b = operand(2);
    for (unsigned d = 0; d < rank; ++d) {
      int64_t condConstancy =
          cond.getRank() == rank ? cond.constancy[d] : shape[d];
      info.constancy[d] =
          gcd(condConstancy, gcd(a.constancy[d], b.constancy[d]));
      info.divisibility[d] = gcd(a.divisibility[d], b.divisibility[d]);
    }
    return info;
  }
  // Any other pure elementwise op (floating-point arithmetic, math
  // functions, casts): where every operand is constant, so is the result.
  if (op->hasTrait<OpTrait::Elementwise>() && isPure(op)) {
    for (unsigned d = 0; d < rank; ++d) {
      int64_t constancy = shape[d];
      for (Value value : op->getOperands())
        if (isa<RankedTensorType>(value.getType()))
          constancy = gcd(constancy, lookup(value).constancy[d]);
      info.constancy[d] = constancy;
    }
    return info;
  }
  return info;
}
