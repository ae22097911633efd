//===- SemaDescriptors.cpp - Tensor descriptors and block pointers --------===//
//
// Triton's two ways of naming a rectangular block of a strided tensor:
//   - tensor descriptors: `tl.make_tensor_descriptor(base, shape, strides,
//     block_shape)`, `desc.load(offsets)`, `desc.store(offsets, value)`;
//   - block pointers: `tl.make_block_ptr(base, shape, strides, offsets,
//     block_shape, order)`, `tl.advance(p, offsets)`, and `tl.load` /
//     `tl.store` of one with `boundary_check=` / `padding_option=`.
// Both are compile-time structures (Value::Kind::TensorDesc / BlockPtr)
// whose base, shape, strides and offsets are run-time values; an access
// becomes a masked pointer load or store of the block (each element at
// base + sum(index[d] * stride[d]), out-of-bounds elements masked:
// loaded as 0, or NaN with padding "nan", and not stored), which the
// compiler's coalescing and pipelining treat as any other. Also
// `isinstance(x, tl.tensor_descriptor)` and the other classes a kernel
// tests.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "llvm/ADT/StringSwitch.h"

#include <limits>

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

/// The integer values of a list argument (`shape=[M, K]`), each converted
/// to `kind` and made trivial; nullopt after an error.
static std::optional<std::vector<Value>>
requireIntList(Sema &sema, const Value &v, size_t rank, ScalarType kind,
               SourceLoc loc, llvm::StringRef what) {
  std::vector<const Value *> items;
  if (v.kind == Value::Kind::Tuple) {
    for (const Value &el : v.elements)
      items.push_back(&el);
  } else {
    items.push_back(&v);
  }
  if (items.size() != rank) {
    sema.error(loc, what + " has " + llvm::Twine(items.size()) +
                        " entries; expected " + llvm::Twine(rank) +
                        " (one per dimension of the block)");
    return std::nullopt;
  }
  std::vector<Value> out;
  for (const Value *item : items) {
    if (!sema.requireExpr(*item, loc, what))
      return std::nullopt;
    const TType &t = item->type();
    if (!t.isScalar() || !t.isInteger() || t.isBool()) {
      sema.error(loc, what + " must hold integer scalars; got " + t.str());
      return std::nullopt;
    }
    Value converted =
        Value::ofExpr(sema.castTo(item->clone().expr, kind, loc), item->weak);
    out.push_back(sema.materializeTrivial(std::move(converted), loc, "desc"));
  }
  return out;
}

/// The base pointer argument of a descriptor or block pointer.
static std::optional<Value> requireBase(Sema &sema, const Value &v,
                                        SourceLoc loc, llvm::StringRef what) {
  if (!sema.requireExpr(v, loc, what))
    return std::nullopt;
  const TType &t = v.type();
  if (!t.isPointer || !t.isScalar()) {
    sema.error(loc, what +
                        " must be a pointer (a kernel's pointer "
                        "argument); got " +
                        t.str());
    return std::nullopt;
  }
  return sema.materializeTrivial(v.clone(), loc, "desc_base");
}

/// The last stride of a tensor descriptor must be the constant 1, as
/// Triton requires (the block's rows are contiguous).
static bool checkUnitLastStride(Sema &sema, const std::vector<Value> &strides,
                                SourceLoc loc) {
  const ConstexprValue *c = strides.back().getConst();
  if (c && c->isInt() && c->asInt() == 1)
    return true;
  sema.error(loc, "the last stride of a tensor descriptor must be the "
                  "compile-time constant 1 (as in Triton)");
  return false;
}

