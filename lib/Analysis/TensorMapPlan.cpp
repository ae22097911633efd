//===- TensorMapPlan.cpp - Loads that bulk tensor copies can make ---------===//
//
// Symbolic evaluation of the index expressions a load depends on (see
// TensorMapPlan.h). Every value is evaluated to a pointer base plus a
// polynomial, or to a conjunction of conditions `p < 0` on polynomials;
// what the evaluator cannot express (a remainder, a select, a load) fails
// the plan, and the load keeps its cp.async path.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/TensorMapPlan.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tilegpu;

//===----------------------------------------------------------------------===//
// IndexPolynomial
//===----------------------------------------------------------------------===//

static uintptr_t keyOf(Value value) {
  return reinterpret_cast<uintptr_t>(value.getAsOpaquePointer());
}

static Value valueOf(uintptr_t key) {
  return Value::getFromOpaquePointer(reinterpret_cast<const void *>(key));
}

void IndexPolynomial::addTerm(const Monomial &monomial, int64_t coefficient) {
  if (coefficient == 0)
    return;
  int64_t &slot = terms[monomial];
  slot += coefficient;
  if (slot == 0)
    terms.erase(monomial);
}

IndexPolynomial IndexPolynomial::constant(int64_t value) {
  IndexPolynomial result;
  result.addTerm({}, value);
  return result;
}

IndexPolynomial IndexPolynomial::atom(Value value) {
  IndexPolynomial result;
  result.addTerm({keyOf(value)}, 1);
  return result;
}

IndexPolynomial IndexPolynomial::index(unsigned dim) {
  IndexPolynomial result;
  result.addTerm({static_cast<uintptr_t>(dim)}, 1);
  return result;
}

IndexPolynomial IndexPolynomial::operator+(const IndexPolynomial &other) const {
  IndexPolynomial result = *this;
  for (const auto &[monomial, coefficient] : other.terms)
    result.addTerm(monomial, coefficient);
  return result;
}

IndexPolynomial IndexPolynomial::operator-(const IndexPolynomial &other) const {
  IndexPolynomial result = *this;
  for (const auto &[monomial, coefficient] : other.terms)
    result.addTerm(monomial, -coefficient);
  return result;
}

std::optional<IndexPolynomial>
IndexPolynomial::operator*(const IndexPolynomial &other) const {
  IndexPolynomial result;
  for (const auto &[left, a] : terms)
    for (const auto &[right, b] : other.terms) {
      int64_t product;
      if (__builtin_mul_overflow(a, b, &product))
        return std::nullopt;
      Monomial monomial(left);
      monomial.append(right.begin(), right.end());
      llvm::sort(monomial);
      result.addTerm(monomial, product);
    }
  return result;
}

