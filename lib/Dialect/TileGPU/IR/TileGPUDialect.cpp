//===- TileGPUDialect.cpp - The tilegpu dialect, layouts, memdesc ---------===//
//
// Registers the tilegpu dialect, verifies layout attributes and prints and
// parses the memdesc type.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Support/CompileOptions.h"
#include "tilec/Support/Limits.h"

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
  int64_t perThread = 1, warps = 1;
  for (size_t d = 0; d < rank; ++d) {
    perThread *= sizePerThread[d];
    warps *= warpsPerCTA[d];
    if (perThread > tilec::kMaxBlockElements ||
        warps > tilec::CompileOptions::kMaxNumWarps)
      return emitError() << "at most " << tilec::kMaxBlockElements
                         << " elements per thread and "
                         << tilec::CompileOptions::kMaxNumWarps << " warps";
  }
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[d] = true;
  }
  return success();
}

namespace {
/// The rank of blocks a register layout applies to, or 0 when it has none.
unsigned getLayoutRank(Attribute layout) {
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(layout))
    return blocked.getRank();
  if (auto slice = dyn_cast<SliceEncodingAttr>(layout)) {
    unsigned parent = getLayoutRank(slice.getParent());
    return parent ? parent - 1 : 0;
  }
  if (isa<MmaEncodingAttr, DotOperandEncodingAttr>(layout))
    return 2;
  return 0;
}

/// What every register layout needs of the block it lays out: as many
/// dimensions as the layout has, each a power of two. A register layout is
/// a linear map over F2 from register, lane and warp bits to the bits of an
/// element's index (LinearLayoutConversions.cpp): it covers 2^k indices per
/// dimension, masked to the block's extent, so a dimension of 24 would be
/// covered as 16 or 32 (elements lost, or registers past the end of the
/// block). The frontend makes only such blocks (docs/spec.md section 1.3).
LogicalResult verifyLaidOutBlock(Attribute layout, ArrayRef<int64_t> shape,
                                 Type element,
                                 function_ref<InFlightDiagnostic()> emitError) {
  unsigned rank = getLayoutRank(layout);
  if (rank != shape.size())
    return emitError() << "a " << rank << "-D layout on a " << shape.size()
                       << "-D block";
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (ShapedType::isDynamic(size))
      return emitError() << "a block with a register layout needs a static "
                            "shape";
    if (size < 1 || !llvm::isPowerOf2_64(static_cast<uint64_t>(size)))
      return emitError() << "a block with a register layout needs "
                            "power-of-two dimensions, got "
                         << size << " in dimension " << dim;
  }
  // Each thread holds its registers' elements one value each: a layout
  // whose per-thread tile is far larger than the block (sizePerThread
  // [1024, 1024] on 16x16) would make the lowering build millions of
  // values. The frontend's blocks (kMaxBlockElements, one warp at least)
  // need at most kMaxBlockElements / 32 per thread.
  // (A block of more elements than that is the ops' error, not this.)
  constexpr int64_t kMaxRegisters = tilec::kMaxBlockElements / 32;
  if (element && !tilec::exceedsMaxBlockElements(shape)) {
    unsigned registers =
        getNumRegisters(RankedTensorType::get(shape, element, layout));
    if (registers > kMaxRegisters)
      return emitError() << "this layout gives each thread " << registers
                         << " registers of the block; at most "
                         << kMaxRegisters;
  }
  return success();
}
} // namespace

LogicalResult BlockedEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type element,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLaidOutBlock(*this, shape, element, emitError);
}
LogicalResult SliceEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type element,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLaidOutBlock(*this, shape, element, emitError);
}
LogicalResult MmaEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type element,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLaidOutBlock(*this, shape, element, emitError);
}
LogicalResult DotOperandEncodingAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type element,
    function_ref<InFlightDiagnostic()> emitError) const {
  return verifyLaidOutBlock(*this, shape, element, emitError);
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot operand index must be 0 (A) or 1 (B), got "
                       << opIdx;
  if (!isa<MmaEncodingAttr>(parent))
    return emitError() << "dot operand parent must be an mma layout";
  if (kWidth == 0 || kWidth > 8 || !llvm::isPowerOf2_32(kWidth))
    return emitError() << "kWidth must be 1, 2, 4 or 8, got " << kWidth;
  return success();
}

