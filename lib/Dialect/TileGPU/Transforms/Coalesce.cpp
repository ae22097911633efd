//===- Coalesce.cpp - tilegpu-coalesce ------------------------------------===//
//
// Chooses, for the blocks that global memory accesses go through, a layout
// whose fastest dimension follows the addresses' contiguity with as many
// consecutive elements per thread as one aligned 16-byte access holds, then
// gives that layout to every block that shared the old one.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AccessWidth.h"
#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUCOALESCE
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

#define DEBUG_TYPE "tilegpu-coalesce"

using namespace mlir;
using namespace mlir::tilegpu;
using mlir::tilegpu::AxisInfo;
using mlir::tilegpu::AxisInfoAnalysis;

namespace {
/// The global-memory pointer operand of a memory op, if it is a block.
Value getBlockPointer(Operation *op) {
  Value ptr;
  if (auto load = dyn_cast<tile::LoadOp>(op))
    ptr = load.getPtr();
  else if (auto store = dyn_cast<tile::StoreOp>(op))
    ptr = store.getPtr();
  else if (auto atomic = dyn_cast<tile::AtomicRMWOp>(op))
    ptr = atomic.getPtr();
  else if (auto cas = dyn_cast<tile::AtomicCASOp>(op))
    ptr = cas.getPtr();
  if (ptr && isa<RankedTensorType>(ptr.getType()))
    return ptr;
  return Value();
}

/// Whether `value` reaches a dot as an operand (through transposes,
/// conversions and casts).
bool feedsDotOperand(Value value) {
  SmallVector<Value> work{value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<tile::DotOp>(user)) {
        if (use.getOperandNumber() < 2)
          return true;
        continue;
      }
      if (isa<tile::TransOp, ConvertLayoutOp, arith::ExtFOp, arith::TruncFOp,
              arith::SIToFPOp, arith::UIToFPOp, arith::BitcastOp>(user))
        work.push_back(user->getResult(0));
    }
  }
  return false;
}

/// Whether `value` is computed from a dot's result by elementwise ops (a
/// matmul's `acc.to(f16)`, `acc + bias`), also through the loop that
/// carries the accumulator: the tensor cores' layout is not
/// a blocked one, so it is converted before any store whatever the
/// store's layout is.
bool isComputedFromDot(Value value) {
  SmallVector<Value> work{value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second || seen.size() > 64)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (isa<tile::DotOp>(def))
      return true;
    // A loop's or branch's result: the values its regions yield for it.
    if (isa<scf::ForOp, scf::IfOp, scf::WhileOp>(def)) {
      unsigned index = cast<OpResult>(v).getResultNumber();
      for (Region &region : def->getRegions())
        for (Block &block : region)
          if (auto yield = dyn_cast<scf::YieldOp>(block.getTerminator()))
            if (index < yield.getNumOperands())
              work.push_back(yield.getOperand(index));
      continue;
    }
    if (def->getNumResults() != 1 || !isPure(def) ||
        !isa<arith::ArithDialect>(def->getDialect()))
      continue;
    // Operands of the same shape (not a splat scalar or a mask's bound).
    for (Value operand : def->getOperands())
      if (auto type = dyn_cast<RankedTensorType>(operand.getType()))
        if (type.getShape() == cast<RankedTensorType>(v.getType()).getShape())
          work.push_back(operand);
  }
  return false;
}

/// The coalesced layout for accesses through `ptr`. `registerRuns`: the
/// access loads a dot operand; each thread takes a run of up to 16 bytes
/// along the contiguous dimension even where alignment allows only single
/// elements (rows of a ragged K), so that the run's elements share one
/// address (immediate offsets) instead of a 64-bit pointer each: the loop
/// that carries them keeps a fraction of the registers (tutorial 03's
/// matmul of 999 x 1001 x 777: 1.7 KB of spills without, 0.2 KB with). L1
/// serves the other elements of the lines a warp's first access brings.
BlockedEncodingAttr getCoalescedLayout(Value ptr, const AxisInfo &info,
                                       unsigned numWarps, bool registerRuns) {
  auto type = cast<RankedTensorType>(ptr.getType());
  ArrayRef<int64_t> shape = type.getShape();
  unsigned rank = shape.size();
  // Dimensions by decreasing contiguity; ties keep the last dim fastest.
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return info.contiguity[a] > info.contiguity[b];
  });
  unsigned fast = order.front();
  int64_t perThread =
      std::max<int64_t>(1, type.getNumElements() / (32 * numWarps));
  perThread = std::min(perThread, shape[fast]);
  unsigned bytes = getPointeeBytes(type);
  unsigned vec = getAccessVectorWidth(info, fast, bytes, perThread);
  if (registerRuns) {
    int64_t run = std::min<int64_t>(
        {info.contiguity[fast], 16 / std::max(1u, bytes), perThread});
    vec = std::max<unsigned>(
        vec, llvm::bit_floor<uint64_t>(std::max<int64_t>(1, run)));
  }
  SmallVector<unsigned> spt(rank, 1);
  spt[fast] = vec;
  return getBlockedLayout(ptr.getContext(), shape, numWarps, spt, order);
}