std::optional<int64_t> IndexPolynomial::getConstant() const {
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

SmallVector<unsigned> IndexPolynomial::getIndexDims() const {
  SmallVector<unsigned> dims;
  for (const auto &term : terms)
    for (uintptr_t key : term.first)
      if (isIndexKey(key) && !llvm::is_contained(dims, key))
        dims.push_back(key);
  return dims;
}

IndexPolynomial IndexPolynomial::renameDims(ArrayRef<unsigned> map) const {
  IndexPolynomial result;
  for (const auto &[monomial, coefficient] : terms) {
    Monomial renamed(monomial);
    for (uintptr_t &key : renamed)
      if (isIndexKey(key))
        key = map[key];
    llvm::sort(renamed);
    result.addTerm(renamed, coefficient);
  }
  return result;
}

SmallVector<Value> IndexPolynomial::getValues() const {
  SmallVector<Value> values;
  for (const auto &term : terms)
    for (uintptr_t key : term.first)
      if (!isIndexKey(key) && !llvm::is_contained(values, valueOf(key)))
        values.push_back(valueOf(key));
  return values;
}

/// `value` as an i64.
static Value toI64(OpBuilder &builder, Location loc, Value value) {
  Type i64 = builder.getI64Type();
  if (value.getType() == i64)
    return value;
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(builder, loc, i64, value);
  return arith::ExtSIOp::create(builder, loc, i64, value);
}

Value IndexPolynomial::materialize(
    OpBuilder &builder, Location loc,
    const DenseMap<Value, Value> &substitutions) const {
  auto constantI64 = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getI64IntegerAttr(value));
  };
  // The terms are keyed by the atoms' addresses; they are emitted in
  // program order instead (the atoms' definitions, as a walk of the
  // function meets them), so the IR does not depend on where the heap put
  // them: a process that compiled another kernel before gave other PTX.
  DenseMap<uintptr_t, unsigned> rank;
  Operation *scope = builder.getInsertionBlock()->getParentOp();
  while (Operation *parent = scope->getParentOp())
    scope = parent;
  unsigned next = IndexPolynomial::kMaxDims;
  scope->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          rank[keyOf(arg)] = next++;
    for (Value result : op->getResults())
      rank[keyOf(result)] = next++;
  });
  auto ranked = [&](const Monomial &monomial) {
    SmallVector<uint64_t, 2> ranks;
    for (uintptr_t key : monomial)
      ranks.push_back(isIndexKey(key) ? key : rank.lookup(key));
    llvm::sort(ranks);
    return ranks;
  };
  SmallVector<std::pair<SmallVector<uint64_t, 2>, const Monomial *>> ordered;
  for (const auto &term : terms)
    ordered.push_back({ranked(term.first), &term.first});
  llvm::sort(ordered, [](const auto &a, const auto &b) {
    return std::lexicographical_compare(a.first.begin(), a.first.end(),
                                        b.first.begin(), b.first.end());
  });

  Value sum;
  for (const auto &entry : ordered) {
    const Monomial &monomial = *entry.second;
    int64_t coefficient = terms.at(monomial);
    SmallVector<uintptr_t, 2> atoms(monomial);
    llvm::sort(atoms, [&](uintptr_t a, uintptr_t b) {
      return rank.lookup(a) < rank.lookup(b);
    });
    Value product;
    for (uintptr_t key : atoms) {
      Value atom = valueOf(key);
      atom =
          toI64(builder, loc,
                substitutions.lookup(atom) ? substitutions.lookup(atom) : atom);
      product =
          product ? arith::MulIOp::create(builder, loc, product, atom) : atom;
    }
    if (!product)
      product = constantI64(coefficient);
    else if (coefficient != 1)
      product = arith::MulIOp::create(builder, loc, product,
                                      constantI64(coefficient));
    sum = sum ? arith::AddIOp::create(builder, loc, sum, product) : product;
  }
  return sum ? sum : constantI64(0);
}

//===----------------------------------------------------------------------===//
// Symbolic evaluation
//===----------------------------------------------------------------------===//

namespace {
/// A condition `poly < 0`.
struct Condition {
  IndexPolynomial poly;
};

/// What a value is: a pointer base plus offsets, an integer, or a mask.
struct Symbol {
  Value base; ///< For pointers.
  IndexPolynomial poly;
  bool isMask = false;
  SmallVector<Condition> conditions;
  /// For a splat of `trunc(clamp(x, lo, hi))`: poly is x, and comparisons
  /// must bound it.
  std::optional<std::pair<int64_t, int64_t>> clamp;
};

class Evaluator {
public:
  explicit Evaluator(scf::ForOp loop) : loop(loop) {}

  std::optional<IndexPolynomial> scalar(Value value, unsigned depth = 0);
  std::optional<Symbol> tensor(Value value, unsigned depth = 0);

private:
  std::optional<Symbol> evaluate(Operation *op, Value value, unsigned depth);
  std::optional<Symbol> carried(BlockArgument arg, unsigned depth);
  std::optional<IndexPolynomial> carriedScalar(BlockArgument arg,
                                               unsigned depth);
  std::optional<Symbol> compare(arith::CmpIOp op, unsigned depth);

  scf::ForOp loop;
  DenseMap<Value, std::optional<Symbol>> cache;
};
} // namespace

static constexpr unsigned kMaxDepth = 64;