void Sema::assumeDescriptorAlignment(Value &desc, SourceLoc loc) {
  constexpr int64_t kAlignBytes = 16;
  auto assumeMultipleOf = [&](Value &v, int64_t n) {
    if (n <= 1 || !v.isExpr() || v.getConst())
      return;
    TType type = v.type();
    v = Value::ofExpr(std::make_unique<ck::HintExpr>(
        type, loc, ck::HintKind::MultipleOf, std::vector<int64_t>{n},
        std::move(v.expr)));
  };
  size_t rank = desc.dtypeShape->size();
  assumeMultipleOf(desc.elements[0], kAlignBytes); // bytes, as for pointers
  int64_t elemBytes = std::max<int64_t>(1, scalarTypeBytes(desc.dtype));
  for (size_t d = 0; d + 1 < rank; ++d)
    assumeMultipleOf(desc.elements[1 + rank + d],
                     std::max<int64_t>(1, kAlignBytes / elemBytes));
}

Value Sema::builtinDescriptor(llvm::StringRef name, CallArgs &args,
                              SourceLoc loc) {
  std::vector<Value> slots;
  if (name == "make_tensor_descriptor") {
    if (!bindArgs(args, name,
                  {"base", "shape", "strides", "block_shape", "padding_option"},
                  4, slots))
      return Value::invalid();
    auto base = requireBase(*this, slots[0], args.argLoc(0),
                            "the base of 'make_tensor_descriptor'");
    auto block = requireShape(slots[3], args.argLoc(3),
                              "the block_shape of a tensor "
                              "descriptor");
    if (!base || !block)
      return Value::invalid();
    if (block->size() > 5) {
      error(args.argLoc(3), "a tensor descriptor has 1 to 5 dimensions; got " +
                                llvm::Twine(block->size()));
      return Value::invalid();
    }
    auto shape = requireIntList(*this, slots[1], block->size(), ScalarType::I32,
                                args.argLoc(1),
                                "the shape of a tensor "
                                "descriptor");
    if (!shape)
      return Value::invalid();
    auto strides =
        requireIntList(*this, slots[2], block->size(), ScalarType::I64,
                       args.argLoc(2), "the strides of a tensor descriptor");
    if (!strides || !checkUnitLastStride(*this, *strides, args.argLoc(2)))
      return Value::invalid();
    std::string padding = "zero";
    if (!slots[4].isNone()) {
      if (slots[4].kind != Value::Kind::String ||
          (slots[4].str != "zero" && slots[4].str != "nan")) {
        error(args.argLoc(4),
              "the padding_option of a tensor descriptor must be \"zero\" or "
              "\"nan\"");
        return Value::invalid();
      }
      padding = slots[4].str;
    }
    Value desc;
    desc.kind = Value::Kind::TensorDesc;
    desc.dtype = base->type().elem;
    desc.dtypeShape = *block;
    desc.str = padding;
    desc.elements.push_back(std::move(*base));
    for (Value &v : *shape)
      desc.elements.push_back(std::move(v));
    for (Value &v : *strides)
      desc.elements.push_back(std::move(v));
    assumeDescriptorAlignment(desc, loc);
    return desc;
  }
  if (name == "make_block_ptr") {
    if (!bindArgs(
            args, name,
            {"base", "shape", "strides", "offsets", "block_shape", "order"}, 6,
            slots))
      return Value::invalid();
    auto base = requireBase(*this, slots[0], args.argLoc(0),
                            "the base of 'make_block_ptr'");
    auto block = requireShape(slots[4], args.argLoc(4),
                              "the block_shape of a block pointer");
    if (!base || !block)
      return Value::invalid();
    size_t rank = block->size();
    auto shape = requireIntList(*this, slots[1], rank, ScalarType::I64,
                                args.argLoc(1), "the shape of a block pointer");
    if (!shape)
      return Value::invalid();
    auto strides =
        requireIntList(*this, slots[2], rank, ScalarType::I64, args.argLoc(2),
                       "the strides of a block pointer");
    if (!strides)
      return Value::invalid();
    auto offsets =
        requireIntList(*this, slots[3], rank, ScalarType::I32, args.argLoc(3),
                       "the offsets of a block pointer");
    if (!offsets)
      return Value::invalid();
    // `order` only describes the memory layout (a hint); it must be a
    // permutation of the dimensions.
    auto order = requireShapeLike(slots[5], args.argLoc(5),
                                  "the order of a block pointer");
    if (!order)
      return Value::invalid();
    std::vector<bool> seen(rank, false);
    bool isPermutation = order->size() == rank;
    for (int64_t d : *order) {
      if (!isPermutation || d < 0 || d >= static_cast<int64_t>(rank) ||
          seen[d]) {
        isPermutation = false;
        break;
      }
      seen[d] = true;
    }
    if (!isPermutation) {
      error(args.argLoc(5), "the order of a block pointer must be a "
                            "permutation of its " +
                                llvm::Twine(rank) + " dimensions");
      return Value::invalid();
    }
    Value ptr;
    ptr.kind = Value::Kind::BlockPtr;
    ptr.dtype = base->type().elem;
    ptr.dtypeShape = *block;
    ptr.elements.push_back(std::move(*base));
    for (auto *list : {&*shape, &*strides, &*offsets})
      for (Value &v : *list)
        ptr.elements.push_back(std::move(v));
    return ptr;
  }
  // tl.advance(ptr, offsets): the block pointer moved by `offsets`.
  if (!bindArgs(args, name, {"base", "offsets"}, 2, slots))
    return Value::invalid();
  if (slots[0].kind != Value::Kind::BlockPtr) {
    error(args.argLoc(0), "the first argument of 'advance' must be a block "
                          "pointer (tl.make_block_ptr); got " +
                              slots[0].describe());
    return Value::invalid();
  }
  size_t rank = slots[0].dtypeShape->size();
  auto deltas = requireIntList(*this, slots[1], rank, ScalarType::I32,
                               args.argLoc(1), "the offsets of 'advance'");
  if (!deltas)
    return Value::invalid();
  Value moved = slots[0].clone();
  for (size_t d = 0; d < rank; ++d) {
    Value &offset = moved.elements[1 + 2 * rank + d];
    offset = materializeTrivial(binaryOp(ast::BinaryOp::Add, std::move(offset),
                                         std::move((*deltas)[d]), loc),
                                loc, "offset");
    if (offset.isInvalid())
      return Value::invalid();
  }
  return moved;
}

