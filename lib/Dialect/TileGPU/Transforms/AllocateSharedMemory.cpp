//===- AllocateSharedMemory.cpp - tilegpu-allocate-shared-memory ----------===//
//
// Assigns shared-memory offsets. Scratch space lives only while its op
// runs, and ops run one after another, so every op's scratch starts at
// offset 0 and the scratch region is as large as the largest need. Explicit
// buffers (`tilegpu.local_alloc`) live until their last use; they are placed
// after the scratch region, reusing the bytes of buffers whose live ranges
// ended before they begin (first fit by program order within a block).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUALLOCATESHAREDMEMORY
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
constexpr int64_t kAlignment = 16;

int64_t alignTo(int64_t value) {
  return (value + kAlignment - 1) / kAlignment * kAlignment;
}

/// The last op (in `block`, by position) that uses `value`, directly or
/// through nested regions.
Operation *getLastUserInBlock(Value value, Block *block) {
  Operation *last = value.getDefiningOp();
  for (Operation *user : value.getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (ancestor && (!last || last->isBeforeInBlock(ancestor)))
      last = ancestor;
  }
  return last;
}

struct Interval {
  int64_t offset, size;
  Operation *lastUse;
};

struct AllocateSharedMemoryPass
    : mlir::tilegpu::impl::TileGPUAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(module.getContext());
    int64_t scratch = 0;
    module.walk([&](Operation *op) {
      int64_t bytes = getScratchBytes(op);
      if (bytes == 0)
        return;
      op->setAttr(kScratchOffsetAttrName, builder.getI32IntegerAttr(0));
      scratch = std::max(scratch, alignTo(bytes));
    });

    int64_t total = scratch;
    // Explicit buffers: first fit among the buffers of the same block whose
    // live range has ended.
    module.walk([&](Block *block) {
      SmallVector<Interval> live;
      for (Operation &op : *block) {
        llvm::erase_if(live, [&](const Interval &interval) {
          return interval.lastUse->isBeforeInBlock(&op);
        });
        auto alloc = dyn_cast<LocalAllocOp>(op);
        if (!alloc)
          continue;
        MemDescType type = alloc.getType();
        int64_t size = 1;
        for (int64_t dim : type.getShape())
          size *= dim;
        size = alignTo(size * getSharedElementBytes(type.getElementType()));
        // Swizzled tiles start on the boundary their swizzle repeats at.
        int64_t alignment = isa<NVMMASharedEncodingAttr>(type.getEncoding())
                                ? kNVMMASharedAlignment
                                : kAlignment;
        auto alignUp = [&](int64_t value) {
          return (value + alignment - 1) / alignment * alignment;
        };
        llvm::sort(live, [](const Interval &a, const Interval &b) {
          return a.offset < b.offset;
        });
        int64_t offset = alignUp(scratch);
        for (const Interval &interval : live) {
          if (offset + size <= interval.offset)
            break;
          offset = alignUp(std::max(offset, interval.offset + interval.size));
        }
        alloc.setOffsetAttr(builder.getI64IntegerAttr(offset));
        live.push_back({offset, size, getLastUserInBlock(alloc, block)});
        total = std::max(total, offset + size);
      }
    });
    module->setAttr(kSharedBytesAttrName, builder.getI32IntegerAttr(total));
  }
};
} // namespace
