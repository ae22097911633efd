//===- SemaCombine.cpp - Scans and reductions with a combine function -----===//
//
// `tl.associative_scan(input, axis, combine_fn, reverse)` and
// `tl.reduce(input, axis, combine_fn, keep_dims)` (the input a block or a
// tuple of blocks of one shape), and the built-ins Triton defines with them:
// `cumsum`, `cumprod`, `xor_sum`. Each becomes one checked::CombineStmt whose
// body is the combine function inlined on scalar parameters (two per input
// block: the earlier value, then the later one).
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

ScalarType sema::pickSumType(ScalarType elem) {
  // Triton's _pick_sum_dtype: integers narrower than 32 bits accumulate in
  // 32 bits of their signedness (i1 counts as unsigned, as in Triton).
  if (!isIntegerType(elem) || scalarTypeBits(elem) >= 32)
    return elem;
  return isUnsignedType(elem) || elem == ScalarType::I1 ? ScalarType::U32
                                                        : ScalarType::I32;
}

Value Sema::callCombineFunction(const Value &fn, SourceLoc fnLoc,
                                std::vector<Value> &params,
                                llvm::StringRef what) {
  if (fn.kind != Value::Kind::Function) {
    error(fnLoc, "the combine_fn of '" + what +
                     "' must be a @triton.jit function (a helper); got " +
                     fn.describe());
    return Value::invalid();
  }
  if (!fn.function) {
    error(fnLoc, "the combine_fn '" + fn.str + "' of '" + what +
                     "' is not a @triton.jit function (tilec compiles only "
                     "those)");
    return Value::invalid();
  }
  const ast::Function &function = *fn.function;
  size_t required = llvm::count_if(
      function.params, [](const ast::Param &p) { return !p.defaultValue; });
  if (params.size() < required || params.size() > function.params.size()) {
    error(fnLoc, "the combine_fn '" + function.name + "' of '" + what +
                     "' takes " + llvm::Twine(function.params.size()) +
                     " argument" + (function.params.size() == 1 ? "" : "s") +
                     "; it is called with " + llvm::Twine(params.size()) +
                     " (an earlier and a later value of each of the " +
                     llvm::Twine(params.size() / 2) + " input block" +
                     (params.size() == 2 ? "" : "s") + ")");
    return Value::invalid();
  }
  CallArgs args;
  args.loc = fnLoc;
  for (Value &param : params) {
    args.args.push_back(std::move(param));
    args.argLocs.push_back(fnLoc);
  }
  return callHelper(function, args, fnLoc);
}