std::optional<std::vector<int64_t>>
Sema::requireShapeLike(const Value &v, SourceLoc loc, llvm::StringRef what) {
  std::vector<int64_t> values;
  if (v.kind != Value::Kind::Tuple) {
    auto d = requireConstInt(v, loc, what);
    if (!d)
      return std::nullopt;
    return std::vector<int64_t>{*d};
  }
  for (const Value &el : v.elements) {
    auto d = requireConstInt(el, loc, what);
    if (!d)
      return std::nullopt;
    values.push_back(*d);
  }
  return values;
}

/// The parts of a descriptor or block pointer: base, shape, strides (and
/// offsets) as views into its elements.
namespace {
struct BlockParts {
  const Value *base;
  llvm::ArrayRef<Value> shape, strides, offsets;
  llvm::ArrayRef<int64_t> block;
};
} // namespace

static BlockParts getParts(const Value &v) {
  size_t rank = v.dtypeShape->size();
  llvm::ArrayRef<Value> els(v.elements);
  BlockParts parts;
  parts.base = &v.elements[0];
  parts.shape = els.slice(1, rank);
  parts.strides = els.slice(1 + rank, rank);
  if (v.kind == Value::Kind::BlockPtr)
    parts.offsets = els.slice(1 + 2 * rank, rank);
  parts.block = *v.dtypeShape;
  return parts;
}

