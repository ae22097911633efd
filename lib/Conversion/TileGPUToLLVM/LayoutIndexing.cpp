//===- LayoutIndexing.cpp - Layout functions emitted as IR ----------------===//
//
// Thread ids (the lane, and the warp made warp-uniform once per function),
// and linear layouts emitted as i32 LLVM ops: each output bit is an input
// bit moved by a shift, so an output is a few mask-and-shift terms of each
// input, combined with add (disjoint bits) or xor.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "LLVMBuilders.h"
#include "WarpShuffle.h"

#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"
#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <map>

using namespace mlir;
using namespace mlir::tilegpu;

/// Whether `op` is `shfl.sync.idx(tid.x >> 5, lane 0)`: the warp id made
/// warp-uniform.
static bool isUniformWarpId(Operation &op) {
  auto shuffle = dyn_cast<NVVM::ShflOp>(op);
  if (!shuffle || shuffle.getKind() != NVVM::ShflKind::idx ||
      !matchPattern(shuffle.getOffset(), m_Zero()))
    return false;
  auto shift = shuffle.getVal().getDefiningOp<LLVM::LShrOp>();
  APInt amount;
  return shift && shift.getLhs().getDefiningOp<NVVM::ThreadIdXOp>() &&
         matchPattern(shift.getRhs(), m_ConstantInt(&amount)) && amount == 5;
}

/// The warp id, computed once at the entry of the function holding the
/// builder's insertion point (where every lane of the warp takes part in
/// the shuffle) as `shfl.sync.idx(tid.x >> 5, 0)`: ptxas then knows it is
/// the same in every lane and keeps what is computed from it (warp-group
/// bases of wgmma descriptors, shared-memory offsets of a warp's rows) in
/// uniform registers, as Triton's lowering does. `tid.x >> 5` alone is a
/// per-lane value to ptxas: each descriptor costs an R2UR per use. With one
/// warp it is 0.
static Value getUniformWarpId(OpBuilder &builder, Location loc) {
  Operation *function = builder.getInsertionBlock()->getParentOp();
  while (function && !isa<FunctionOpInterface>(function))
    function = function->getParentOp();
  if (!function || function->getRegion(0).empty())
    return LLVM::LShrOp::create(
        builder, loc,
        NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type()),
        createI32(builder, loc, 5));
  if (getNumWarps(function) == 1)
    return createI32(builder, loc, 0);
  Block &entry = function->getRegion(0).front();
  for (Operation &op : entry)
    if (isUniformWarpId(op))
      return op.getResult(0);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&entry);
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value warp =
      LLVM::LShrOp::create(builder, loc, tid, createI32(builder, loc, 5));
  return createShuffle(builder, loc, warp, createI32(builder, loc, 0),
                       NVVM::ShflKind::idx);
}

ThreadIds mlir::tilegpu::getThreadIds(OpBuilder &builder, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value lane =
      LLVM::AndOp::create(builder, loc, tid, createI32(builder, loc, 31));
  return {lane, getUniformWarpId(builder, loc)};
}

/// `a + b` when no bit can be set in both (`aBits`, `bBits`), else `a ^ b`.
/// Without common bits the add cannot carry, and with bit 31 clear in both
/// it can wrap neither way: saying so (nuw nsw) lets LLVM widen an index
/// before the add (sext/zext of it distributes), so a 64-bit offset
/// computation keeps one multiply per thread instead of one per register.
static Value combineBits(OpBuilder &builder, Location loc, Value a,
                         uint64_t aBits, Value b, uint64_t bBits) {
  if (aBits & bBits)
    return LLVM::XOrOp::create(builder, loc, a, b);
  auto flags =
      ((aBits | bBits) >> 31) == 0
          ? LLVM::IntegerOverflowFlags::nsw | LLVM::IntegerOverflowFlags::nuw
          : LLVM::IntegerOverflowFlags::none;
  return LLVM::AddOp::create(builder, loc, a, b, flags);
}

SmallVector<EmittedBits>
mlir::tilegpu::emitLinearMap(OpBuilder &builder, Location loc,
                             const LinearLayout &layout,
                             ArrayRef<Value> inputs) {
  SmallVector<EmittedBits> outputs(layout.getOutputs().size());
  for (auto [o, result] : llvm::enumerate(outputs)) {
    for (auto [in, value] : llvm::zip(layout.getInputs(), inputs)) {
      if (!value)
        continue;
      // Input bit i sets output bit j for every bit j of basis i: group the
      // pairs by shift j - i, one mask-and-shift per group.
      std::map<int, uint64_t> inputBitsByShift;
      for (auto [i, basis] : llvm::enumerate(in.bases))
        for (unsigned j = 0; j < 31; ++j)
          if ((basis[o] >> j) & 1)
            inputBitsByShift[int(j) - int(i)] |= uint64_t(1) << i;
      for (auto [shift, mask] : inputBitsByShift) {
        Value term;
        uint64_t bits;
        if (shift >= 0) {
          term = LLVM::AndOp::create(builder, loc, value,
                                     createI32(builder, loc, mask));
          if (shift)
            term = LLVM::ShlOp::create(builder, loc, term,
                                       createI32(builder, loc, shift));
          bits = mask << shift;
        } else {
          term = LLVM::LShrOp::create(builder, loc, value,
                                      createI32(builder, loc, -shift));
          bits = mask >> -shift;
          term = LLVM::AndOp::create(builder, loc, term,
                                     createI32(builder, loc, bits));
        }
        result.value = result.value ? combineBits(builder, loc, result.value,
                                                  result.bits, term, bits)
                                    : term;
        result.bits |= bits;
      }
    }
  }
  return outputs;
}

