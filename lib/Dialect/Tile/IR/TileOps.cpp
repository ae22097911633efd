//===- TileOps.cpp - Verifiers and folders of tile ops --------------------===//
//
// What the operation traits cannot say: shape rules of the shape ops, the
// type rules of `dot`, `reduce` and the casts, and the folders that remove
// no-op shape changes and propagate splat constants.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Support/InlineAsm.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"

namespace {
/// Shape of a tensor type, or the empty shape of a scalar.
ArrayRef<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

/// Prints a shape as `[a, b]` (scalars as `[]`) for diagnostics.
std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(shape, os);
  os << "]";
  return result;
}

/// If `attr` is a splat constant, the same splat value with type `type`.
OpFoldResult resplat(Attribute attr, Type type) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  auto shaped = dyn_cast<ShapedType>(type);
  if (!splat || !shaped)
    return {};
  return SplatElementsAttr::get(shaped, splat.getSplatValue<Attribute>());
}

/// Bit width of a scalar element, pointers counting 64.
unsigned elementBitWidth(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (isa<PointerType>(element))
    return 64;
  return element.getIntOrFloatBitWidth();
}
} // namespace

//===----------------------------------------------------------------------===//
// MakeRangeOp
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-D, got ") << type;
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError("end (")
           << end << ") must be greater than start (" << start << ")";
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return emitOpError("length end - start = ")
           << length << " must be a power of two";
  if (type.getDimSize(0) != length)
    return emitOpError("result length ")
           << type.getDimSize(0) << " must equal end - start = " << length;
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  Attribute value = adaptor.getSrc();
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(getType(), value);
}

LogicalResult BroadcastOp::verify() {
  auto srcShape = getSrc().getType().getShape();
  auto resShape = getType().getShape();
  if (srcShape.size() != resShape.size())
    return emitOpError("source rank ")
           << srcShape.size() << " must equal result rank " << resShape.size()
           << " (insert unit dimensions with tile.expand_dims)";
  for (auto [i, dims] : llvm::enumerate(llvm::zip(srcShape, resShape))) {
    auto [src, res] = dims;
    if (src != res && src != 1)
      return emitOpError("cannot broadcast shape ")
             << shapeStr(srcShape) << " to " << shapeStr(resShape)
             << ": dimension " << i << " is " << src << ", not 1 or " << res;
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return resplat(adaptor.getSrc(), getType());
}

LogicalResult ExpandDimsOp::verify() {
  auto srcShape = getSrc().getType().getShape();
  int64_t axis = getAxis();
  if (axis < 0 || axis > static_cast<int64_t>(srcShape.size()))
    return emitOpError("axis ")
           << axis << " out of range [0, " << srcShape.size() << "]";
  SmallVector<int64_t> expected(srcShape);
  expected.insert(expected.begin() + axis, 1);
  if (ArrayRef<int64_t>(expected) != getType().getShape())
    return emitOpError("result shape must be ")
           << shapeStr(expected) << ", got " << shapeStr(getType().getShape());
  return success();
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return resplat(adaptor.getSrc(), getType());
}

LogicalResult ReshapeOp::verify() {
  auto srcType = getSrc().getType();
  if (srcType.getNumElements() != getType().getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(srcType.getShape()) << " (" << srcType.getNumElements()
           << " elements) to " << shapeStr(getType().getShape()) << " ("
           << getType().getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldRetypeChain(*this))
    return folded;
  return resplat(adaptor.getSrc(), getType());
}

LogicalResult TransOp::verify() {
  auto srcShape = getSrc().getType().getShape();
  if (!getOrder() && srcShape.size() != 2)
    return emitOpError("source must be 2-D without an order, got ")
           << shapeStr(srcShape);
  SmallVector<int32_t> order = getPermutation();
  if (order.size() != srcShape.size())
    return emitOpError("order has ")
           << order.size() << " entries for a source of rank "
           << srcShape.size();
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= int32_t(order.size()) || seen[d])
      return emitOpError("order must be a permutation of [0, ")
             << order.size() << ")";
    seen[d] = true;
  }
  SmallVector<int64_t> expected;
  for (int32_t d : order)
    expected.push_back(srcShape[d]);
  if (getType().getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape must be ")
           << shapeStr(expected) << ", got " << shapeStr(getType().getShape());
  return success();
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  SmallVector<int32_t> order = getPermutation();
  if (llvm::equal(order, llvm::seq<int32_t>(0, order.size())))
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    // trans(trans(x, inner), order) is one permutation of x: result dim i
    // is x's dim inner[order[i]]; x itself when that is the identity.
    SmallVector<int32_t> innerOrder = inner.getPermutation();
    SmallVector<int32_t> composed;
    for (int32_t d : order)
      composed.push_back(innerOrder[d]);
    if (llvm::equal(composed, llvm::seq<int32_t>(0, composed.size())))
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    setOrderAttr(DenseI32ArrayAttr::get(getContext(), composed));
    return getResult();
  }
  return resplat(adaptor.getSrc(), getType());
}