std::optional<IndexPolynomial> Evaluator::scalar(Value value, unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return IndexPolynomial::constant(constant.getSExtValue());
  if (auto arg = dyn_cast<BlockArgument>(value))
    if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
      if (auto poly = carriedScalar(arg, depth))
        return poly;
  Operation *op = value.getDefiningOp();
  // (A hinted value stays an atom: its divisibility is the hint's.)
  if (op && isa<arith::ExtSIOp>(op))
    return scalar(op->getOperand(0), depth + 1);
  if (op && isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) {
    auto lhs = scalar(op->getOperand(0), depth + 1);
    auto rhs = scalar(op->getOperand(1), depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    if (isa<arith::AddIOp>(op))
      return *lhs + *rhs;
    if (isa<arith::SubIOp>(op))
      return *lhs - *rhs;
    return *lhs * *rhs;
  }
  return IndexPolynomial::atom(value);
}

/// `x` if `value` is `trunci(maxsi(minsi(x, hi), lo))` (what offset
/// promotion makes of a 64-bit bound compared with 32-bit indices).
static std::optional<std::tuple<Value, int64_t, int64_t>>
matchClamp(Value value) {
  auto trunc = value.getDefiningOp<arith::TruncIOp>();
  if (!trunc)
    return std::nullopt;
  auto max = trunc.getIn().getDefiningOp<arith::MaxSIOp>();
  APInt lo, hi;
  if (!max || !matchPattern(max.getRhs(), m_ConstantInt(&lo)))
    return std::nullopt;
  auto min = max.getLhs().getDefiningOp<arith::MinSIOp>();
  if (!min || !matchPattern(min.getRhs(), m_ConstantInt(&hi)))
    return std::nullopt;
  unsigned width = trunc.getType().getIntOrFloatBitWidth();
  if (lo.getSExtValue() < -(int64_t(1) << (width - 1)) ||
      hi.getSExtValue() >= (int64_t(1) << (width - 1)))
    return std::nullopt;
  return std::make_tuple(min.getLhs(), lo.getSExtValue(), hi.getSExtValue());
}

std::optional<Symbol> Evaluator::tensor(Value value, unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  auto found = cache.find(value);
  if (found != cache.end())
    return found->second;
  std::optional<Symbol> result;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0)
      result = carried(arg, depth);
  } else {
    result = evaluate(value.getDefiningOp(), value, depth);
  }
  cache[value] = result;
  return result;
}

/// A loop-carried integer the loop advances by the same constant every
/// iteration, a multiple of the loop's constant step (attention's
/// `offsetk_y += BLOCK_N` in `for start_n in range(lo, hi, BLOCK_N)`):
/// init + (advance / step) * (iv - lb).
std::optional<IndexPolynomial> Evaluator::carriedScalar(BlockArgument arg,
                                                        unsigned depth) {
  APInt step, advance;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) || step.isZero())
    return std::nullopt;
  unsigned index = arg.getArgNumber() - 1;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto add = yield.getOperand(index).getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  Value other = add.getLhs() == arg   ? add.getRhs()
                : add.getRhs() == arg ? add.getLhs()
                                      : Value();
  if (!other || !matchPattern(other, m_ConstantInt(&advance)))
    return std::nullopt;
  int64_t perIteration = advance.getSExtValue(), by = step.getSExtValue();
  if (perIteration % by != 0)
    return std::nullopt;
  auto init = scalar(loop.getInitArgs()[index], depth + 1);
  auto lb = scalar(loop.getLowerBound(), depth + 1);
  if (!init || !lb)
    return std::nullopt;
  auto scaled = (IndexPolynomial::atom(loop.getInductionVar()) - *lb) *
                IndexPolynomial::constant(perIteration / by);
  if (!scaled)
    return std::nullopt;
  return *init + *scaled;
}

/// A loop-carried block of pointers the loop advances by the same amount
/// every iteration: init + iv * advance (for loops from 0 by 1).
std::optional<Symbol> Evaluator::carried(BlockArgument arg, unsigned depth) {
  APInt lb, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) || !lb.isZero() ||
      !step.isOne())
    return std::nullopt;
  unsigned index = arg.getArgNumber() - 1;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto advance = yield.getOperand(index).getDefiningOp<tile::AddPtrOp>();
  if (!advance || advance.getPtr() != arg)
    return std::nullopt;
  auto init = tensor(loop.getInitArgs()[index], depth + 1);
  auto step1 = tensor(advance.getOffset(), depth + 1);
  if (!init || !init->base || !step1 || step1->base || step1->isMask ||
      !step1->poly.getIndexDims().empty())
    return std::nullopt;
  auto scaled = step1->poly * IndexPolynomial::atom(loop.getInductionVar());
  if (!scaled)
    return std::nullopt;
  Symbol symbol = *init;
  symbol.poly = symbol.poly + *scaled;
  return symbol;
}

