//===- RemoveLayoutConversions.cpp - tilegpu-remove-layout-conversions ----===//
//
// Carries loop-carried blocks in the layout the loop body uses them in, so
// the conversions around them run once, outside the loop. A block the loop
// updates elementwise (`ptrs += step`) is updated in that layout too.
// A narrowing cast of a converted block (f32 accumulator to f16 output) runs
// before the conversion, which then moves half the bytes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Debug.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONS
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

#define DEBUG_TYPE "tilegpu-remove-layout-conversions"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The common target type if every use of `value` is a conversion to it.
Type getOnlyConversionTarget(Value value) {
  Type target;
  for (Operation *user : value.getUsers()) {
    auto convert = dyn_cast<ConvertLayoutOp>(user);
    if (!convert || (target && convert.getType() != target))
      return Type();
    target = convert.getType();
  }
  return target;
}

/// If every use of iter_arg `index` of `loop` is a conversion to one type
/// except an elementwise update whose result is only yielded back into it
/// (`ptrs += step`), computes the update in that type's layout: then every
/// use is a conversion and the yielded value is converted from that layout,
/// which `recarry` handles. The update's other operands are converted (the
/// canonicalizer recomputes splats and ranges in the new layout).
void updateInUsersLayout(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArgs()[index];
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  Value yielded = yield.getOperand(index);
  Operation *update = yielded.getDefiningOp();
  if (!update || update->getBlock() != loop.getBody() || !yielded.hasOneUse() ||
      update->getNumResults() != 1 || update->getNumRegions() != 0 ||
      !isMemoryEffectFree(update) ||
      !(update->hasTrait<OpTrait::Elementwise>() ||
        isa<tile::AddPtrOp>(update)) ||
      !llvm::is_contained(update->getOperands(), arg))
    return;
  Type target;
  for (Operation *user : arg.getUsers()) {
    if (user == update)
      continue;
    auto convert = dyn_cast<ConvertLayoutOp>(user);
    if (!convert || (target && convert.getType() != target))
      return;
    target = convert.getType();
  }
  if (!target)
    return;
  Attribute layout = cast<RankedTensorType>(target).getEncoding();
  OpBuilder builder(update);
  Location loc = update->getLoc();
  IRMapping mapping;
  for (Value operand : update->getOperands())
    if (auto type = dyn_cast<RankedTensorType>(operand.getType());
        type && !mapping.contains(operand))
      mapping.map(operand,
                  ConvertLayoutOp::create(builder, loc,
                                          withLayout(type, layout), operand));
  Operation *clone = builder.clone(*update, mapping);
  auto resultType = cast<RankedTensorType>(yielded.getType());
  clone->getResult(0).setType(withLayout(resultType, layout));
  yield.setOperand(index, ConvertLayoutOp::create(builder, loc, resultType,
                                                  clone->getResult(0)));
  update->erase();
}

/// Rewrites iter_arg `index` of `loop` to be carried in `newType`.
void recarry(scf::ForOp loop, unsigned index, Type newType) {
  BlockArgument arg = loop.getRegionIterArgs()[index];
  Type oldType = arg.getType();
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto yielded = yield.getOperand(index).getDefiningOp<ConvertLayoutOp>();

  OpBuilder builder(loop);
  OpOperand &init = loop.getInitArgsMutable()[index];
  init.set(
      ConvertLayoutOp::create(builder, loop.getLoc(), newType, init.get()));
  // Uses of the argument were conversions to `newType`.
  for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
    user->getResult(0).replaceAllUsesWith(arg);
    user->erase();
  }
  arg.setType(newType);
  yield.setOperand(index, yielded.getSrc());
  if (yielded->use_empty())
    yielded->erase();
  Value result = loop.getResult(index);
  result.setType(newType);
  builder.setInsertionPointAfter(loop);
  auto back = ConvertLayoutOp::create(builder, loop.getLoc(), oldType, result);
  result.replaceAllUsesExcept(back, back);
}

/// `trunc(convert_layout(x))` -> `convert_layout(trunc(x))` when the
/// conversion has no other use: the same result, fewer bytes converted.
void narrowBeforeConversion(Operation *narrow) {
  if (!isa<arith::TruncFOp, arith::TruncIOp>(narrow))
    return;
  auto convert = narrow->getOperand(0).getDefiningOp<ConvertLayoutOp>();
  if (!convert || !convert->hasOneUse())
    return;
  auto narrowType = cast<RankedTensorType>(narrow->getResult(0).getType());
  OpBuilder builder(narrow);
  Operation *early = builder.clone(*narrow);
  early->setOperand(0, convert.getSrc());
  early->getResult(0).setType(withLayout(
      narrowType,
      cast<RankedTensorType>(convert.getSrc().getType()).getEncoding()));
  Value converted = ConvertLayoutOp::create(builder, narrow->getLoc(),
                                            narrowType, early->getResult(0));
  narrow->getResult(0).replaceAllUsesWith(converted);
  narrow->erase();
  convert->erase();
}

struct RemoveLayoutConversionsPass
    : mlir::tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    getOperation().walk([&](scf::ForOp loop) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
        BlockArgument arg = loop.getRegionIterArgs()[i];
        updateInUsersLayout(loop, i);
        Type target = getOnlyConversionTarget(arg);
        if (!target || arg.use_empty())
          continue;
        auto yielded = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
        if (!yielded || yielded.getSrc().getType() != target)
          continue;
        LLVM_DEBUG(llvm::dbgs()
                   << "iter arg " << i << " of the loop at " << loop.getLoc()
                   << " carried as " << target << "\n");
        recarry(loop, i, target);
      }
    });
    SmallVector<Operation *> casts;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::TruncFOp, arith::TruncIOp>(op) &&
          isa<RankedTensorType>(op->getResult(0).getType()))
        casts.push_back(op);
    });
    for (Operation *narrow : casts)
      narrowBeforeConversion(narrow);
  }
};
} // namespace
