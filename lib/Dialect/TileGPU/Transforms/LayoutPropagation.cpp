//===- LayoutPropagation.cpp - Moving blocks into another layout ----------===//
//
// A candidate change gives one block (the seed) a new layout. The layout
// flows forward to the users that can compute in it:
//   - elementwise ops (arith, math, `where`, casts; `addptr` in blocked and
//     slice layouts only, so that pointers never take an mma layout) keep it;
//   - `reduce` (and a `combine_reduce` of one block) along `axis` gives
//     `slice<axis, layout>`; `reshape` gives the blocked layout that keeps
//     every element in its thread (getReshapedLayout), when there is one;
//     `expand_dims`
//     along `axis` of `slice<axis, parent>` gives `parent`, `broadcast`
//     keeps it (blocked and slice layouts: what the lowering handles);
//   - `convert_layout` to a register layout becomes a no-op and carries it on;
//   - `scf.for` inits, iter_args, yields and results, `scf.if` results and
//     `scf.while` arguments, yields and results take it as one unit.
// Everything else (loads, stores, dots, shared memory, conversions to dot
// operands) is an anchor: it keeps the layout it has and gets a conversion.
// Two layouts meeting at one value abandon the candidate.
//
// Cost model: a conversion costs the bytes it moves, plus 4 KiB for its two
// barriers, times 8 per loop around it (a loop-invariant source is converted
// where it is defined); a splat, a splat constant, or a range into a blocked or
// slice layout costs nothing (canonicalization recreates them in the target
// layout). Each converted or retyped block also costs the bytes of registers it
// takes over all threads, times 8 per loop around it: a layout that replicates
// it more holds more registers and repeats its arithmetic. The candidate is
// kept when its conversions and registers cost strictly less after than before,
// so every kept change lowers the total.
//
//===----------------------------------------------------------------------===//

#include "LayoutPropagation.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tilegpu-remove-layout-conversions"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Weight of a conversion per enclosing loop (an estimated trip count).
constexpr int64_t kLoopWeight = 8;
/// Loops deeper than this weigh as much as this many.
constexpr unsigned kMaxLoopDepth = 3;
/// The fixed cost of a conversion through shared memory (two barriers), in
/// bytes: a small block is not converted for free.
constexpr int64_t kConversionOverhead = 4096;
/// The most values one candidate may retype (bounds compile time).
constexpr unsigned kMaxRegionValues = 4096;

Attribute getLayout(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type ? type.getEncoding() : Attribute();
}

/// Blocked layouts and slices of them: the layouts every lowering handles.
bool isBlockedRooted(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return isBlockedRooted(slice.getParent());
  return isa_and_nonnull<BlockedEncodingAttr>(layout);
}

/// Layouts a propagated block may take: blocked and mma accumulator
/// layouts and their slices. Elementwise ops lower per register in any of
/// them; reductions, expand_dims and broadcast through their linear
/// layouts (the lowering picks registers, shuffles and warps from the
/// bases).
bool isPropagatableLayout(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    return isPropagatableLayout(slice.getParent());
  return isa_and_nonnull<BlockedEncodingAttr, MmaEncodingAttr>(layout);
}

