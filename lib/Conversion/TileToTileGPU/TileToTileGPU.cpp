//===- TileToTileGPU.cpp - convert-tile-to-tilegpu (layout assignment) ----===//
//
// Gives every block of a kernel a layout, in place:
//  1. every tensor value gets the default blocked layout of its shape for
//     the kernel's warp count, except reduction results, which get the slice
//     of their source's layout;
//  2. where an op needs an operand in another layout than it has, a
//     `tilegpu.convert_layout` is inserted: elementwise ops want all operands
//     in their result's layout, `broadcast` its result's layout, `expand_dims`
//     the slice of its result's layout along the new axis, and region
//     terminators the types of the values they yield into.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilec {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tilec/Conversion/Passes.h.inc"
} // namespace mlir::tilec

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
    return withLayout(tensor, getDefaultBlockedLayout(
                                  context, tensor.getShape(), numWarps));
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

  /// Step 2: inserts the layout conversions operands need.
  void insertConversions(Operation *root) {
    root->walk([&](Operation *op) {
      for (OpOperand &operand : op->getOpOperands()) {
        Type required = getRequiredOperandType(op, operand);
        if (!required || required == operand.get().getType())
          continue;
        OpBuilder builder(op);
        Value converted = ConvertLayoutOp::create(
            builder, operand.get().getLoc(), required, operand.get());
        operand.set(converted);
      }
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
    return getDefaultType(result.getType());
  }

  void retypeConstant(arith::ConstantOp constant) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense || dense.getType() == constant.getType())
      return;
    constant.setValueAttr(
        dense.reshape(cast<ShapedType>(constant.getType())));
  }

  /// The type `op` needs `operand` to have, or null if any type does.
  Type getRequiredOperandType(Operation *op, OpOperand &operand) const {
    auto operandType = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!operandType)
      return Type();
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
      auto slice = SliceEncodingAttr::get(context, expand.getAxis(),
                                          expand.getType().getEncoding());
      return withLayout(operandType, slice);
    }
    if (auto broadcast = dyn_cast<tile::BroadcastOp>(op))
      return withLayout(operandType, broadcast.getType().getEncoding());
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      if (operand.getOperandNumber() == 2)
        return dot.getType();
      return Type();
    }
    if (isa<tile::ReduceOp, tile::TransOp, tile::ReshapeOp, ConvertLayoutOp,
            tile::PrintOp, LocalAllocOp, LocalStoreOp>(op))
      return Type();
    if (isa<scf::YieldOp, scf::ConditionOp>(op))
      return getYieldTargetType(op, operand);
    if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>())
      return getRegionOpOperandType(op, operand);
    // Elementwise: the layout of the first tensor result, or of the first
    // tensor operand for ops without results (store).
    Attribute layout;
    for (Value result : op->getResults())
      if (auto type = dyn_cast<RankedTensorType>(result.getType())) {
        layout = type.getEncoding();
        break;
      }
    if (!layout)
      for (Value value : op->getOperands())
        if (auto type = dyn_cast<RankedTensorType>(value.getType())) {
          layout = type.getEncoding();
          break;
        }
    return withLayout(operandType, layout);
  }

  /// Values yielded by a terminator must have the type of what they flow to.
  Type getYieldTargetType(Operation *op, OpOperand &operand) const {
    unsigned index = operand.getOperandNumber();
    Operation *parent = op->getParentOp();
    if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
      if (index == 0)
        return Type();
      return parent->getResult(index - 1).getType();
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
      return whileOp.getBeforeArguments()[index].getType();
    return parent->getResult(index).getType();
  }

  /// Operands of region ops (loop inits) take the type of the block
  /// argument they initialize.
  Type getRegionOpOperandType(Operation *op, OpOperand &operand) const {
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      unsigned index = operand.getOperandNumber();
      if (index < 3)
        return Type();
      return forOp.getRegionIterArgs()[index - 3].getType();
    }
    if (auto whileOp = dyn_cast<scf::WhileOp>(op))
      return whileOp.getBeforeArguments()[operand.getOperandNumber()]
          .getType();
    return Type();
  }

  MLIRContext *context;
  unsigned numWarps;
};

struct ConvertTileToTileGPUPass
    : mlir::tilec::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPUPass> {
  using ConvertTileToTileGPUBase::ConvertTileToTileGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned warps = numWarps;
    if (warps == 0) {
      warps = 4;
      module.walk([&](func::FuncOp func) {
        if (auto attr = func->getAttrOfType<IntegerAttr>(
                tile::kNumWarpsAttrName))
          warps = attr.getInt();
      });
    }
    if (warps == 0 || (warps & (warps - 1)) != 0 || warps > 32) {
      module.emitError("num_warps must be a power of two from 1 to 32, got ")
          << warps;
      return signalPassFailure();
    }
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
    LayoutAssigner assigner(&getContext(), warps);
    assigner.assignTypes(module);
    assigner.insertConversions(module);
    module->setAttr(kNumWarpsAttrName,
                    IntegerAttr::get(IntegerType::get(&getContext(), 32),
                                     warps));
  }
};
} // namespace
