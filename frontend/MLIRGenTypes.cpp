//===- MLIRGenTypes.cpp - The MLIR types of checked types -----------------===//
//
// Scalars (unsigned integers are the signless ones of their width, with
// unsigned operations), `!tile.ptr<T>` and ranked tensors of them.
//
//===----------------------------------------------------------------------===//

#include "MLIRGenParts.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

using namespace mlir;
using namespace tilec;

static Type convertScalar(Builder &builder, ScalarType kind) {
  switch (kind) {
  case ScalarType::I1:
    return builder.getI1Type();
  case ScalarType::I8:
  case ScalarType::U8:
    return builder.getI8Type();
  case ScalarType::I16:
  case ScalarType::U16:
    return builder.getI16Type();
  case ScalarType::I32:
  case ScalarType::U32:
    return builder.getI32Type();
  case ScalarType::I64:
  case ScalarType::U64:
    return builder.getI64Type();
  case ScalarType::F16:
    return builder.getF16Type();
  case ScalarType::BF16:
    return builder.getBF16Type();
  case ScalarType::F32:
    return builder.getF32Type();
  case ScalarType::F64:
    return builder.getF64Type();
  case ScalarType::F8E4M3:
    return builder.getType<Float8E4M3FNType>();
  case ScalarType::F8E5M2:
    return builder.getType<Float8E5M2Type>();
  }
  return Type();
}

Type tilec::convertType(MLIRContext &context, const TType &type) {
  Builder builder(&context);
  Type element = convertScalar(builder, type.elem);
  if (type.isPointer)
    element = tile::PointerType::get(&context, element);
  if (type.isScalar())
    return element;
  return RankedTensorType::get(type.shape, element);
}
