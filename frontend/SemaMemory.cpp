//===- SemaMemory.cpp - Memory, dot, reductions and shapes ----------------===//
//
// The builtins with the most checks: load/store/atomics (pointer, mask
// and value shapes and types), dot (2-D operands, inner dimensions, element
// types, accumulator), reductions (axis, result types) and shape
// manipulation (trans, reshape, broadcast_to, expand_dims).
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringSwitch.h"

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

bool Sema::prepareMemoryOperands(llvm::StringRef fnName, ExprPtr &ptr,
                                 ExprPtr *value, ExprPtr &mask, SourceLoc loc) {
  if (!ptr->getType().isPointer) {
    error(loc, "the first argument of '" + fnName +
                   "' must be a pointer or "
                   "a block of pointers; got " +
                   ptr->getType().str());
    return false;
  }
  std::string what = "'" + fnName.str() + "'";
  std::vector<int64_t> shape = ptr->getType().shape;
  if (value && *value) {
    auto s = broadcastShapes(shape, (*value)->getType().shape, loc,
                             what + " (pointer and value)");
    if (!s)
      return false;
    shape = *s;
  }
  if (mask) {
    const TType &mt = mask->getType();
    if (mt.isPointer || mt.isFloat()) {
      error(loc, "the mask of '" + fnName + "' must be a boolean block; got " +
                     mt.str());
      return false;
    }
    auto s =
        broadcastShapes(shape, mt.shape, loc, what + " (pointer and mask)");
    if (!s)
      return false;
    shape = *s;
    mask = broadcastTo(toBool(std::move(mask), loc), shape, loc);
  }
  ptr = broadcastTo(std::move(ptr), shape, loc);
  if (value && *value)
    *value = broadcastTo(std::move(*value), shape, loc);
  return true;
}

/// Converts a stored value to the pointee type, as Triton's `tl.store` and
/// atomics do (`.to(pointee)`: a f32 block stored through `*f16` is
/// rounded to f16); pointers are not values to store.
static ExprPtr convertStoredValue(Sema &sema, Value &v, ScalarType elem,
                                  llvm::StringRef fnName, SourceLoc loc) {
  if (v.type().isPointer) {
    sema.error(loc, "cannot " + fnName + " a pointer value (" + v.type().str() +
                        ")");
    return nullptr;
  }
  return sema.castTo(std::move(v.expr), elem, loc);
}

bool Sema::elabStoreOperands(llvm::StringRef fnName, std::vector<Value> &slots,
                             SourceLoc argsLoc, SourceLoc loc,
                             llvm::function_ref<bool(ScalarType)> checkElem,
                             ExprPtr &ptr, ExprPtr &value, ExprPtr &mask) {
  std::string what = "'" + fnName.str() + "'";
  if (!requireExpr(slots[0], argsLoc, "the pointer of " + what) ||
      !requireExpr(slots[1], argsLoc, "the value of " + what))
    return false;
  ptr = std::move(slots[0].expr);
  if (!ptr->getType().isPointer) {
    error(loc, "the first argument of " + what +
                   " must be a pointer or a block of pointers; got " +
                   ptr->getType().str());
    return false;
  }
  TType ptrType = ptr->getType();
  if (!checkElem(ptrType.elem))
    return false;
  value = convertStoredValue(*this, slots[1], ptrType.elem, fnName, loc);
  if (!value)
    return false;
  if (!slots[2].isNone()) {
    if (!requireExpr(slots[2], argsLoc, "the mask of " + what))
      return false;
    mask = std::move(slots[2].expr);
  }
  return prepareMemoryOperands(fnName, ptr, &value, mask, loc);
}

