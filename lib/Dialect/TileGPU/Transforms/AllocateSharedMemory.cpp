//===- AllocateSharedMemory.cpp - tilegpu-allocate-shared-memory ----------===//
//
// Assigns shared-memory offsets. Explicit buffers (`tilegpu.local_alloc`)
// live until their last use in their block; each takes the lowest offset
// free of the buffers still live when it is created (first fit by program
// order; swizzled tiles 1024-byte aligned). Scratch space lives only while
// its op runs: it takes the lowest offset free of the buffers live at that
// op, so a kernel's epilogue reuses the bytes of its main loop's buffers.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Debug.h"

#include <functional>

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUALLOCATESHAREDMEMORY
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

#define DEBUG_TYPE "tilegpu-allocate-shared-memory"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
constexpr int64_t kAlignment = 16;

int64_t alignTo(int64_t value) {
  return (value + kAlignment - 1) / kAlignment * kAlignment;
}

/// Moves `last` to the last op of `block` that holds a use of `value`
/// (directly or in a nested region) or of a view of it (memdesc_index,
/// memdesc_trans), if later.
void findLastUse(Value value, Block *block, Operation *&last) {
  for (Operation *user : value.getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && (!last || last->isBeforeInBlock(ancestor)))
      last = ancestor;
    if (isa<MemDescIndexOp, MemDescTransOp>(user))
      findLastUse(user->getResult(0), block, last);
  }
}

/// The last op of `block` that uses the buffer `alloc` (in `block`) makes.
Operation *getLastUserInBlock(Operation *alloc, Block *block) {
  Operation *last = alloc;
  findLastUse(alloc->getResult(0), block, last);
  return last;
}

struct Interval {
  int64_t offset, size;
  Operation *alloc, *lastUse;
};

/// The lowest offset (a multiple of `alignment`) where `size` bytes fit
/// between the given intervals.
int64_t firstFit(SmallVector<Interval> taken, int64_t size, int64_t alignment) {
  llvm::sort(taken, [](const Interval &a, const Interval &b) {
    return a.offset < b.offset;
  });
  auto alignUp = [&](int64_t value) {
    return (value + alignment - 1) / alignment * alignment;
  };
  int64_t offset = 0;
  for (const Interval &interval : taken) {
    if (offset + size <= interval.offset)
      break;
    offset = alignUp(std::max(offset, interval.offset + interval.size));
  }
  return offset;
}

/// Whether the buffer of `interval` is live while `op` runs.
bool isLiveAt(const Interval &interval, Operation *op) {
  Operation *ancestor = interval.alloc->getBlock()->findAncestorOpInBlock(*op);
  if (!ancestor || ancestor == interval.alloc)
    return false;
  return interval.alloc->isBeforeInBlock(ancestor) &&
         (ancestor == interval.lastUse ||
          ancestor->isBeforeInBlock(interval.lastUse));
}

struct AllocateSharedMemoryPass
    : mlir::tilegpu::impl::TileGPUAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    if (failed(verifyBlocksHaveLayouts(getOperation(), getArgument())))
      return signalPassFailure();
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    int64_t total = 0;
    // Explicit buffers: first fit among the buffers still live in the same
    // block and those of enclosing blocks live across the op holding it (a
    // ring allocated before a loop stays live inside it).
    SmallVector<Interval> buffers;
    std::function<void(Block &, ArrayRef<Interval>)> allocate =
        [&](Block &block, ArrayRef<Interval> outer) {
          SmallVector<Interval> live;
          for (Operation &op : block) {
            llvm::erase_if(live, [&](const Interval &interval) {
              return interval.lastUse->isBeforeInBlock(&op);
            });
            if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
              MemDescType type = alloc.getType();
              int64_t size = alignTo(getSharedBufferBytes(type));
              // Swizzled tiles start on the boundary their swizzle repeats
              // at.
              int64_t alignment =
                  isa<NVMMASharedEncodingAttr>(type.getEncoding())
                      ? kNVMMASharedAlignment
                      : kAlignment;
              SmallVector<Interval> taken(outer);
              taken.append(live.begin(), live.end());
              int64_t offset = firstFit(taken, size, alignment);
              alloc.setOffsetAttr(builder.getI64IntegerAttr(offset));
              LLVM_DEBUG(llvm::dbgs()
                         << "buffer of " << size << " bytes at " << offset
                         << ": " << alloc.getLoc() << "\n");
              Interval interval{offset, size, alloc,
                                getLastUserInBlock(alloc, &block)};
              live.push_back(interval);
              buffers.push_back(interval);
              total = std::max(total, offset + size);
            }
            if (op.getNumRegions() == 0)
              continue;
            SmallVector<Interval> inner(outer);
            inner.append(live.begin(), live.end());
            for (Region &region : op.getRegions())
              for (Block &nested : region)
                allocate(nested, inner);
          }
        };
    for (Operation &op : *module.getBody())
      for (Region &region : op.getRegions())
        for (Block &block : region)
          allocate(block, {});
    // Scratch lives only while its op runs: first fit among the buffers
    // live at that op. The tensor maps of a block are built at the same
    // time, by different warps (until the block barrier that publishes
    // them): each gets scratch of its own.
    DenseMap<Block *, SmallVector<Interval>> mapScratch;
    module.walk([&](Operation *op) {
      int64_t bytes = getScratchBytes(op);
      if (bytes == 0)
        return;
      SmallVector<Interval> live;
      for (const Interval &interval : buffers)
        if (isLiveAt(interval, op))
          live.push_back(interval);
      bool isMap = isa<CreateTensorMapOp>(op);
      if (isMap) {
        live.append(mapScratch[op->getBlock()]);
        // A builder warp may still be writing the map while the others
        // go on to the block barrier that publishes it: buffers made
        // before that barrier must not share its bytes.
        Operation *end = op->getNextNode();
        while (end && !isa<BarrierOp>(end))
          end = end->getNextNode();
        for (const Interval &interval : buffers)
          if (interval.alloc->getBlock() == op->getBlock() &&
              op->isBeforeInBlock(interval.alloc) &&
              (!end || interval.alloc->isBeforeInBlock(end)))
            live.push_back(interval);
      }
      int64_t offset = firstFit(live, alignTo(bytes), getScratchAlignment(op));
      if (isMap)
        mapScratch[op->getBlock()].push_back(
            Interval{offset, alignTo(bytes), op, op});
      op->setAttr(kScratchOffsetAttrName, builder.getI32IntegerAttr(offset));
      LLVM_DEBUG(llvm::dbgs()
                 << "scratch of " << bytes << " bytes at " << offset << " for "
                 << op->getName() << " at " << op->getLoc() << "\n");
      total = std::max(total, offset + alignTo(bytes));
    });
    LLVM_DEBUG(llvm::dbgs() << "shared memory: " << total << " bytes\n");
    module->setAttr(kSharedBytesAttrName, builder.getI32IntegerAttr(total));
  }
};
} // namespace
