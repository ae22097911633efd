//===- PromoteOffsets.cpp - The tile-promote-offsets pass -----------------===//
//
// Recomputes in i64 the addptr offsets and integer comparisons whose narrow
// computation may wrap (see ExactIntegers.h). Works in three steps: find the
// uses that need exact values, mark the expression trees under them, then
// rebuild the marked values in program order (operands before users), so
// that no step recurses along a chain of the kernel's expressions.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/ExactIntegers.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEPROMOTEOFFSETS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

#define DEBUG_TYPE "tile-promote-offsets"

using namespace mlir;
using namespace mlir::tile;

namespace {
using Wide = __int128;

bool isWideInteger(Type type) {
  auto integer = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return integer && integer.getWidth() > 1;
}

Type toI64(Type type) {
  Type i64 = IntegerType::get(type.getContext(), 64);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.clone(i64);
  return i64;
}

/// Builds the exact (i64) values of the values it is asked for.
class ExactValueBuilder {
public:
  explicit ExactValueBuilder(const ExactIntegerAnalysis &analysis)
      : analysis(analysis) {}

  /// Records that the exact value of `value` will be needed, with those of
  /// the operands it is computed from.
  void require(Value value) {
    SmallVector<Value> worklist{value};
    while (!worklist.empty()) {
      Value next = worklist.pop_back_val();
      if (!needed.insert(next) || !analysis.mayWrap(next))
        continue;
      for (Value operand : next.getDefiningOp()->getOperands())
        if (isWideInteger(operand.getType()))
          worklist.push_back(operand);
    }
  }

  /// Creates the exact values of every required value that may wrap, in the
  /// order of `root`'s operations.
  void build(Operation *root) {
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (Value result : op->getResults())
        if (needed.contains(result) && analysis.mayWrap(result))
          exact[result] = rebuild(result);
    });
  }

  /// The exact value of a required value: its i64 rebuild, the value itself
  /// when it is an i64 that cannot wrap, or its sign extension.
  Value get(Value value) {
    if (Value known = exact.lookup(value))
      return known;
    if (cast<IntegerType>(getElementTypeOrSelf(value.getType())).getWidth() ==
        64)
      return value;
    OpBuilder builder(value.getContext());
    builder.setInsertionPointAfterValue(value);
    Value extended = arith::ExtSIOp::create(builder, value.getLoc(),
                                            toI64(value.getType()), value);
    exact[value] = extended;
    return extended;
  }

private:
  Value rebuild(Value value) {
    Operation *op = value.getDefiningOp();
    if (isa<arith::ExtSIOp>(op))
      return get(op->getOperand(0));
    IRMapping mapping;
    for (Value operand : op->getOperands())
      if (isWideInteger(operand.getType()))
        mapping.map(operand, get(operand));
    OpBuilder builder(op);
    builder.setInsertionPointAfter(op);
    Operation *clone = builder.clone(*op, mapping);
    clone->getResult(0).setType(toI64(value.getType()));
    return clone->getResult(0);
  }

  const ExactIntegerAnalysis &analysis;
  llvm::SetVector<Value> needed;
  llvm::DenseMap<Value, Value> exact;
};

/// One term of a split sum: `scale * shapes(value)`, the shape ops
/// (expand_dims, broadcast) between the term and the sum applied to it in
/// order, then the scalar factor (none: 1).
struct Term {
  Value value;
  SmallVector<Operation *, 2> shapes;
  Value scale;
};

/// A sum (an addi tree, seen through sign extensions, shape ops and a
/// multiplication by a splat scalar, whose exact value is the sum of its
/// terms' exact values) split into uniform terms, scalars splat over the
/// block, and the other terms. `(start + arange(0, N))[:, None] * stride`
/// is the uniform `start * stride` plus `arange(0, N)[:, None] * stride`:
/// moved into the base pointer, the uniform part is a scalar product per
/// loop iteration and the other part does not depend on the loop.
struct SplitSum {
  SmallVector<Term> uniform; // value: the splat scalar
  SmallVector<Term> others;
  /// Whether the others, summed in their common type (narrower than i64),
  /// give the exact value.
  bool othersNarrow = false;
  IntegerBounds othersBounds;
};

