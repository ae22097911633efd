//===- LayoutUtils.h - What a layout says about a block ---------*- C++ -*-===//
//
// What the passes and the lowering ask of a layout applied to a block:
// registers per thread, the parameters of each encoding's structure, the
// default layout of a shape, equivalence, vector runs, scratch sizes. The
// layout function itself (register, lane, warp -> index) of every encoding
// is its LinearLayout (LinearLayoutConversions.h); getElementIndex
// evaluates it and the lowering emits it (LayoutIndexing.h).
//
// A distributed layout is a blocked layout, or a slice of one (possibly
// nested). Both are described by a DistributedLayout: the root blocked
// layout, the shape of the block extended to the root's rank (1 along
// sliced dimensions) and which root dimensions are the block's dimensions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_LAYOUTUTILS_H
#define TILEC_DIALECT_TILEGPU_IR_LAYOUTUTILS_H

#include "tilec/Dialect/TileGPU/IR/LinearLayout.h"
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
  /// Whether position `k` along root dim `d` lies past the block's extent,
  /// so that its registers repeat elements earlier positions hold.
  bool isRepeatedPosition(unsigned d, unsigned k) const {
    return getRegisterOffset(d, k) >= rootShape[d];
  }
  /// Stride of root dimension `d` in the lane id, and likewise in the warp id.
  unsigned getLaneStride(unsigned d) const;
  unsigned getWarpStride(unsigned d) const;
  /// Number of lanes (warps) along root dim `d` that hold distinct elements;
  /// the others hold duplicates because the block is smaller than a tile.
  unsigned getDistinctLanes(unsigned d) const;
  unsigned getDistinctWarps(unsigned d) const;
};

/// The accumulator layout of `mma.sync` m16n8 instructions (versionMajor 2)
/// applied to an [M, N] block: each warp owns 16 x 8 tiles, `warpsPerCTA`
/// [wm, wn] of them side by side (warp w is (w % wm, w / wm)), repeated
/// `repM` x `repN` times. Register (m, n, j) of lane l holds row
/// m*16*wm + warpM*16 + l/4 + 8*(j >= 2), column n*8*wn + warpN*8 +
/// 2*(l % 4) + j % 2; registers are numbered (m * repN + n) * 4 + j.
struct MmaLayout {
  MmaEncodingAttr mma;
  SmallVector<int64_t> shape;
  unsigned wm, wn;
  int64_t repM, repN;
  unsigned getNumRegisters() const { return repM * repN * 4; }
};
std::optional<MmaLayout> getMmaLayout(RankedTensorType type);

/// An operand of mma.sync: the registers of the A (opIdx 0, [M, K]) or B
/// (opIdx 1, [K, N]) fragments for every instruction of the dot, K in steps
/// of 8 * kWidth (kWidth elements per 32-bit register: 2 for f16/bf16, 1 for
/// tf32). A: per (m, k-step) 4 registers of kWidth elements: rows
/// groupID + 8*(p % 2), k = tig*kWidth + e + (p / 2) * kStep/2. B: per
/// (n, k-step) 2 registers: k = tig*kWidth + e + p * kStep/2, column groupID.
struct DotOperandLayout {
  DotOperandEncodingAttr encoding;
  MmaEncodingAttr mma;
  SmallVector<int64_t> shape;
  unsigned opIdx, kWidth, wm, wn;
  /// Repetitions along M (A) or N (B), and k-steps.
  int64_t rep, kSteps;
  unsigned getKStep() const { return 8 * kWidth; }
  unsigned getRegistersPerStep() const { return (opIdx == 0 ? 4 : 2) * kWidth; }
  unsigned getNumRegisters() const {
    return rep * kSteps * getRegistersPerStep();
  }
};
std::optional<DotOperandLayout> getDotOperandLayout(RankedTensorType type);

/// Where a tile of an `#tilegpu.nvmma_shared` layout keeps each element:
/// the contiguous dimension is cut into columns of `swizzle` bytes stored
/// one after the other (`rows * swizzle` bytes each); within a column, row
/// `r` starts at `r * swizzle` and its 16-byte chunks are XOR-swizzled by
/// the byte offset's bits 7.. (as wgmma reads them).
struct NVMMASharedLayout {
  unsigned swizzle, elementBytes;
  /// The contiguous dimension (order[0]) and the extents of both.
  unsigned contigDim;
  int64_t rows, contigExtent;
  int64_t getElementsPerRow() const { return swizzle / elementBytes; }
  /// Bytes between columns (consecutive swizzle-wide slices).
  int64_t getColumnStride() const { return rows * swizzle; }
  /// The byte offset, before swizzling, of the element at `row` along the
  /// other dimension and `col` along the contiguous one.
  int64_t getOffset(int64_t row, int64_t col) const;
  /// `offset` with its 16-byte chunk XORed by its 128-byte row.
  int64_t applySwizzle(int64_t offset) const;
  int64_t getSizeInBytes() const { return rows * contigExtent * elementBytes; }
};
std::optional<NVMMASharedLayout> getNVMMASharedLayout(MemDescType type);