Value Sema::combine(ck::CombineKind kind, Value input,
                    std::optional<int64_t> axis, bool reverse, bool keepDims,
                    CombineBodyFn body, llvm::StringRef what, SourceLoc loc) {
  bool isTuple = input.kind == Value::Kind::Tuple;
  std::vector<Value> inputs;
  if (isTuple)
    inputs = std::move(input.elements);
  else
    inputs.push_back(std::move(input));
  if (inputs.empty()) {
    error(loc, "'" + what + "' needs at least one block");
    return Value::invalid();
  }
  std::vector<ExprPtr> operands;
  for (Value &v : inputs) {
    if (!requireExpr(v, loc, "'" + what.str() + "'"))
      return Value::invalid();
    const TType &t = v.type();
    if (t.isPointer || t.isScalar()) {
      error(loc, "'" + what + "' expects a block of numbers; got " + t.str());
      return Value::invalid();
    }
    if (!rejectFP8(t, loc, "'" + what.str() + "'"))
      return Value::invalid();
    if (!operands.empty() && t.shape != operands.front()->getType().shape) {
      error(loc, "the blocks of '" + what + "' must have one shape; got " +
                     operands.front()->getType().str() + " and " + t.str());
      return Value::invalid();
    }
    operands.push_back(std::move(v.expr));
  }
  const TType first = operands.front()->getType();
  int64_t rank = first.getRank();
  int64_t ax = 0;
  if (axis) {
    ax = *axis < 0 ? *axis + rank : *axis;
    if (ax < 0 || ax >= rank) {
      error(loc, "axis " + llvm::Twine(*axis) +
                     " is out of range for a block of rank " +
                     llvm::Twine(rank) + " (" + first.str() + ")");
      return Value::invalid();
    }
  } else if (rank > 1) {
    // axis=None reduces the flattened blocks.
    for (ExprPtr &operand : operands) {
      TType flat = operand->getType().withShape({first.getNumElements()});
      operand =
          std::make_unique<ck::ReshapeExpr>(flat, loc, std::move(operand));
    }
  }

  auto stmt = std::make_unique<ck::CombineStmt>(loc, kind, ax, reverse);
  std::vector<Value> params;
  for (int side = 0; side < 2; ++side)
    for (const ExprPtr &operand : operands) {
      TType type(operand->getType().elem);
      std::string name = freshName(side == 0 ? "lhs" : "rhs");
      stmt->params.push_back({name, type});
      params.push_back(
          Value::ofExpr(std::make_unique<ck::VarRefExpr>(type, loc, name)));
    }
  checked::Block *savedBlock = curBlock;
  curBlock = &stmt->body;
  Value returned = body(params);
  curBlock = savedBlock;
  if (returned.isInvalid())
    return Value::invalid();
  std::vector<Value> yields;
  if (returned.kind == Value::Kind::Tuple)
    yields = std::move(returned.elements);
  else
    yields.push_back(std::move(returned));
  if (yields.size() != operands.size()) {
    error(loc, "the combine_fn of '" + what + "' returns " +
                   llvm::Twine(yields.size()) + " value" +
                   (yields.size() == 1 ? "" : "s") + "; it must return " +
                   llvm::Twine(operands.size()) + ", one per input block");
    return Value::invalid();
  }
  for (size_t i = 0; i < yields.size(); ++i) {
    Value &y = yields[i];
    if (!requireExpr(y, loc, "the result of a combine_fn"))
      return Value::invalid();
    ScalarType elem = operands[i]->getType().elem;
    if (y.type().isScalar() && !y.type().isPointer && y.weak && y.getConst())
      y.expr = castTo(std::move(y.expr), elem, loc);
    if (y.type() != TType(elem)) {
      error(loc, "the combine_fn of '" + what + "' returns " + y.type().str() +
                     " for input " + llvm::Twine(i) +
                     "; it must return its element type, " +
                     scalarTypeName(elem));
      return Value::invalid();
    }
    stmt->yields.push_back(std::move(y.expr));
  }

  std::vector<int64_t> shape = operands.front()->getType().shape;
  if (kind == ck::CombineKind::Reduce)
    shape.erase(shape.begin() + ax);
  std::vector<Value> results;
  for (ExprPtr &operand : operands) {
    TType type = operand->getType().withShape(shape);
    std::string name = freshName(what);
    stmt->results.push_back({name, type});
    ExprPtr result = std::make_unique<ck::VarRefExpr>(type, loc, name);
    if (keepDims) {
      if (!axis) {
        result = broadcastTo(std::move(result),
                             std::vector<int64_t>(first.getRank(), 1), loc);
      } else {
        std::vector<int64_t> kept = shape;
        kept.insert(kept.begin() + ax, 1);
        TType keptType = type.withShape(kept);
        result = std::make_unique<ck::ExpandDimsExpr>(keptType, loc,
                                                      std::move(result), ax);
      }
    }
    results.push_back(Value::ofExpr(std::move(result)));
  }
  for (ExprPtr &operand : operands)
    stmt->operands.push_back(std::move(operand));
  emit(std::move(stmt));
  if (!isTuple)
    return std::move(results.front());
  Value tuple;
  tuple.kind = Value::Kind::Tuple;
  tuple.elements = std::move(results);
  return tuple;
}

/// The constant truth of an optional flag argument (None: false).
static std::optional<bool> constFlag(Sema &sema, const Value &v,
                                     llvm::StringRef what, SourceLoc loc) {
  if (v.isNone())
    return false;
  if (const ConstexprValue *c = v.getConst())
    return c->asBool();
  sema.error(loc, what + " must be a compile-time constant");
  return std::nullopt;
}