/// A reduction of one block to a block along `axis` (tile.reduce, or a
/// tile.combine_reduce of one source): its result is a slice of its
/// source's layout. The axis, or std::nullopt for other ops.
std::optional<unsigned> getSingleReductionAxis(Operation *op) {
  if (op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return std::nullopt;
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return reduce.getAxis();
  if (auto reduce = dyn_cast<tile::CombineReduceOp>(op);
      reduce && reduce.getSrcs().size() == 1)
    return reduce.getAxis();
  return std::nullopt;
}

/// The layout the source of `reshape` needs for its result to be in
/// `resultLayout` without moving data, or null.
Attribute getReshapeSourceLayout(tile::ReshapeOp reshape,
                                 Attribute resultLayout) {
  return getReshapedLayout(withLayout(reshape.getType(), resultLayout),
                           reshape.getSrc().getType().getShape());
}

/// The number of loops around `op` (not counting `op` itself).
unsigned getLoopDepth(Operation *op) {
  unsigned depth = 0;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      ++depth;
  return depth;
}

/// The number of loops around the definition of `value`.
unsigned getLoopDepth(Value value) {
  if (Operation *def = value.getDefiningOp())
    return getLoopDepth(def);
  Operation *parent = value.getParentBlock()->getParentOp();
  return getLoopDepth(parent) + (isa<LoopLikeOpInterface>(parent) ? 1 : 0);
}

int64_t getWeight(unsigned depth) {
  int64_t weight = 1;
  for (unsigned i = 0; i < std::min(depth, kMaxLoopDepth); ++i)
    weight *= kLoopWeight;
  return weight;
}

/// Bytes of registers a block of `type` occupies over all threads: a layout
/// that replicates a block over more threads holds more registers and computes
/// every op on more copies (a row statistic in a slice of a wide blocked
/// layout).
int64_t getRegisterBytes(RankedTensorType type) {
  int64_t threads = 32 * getLayoutNumWarps(type.getEncoding());
  return int64_t(getNumRegisters(type)) * threads *
         getSharedElementBytes(type.getElementType());
}

/// What moving a block into `type` through shared memory costs: its bytes,
/// the fixed cost of the barriers, and the registers it then takes.
int64_t getExchangeBytes(RankedTensorType type) {
  return kConversionOverhead +
         type.getNumElements() * getSharedElementBytes(type.getElementType()) +
         getRegisterBytes(type);
}

/// One candidate: the values it retypes and the edges (operands) whose
/// conversions it changes.
class Candidate {
public:
  bool build(Value seed, Attribute layout);
  int64_t getCostBefore() const;
  int64_t getCostAfter() const;
  void apply();

private:
  void join(Value value, Attribute layout);
  void joinUnitPartners(Value value, Attribute layout);
  void visitUses(Value value, Attribute layout);
  void collectEdges();
  void addIncomingEdges(Value value);
  Attribute getNewLayout(Value value) const {
    auto it = layouts.find(value);
    return it != layouts.end() ? it->second : getLayout(value);
  }
  /// The layout `edge`'s owner needs of its operand after the change.
  Attribute getRequiredLayout(OpOperand &edge) const;
  int64_t getConversionCost(OpOperand &edge, Attribute from,
                            Attribute to) const;
  int64_t getReshapeCost(OpOperand &edge, Attribute srcLayout,
                         Attribute resultLayout) const;
  int64_t getRegisterCost(bool after) const;

  llvm::MapVector<Value, Attribute> layouts;
  SmallVector<std::pair<Value, Attribute>> worklist;
  llvm::SetVector<OpOperand *> edges;
  bool failed = false;
};

void Candidate::join(Value value, Attribute layout) {
  if (failed)
    return;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !isPropagatableLayout(layout) ||
      !isPropagatableLayout(type.getEncoding())) {
    failed = true;
    return;
  }
  auto it = layouts.find(value);
  if (it != layouts.end()) {
    failed |= it->second != layout;
    return;
  }
  if (type.getEncoding() == layout)
    return;
  bool retypable;
  if (auto result = dyn_cast<OpResult>(value)) {
    retypable = canComputeIn(result.getOwner(), layout);
  } else {
    // Loop-carried values only: function arguments keep their types.
    Operation *parent = value.getParentBlock()->getParentOp();
    retypable = isa<scf::WhileOp>(parent) ||
                (isa<scf::ForOp>(parent) &&
                 cast<BlockArgument>(value).getArgNumber() > 0);
  }
  if (!retypable) {
    failed = true;
    return;
  }
  layouts.insert({value, layout});
  if (layouts.size() > kMaxRegionValues) {
    failed = true;
    return;
  }
  worklist.push_back({value, layout});
  joinUnitPartners(value, layout);
}

/// An scf.for iter_arg and its result, and an scf.while "after" argument
/// and its result, are one value: they take a layout together.
void Candidate::joinUnitPartners(Value value, Attribute layout) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (arg.getArgNumber() > 0)
        join(loop.getResult(arg.getArgNumber() - 1), layout);
    } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      if (arg.getOwner() == loop.getAfterBody())
        join(loop.getResult(arg.getArgNumber()), layout);
    }
    return;
  }
  auto result = cast<OpResult>(value);
  Operation *owner = result.getOwner();
  unsigned index = result.getResultNumber();
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    join(loop.getRegionIterArgs()[index], layout);
  else if (auto loop = dyn_cast<scf::WhileOp>(owner))
    join(loop.getAfterArguments()[index], layout);
}

