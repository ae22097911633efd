//===- LayoutConversions.cpp - Where operands need another layout ---------===//
//
// The layout each op needs of its operands, and the insertion of
// `tilegpu.convert_layout` where an operand has another one. Used by layout
// assignment and by every pass that changes layouts (coalescing), so the
// rules live in one place.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The type of what a terminator's operand flows into.
Type getYieldTargetType(Operation *op, OpOperand &operand) {
  unsigned index = operand.getOperandNumber();
  Operation *parent = op->getParentOp();
  if (isa<scf::ConditionOp>(op)) {
    if (index == 0)
      return Type();
    return parent->getResult(index - 1).getType();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(parent))
    return whileOp.getBeforeArguments()[index].getType();
  if (index < parent->getNumResults())
    return parent->getResult(index).getType();
  return Type();
}

/// Loop inits take the type of the block argument they initialize.
Type getRegionOpOperandType(Operation *op, OpOperand &operand) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    unsigned index = operand.getOperandNumber();
    if (index < 3)
      return Type();
    return forOp.getRegionIterArgs()[index - 3].getType();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return whileOp.getBeforeArguments()[operand.getOperandNumber()].getType();
  return Type();
}

/// The type `op` needs `operand` to have, or null if any type does.
Type getRequiredOperandType(Operation *op, OpOperand &operand) {
  auto operandType = dyn_cast<RankedTensorType>(operand.get().getType());
  if (!operandType)
    return Type();
  MLIRContext *context = op->getContext();
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
    auto slice = SliceEncodingAttr::get(context, expand.getAxis(),
                                        expand.getType().getEncoding());
    return withLayout(operandType, slice);
  }
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(op))
    return withLayout(operandType, broadcast.getType().getEncoding());
  if (auto dot = dyn_cast<tile::DotOp>(op))
    return operand.getOperandNumber() == 2 ? Type(dot.getType()) : Type();
  // A scan computes in its results' layout; a combine reduction in the
  // layout its results are slices of (its first source's, for scalars).
  if (auto scan = dyn_cast<tile::ScanOp>(op))
    return withLayout(operandType,
                      cast<RankedTensorType>(
                          scan.getResult(operand.getOperandNumber()).getType())
                          .getEncoding());
  if (auto reduce = dyn_cast<tile::CombineReduceOp>(op)) {
    auto result = dyn_cast<RankedTensorType>(reduce.getResult(0).getType());
    if (auto slice =
            result ? dyn_cast_or_null<SliceEncodingAttr>(result.getEncoding())
                   : SliceEncodingAttr())
      return withLayout(operandType, slice.getParent());
    if (operand.getOperandNumber() == 0)
      return Type();
    return withLayout(operandType,
                      cast<RankedTensorType>(reduce.getSrcs().front().getType())
                          .getEncoding());
  }
  if (isa<tile::ReduceOp, tile::TransOp, tile::ReshapeOp, ConvertLayoutOp,
          tile::PrintOp, LocalAllocOp, LocalStoreOp>(op))
    return Type();
  if (isa<scf::YieldOp, scf::ConditionOp>(op))
    return getYieldTargetType(op, operand);
  if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>())
    return getRegionOpOperandType(op, operand);
  // Elementwise: the layout of the first block result, or of the first block
  // operand for ops without results (store).
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
} // namespace

void mlir::tilegpu::insertLayoutConversions(Operation *root) {
  root->walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Type required = getRequiredOperandType(op, operand);
      if (!required || required == operand.get().getType())
        continue;
      OpBuilder builder(op);
      Value converted = ConvertLayoutOp::create(builder, operand.get().getLoc(),
                                                required, operand.get());
      operand.set(converted);
    }
  });
}

void mlir::tilegpu::giveOwnLayout(Operation *op, BlockedEncodingAttr layout) {
  OpBuilder builder(op);
  if (isa<tile::StoreOp>(op)) {
    OpOperand &ptr = op->getOpOperand(0);
    auto type = cast<RankedTensorType>(ptr.get().getType());
    ptr.set(ConvertLayoutOp::create(builder, op->getLoc(),
                                    withLayout(type, layout), ptr.get()));
    return;
  }
  Value result = op->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  result.setType(withLayout(type, layout));
  builder.setInsertionPointAfter(op);
  auto back = ConvertLayoutOp::create(builder, op->getLoc(), type, result);
  result.replaceAllUsesExcept(back, back);
}