std::optional<Symbol> Evaluator::compare(arith::CmpIOp op, unsigned depth) {
  auto lhs = tensor(op.getLhs(), depth + 1);
  auto rhs = tensor(op.getRhs(), depth + 1);
  if (!lhs || !rhs || lhs->base || rhs->base || lhs->isMask || rhs->isMask)
    return std::nullopt;
  // Normalize to `small < large`. An unsigned comparison (tensor
  // descriptors' `0 <= x < R` in one) also excludes negative coordinates,
  // which the copy engine zero-fills too.
  const Symbol *small = &*lhs, *large = &*rhs;
  int64_t bias = 0; // small < large + bias
  switch (op.getPredicate()) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    break;
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    bias = 1;
    break;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    std::swap(small, large);
    break;
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    std::swap(small, large);
    bias = 1;
    break;
  default:
    return std::nullopt;
  }
  if (small->clamp)
    return std::nullopt;
  if (large->clamp) {
    // i < clamp(x, lo, hi) is i < x when i runs over [0, n) with n <= hi
    // and lo <= 0.
    auto dims = small->poly.getIndexDims();
    auto type = cast<RankedTensorType>(op.getLhs().getType());
    if (bias != 0 || dims.size() != 1 ||
        !(small->poly == IndexPolynomial::index(dims[0])) ||
        large->clamp->first > 0 ||
        type.getDimSize(dims[0]) > large->clamp->second)
      return std::nullopt;
  }
  Symbol symbol;
  symbol.isMask = true;
  symbol.conditions.push_back(
      {small->poly - large->poly - IndexPolynomial::constant(bias)});
  return symbol;
}

