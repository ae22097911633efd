//===- SemaJoinSplit.cpp - join, split, interleave, flip, ravel -----------===//
//
// Triton's `tl.join(a, b)` (a new minor dimension of size 2 holding a and
// b), `tl.split(x)` (its inverse, on a minor dimension of size 2),
// `tl.interleave(a, b)` (join, then the last two dimensions merged),
// `tl.flip(x, dim)`, `tl.ravel(x)` and `tl.broadcast(a, b)`, built from the
// ops every backend already has: join is a select between the two operands
// broadcast along the new dimension, split two reductions of that
// dimension whose combine keeps the first or the second element; flip
// views the dimension as log2(n) dimensions of 2 and swaps each pair by
// xor with its xor-sum on the elements' bits. All exact for every value,
// -0.0 and NaN included.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "llvm/Support/MathExtras.h"

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

/// `join(a, b)`: shape S + [2] for a and b broadcast to S.
static Value joinValues(Sema &sema, Value a, Value b, SourceLoc argsLoc,
                        SourceLoc loc, llvm::StringRef what) {
  if (!sema.requireExpr(a, argsLoc, "'" + what.str() + "'") ||
      !sema.requireExpr(b, argsLoc, "'" + what.str() + "'"))
    return Value::invalid();
  if (a.type().isPointer || b.type().isPointer ||
      a.type().elem != b.type().elem) {
    sema.error(loc, "'" + what +
                        "' needs two blocks of one element type; got " +
                        a.type().str() + " and " + b.type().str() +
                        " (convert one with .to(...))");
    return Value::invalid();
  }
  ExprPtr ea = std::move(a.expr), eb = std::move(b.expr);
  if (!sema.broadcastPair(ea, eb, loc, "'" + what.str() + "'"))
    return Value::invalid();
  std::vector<int64_t> shape = ea->getType().shape;
  std::vector<int64_t> joined = shape;
  joined.push_back(2);
  if (!sema.checkShape(joined, loc))
    return Value::invalid();
  ScalarType elem = ea->getType().elem;
  auto widen = [&](ExprPtr e) {
    std::vector<int64_t> unit = shape;
    unit.push_back(1);
    ExprPtr expanded = shape.empty() ? sema.broadcastTo(std::move(e), {1}, loc)
                                     : std::make_unique<ck::ExpandDimsExpr>(
                                           TType(elem, false, unit), loc,
                                           std::move(e), int64_t(shape.size()));
    return sema.broadcastTo(std::move(expanded), joined, loc);
  };
  // The new dimension's index, compared with 0.
  ExprPtr index = std::make_unique<ck::MakeRangeExpr>(
      TType(ScalarType::I32, false, {2}), loc, 0, 2);
  std::vector<int64_t> indexShape(joined.size(), 1);
  indexShape.back() = 2;
  if (joined.size() > 1)
    index = sema.broadcastTo(
        std::make_unique<ck::ReshapeExpr>(
            TType(ScalarType::I32, false, indexShape), loc, std::move(index)),
        joined, loc);
  Value first =
      sema.binaryOp(ast::BinaryOp::Eq, Value::ofExpr(std::move(index)),
                    sema.makeConst(ConstexprValue::ofInt(0), loc), loc);
  if (first.isInvalid())
    return first;
  return Value::ofExpr(std::make_unique<ck::SelectExpr>(
      TType(elem, false, joined), loc, std::move(first.expr),
      widen(std::move(ea)), widen(std::move(eb))));
}

/// `split(x)`: the two halves of x's minor dimension (of size 2).
static Value splitValue(Sema &sema, Value x, SourceLoc argsLoc, SourceLoc loc) {
  if (!sema.requireExpr(x, argsLoc, "'split'"))
    return Value::invalid();
  const TType &t = x.type();
  if (t.isScalar() || t.shape.back() != 2) {
    sema.error(loc, "'split' needs a block whose last dimension is 2; got " +
                        t.str());
    return Value::invalid();
  }
  int64_t axis = t.getRank() - 1;
  std::vector<Value> halves;
  for (unsigned keep = 0; keep < 2; ++keep) {
    Value half = sema.combine(
        ck::CombineKind::Reduce, x.clone(), axis, /*reverse=*/false,
        /*keepDims=*/false,
        [keep](std::vector<Value> &params) { return std::move(params[keep]); },
        "split", loc);
    if (half.isInvalid())
      return half;
    halves.push_back(sema.materializeTrivial(std::move(half), loc, "half"));
  }
  return Value::ofTuple(std::move(halves));
}

