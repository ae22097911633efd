//===- SemaBuiltins.cpp - Calls: helpers, builtins, methods ---------------===//
//
// Resolution of calls (helpers, `tl.`-optional builtins, methods such as
// `x.to(dtype)`), argument binding with clear errors for wrong counts and
// unknown keywords, and the builtins for indexing, creation, elementwise
// math, hints and debugging. Memory, dot, reductions and shape builtins are
// in SemaMemory.cpp.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

static const char *const kBuiltins[] = {
    "program_id",
    "num_programs",
    "arange",
    "cdiv",
    "zeros",
    "full",
    "zeros_like",
    "load",
    "store",
    "atomic_add",
    "atomic_max",
    "atomic_min",
    "atomic_and",
    "atomic_or",
    "atomic_xor",
    "atomic_xchg",
    "atomic_cas",
    "dot",
    "dot_scaled",
    "sum",
    "max",
    "min",
    "argmax",
    "argmin",
    "reduce",
    "associative_scan",
    "cumsum",
    "cumprod",
    "xor_sum",
    "exp",
    "exp2",
    "log",
    "log2",
    "sqrt",
    "rsqrt",
    "abs",
    "sin",
    "cos",
    "tanh",
    "erf",
    "sigmoid",
    "floor",
    "ceil",
    "log1p",
    "expm1",
    "log10",
    "exp10",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tan",
    "cbrt",
    "trunc",
    "round",
    "rint",
    "pow",
    "atan2",
    "fmod",
    "umulhi",
    "fdiv",
    "div_rn",
    "sqrt_rn",
    "maximum",
    "minimum",
    "clamp",
    "where",
    "fma",
    "cast",
    "trans",
    "permute",
    "join",
    "split",
    "interleave",
    "flip",
    "gather",
    "fast_expf",
    "fast_dividef",
    "sort",
    "cat",
    "histogram",
    "topk",
    "ravel",
    "broadcast",
    "device_assert",
    "inline_asm_elementwise",
    "isnan",
    "erfinv",
    "hypot",
    "isinf",
    "signbit",
    "reshape",
    "view",
    "broadcast_to",
    "expand_dims",
    "multiple_of",
    "max_contiguous",
    "static_print",
    "device_print",
    "static_assert",
    "pointer_type",
    "make_tensor_descriptor",
    "load_tensor_descriptor",
    "store_tensor_descriptor",
    "make_block_ptr",
    "swizzle2d",
    "advance",
    "constexpr",
    "next_power_of_2",
    "debug_barrier",
    "gdc_wait",
    "gdc_launch_dependents",
    "randint4x",
    "randint",
    "rand",
    "rand4x",
    "randn",
    "randn4x",
    "uint_to_uniform_float",
    "pair_uniform_to_normal",
    "assume",
    "range",
    "static_range",
    "float",
    "int",
    "print",
};

/// Names of triton.language (3.6) that tilec does not have: a call says so
/// instead of guessing a similar name.
static constexpr const char *kUnsupportedTriton[] = {"map_elementwise"};

bool tilec::sema::isUnsupportedTritonName(llvm::StringRef name) {
  return llvm::is_contained(kUnsupportedTriton, name);
}

bool Sema::isBuiltinName(llvm::StringRef name) {
  return llvm::is_contained(kBuiltins, name);
}

std::vector<std::string> Sema::builtinNames() {
  return std::vector<std::string>(std::begin(kBuiltins), std::end(kBuiltins));
}

static bool isMathName(llvm::StringRef name) {
  return ck::parseMathFnName(name).has_value();
}

static bool isReduceName(llvm::StringRef name) {
  return mlir::tile::symbolizeReduceKind(name).has_value();
}

/// Scans and reductions with a combine function (SemaCombine.cpp).
static bool isCombineName(llvm::StringRef name) {
  return llvm::is_contained(
      {"reduce", "associative_scan", "cumsum", "cumprod", "xor_sum"}, name);
}

/// An argument: the name of a helper is a Function value there (for
/// `combine_fn`), and so is a name of a Python source's host code when
/// `hostFunctions` (the arguments of a built-in that takes a combine_fn:
/// host code is not compiled, which the built-in reports).
Value Sema::elabArg(const ast::Expr &e, bool hostFunctions) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&e))
    if (!frame->env.count(n->name) && !module.lookupGlobal(n->name)) {
      if (const ast::Function *fn = module.lookup(n->name))
        return Value::ofFunction(fn, n->name);
      if (hostFunctions && llvm::is_contained(module.hostNames, n->name))
        return Value::ofFunction(nullptr, n->name);
    }
  return elabExpr(e);
}

bool Sema::evalArgs(const ast::CallExpr &e, CallArgs &args,
                    bool hostFunctions) {
  args.loc = e.getLoc();
  bool ok = true;
  for (const auto &a : e.args) {
    args.args.push_back(elabArg(*a, hostFunctions));
    args.argLocs.push_back(a->getLoc());
    ok &= !args.args.back().isInvalid();
  }
  for (const auto &kw : e.kwargs) {
    args.kwargs.push_back({kw.name, elabArg(*kw.value, hostFunctions)});
    args.kwargLocs.push_back(kw.loc);
    ok &= !args.kwargs.back().second.isInvalid();
  }
  return ok;
}