void Candidate::visitUses(Value value, Attribute layout) {
  MLIRContext *context = layout.getContext();
  for (OpOperand &use : value.getUses()) {
    Operation *owner = use.getOwner();
    unsigned index = use.getOperandNumber();
    if (auto convert = dyn_cast<ConvertLayoutOp>(owner)) {
      // Conversions to dot operands stay: the dot needs that layout.
      if (isPropagatableLayout(convert.getType().getEncoding()))
        join(convert.getResult(), layout);
    } else if (isa<scf::YieldOp>(owner)) {
      Operation *parent = owner->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(parent))
        join(loop.getRegionIterArgs()[index], layout);
      else if (isa<scf::IfOp>(parent))
        join(parent->getResult(index), layout);
      else if (auto loop = dyn_cast<scf::WhileOp>(parent))
        join(loop.getBeforeArguments()[index], layout);
    } else if (auto condition = dyn_cast<scf::ConditionOp>(owner)) {
      if (index > 0)
        join(cast<scf::WhileOp>(condition->getParentOp())
                 .getAfterArguments()[index - 1],
             layout);
    } else if (auto loop = dyn_cast<scf::ForOp>(owner)) {
      if (index >= loop.getNumControlOperands())
        join(loop.getRegionIterArgs()[index - loop.getNumControlOperands()],
             layout);
    } else if (auto loop = dyn_cast<scf::WhileOp>(owner)) {
      join(loop.getBeforeArguments()[index], layout);
    } else if (std::optional<unsigned> axis = getSingleReductionAxis(owner)) {
      auto slice = SliceEncodingAttr::get(context, *axis, layout);
      if (canComputeIn(owner, slice))
        join(owner->getResult(0), slice);
    } else if (auto reshape = dyn_cast<tile::ReshapeOp>(owner)) {
      if (BlockedEncodingAttr result =
              getReshapedLayout(withLayout(reshape.getSrc().getType(), layout),
                                reshape.getType().getShape()))
        join(reshape.getResult(), result);
    } else if (auto expand = dyn_cast<tile::ExpandDimsOp>(owner)) {
      auto slice = dyn_cast<SliceEncodingAttr>(layout);
      if (slice && slice.getDim() == expand.getAxis() &&
          canComputeIn(expand, slice.getParent()))
        join(expand.getResult(), slice.getParent());
    } else if (isa<tile::BroadcastOp>(owner) || isPureElementwise(owner)) {
      if (canComputeIn(owner, layout))
        join(owner->getResult(0), layout);
    }
    if (failed)
      return;
  }
}

bool Candidate::build(Value seed, Attribute layout) {
  join(seed, layout);
  while (!failed && !worklist.empty()) {
    auto [value, valueLayout] = worklist.pop_back_val();
    visitUses(value, valueLayout);
  }
  if (failed || layouts.empty())
    return false;
  collectEdges();
  return true;
}

/// The operands through which `value` is defined: those of its defining op,
/// or for loop and branch values the inits and yields that flow into it.
void Candidate::addIncomingEdges(Value value) {
  auto addTensorOperands = [&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()))
        edges.insert(&operand);
  };
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    unsigned index = arg.getArgNumber();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (index == 0)
        return;
      edges.insert(&loop.getInitArgsMutable()[index - 1]);
      edges.insert(&loop.getBody()->getTerminator()->getOpOperand(index - 1));
    } else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      if (arg.getOwner() == loop.getBeforeBody()) {
        edges.insert(&loop->getOpOperand(index));
        edges.insert(
            &loop.getAfterBody()->getTerminator()->getOpOperand(index));
      } else {
        edges.insert(&loop.getConditionOp()->getOpOperand(index + 1));
      }
    }
    return;
  }
  auto result = cast<OpResult>(value);
  Operation *owner = result.getOwner();
  unsigned index = result.getResultNumber();
  if (auto loop = dyn_cast<scf::ForOp>(owner)) {
    addIncomingEdges(loop.getRegionIterArgs()[index]);
  } else if (auto loop = dyn_cast<scf::WhileOp>(owner)) {
    addIncomingEdges(loop.getAfterArguments()[index]);
  } else if (auto branch = dyn_cast<scf::IfOp>(owner)) {
    edges.insert(&branch.thenYield()->getOpOperand(index));
    edges.insert(&branch.elseYield()->getOpOperand(index));
  } else {
    addTensorOperands(owner);
  }
}

void Candidate::collectEdges() {
  for (auto &[value, layout] : layouts) {
    for (OpOperand &use : value.getUses())
      edges.insert(&use);
    addIncomingEdges(value);
  }
}