SplitSum splitSum(Value value, const ExactIntegerAnalysis &analysis) {
  SplitSum split;
  SmallVector<Term> worklist{Term{value, {}, Value()}};
  while (!worklist.empty()) {
    Term next = worklist.pop_back_val();
    Operation *op = next.value.getDefiningOp();
    auto follow = [&](Value operand) {
      Term term = next;
      term.value = operand;
      worklist.push_back(std::move(term));
    };
    if (auto add = dyn_cast_or_null<arith::AddIOp>(op)) {
      follow(add.getRhs());
      follow(add.getLhs());
    } else if (auto extend = dyn_cast_or_null<arith::ExtSIOp>(op)) {
      follow(extend.getIn());
    } else if (auto splat = dyn_cast_or_null<SplatOp>(op)) {
      split.uniform.push_back({splat.getSrc(), {}, next.scale});
    } else if (isa_and_nonnull<ExpandDimsOp, BroadcastOp>(op)) {
      Term term = next;
      term.value = op->getOperand(0);
      term.shapes.insert(term.shapes.begin(), op);
      worklist.push_back(std::move(term));
    } else if (isa_and_nonnull<arith::MulIOp>(op) && !next.scale &&
               (op->getOperand(0).getDefiningOp<SplatOp>() ||
                op->getOperand(1).getDefiningOp<SplatOp>())) {
      unsigned factor = op->getOperand(1).getDefiningOp<SplatOp>() ? 1 : 0;
      Term term = next;
      term.value = op->getOperand(1 - factor);
      term.scale = op->getOperand(factor).getDefiningOp<SplatOp>().getSrc();
      worklist.push_back(std::move(term));
    } else {
      split.others.push_back(std::move(next));
    }
  }
  if (split.others.empty())
    return split;
  Type type = split.others.front().value.getType();
  unsigned width = cast<IntegerType>(getElementTypeOrSelf(type)).getWidth();
  Wide lo = 0, hi = 0;
  bool exact = width < 64;
  for (const Term &term : split.others) {
    // Scaled terms are summed in i64.
    exact &= getElementTypeOrSelf(term.value) == getElementTypeOrSelf(type) &&
             !term.scale && !analysis.mayWrap(term.value);
    lo += analysis.getBounds(term.value).lo;
    hi += analysis.getBounds(term.value).hi;
  }
  split.othersBounds = {lo < Wide(INT64_MIN) ? INT64_MIN : int64_t(lo),
                        hi > Wide(INT64_MAX) ? INT64_MAX : int64_t(hi)};
  if (llvm::any_of(split.others, [](const Term &term) { return term.scale; }))
    split.othersBounds = IntegerBounds::ofWidth(64);
  split.othersNarrow = exact && split.othersBounds.fitsSigned(width);
  return split;
}

/// Sums `terms` (of one type) with addi at the builder's position.
Value sum(OpBuilder &builder, Location loc, ArrayRef<Value> terms) {
  Value total;
  for (Value term : terms)
    total = total ? arith::AddIOp::create(builder, loc, total, term) : term;
  return total;
}

/// `term` built at the builder's position from `value` (its value, or the
/// exact i64 one): its shape ops replayed on it, then its scale applied.
Value buildTerm(OpBuilder &builder, Location loc, ExactValueBuilder &exact,
                const Term &term, Value value) {
  for (Operation *shape : term.shapes) {
    IRMapping mapping;
    mapping.map(shape->getOperand(0), value);
    Operation *clone = builder.clone(*shape, mapping);
    clone->getResult(0).setType(
        cast<RankedTensorType>(shape->getResult(0).getType())
            .clone(getElementTypeOrSelf(value)));
    value = clone->getResult(0);
  }
  if (!term.scale)
    return value;
  Value scale = exact.get(term.scale);
  if (isa<RankedTensorType>(value.getType()))
    scale = SplatOp::create(builder, loc, value.getType(), scale);
  return arith::MulIOp::create(builder, loc, value, scale);
}

/// The exact value of `term` (required before), in i64.
Value exactTerm(OpBuilder &builder, Location loc, ExactValueBuilder &exact,
                const Term &term) {
  return buildTerm(builder, loc, exact, term, exact.get(term.value));
}

/// The exact values of `terms` (required before), summed in i64; 0 if none.
Value exactSum(OpBuilder &builder, Location loc, ExactValueBuilder &exact,
               ArrayRef<Term> terms) {
  if (terms.empty())
    return arith::ConstantIntOp::create(builder, loc, 0, 64);
  SmallVector<Value> values;
  for (const Term &term : terms)
    values.push_back(exactTerm(builder, loc, exact, term));
  return sum(builder, loc, values);
}