/// The signed integer type of \p elem's width (the bits flip moves).
static ScalarType bitsType(ScalarType elem) {
  switch (scalarTypeBits(elem)) {
  case 8:
    return ScalarType::I8;
  case 16:
    return ScalarType::I16;
  case 64:
    return ScalarType::I64;
  default:
    return ScalarType::I32;
  }
}

/// The integers that hold the bits of \p elem (booleans as i8).
static ScalarType bitsHolder(ScalarType elem) {
  return elem == ScalarType::I1 ? ScalarType::I8 : bitsType(elem);
}

/// \p e (elements of \p type) as the integers of bitsHolder(): its bits,
/// a boolean as 0 or 1.
static ExprPtr toBits(Sema &sema, ExprPtr e, const TType &type, SourceLoc loc) {
  ScalarType ints = bitsHolder(type.elem);
  if (type.isBool())
    return sema.castTo(std::move(e), ints, loc);
  if (ints == type.elem)
    return e;
  return std::make_unique<ck::BitcastExpr>(TType(ints, false, type.shape), loc,
                                           std::move(e));
}

/// The inverse of toBits: \p e (integers of bitsHolder(elem)) as `elem`.
static ExprPtr fromBits(Sema &sema, ExprPtr e, ScalarType elem, SourceLoc loc) {
  if (elem == ScalarType::I1)
    return sema.castTo(std::move(e), elem, loc);
  if (bitsHolder(elem) == elem)
    return e;
  TType type = e->getType();
  type.elem = elem;
  return std::make_unique<ck::BitcastExpr>(type, loc, std::move(e));
}

/// Element `keep` (0 or 1) of each pair along dimension `axis` (of size 2)
/// of `y`, the dimension kept (of size 1): an exact combine reduction.
static Value pickOfPairs(Sema &sema, const Value &y, int64_t axis,
                         unsigned keep, SourceLoc loc, llvm::StringRef what) {
  return sema.combine(
      ck::CombineKind::Reduce, y.clone(), axis, /*reverse=*/false,
      /*keepDims=*/true,
      [keep](std::vector<Value> &params) { return std::move(params[keep]); },
      what, loc);
}

static Value reshapeTo(Value v, std::vector<int64_t> shape, SourceLoc loc) {
  TType type = v.type().withShape(std::move(shape));
  return Value::ofExpr(
      std::make_unique<ck::ReshapeExpr>(type, loc, std::move(v.expr)));
}

/// One compare-and-swap step of a bitonic network over the last dimension
/// (of 2^n elements) of `x`: the pairs 2^(n - i - 1) apart are put in
/// order, descending where `flip` (a compile-time bool or an i1 block of
/// x's shape) is true. A pair is swapped when (left > right) != flip (so
/// NaNs compare as Triton's do).
static Value compareAndSwap(Sema &sema, Value x, const Value &flip, unsigned i,
                            unsigned n, SourceLoc loc) {
  const std::vector<int64_t> shape = x.type().shape;
  int64_t outer = x.type().getNumElements() >> n;
  std::vector<int64_t> pairs = {outer << i, 2, int64_t(1) << (n - i - 1)};
  Value y = sema.materializeTrivial(reshapeTo(x.clone(), pairs, loc), loc,
                                    "sort_pairs");
  Value halves[2];
  for (unsigned keep = 0; keep < 2; ++keep) {
    Value half = pickOfPairs(sema, y, 1, keep, loc, "sort");
    if (half.isInvalid())
      return half;
    half = Value::ofExpr(sema.broadcastTo(std::move(half.expr), pairs, loc));
    halves[keep] = sema.materializeTrivial(
        reshapeTo(std::move(half), shape, loc), loc, "sort_half");
  }
  // Whether each element is the left one of its pair.
  ExprPtr side = std::make_unique<ck::MakeRangeExpr>(
      TType(ScalarType::I32, false, {2}), loc, 0, 2);
  side = std::make_unique<ck::ReshapeExpr>(
      TType(ScalarType::I32, false, {1, 2, 1}), loc, std::move(side));
  Value isLeft = sema.binaryOp(
      ast::BinaryOp::Eq,
      reshapeTo(Value::ofExpr(sema.broadcastTo(std::move(side), pairs, loc)),
                shape, loc),
      sema.makeConst(ConstexprValue::ofInt(0), loc), loc);
  Value greater = sema.binaryOp(ast::BinaryOp::Gt, halves[0].clone(),
                                halves[1].clone(), loc);
  Value swap =
      sema.binaryOp(ast::BinaryOp::Ne, std::move(greater), flip.clone(), loc);
  if (isLeft.isInvalid() || swap.isInvalid())
    return Value::invalid();
  TType type = x.type();
  ExprPtr partner = std::make_unique<ck::SelectExpr>(
      type, loc, std::move(isLeft.expr), std::move(halves[1].expr),
      std::move(halves[0].expr));
  return Value::ofExpr(std::make_unique<ck::SelectExpr>(
      type, loc, sema.broadcastTo(std::move(swap.expr), shape, loc),
      std::move(partner), std::move(x.expr)));
}

