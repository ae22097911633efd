//===- LoopSlices.cpp - Loop helpers of the software pipeliner ------------===//
//
// What both pipelining schemes ask of a loop: which loads feed dots, which
// body ops compute a load's operands (to recompute them for another
// iteration), which iter args those read, and the guarded masks of loads
// issued for iterations that may not exist.
//
//===----------------------------------------------------------------------===//

#include "Pipeliner.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tilegpu;

bool pipeliner::feedsDot(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<tile::DotOp, WarpGroupDotOp>(user))
      return true;
    if (isa<ConvertLayoutOp, LocalAllocOp, LocalLoadOp, MemDescTransOp>(user) &&
        feedsDot(user->getResult(0)))
      return true;
  }
  return false;
}

FailureOr<SmallVector<Operation *>>
pipeliner::getSlice(scf::ForOp loop, ArrayRef<Value> values, bool allowLoads) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(values);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody() || slice.contains(def))
      continue;
    bool recomputable =
        isMemoryEffectFree(def) || (allowLoads && isa<tile::LoadOp>(def));
    if (def->getNumRegions() != 0 || !recomputable)
      return failure();
    slice.insert(def);
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

FailureOr<SmallVector<Operation *>>
pipeliner::getLoadSlice(scf::ForOp loop, ArrayRef<tile::LoadOp> loads,
                        SmallVectorImpl<unsigned> &iterArgs) {
  SmallVector<Value> roots;
  for (tile::LoadOp load : loads)
    llvm::append_range(roots, load->getOperands());
  FailureOr<SmallVector<Operation *>> slice =
      getSlice(loop, roots, /*allowLoads=*/true);
  if (failed(slice))
    return failure();
  for (Operation *op : *slice)
    addUsedIterArgs(loop, op, iterArgs);
  for (tile::LoadOp load : loads)
    addUsedIterArgs(loop, load, iterArgs);
  return slice;
}

void pipeliner::cloneSlice(OpBuilder &builder, ArrayRef<Operation *> slice,
                           IRMapping &mapping, Value guard) {
  for (Operation *op : slice) {
    auto load = dyn_cast<tile::LoadOp>(op);
    if (!load) {
      builder.clone(*op, mapping);
      continue;
    }
    Location loc = load.getLoc();
    Value ptr = mapping.lookupOrDefault(load.getPtr());
    Value mask =
        load.getMask() ? mapping.lookupOrDefault(load.getMask()) : Value();
    if (auto type = dyn_cast<RankedTensorType>(ptr.getType()))
      mask = guardMask(builder, loc, mask, guard, type);
    else
      mask = mask ? arith::AndIOp::create(builder, loc, mask, guard).getResult()
                  : guard;
    Value other =
        load.getOther() ? mapping.lookupOrDefault(load.getOther()) : Value();
    auto clone = tile::LoadOp::create(builder, loc, ptr, mask, other);
    clone->setDiscardableAttrs(load->getDiscardableAttrDictionary());
    mapping.map(load.getResult(), clone.getResult());
  }
}

std::optional<unsigned> pipeliner::getIterArgIndex(scf::ForOp loop,
                                                   Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
    return std::nullopt;
  return arg.getArgNumber() - 1;
}

void pipeliner::addUsedIterArgs(scf::ForOp loop, Operation *op,
                                SmallVectorImpl<unsigned> &indices) {
  for (Value operand : op->getOperands())
    if (std::optional<unsigned> index = getIterArgIndex(loop, operand))
      if (!llvm::is_contained(indices, *index))
        indices.push_back(*index);
}

IRMapping pipeliner::mapIteration(scf::ForOp loop, Value iv,
                                  ArrayRef<unsigned> indices,
                                  ArrayRef<Value> values) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  for (auto [index, value] : llvm::zip(indices, values))
    mapping.map(loop.getRegionIterArgs()[index], value);
  return mapping;
}

Value pipeliner::guardMask(OpBuilder &builder, Location loc, Value mask,
                           Value cond, RankedTensorType ptrType) {
  auto maskType = RankedTensorType::get(ptrType.getShape(), builder.getI1Type(),
                                        ptrType.getEncoding());
  Value splat = tile::SplatOp::create(builder, loc, maskType, cond);
  if (!mask)
    return splat;
  return arith::AndIOp::create(builder, loc, mask, splat);
}