//===----------------------------------------------------------------------===//
// Pointer and memory ops
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  bool ptrIsTensor = isa<RankedTensorType>(getPtr().getType());
  bool offsetIsTensor = isa<RankedTensorType>(getOffset().getType());
  if (ptrIsTensor != offsetIsTensor ||
      shapeOf(getPtr().getType()) != shapeOf(getOffset().getType()))
    return emitOpError("pointer shape ")
           << shapeStr(shapeOf(getPtr().getType())) << " and offset shape "
           << shapeStr(shapeOf(getOffset().getType())) << " must be equal";
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (isZeroConstant(adaptor.getOffset()))
    return getPtr();
  return {};
}

void LoadOp::build(OpBuilder &builder, OperationState &state, Value ptr,
                   Value mask, Value other) {
  Type resultType = getPointeeTypeLike(ptr.getType());
  build(builder, state, resultType, ptr, mask, other);
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("'other' requires a 'mask'");
  return success();
}

LogicalResult AtomicRMWOp::verify() {
  Type element = getElementTypeOrSelf(getValue().getType());
  bool isInt = element.isInteger(32) || element.isInteger(64);
  bool isWideFloat = isa<Float32Type, Float64Type>(element);
  bool ok = false;
  const char *allowed = "";
  switch (getKind()) {
  case AtomicRMWKind::Add:
    ok = isInt || isWideFloat || isa<Float16Type, BFloat16Type>(element);
    allowed = "f16, bf16, f32, f64, i32, i64";
    break;
  case AtomicRMWKind::Max:
  case AtomicRMWKind::Min:
  case AtomicRMWKind::Xchg:
    ok = isInt || isWideFloat;
    allowed = "f32, f64, i32, i64";
    break;
  case AtomicRMWKind::UMax:
  case AtomicRMWKind::UMin:
  case AtomicRMWKind::And:
  case AtomicRMWKind::Or:
  case AtomicRMWKind::Xor:
    ok = isInt;
    allowed = "i32, i64";
    break;
  }
  if (ok)
    return success();
  return emitOpError("atomic ")
         << stringifyAtomicRMWKind(getKind()) << " of " << element
         << " is not supported (" << allowed << ")";
}

LogicalResult AtomicCASOp::verify() {
  Type element = getElementTypeOrSelf(getValue().getType());
  if (element.isIntOrFloat() &&
      llvm::is_contained({16u, 32u, 64u}, element.getIntOrFloatBitWidth()))
    return success();
  return emitOpError("atomic compare-and-swap of ")
         << element << " is not supported (16-, 32- or 64-bit elements)";
}

LogicalResult PtrToIntOp::verify() {
  if (shapeOf(getSrc().getType()) != shapeOf(getType()))
    return emitOpError("source and result shapes must be equal");
  if (!getElementTypeOrSelf(getType()).isInteger(64))
    return emitOpError("result elements must be i64");
  return success();
}