/// `sort(x, dim=None, descending=False)`: a bitonic sort of the last
/// dimension (the only one Triton sorts).
static Value sortValue(Sema &sema, Value x, const Value &dimArg,
                       const Value &descendingArg, SourceLoc argsLoc,
                       SourceLoc loc) {
  if (!sema.requireExpr(x, argsLoc, "'sort'"))
    return Value::invalid();
  TType t = x.type();
  if (t.isScalar() || t.isPointer || isFP8Type(t.elem)) {
    sema.error(loc, "'sort' needs a block of numbers; got " + t.str());
    return Value::invalid();
  }
  int64_t rank = t.getRank();
  if (!dimArg.isNone()) {
    auto d = sema.requireConstInt(dimArg, argsLoc, "the dim of 'sort'");
    if (!d)
      return Value::invalid();
    if ((*d < 0 ? *d + rank : *d) != rank - 1) {
      sema.error(loc, "'sort' sorts only the last dimension (as Triton); got "
                      "dim " +
                          llvm::Twine(*d) + " of " + t.str());
      return Value::invalid();
    }
  }
  bool descending = false;
  if (!descendingArg.isNone()) {
    const ConstexprValue *c = descendingArg.getConst();
    if (!c) {
      sema.error(argsLoc, "'descending' of 'sort' must be a compile-time "
                          "bool");
      return Value::invalid();
    }
    descending = c->asBool();
  }
  unsigned n = llvm::Log2_64(uint64_t(t.shape.back()));
  int64_t outer = t.getNumElements() >> n;
  // The network has n (n + 1) / 2 steps over the whole block; bound the
  // compile time (2^20 element-steps: 16 rows of 1024 give 52k lines of
  // PTX, 13 s of ptxas).
  int64_t work = t.getNumElements() * int64_t(n) * (n + 1) / 2;
  if (work > (int64_t(1) << 20)) {
    sema.error(loc, "'sort' of " + t.str() + " needs " + llvm::Twine(work) +
                        " element-steps of its bitonic network; tilec sorts "
                        "at most 2^20 (sort fewer or shorter rows)");
    return Value::invalid();
  }
  for (unsigned stage = 1; stage <= n; ++stage) {
    // Stages before the last merge alternating directions (bitonic runs).
    Value flip;
    if (stage < n) {
      std::vector<int64_t> runs = {outer << (n - 1 - stage), 2,
                                   int64_t(1) << stage};
      ExprPtr dir = std::make_unique<ck::MakeRangeExpr>(
          TType(ScalarType::I32, false, {2}), loc, 0, 2);
      dir = std::make_unique<ck::ReshapeExpr>(
          TType(ScalarType::I32, false, {1, 2, 1}), loc, std::move(dir));
      dir = sema.broadcastTo(std::move(dir), runs, loc);
      flip =
          sema.binaryOp(ast::BinaryOp::Ne,
                        reshapeTo(Value::ofExpr(std::move(dir)), t.shape, loc),
                        sema.makeConst(ConstexprValue::ofInt(0), loc), loc);
      flip = sema.materializeTrivial(std::move(flip), loc, "sort_flip");
    } else {
      flip = sema.makeConst(ConstexprValue::ofBool(descending), loc);
    }
    for (unsigned i = 0; i < stage; ++i) {
      x = sema.materializeTrivial(std::move(x), loc, "sort");
      x = compareAndSwap(sema, std::move(x), flip, i + (n - stage), n, loc);
      if (x.isInvalid())
        return x;
    }
  }
  return x;
}