bool Sema::blockAccess(const Value &target, llvm::ArrayRef<Value> offsets,
                       llvm::ArrayRef<bool> checkDims, SourceLoc loc,
                       ExprPtr &ptr, ExprPtr &mask) {
  BlockParts parts = getParts(target);
  size_t rank = parts.block.size();
  Value offset, inBounds;
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = parts.block[d];
    // index[d] = offsets[d] + arange(0, n), as a rank-`rank` block with
    // its extent in dimension d.
    Value range = Value::ofExpr(std::make_unique<ck::MakeRangeExpr>(
        TType(ScalarType::I32, false, {n}), loc, 0, n));
    Value index =
        binaryOp(ast::BinaryOp::Add, offsets[d].clone(), std::move(range), loc);
    if (index.isInvalid())
      return false;
    std::vector<int64_t> shape(rank, 1);
    shape[d] = n;
    if (rank > 1) {
      ExprPtr e = std::move(index.expr);
      for (size_t axis = 0; axis < rank; ++axis) {
        if (axis == d)
          continue;
        std::vector<int64_t> partial = e->getType().shape;
        partial.insert(partial.begin() + axis, 1);
        e = std::make_unique<ck::ExpandDimsExpr>(
            TType(ScalarType::I32, false, partial), loc, std::move(e), axis);
      }
      index = Value::ofExpr(std::move(e));
    }
    Value term = binaryOp(
        ast::BinaryOp::Mul,
        Value::ofExpr(castTo(index.clone().expr, ScalarType::I64, loc)),
        parts.strides[d].clone(), loc);
    offset = offset.isInvalid()
                 ? std::move(term)
                 : binaryOp(ast::BinaryOp::Add, std::move(offset),
                            std::move(term), loc);
    if (offset.isInvalid())
      return false;
    if (!checkDims[d])
      continue;
    // 0 <= index < shape as one unsigned comparison (a negative index is
    // a large unsigned one), in the shape's width.
    ScalarType bound = parts.shape[d].type().elem == ScalarType::I64
                           ? ScalarType::U64
                           : ScalarType::U32;
    Value both = binaryOp(
        ast::BinaryOp::Lt,
        Value::ofExpr(castTo(
            castTo(std::move(index.expr), parts.shape[d].type().elem, loc),
            bound, loc)),
        Value::ofExpr(castTo(parts.shape[d].clone().expr, bound, loc)), loc);
    inBounds = inBounds.isInvalid()
                   ? std::move(both)
                   : binaryOp(ast::BinaryOp::BitAnd, std::move(inBounds),
                              std::move(both), loc);
    if (inBounds.isInvalid())
      return false;
  }
  Value address =
      binaryOp(ast::BinaryOp::Add, parts.base->clone(), std::move(offset), loc);
  if (address.isInvalid())
    return false;
  ptr = broadcastTo(std::move(address.expr), parts.block, loc);
  if (!inBounds.isInvalid())
    mask = broadcastTo(std::move(inBounds.expr), parts.block, loc);
  return true;
}

/// The load of the block at `ptr` (masked by `mask`, if any), out-of-bounds
/// elements `padding` ("zero" or "nan").
static Value loadBlock(Sema &sema, ExprPtr ptr, ExprPtr mask,
                       llvm::StringRef padding, SourceLoc loc) {
  TType type(ptr->getType().elem, false, ptr->getType().shape);
  if (padding == "nan" && !type.isFloat()) {
    sema.error(loc, "padding \"nan\" needs a floating-point block; got " +
                        type.str());
    return Value::invalid();
  }
  ExprPtr other;
  if (mask) {
    ConstexprValue fill =
        padding == "nan"
            ? ConstexprValue::ofFloat(std::numeric_limits<double>::quiet_NaN())
            : ConstexprValue::ofInt(0);
    other = sema.makeConstExpr(fill, type, loc);
  }
  return Value::ofExpr(std::make_unique<ck::LoadExpr>(
      type, loc, std::move(ptr), std::move(mask), std::move(other)));
}