/// A built-in's positional-only parameter (`arg0`, `arg1`, ...), which no
/// keyword names.
static bool isPositionalOnly(llvm::StringRef param) {
  return param.size() > 3 && param.starts_with("arg") &&
         llvm::isDigit(param[3]);
}

bool Sema::bindArgs(CallArgs &args, llvm::StringRef fnName,
                    llvm::ArrayRef<const char *> params, unsigned numRequired,
                    std::vector<Value> &slots,
                    llvm::ArrayRef<const char *> ignoredKeywords) {
  slots.clear();
  slots.resize(params.size());
  for (Value &s : slots)
    s = Value::none();
  auto countText = [&]() -> std::string {
    auto plural = [](size_t n) {
      return std::to_string(n) + (n == 1 ? " argument" : " arguments");
    };
    if (numRequired == params.size())
      return plural(params.size());
    return "at most " + plural(params.size());
  };
  if (args.args.size() > params.size()) {
    error(args.argLocs[params.size()],
          "'" + fnName + "' takes " + countText() + " but " +
              llvm::Twine(args.args.size()) +
              (args.args.size() == 1 ? " was" : " were") + " given");
    return false;
  }
  std::vector<bool> given(params.size(), false);
  for (size_t i = 0; i < args.args.size(); ++i) {
    slots[i] = std::move(args.args[i]);
    given[i] = true;
  }
  for (size_t k = 0; k < args.kwargs.size(); ++k) {
    auto &[name, value] = args.kwargs[k];
    if (llvm::is_contained(ignoredKeywords, name))
      continue;
    const std::string &keyword = name;
    auto it =
        llvm::find_if(params, [&](const char *p) { return keyword == p; });
    if (it == params.end() || isPositionalOnly(*it)) {
      std::vector<std::string> names;
      for (const char *p : params)
        if (!isPositionalOnly(p))
          names.push_back(p);
      std::string hint = findClosestName(name, names);
      error(args.kwargLocs[k],
            "'" + fnName + "' has no keyword argument '" + name + "'" +
                (hint.empty() ? std::string()
                              : "; did you mean '" + hint + "'?"));
      return false;
    }
    size_t idx = it - params.begin();
    if (given[idx]) {
      error(args.kwargLocs[k],
            "argument '" + name + "' of '" + fnName + "' given more than once");
      return false;
    }
    slots[idx] = std::move(value);
    given[idx] = true;
  }
  for (unsigned i = 0; i < numRequired; ++i) {
    if (given[i])
      continue;
    if (numRequired == params.size() && args.kwargs.empty())
      error(args.loc, "'" + fnName + "' takes " + countText() + " but " +
                          llvm::Twine(args.args.size()) +
                          (args.args.size() == 1 ? " was" : " were") +
                          " given");
    else
      error(args.loc,
            "'" + fnName + "' is missing its argument '" + params[i] + "'");
    return false;
  }
  return true;
}

