//===- MmaSyncStrategy.cpp - Rings read by ldmatrix for mma.sync ----------===//
//
// The mma.sync read strategy of ring pipelining (RingPipeliner.h), sm_80 on.
// mma.sync dots read registers: their operands, loaded blocks converted to
// dot-operand layouts, are staged first (local_alloc into a swizzled tile,
// local_load into the dot-operand layout: ldmatrix), then pipelined with
// synchronous reads: each iteration waits for its copies, a barrier (which
// also says every warp is done reading the previous iteration's buffer),
// then starts the copies into that buffer before its own reads and dots.
// If the loop cannot be pipelined, the staging is undone.
//
//===----------------------------------------------------------------------===//

#include "RingPipeliner.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

using namespace mlir;
using namespace mlir::tilegpu;
using namespace mlir::tilegpu::pipeliner;

namespace {
class MmaSyncStrategy : public ReadStrategy {
public:
  /// Every warp is done with the buffer the previous iteration read (the
  /// barrier after the copies' wait says so; bulk copies alone need one),
  /// so the next copies go there first.
  void beforeBody(RingBuilder &ring) override {
    if (!ring.plan.hasCopies)
      BarrierOp::create(ring.builder, ring.loc);
    ring.fetchAhead();
  }
};

/// The load (maybe transposed) that `operand` of an mma.sync dot converts
/// to its dot-operand layout, with the conversion and the transpose, if it
/// is loaded in `body` for this operand only.
struct ConvertedLoad {
  tile::LoadOp load;
  tile::TransOp trans;
  ConvertLayoutOp convert;
};
std::optional<ConvertedLoad> getConvertedLoad(Value operand, Block *body) {
  auto convert = operand.getDefiningOp<ConvertLayoutOp>();
  if (!convert || convert->getBlock() != body)
    return std::nullopt;
  Value source = convert.getSrc();
  auto trans = source.getDefiningOp<tile::TransOp>();
  if (trans) {
    if (!trans->hasOneUse())
      return std::nullopt;
    source = trans.getSrc();
  }
  auto load = source.getDefiningOp<tile::LoadOp>();
  if (!load || load->getBlock() != body || !load->hasOneUse())
    return std::nullopt;
  return ConvertedLoad{load, trans, convert};
}

/// Replaces the conversion of `operand` by local_alloc [-> memdesc_trans]
/// -> local_load where ldmatrix (or, for f32, plain shared loads) can read
/// it.
std::optional<MmaSyncStaging> stageOperand(const ConvertedLoad &operand) {
  auto [load, trans, convert] = operand;
  auto type = dyn_cast<RankedTensorType>(load.getType());
  auto blocked =
      type ? dyn_cast<BlockedEncodingAttr>(type.getEncoding()) : nullptr;
  if (!blocked || type.getRank() != 2)
    return std::nullopt;
  Attribute layout = getNVMMAStagingLayout(type, blocked.getOrder().front());
  if (!layout)
    return std::nullopt;
  auto memdesc = MemDescType::get(load.getContext(), type.getShape(),
                                  type.getElementType(), layout);
  MemDescType readType = trans ? getTransposedMemDesc(memdesc) : memdesc;
  RankedTensorType dstType = convert.getType();
  if (!type.getElementType().isF32() && !isLdmatrixLoad(readType, dstType))
    return std::nullopt;
  OpBuilder builder(convert);
  Location loc = convert.getLoc();
  MmaSyncStaging s;
  s.load = load;
  s.alloc = LocalAllocOp::create(builder, loc, memdesc, load.getResult(),
                                 IntegerAttr());
  Value tile = s.alloc;
  if (trans) {
    s.view = MemDescTransOp::create(builder, loc, readType, tile);
    s.transType = trans.getType();
    tile = s.view;
  }
  s.local = LocalLoadOp::create(builder, loc, dstType, tile);
  convert.replaceAllUsesWith(s.local.getResult());
  convert.erase();
  if (trans)
    trans.erase();
  return s;
}
} // namespace

std::unique_ptr<ReadStrategy> pipeliner::createMmaSyncStrategy() {
  return std::make_unique<MmaSyncStrategy>();
}

SmallVector<MmaSyncStaging> pipeliner::stageMmaSyncOperands(scf::ForOp loop) {
  SmallVector<MmaSyncStaging> staged;
  Block *body = loop.getBody();
  for (Operation &op : llvm::make_early_inc_range(*body)) {
    auto dot = dyn_cast<tile::DotOp>(op);
    auto mma =
        dot ? dyn_cast_or_null<MmaEncodingAttr>(dot.getType().getEncoding())
            : MmaEncodingAttr();
    if (!mma || mma.getVersionMajor() != 2)
      continue;
    // Operands read afresh: staging A may replace what B also uses.
    for (unsigned index : {0u, 1u})
      if (std::optional<ConvertedLoad> operand =
              getConvertedLoad(dot->getOperand(index), body))
        if (std::optional<MmaSyncStaging> s = stageOperand(*operand))
          staged.push_back(*s);
  }
  return staged;
}

void pipeliner::unstageMmaSyncOperands(MutableArrayRef<MmaSyncStaging> staged) {
  for (MmaSyncStaging &s : staged) {
    OpBuilder builder(s.local);
    Location loc = s.local.getLoc();
    Value source = s.load;
    if (s.view)
      source = tile::TransOp::create(builder, loc, s.transType, source);
    auto convert =
        ConvertLayoutOp::create(builder, loc, s.local.getType(), source);
    s.local.replaceAllUsesWith(convert.getResult());
    s.local.erase();
    if (s.view)
      s.view.erase();
    s.alloc.erase();
  }
}