namespace {
/// What a `tile.dot` on tensor cores (mma.sync) needs of its layouts: an
/// f32 accumulator in an mma layout of version 2, `a` and `b` in that
/// layout's dot-operand layouts (opIdx 0 and 1), each packing a 32-bit
/// register per k-step (kWidth 2 for f16/bf16, 1 for f32 as tf32). The
/// lowering reads the registers in that form. A dot whose operands are in
/// dot-operand layouts must have such an accumulator.
LogicalResult verifyDotLayouts(tile::DotOp dot) {
  RankedTensorType aType = dot.getA().getType(), bType = dot.getB().getType();
  auto mma = dyn_cast_or_null<MmaEncodingAttr>(dot.getType().getEncoding());
  auto aDot = dyn_cast_or_null<DotOperandEncodingAttr>(aType.getEncoding());
  auto bDot = dyn_cast_or_null<DotOperandEncodingAttr>(bType.getEncoding());
  if (!mma) {
    if (aDot || bDot)
      return dot.emitOpError("operands in #tilegpu.dot_op layouts need an "
                             "accumulator in an #tilegpu.mma layout");
    return success();
  }
  if (mma.getVersionMajor() != 2)
    return dot.emitOpError("an accumulator in an #tilegpu.mma layout must be "
                           "of version 2 (mma.sync); version 3 is for "
                           "tilegpu.warp_group_dot");
  Type element = aType.getElementType();
  if (element != bType.getElementType() ||
      !(element.isF16() || element.isBF16() || element.isF32()) ||
      !dot.getType().getElementType().isF32())
    return dot.emitOpError("mma.sync takes f16, bf16 or f32 (tf32) operands "
                           "of one type and an f32 accumulator");
  unsigned kWidth = 32 / element.getIntOrFloatBitWidth();
  for (auto [name, layout, opIdx] :
       {std::tuple{"a", aDot, 0u}, std::tuple{"b", bDot, 1u}})
    if (!layout || layout.getParent() != mma || layout.getOpIdx() != opIdx ||
        layout.getKWidth() != kWidth)
      return dot.emitOpError()
             << "operand " << name
             << " of an mma.sync dot must have the accumulator's "
                "#tilegpu.dot_op layout with opIdx "
             << opIdx << " and kWidth " << kWidth << " (one 32-bit register of "
             << element << " per k-step)";
  return success();
}
} // namespace

LogicalResult
TileGPUDialect::verifyOperationAttribute(Operation *op,
                                         NamedAttribute attribute) {
  if (attribute.getName() != kNumWarpsAttrName)
    return success();
  auto warps = dyn_cast<IntegerAttr>(attribute.getValue());
  if (!warps || !isa<ModuleOp>(op) ||
      !tilec::CompileOptions::isValidNumWarps(warps.getInt()))
    return op->emitError() << kNumWarpsAttrName
                           << " must be a power of two in [1, "
                           << tilec::CompileOptions::kMaxNumWarps
                           << "] on a module";
  // Every register layout inside is for that many warps: a layout for more
  // would leave elements to warps that do not run, for fewer would repeat.
  WalkResult result = op->walk([&](Operation *inner) {
    if (auto dot = dyn_cast<tile::DotOp>(inner);
        dot && failed(verifyDotLayouts(dot)))
      return WalkResult::interrupt();
    for (Type type : llvm::concat<const Type>(inner->getOperandTypes(),
                                              inner->getResultTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !hasRegisterLayout(tensor.getEncoding()))
        continue;
      unsigned layoutWarps = getLayoutNumWarps(tensor.getEncoding());
      if (layoutWarps != warps.getInt()) {
        inner->emitOpError()
            << "has a layout for " << layoutWarps << " warps in a module of "
            << warps.getInt() << ": " << type;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
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
  return MemDescType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), params->shape, params->elementType,
      params->encoding);
}

void MemDescType::print(AsmPrinter &printer) const {
  printShapedShared(printer, getShape(), getElementType(), getEncoding());
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding) {
  if (!isa<SharedEncodingAttr, NVMMASharedEncodingAttr>(encoding))
    return emitError() << "shared-memory tiles need a #tilegpu.shared or "
                          "#tilegpu.nvmma_shared layout, got "
                       << encoding;
  if (shape.empty())
    return emitError() << "a shared-memory tile must have rank 1 or more";
  for (int64_t dim : shape)
    if (dim < 1)
      return emitError() << "a shared-memory tile has a dimension of size "
                         << dim;
  if (tilec::exceedsMaxBlockElements(shape))
    return emitError() << "a shared-memory tile has more than "
                       << tilec::kMaxBlockElements << " (2^20) elements";
  return success();
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
