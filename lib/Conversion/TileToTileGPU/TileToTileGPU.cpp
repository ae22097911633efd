//===- TileToTileGPU.cpp - convert-tile-to-tilegpu (layout assignment) ----===//
//
// Gives every block of a kernel a layout, in place (after checking that
// every block is one: tile::verifyBlocksIn):
//  1. every tensor value gets the default blocked layout of its shape for
//     the kernel's warp count, except reduction results (tile.reduce,
//     tile.combine_reduce), which get the slice of their source's layout,
//     and reshapes, which keep their source's map where a blocked layout
//     says it (getReshapedLayout);
//  2. where an op needs an operand in another layout than it has, a
//     `tilegpu.convert_layout` is inserted (insertLayoutConversions).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"
#include "tilec/Support/CompileOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Debug.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tilec/Conversion/Passes.h.inc"
} // namespace mlir::tilegpu

#define DEBUG_TYPE "convert-tile-to-tilegpu"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Assigns layouts to one module for a fixed number of warps.
class LayoutAssigner {
public:
  LayoutAssigner(MLIRContext *context, unsigned numWarps)
      : context(context), numWarps(numWarps) {}

  /// The type `type` has in the laid-out program when nothing else decides.
  Type getDefaultType(Type type) const {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding())
      return type;
    return withLayout(
        tensor, getDefaultBlockedLayout(context, tensor.getShape(), numWarps));
  }

  /// Step 1: sets the type of every result and block argument.
  void assignTypes(Operation *root) {
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(getDefaultType(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(getResultType(op, result));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        retypeConstant(constant);
    });
  }

private:
  Type getResultType(Operation *op, OpResult result) const {
    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      auto resultType = dyn_cast<RankedTensorType>(result.getType());
      if (!resultType)
        return result.getType();
      auto srcType = reduce.getSrc().getType();
      auto slice = SliceEncodingAttr::get(context, reduce.getAxis(),
                                          srcType.getEncoding());
      return withLayout(resultType, slice);
    }
    if (auto reduce = dyn_cast<tile::CombineReduceOp>(op)) {
      auto resultType = dyn_cast<RankedTensorType>(result.getType());
      if (!resultType)
        return result.getType();
      auto srcType = cast<RankedTensorType>(
          reduce.getSrcs()[result.getResultNumber()].getType());
      auto slice = SliceEncodingAttr::get(context, reduce.getAxis(),
                                          srcType.getEncoding());
      return withLayout(resultType, slice);
    }
    // A reshape keeps each element in its thread when a blocked layout
    // can say so (getReshapedLayout): no data moves.
    if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
      auto resultType = cast<RankedTensorType>(result.getType());
      if (BlockedEncodingAttr layout = getReshapedLayout(
              reshape.getSrc().getType(), resultType.getShape()))
        return withLayout(resultType, layout);
    }
    return getDefaultType(result.getType());
  }

  void retypeConstant(arith::ConstantOp constant) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense || dense.getType() == constant.getType())
      return;
    constant.setValueAttr(dense.reshape(cast<ShapedType>(constant.getType())));
  }

  MLIRContext *context;
  unsigned numWarps;
};

struct ConvertTileToTileGPUPass
    : mlir::tilegpu::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPUPass> {
  using ConvertTileToTileGPUBase::ConvertTileToTileGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned warps = numWarps;
    if (warps == 0) {
      warps = tilec::CompileOptions::kDefaultNumWarps;
      module.walk([&](func::FuncOp func) {
        if (auto attr =
                func->getAttrOfType<IntegerAttr>(tile::kNumWarpsAttrName))
          warps = attr.getInt();
      });
    }
    if (!tilec::CompileOptions::isValidNumWarps(warps)) {
      module.emitError("num_warps must be a power of two from 1 to ")
          << tilec::CompileOptions::kMaxNumWarps << ", got " << warps;
      return signalPassFailure();
    }
    // Blocks the layouts cannot describe (rank 0, dynamic, more than 2^20
    // elements) are errors, also outside `tile.kernel` functions.
    if (failed(tile::verifyBlocksIn(module)))
      return signalPassFailure();
    WalkResult signatures = module.walk([&](func::FuncOp func) {
      auto isBlock = [](Type type) { return isa<RankedTensorType>(type); };
      if (llvm::any_of(func.getArgumentTypes(), isBlock) ||
          llvm::any_of(func.getResultTypes(), isBlock)) {
        func.emitError("blocks cannot be passed to or returned from '")
            << func.getName() << "': kernel parameters are scalars and "
            << "pointers (inline helpers first)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (signatures.wasInterrupted())
      return signalPassFailure();
    LLVM_DEBUG(llvm::dbgs() << "assigning layouts for " << warps << " warps\n");
    LayoutAssigner assigner(&getContext(), warps);
    assigner.assignTypes(module);
    insertLayoutConversions(module);
    module->setAttr(
        kNumWarpsAttrName,
        IntegerAttr::get(IntegerType::get(&getContext(), 32), warps));
  }
};
} // namespace