Attribute Candidate::getRequiredLayout(OpOperand &edge) const {
  Operation *owner = edge.getOwner();
  unsigned index = edge.getOperandNumber();
  Value value = edge.get();
  if (auto convert = dyn_cast<ConvertLayoutOp>(owner))
    return getNewLayout(convert.getResult());
  if (isa<scf::YieldOp>(owner)) {
    Operation *parent = owner->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      return getNewLayout(loop.getRegionIterArgs()[index]);
    if (isa<scf::IfOp>(parent))
      return getNewLayout(parent->getResult(index));
    if (auto loop = dyn_cast<scf::WhileOp>(parent))
      return getNewLayout(loop.getBeforeArguments()[index]);
    return getLayout(value);
  }
  if (auto condition = dyn_cast<scf::ConditionOp>(owner))
    return index == 0 ? getLayout(value)
                      : getNewLayout(cast<scf::WhileOp>(owner->getParentOp())
                                         .getAfterArguments()[index - 1]);
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    return getNewLayout(
        loop.getRegionIterArgs()[index - loop.getNumControlOperands()]);
  if (auto loop = dyn_cast<scf::WhileOp>(owner))
    return getNewLayout(loop.getBeforeArguments()[index]);
  // A reduction of a whole 1-D block to a scalar reduces it in any layout.
  if (auto reduce = dyn_cast<tile::ReduceOp>(owner);
      reduce && reduce->getNumOperands() == 1 &&
      !isa<RankedTensorType>(reduce->getResult(0).getType()))
    return getNewLayout(value);
  // An op that computes in a new layout needs its operands in it.
  if (owner->getNumResults() == 1 && layouts.count(owner->getResult(0))) {
    Attribute result = getNewLayout(owner->getResult(0));
    if (getSingleReductionAxis(owner))
      return cast<SliceEncodingAttr>(result).getParent();
    if (auto reshape = dyn_cast<tile::ReshapeOp>(owner)) {
      // The operand's own new layout where it already is the result's map
      // (a slice equal to the blocked layout the reshape asks for).
      Attribute current = getNewLayout(value);
      if (isThreadLocalReshape(withLayout(reshape.getSrc().getType(), current),
                               withLayout(reshape.getType(), result)))
        return current;
      return getReshapeSourceLayout(reshape, result);
    }
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(owner))
      return SliceEncodingAttr::get(owner->getContext(), expand.getAxis(),
                                    result);
    return result;
  }
  return getLayout(value);
}

int64_t Candidate::getConversionCost(OpOperand &edge, Attribute from,
                                     Attribute to) const {
  if (from == to)
    return 0;
  Value value = edge.get();
  auto type = cast<RankedTensorType>(value.getType());
  // Recreated in the new layout instead (the canonicalization patterns of
  // convert_layout: masks and offsets built from ranges and splats).
  if (!layouts.count(value) && isCheapToRecreate(value, to, edge.getOwner()))
    return 0;
  if (isPropagatableLayout(from) && isPropagatableLayout(to) &&
      layoutsAreEquivalent(withLayout(type, from), withLayout(type, to)))
    return 0;
  // A conversion of a value defined outside the loop runs where it is
  // defined (tilegpu-remove-layout-conversions hoists it).
  unsigned depth = std::min(getLoopDepth(edge.getOwner()), getLoopDepth(value));
  return getExchangeBytes(withLayout(type, to)) * getWeight(depth);
}

/// A reshape (its operand `edge`) from `srcLayout` to `resultLayout` costs
/// nothing when no element changes thread, else what a conversion does.
int64_t Candidate::getReshapeCost(OpOperand &edge, Attribute srcLayout,
                                  Attribute resultLayout) const {
  auto reshape = cast<tile::ReshapeOp>(edge.getOwner());
  if (!isPropagatableLayout(srcLayout) || !isPropagatableLayout(resultLayout))
    return 0;
  auto resultType = withLayout(reshape.getType(), resultLayout);
  if (isThreadLocalReshape(withLayout(reshape.getSrc().getType(), srcLayout),
                           resultType))
    return 0;
  return getExchangeBytes(resultType) *
         getWeight(getLoopDepth(reshape.getOperation()));
}

/// The registers of the blocks the candidate computes in a new layout
/// (conversions count theirs with the conversion), times the loop weight
/// where they are computed.
int64_t Candidate::getRegisterCost(bool after) const {
  int64_t cost = 0;
  for (auto &[value, layout] : layouts) {
    if (isa_and_nonnull<ConvertLayoutOp>(value.getDefiningOp()))
      continue;
    auto type = cast<RankedTensorType>(value.getType());
    cost += getRegisterBytes(after ? withLayout(type, layout) : type) *
            getWeight(getLoopDepth(value));
  }
  return cost;
}