Value Sema::elabCall(const ast::CallExpr &e) {
  const ast::Expr *callee = e.callee.get();
  SourceLoc loc = e.getLoc();
  auto callBuiltinNamed = [&](const std::string &name,
                              SourceLoc nameLoc) -> Value {
    // tl.float32(x): x converted to the type (Triton's dtype call).
    if (std::optional<ScalarType> kind = parseDTypeName(name)) {
      CallArgs args;
      std::vector<Value> slots;
      if (!evalArgs(e, args) || !bindArgs(args, name, {"value"}, 1, slots))
        return Value::invalid();
      return castValue(std::move(slots[0]), *kind, loc);
    }
    if (isUnsupportedTritonName(name)) {
      error(nameLoc, "'tl." + name +
                         "' (a Triton built-in) is not supported by tilec "
                         "yet (docs/porting-triton.md lists what is not)");
      return Value::invalid();
    }
    if (!isBuiltinName(name)) {
      std::string hint = findClosestName(name, builtinNames());
      error(nameLoc, "unknown function 'tl." + name + "'" +
                         (hint.empty() ? std::string()
                                       : "; did you mean 'tl." + hint + "'?"));
      return Value::invalid();
    }
    CallArgs args;
    if (!evalArgs(e, args, isCombineName(name)))
      return Value::invalid();
    return callBuiltin(name, args, loc);
  };
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(callee)) {
    if (n->name == "isinstance" && !frame->env.count(n->name) &&
        !module.lookup(n->name))
      return elabIsInstance(e);
    if (frame->env.count(n->name)) {
      Value v = lookupName(n->name, loc);
      if (v.kind == Value::Kind::Function && v.function) {
        // A helper passed as an argument (`combine_fn`), called.
        CallArgs args;
        if (!evalArgs(e, args))
          return Value::invalid();
        return callHelper(*v.function, args, loc);
      }
      if (!v.isInvalid())
        error(loc, "'" + n->name + "' is a " + v.describe() +
                       " value, not a function");
      return Value::invalid();
    }
    if (const ast::Function *fn = module.lookup(n->name)) {
      CallArgs args;
      if (!evalArgs(e, args))
        return Value::invalid();
      return callHelper(*fn, args, loc);
    }
    // A module-level alias of a Triton function (`NAME = libdevice.tanh`).
    if (const ast::ConstexprGlobal *g = module.lookupGlobal(n->name))
      if (auto *target = llvm::dyn_cast<ast::AttributeExpr>(g->value.get()))
        return callBuiltinNamed(target->attr, loc);
    // (Before the built-ins: a Python source's host code may define a
    // function of a built-in's name, `def exp(x)` under a module-level
    // `if`, and the kernel means that one.)
    if (llvm::is_contained(module.hostNames, n->name)) {
      error(loc, module.describeHostName(n->name) +
                     "; a kernel can call '@triton.jit' functions and "
                     "built-ins");
      return Value::invalid();
    }
    if (isBuiltinName(n->name)) {
      CallArgs args;
      if (!evalArgs(e, args, isCombineName(n->name)))
        return Value::invalid();
      return callBuiltin(n->name, args, loc);
    }
    std::vector<std::string> names = visibleNames();
    std::string hint = findClosestName(n->name, names);
    error(loc, "unknown function '" + n->name + "'" +
                   (hint.empty() ? std::string()
                                 : "; did you mean '" + hint + "'?"));
    return Value::invalid();
  }
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(callee)) {
    // tl.NAME(...), tl.math.NAME(...), triton.language.NAME(...)
    const ast::Expr *base = a->base.get();
    while (auto *inner = llvm::dyn_cast<ast::AttributeExpr>(base)) {
      if (inner->attr != "math" && inner->attr != "language" &&
          inner->attr != "libdevice" && inner->attr != "cuda" &&
          inner->attr != "extra")
        break;
      base = inner->base.get();
    }
    if (auto *bn = llvm::dyn_cast<ast::NameExpr>(base))
      if ((isLanguageModuleName(bn->name) || bn->name == "libdevice" ||
           llvm::is_contained(module.moduleAliases, bn->name)) &&
          !frame->env.count(bn->name) && !module.lookupGlobal(bn->name))
        return callBuiltinNamed(a->attr, a->attrLoc);
    Value self = elabExpr(*a->base);
    CallArgs args;
    bool ok = evalArgs(e, args, isCombineName(a->attr));
    if (self.isInvalid() || !ok)
      return Value::invalid();
    return callMethod(std::move(self), a->attr, args, a->attrLoc);
  }
  error(loc, "this expression cannot be called");
  return Value::invalid();
}

Value Sema::callMethod(Value self, llvm::StringRef name, CallArgs &args,
                       SourceLoc loc) {
  if (self.kind == Value::Kind::DType) {
    if (std::optional<bool> answer = dtypePredicate(self, name)) {
      std::vector<Value> slots;
      if (!bindArgs(args, name, {}, 0, slots))
        return Value::invalid();
      return makeConst(ConstexprValue::ofBool(*answer), loc);
    }
  }
  if (self.kind == Value::Kind::TensorDesc)
    return descriptorMethod(std::move(self), name, args, loc);
  if (!self.isExpr()) {
    error(loc, "a " + self.describe() + " value has no method '" + name + "'");
    return Value::invalid();
  }
  if (name == "to") {
    std::vector<Value> slots;
    if (!bindArgs(args, "to", {"dtype", "fp_downcast_rounding", "bitcast"}, 1,
                  slots))
      return Value::invalid();
    if (const ConstexprValue *c = slots[2].getConst(); c && c->asBool())
      return bitcastValue(std::move(self), slots[0], args.argLoc(0), loc);
    if (slots[0].kind == Value::Kind::DType && slots[0].dtypeIsPointer &&
        !slots[0].dtypeShape)
      return castToPointer(std::move(self), slots[0].dtype, loc);
    // A block converted to a block type (a block pointer's
    // `.dtype.element_ty`): to its element type, as Triton casts a block
    // to the scalar of a block type.
    if (slots[0].kind == Value::Kind::DType && slots[0].dtypeShape &&
        !slots[0].dtypePointsToBlock && !slots[0].dtypeIsPointer &&
        self.isExpr() && self.type().isBlock())
      return castValue(std::move(self), slots[0].dtype, loc);
    auto kind = requireDType(slots[0], args.loc, "'.to'");
    if (!kind)
      return Value::invalid();
    return castValue(std::move(self), *kind, loc);
  }
  bool isMethod = isMathName(name) || isReduceName(name) ||
                  isCombineName(name) ||
                  llvm::is_contained({"reshape", "view", "trans", "permute",
                                      "split", "flip", "sort", "ravel",
                                      "broadcast_to", "expand_dims", "cast"},
                                     name);
  if (!isMethod) {
    error(loc, "a " + self.describe() + " value has no method '" + name + "'");
    return Value::invalid();
  }
  args.args.insert(args.args.begin(), std::move(self));
  args.argLocs.insert(args.argLocs.begin(), args.loc);
  return callBuiltin(name, args, loc);
}