Value Sema::builtinLoad(CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, "load", {"pointer", "mask", "other"}, 1, slots,
                {"cache_modifier", "eviction_policy", "volatile"}))
    return Value::invalid();
  if (!requireExpr(slots[0], args.loc, "the pointer of 'load'"))
    return Value::invalid();
  ExprPtr ptr = std::move(slots[0].expr);
  ExprPtr mask;
  if (!slots[1].isNone()) {
    if (!requireExpr(slots[1], args.loc, "the mask of 'load'"))
      return Value::invalid();
    mask = std::move(slots[1].expr);
  }
  if (!slots[2].isNone() && !mask) {
    error(loc, "'other' of 'load' needs a 'mask'");
    return Value::invalid();
  }
  if (!prepareMemoryOperands("load", ptr, nullptr, mask, loc))
    return Value::invalid();
  TType type(ptr->getType().elem, false, ptr->getType().shape);
  ExprPtr other;
  if (mask) {
    if (slots[2].isNone()) {
      other = makeConstExpr(ConstexprValue::ofInt(0), type, loc);
    } else {
      if (!requireExpr(slots[2], args.loc, "'other' of 'load'"))
        return Value::invalid();
      if (slots[2].type().isPointer) {
        error(loc, "'other' of 'load' cannot be a pointer");
        return Value::invalid();
      }
      other = castTo(std::move(slots[2].expr), type.elem, loc);
      auto shape = broadcastShapes(type.shape, other->getType().shape, loc,
                                   "'load' (pointer and other)");
      if (!shape)
        return Value::invalid();
      if (*shape != type.shape) {
        error(loc, "'other' of shape " + formatShape(other->getType().shape) +
                       " does not fit the loaded block " + type.str());
        return Value::invalid();
      }
      other = broadcastTo(std::move(other), type.shape, loc);
    }
  }
  return Value::ofExpr(std::make_unique<ck::LoadExpr>(
      type, loc, std::move(ptr), std::move(mask), std::move(other)));
}

Value Sema::builtinStore(CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, "store", {"pointer", "value", "mask"}, 2, slots,
                {"cache_modifier", "eviction_policy"}))
    return Value::invalid();
  ExprPtr ptr, value, mask;
  if (!elabStoreOperands(
          "store", slots, args.loc, loc, [](ScalarType) { return true; }, ptr,
          value, mask))
    return Value::invalid();
  emit(std::make_unique<ck::StoreStmt>(loc, std::move(ptr), std::move(value),
                                       std::move(mask)));
  return Value::none();
}

/// Where argument `index` (keyword `name`) of a call is: its own location
/// when it was given, else the call's.
static SourceLoc getArgLoc(const CallArgs &args, size_t index,
                           llvm::StringRef name) {
  if (index < args.argLocs.size())
    return args.argLocs[index];
  for (size_t k = 0; k < args.kwargs.size(); ++k)
    if (args.kwargs[k].first == name)
      return args.kwargLocs[k];
  return args.loc;
}

bool Sema::elabAtomicOrdering(CallArgs &args, std::vector<Value> &slots,
                              size_t semSlot, llvm::StringRef fnName,
                              ck::MemSemantic &sem, ck::MemSyncScope &scope) {
  sem = ck::MemSemantic::AcqRel;
  scope = ck::MemSyncScope::GPU;
  for (size_t i : {semSlot, semSlot + 1}) {
    bool isSem = i == semSlot;
    const char *name = isSem ? "sem" : "scope";
    Value &slot = slots[i];
    if (slot.isNone())
      continue;
    bool ok = false;
    if (slot.kind == Value::Kind::String) {
      if (isSem) {
        std::optional<ck::MemSemantic> named =
            mlir::tile::symbolizeMemSemantic(slot.str);
        if ((ok = named.has_value()))
          sem = *named;
      } else {
        std::optional<ck::MemSyncScope> named =
            mlir::tile::symbolizeMemSyncScope(slot.str);
        if ((ok = named.has_value()))
          scope = *named;
      }
    }
    if (!ok) {
      std::string got = slot.kind == Value::Kind::String
                            ? "\"" + slot.str + "\""
                            : std::string("a value that is not a string");
      error(getArgLoc(args, i, name),
            "'" + llvm::Twine(name) + "' of '" + fnName + "' must be " +
                (isSem ? "\"acq_rel\", \"acquire\", \"release\" or "
                         "\"relaxed\""
                       : "\"gpu\", \"cta\" or \"sys\"") +
                "; got " + got);
      return false;
    }
  }
  return true;
}