/// `flip(x, dim)`: x reversed along `dim` (None: the last dimension).
static Value flipValue(Sema &sema, Value x, const Value &dimArg,
                       SourceLoc argsLoc, SourceLoc loc) {
  if (!sema.requireExpr(x, argsLoc, "'flip'"))
    return Value::invalid();
  TType t = x.type();
  if (t.isScalar() || t.isPointer) {
    sema.error(loc, "'flip' needs a block of numbers; got " + t.str());
    return Value::invalid();
  }
  int64_t rank = t.getRank();
  int64_t dim = rank - 1;
  if (!dimArg.isNone()) {
    auto d = sema.requireConstInt(dimArg, argsLoc, "the dim of 'flip'");
    if (!d)
      return Value::invalid();
    dim = *d < 0 ? *d + rank : *d;
    if (dim < 0 || dim >= rank) {
      sema.error(loc, "dim " + llvm::Twine(*d) +
                          " is out of range for a block of rank " +
                          llvm::Twine(rank));
      return Value::invalid();
    }
  }
  unsigned steps = llvm::Log2_64(uint64_t(t.shape[dim]));
  if (steps == 0)
    return x;
  // The elements as integers of their width (booleans as i8).
  ScalarType ints = bitsHolder(t.elem);
  ExprPtr e = toBits(sema, std::move(x.expr), t, loc);
  std::vector<int64_t> pairs(t.shape.begin(), t.shape.begin() + dim);
  pairs.insert(pairs.end(), steps, 2);
  pairs.insert(pairs.end(), t.shape.begin() + dim + 1, t.shape.end());
  Value y = Value::ofExpr(std::make_unique<ck::ReshapeExpr>(
      TType(ints, false, pairs), loc, std::move(e)));
  for (unsigned i = 0; i < steps; ++i) {
    // Each pair (a, b) along dimension dim + i becomes (b, a): both xor
    // a ^ b.
    y = sema.materializeTrivial(std::move(y), loc, "flip");
    Value pairXor = sema.combine(
        ck::CombineKind::Reduce, y.clone(), dim + i, /*reverse=*/false,
        /*keepDims=*/true,
        [&sema, loc](std::vector<Value> &params) {
          return sema.binaryOp(ast::BinaryOp::BitXor, std::move(params[0]),
                               std::move(params[1]), loc);
        },
        "flip", loc);
    if (pairXor.isInvalid())
      return pairXor;
    y = sema.binaryOp(ast::BinaryOp::BitXor, std::move(y), std::move(pairXor),
                      loc);
    if (y.isInvalid())
      return y;
  }
  e = std::make_unique<ck::ReshapeExpr>(TType(ints, false, t.shape), loc,
                                        std::move(y.expr));
  return Value::ofExpr(fromBits(sema, std::move(e), t.elem, loc));
}