std::optional<Symbol> Evaluator::evaluate(Operation *op, Value value,
                                          unsigned depth) {
  if (!op)
    return std::nullopt;
  if (auto splat = dyn_cast<tile::SplatOp>(op)) {
    Value src = splat.getSrc();
    Symbol symbol;
    if (isa<tile::PointerType>(src.getType())) {
      // A scalar base advanced by scalar offsets (offset promotion moves
      // the uniform part of an offset there): the root pointer plus them.
      Value base = src;
      IndexPolynomial poly;
      while (auto advance = base.getDefiningOp<tile::AddPtrOp>()) {
        auto offset = scalar(advance.getOffset(), depth + 1);
        if (!offset)
          break;
        poly = poly + *offset;
        base = advance.getPtr();
      }
      symbol.base = base;
      symbol.poly = poly;
      return symbol;
    }
    if (!src.getType().isSignlessInteger() || src.getType().isInteger(1))
      return std::nullopt;
    if (auto clamp = matchClamp(src)) {
      auto [x, lo, hi] = *clamp;
      src = x;
      symbol.clamp = {lo, hi};
    }
    auto poly = scalar(src, depth + 1);
    if (!poly)
      return std::nullopt;
    symbol.poly = *poly;
    return symbol;
  }
  if (auto range = dyn_cast<tile::MakeRangeOp>(op)) {
    Symbol symbol;
    symbol.poly = IndexPolynomial::constant(range.getStart());
    if (range.getEnd() - range.getStart() > 1)
      symbol.poly = symbol.poly + IndexPolynomial::index(0);
    return symbol;
  }
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
    auto src = tensor(expand.getSrc(), depth + 1);
    if (!src)
      return std::nullopt;
    unsigned axis = expand.getAxis();
    SmallVector<unsigned> map;
    for (unsigned d = 0; d < IndexPolynomial::kMaxDims; ++d)
      map.push_back(
          d < axis ? d
                   : std::min<unsigned>(d + 1, IndexPolynomial::kMaxDims - 1));
    Symbol symbol = *src;
    symbol.poly = src->poly.renameDims(map);
    for (Condition &condition : symbol.conditions)
      condition.poly = condition.poly.renameDims(map);
    return symbol;
  }
  if (isa<tile::BroadcastOp, arith::ExtSIOp, tile::HintOp>(op))
    return tensor(op->getOperand(0), depth + 1);
  if (isa<arith::ConstantOp>(op)) {
    APInt constant;
    if (!matchPattern(value, m_ConstantInt(&constant)))
      return std::nullopt;
    Symbol symbol;
    symbol.poly = IndexPolynomial::constant(constant.getSExtValue());
    return symbol;
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) {
    auto lhs = tensor(op->getOperand(0), depth + 1);
    auto rhs = tensor(op->getOperand(1), depth + 1);
    if (!lhs || !rhs || lhs->base || rhs->base || lhs->isMask || rhs->isMask ||
        lhs->clamp || rhs->clamp)
      return std::nullopt;
    Symbol symbol;
    if (isa<arith::AddIOp>(op)) {
      symbol.poly = lhs->poly + rhs->poly;
    } else if (isa<arith::SubIOp>(op)) {
      symbol.poly = lhs->poly - rhs->poly;
    } else {
      auto product = lhs->poly * rhs->poly;
      if (!product)
        return std::nullopt;
      symbol.poly = *product;
    }
    return symbol;
  }
  if (auto addptr = dyn_cast<tile::AddPtrOp>(op)) {
    auto ptr = tensor(addptr.getPtr(), depth + 1);
    auto offset = tensor(addptr.getOffset(), depth + 1);
    if (!ptr || !offset || !ptr->base || offset->base || offset->isMask ||
        offset->clamp)
      return std::nullopt;
    Symbol symbol = *ptr;
    symbol.poly = ptr->poly + offset->poly;
    return symbol;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return compare(cmp, depth);
  if (auto andOp = dyn_cast<arith::AndIOp>(op)) {
    auto lhs = tensor(andOp.getLhs(), depth + 1);
    auto rhs = tensor(andOp.getRhs(), depth + 1);
    if (!lhs || !rhs || !lhs->isMask || !rhs->isMask)
      return std::nullopt;
    Symbol symbol = *lhs;
    symbol.conditions.append(rhs->conditions);
    return symbol;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

/// Whether every value `poly` mentions is defined outside `loop`, or is its
/// induction variable when `allowIv`.
static bool isLoopInvariant(const IndexPolynomial &poly, scf::ForOp loop,
                            bool allowIv) {
  for (Value value : poly.getValues()) {
    if (value == loop.getInductionVar()) {
      if (!allowIv)
        return false;
      continue;
    }
    if (loop->isAncestor(value.getParentRegion()->getParentOp()))
      return false;
  }
  return true;
}

/// The largest power of two known to divide every value of `poly` (a
/// single monomial; 1 when unknown).
static int64_t getDivisibility(const IndexPolynomial &poly,
                               const AxisInfoAnalysis &info) {
  if (poly.getTerms().size() != 1)
    return 1;
  const auto &[monomial, coefficient] = *poly.getTerms().begin();
  int64_t divisibility = coefficient & -coefficient;
  for (uintptr_t key : monomial) {
    if (IndexPolynomial::isIndexKey(key))
      return 1;
    AxisInfo axis = info.getAxisInfo(valueOf(key));
    int64_t factor = axis.getRank() ? axis.divisibility.front() : 1;
    divisibility = std::min<int64_t>(divisibility * factor, kMaxDivisibility);
  }
  return divisibility;
}

std::optional<TensorMapPlan>
mlir::tilegpu::planTensorMapLoad(tile::LoadOp load, scf::ForOp loop,
                                 MemDescType tile,
                                 const AxisInfoAnalysis &info) {
  auto layout = getNVMMASharedLayout(tile);
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!layout || !type || type.getRank() != 2)
    return std::nullopt;
  Type element = type.getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32())
    return std::nullopt;
  Evaluator evaluator(loop);
  auto ptr = evaluator.tensor(load.getPtr());
  if (!ptr || !ptr->base || ptr->isMask ||
      loop->isAncestor(ptr->base.getParentRegion()->getParentOp()))
    return std::nullopt;

  // poly = start + sum_d factor[d] * index_d.
  IndexPolynomial start, factor[2];
  for (const auto &[monomial, coefficient] : ptr->poly.getTerms()) {
    IndexPolynomial::Monomial rest;
    SmallVector<unsigned> dims;
    for (uintptr_t key : monomial) {
      if (IndexPolynomial::isIndexKey(key))
        dims.push_back(key);
      else
        rest.push_back(key);
    }
    if (dims.empty())
      start.addTerm(rest, coefficient);
    else if (dims.size() == 1 && dims[0] < 2)
      factor[dims[0]].addTerm(rest, coefficient);
    else
      return std::nullopt;
  }
  unsigned contig = layout->contigDim, other = 1 - contig;
  if (factor[contig].getConstant() != 1 || factor[other].isZero() ||
      factor[other].getTerms().size() != 1 ||
      !factor[other].getIndexDims().empty() ||
      !isLoopInvariant(factor[other], loop, /*allowIv=*/false))
    return std::nullopt;

  TensorMapPlan plan;
  plan.base = ptr->base;
  plan.stride = factor[other];
  // Split the start into coordinates: the terms that are multiples of the
  // stride address rows, the rest columns. With a constant stride (a
  // descriptor's `strides=[HEAD_DIM, 1]`) every term is a column first;
  // if the mask then does not bound the box, the terms whose coefficient
  // the stride divides become rows. (Any split gives the same addresses;
  // the mask check decides whether it gives the same bounds.)
  // Plain variables, not a structured binding: C++17 lambdas cannot
  // capture bindings (clang rejects it; the sanitizer build uses clang).
  const IndexPolynomial::Monomial &strideMonomial =
      plan.stride.getTerms().begin()->first;
  int64_t strideCoefficient = plan.stride.getTerms().begin()->second;
  auto splitAndBound = [&](TensorMapPlan &box, bool rowsByCoefficient) {
    for (const auto &[monomial, coefficient] : start.getTerms()) {
      IndexPolynomial::Monomial rest(monomial);
      bool divides = coefficient % strideCoefficient == 0 &&
                     (rowsByCoefficient || !strideMonomial.empty());
      for (uintptr_t key : strideMonomial) {
        auto *it = llvm::find(rest, key);
        if (it == rest.end()) {
          divides = false;
          break;
        }
        rest.erase(it);
      }
      if (divides)
        box.coord[other].addTerm(rest, coefficient / strideCoefficient);
      else
        box.coord[contig].addTerm(monomial, coefficient);
    }
    for (unsigned d = 0; d < 2; ++d)
      if (!isLoopInvariant(box.coord[d], loop, /*allowIv=*/true))
        return false;
    // The mask must be exactly "coordinate + index < extent" per bounded
    // dimension, with loop-invariant extents.
    Value mask = load.getMask();
    if (!mask)
      return true;
    auto symbol = evaluator.tensor(mask);
    if (!symbol || !symbol->isMask)
      return false;
    for (const Condition &condition : symbol->conditions) {
      auto dims = condition.poly.getIndexDims();
      if (dims.size() != 1 || dims[0] > 1)
        return false;
      unsigned d = dims[0];
      IndexPolynomial rest = condition.poly - IndexPolynomial::index(d);
      if (!rest.getIndexDims().empty())
        return false;
      IndexPolynomial extent = box.coord[d] - rest;
      if (!isLoopInvariant(extent, loop, /*allowIv=*/false) ||
          (box.extent[d] && !(*box.extent[d] == extent)))
        return false;
      box.extent[d] = extent;
    }
    return true;
  };
  TensorMapPlan box = plan;
  if (!splitAndBound(box, /*rowsByCoefficient=*/false)) {
    box = plan;
    if (!strideMonomial.empty() ||
        !splitAndBound(box, /*rowsByCoefficient=*/true))
      return std::nullopt;
  }
  plan = std::move(box);

  // What the copy engine needs: a 16-byte aligned base and row stride.
  int64_t bytes = getSharedElementBytes(element);
  AxisInfo baseInfo = info.getAxisInfo(plan.base);
  if (!baseInfo.getRank() || baseInfo.divisibility.front() % 16 != 0 ||
      (getDivisibility(plan.stride, info) * bytes) % 16 != 0)
    return std::nullopt;
  plan.boxShape.assign(type.getShape().begin(), type.getShape().end());
  plan.boxShape[contig] = layout->swizzle / bytes;
  if (type.getDimSize(other) > 256 ||
      type.getDimSize(contig) % plan.boxShape[contig] != 0)
    return std::nullopt;
  return plan;
}