/// The element types Triton's atomic `fnName` allows, as the words of an
/// error message, and whether `elem` is one of them.
static bool isAtomicElementType(llvm::StringRef fnName, ScalarType elem,
                                std::string &allowed) {
  bool isWideInt = elem == ScalarType::I32 || elem == ScalarType::I64 ||
                   elem == ScalarType::U32 || elem == ScalarType::U64;
  bool isWideFloat = elem == ScalarType::F32 || elem == ScalarType::F64;
  if (fnName == "atomic_cas") {
    allowed = "16-, 32- or 64-bit types (i16, u16, f16, bf16, i32, u32, f32, "
              "i64, u64, f64)";
    unsigned bytes = scalarTypeBytes(elem);
    return !isFP8Type(elem) && (bytes == 2 || bytes == 4 || bytes == 8);
  }
  if (fnName == "atomic_add") {
    allowed = "f16, bf16, f32, f64, i32, u32, i64 or u64";
    return isWideInt || isWideFloat || elem == ScalarType::F16 ||
           elem == ScalarType::BF16;
  }
  if (fnName == "atomic_max" || fnName == "atomic_min" ||
      fnName == "atomic_xchg") {
    allowed = "f32, f64, i32, u32, i64 or u64";
    return isWideInt || isWideFloat;
  }
  allowed = "i32, u32, i64 or u64";
  return isWideInt;
}

/// The tile dialect's operation for Triton's `atomic_NAME` on `elem`.
static ck::AtomicRMWKind getAtomicRMWKind(llvm::StringRef fnName,
                                          ScalarType elem) {
  bool isUnsigned = elem == ScalarType::U32 || elem == ScalarType::U64;
  return llvm::StringSwitch<ck::AtomicRMWKind>(fnName)
      .Case("atomic_max",
            isUnsigned ? ck::AtomicRMWKind::UMax : ck::AtomicRMWKind::Max)
      .Case("atomic_min",
            isUnsigned ? ck::AtomicRMWKind::UMin : ck::AtomicRMWKind::Min)
      .Case("atomic_and", ck::AtomicRMWKind::And)
      .Case("atomic_or", ck::AtomicRMWKind::Or)
      .Case("atomic_xor", ck::AtomicRMWKind::Xor)
      .Case("atomic_xchg", ck::AtomicRMWKind::Xchg)
      .Default(ck::AtomicRMWKind::Add);
}

/// Rejects (with an error) an element type the atomic `fnName` does not
/// take.
static bool checkAtomicElement(Sema &sema, llvm::StringRef fnName,
                               ScalarType elem, SourceLoc loc) {
  std::string allowed;
  if (isAtomicElementType(fnName, elem, allowed))
    return true;
  sema.error(loc, fnName + " is not supported on " +
                      llvm::Twine(scalarTypeName(elem)) + "; use " + allowed);
  return false;
}

Value Sema::builtinAtomicRMW(llvm::StringRef name, CallArgs &args,
                             SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, name, {"pointer", "val", "mask", "sem", "scope"}, 2,
                slots))
    return Value::invalid();
  ck::MemSemantic sem;
  ck::MemSyncScope scope;
  if (!elabAtomicOrdering(args, slots, 3, name, sem, scope))
    return Value::invalid();
  auto isSupported = [&](ScalarType elem) {
    return checkAtomicElement(*this, name, elem, loc);
  };
  ExprPtr ptr, value, mask;
  if (!elabStoreOperands(name, slots, args.loc, loc, isSupported, ptr, value,
                         mask))
    return Value::invalid();
  TType type = value->getType();
  return Value::ofExpr(std::make_unique<ck::AtomicRMWExpr>(
      type, loc, getAtomicRMWKind(name, type.elem), sem, scope, std::move(ptr),
      std::move(value), std::move(mask)));
}