Value Sema::bitcastValue(Value v, const Value &dtype, SourceLoc dtypeLoc,
                         SourceLoc loc) {
  if (dtype.kind == Value::Kind::DType && dtype.dtypeIsPointer &&
      !dtype.dtypeShape)
    return castToPointer(std::move(v), dtype.dtype, loc);
  auto kind = requireDType(dtype, dtypeLoc, "'bitcast'");
  if (!kind)
    return Value::invalid();
  const TType &from = v.type();
  if (from.isPointer) {
    // A pointer's bits are its address: an int64 (Triton's 64-bit pointer
    // width), as `.to(tl.int64)` gives.
    if (*kind != ScalarType::I64 && *kind != ScalarType::U64) {
      error(loc, "cannot bitcast a pointer (" + from.str() + ") to " +
                     scalarTypeName(*kind) + "; only to a 64-bit integer");
      return Value::invalid();
    }
    return castValue(std::move(v), ScalarType::I64, loc);
  }
  unsigned fromBits = scalarTypeBits(from.elem);
  unsigned toBits = scalarTypeBits(*kind);
  if (fromBits != toBits) {
    error(loc, "cannot bitcast " + from.str() + " to " + scalarTypeName(*kind) +
                   ": the element sizes differ (" + llvm::Twine(fromBits) +
                   " and " + llvm::Twine(toBits) + " bits)");
    return Value::invalid();
  }
  if (from.elem == *kind)
    return v;
  TType to(*kind, false, from.shape);
  return Value::ofExpr(
      std::make_unique<ck::BitcastExpr>(to, loc, std::move(v.expr)));
}

Value Sema::castToPointer(Value v, ScalarType pointee, SourceLoc loc) {
  if (!requireExpr(v, loc, "'.to'"))
    return Value::invalid();
  TType from = v.type();
  if (!from.isPointer && from.elem != ScalarType::I64) {
    error(loc, "only an int64 converts to a pointer (as in Triton); got " +
                   from.str());
    return Value::invalid();
  }
  TType to(pointee, /*isPointer=*/true, from.shape);
  return Value::ofExpr(
      std::make_unique<ck::CastExpr>(to, loc, std::move(v.expr)));
}

Value Sema::castValue(Value v, ScalarType kind, SourceLoc loc) {
  if (!requireExpr(v, loc, "'.to'"))
    return Value::invalid();
  if (v.type().isPointer && kind == ScalarType::I64) {
    // The address (Triton's pointer-to-int64 conversion).
    TType to = v.type();
    to.isPointer = false;
    to.elem = ScalarType::I64;
    return Value::ofExpr(
        std::make_unique<ck::CastExpr>(to, loc, std::move(v.expr)));
  }
  if (v.type().isPointer) {
    error(loc, "cannot convert a pointer (" + v.type().str() + ") to " +
                   scalarTypeName(kind));
    return Value::invalid();
  }
  return Value::ofExpr(castTo(std::move(v.expr), kind, loc));
}

/// A common promoted element type for several values (where, fma, ...).
static std::optional<ScalarType> promoteAll(Sema &sema,
                                            llvm::ArrayRef<Value *> values,
                                            SourceLoc loc,
                                            llvm::StringRef what) {
  Value *acc = values[0];
  std::optional<ScalarType> kind = acc->type().elem;
  Value tmp;
  for (size_t i = 1; i < values.size(); ++i) {
    kind = sema.computationType(*acc, *values[i], false, loc, what);
    if (!kind)
      return std::nullopt;
    bool weak = acc->weak && acc->getConst() && values[i]->weak &&
                values[i]->getConst();
    tmp = Value::ofExpr(std::make_unique<ck::ConstantExpr>(
                            TType(*kind), loc, ConstexprValue::ofInt(0)),
                        weak);
    if (!weak)
      tmp.expr = std::make_unique<ck::VarRefExpr>(TType(*kind), loc, "");
    acc = &tmp;
  }
  return kind;
}