int64_t Candidate::getCostBefore() const {
  int64_t cost = getRegisterCost(/*after=*/false);
  for (OpOperand *edge : edges) {
    if (auto convert = dyn_cast<ConvertLayoutOp>(edge->getOwner()))
      cost += getConversionCost(*edge, getLayout(convert.getSrc()),
                                getLayout(convert.getResult()));
    if (auto reshape = dyn_cast<tile::ReshapeOp>(edge->getOwner()))
      cost += getReshapeCost(*edge, getLayout(reshape.getSrc()),
                             getLayout(reshape.getResult()));
  }
  return cost;
}

int64_t Candidate::getCostAfter() const {
  int64_t cost = getRegisterCost(/*after=*/true);
  for (OpOperand *edge : edges) {
    Attribute required = getRequiredLayout(*edge);
    cost += getConversionCost(*edge, getNewLayout(edge->get()), required);
    if (auto reshape = dyn_cast<tile::ReshapeOp>(edge->getOwner()))
      cost +=
          getReshapeCost(*edge, required, getNewLayout(reshape.getResult()));
  }
  return cost;
}

void Candidate::apply() {
  // What each edge needs, decided before any type changes.
  SmallVector<Attribute> required;
  for (OpOperand *edge : edges)
    required.push_back(getRequiredLayout(*edge));
  for (auto &[value, layout] : layouts)
    value.setType(withLayout(cast<RankedTensorType>(value.getType()), layout));
  for (auto [edge, layout] : llvm::zip(edges, required)) {
    Operation *owner = edge->getOwner();
    Value value = edge->get();
    if (isa<ConvertLayoutOp>(owner) || getLayout(value) == layout)
      continue;
    // Right after the value, as the conversions it replaces were: out of
    // loops the value is defined outside of (and into a branch later, when
    // only that branch uses it).
    OpBuilder builder(owner);
    builder.setInsertionPointAfterValue(value);
    auto type = withLayout(cast<RankedTensorType>(value.getType()), layout);
    edge->set(ConvertLayoutOp::create(builder, value.getLoc(), type, value));
  }
  // Conversions that now convert nothing.
  SmallVector<ConvertLayoutOp> identities;
  for (OpOperand *edge : edges)
    if (auto convert = dyn_cast<ConvertLayoutOp>(edge->getOwner());
        convert && convert.getSrc().getType() == convert.getType())
      identities.push_back(convert);
  for (ConvertLayoutOp convert : identities) {
    convert.getResult().replaceAllUsesWith(convert.getSrc());
    convert.erase();
  }
}
} // namespace

bool mlir::tilegpu::isPureElementwise(Operation *op) {
  return (op->hasTrait<OpTrait::Elementwise>() || isa<tile::AddPtrOp>(op)) &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isa<RankedTensorType>(op->getResult(0).getType()) &&
         isMemoryEffectFree(op);
}

bool mlir::tilegpu::canComputeIn(Operation *op, Attribute layout) {
  if (!isPropagatableLayout(layout))
    return false;
  if (isa<ConvertLayoutOp, scf::ForOp, scf::WhileOp, scf::IfOp>(op))
    return true;
  // A reduction's result is the slice of its operand's layout along the
  // reduced axis.
  if (std::optional<unsigned> axis = getSingleReductionAxis(op)) {
    auto slice = dyn_cast<SliceEncodingAttr>(layout);
    return slice && slice.getDim() == *axis &&
           isPropagatableLayout(slice.getParent());
  }
  if (isa<tile::ReduceOp, tile::CombineReduceOp>(op))
    return false;
  // A reshape moves no data when its source can take the matching layout.
  if (auto reshape = dyn_cast<tile::ReshapeOp>(op))
    return isa<BlockedEncodingAttr>(layout) &&
           getReshapeSourceLayout(reshape, layout);
  if (isa<tile::ExpandDimsOp, tile::BroadcastOp>(op))
    return true;
  if (!isPureElementwise(op))
    return false;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (isa<tile::PointerType>(type.getElementType()))
    return isBlockedRooted(layout);
  return true;
}

bool mlir::tilegpu::propagateLayout(Value seed, Attribute layout) {
  Candidate candidate;
  if (!candidate.build(seed, layout))
    return false;
  int64_t before = candidate.getCostBefore();
  int64_t after = candidate.getCostAfter();
  LLVM_DEBUG(llvm::dbgs() << "candidate " << layout << " for " << seed
                          << ": cost " << before << " -> " << after << "\n");
  if (after >= before)
    return false;
  candidate.apply();
  return true;
}