Value Sema::builtinAtomicCAS(CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, "atomic_cas", {"pointer", "cmp", "val", "sem", "scope"},
                3, slots))
    return Value::invalid();
  ck::MemSemantic sem;
  ck::MemSyncScope scope;
  if (!elabAtomicOrdering(args, slots, 3, "atomic_cas", sem, scope))
    return Value::invalid();
  const char *const names[] = {"pointer", "cmp", "val"};
  for (size_t i = 0; i < 3; ++i)
    if (!requireExpr(slots[i], args.loc,
                     "the " + std::string(names[i]) + " of 'atomic_cas'"))
      return Value::invalid();
  ExprPtr ptr = std::move(slots[0].expr), noMask;
  if (!prepareMemoryOperands("atomic_cas", ptr, nullptr, noMask, loc) ||
      !checkAtomicElement(*this, "atomic_cas", ptr->getType().elem, loc))
    return Value::invalid();
  // `cmp` and `val` convert to the pointee type (as `store`'s value) and
  // broadcast with the pointers.
  ScalarType elem = ptr->getType().elem;
  ExprPtr cmp = convertStoredValue(*this, slots[1], elem, "atomic_cas", loc);
  ExprPtr value = convertStoredValue(*this, slots[2], elem, "atomic_cas", loc);
  if (!cmp || !value ||
      !prepareMemoryOperands("atomic_cas", ptr, &cmp, noMask, loc) ||
      !prepareMemoryOperands("atomic_cas", ptr, &value, noMask, loc))
    return Value::invalid();
  cmp = broadcastTo(std::move(cmp), ptr->getType().shape, loc);
  TType type = value->getType();
  return Value::ofExpr(std::make_unique<ck::AtomicCASExpr>(
      type, loc, sem, scope, std::move(ptr), std::move(cmp), std::move(value)));
}

Value Sema::builtinDot(CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, "dot",
                {"input", "other", "acc", "input_precision", "allow_tf32",
                 "max_num_imprecise_acc", "out_dtype"},
                2, slots))
    return Value::invalid();
  Value &a = slots[0], &b = slots[1];
  if (!requireExpr(a, args.loc, "'dot'") || !requireExpr(b, args.loc, "'dot'"))
    return Value::invalid();
  const TType &at = a.type(), &bt = b.type();
  if (at.getRank() != 2 || bt.getRank() != 2 || at.isPointer || bt.isPointer) {
    error(loc, "dot expects two 2-D blocks of numbers; got " + at.str() +
                   " and " + bt.str());
    return Value::invalid();
  }
  if (at.shape[1] != bt.shape[0]) {
    error(loc, "shape mismatch in dot: " + formatShape(at.shape) + " and " +
                   formatShape(bt.shape) + " (the inner dimensions " +
                   llvm::Twine(at.shape[1]) + " and " +
                   llvm::Twine(bt.shape[0]) + " differ)");
    return Value::invalid();
  }
  if (at.shape[0] < 16 || at.shape[1] < 16 || bt.shape[1] < 16) {
    error(loc, "dot needs every dimension to be at least 16; got " +
                   formatShape(at.shape) + " and " + formatShape(bt.shape));
    return Value::invalid();
  }
  if (at.elem != bt.elem) {
    error(loc, "dot operands must have the same element type; got " + at.str() +
                   " and " + bt.str() +
                   " (convert one with "
                   ".to(...))");
    return Value::invalid();
  }
  if (isFP8Type(at.elem)) {
    error(loc, "dot on fp8 operands (" + llvm::Twine(scalarTypeName(at.elem)) +
                   ") is not supported yet; convert them with "
                   ".to(tl.float16) first");
    return Value::invalid();
  }
  ScalarType resElem;
  switch (at.elem) {
  case ScalarType::F16:
  case ScalarType::BF16:
  case ScalarType::F32:
    resElem = ScalarType::F32;
    break;
  case ScalarType::I8:
    resElem = ScalarType::I32;
    break;
  default:
    error(loc, "dot is not supported on " +
                   llvm::Twine(scalarTypeName(at.elem)) +
                   "; use f16, bf16, f32 or i8");
    return Value::invalid();
  }
  TType type(resElem, false, {at.shape[0], bt.shape[1]});
  if (!checkShape(type.shape, loc))
    return Value::invalid();
  if (!slots[6].isNone()) {
    auto out = requireDType(slots[6], args.loc, "'out_dtype'");
    if (!out)
      return Value::invalid();
    if (*out != resElem) {
      error(loc, "out_dtype " + llvm::Twine(scalarTypeName(*out)) +
                     " is not supported "
                     "for " +
                     scalarTypeName(at.elem) +
                     " inputs; dot "
                     "accumulates in " +
                     scalarTypeName(resElem));
      return Value::invalid();
    }
  }
  ck::InputPrecision precision = ck::InputPrecision::TF32;
  if (!slots[3].isNone()) {
    std::optional<ck::InputPrecision> named;
    if (slots[3].kind == Value::Kind::String)
      named = mlir::tile::symbolizeInputPrecision(slots[3].str);
    if (!named) {
      error(loc, "input_precision must be \"tf32\" or \"ieee\"");
      return Value::invalid();
    }
    precision = *named;
    if (!slots[4].isNone()) {
      error(loc, "give either input_precision or allow_tf32, not both");
      return Value::invalid();
    }
  } else if (!slots[4].isNone()) {
    const ConstexprValue *c = slots[4].getConst();
    if (!c) {
      error(loc, "allow_tf32 must be a compile-time constant");
      return Value::invalid();
    }
    precision =
        c->asBool() ? ck::InputPrecision::TF32 : ck::InputPrecision::IEEE;
  }
  ExprPtr acc;
  if (slots[2].isNone()) {
    acc = makeConstExpr(ConstexprValue::ofInt(0), type, loc);
  } else {
    if (!requireExpr(slots[2], args.loc, "the accumulator of 'dot'"))
      return Value::invalid();
    if (slots[2].type() != type) {
      error(loc, "the accumulator of dot must be " + type.str() + "; got " +
                     slots[2].type().str());
      return Value::invalid();
    }
    acc = std::move(slots[2].expr);
  }
  return Value::ofExpr(std::make_unique<ck::DotExpr>(
      type, loc, std::move(a.expr), std::move(b.expr), std::move(acc),
      precision));
}