/// `gather(src, index, axis)`: out[..., m, ...] = src[..., index[..., m,
/// ...], ...], `index` of src's rank and extents but along `axis` (Triton's
/// rule). A one-hot selection: the bits of src (integers of its width)
/// times (index == position along `axis`), summed over the positions. One
/// term is not zero, so every bit pattern comes through exactly (-0.0, NaN
/// payloads); an index out of range gives 0 (Triton leaves it undefined).
/// The selection holds index's elements times src's extent along `axis`.
static Value gatherValue(Sema &sema, Value src, Value index,
                         const Value &axisArg, SourceLoc argsLoc,
                         SourceLoc loc) {
  if (!sema.requireExpr(src, argsLoc, "the source of 'gather'") ||
      !sema.requireExpr(index, argsLoc, "the index of 'gather'"))
    return Value::invalid();
  TType s = src.type(), i = index.type();
  if (s.isScalar() || s.isPointer) {
    sema.error(loc, "'gather' needs a block of numbers as its source; got " +
                        s.str());
    return Value::invalid();
  }
  if (i.isScalar() || i.isPointer || !i.isInteger() || i.isBool()) {
    sema.error(loc, "the index of 'gather' must be a block of integers; got " +
                        i.str());
    return Value::invalid();
  }
  int64_t rank = s.getRank();
  if (i.getRank() != rank) {
    sema.error(loc, "the index of 'gather' must have the source's rank (" +
                        s.str() + "); got " + i.str());
    return Value::invalid();
  }
  auto a = sema.requireConstInt(axisArg, argsLoc, "the axis of 'gather'");
  if (!a)
    return Value::invalid();
  int64_t axis = *a < 0 ? *a + rank : *a;
  if (axis < 0 || axis >= rank) {
    sema.error(loc, "axis " + llvm::Twine(*a) +
                        " is out of range for a block of rank " +
                        llvm::Twine(rank));
    return Value::invalid();
  }
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && i.shape[d] != s.shape[d]) {
      sema.error(loc, "the index of 'gather' must have the source's extent "
                      "on every dimension but the axis (" +
                          llvm::Twine(axis) + "); got " + i.str() + " for " +
                          s.str());
      return Value::invalid();
    }
  // [..., M, S, ...]: index's shape with src's extent along `axis` after it.
  int64_t extent = s.shape[axis];
  std::vector<int64_t> oneHot = i.shape;
  oneHot.insert(oneHot.begin() + axis + 1, extent);
  if (!sema.checkShape(oneHot, loc))
    return Value::invalid();

  ScalarType ints = bitsHolder(s.elem);
  ExprPtr bits = toBits(sema, std::move(src.expr), s, loc);
  std::vector<int64_t> srcShape = s.shape;
  srcShape.insert(srcShape.begin() + axis, 1);
  bits = std::make_unique<ck::ExpandDimsExpr>(TType(ints, false, srcShape), loc,
                                              std::move(bits), axis);
  std::vector<int64_t> indexShape = i.shape;
  indexShape.insert(indexShape.begin() + axis + 1, 1);
  ExprPtr idx = std::make_unique<ck::ExpandDimsExpr>(
      i.withShape(indexShape), loc, std::move(index.expr), axis + 1);
  std::vector<int64_t> rangeShape(rank + 1, 1);
  rangeShape[axis + 1] = extent;
  ExprPtr range = std::make_unique<ck::MakeRangeExpr>(
      TType(ScalarType::I32, false, {extent}), loc, 0, extent);
  range = std::make_unique<ck::ReshapeExpr>(
      TType(ScalarType::I32, false, rangeShape), loc, std::move(range));
  Value hit = sema.binaryOp(ast::BinaryOp::Eq, Value::ofExpr(std::move(idx)),
                            Value::ofExpr(std::move(range)), loc);
  if (hit.isInvalid())
    return hit;
  Value picked = sema.binaryOp(
      ast::BinaryOp::Mul,
      Value::ofExpr(sema.broadcastTo(std::move(bits), oneHot, loc)),
      sema.castValue(std::move(hit), ints, loc), loc);
  if (picked.isInvalid())
    return picked;
  Value sum = sema.reduce(ck::ReduceKind::Sum, std::move(picked), axis + 1,
                          /*keepDims=*/false, loc);
  if (sum.isInvalid())
    return sum;
  return Value::ofExpr(
      fromBits(sema, sema.castTo(std::move(sum.expr), ints, loc), s.elem, loc));
}