LogicalResult IntToPtrOp::verify() {
  if (shapeOf(getSrc().getType()) != shapeOf(getType()))
    return emitOpError("source and result shapes must be equal");
  if (!getElementTypeOrSelf(getSrc().getType()).isInteger(64))
    return emitOpError("source elements must be i64");
  return success();
}

LogicalResult BitcastOp::verify() {
  Type srcType = getSrc().getType(), resType = getType();
  if (isa<RankedTensorType>(srcType) != isa<RankedTensorType>(resType) ||
      shapeOf(srcType) != shapeOf(resType))
    return emitOpError("source and result shapes must be equal");
  bool srcPtr = isa<PointerType>(getElementTypeOrSelf(srcType));
  bool resPtr = isa<PointerType>(getElementTypeOrSelf(resType));
  if (srcPtr != resPtr)
    return emitOpError("cannot bitcast between pointers and numbers; use "
                       "tile.ptr_to_int or tile.int_to_ptr");
  if (elementBitWidth(srcType) != elementBitWidth(resType))
    return emitOpError("element widths differ: ")
           << elementBitWidth(srcType) << " vs " << elementBitWidth(resType)
           << " bits";
  return success();
}

OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return {};
}

//===----------------------------------------------------------------------===//
// ElementwiseInlineAsmOp
//===----------------------------------------------------------------------===//

unsigned ElementwiseInlineAsmOp::getElementsPerRegister(Type type) {
  return tilec::getAsmElementsPerRegister(elementBitWidth(type),
                                          getPackedElement());
}

LogicalResult ElementwiseInlineAsmOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("needs at least one result");
  unsigned pack = getPackedElement();
  // The asm's registers per run of `pack` elements, results first: one per
  // value and per 32 bits' worth of its elements, as (element type,
  // elements per register).
  SmallVector<std::pair<Type, unsigned>> registers;
  int64_t resultRegisters = 0;
  for (auto [index, type] : llvm::enumerate(
           llvm::concat<const Type>(getResultTypes(), getOperandTypes()))) {
    Type elementType = getElementTypeOrSelf(type);
    if (elementType.isInteger(1))
      return emitOpError("cannot pass i1 values to inline asm; convert them "
                         "to a wider integer");
    unsigned perRegister = getElementsPerRegister(type);
    if (!llvm::isPowerOf2_32(perRegister))
      return emitOpError("packed_element (")
             << pack << ") must be a power of two for " << elementType
             << " elements, which share 32-bit registers";
    if (pack % perRegister != 0)
      return emitOpError("packed_element (")
             << pack << ") must be a multiple of the " << perRegister << " "
             << elementType << " elements a register holds";
    registers.append(pack / perRegister, {elementType, perRegister});
    if (index < getNumResults())
      resultRegisters += pack / perRegister;
  }
  tilec::AsmConstraints constraints;
  std::string why =
      tilec::parseAsmConstraints(getConstraints().str(), constraints);
  if (!why.empty())
    return emitOpError("constraints \"") << getConstraints() << "\": " << why;
  int64_t named = constraints.operands();
  if (named != static_cast<int64_t>(registers.size()) ||
      constraints.outputs != resultRegisters)
    return emitOpError("constraints \"")
           << getConstraints() << "\" name " << constraints.outputs
           << (constraints.outputs == 1 ? " output" : " outputs") << " and "
           << named - constraints.outputs
           << (named - constraints.outputs == 1 ? " input" : " inputs")
           << "; the asm takes " << resultRegisters << " and "
           << registers.size() - resultRegisters
           << " (results, then operands: one per register of "
           << "packed_element = " << pack << " elements)";
  for (auto [input, tied] : llvm::enumerate(constraints.inputTies))
    if (tied >= 0 && registers[tied] != registers[resultRegisters + input])
      return emitOpError("constraints \"")
             << getConstraints() << "\" tie input " << input << " to output "
             << tied << ", a register of another type";
  why = tilec::checkAsmTemplate(getAsmString().str(), named);
  if (!why.empty())
    return emitOpError("asm \"") << getAsmString() << "\": " << why;
  return success();
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