Value Sema::reduce(ck::ReduceKind kind, Value x, std::optional<int64_t> axis,
                   bool keepDims, SourceLoc loc) {
  llvm::StringRef name = mlir::tile::stringifyReduceKind(kind);
  if (!requireExpr(x, loc, "'" + name.str() + "'"))
    return Value::invalid();
  const TType &t = x.type();
  if (t.isPointer || t.isScalar()) {
    error(loc, "'" + name + "' expects a block of numbers; got " + t.str());
    return Value::invalid();
  }
  if (!rejectFP8(t, loc, "'" + name.str() + "'"))
    return Value::invalid();
  ExprPtr input = std::move(x.expr);
  int64_t rank = t.getRank();
  std::vector<int64_t> origShape = t.shape;
  int64_t ax = 0;
  if (!axis) {
    if (rank > 1) {
      TType flat = input->getType().withShape({t.getNumElements()});
      input = std::make_unique<ck::ReshapeExpr>(flat, loc, std::move(input));
    }
  } else {
    ax = *axis < 0 ? *axis + rank : *axis;
    if (ax < 0 || ax >= rank) {
      error(loc, "axis " + llvm::Twine(*axis) +
                     " is out of range for a block "
                     "of rank " +
                     llvm::Twine(rank) + " (" + t.str() + ")");
      return Value::invalid();
    }
  }
  ScalarType elem = input->getType().elem;
  if (kind == ck::ReduceKind::Sum && pickSumType(elem) != elem)
    input = castTo(std::move(input), pickSumType(elem), loc);
  std::vector<int64_t> shape = input->getType().shape;
  shape.erase(shape.begin() + ax);
  ScalarType resElem =
      (kind == ck::ReduceKind::ArgMax || kind == ck::ReduceKind::ArgMin)
          ? ScalarType::I32
          : input->getType().elem;
  ExprPtr result = std::make_unique<ck::ReduceExpr>(
      TType(resElem, false, shape), loc, kind, ax, std::move(input));
  if (keepDims) {
    if (!axis) {
      std::vector<int64_t> ones(origShape.size(), 1);
      result = broadcastTo(std::move(result), ones, loc);
    } else {
      shape.insert(shape.begin() + ax, 1);
      TType type = result->getType().withShape(shape);
      result = std::make_unique<ck::ExpandDimsExpr>(type, loc,
                                                    std::move(result), ax);
    }
  }
  return Value::ofExpr(std::move(result));
}

