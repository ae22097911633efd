//===- LayoutIndexing.cpp - Element indices of a thread's registers -------===//
//
// Thread ids and the layout functions of blocked, slice, mma and
// dot-operand layouts emitted as i32 arithmetic.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "LLVMBuilders.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

ThreadIds mlir::tilegpu::getThreadIds(OpBuilder &builder, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value lane =
      LLVM::AndOp::create(builder, loc, tid, createI32(builder, loc, 31));
  Value warp =
      LLVM::LShrOp::create(builder, loc, tid, createI32(builder, loc, 5));
  return {lane, warp};
}

namespace {

Value addConstant(OpBuilder &builder, Location loc, Value value,
                  int64_t constant) {
  return LLVM::AddOp::create(builder, loc, value,
                             createI32(builder, loc, constant));
}

/// `value mod size` for the wrap-around of blocks smaller than a layout tile.
Value wrap(OpBuilder &builder, Location loc, Value value, int64_t size) {
  if (llvm::isPowerOf2_64(size))
    return LLVM::AndOp::create(builder, loc, value,
                               createI32(builder, loc, size - 1));
  return LLVM::URemOp::create(builder, loc, value,
                              createI32(builder, loc, size));
}

/// emitIndices for mma accumulators and dot operands (see LayoutUtils.h
/// for the layout functions these evaluate).
SmallVector<SmallVector<Value>> emitTensorCoreIndices(OpBuilder &builder,
                                                      Location loc,
                                                      RankedTensorType type,
                                                      const ThreadIds &ids) {
  SmallVector<SmallVector<Value>> indices;
  Value groupId = shiftAnd(builder, loc, ids.lane, 2, 7);
  Value tig = shiftAnd(builder, loc, ids.lane, 0, 3);
  if (auto mma = tilegpu::getMmaLayout(type)) {
    Value warpM = LLVM::URemOp::create(builder, loc, ids.warp,
                                       createI32(builder, loc, mma->wm));
    Value warpN = LLVM::URemOp::create(
        builder, loc,
        LLVM::UDivOp::create(builder, loc, ids.warp,
                             createI32(builder, loc, mma->wm)),
        createI32(builder, loc, mma->wn));
    Value rowBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpM, createI32(builder, loc, 16)),
        groupId);
    Value colBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpN, createI32(builder, loc, 8)),
        LLVM::MulOp::create(builder, loc, tig, createI32(builder, loc, 2)));
    for (unsigned reg = 0; reg < mma->getNumRegisters(); ++reg) {
      unsigned j = reg % 4, tile = reg / 4;
      int64_t m = tile / mma->repN, n = tile % mma->repN;
      Value row = addConstant(builder, loc, rowBase,
                              m * 16 * mma->wm + (j >= 2 ? 8 : 0));
      Value col = addConstant(builder, loc, colBase, n * 8 * mma->wn + j % 2);
      indices.push_back({wrap(builder, loc, row, mma->shape[0]),
                         wrap(builder, loc, col, mma->shape[1])});
    }
    return indices;
  }
  auto dot = tilegpu::getDotOperandLayout(type);
  if (!dot)
    return indices;
  unsigned kStep = dot->getKStep(), perStep = dot->getRegistersPerStep();
  Value kBase = LLVM::MulOp::create(builder, loc, tig,
                                    createI32(builder, loc, dot->kWidth));
  Value outerBase;
  if (dot->opIdx == 0) {
    Value warpM = LLVM::URemOp::create(builder, loc, ids.warp,
                                       createI32(builder, loc, dot->wm));
    outerBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpM, createI32(builder, loc, 16)),
        groupId);
  } else {
    Value warpN = LLVM::URemOp::create(
        builder, loc,
        LLVM::UDivOp::create(builder, loc, ids.warp,
                             createI32(builder, loc, dot->wm)),
        createI32(builder, loc, dot->wn));
    outerBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpN, createI32(builder, loc, 8)),
        groupId);
  }
  for (unsigned reg = 0; reg < dot->getNumRegisters(); ++reg) {
    unsigned i = reg % perStep, group = reg / perStep;
    int64_t outer = group / dot->kSteps, step = group % dot->kSteps;
    unsigned p = i / dot->kWidth, e = i % dot->kWidth;
    if (dot->opIdx == 0) {
      Value row = addConstant(builder, loc, outerBase,
                              outer * 16 * dot->wm + (p % 2) * 8);
      Value k = addConstant(builder, loc, kBase,
                            step * kStep + e + (p / 2) * (kStep / 2));
      indices.push_back({wrap(builder, loc, row, dot->shape[0]),
                         wrap(builder, loc, k, dot->shape[1])});
    } else {
      Value k =
          addConstant(builder, loc, kBase, step * kStep + e + p * (kStep / 2));
      Value col = addConstant(builder, loc, outerBase, outer * 8 * dot->wn);
      indices.push_back({wrap(builder, loc, k, dot->shape[0]),
                         wrap(builder, loc, col, dot->shape[1])});
    }
  }
  return indices;
}
} // namespace