/// Converts `value` to the element type of the block `target` accesses and
/// broadcasts it to the block's shape; null after an error.
static ExprPtr blockValue(Sema &sema, Value value, const Value &target,
                          SourceLoc argLoc, SourceLoc loc,
                          llvm::StringRef what) {
  if (!sema.requireExpr(value, argLoc, what))
    return nullptr;
  if (value.type().isPointer) {
    sema.error(loc, "cannot store a pointer value (" + value.type().str() +
                        ") through a " + target.describe());
    return nullptr;
  }
  ExprPtr e = sema.castTo(std::move(value.expr), target.dtype, loc);
  auto shape =
      sema.broadcastShapes(*target.dtypeShape, e->getType().shape, loc, what);
  if (!shape)
    return nullptr;
  if (*shape != *target.dtypeShape) {
    sema.error(loc, "a block of shape " + formatShape(e->getType().shape) +
                        " does not fit the " + target.describe());
    return nullptr;
  }
  return sema.broadcastTo(std::move(e), *target.dtypeShape, loc);
}

/// The load of the block of `target` at `offsets` (`stored` null), or the
/// store of `*stored` into it; `what` names the stored value in messages.
static Value loadOrStoreBlock(Sema &sema, const Value &target,
                              llvm::ArrayRef<Value> offsets,
                              llvm::ArrayRef<bool> checkDims,
                              llvm::StringRef padding, Value *stored,
                              SourceLoc valueLoc, llvm::StringRef what,
                              SourceLoc loc) {
  ExprPtr ptr, mask;
  if (!sema.blockAccess(target, offsets, checkDims, loc, ptr, mask))
    return Value::invalid();
  if (!stored)
    return loadBlock(sema, std::move(ptr), std::move(mask), padding, loc);
  ExprPtr value =
      blockValue(sema, std::move(*stored), target, valueLoc, loc, what);
  if (!value)
    return Value::invalid();
  sema.emit(std::make_unique<ck::StoreStmt>(loc, std::move(ptr),
                                            std::move(value), std::move(mask)));
  return Value::none();
}

Value Sema::descriptorMethod(Value self, llvm::StringRef name, CallArgs &args,
                             SourceLoc loc) {
  size_t rank = self.dtypeShape->size();
  std::vector<Value> slots;
  if (name == "load" || name == "store") {
    bool isStore = name == "store";
    if (!bindArgs(args, name, {"offsets", "value"}, isStore ? 2 : 1, slots))
      return Value::invalid();
    if (!isStore && !slots[1].isNone()) {
      error(args.argLoc(1), "'load' of a tensor descriptor takes only the "
                            "offsets");
      return Value::invalid();
    }
    auto offsets = requireIntList(
        *this, slots[0], rank, ScalarType::I32, args.argLoc(0),
        "the offsets of a tensor descriptor '" + name.str() + "'");
    if (!offsets)
      return Value::invalid();
    llvm::SmallVector<bool> checkAll(rank, true);
    return loadOrStoreBlock(*this, self, *offsets, checkAll, self.str,
                            isStore ? &slots[1] : nullptr, args.argLoc(1),
                            "the value of a tensor descriptor 'store'", loc);
  }
  error(loc, "a tensor descriptor has the methods 'load' and 'store'; '" +
                 name + "' is not supported");
  return Value::invalid();
}

Value Sema::descriptorAttribute(const Value &self, llvm::StringRef attr,
                                SourceLoc loc) {
  auto tupleOf = [&](llvm::ArrayRef<Value> values) {
    std::vector<Value> elements;
    for (const Value &v : values)
      elements.push_back(v.clone());
    return Value::ofTuple(std::move(elements));
  };
  BlockParts parts = getParts(self);
  if (attr == "dtype" && self.kind == Value::Kind::BlockPtr) {
    // A pointer to the block type, as in Triton (`p.dtype.element_ty` is
    // the block type, which `.to()` takes for its element type).
    Value t = Value::ofDType(self.dtype);
    t.dtypeShape = std::vector<int64_t>(parts.block);
    t.dtypePointsToBlock = true;
    return t;
  }
  if (attr == "dtype")
    return Value::ofDType(self.dtype);
  if (attr == "block_shape") {
    std::vector<Value> dims;
    for (int64_t d : parts.block)
      dims.push_back(makeConst(ConstexprValue::ofInt(d), loc));
    return Value::ofTuple(std::move(dims));
  }
  if (attr == "shape")
    return tupleOf(parts.shape);
  if (attr == "strides")
    return tupleOf(parts.strides);
  if (attr == "base")
    return parts.base->clone();
  if (attr == "block_type") {
    Value t = Value::ofDType(self.dtype);
    t.dtypeShape = std::vector<int64_t>(parts.block);
    return t;
  }
  error(loc, "a " + self.describe() + " has no attribute '" + attr + "'");
  return Value::invalid();
}

