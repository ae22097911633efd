//===- SoftwarePipeliner.cpp - tilegpu-pipeline ---------------------------===//
//
// The software-pipelining pass: every loop whose depth (its own
// `tile.num_stages`, else the kernel's) is at least 2 is pipelined through
// rings of shared buffers where it can be (RingPipeliner.h), else gets its
// dot-feeding loads prefetched into registers one iteration ahead
// (RegisterPrefetch.cpp).
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tilegpu-pipeline"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The pipelining depth asked for `loop`: its own `tile.num_stages`, else
/// the enclosing kernel's.
int64_t getNumStages(scf::ForOp loop) {
  if (auto attr = loop->getAttrOfType<IntegerAttr>(tile::kNumStagesAttrName))
    return attr.getInt();
  if (auto func = loop->getParentOfType<func::FuncOp>())
    if (auto attr = func->getAttrOfType<IntegerAttr>(tile::kNumStagesAttrName))
      return attr.getInt();
  return 3;
}

/// Moves the operand-free pure ops of `loop`'s body (`program_id`,
/// `num_programs`, scalar constants: a kernel that reads its program id in
/// the loop) before the loop, so the pipeliner sees the values computed
/// from them as the loop invariants they are. Nothing else is hoisted: a
/// hoisted block would stay live, in registers, through the loop.
void hoistOperandFreeOps(scf::ForOp loop) {
  SmallVector<Operation *> leaves;
  loop.getBody()->walk([&](Operation *op) {
    if (op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
        op->getNumResults() == 1 &&
        !isa<RankedTensorType>(op->getResult(0).getType()) && isPure(op))
      leaves.push_back(op);
  });
  for (Operation *op : leaves)
    op->moveBefore(loop);
}

struct SoftwarePipelinerPass
    : mlir::tilegpu::impl::TileGPUPipelineBase<SoftwarePipelinerPass> {
  using TileGPUPipelineBase::TileGPUPipelineBase;
  void runOnOperation() override {
    if (failed(verifyBlocksHaveLayouts(getOperation(), getArgument())))
      return signalPassFailure();
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (getNumStages(loop) >= 2)
        loops.push_back(loop);
    });
    LLVM_DEBUG(llvm::dbgs() << loops.size() << " loops to pipeline\n");
    for (scf::ForOp loop : loops) {
      hoistOperandFreeOps(loop);
      if (!pipeliner::pipelineThroughRings(loop, getNumStages(loop), tma))
        pipeliner::prefetchIntoRegisters(loop);
    }
  }
};
} // namespace