Value Sema::builtinCombine(llvm::StringRef name, CallArgs &args,
                           SourceLoc loc) {
  std::vector<Value> slots;
  auto axisOf = [&](Value &slot, bool noneAllowed,
                    std::optional<int64_t> &axis) -> bool {
    if (slot.isNone() && noneAllowed)
      return true;
    axis = requireConstInt(slot, args.loc, "the axis of '" + name.str() + "'");
    return axis.has_value();
  };
  // The user's combine_fn, or a built-in one: `op` of the two parameters.
  auto binaryBody = [&](ast::BinaryOp op) {
    return [this, op, loc](std::vector<Value> &params) {
      return binaryOp(op, std::move(params[0]), std::move(params[1]), loc);
    };
  };
  std::optional<int64_t> axis;
  if (name == "associative_scan" || name == "reduce") {
    bool scan = name == "associative_scan";
    if (!bindArgs(
            args, name,
            {"input", "axis", "combine_fn", scan ? "reverse" : "keep_dims"}, 3,
            slots) ||
        !axisOf(slots[1], /*noneAllowed=*/!scan, axis))
      return Value::invalid();
    std::optional<bool> flag =
        constFlag(*this, slots[3], scan ? "reverse" : "keep_dims", args.loc);
    if (!flag)
      return Value::invalid();
    size_t fnSlot = 2;
    SourceLoc fnLoc = args.argLoc(fnSlot);
    for (size_t k = 0; k < args.kwargs.size(); ++k)
      if (args.kwargs[k].first == "combine_fn")
        fnLoc = args.kwargLocs[k];
    Value fn = std::move(slots[fnSlot]);
    auto userBody = [&](std::vector<Value> &params) {
      return callCombineFunction(fn, fnLoc, params, name);
    };
    return combine(scan ? ck::CombineKind::Scan : ck::CombineKind::Reduce,
                   std::move(slots[0]), axis, scan && *flag, !scan && *flag,
                   userBody, name, loc);
  }
  if (name == "xor_sum") {
    if (!bindArgs(args, name, {"input", "axis", "keep_dims"}, 1, slots) ||
        !axisOf(slots[1], /*noneAllowed=*/true, axis) ||
        !requireExpr(slots[0], args.loc, "'xor_sum'"))
      return Value::invalid();
    std::optional<bool> keepDims =
        constFlag(*this, slots[2], "keep_dims", args.loc);
    if (!keepDims)
      return Value::invalid();
    if (!slots[0].type().isInteger()) {
      error(loc, "xor_sum only supported for integers; got " +
                     slots[0].type().str());
      return Value::invalid();
    }
    return combine(ck::CombineKind::Reduce, std::move(slots[0]), axis, false,
                   *keepDims, binaryBody(ast::BinaryOp::BitXor), name, loc);
  }
  // cumsum(input, axis=0, reverse=False, dtype=None), cumprod(input, axis=0,
  // reverse=False).
  bool sum = name == "cumsum";
  if (!(sum ? bindArgs(args, name, {"input", "axis", "reverse", "dtype"}, 1,
                       slots)
            : bindArgs(args, name, {"input", "axis", "reverse"}, 1, slots)) ||
      !requireExpr(slots[0], args.loc, "'" + name.str() + "'"))
    return Value::invalid();
  if (slots[1].isNone())
    axis = 0;
  else if (!axisOf(slots[1], /*noneAllowed=*/false, axis))
    return Value::invalid();
  std::optional<bool> reverse = constFlag(*this, slots[2], "reverse", args.loc);
  if (!reverse)
    return Value::invalid();
  Value x = std::move(slots[0]);
  // As Triton: bf16 computes in f32; cumsum of a narrow integer in 32 bits.
  if (!x.type().isPointer && x.type().elem == ScalarType::BF16)
    x = castValue(std::move(x), ScalarType::F32, loc);
  if (sum && !slots[3].isNone()) {
    auto dtype = requireDType(slots[3], args.loc, "'dtype'");
    if (!dtype)
      return Value::invalid();
    x = castValue(std::move(x), *dtype, loc);
  } else if (sum && !x.type().isPointer &&
             pickSumType(x.type().elem) != x.type().elem) {
    // (The type first: the by-value argument may be moved into before the
    // other argument is evaluated, as clang does.)
    ScalarType wide = pickSumType(x.type().elem);
    x = castValue(std::move(x), wide, loc);
  }
  if (x.isInvalid())
    return Value::invalid();
  return combine(ck::CombineKind::Scan, std::move(x), axis, *reverse, false,
                 binaryBody(sum ? ast::BinaryOp::Add : ast::BinaryOp::Mul),
                 name, loc);
}