Value mlir::tilegpu::addConstantBits(OpBuilder &builder, Location loc,
                                     const EmittedBits &value,
                                     int64_t constant) {
  if (!value.value)
    return createI32(builder, loc, constant);
  if (!constant)
    return value.value;
  return combineBits(builder, loc, value.value, value.bits,
                     createI32(builder, loc, constant), uint64_t(constant));
}

SmallVector<SmallVector<Value>>
mlir::tilegpu::emitIndices(OpBuilder &builder, Location loc,
                           RankedTensorType type, const ThreadIds &ids) {
  std::optional<LinearLayout> layout = toLinearLayout(type);
  if (!layout)
    return {};
  namespace dims = layout_dims;
  SmallVector<EmittedBits> threadPart =
      emitLinearMap(builder, loc, *layout, {Value(), ids.lane, ids.warp});
  SmallVector<SmallVector<Value>> indices;
  for (int32_t reg = 0, e = layout->getInputSize(dims::kRegister); reg < e;
       ++reg) {
    SmallVector<int32_t> offset = layout->applyOne(dims::kRegister, reg);
    SmallVector<Value> &index = indices.emplace_back();
    for (auto [part, constant] : llvm::zip(threadPart, offset))
      index.push_back(addConstantBits(builder, loc, part, constant));
  }
  return indices;
}

/// The index -> byte offset map of a swizzled tile: its offset -> index
/// map inverted, then scaled to bytes (offset bit i is byte bit
/// i + log2(elementBytes)).
static LinearLayout getSwizzledByteMap(const NVMMASharedLayout &layout) {
  LinearLayout offsets = *toLinearLayout(layout).invert();
  unsigned offsetBits = offsets.getTotalOutputBits();
  unsigned shift = llvm::Log2_32(layout.elementBytes);
  LinearLayout::InputDim toBytes{layout_dims::kOffset.str(), {}};
  for (unsigned i = 0; i < offsetBits; ++i)
    toBytes.bases.push_back({int32_t(1) << (i + shift)});
  return offsets.compose(
      LinearLayout({std::move(toBytes)}, {{"byte", offsetBits + shift}}));
}

Value mlir::tilegpu::emitSwizzledOffset(OpBuilder &builder, Location loc,
                                        const NVMMASharedLayout &layout,
                                        Value row, Value col) {
  SmallVector<Value> index = layout.contigDim == 1
                                 ? SmallVector<Value>{row, col}
                                 : SmallVector<Value>{col, row};
  return addConstantBits(
      builder, loc,
      emitLinearMap(builder, loc, getSwizzledByteMap(layout), index).front(),
      0);
}

SmallVector<Value> mlir::tilegpu::emitSwizzledOffsets(
    OpBuilder &builder, Location loc, RankedTensorType type,
    const NVMMASharedLayout &layout, const ThreadIds &ids) {
  std::optional<LinearLayout> registers = toLinearLayout(type);
  if (!registers)
    return {};
  LinearLayout bytes = registers->compose(getSwizzledByteMap(layout));
  EmittedBits threadPart =
      emitLinearMap(builder, loc, bytes, {Value(), ids.lane, ids.warp}).front();
  SmallVector<Value> offsets;
  for (int32_t reg = 0, e = bytes.getInputSize(layout_dims::kRegister); reg < e;
       ++reg)
    offsets.push_back(
        addConstantBits(builder, loc, threadPart,
                        bytes.applyOne(layout_dims::kRegister, reg).front()));
  return offsets;
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

SmallVector<Value> mlir::tilegpu::getOwnerPredicates(OpBuilder &builder,
                                                     Location loc, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    // A scalar: every thread holds it; thread 0 of the program owns it.
    Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
    return {LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq, tid,
                                 createI32(builder, loc, 0))};
  }
  std::optional<LinearLayout> layout = tilegpu::toLinearLayout(tensor);
  if (!layout)
    return {Value()};
  // Lanes and warps whose id bits have a zero basis hold copies of what
  // the thread with those bits 0 holds; that one owns them. Likewise
  // registers with a zero-basis bit repeat an earlier register.
  namespace dims = tilegpu::layout_dims;
  auto zeroBits = [&](StringRef input) {
    int32_t mask = 0;
    for (auto [bit, basis] : llvm::enumerate(layout->getBases(input)))
      if (llvm::all_of(basis, [](int32_t v) { return v == 0; }))
        mask |= int32_t(1) << bit;
    return mask;
  };
  ThreadIds ids = getThreadIds(builder, loc);
  Value threadOwns;
  for (auto [input, id] :
       {std::pair{dims::kLane, ids.lane}, std::pair{dims::kWarp, ids.warp}}) {
    int32_t mask = zeroBits(input);
    if (!mask)
      continue;
    Value bits =
        LLVM::AndOp::create(builder, loc, id, createI32(builder, loc, mask));
    Value owns = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                      bits, createI32(builder, loc, 0));
    threadOwns =
        threadOwns ? LLVM::AndOp::create(builder, loc, threadOwns, owns) : owns;
  }
  int32_t repeatedRegisters = zeroBits(dims::kRegister);
  SmallVector<Value> predicates;
  Value falseValue;
  for (int32_t reg = 0, e = layout->getInputSize(dims::kRegister); reg < e;
       ++reg) {
    if (reg & repeatedRegisters) {
      if (!falseValue)
        falseValue = LLVM::ConstantOp::create(builder, loc, builder.getI1Type(),
                                              builder.getBoolAttr(false));
      predicates.push_back(falseValue);
    } else {
      predicates.push_back(threadOwns);
    }
  }
  return predicates;
}

Value mlir::tilegpu::andMasks(OpBuilder &builder, Location loc, Value a,
                              Value b) {
  if (!a || !b)
    return a ? a : b;
  return LLVM::AndOp::create(builder, loc, a, b);
}
