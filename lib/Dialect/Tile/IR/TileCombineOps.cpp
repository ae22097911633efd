//===- TileCombineOps.cpp - Verifiers of tile.scan and combine_reduce -----===//
//
// The rules shared by the ops whose combine region is a user's function
// (`tl.associative_scan`, `tl.reduce`): sources of one shape, an axis in
// range, a region taking the sources' element types twice and yielding them
// once, with no memory effects; and each op's result types.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// `type` without its layout encoding.
Type withoutEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType());
  return type;
}

/// The checks common to both ops; `elements` gets the sources' element
/// types.
LogicalResult verifyCombine(Operation *op, ValueRange srcs, ValueRange results,
                            int64_t axis, Region &combine,
                            SmallVectorImpl<Type> &elements) {
  if (srcs.empty())
    return op->emitOpError("needs at least one source");
  auto first = cast<RankedTensorType>(srcs.front().getType());
  for (Value src : srcs) {
    auto type = cast<RankedTensorType>(src.getType());
    if (type.getShape() != first.getShape())
      return op->emitOpError("sources must have one shape, got ")
             << withoutEncoding(first) << " and " << withoutEncoding(type);
    Type element = type.getElementType();
    if (!element.isIntOrFloat() ||
        isa<Float8E4M3FNType, Float8E5M2Type>(element))
      return op->emitOpError("cannot combine elements of type ") << element;
    elements.push_back(element);
  }
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ")
           << axis << " out of range for a " << first.getRank() << "-D source";
  if (!combine.hasOneBlock())
    return op->emitOpError("combine region must have one block");
  Block &block = combine.front();
  SmallVector<Type> expected(elements.begin(), elements.end());
  expected.append(elements.begin(), elements.end());
  if (block.getArgumentTypes() != ArrayRef<Type>(expected)) {
    InFlightDiagnostic diag = op->emitOpError("combine region must take ")
                              << expected.size() << " arguments of types (";
    llvm::interleaveComma(expected, diag);
    return diag << ")";
  }
  // An empty block has no terminator to ask for.
  auto yield = block.empty() ? CombineYieldOp()
                             : dyn_cast<CombineYieldOp>(&block.back());
  if (!yield)
    return op->emitOpError("combine region must end with tile.combine_yield");
  if (yield.getValues().getTypes() != ArrayRef<Type>(elements)) {
    InFlightDiagnostic diag = yield.emitOpError("must yield ")
                              << elements.size() << " values of types (";
    llvm::interleaveComma(elements, diag);
    return diag << ")";
  }
  for (Operation &inner : block.without_terminator())
    if (!isMemoryEffectFree(&inner) || inner.getNumRegions() != 0 ||
        llvm::any_of(inner.getResultTypes(), llvm::IsaPred<ShapedType>))
      return inner.emitOpError(
          "is not allowed in a combine region (it computes on scalars, "
          "without memory effects or regions)");
  if (results.size() != srcs.size())
    return op->emitOpError("needs one result per source, got ")
           << results.size() << " for " << srcs.size();
  return success();
}
} // namespace

LogicalResult ScanOp::verify() {
  SmallVector<Type> elements;
  if (failed(verifyCombine(*this, getSrcs(), getResults(), getAxis(),
                           getCombine(), elements)))
    return failure();
  for (auto [src, result] : llvm::zip(getSrcs(), getResults()))
    if (withoutEncoding(src.getType()) != withoutEncoding(result.getType()))
      return emitOpError("result type must be ")
             << withoutEncoding(src.getType()) << ", got " << result.getType();
  return success();
}

LogicalResult CombineReduceOp::verify() {
  SmallVector<Type> elements;
  if (failed(verifyCombine(*this, getSrcs(), getResults(), getAxis(),
                           getCombine(), elements)))
    return failure();
  SmallVector<int64_t> shape(
      cast<RankedTensorType>(getSrcs().front().getType()).getShape());
  shape.erase(shape.begin() + getAxis());
  for (auto [element, result] : llvm::zip(elements, getResults())) {
    Type expected =
        shape.empty() ? element : Type(RankedTensorType::get(shape, element));
    if (withoutEncoding(result.getType()) != expected)
      return emitOpError("result type must be ")
             << expected << ", got " << result.getType();
  }
  return success();
}