/// `encoding` with blocked layouts replaced through `remap` (slices follow
/// their parents).
Attribute remapEncoding(Attribute encoding,
                        const DenseMap<Attribute, Attribute> &remap) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    Attribute parent = remapEncoding(slice.getParent(), remap);
    if (parent == slice.getParent())
      return encoding;
    return SliceEncodingAttr::get(encoding.getContext(), slice.getDim(),
                                  parent);
  }
  auto it = remap.find(encoding);
  return it == remap.end() ? encoding : it->second;
}

Type remapType(Type type, const DenseMap<Attribute, Attribute> &remap) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  Attribute encoding = remapEncoding(tensor.getEncoding(), remap);
  return encoding == tensor.getEncoding() ? type : withLayout(tensor, encoding);
}

/// The elements per vector access through `ptr` (axis info `info`) in
/// `layout`.
unsigned getWidthIn(BlockedEncodingAttr layout, Value ptr,
                    const AxisInfo &info) {
  unsigned fast = layout.getOrder().front();
  return getAccessVectorWidth(
      info, fast, getPointeeBytes(cast<RankedTensorType>(ptr.getType())),
      layout.getSizePerThread()[fast]);
}

/// Whether an access through `ptr` in `layout` splits each thread's run of
/// elements over several instructions: neighbouring lanes then touch
/// addresses a run apart, not consecutive ones (stores of one element at a
/// time in a layout chosen for 16-byte loads: 8 lanes' 2-byte stores each
/// in its own 16 bytes, or in another row).
bool splitsRuns(BlockedEncodingAttr layout, Value ptr, const AxisInfo &info) {
  unsigned fast = layout.getOrder().front();
  return layout.getSizePerThread()[fast] > getWidthIn(layout, ptr, info);
}

struct CoalescePass : mlir::tilegpu::impl::TileGPUCoalesceBase<CoalescePass> {
  void runOnOperation() override {
    if (failed(verifyBlocksHaveLayouts(getOperation(), getArgument())))
      return signalPassFailure();
    ModuleOp module = getOperation();
    unsigned numWarps = getNumWarps(module);
    AxisInfoAnalysis analysis(module);

    // The new layout of each blocked layout used by a memory access; the
    // widest access decides when several share one.
    DenseMap<Attribute, Attribute> remap;
    DenseMap<Attribute, unsigned> chosenWidth;
    SmallVector<std::pair<Operation *, BlockedEncodingAttr>> accesses;
    module.walk([&](Operation *op) {
      Value ptr = getBlockPointer(op);
      if (!ptr)
        return;
      auto type = cast<RankedTensorType>(ptr.getType());
      auto old = dyn_cast<BlockedEncodingAttr>(type.getEncoding());
      if (!old)
        return;
      auto load = dyn_cast<tile::LoadOp>(op);
      BlockedEncodingAttr layout =
          getCoalescedLayout(ptr, analysis.getAxisInfo(ptr), numWarps,
                             load && feedsDotOperand(load.getResult()));
      accesses.push_back({op, layout});
      LLVM_DEBUG(llvm::dbgs() << op->getName() << " at " << op->getLoc() << ": "
                              << layout << "\n");
      unsigned width = layout.getSizePerThread()[layout.getOrder().front()];
      auto it = chosenWidth.find(old);
      if (it != chosenWidth.end() && it->second >= width)
        return;
      chosenWidth[old] = width;
      remap[old] = layout;
    });
    // An access that would get narrower vectors in the layout chosen for
    // the blocks it shares a layout with (a tile contiguous along the other
    // dimension), or a store of a dot's result whose runs that layout would
    // split where its own does not (a matmul's unaligned C stored in the
    // layout of its A loads: lanes 16 bytes or a row apart; the result is
    // converted from the tensor cores' layout anyway), keeps its own
    // layout, through conversions that the canonicalizer resolves by
    // recomputing cheap pointers and masks.
    SmallVector<std::pair<Operation *, BlockedEncodingAttr>> ownLayouts;
    for (auto [op, layout] : accesses) {
      Value ptr = getBlockPointer(op);
      auto old = cast<BlockedEncodingAttr>(
          cast<RankedTensorType>(ptr.getType()).getEncoding());
      auto chosen = cast<BlockedEncodingAttr>(remap.lookup(old));
      const AxisInfo &info = analysis.getAxisInfo(ptr);
      if (chosen != layout &&
          (getWidthIn(layout, ptr, info) > getWidthIn(chosen, ptr, info) ||
           (splitsRuns(chosen, ptr, info) && !splitsRuns(layout, ptr, info) &&
            isa<tile::StoreOp>(op) &&
            isComputedFromDot(cast<tile::StoreOp>(op).getValue()))))
        ownLayouts.push_back({op, layout});
    }
    // Identity entries change nothing.
    for (auto it = remap.begin(); it != remap.end();) {
      auto current = it++;
      if (current->first == current->second)
        remap.erase(current);
    }
    LLVM_DEBUG(llvm::dbgs()
               << remap.size() << " layouts replaced, " << ownLayouts.size()
               << " accesses keep their own\n");
    if (remap.empty() && ownLayouts.empty())
      return;

    module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(remapType(arg.getType(), remap));
      for (OpResult result : op->getResults())
        result.setType(remapType(result.getType(), remap));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          if (dense.getType() != constant.getType())
            constant.setValueAttr(
                dense.reshape(cast<ShapedType>(constant.getType())));
    });
    for (auto [op, layout] : ownLayouts)
      giveOwnLayout(op, layout);
    insertLayoutConversions(module);
  }
};
} // namespace