/// The others of `split`, summed as they are when that is exact, else their
/// exact values in i64.
Value sumOthers(OpBuilder &builder, Location loc, ExactValueBuilder &exact,
                const SplitSum &split) {
  if (split.othersNarrow) {
    SmallVector<Value> values;
    for (const Term &term : split.others)
      values.push_back(buildTerm(builder, loc, exact, term, term.value));
    return sum(builder, loc, values);
  }
  return exactSum(builder, loc, exact, split.others);
}

void requireTerm(ExactValueBuilder &exact, const Term &term) {
  exact.require(term.value);
  if (term.scale)
    exact.require(term.scale);
}

void requireParts(ExactValueBuilder &exact, const SplitSum &split) {
  for (const Term &term : split.uniform)
    requireTerm(exact, term);
  if (!split.othersNarrow)
    for (const Term &term : split.others)
      requireTerm(exact, term);
}

/// `addptr(splat(p), uniform + others)` becomes
/// `addptr(splat(addptr(p, uniform)), others)`.
struct AddPtrRewrite {
  AddPtrOp addptr;
  SplitSum split;
};

/// `cmp(others + u, w)` with w uniform becomes `cmp(others, w - u)`, the
/// scalar clamped so that it fits the others' type when they are exact
/// there (`operandsSwapped`: the uniform side is the left one).
struct CompareRewrite {
  arith::CmpIOp cmp;
  SplitSum blockSide, uniformSide;
  bool operandsSwapped = false;
};

bool isSignedOrEquality(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  return llvm::is_contained({P::eq, P::ne, P::slt, P::sle, P::sgt, P::sge},
                            predicate);
}

/// The predicate that compares the operands in the other order.
arith::CmpIPredicate swapOperands(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::slt:
    return P::sgt;
  case P::sgt:
    return P::slt;
  case P::sle:
    return P::sge;
  case P::sge:
    return P::sle;
  default:
    return predicate;
  }
}