SmallVector<SmallVector<Value>>
mlir::tilegpu::emitIndices(OpBuilder &builder, Location loc,
                           RankedTensorType type, const ThreadIds &ids) {
  std::optional<tilegpu::DistributedLayout> layout =
      tilegpu::getDistributedLayout(type);
  SmallVector<SmallVector<Value>> indices;
  if (!layout)
    return emitTensorCoreIndices(builder, loc, type, ids);
  tilegpu::BlockedEncodingAttr root = layout->root;
  // The part of the index that depends on the thread, per block dimension.
  SmallVector<Value> threadOffsets;
  for (unsigned d : layout->blockDims) {
    unsigned spt = root.getSizePerThread()[d];
    unsigned tpw = root.getThreadsPerWarp()[d];
    unsigned wpc = root.getWarpsPerCTA()[d];
    auto coordinate = [&](Value id, unsigned stride, unsigned count) {
      return shiftAnd(builder, loc, id, llvm::Log2_32(stride), count - 1);
    };
    Value laneD = coordinate(ids.lane, layout->getLaneStride(d), tpw);
    Value warpD = coordinate(ids.warp, layout->getWarpStride(d), wpc);
    Value offset = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpD,
                            createI32(builder, loc, tpw * spt)),
        LLVM::MulOp::create(builder, loc, laneD, createI32(builder, loc, spt)));
    threadOffsets.push_back(offset);
  }
  for (unsigned reg = 0, e = layout->getNumRegisters(); reg < e; ++reg) {
    SmallVector<unsigned> coords = layout->getRegisterCoords(reg);
    SmallVector<Value> index;
    for (auto [i, d] : llvm::enumerate(layout->blockDims)) {
      Value value = LLVM::AddOp::create(
          builder, loc, threadOffsets[i],
          createI32(builder, loc, layout->getRegisterOffset(d, coords[d])));
      int64_t size = layout->rootShape[d];
      if (llvm::isPowerOf2_64(size))
        value = LLVM::AndOp::create(builder, loc, value,
                                    createI32(builder, loc, size - 1));
      else
        value = LLVM::URemOp::create(builder, loc, value,
                                     createI32(builder, loc, size));
      index.push_back(value);
    }
    indices.push_back(index);
  }
  return indices;
}

Value mlir::tilegpu::shiftAnd(OpBuilder &builder, Location loc, Value value,
                              unsigned shift, unsigned mask) {
  if (shift)
    value = LLVM::LShrOp::create(builder, loc, value,
                                 createI32(builder, loc, shift));
  return LLVM::AndOp::create(builder, loc, value,
                             createI32(builder, loc, mask));
}

Value mlir::tilegpu::linearizeIndex(OpBuilder &builder, Location loc,
                                    ArrayRef<Value> index,
                                    ArrayRef<int64_t> shape) {
  Value linear = createI32(builder, loc, 0);
  for (auto [value, size] : llvm::zip(index, shape)) {
    linear = LLVM::MulOp::create(builder, loc, linear,
                                 createI32(builder, loc, size));
    linear = LLVM::AddOp::create(builder, loc, linear, value);
  }
  return linear;
}