Value Sema::blockPointerAccess(llvm::StringRef name, CallArgs &args,
                               SourceLoc loc) {
  bool isStore = name == "store";
  std::vector<Value> slots;
  if (isStore) {
    if (!bindArgs(args, name, {"pointer", "value", "mask", "boundary_check"}, 2,
                  slots, {"cache_modifier", "eviction_policy"}))
      return Value::invalid();
  } else {
    if (!bindArgs(
            args, name,
            {"pointer", "mask", "other", "boundary_check", "padding_option"}, 1,
            slots, {"cache_modifier", "eviction_policy", "volatile"}))
      return Value::invalid();
  }
  const Value &target = slots[0];
  size_t rank = target.dtypeShape->size();
  size_t maskSlot = isStore ? 2 : 1;
  if (!slots[maskSlot].isNone() || (!isStore && !slots[2].isNone())) {
    error(loc, "'mask' and 'other' cannot be given with a block pointer; "
               "use boundary_check= (and padding_option=)");
    return Value::invalid();
  }
  // boundary_check: the dimensions whose bounds are checked.
  llvm::SmallVector<bool> checkDims(rank, false);
  if (!slots[3].isNone()) {
    auto dims = requireShapeLike(slots[3], args.loc, "boundary_check");
    if (!dims)
      return Value::invalid();
    for (int64_t d : *dims) {
      if (d < 0 || d >= static_cast<int64_t>(rank)) {
        error(args.loc, "boundary_check dimension " + llvm::Twine(d) +
                            " is out of range for a block pointer of rank " +
                            llvm::Twine(rank));
        return Value::invalid();
      }
      checkDims[d] = true;
    }
  }
  std::string padding = "zero";
  if (!isStore && !slots[4].isNone()) {
    if (slots[4].kind != Value::Kind::String ||
        (slots[4].str != "zero" && slots[4].str != "nan" &&
         !slots[4].str.empty())) {
      error(args.loc, "padding_option must be \"zero\" or \"nan\"");
      return Value::invalid();
    }
    if (!slots[4].str.empty())
      padding = slots[4].str;
  }
  return loadOrStoreBlock(*this, target, getParts(target).offsets, checkDims,
                          padding, isStore ? &slots[1] : nullptr,
                          args.argLoc(1), "the value of 'store'", loc);
}