Value Sema::builtinReduce(llvm::StringRef name, CallArgs &args, SourceLoc loc) {
  bool isArg = name == "argmax" || name == "argmin";
  bool isExtreme = name == "max" || name == "min";
  std::vector<Value> slots;
  if (isArg ? !bindArgs(args, name,
                        {"input", "axis", "tie_break_left", "keep_dims"}, 2,
                        slots)
      : isExtreme
          ? !bindArgs(args, name,
                      {"input", "axis", "return_indices",
                       "return_indices_tie_break_left", "keep_dims"},
                      1, slots)
          : !bindArgs(args, name, {"input", "axis", "keep_dims", "dtype"}, 1,
                      slots))
    return Value::invalid();
  std::optional<int64_t> axis;
  if (!slots[1].isNone()) {
    axis =
        requireConstInt(slots[1], args.loc, "the axis of '" + name.str() + "'");
    if (!axis)
      return Value::invalid();
  }
  Value &keepSlot = slots[isArg ? 3 : isExtreme ? 4 : 2];
  bool keepDims = false;
  if (!keepSlot.isNone()) {
    const ConstexprValue *c = keepSlot.getConst();
    if (!c) {
      error(loc, "keep_dims must be a compile-time constant");
      return Value::invalid();
    }
    keepDims = c->asBool();
  }
  ck::ReduceKind kind = *mlir::tile::symbolizeReduceKind(name);
  Value x = std::move(slots[0]);
  if (isExtreme && !slots[2].isNone()) {
    const ConstexprValue *c = slots[2].getConst();
    if (!c) {
      error(loc, "return_indices must be a compile-time constant");
      return Value::invalid();
    }
    if (c->asBool()) {
      x = materializeTrivial(std::move(x), loc, name);
      // (the extreme, its index): the index of the first extreme whatever
      // return_indices_tie_break_left says (Triton's "fast" tie-breaking
      // may give any of them).
      Value indices = reduce(name == "max" ? ck::ReduceKind::ArgMax
                                           : ck::ReduceKind::ArgMin,
                             x.clone(), axis, keepDims, loc);
      Value values = reduce(kind, std::move(x), axis, keepDims, loc);
      if (values.isInvalid() || indices.isInvalid())
        return Value::invalid();
      Value pair;
      pair.kind = Value::Kind::Tuple;
      pair.elements.push_back(std::move(values));
      pair.elements.push_back(std::move(indices));
      return pair;
    }
  }
  if (!isArg && !isExtreme && !slots[3].isNone()) {
    auto dtype = requireDType(slots[3], args.loc, "'dtype'");
    if (!dtype)
      return Value::invalid();
    x = castValue(std::move(x), *dtype, loc);
  }
  return reduce(kind, std::move(x), axis, keepDims, loc);
}

/// Reads a shape given either as one tuple/int argument or as the trailing
/// positional arguments (`reshape(x, 4, 8)`).
static Value collectShapeArg(CallArgs &args, size_t first) {
  if (args.args.size() <= first + 1)
    return Value();
  Value tuple;
  tuple.kind = Value::Kind::Tuple;
  for (size_t i = first; i < args.args.size(); ++i)
    tuple.elements.push_back(std::move(args.args[i]));
  args.args.resize(first);
  args.argLocs.resize(first);
  return tuple;
}