/// Byte alignment of the shared-memory buffers holding swizzled tiles.
constexpr int64_t kNVMMASharedAlignment = 1024;
/// Bytes of one tensor map (CUtensorMap), in global and shared memory.
constexpr int64_t kTensorMapBytes = 128;

/// The number of warps a layout is for.
unsigned getLayoutNumWarps(Attribute layout);

/// The index of the element held by (reg, lane, warp) for any layout that
/// has registers (blocked, slices of any, mma, dot_op), or std::nullopt:
/// its LinearLayout evaluated.
std::optional<SmallVector<int64_t>> getElementIndex(RankedTensorType type,
                                                    unsigned reg, unsigned lane,
                                                    unsigned warp);

/// The distributed description of `type` (a ranked tensor whose encoding is
/// blocked or slice), or std::nullopt for other encodings.
std::optional<DistributedLayout> getDistributedLayout(RankedTensorType type);

/// Registers per thread of a block of type `type`; 1 for a scalar.
unsigned getNumRegisters(Type type);

/// Whether `layout` is a blocked or slice layout.
bool isDistributedLayout(Attribute layout);

/// Whether `layout` assigns registers to threads (blocked, slice, mma or
/// dot-operand), so a block of it lowers to a struct of registers.
bool hasRegisterLayout(Attribute layout);

/// The default blocked layout of a block of `shape` for `numWarps` warps:
/// one element per thread, lanes then warps spread over the dimensions from
/// the fastest (the last) to the slowest.
BlockedEncodingAttr
getDefaultBlockedLayout(MLIRContext *context, ArrayRef<int64_t> shape,
                        unsigned numWarps,
                        ArrayRef<unsigned> sizePerThread = {});

/// A blocked layout for `shape` with the given order (fastest dimension
/// first) and elements per thread: lanes then warps spread over the
/// dimensions in `order`.
BlockedEncodingAttr getBlockedLayout(MLIRContext *context,
                                     ArrayRef<int64_t> shape, unsigned numWarps,
                                     ArrayRef<unsigned> sizePerThread,
                                     ArrayRef<unsigned> order);

/// Inserts a `tilegpu.convert_layout` before every op whose operand has
/// another layout than the op needs: elementwise ops want their result's
/// layout, `broadcast` its result's, `expand_dims` the slice of its
/// result's, `dot` its accumulator in the result's, and terminators the
/// types of what they yield into.
void insertLayoutConversions(Operation *root);

/// Gives the memory access `op` its own layout: a load's result (and so its
/// pointer, mask and other, through the conversions insertLayoutConversions
/// adds afterwards) or a store's pointer (and so its value and mask) take
/// `layout`; the loaded block is converted back for its users.
void giveOwnLayout(Operation *op, BlockedEncodingAttr layout);

/// `type` with encoding `layout`.
RankedTensorType withLayout(RankedTensorType type, Attribute layout);

/// Whether two layouts of blocks of `shape` put every element in the same
/// register of the same thread, so a conversion between them moves nothing.
bool layoutsAreEquivalent(RankedTensorType a, RankedTensorType b);

/// Bytes one element of `type` takes in shared memory (i1 as a byte,
/// pointers as 8 bytes).
unsigned getSharedElementBytes(Type elementType);

/// Bytes of the elements of a shared buffer of `type` (before alignment).
int64_t getSharedBufferBytes(MemDescType type);

/// Halves of padding after each row of a 16-bit tile staged in shared
/// memory for `ldmatrix` (keeps the 8 rows one ldmatrix reads in distinct
/// banks).
constexpr int64_t kLdmatrixRowPadding = 8;

/// Whether a conversion from `src` to `dst` goes through the ldmatrix path:
/// a 16-bit blocked block to a dot-operand layout of 16-bit elements.
bool isLdmatrixConversion(RankedTensorType src, RankedTensorType dst);

/// The type of `tilegpu.memdesc_trans` of a tile of `type`: the shape and
/// the encoding's order reversed; null unless `type` is 2-D with an
/// nvmma_shared encoding (the layouts whose readers take either order).
MemDescType getTransposedMemDesc(MemDescType type);