Value Sema::callBuiltin(llvm::StringRef name, CallArgs &args, SourceLoc loc) {
  if ((name == "load" || name == "store") && !args.args.empty() &&
      args.args[0].kind == Value::Kind::BlockPtr)
    return blockPointerAccess(name, args, loc);
  if (name == "load")
    return builtinLoad(args, loc);
  if (name == "store")
    return builtinStore(args, loc);
  if (llvm::is_contained(
          {"make_tensor_descriptor", "make_block_ptr", "advance"}, name))
    return builtinDescriptor(name, args, loc);
  if (name == "load_tensor_descriptor" || name == "store_tensor_descriptor") {
    // The functional forms of desc.load(offsets) / desc.store(offsets, v).
    if (args.args.empty() || args.args[0].kind != Value::Kind::TensorDesc) {
      error(loc,
            "the first argument of '" + name + "' must be a tensor descriptor");
      return Value::invalid();
    }
    Value desc = std::move(args.args[0]);
    args.args.erase(args.args.begin());
    args.argLocs.erase(args.argLocs.begin());
    return descriptorMethod(std::move(desc),
                            name == "load_tensor_descriptor" ? "load" : "store",
                            args, loc);
  }
  if (name == "swizzle2d")
    return builtinSwizzle2d(args, loc);
  if (name == "atomic_cas")
    return builtinAtomicCAS(args, loc);
  if (name.starts_with("atomic_"))
    return builtinAtomicRMW(name, args, loc);
  if (name == "dot")
    return builtinDot(args, loc);
  if (name == "dot_scaled")
    return builtinDotScaled(args, loc);
  if ((name == "max" || name == "min") && args.args.size() >= 2 &&
      args.args[0].isExpr() && args.args[0].type().isScalar()) {
    // Python's max(a, b, ...) on scalars.
    Value acc = std::move(args.args[0]);
    for (size_t i = 1; i < args.args.size() && !acc.isInvalid(); ++i) {
      CallArgs pair;
      pair.loc = loc;
      pair.args.push_back(std::move(acc));
      pair.args.push_back(std::move(args.args[i]));
      pair.argLocs = {args.argLocs[0], args.argLocs[i]};
      acc = callBuiltin(name == "max" ? "maximum" : "minimum", pair, loc);
    }
    return acc;
  }
  if (isReduceName(name))
    return builtinReduce(name, args, loc);
  if (isCombineName(name))
    return builtinCombine(name, args, loc);
  if (name == "inline_asm_elementwise")
    return builtinInlineAsm(args, loc);
  if (isRandomName(name))
    return builtinRandom(name, args, loc);
  if (isMathName(name))
    return builtinMath(name, args, loc);
  if (llvm::is_contained({"pow", "atan2", "fmod", "umulhi", "fdiv", "div_rn"},
                         name))
    return builtinMathBinary(name, args, loc);
  if (name == "sqrt_rn") // sqrt is IEEE-rounded already (docs/target.md).
    return builtinMath("sqrt", args, loc);
  // libdevice's approximate exp and division: tilec's f32 exp is a short
  // sequence already, and `/` is div.full.f32 (docs/target.md).
  if (name == "fast_expf")
    return builtinMath("exp", args, loc);
  if (name == "fast_dividef")
    return builtinMathBinary("fdiv", args, loc);
  if (llvm::is_contained({"trans", "permute", "reshape", "view", "broadcast_to",
                          "expand_dims"},
                         name))
    return builtinShape(name, args, loc);
  if (llvm::is_contained({"join", "split", "interleave", "flip", "sort", "cat",
                          "histogram", "topk", "ravel", "broadcast", "gather"},
                         name))
    return builtinJoinSplit(name, args, loc);
  if (llvm::is_contained({"zeros", "full", "zeros_like"}, name))
    return builtinCreation(name, args, loc);
  return builtinMisc(name, args, loc);
}