Value Sema::builtinShape(llvm::StringRef name, CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (name == "trans" || name == "permute") {
    // trans(x) of a 2-D block swaps its dimensions; trans(x, *dims),
    // trans(x, dims) and permute(x, *dims) permute them.
    Value dims = collectShapeArg(args, 1);
    unsigned required = name == "permute" && dims.isInvalid() ? 2 : 1;
    if (!bindArgs(args, name, {"input", "dims"}, required, slots) ||
        !requireExpr(slots[0], args.loc, "'" + name.str() + "'"))
      return Value::invalid();
    if (dims.isInvalid())
      dims = std::move(slots[1]);
    const TType &t = slots[0].type();
    std::vector<int32_t> order;
    if (dims.isNone()) {
      if (t.getRank() != 2) {
        error(loc, "trans of a block of rank " + llvm::Twine(t.getRank()) +
                       " needs the order of its dimensions (trans(x, 0, 2, "
                       "1)); got " +
                       t.str());
        return Value::invalid();
      }
      order = {1, 0};
    } else {
      auto given = requireShapeLike(dims, args.loc,
                                    "the dimensions of '" + name.str() + "'");
      if (!given)
        return Value::invalid();
      std::vector<bool> seen(t.getRank(), false);
      bool ok = given->size() == size_t(t.getRank());
      for (int64_t d : *given) {
        if (!ok || d < 0 || d >= t.getRank() || seen[d]) {
          ok = false;
          break;
        }
        seen[d] = true;
        order.push_back(int32_t(d));
      }
      if (!ok) {
        error(loc, "the dimensions of '" + name +
                       "' must be a permutation of the " +
                       llvm::Twine(t.getRank()) + " dimensions of " + t.str());
        return Value::invalid();
      }
    }
    std::vector<int64_t> shape;
    for (int32_t d : order)
      shape.push_back(t.shape[d]);
    TType type = t.withShape(shape);
    type.isPointer = t.isPointer;
    if (llvm::equal(order, llvm::seq<int32_t>(0, order.size())))
      return std::move(slots[0]);
    return Value::ofExpr(std::make_unique<ck::TransExpr>(
        type, loc, std::move(slots[0].expr), std::move(order)));
  }
  if (name == "expand_dims") {
    if (!bindArgs(args, name, {"input", "axis"}, 2, slots) ||
        !requireExpr(slots[0], args.loc, "'expand_dims'"))
      return Value::invalid();
    auto axis = requireConstInt(slots[1], args.loc, "the axis of expand_dims");
    if (!axis)
      return Value::invalid();
    ExprPtr x = std::move(slots[0].expr);
    int64_t rank = x->getType().getRank();
    int64_t ax = *axis < 0 ? *axis + rank + 1 : *axis;
    if (ax < 0 || ax > rank) {
      error(loc, "axis " + llvm::Twine(*axis) +
                     " is out of range for "
                     "expand_dims of a block of rank " +
                     llvm::Twine(rank));
      return Value::invalid();
    }
    if (rank == 0)
      return Value::ofExpr(broadcastTo(std::move(x), {1}, loc));
    std::vector<int64_t> shape = x->getType().shape;
    shape.insert(shape.begin() + ax, 1);
    TType type = x->getType().withShape(shape);
    return Value::ofExpr(
        std::make_unique<ck::ExpandDimsExpr>(type, loc, std::move(x), ax));
  }
  // reshape / view / broadcast_to
  Value varShape = collectShapeArg(args, 1);
  bool isBroadcast = name == "broadcast_to";
  if (!bindArgs(args, name, {"input", "shape", "can_reorder"},
                varShape.kind == Value::Kind::Tuple ? 1 : 2, slots) ||
      !requireExpr(slots[0], args.loc, "'" + name.str() + "'"))
    return Value::invalid();
  if (varShape.kind == Value::Kind::Tuple)
    slots[1] = std::move(varShape);
  auto shape =
      requireShape(slots[1], args.loc, "the shape of '" + name.str() + "'");
  if (!shape)
    return Value::invalid();
  ExprPtr x = std::move(slots[0].expr);
  const TType &t = x->getType();
  if (isBroadcast) {
    bool ok = t.getRank() <= static_cast<int64_t>(shape->size());
    for (int64_t i = 0; ok && i < t.getRank(); ++i) {
      int64_t d = t.shape[t.getRank() - 1 - i];
      ok = d == 1 || d == (*shape)[shape->size() - 1 - i];
    }
    if (!ok) {
      error(loc, "cannot broadcast " + t.str() + " to " + formatShape(*shape));
      return Value::invalid();
    }
    return Value::ofExpr(broadcastTo(std::move(x), *shape, loc));
  }
  TType type = t.withShape(*shape);
  type.isPointer = t.isPointer;
  if (type.getNumElements() != t.getNumElements()) {
    error(loc, "cannot reshape " + t.str() + " (" +
                   llvm::Twine(t.getNumElements()) + " elements) to " +
                   formatShape(*shape) + " (" +
                   llvm::Twine(type.getNumElements()) + " elements)");
    return Value::invalid();
  }
  if (t.isScalar())
    return Value::ofExpr(broadcastTo(std::move(x), *shape, loc));
  if (t.shape == *shape)
    return Value::ofExpr(std::move(x));
  return Value::ofExpr(
      std::make_unique<ck::ReshapeExpr>(type, loc, std::move(x)));
}
