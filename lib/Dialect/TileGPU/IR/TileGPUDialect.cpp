//===- TileGPUDialect.cpp - The tilegpu dialect, layouts, memdesc ---------===//
//
// Registers the tilegpu dialect, verifies layout attributes and prints and
// parses the memdesc type.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilec/Support/CompileOptions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"

namespace {
/// Prints layouts as aliases (`#blocked`, `#slice1`, ...) at the top of the
/// module instead of inline in every type.
struct TileGPUOpAsmInterface : OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr))
      os << "blocked";
    else if (isa<SliceEncodingAttr>(attr))
      os << "slice";
    else if (isa<SharedEncodingAttr, NVMMASharedEncodingAttr>(attr))
      os << "shared";
    else if (isa<MmaEncodingAttr>(attr))
      os << "mma";
    else if (isa<DotOperandEncodingAttr>(attr))
      os << "dot_op";
    else
      return AliasResult::NoAlias;
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TileGPUDialect::initialize() {
  addInterfaces<TileGPUOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/TileGPU/IR/TileGPUOps.cpp.inc"
      >();
}

unsigned mlir::tilegpu::getNumWarps(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (module)
    if (auto attr = module->getAttrOfType<IntegerAttr>(kNumWarpsAttrName))
      return attr.getInt();
  return tilec::CompileOptions::kDefaultNumWarps;
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0)
    return emitError() << "blocked layout needs at least one dimension";
  if (sizePerThread.size() != rank || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank)
    return emitError() << "sizePerThread, threadsPerWarp, warpsPerCTA and "
                          "order must have the same length";
  unsigned lanes = 1;
  for (size_t d = 0; d < rank; ++d) {
    for (unsigned v : {sizePerThread[d], threadsPerWarp[d], warpsPerCTA[d]})
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << "layout sizes must be powers of two, got " << v;
    lanes *= threadsPerWarp[d];
  }
  if (lanes != 32)
    return emitError() << "threadsPerWarp must multiply to 32, got " << lanes;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[d] = true;
  }
  return success();
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned warps = 1;
  for (unsigned w : getWarpsPerCTA())
    warps *= w;
  return warps;
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  // The rank of a slice is its root's minus the dimensions sliced away.
  Attribute root = parent;
  unsigned removed = 0;
  while (auto s = dyn_cast<SliceEncodingAttr>(root)) {
    root = s.getParent();
    ++removed;
  }
  unsigned rootRank;
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(root))
    rootRank = blocked.getRank();
  else if (isa<MmaEncodingAttr>(root))
    rootRank = 2;
  else
    return emitError() << "slice parent must be a blocked, mma or slice layout";
  if (removed >= rootRank)
    return emitError() << "slice of a slice with no dimension left";
  unsigned parentRank = rootRank - removed;
  if (dim >= parentRank)
    return emitError() << "slice dim " << dim << " out of range for a "
                       << parentRank << "-D parent";
  return success();
}

//===----------------------------------------------------------------------===//
// MemDescType
//===----------------------------------------------------------------------===//

namespace {
/// The parameters both shared-memory types print as
/// `<64x32xf16, #encoding>`.
struct ShapedSharedParams {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
};
} // namespace

static FailureOr<ShapedSharedParams> parseShapedShared(AsmParser &parser) {
  ShapedSharedParams params;
  if (parser.parseLess() ||
      parser.parseDimensionList(params.shape, /*allowDynamic=*/false) ||
      parser.parseType(params.elementType) || parser.parseComma() ||
      parser.parseAttribute(params.encoding) || parser.parseGreater())
    return failure();
  return params;
}

static void printShapedShared(AsmPrinter &printer, ArrayRef<int64_t> shape,
                              Type elementType, Attribute encoding) {
  printer << "<";
  for (int64_t dim : shape)
    printer << dim << "x";
  printer << elementType << ", " << encoding << ">";
}

Type MemDescType::parse(AsmParser &parser) {
  FailureOr<ShapedSharedParams> params = parseShapedShared(parser);
  if (failed(params))
    return Type();
  return MemDescType::get(parser.getContext(), params->shape,
                          params->elementType, params->encoding);
}

void MemDescType::print(AsmPrinter &printer) const {
  printShapedShared(printer, getShape(), getElementType(), getEncoding());
}

//===----------------------------------------------------------------------===//
// TensorMapType
//===----------------------------------------------------------------------===//

Type TensorMapType::parse(AsmParser &parser) {
  FailureOr<ShapedSharedParams> params = parseShapedShared(parser);
  if (failed(params))
    return Type();
  return TensorMapType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), params->shape, params->elementType,
      params->encoding);
}

void TensorMapType::print(AsmPrinter &printer) const {
  printShapedShared(printer, getBoxShape(), getElementType(), getEncoding());
}

LogicalResult
TensorMapType::verify(function_ref<InFlightDiagnostic()> emitError,
                      ArrayRef<int64_t> boxShape, Type elementType,
                      Attribute encoding) {
  auto layout = dyn_cast<NVMMASharedEncodingAttr>(encoding);
  if (!layout)
    return emitError() << "tensor map boxes need an nvmma_shared layout";
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32())
    return emitError() << "tensor map elements must be f16, bf16 or f32, got "
                       << elementType;
  if (boxShape.size() != 2)
    return emitError() << "tensor map boxes must be 2-D";
  unsigned contig = layout.getOrder()[0];
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  if (boxShape[contig] * bytes != layout.getSwizzle())
    return emitError() << "the box's contiguous dimension must span the "
                       << layout.getSwizzle() << "-byte swizzle, got "
                       << boxShape[contig] << " elements";
  if (boxShape[1 - contig] < 1 || boxShape[1 - contig] > 256 ||
      boxShape[1 - contig] % 8 != 0)
    return emitError() << "the box's other dimension must be a multiple of 8 "
                          "up to 256, got "
                       << boxShape[1 - contig];
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor-core layouts
//===----------------------------------------------------------------------===//

LogicalResult
NVMMASharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                unsigned swizzle, ArrayRef<unsigned> order) {
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "swizzle must be 32, 64 or 128 bytes, got "
                       << swizzle;
  if (order.size() != 2 || order[0] > 1 || order[1] != 1 - order[0])
    return emitError() << "order must be [1, 0] or [0, 1]";
  return success();
}

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned versionMajor, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (versionMajor != 2 && versionMajor != 3)
    return emitError() << "mma versionMajor must be 2 or 3, got "
                       << versionMajor;
  if (warpsPerCTA.size() != 2)
    return emitError() << "mma warpsPerCTA must have two entries";
  for (unsigned w : warpsPerCTA)
    if (w == 0 || !llvm::isPowerOf2_32(w))
      return emitError() << "mma warpsPerCTA must be powers of two, got " << w;
  if (versionMajor == 3 && (warpsPerCTA[0] % 4 != 0 || warpsPerCTA[1] != 1))
    return emitError() << "mma version 3 needs warpsPerCTA = [4k, 1]";
  return success();
}