Value Sema::builtinJoinSplit(llvm::StringRef name, CallArgs &args,
                             SourceLoc loc) {
  std::vector<Value> slots;
  if (name == "cat") {
    // cat(a, b, can_reorder): Triton allows any order of the elements (and
    // requires can_reorder=True); tilec puts b's rows after a's (dim 0).
    if (!bindArgs(args, name, {"input", "other", "can_reorder"}, 2, slots))
      return Value::invalid();
    const ConstexprValue *reorder = slots[2].getConst();
    if (!reorder || !reorder->asBool()) {
      error(loc, "'cat' needs can_reorder=True (as in Triton, whose cat may "
                 "reorder the elements)");
      return Value::invalid();
    }
    if (!requireExpr(slots[0], args.loc, "'cat'") ||
        !requireExpr(slots[1], args.loc, "'cat'"))
      return Value::invalid();
    TType a = slots[0].type(), b = slots[1].type();
    if (a.isScalar() || a != b) {
      error(loc, "'cat' needs two blocks of one type and shape; got " +
                     a.str() + " and " + b.str());
      return Value::invalid();
    }
    Value joined = joinValues(*this, std::move(slots[0]), std::move(slots[1]),
                              args.loc, loc, name);
    if (joined.isInvalid())
      return joined;
    // [d0, ..., 2] -> [2, d0, ...] -> [2 * d0, ...].
    std::vector<int32_t> order = {int32_t(a.getRank())};
    for (int32_t d = 0; d < a.getRank(); ++d)
      order.push_back(d);
    std::vector<int64_t> front = {2};
    front.insert(front.end(), a.shape.begin(), a.shape.end());
    ExprPtr moved = std::make_unique<ck::TransExpr>(
        a.withShape(front), loc, std::move(joined.expr), std::move(order));
    std::vector<int64_t> shape = a.shape;
    shape[0] *= 2;
    return Value::ofExpr(std::make_unique<ck::ReshapeExpr>(
        a.withShape(shape), loc, std::move(moved)));
  }
  if (name == "histogram") {
    // histogram(x, num_bins, mask=None): counts of each value in [0,
    // num_bins) of a 1-D integer block (others ignored), as a sum over
    // x[:, None] == arange(0, num_bins)[None, :].
    if (!bindArgs(args, name, {"input", "num_bins", "mask"}, 2, slots) ||
        !requireExpr(slots[0], args.loc, "'histogram'"))
      return Value::invalid();
    TType t = slots[0].type();
    if (t.getRank() != 1 || !t.isInteger() || t.isBool()) {
      error(loc, "'histogram' needs a 1-D block of integers; got " + t.str());
      return Value::invalid();
    }
    auto bins = requireConstInt(slots[1], args.argLoc(1),
                                "the num_bins of 'histogram'");
    if (!bins)
      return Value::invalid();
    if (*bins <= 0 || !llvm::isPowerOf2_64(uint64_t(*bins))) {
      error(args.argLoc(1), "num_bins of 'histogram' must be a positive power "
                            "of two; got " +
                                llvm::Twine(*bins));
      return Value::invalid();
    }
    std::vector<int64_t> grid = {t.shape[0], *bins};
    if (!checkShape(grid, loc))
      return Value::invalid();
    ExprPtr x = std::make_unique<ck::ExpandDimsExpr>(
        t.withShape({t.shape[0], 1}), loc, std::move(slots[0].expr), 1);
    ExprPtr range = std::make_unique<ck::MakeRangeExpr>(
        TType(ScalarType::I32, false, {*bins}), loc, 0, *bins);
    range = std::make_unique<ck::ExpandDimsExpr>(
        TType(ScalarType::I32, false, {1, *bins}), loc, std::move(range), 0);
    Value hit = binaryOp(ast::BinaryOp::Eq, Value::ofExpr(std::move(x)),
                         Value::ofExpr(std::move(range)), loc);
    if (!slots[2].isNone()) {
      if (!requireExpr(slots[2], args.argLoc(2), "the mask of 'histogram'"))
        return Value::invalid();
      if (slots[2].type().isPointer || slots[2].type().isFloat()) {
        error(args.argLoc(2), "the mask of 'histogram' must be a boolean "
                              "block; got " +
                                  slots[2].type().str());
        return Value::invalid();
      }
      ExprPtr m = toBool(std::move(slots[2].expr), loc);
      if (m->getType().shape != t.shape) {
        error(args.argLoc(2), "the mask of 'histogram' must have the input's "
                              "shape " +
                                  formatShape(t.shape));
        return Value::invalid();
      }
      m = std::make_unique<ck::ExpandDimsExpr>(
          TType(ScalarType::I1, false, {t.shape[0], 1}), loc, std::move(m), 1);
      hit = binaryOp(ast::BinaryOp::BitAnd, std::move(hit),
                     Value::ofExpr(std::move(m)), loc);
    }
    if (hit.isInvalid())
      return hit;
    Value counts = castValue(std::move(hit), ScalarType::I32, loc);
    return reduce(ck::ReduceKind::Sum, std::move(counts), 0, false, loc);
  }
  if (name == "topk") {
    // topk(x, k, dim=None): the k largest of each row of the last
    // dimension, largest first (Triton's order): the row sorted
    // descending, then its first k (halves taken exactly).
    if (!bindArgs(args, name, {"x", "k", "dim"}, 2, slots))
      return Value::invalid();
    auto k = requireConstInt(slots[1], args.argLoc(1), "the k of 'topk'");
    if (!k)
      return Value::invalid();
    if (!requireExpr(slots[0], args.loc, "'topk'"))
      return Value::invalid();
    TType t = slots[0].type();
    if (t.isScalar() || *k <= 0 || !llvm::isPowerOf2_64(uint64_t(*k)) ||
        *k > t.shape.back()) {
      error(args.argLoc(1), "the k of 'topk' must be a power of two of at "
                            "most the last dimension; got " +
                                llvm::Twine(*k) + " for " + t.str());
      return Value::invalid();
    }
    Value sorted =
        sortValue(*this, std::move(slots[0]), slots[2],
                  makeConst(ConstexprValue::ofBool(true), loc), args.loc, loc);
    if (sorted.isInvalid())
      return sorted;
    int64_t rank = t.getRank();
    std::vector<int64_t> shape = t.shape;
    while (shape.back() > *k) {
      std::vector<int64_t> halves = shape;
      halves.back() /= 2;
      halves.insert(halves.end() - 1, 2);
      Value y = materializeTrivial(reshapeTo(std::move(sorted), halves, loc),
                                   loc, "topk");
      Value first = pickOfPairs(*this, y, rank - 1, 0, loc, "topk");
      if (first.isInvalid())
        return first;
      shape.back() /= 2;
      sorted = reshapeTo(std::move(first), shape, loc);
    }
    return sorted;
  }
  if (name == "sort") {
    if (!bindArgs(args, name, {"x", "dim", "descending"}, 1, slots))
      return Value::invalid();
    return sortValue(*this, std::move(slots[0]), slots[1], slots[2], args.loc,
                     loc);
  }
  if (name == "gather") {
    if (!bindArgs(args, name, {"src", "index", "axis"}, 3, slots))
      return Value::invalid();
    return gatherValue(*this, std::move(slots[0]), std::move(slots[1]),
                       slots[2], args.loc, loc);
  }
  if (name == "flip") {
    if (!bindArgs(args, name, {"x", "dim"}, 1, slots))
      return Value::invalid();
    return flipValue(*this, std::move(slots[0]), slots[1], args.loc, loc);
  }
  if (name == "ravel") {
    if (!bindArgs(args, name, {"x", "can_reorder"}, 1, slots) ||
        !requireExpr(slots[0], args.loc, "'ravel'"))
      return Value::invalid();
    TType t = slots[0].type();
    if (t.getRank() <= 1)
      return std::move(slots[0]);
    TType type = t.withShape({t.getNumElements()});
    return Value::ofExpr(
        std::make_unique<ck::ReshapeExpr>(type, loc, std::move(slots[0].expr)));
  }
  if (name == "broadcast") {
    // broadcast(a, b): both broadcast to their common shape.
    if (!bindArgs(args, name, {"input", "other"}, 2, slots) ||
        !requireExpr(slots[0], args.loc, "'broadcast'") ||
        !requireExpr(slots[1], args.loc, "'broadcast'"))
      return Value::invalid();
    ExprPtr a = std::move(slots[0].expr), b = std::move(slots[1].expr);
    if (!broadcastPair(a, b, loc, "'broadcast'"))
      return Value::invalid();
    std::vector<Value> both;
    both.push_back(Value::ofExpr(std::move(a)));
    both.push_back(Value::ofExpr(std::move(b)));
    return Value::ofTuple(std::move(both));
  }
  if (name == "split") {
    if (!bindArgs(args, name, {"a"}, 1, slots))
      return Value::invalid();
    return splitValue(*this, std::move(slots[0]), args.loc, loc);
  }
  if (!bindArgs(args, name, {"a", "b"}, 2, slots))
    return Value::invalid();
  Value joined = joinValues(*this, std::move(slots[0]), std::move(slots[1]),
                            args.loc, loc, name);
  if (name == "join" || joined.isInvalid())
    return joined;
  // interleave(a, b): join, then the last two dimensions as one (a's and
  // b's elements alternate along the last dimension).
  std::vector<int64_t> shape = joined.type().shape;
  shape.pop_back();
  if (shape.empty())
    shape.push_back(2);
  else
    shape.back() *= 2;
  TType type = joined.type().withShape(shape);
  return Value::ofExpr(
      std::make_unique<ck::ReshapeExpr>(type, loc, std::move(joined.expr)));
}