/// Whether a `tilegpu.local_load` from `src` to `dst` reads with ldmatrix:
/// a swizzled tile of 16-bit elements to whole dot-operand fragments.
bool isLdmatrixLoad(MemDescType src, RankedTensorType dst);

/// A `#tilegpu.nvmma_shared` layout for staging a block of `type` in shared
/// memory contiguous along `contigDim` (the widest swizzle that divides the
/// contiguous extent's bytes), or null if none does or the other extent is
/// not a multiple of 8.
Attribute getNVMMAStagingLayout(RankedTensorType type, unsigned contigDim);

/// Whether a conversion of `value` to `layout` at `site` would be removed
/// by recreating `value` there (convert_layout's canonicalization: splats,
/// ranges, splat constants and bounded expressions of them; inside a loop,
/// blocks defined outside it count as leaves).
bool isCheapToRecreate(Value value, Attribute layout, Operation *site);

/// An unswizzled row-major `#tilegpu.shared` layout for a tile of `rank`
/// dimensions (order `[rank-1, ..., 0]`): each element at its row-major
/// index. What a block staged by the thread that later reads it back
/// needs (no exchange between threads, so no swizzle).
Attribute getRowMajorSharedLayout(MLIRContext *context, unsigned rank);

/// Whether `type` is laid out row-major without swizzling: a
/// `#tilegpu.shared` layout with `vec = perPhase = maxPhase = 1` whose order
/// lists its last `order.size()` dimensions fastest first; any dimensions
/// before those (the slots of a ring of tiles) are outermost.
bool isRowMajorShared(MemDescType type);

/// The longest run (a power of two, at most `maxElements`) such that in
/// every thread, each aligned group of that many consecutive registers of
/// a block of `type` holds consecutive elements along the last dimension,
/// the first at a multiple of the run; 1 when there is none.
unsigned getContiguousRegisterRun(RankedTensorType type, unsigned maxElements);

/// Checks that every block (ranked tensor) in `module` has a tilegpu
/// layout, as the tilegpu passes assume: emits an error naming `passName`
/// at the first one without (tile-level IR given to a tilegpu pass) and
/// fails.
LogicalResult verifyBlocksHaveLayouts(Operation *module, StringRef passName);

/// How a reduction along `axis` meets a layout: which register, lane and
/// warp bits step along the axis (to be combined), and which are zero
/// (copies, to be skipped). Every other bit moves only other dimensions.
struct ReductionBits {
  int32_t registerAxis = 0, registerZero = 0;
  int32_t laneAxis = 0;
  int32_t warpAxis = 0;
};

/// The bits of `layout` along `axis`, or std::nullopt if some basis moves
/// both the axis and another dimension.
std::optional<ReductionBits> getReductionBits(const LinearLayout &layout,
                                              unsigned axis);

/// One hardware bit that steps along a scan's axis: a register, lane or
/// warp bit of the layout, and the power of two (`significance`) it adds to
/// the axis index.
struct ScanBit {
  enum class Level { Register, Lane, Warp };
  Level level;
  unsigned bit;
  unsigned significance;
};

/// The bits of `layout` that step along `axis`, by increasing significance,
/// when each moves the axis index alone by a distinct power of two covering
/// the whole axis (every register, slice and mma layout); std::nullopt
/// otherwise. Zero (copy) bits are left out.
std::optional<SmallVector<ScanBit>> getScanBits(const LinearLayout &layout,
                                                unsigned axis);

/// The byte offsets of consecutive sections of `slots` elements of each of
/// `types` (each aligned to its element, at least 4 bytes), then the end of
/// the last: the scratch of cross-warp reductions and scans.
SmallVector<int64_t> getScratchSections(TypeRange types, int64_t slots);

/// Whether more than one thread or register of the program holds some
/// element of a value of `type`: always for a scalar; for a block, where a
/// register, lane or warp bit of its layout moves no index (or the layout
/// is not known).
bool holdsCopies(Type type);

/// Bytes of shared-memory scratch `op` needs while it runs (0 if none):
/// cross-warp reductions and scans, layout conversions, trans, reshape, the
/// FMA dot,
/// atomics whose old values are used and held by several threads (the
/// owner of each element passes it on, one slot per element plus one that
/// the other threads write to), and a tensor map being built (its 128
/// bytes are assembled in shared memory, then copied to its global slot).
int64_t getScratchBytes(Operation *op);

/// The alignment of `op`'s scratch in bytes: 128 for a tensor map (as
/// `tensormap.replace` and `tensormap.cp_fenceproxy` require), else 16.
int64_t getScratchAlignment(Operation *op);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_LAYOUTUTILS_H
