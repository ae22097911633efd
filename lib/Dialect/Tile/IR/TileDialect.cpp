//===- TileDialect.cpp - The tile dialect and its types -------------------===//
//
// Registers the tile dialect's types and operations, verifies the pointer
// type and the blocks of tile ops and of `tile.kernel` functions (static,
// rank >= 1, power-of-two dimensions, at most 2^20 elements), materializes
// constants for folders and defines the small type helpers the op
// definitions use.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "tilec/Support/Limits.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tilec/Dialect/Tile/IR/TileDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType) {
  if (isa<IntegerType>(pointeeType) &&
      cast<IntegerType>(pointeeType).isSignless())
    return success();
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type, Float8E4M3FNType,
          Float8E5M2Type>(pointeeType))
    return success();
  return emitError() << "pointee type must be a signless integer or a "
                        "floating-point type, got "
                     << pointeeType;
}

Type mlir::tile::getPointeeTypeLike(Type ptrLike) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptrLike)) {
    auto ptr = dyn_cast<PointerType>(tensor.getElementType());
    if (!ptr)
      return Type();
    return RankedTensorType::get(tensor.getShape(), ptr.getPointeeType(),
                                 tensor.getEncoding());
  }
  if (auto ptr = dyn_cast<PointerType>(ptrLike))
    return ptr.getPointeeType();
  return Type();
}

Type mlir::tile::getI1TypeLike(Type type) {
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), i1, tensor.getEncoding());
  return i1;
}

LogicalResult mlir::tile::verifyBlockType(Operation *op, Type type,
                                          llvm::StringRef what) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor)
    return success();
  auto ranked = dyn_cast<RankedTensorType>(tensor);
  if (!ranked || !ranked.hasStaticShape())
    return op->emitOpError()
           << what << " " << type << " must have a static shape";
  if (ranked.getRank() == 0)
    return op->emitOpError() << what << " " << type
                             << " must have rank 1 or more (a scalar is not "
                                "a block)";
  for (int64_t d : ranked.getShape()) {
    if (d < 1)
      return op->emitOpError()
             << what << " " << type << " has a dimension of size " << d;
    // As in the language (docs/spec.md section 1.3): the layouts the blocks
    // get map bits of an index, so they describe power-of-two extents only.
    if (!llvm::isPowerOf2_64(static_cast<uint64_t>(d)))
      return op->emitOpError()
             << what << " " << type << " has a dimension of size " << d
             << ", not a power of two";
  }
  if (tilec::exceedsMaxBlockElements(ranked.getShape()))
    return op->emitOpError() << what << " " << type << " has more than "
                             << tilec::kMaxBlockElements << " (2^20) elements";
  return success();
}

LogicalResult mlir::tile::verifyBlockTypes(Operation *op) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifyBlockType(op, type, "operand #" + std::to_string(i))))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(verifyBlockType(op, type, "result #" + std::to_string(i))))
      return failure();
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() != kKernelAttrName)
    return success();
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitOpError()
           << "'" << kKernelAttrName << "' must be a unit attribute";
  return verifyBlocksIn(op);
}

LogicalResult mlir::tile::verifyBlocksIn(Operation *root) {
  WalkResult result = root->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(verifyBlockType(op, arg.getType(),
                                     "block argument #" +
                                         std::to_string(arg.getArgNumber()))))
            return WalkResult::interrupt();
    if (failed(verifyBlockTypes(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

int64_t mlir::tile::getNumElements(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getNumElements();
  return 1;
}

bool mlir::tile::isZeroConstant(Attribute attr) {
  if (!attr)
    return false;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return intAttr.getValue().isZero();
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValue().isPosZero();
  return false;
}
