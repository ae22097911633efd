//===- LayoutFunctions.h - Layout functions over any arithmetic -*- C++ -*-===//
//
// The one definition of each layout function: which element of a block
// register `reg` of lane `lane` of warp `warp` holds (blocked and slice,
// mma accumulator, mma operand layouts), and where a swizzled shared-memory
// tile keeps an element. Each is written once, over an index arithmetic
// `A`, and instantiated twice:
//  - IntIndexArith (below) evaluates it for one thread at compile time
//    (LayoutUtils.cpp: getElementIndex, NVMMASharedLayout::getOffset);
//  - the tilegpu to LLVM lowering's IRIndexArith emits it as i32 LLVM ops
//    for the running thread (lib/Conversion/TileGPUToLLVM/LayoutIndexing.h).
//
// An arithmetic provides `using Value = ...;` and `constant(int64_t)`,
// `add`, `mul`, `udiv`, `urem`, `lshr`, `shl`, `bitAnd` and `bitXor` on two
// values (operands are non-negative). The functions below build each
// operation in the order the generated code shows it, so that the emitted
// IR is the same however the arithmetic is chosen.
//
// Each layout function comes in two parts: the part of the index that
// depends on the thread alone (computed once per thread), and the index of
// one register given that part.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_LAYOUTFUNCTIONS_H
#define TILEC_DIALECT_TILEGPU_IR_LAYOUTFUNCTIONS_H

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::tilegpu {

/// Index arithmetic on integers: evaluates a layout function statically.
struct IntIndexArith {
  using Value = int64_t;
  Value constant(int64_t value) const { return value; }
  Value add(Value a, Value b) const { return a + b; }
  Value mul(Value a, Value b) const { return a * b; }
  Value udiv(Value a, Value b) const { return a / b; }
  Value urem(Value a, Value b) const { return a % b; }
  Value lshr(Value a, Value b) const { return a >> b; }
  Value shl(Value a, Value b) const { return a << b; }
  Value bitAnd(Value a, Value b) const { return a & b; }
  Value bitXor(Value a, Value b) const { return a ^ b; }
};

namespace layout_function {

/// `value + constant`.
template <typename A>
typename A::Value addConstant(A &a, typename A::Value value, int64_t constant) {
  return a.add(value, a.constant(constant));
}

/// `(value >> shift) & mask`: a coordinate packed in a thread id.
template <typename A>
typename A::Value shiftAnd(A &a, typename A::Value value, unsigned shift,
                           unsigned mask) {
  if (shift)
    value = a.lshr(value, a.constant(shift));
  return a.bitAnd(value, a.constant(mask));
}

/// The coordinate held in bits of a thread id along a dimension of `count`
/// positions (a power of two) `stride` ids apart.
template <typename A>
typename A::Value getIdCoordinate(A &a, typename A::Value id, unsigned stride,
                                  unsigned count) {
  return shiftAnd(a, id, llvm::Log2_32(stride), count - 1);
}

/// `value mod size`: the wrap-around of blocks smaller than a layout tile.
template <typename A>
typename A::Value wrap(A &a, typename A::Value value, int64_t size) {
  if (llvm::isPowerOf2_64(size))
    return a.bitAnd(value, a.constant(size - 1));
  return a.urem(value, a.constant(size));
}

} // namespace layout_function

//===----------------------------------------------------------------------===//
// Blocked and slice layouts
//===----------------------------------------------------------------------===//

/// The coordinate of `lane` along root dimension `d` of a distributed
/// layout (0 .. threadsPerWarp[d] - 1).
template <typename A>
typename A::Value getLaneCoordinate(const DistributedLayout &layout, A &a,
                                    typename A::Value lane, unsigned d) {
  return layout_function::getIdCoordinate(a, lane, layout.getLaneStride(d),
                                          layout.root.getThreadsPerWarp()[d]);
}

/// The coordinate of `warp` along root dimension `d` (0 .. warpsPerCTA[d]-1).
template <typename A>
typename A::Value getWarpCoordinate(const DistributedLayout &layout, A &a,
                                    typename A::Value warp, unsigned d) {
  return layout_function::getIdCoordinate(a, warp, layout.getWarpStride(d),
                                          layout.root.getWarpsPerCTA()[d]);
}

/// Per block dimension, the part of the index that depends on the thread:
/// `warpD * threadsPerWarp * sizePerThread + laneD * sizePerThread`.
template <typename A>
SmallVector<typename A::Value> getThreadPart(const DistributedLayout &layout,
                                             A &a, typename A::Value lane,
                                             typename A::Value warp) {
  SmallVector<typename A::Value> offsets;
  for (unsigned d : layout.blockDims) {
    unsigned spt = layout.root.getSizePerThread()[d];
    unsigned tpw = layout.root.getThreadsPerWarp()[d];
    auto laneD = getLaneCoordinate(layout, a, lane, d);
    auto warpD = getWarpCoordinate(layout, a, warp, d);
    offsets.push_back(a.add(a.mul(warpD, a.constant(tpw * spt)),
                            a.mul(laneD, a.constant(spt))));
  }
  return offsets;
}

/// The index of register `reg`: the thread part plus the register's
/// offset, wrapped around the block.
template <typename A>
SmallVector<typename A::Value>
getRegisterIndex(const DistributedLayout &layout, A &a,
                 ArrayRef<typename A::Value> threadPart, unsigned reg) {
  SmallVector<unsigned> coords = layout.getRegisterCoords(reg);
  SmallVector<typename A::Value> index;
  for (auto [i, d] : llvm::enumerate(layout.blockDims)) {
    auto value = layout_function::addConstant(
        a, threadPart[i], layout.getRegisterOffset(d, coords[d]));
    index.push_back(layout_function::wrap(a, value, layout.rootShape[d]));
  }
  return index;
}

//===----------------------------------------------------------------------===//
// mma.sync accumulators and operands
//===----------------------------------------------------------------------===//

namespace layout_function {
/// Lane id / 4 and lane id % 4: an mma fragment's row and column groups.
template <typename A>
std::pair<typename A::Value, typename A::Value>
getGroupAndThreadInGroup(A &a, typename A::Value lane) {
  auto groupId = shiftAnd(a, lane, 2, 7);
  auto tig = shiftAnd(a, lane, 0, 3);
  return {groupId, tig};
}
/// Warp `w`'s position along M (w % wm) and along N ((w / wm) % wn).
template <typename A>
typename A::Value getWarpM(A &a, typename A::Value warp, unsigned wm) {
  return a.urem(warp, a.constant(wm));
}
template <typename A>
typename A::Value getWarpN(A &a, typename A::Value warp, unsigned wm,
                           unsigned wn) {
  return a.urem(a.udiv(warp, a.constant(wm)), a.constant(wn));
}
} // namespace layout_function

/// {row, column} of the thread's first accumulator element:
/// warpM * 16 + lane / 4 and warpN * 8 + 2 * (lane % 4).
template <typename A>
SmallVector<typename A::Value> getThreadPart(const MmaLayout &layout, A &a,
                                             typename A::Value lane,
                                             typename A::Value warp) {
  using namespace layout_function;
  auto [groupId, tig] = getGroupAndThreadInGroup(a, lane);
  auto warpM = getWarpM(a, warp, layout.wm);
  auto warpN = getWarpN(a, warp, layout.wm, layout.wn);
  auto rowBase = a.add(a.mul(warpM, a.constant(16)), groupId);
  auto colBase = a.add(a.mul(warpN, a.constant(8)), a.mul(tig, a.constant(2)));
  return {rowBase, colBase};
}

/// Register (m, n, j), numbered (m * repN + n) * 4 + j: row
/// m*16*wm + 8*(j >= 2), column n*8*wn + j % 2 past the thread's.
template <typename A>
SmallVector<typename A::Value>
getRegisterIndex(const MmaLayout &layout, A &a,
                 ArrayRef<typename A::Value> threadPart, unsigned reg) {
  using namespace layout_function;
  unsigned j = reg % 4, tile = reg / 4;
  int64_t m = tile / layout.repN, n = tile % layout.repN;
  auto row =
      addConstant(a, threadPart[0], m * 16 * layout.wm + (j >= 2 ? 8 : 0));
  auto col = addConstant(a, threadPart[1], n * 8 * layout.wn + j % 2);
  return {wrap(a, row, layout.shape[0]), wrap(a, col, layout.shape[1])};
}

/// {k, M or N} of the thread's first operand element: k = (lane % 4) *
/// kWidth; along M (A) warpM * 16 + lane / 4, along N (B) warpN * 8 +
/// lane / 4.
template <typename A>
SmallVector<typename A::Value> getThreadPart(const DotOperandLayout &layout,
                                             A &a, typename A::Value lane,
                                             typename A::Value warp) {
  using namespace layout_function;
  auto [groupId, tig] = getGroupAndThreadInGroup(a, lane);
  auto kBase = a.mul(tig, a.constant(layout.kWidth));
  if (layout.opIdx == 0) {
    auto warpM = getWarpM(a, warp, layout.wm);
    return {kBase, a.add(a.mul(warpM, a.constant(16)), groupId)};
  }
  auto warpN = getWarpN(a, warp, layout.wm, layout.wn);
  return {kBase, a.add(a.mul(warpN, a.constant(8)), groupId)};
}

/// Register i of k-step `step` of repetition `outer` (see DotOperandLayout).
template <typename A>
SmallVector<typename A::Value>
getRegisterIndex(const DotOperandLayout &layout, A &a,
                 ArrayRef<typename A::Value> threadPart, unsigned reg) {
  using namespace layout_function;
  auto kBase = threadPart[0], outerBase = threadPart[1];
  unsigned kStep = layout.getKStep(), perStep = layout.getRegistersPerStep();
  unsigned i = reg % perStep, group = reg / perStep;
  int64_t outer = group / layout.kSteps, step = group % layout.kSteps;
  unsigned p = i / layout.kWidth, e = i % layout.kWidth;
  if (layout.opIdx == 0) {
    auto row = addConstant(a, outerBase, outer * 16 * layout.wm + (p % 2) * 8);
    auto k = addConstant(a, kBase, step * kStep + e + (p / 2) * (kStep / 2));
    return {wrap(a, row, layout.shape[0]), wrap(a, k, layout.shape[1])};
  }
  auto k = addConstant(a, kBase, step * kStep + e + p * (kStep / 2));
  auto col = addConstant(a, outerBase, outer * 8 * layout.wn);
  return {wrap(a, k, layout.shape[0]), wrap(a, col, layout.shape[1])};
}

//===----------------------------------------------------------------------===//
// Any register layout
//===----------------------------------------------------------------------===//

/// The index of every register of a thread, in register order.
template <typename Layout, typename A>
SmallVector<SmallVector<typename A::Value>>
getRegisterIndices(const Layout &layout, A &a, typename A::Value lane,
                   typename A::Value warp) {
  SmallVector<typename A::Value> threadPart =
      getThreadPart(layout, a, lane, warp);
  SmallVector<SmallVector<typename A::Value>> indices;
  for (unsigned reg = 0, e = layout.getNumRegisters(); reg < e; ++reg)
    indices.push_back(getRegisterIndex(layout, a, threadPart, reg));
  return indices;
}

//===----------------------------------------------------------------------===//
// Swizzled shared-memory tiles
//===----------------------------------------------------------------------===//

/// The byte offset, before swizzling, of the element at `row` along the
/// other dimension and `col` along the contiguous one: its swizzle-wide
/// column, its row in there, its place in the row.
template <typename A>
typename A::Value getUnswizzledOffset(const NVMMASharedLayout &layout, A &a,
                                      typename A::Value row,
                                      typename A::Value col) {
  int64_t perRow = layout.getElementsPerRow();
  unsigned perRowLog = llvm::Log2_64(perRow);
  auto column = a.lshr(col, a.constant(perRowLog));
  auto inRow = a.bitAnd(col, a.constant(perRow - 1));
  return a.add(a.mul(column, a.constant(layout.getColumnStride())),
               a.add(a.mul(row, a.constant(layout.swizzle)),
                     a.mul(inRow, a.constant(layout.elementBytes))));
}

/// `offset` with its 16-byte chunk XORed by its 128-byte row.
template <typename A>
typename A::Value applySwizzle(const NVMMASharedLayout &layout, A &a,
                               typename A::Value offset) {
  auto phase =
      a.shl(layout_function::shiftAnd(a, offset, 7, layout.swizzle / 16 - 1),
            a.constant(4));
  return a.bitXor(offset, phase);
}

/// The byte offset of the element at (`row`, `col`) of a swizzled tile.
template <typename A>
typename A::Value getSwizzledOffset(const NVMMASharedLayout &layout, A &a,
                                    typename A::Value row,
                                    typename A::Value col) {
  return applySwizzle(layout, a, getUnswizzledOffset(layout, a, row, col));
}

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_LAYOUTFUNCTIONS_H