//===----------------------------------------------------------------------===//
// DotOp and ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto aType = getA().getType(), bType = getB().getType();
  auto cType = getAcc().getType();
  if (aType.getRank() != 2 || bType.getRank() != 2 || cType.getRank() != 2)
    return emitOpError("operands must be 2-D, got ")
           << shapeStr(aType.getShape()) << ", " << shapeStr(bType.getShape())
           << " and " << shapeStr(cType.getShape());
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1);
  int64_t kb = bType.getDimSize(0), n = bType.getDimSize(1);
  if (k != kb)
    return emitOpError("inner dimensions differ: a is ")
           << shapeStr(aType.getShape()) << ", b is "
           << shapeStr(bType.getShape());
  if (cType.getDimSize(0) != m || cType.getDimSize(1) != n)
    return emitOpError("accumulator shape ")
           << shapeStr(cType.getShape()) << " must be [" << m << ", " << n
           << "]";
  if (m < 16 || n < 16 || k < 16)
    return emitOpError("every dimension must be at least 16, got M=")
           << m << " N=" << n << " K=" << k;
  Type aElem = aType.getElementType(), bElem = bType.getElementType();
  Type cElem = cType.getElementType();
  if (aElem != bElem)
    return emitOpError("operand element types differ: ")
           << aElem << " and " << bElem;
  if (isa<Float16Type, BFloat16Type>(aElem) && !cElem.isF32())
    return emitOpError("f16/bf16 inputs accumulate in f32, got ") << cElem;
  if (aElem.isF32() && !cElem.isF32())
    return emitOpError("f32 inputs accumulate in f32, got ") << cElem;
  if (aElem.isF64())
    return emitOpError("f64 inputs are not supported");
  return success();
}

LogicalResult ReduceOp::verify() {
  auto srcType = getSrc().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= srcType.getRank())
    return emitOpError("axis ") << axis << " out of range for a "
                                << srcType.getRank() << "-D source";
  bool isArg =
      getKind() == ReduceKind::ArgMax || getKind() == ReduceKind::ArgMin;
  Type element = srcType.getElementType();
  if (isa<PointerType>(element))
    return emitOpError("cannot reduce pointers");
  Type expectedElement = isArg ? IntegerType::get(getContext(), 32) : element;
  SmallVector<int64_t> shape(srcType.getShape());
  shape.erase(shape.begin() + axis);
  Type expected = shape.empty()
                      ? expectedElement
                      : Type(RankedTensorType::get(shape, expectedElement));
  // Layout encodings (added by layout assignment) are not checked here.
  auto resultTensor = dyn_cast<RankedTensorType>(getType());
  Type actual = resultTensor
                    ? Type(RankedTensorType::get(resultTensor.getShape(),
                                                 resultTensor.getElementType()))
                    : getType();
  if (actual != expected)
    return emitOpError("result type must be ")
           << expected << ", got " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// HintOp
//===----------------------------------------------------------------------===//

LogicalResult HintOp::verify() {
  size_t rank = std::max<size_t>(1, shapeOf(getType()).size());
  for (auto [name, values] :
       {std::pair<StringRef, std::optional<ArrayRef<int64_t>>>{
            "divisibility", getDivisibility()},
        {"contiguity", getContiguity()}}) {
    if (!values)
      continue;
    if (values->size() != rank)
      return emitOpError("'")
             << name << "' needs " << rank
             << " entries, one per dimension, got " << values->size();
    if (llvm::any_of(*values, [](int64_t v) { return v <= 0; }))
      return emitOpError("'") << name << "' entries must be positive";
  }
  return success();
}