Value Sema::builtinMisc(llvm::StringRef name, CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (name == "program_id" || name == "num_programs") {
    if (!bindArgs(args, name, {"axis"}, 1, slots))
      return Value::invalid();
    auto axis =
        requireConstInt(slots[0], args.loc, "the axis of '" + name.str() + "'");
    if (!axis)
      return Value::invalid();
    if (*axis < 0 || *axis > 2) {
      error(args.argLoc(0), "the axis of '" + name +
                                "' must be 0, 1 or 2; got " +
                                llvm::Twine(*axis));
      return Value::invalid();
    }
    if (name == "program_id")
      return Value::ofExpr(std::make_unique<ck::ProgramIdExpr>(
          TType(ScalarType::I32), loc, static_cast<int>(*axis)));
    return Value::ofExpr(std::make_unique<ck::NumProgramsExpr>(
        TType(ScalarType::I32), loc, static_cast<int>(*axis)));
  }
  if (name == "arange") {
    if (!bindArgs(args, name, {"start", "end"}, 2, slots))
      return Value::invalid();
    auto start = requireConstInt(slots[0], args.argLoc(0), "'start' of arange");
    auto end = requireConstInt(slots[1], args.argLoc(1), "'end' of arange");
    if (!start || !end)
      return Value::invalid();
    if (*end <= *start) {
      error(loc, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                     ") is empty; 'end' must be greater than 'start'");
      return Value::invalid();
    }
    if (*start < INT32_MIN || *end > INT32_MAX) {
      error(loc, "the bounds of arange must fit in i32");
      return Value::invalid();
    }
    int64_t n = *end - *start;
    if (!llvm::isPowerOf2_64(static_cast<uint64_t>(n))) {
      error(loc, "arange(" + llvm::Twine(*start) + ", " + llvm::Twine(*end) +
                     ") has " + llvm::Twine(n) +
                     " elements, which is not a power of two; use a "
                     "power-of-two length (e.g. " +
                     llvm::Twine(llvm::NextPowerOf2(n)) +
                     ") and mask the extra elements");
      return Value::invalid();
    }
    if (!checkShape({n}, loc))
      return Value::invalid();
    return Value::ofExpr(std::make_unique<ck::MakeRangeExpr>(
        TType(ScalarType::I32, false, {n}), loc, *start, *end));
  }
  if (name == "cdiv") {
    if (!bindArgs(args, name, {"x", "div"}, 2, slots))
      return Value::invalid();
    for (size_t i = 0; i < 2; ++i) {
      if (!requireExpr(slots[i], args.loc, "'cdiv'"))
        return Value::invalid();
      if (!slots[i].type().isInteger()) {
        error(args.argLoc(i),
              "cdiv expects integers; got " + slots[i].type().str());
        return Value::invalid();
      }
    }
    // (x + div - 1) // div, with `div` evaluated once.
    Value div = materializeTrivial(std::move(slots[1]), loc, "cdiv");
    Value sum =
        binaryOp(ast::BinaryOp::Add, std::move(slots[0]), div.clone(), loc);
    Value minusOne = binaryOp(ast::BinaryOp::Sub, std::move(sum),
                              makeConst(ConstexprValue::ofInt(1), loc), loc);
    return binaryOp(ast::BinaryOp::FloorDiv, std::move(minusOne),
                    std::move(div), loc);
  }
  if (name == "clamp") {
    // Triton's tl.clamp: floats only, minimum(maximum(x, min), max) (NaN
    // propagates: Triton's default PropagateNan.NONE promises nothing).
    if (!bindArgs(args, name, {"x", "min", "max", "propagate_nan"}, 3, slots) ||
        !requireExprs(llvm::ArrayRef(slots).take_front(3), args.loc, "'clamp'"))
      return Value::invalid();
    for (int i = 0; i < 3; ++i)
      if (!slots[i].type().isFloat()) {
        error(args.argLoc(i), "'clamp' is only supported on floats; got " +
                                  slots[i].type().str());
        return Value::invalid();
      }
    auto call = [&](llvm::StringRef fn, Value a, Value b) {
      CallArgs pair;
      pair.loc = args.loc;
      pair.args.push_back(std::move(a));
      pair.args.push_back(std::move(b));
      pair.argLocs = {args.argLoc(0), args.argLoc(0)};
      return callBuiltin(fn, pair, loc);
    };
    Value low = call("maximum", std::move(slots[0]), std::move(slots[1]));
    if (low.isInvalid())
      return low;
    return call("minimum", std::move(low), std::move(slots[2]));
  }
  if (name == "maximum" || name == "minimum") {
    if (!bindArgs(args, name, {"x", "y", "propagate_nan"}, 2, slots))
      return Value::invalid();
    Value &a = slots[0], &b = slots[1];
    if (!requireExpr(a, args.loc, "'" + name.str() + "'") ||
        !requireExpr(b, args.loc, "'" + name.str() + "'"))
      return Value::invalid();
    if (a.type().isPointer || b.type().isPointer) {
      error(loc, "'" + name + "' does not accept pointers");
      return Value::invalid();
    }
    bool isMax = name == "maximum";
    if (a.getConst() && b.getConst() && a.weak && b.weak) {
      Value gt =
          foldBinary(ast::BinaryOp::Gt, *a.getConst(), *b.getConst(), loc);
      if (gt.isInvalid())
        return gt;
      bool pickA = gt.getConst()->asBool() == isMax;
      return std::move(pickA ? a : b);
    }
    auto kind = computationType(a, b, false, loc, name);
    if (!kind || !rejectFP8(TType(*kind), loc, "'" + name.str() + "'"))
      return Value::invalid();
    ExprPtr x = castTo(std::move(a.expr), *kind, loc);
    ExprPtr y = castTo(std::move(b.expr), *kind, loc);
    if (!broadcastPair(x, y, loc, "'" + name.str() + "'"))
      return Value::invalid();
    TType type = x->getType();
    return Value::ofExpr(std::make_unique<ck::BinaryExpr>(
        type, loc, isMax ? ck::BinaryOp::Max : ck::BinaryOp::Min, std::move(x),
        std::move(y)));
  }
  if (name == "where") {
    if (!bindArgs(args, name, {"condition", "x", "y"}, 3, slots) ||
        !requireExprs(slots, args.loc, "'where'"))
      return Value::invalid();
    Value &a = slots[1], &b = slots[2];
    ScalarType kind = a.type().elem;
    bool pointers = a.type().isPointer || b.type().isPointer;
    if (pointers) {
      if (a.type().getScalarType() != b.type().getScalarType()) {
        error(loc, "where() between " + a.type().str() + " and " +
                       b.type().str() + " is not supported");
        return Value::invalid();
      }
    } else {
      auto k = promoteAll(*this, {&a, &b}, loc, "where");
      if (!k)
        return Value::invalid();
      kind = *k;
    }
    ExprPtr c = toBool(std::move(slots[0].expr), loc);
    ExprPtr x = castTo(std::move(a.expr), kind, loc);
    ExprPtr y = castTo(std::move(b.expr), kind, loc);
    auto shape =
        broadcastShapes(c->getType().shape, x->getType().shape, loc, "'where'");
    if (!shape)
      return Value::invalid();
    shape = broadcastShapes(*shape, y->getType().shape, loc, "'where'");
    if (!shape)
      return Value::invalid();
    c = broadcastTo(std::move(c), *shape, loc);
    x = broadcastTo(std::move(x), *shape, loc);
    y = broadcastTo(std::move(y), *shape, loc);
    TType type = x->getType();
    return Value::ofExpr(std::make_unique<ck::SelectExpr>(
        type, loc, std::move(c), std::move(x), std::move(y)));
  }
  if (name == "fma") {
    if (!bindArgs(args, name, {"x", "y", "z"}, 3, slots) ||
        !requireExprs(slots, args.loc, "'fma'"))
      return Value::invalid();
    auto kind =
        promoteAll(*this, {&slots[0], &slots[1], &slots[2]}, loc, "fma");
    if (!kind)
      return Value::invalid();
    if (!isFloatType(*kind))
      kind = ScalarType::F32;
    std::vector<ExprPtr> ops;
    std::vector<int64_t> shape;
    for (Value &v : slots) {
      if (v.type().isPointer) {
        error(loc, "'fma' does not accept pointers");
        return Value::invalid();
      }
      ops.push_back(castTo(std::move(v.expr), *kind, loc));
      auto s =
          broadcastShapes(shape, ops.back()->getType().shape, loc, "'fma'");
      if (!s)
        return Value::invalid();
      shape = *s;
    }
    for (ExprPtr &op : ops)
      op = broadcastTo(std::move(op), shape, loc);
    TType type(*kind, false, shape);
    return Value::ofExpr(std::make_unique<ck::FmaExpr>(
        type, loc, std::move(ops[0]), std::move(ops[1]), std::move(ops[2])));
  }
  if (name == "cast") {
    if (!bindArgs(args, name,
                  {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2,
                  slots))
      return Value::invalid();
    if (const ConstexprValue *c = slots[3].getConst(); c && c->asBool()) {
      if (!requireExpr(slots[0], args.argLoc(0), "the input of 'cast'"))
        return Value::invalid();
      return bitcastValue(std::move(slots[0]), slots[1], args.argLoc(1), loc);
    }
    if (slots[1].kind == Value::Kind::DType && slots[1].dtypeIsPointer &&
        !slots[1].dtypeShape)
      return castToPointer(std::move(slots[0]), slots[1].dtype, loc);
    auto kind = requireDType(slots[1], args.loc, "'cast'");
    if (!kind)
      return Value::invalid();
    return castValue(std::move(slots[0]), *kind, loc);
  }
  // tl.pointer_type(dtype): the type of pointers to dtype, for `.to(...)`.
  if (name == "pointer_type") {
    if (!bindArgs(args, name, {"element_ty", "address_space", "const"}, 1,
                  slots))
      return Value::invalid();
    auto kind = requireDType(slots[0], args.argLoc(0), "'pointer_type'");
    if (!kind)
      return Value::invalid();
    return Value::ofDType(*kind, /*isPointer=*/true);
  }
  // tl.constexpr(v): v, which must be known at compile time (module-level
  // `NAME: tl.constexpr = tl.constexpr(3)`).
  if (name == "constexpr") {
    if (!bindArgs(args, name, {"value"}, 1, slots))
      return Value::invalid();
    if (!slots[0].getConst() && slots[0].kind != Value::Kind::DType &&
        slots[0].kind != Value::Kind::String && !slots[0].isNone()) {
      error(args.argLoc(0), "the value of 'constexpr' must be a compile-time "
                            "constant");
      return Value::invalid();
    }
    return std::move(slots[0]);
  }
  // triton.next_power_of_2(n): the smallest power of two >= n, of a
  // compile-time integer.
  if (name == "next_power_of_2") {
    if (!bindArgs(args, name, {"n"}, 1, slots))
      return Value::invalid();
    auto n = requireConstInt(slots[0], args.argLoc(0),
                             "the argument of 'next_power_of_2'");
    if (!n)
      return Value::invalid();
    if (*n > (int64_t(1) << 62)) {
      error(args.argLoc(0), "next_power_of_2 of " + llvm::Twine(*n) +
                                " does not fit in 64 bits");
      return Value::invalid();
    }
    int64_t p = *n <= 1 ? 1 : int64_t(llvm::PowerOf2Ceil(uint64_t(*n)));
    return makeConst(ConstexprValue::ofInt(p), loc);
  }
  if (name == "multiple_of" || name == "max_contiguous") {
    if (!bindArgs(args, name, {"input", "values"}, 2, slots) ||
        !requireExpr(slots[0], args.loc, "'" + name.str() + "'"))
      return Value::invalid();
    std::vector<int64_t> values;
    if (slots[1].kind == Value::Kind::Tuple) {
      for (Value &v : slots[1].elements) {
        auto n =
            requireConstInt(v, args.loc, "the values of '" + name.str() + "'");
        if (!n)
          return Value::invalid();
        values.push_back(*n);
      }
    } else {
      auto n = requireConstInt(slots[1], args.loc,
                               "the value of '" + name.str() + "'");
      if (!n)
        return Value::invalid();
      values.push_back(*n);
    }
    for (int64_t v : values)
      if (v < 1) {
        error(loc, "the values of '" + name + "' must be positive");
        return Value::invalid();
      }
    int64_t rank = slots[0].type().getRank();
    if (values.size() != 1 && static_cast<int64_t>(values.size()) != rank) {
      error(loc, "'" + name + "' needs one value per dimension (" +
                     llvm::Twine(rank) + ")");
      return Value::invalid();
    }
    TType type = slots[0].type();
    return Value::ofExpr(std::make_unique<ck::HintExpr>(
        type, loc,
        name == "multiple_of" ? ck::HintKind::MultipleOf
                              : ck::HintKind::MaxContiguous,
        values, std::move(slots[0].expr)));
  }
  if (name == "device_assert") {
    // Triton evaluates device_assert only in its debug mode (TRITON_DEBUG=1
    // or jit(debug=True)); by default it is not run, and tilec, which has no
    // debug mode, never runs it: the condition is checked for its type.
    if (!bindArgs(args, name, {"cond", "msg", "mask"}, 1, slots) ||
        !requireExpr(slots[0], args.loc, "the condition of 'device_assert'"))
      return Value::invalid();
    if (slots[0].type().isPointer || slots[0].type().isFloat()) {
      error(loc, "the condition of 'device_assert' must be a boolean or an "
                 "integer; got " +
                     slots[0].type().str());
      return Value::invalid();
    }
    if (!slots[1].isNone() && slots[1].kind != Value::Kind::String) {
      error(args.loc, "the message of 'device_assert' must be a string");
      return Value::invalid();
    }
    return Value::none();
  }
  if (name == "erfinv" || name == "hypot")
    return builtinErfinvHypot(name, args, loc);
  if (name == "isnan" || name == "isinf" || name == "signbit")
    return builtinFloatClass(name, args, loc);
  if (name == "static_assert") {
    if (!bindArgs(args, name, {"cond", "msg"}, 1, slots))
      return Value::invalid();
    const ConstexprValue *c = slots[0].getConst();
    if (!c && !slots[0].isNone()) {
      error(loc, "the condition of static_assert must be a compile-time "
                 "constant");
      return Value::invalid();
    }
    if (!c || !c->asBool()) {
      std::string msg = slots[1].kind == Value::Kind::String
                            ? ": " + slots[1].str
                            : std::string();
      error(loc, "static assertion failed" + msg);
    }
    return Value::none();
  }
  if (name == "static_print") {
    std::string text;
    for (Value &v : args.args) {
      if (!text.empty())
        text += " ";
      if (v.kind == Value::Kind::String)
        text += v.str;
      else if (const ConstexprValue *c = v.getConst())
        text += c->pythonStr();
      else
        text += v.describe();
    }
    diags.remark(loc, "static_print: " + text);
    return Value::none();
  }
  // tl.assume(cond): a promise to the compiler. A compile-time false one is
  // an error; a run-time one is checked for its type and not used (it only
  // allows optimizations, so the program means the same without it).
  if (name == "assume") {
    if (!bindArgs(args, name, {"cond"}, 1, slots) ||
        !requireExpr(slots[0], args.argLoc(0), "'assume'"))
      return Value::invalid();
    if (slots[0].type().getRank() != 0 || !slots[0].type().isInteger()) {
      error(args.argLoc(0),
            "assume expects a scalar condition; got " + slots[0].type().str());
      return Value::invalid();
    }
    if (const ConstexprValue *c = slots[0].getConst(); c && !c->asBool()) {
      error(args.argLoc(0), "assume of a condition that is false");
      return Value::invalid();
    }
    return Value::none();
  }
  if (name == "debug_barrier") {
    if (!bindArgs(args, name, {}, 0, slots))
      return Value::invalid();
    emit(std::make_unique<ck::DebugBarrierStmt>(loc));
    return Value::none();
  }
  if (name == "gdc_wait" || name == "gdc_launch_dependents") {
    if (!bindArgs(args, name, {}, 0, slots))
      return Value::invalid();
    emit(std::make_unique<ck::GridDepControlStmt>(
        loc, name == "gdc_launch_dependents"));
    return Value::none();
  }
  if (name == "device_print" || name == "print") {
    std::string prefix;
    size_t first = 0;
    if (!args.args.empty() && args.args[0].kind == Value::Kind::String) {
      prefix = args.args[0].str;
      first = 1;
    }
    auto stmt = std::make_unique<ck::DevicePrintStmt>(loc, prefix);
    for (size_t i = first; i < args.args.size(); ++i) {
      if (!requireExpr(args.args[i], args.argLocs[i], "'device_print'"))
        return Value::invalid();
      stmt->args.push_back(std::move(args.args[i].expr));
    }
    emit(std::move(stmt));
    return Value::none();
  }
  if (name == "float" || name == "int") {
    if (!bindArgs(args, name, {"x"}, 1, slots))
      return Value::invalid();
    Value &x = slots[0];
    if (name == "float" && x.kind == Value::Kind::String) {
      std::optional<ConstexprValue> v =
          parseConstexprValue(llvm::StringRef(x.str).lower());
      if (!v) {
        std::string s = llvm::StringRef(x.str).trim().lower();
        if (s == "+inf" || s == "infinity" || s == "+infinity")
          v = ConstexprValue::ofFloat(INFINITY);
        else if (s == "-infinity")
          v = ConstexprValue::ofFloat(-INFINITY);
      }
      if (!v) {
        error(args.argLoc(0),
              "could not convert string '" + x.str + "' to float");
        return Value::invalid();
      }
      return makeConst(ConstexprValue::ofFloat(v->asFloat()), loc);
    }
    const ConstexprValue *c = x.getConst();
    if (!c) {
      error(loc,
            "'" + name +
                "(...)' needs a compile-time constant; use "
                ".to(tl.float32) / .to(tl.int32) to convert run-time values");
      return Value::invalid();
    }
    if (name == "float")
      return makeConst(ConstexprValue::ofFloat(c->asFloat()), loc);
    return makeConst(ConstexprValue::ofInt(c->asInt()), loc);
  }
  if (name == "range" || name == "static_range") {
    error(loc, "'" + name +
                   "' can only be used as the iterable of a 'for' "
                   "loop");
    return Value::invalid();
  }
  error(loc, "unknown function '" + name + "'");
  return Value::invalid();
}
