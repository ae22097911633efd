//===- LayoutUtils.h - What a layout says about a block ---------*- C++ -*-===//
//
// The one place that derives, from a layout and a block shape, which
// registers of which lane and warp hold which elements. Everything the
// lowering does with layouts (elementwise ops, loads, broadcasts, reductions,
// layout conversions) is built on these functions.
//
// A distributed layout is a blocked layout, or a slice of one (possibly
// nested). Both are described by a DistributedLayout: the root blocked
// layout, the shape of the block extended to the root's rank (1 along
// sliced dimensions) and which root dimensions are the block's dimensions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_LAYOUTUTILS_H
#define TILEC_DIALECT_TILEGPU_IR_LAYOUTUTILS_H

#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tilegpu {

/// A blocked layout, or a slice of one, applied to a block shape.
struct DistributedLayout {
  /// The root blocked layout.
  BlockedEncodingAttr root;
  /// The block's shape extended to the root's rank (1 along sliced dims).
  SmallVector<int64_t> rootShape;
  /// For each dimension of the block, its root dimension.
  SmallVector<unsigned> blockDims;
  /// Registers per thread along each root dimension (1 along sliced dims).
  SmallVector<unsigned> elemsPerThread;
  /// Elements covered by one tile of the layout along each root dimension.
  SmallVector<unsigned> tileShape;

  /// Total number of registers each thread holds.
  unsigned getNumRegisters() const;
  /// The position along each root dimension of register `reg` (k_d), with
  /// registers ordered by the root's `order`, fastest dimension first.
  SmallVector<unsigned> getRegisterCoords(unsigned reg) const;
  /// The register at the given per-root-dimension positions.
  unsigned getRegister(ArrayRef<unsigned> coords) const;
  /// The part of an element's index along root dim `d` that depends on the
  /// register alone: `(k / spt) * tile + k % spt`.
  unsigned getRegisterOffset(unsigned d, unsigned k) const;
  /// Stride of root dimension `d` in the lane id, and likewise in the warp id.
  unsigned getLaneStride(unsigned d) const;
  unsigned getWarpStride(unsigned d) const;
  /// Number of lanes (warps) along root dim `d` that hold distinct elements;
  /// the others hold duplicates because the block is smaller than a tile.
  unsigned getDistinctLanes(unsigned d) const;
  unsigned getDistinctWarps(unsigned d) const;
  /// The block index (one entry per block dimension) held by register `reg`
  /// of lane `lane` of warp `warp`, evaluated statically.
  SmallVector<int64_t> getElementIndex(unsigned reg, unsigned lane,
                                       unsigned warp) const;
};

/// The distributed description of `type` (a ranked tensor whose encoding is
/// blocked or slice), or std::nullopt for other encodings.
std::optional<DistributedLayout> getDistributedLayout(RankedTensorType type);

/// Registers per thread of a block of type `type`; 1 for a scalar.
unsigned getNumRegisters(Type type);

/// Whether `layout` is a blocked or slice layout.
bool isDistributedLayout(Attribute layout);

/// The default blocked layout of a block of `shape` for `numWarps` warps:
/// one element per thread, lanes then warps spread over the dimensions from
/// the fastest (the last) to the slowest.
BlockedEncodingAttr getDefaultBlockedLayout(MLIRContext *context,
                                            ArrayRef<int64_t> shape,
                                            unsigned numWarps,
                                            ArrayRef<unsigned> sizePerThread = {});

/// A blocked layout for `shape` with the given order (fastest dimension
/// first) and elements per thread: lanes then warps spread over the
/// dimensions in `order`.
BlockedEncodingAttr getBlockedLayout(MLIRContext *context,
                                     ArrayRef<int64_t> shape,
                                     unsigned numWarps,
                                     ArrayRef<unsigned> sizePerThread,
                                     ArrayRef<unsigned> order);

/// Inserts a `tilegpu.convert_layout` before every op whose operand has
/// another layout than the op needs: elementwise ops want their result's
/// layout, `broadcast` its result's, `expand_dims` the slice of its
/// result's, `dot` its accumulator in the result's, and terminators the
/// types of what they yield into.
void insertLayoutConversions(Operation *root);

/// `type` with encoding `layout`.
RankedTensorType withLayout(RankedTensorType type, Attribute layout);

/// Whether two layouts of blocks of `shape` put every element in the same
/// register of the same thread, so a conversion between them moves nothing.
bool layoutsAreEquivalent(RankedTensorType a, RankedTensorType b);

/// Bytes one element of `type` takes in shared memory (i1 as a byte,
/// pointers as 8 bytes).
unsigned getSharedElementBytes(Type elementType);

/// Bytes of shared-memory scratch `op` needs while it runs (0 if none):
/// cross-warp reductions, layout conversions, trans, reshape, the FMA dot.
int64_t getScratchBytes(Operation *op);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_LAYOUTUTILS_H