Value Sema::builtinSwizzle2d(CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, "swizzle2d", {"i", "j", "size_i", "size_j", "size_g"}, 5,
                slots))
    return Value::invalid();
  for (size_t k = 0; k < slots.size(); ++k) {
    if (!requireExpr(slots[k], args.argLoc(k), "'swizzle2d'"))
      return Value::invalid();
    if (!slots[k].type().isInteger()) {
      error(args.argLoc(k), "the arguments of 'swizzle2d' must be integers; "
                            "got " +
                                slots[k].type().str());
      return Value::invalid();
    }
    slots[k] = materializeTrivial(std::move(slots[k]), loc, "swizzle");
  }
  using ast::BinaryOp;
  auto op = [&](BinaryOp kind, const Value &a, const Value &b) {
    return materializeTrivial(binaryOp(kind, a.clone(), b.clone(), loc), loc,
                              "swizzle");
  };
  const Value &i = slots[0], &j = slots[1], &sizeI = slots[2],
              &sizeJ = slots[3], &sizeG = slots[4];
  // Groups of size_g rows, column-major inside a group; the last group
  // has the rows that are left.
  Value ij = op(BinaryOp::Add, op(BinaryOp::Mul, i, sizeJ), j);
  Value sizeGJ = op(BinaryOp::Mul, sizeG, sizeJ);
  Value offI = op(BinaryOp::Mul, op(BinaryOp::FloorDiv, ij, sizeGJ), sizeG);
  CallArgs minArgs;
  minArgs.loc = loc;
  minArgs.args.push_back(op(BinaryOp::Sub, sizeI, offI));
  minArgs.args.push_back(sizeG.clone());
  minArgs.argLocs = {loc, loc};
  Value groupRows =
      materializeTrivial(callBuiltin("minimum", minArgs, loc), loc, "swizzle");
  Value inGroup = op(BinaryOp::Mod, ij, sizeGJ);
  Value newI = op(BinaryOp::Add, offI, op(BinaryOp::Mod, inGroup, groupRows));
  Value newJ = op(BinaryOp::FloorDiv, inGroup, groupRows);
  if (newI.isInvalid() || newJ.isInvalid())
    return Value::invalid();
  std::vector<Value> both;
  both.push_back(std::move(newI));
  both.push_back(std::move(newJ));
  return Value::ofTuple(std::move(both));
}

/// Whether `v` is an instance of the class `cls` names (`tl.tensor`,
/// `int`, ...); nullopt when tilec does not know the class.
static std::optional<bool> isInstanceOf(Value &v, llvm::StringRef cls) {
  const ConstexprValue *c = v.isExpr() ? v.getConst() : nullptr;
  if (cls == "tensor_descriptor" || cls == "tensor_descriptor_base")
    return v.kind == Value::Kind::TensorDesc;
  if (cls == "tensor")
    return v.isExpr() && !c;
  if (cls == "constexpr")
    return v.kind != Value::Kind::TensorDesc &&
           v.kind != Value::Kind::BlockPtr && (!v.isExpr() || c);
  if (cls == "dtype")
    return v.kind == Value::Kind::DType;
  if (cls == "tuple")
    return v.kind == Value::Kind::Tuple;
  if (cls == "str")
    return v.kind == Value::Kind::String;
  if (cls == "bool")
    return c && c->isBool();
  if (cls == "int")
    return c && c->isInt();
  if (cls == "float")
    return c && c->isFloat();
  return std::nullopt;
}

Value Sema::elabIsInstance(const ast::CallExpr &e) {
  SourceLoc loc = e.getLoc();
  if (e.args.size() != 2 || !e.kwargs.empty()) {
    error(loc, "isinstance() takes 2 positional arguments: a value and a "
               "class (or a tuple of classes)");
    return Value::invalid();
  }
  Value v = elabExpr(*e.args[0]);
  if (v.isInvalid())
    return v;
  std::vector<const ast::Expr *> classes;
  if (auto *t = llvm::dyn_cast<ast::TupleExpr>(e.args[1].get())) {
    for (const ast::ExprPtr &el : t->elements)
      classes.push_back(el.get());
  } else {
    classes.push_back(e.args[1].get());
  }
  bool answer = false;
  for (const ast::Expr *cls : classes) {
    std::string name;
    if (auto *n = llvm::dyn_cast<ast::NameExpr>(cls))
      name = n->name;
    else if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(cls))
      if (auto *base = llvm::dyn_cast<ast::NameExpr>(a->base.get()))
        if (isLanguageModuleName(base->name))
          name = a->attr;
    std::optional<bool> is =
        name.empty() ? std::nullopt : isInstanceOf(v, name);
    if (!is) {
      error(cls->getLoc(),
            "isinstance() of this class is not supported; tilec knows "
            "tl.tensor_descriptor, tl.tensor, tl.constexpr, tl.dtype, "
            "tuple, str, bool, int and float");
      return Value::invalid();
    }
    answer = answer || *is;
  }
  return makeConst(ConstexprValue::ofBool(answer), loc);
}