struct TilePromoteOffsetsPass
    : mlir::tile::impl::TilePromoteOffsetsBase<TilePromoteOffsetsPass> {
  using TilePromoteOffsetsBase::TilePromoteOffsetsBase;

  void runOnOperation() override {
    Operation *root = getOperation();
    ExactIntegerAnalysis analysis(root);
    ExactValueBuilder exact(analysis);

    SmallVector<AddPtrRewrite, 0> addptrSplits;
    SmallVector<CompareRewrite, 0> compareSplits;
    SmallVector<AddPtrOp> offsets;
    SmallVector<arith::CmpIOp> comparisons;
    root->walk([&](Operation *op) {
      if (auto addptr = dyn_cast<AddPtrOp>(op)) {
        Value offset = addptr.getOffset();
        if (!isWideInteger(offset.getType()) || !analysis.mayWrap(offset))
          return;
        SplitSum split = splitSum(offset, analysis);
        if (addptr.getPtr().getDefiningOp<SplatOp>() &&
            !split.uniform.empty() && !split.others.empty()) {
          requireParts(exact, split);
          addptrSplits.push_back({addptr, std::move(split)});
          return;
        }
        exact.require(offset);
        offsets.push_back(addptr);
        return;
      }
      // Unsigned comparisons are taken as computed (the exact values here
      // are those of signed arithmetic).
      auto cmp = dyn_cast<arith::CmpIOp>(op);
      if (!cmp || !isWideInteger(cmp.getLhs().getType()) ||
          !isSignedOrEquality(cmp.getPredicate()) ||
          (!analysis.mayWrap(cmp.getLhs()) && !analysis.mayWrap(cmp.getRhs())))
        return;
      SplitSum lhs = splitSum(cmp.getLhs(), analysis);
      SplitSum rhs = splitSum(cmp.getRhs(), analysis);
      bool swapped = lhs.others.empty() && !rhs.others.empty();
      if (swapped)
        std::swap(lhs, rhs);
      if (!lhs.others.empty() && rhs.others.empty()) {
        requireParts(exact, lhs);
        requireParts(exact, rhs);
        compareSplits.push_back({cmp, std::move(lhs), std::move(rhs), swapped});
        return;
      }
      exact.require(cmp.getLhs());
      exact.require(cmp.getRhs());
      comparisons.push_back(cmp);
    });
    LLVM_DEBUG(llvm::dbgs()
               << "offsets in i64: " << offsets.size()
               << ", comparisons in i64: " << comparisons.size()
               << ", uniform parts moved into the base: " << addptrSplits.size()
               << ", comparisons against a uniform bound: "
               << compareSplits.size() << "\n");
    exact.build(root);

    for (AddPtrOp addptr : offsets) {
      addptr.getOffsetMutable().assign(exact.get(addptr.getOffset()));
      ++numOffsetsPromoted;
    }
    for (arith::CmpIOp cmp : comparisons) {
      Value lhs = exact.get(cmp.getLhs()), rhs = exact.get(cmp.getRhs());
      cmp.getLhsMutable().assign(lhs);
      cmp.getRhsMutable().assign(rhs);
      ++numComparisonsPromoted;
    }
    for (AddPtrRewrite &rewrite : addptrSplits)
      splitAddPtr(rewrite, exact);
    for (CompareRewrite &rewrite : compareSplits)
      splitCompare(rewrite, exact);
  }

  void splitAddPtr(AddPtrRewrite &rewrite, ExactValueBuilder &exact) {
    AddPtrOp addptr = rewrite.addptr;
    Location loc = addptr.getLoc();
    OpBuilder builder(addptr);
    Value scalarBase = addptr.getPtr().getDefiningOp<SplatOp>().getSrc();
    Value moved =
        AddPtrOp::create(builder, loc, scalarBase.getType(), scalarBase,
                         exactSum(builder, loc, exact, rewrite.split.uniform));
    Value base = SplatOp::create(builder, loc, addptr.getType(), moved);
    addptr.getPtrMutable().assign(base);
    addptr.getOffsetMutable().assign(
        sumOthers(builder, loc, exact, rewrite.split));
    ++numUniformSplits;
    ++numOffsetsPromoted;
  }

  void splitCompare(CompareRewrite &rewrite, ExactValueBuilder &exact) {
    arith::CmpIOp cmp = rewrite.cmp;
    Location loc = cmp.getLoc();
    OpBuilder builder(cmp);
    // blockSide.others + u  <pred>  w   <=>   blockSide.others <pred> w - u
    Value bound = arith::SubIOp::create(
        builder, loc,
        exactSum(builder, loc, exact, rewrite.uniformSide.uniform),
        exactSum(builder, loc, exact, rewrite.blockSide.uniform));
    Value block = sumOthers(builder, loc, exact, rewrite.blockSide);
    auto blockType = block.getType();
    unsigned width =
        cast<IntegerType>(getElementTypeOrSelf(blockType)).getWidth();
    IntegerBounds range = rewrite.blockSide.othersBounds;
    if (width < 64 && range.lo > IntegerBounds::ofWidth(width).lo &&
        range.hi < (int64_t(1) << (width - 2))) {
      // Every value of the block lies strictly inside [-2^(w-1), 2^(w-2)]:
      // clamping the bound to it keeps every signed comparison's result,
      // and the clamp limits are powers of two (the divisibility of the
      // bound is what the coalescing analysis needs).
      auto constant = [&](int64_t value) {
        return arith::ConstantIntOp::create(builder, loc, value, 64);
      };
      // One statement per op: argument evaluation order is unspecified,
      // and the IR must not depend on the compiler that built tilec.
      Value hi = constant(int64_t(1) << (width - 2));
      bound = arith::MinSIOp::create(builder, loc, bound, hi);
      Value lo = constant(IntegerBounds::ofWidth(width).lo);
      bound = arith::MaxSIOp::create(builder, loc, bound, lo);
      bound = arith::TruncIOp::create(
          builder, loc, IntegerType::get(cmp.getContext(), width), bound);
    } else if (width < 64) {
      block = exactSum(builder, loc, exact, rewrite.blockSide.others);
      blockType = block.getType();
    }
    Value splat = SplatOp::create(builder, loc, blockType, bound);
    auto predicate = cmp.getPredicate();
    if (rewrite.operandsSwapped)
      predicate = swapOperands(predicate);
    Value replacement =
        arith::CmpIOp::create(builder, loc, predicate, block, splat);
    cmp.replaceAllUsesWith(replacement);
    cmp.erase();
    ++numComparisonsPromoted;
  }
};
} // namespace
