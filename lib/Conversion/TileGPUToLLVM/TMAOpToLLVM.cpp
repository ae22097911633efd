//===- TMAOpToLLVM.cpp - Bulk tensor copies and mbarriers -----------------===//
//
// The copy engine's ops (sm_90), all issued by thread 0 of the block:
//
// - `tilegpu.create_tensor_map`: the kernel's parameters are its own
//   (tilec adds none), so tensor maps are built on the device, in a pool of
//   128-byte slots in the module's global memory. Thread 0 takes a slot
//   of its own (see below) under a spin lock (an `atom.cas` by thread 0, one
//   per loop's maps; concurrent launches of the kernel take turns). A warp
//   assembles the map in its op's shared-memory scratch (zeroed, each field
//   set with `tensormap.replace`: read-modify-writes of shared memory, where
//   on the global slot each was a round trip to L2) and copies it to the
//   slot releasing it to the copy engine (`tensormap.cp_fenceproxy`); the
//   maps of a kernel are built by different warps, in parallel. After a
//   block barrier, `tilegpu.fence_tensor_map` (thread 0, acquire) makes
//   each visible to thread 0's copies. `tilegpu.release_tensor_map` unlocks
//   with a relaxed store (see getReleaseTensorMapPtx).
// - `tilegpu.async_tma_copy_global_to_local`: one `cp.async.bulk.tensor.2d`
//   per swizzle-wide column of the tile (the box), completing on an mbarrier.
// - mbarrier init / inval / arrive.expect_tx / try_wait.parity loops.
//
//===----------------------------------------------------------------------===//

#include "InlineAsm.h"
#include "LLVMBuilders.h"
#include "Patterns.h"
#include "SharedMemoryAccess.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Slots in a module's tensor-map pool: more than the blocks a GPU holds at
/// once (132 SMs x 32 blocks on an H100), so that blocks rarely wait.
constexpr int64_t kNumSlots = 8192;
constexpr llvm::StringLiteral kMapsName = "__tilec_tensor_maps";
constexpr llvm::StringLiteral kLocksName = "__tilec_tensor_map_locks";

/// Set by numberTensorMaps() on each tilegpu.create_tensor_map.
constexpr llvm::StringLiteral kOrdinalAttrName = "tilegpu.map_ordinal";
constexpr llvm::StringLiteral kMapsAttrName = "tilegpu.map_count";

/// `tensormap.replace` encodings (PTX ISA, "Tensor-map" fields).
int64_t getElementTypeCode(Type type) {
  if (type.isF16())
    return 6;
  if (type.isBF16())
    return 10;
  return 7; // f32
}
int64_t getSwizzleCode(unsigned swizzle) {
  switch (swizzle) {
  case 32:
    return 1;
  case 64:
    return 2;
  default:
    return 3; // 128
  }
}

/// The module's global array `name` of `count` elements of `element`
/// (zero-initialized: PTX zero-fills globals without an initializer).
Value getPoolAddress(OpBuilder &builder, Location loc, Operation *op,
                     StringRef name, Type element, int64_t count,
                     unsigned alignment) {
  auto module = op->getParentOfType<ModuleOp>();
  auto arrayType = LLVM::LLVMArrayType::get(element, count);
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(builder, loc, arrayType, /*isConstant=*/false,
                           LLVM::Linkage::Internal, name, Attribute(),
                           alignment, kGlobalAddressSpace);
  }
  auto ptrType =
      LLVM::LLVMPointerType::get(builder.getContext(), kGlobalAddressSpace);
  Value address = LLVM::AddressOfOp::create(builder, loc, ptrType, name);
  return LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), address);
}

/// 1 in thread 0 of the block, else 0 (an i32 for asm operands).
Value isThreadZero(OpBuilder &builder, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value zero = createI32(builder, loc, 0);
  Value cmp =
      LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq, tid, zero);
  return LLVM::ZExtOp::create(builder, loc, builder.getI32Type(), cmp);
}

/// `flag && thread 0`, as an i32.
Value isThreadZeroAnd(OpBuilder &builder, Location loc, Value flag) {
  Value wide = LLVM::ZExtOp::create(builder, loc, builder.getI32Type(), flag);
  return LLVM::AndOp::create(builder, loc, wide, isThreadZero(builder, loc));
}

/// A shared-memory address as the 32-bit operand PTX takes.
Value sharedAddress(OpBuilder &builder, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(builder, loc, builder.getI32Type(), ptr);
}

/// Wraps `body` (PTX using operands from $1) so that it runs only where
/// operand $0 is nonzero.
std::string predicated(StringRef body) {
  return ("{\n.reg .pred %tp;\nsetp.ne.b32 %tp, $0, 0;\n@!%tp bra "
          "$$TILEC_SKIP_${:uid};\n" +
          body + "\n$$TILEC_SKIP_${:uid}:\n}")
      .str();
}

struct CreateTensorMapOpConversion
    : OpConversionPattern<tilegpu::CreateTensorMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::CreateTensorMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TensorMapType type = op.getType();
    auto encoding = cast<NVMMASharedEncodingAttr>(type.getEncoding());
    unsigned contig = encoding.getOrder()[0], other = 1 - contig;
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    int64_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;

    Value maps =
        getPoolAddress(rewriter, loc, op, kMapsName, rewriter.getI8Type(),
                       kNumSlots * kTensorMapBytes, 128);
    Value locks =
        getPoolAddress(rewriter, loc, op, kLocksName, i32, kNumSlots, 4);
    // The block's slot for this map: (linear block id * maps + ordinal)
    // modulo the pool size, `maps` the kernel's number of tensor maps
    // rounded up to a power of two: the maps of one block never share a
    // slot. The maps created together (one pipelined loop's) are guarded by
    // one lock, the first's (`lock`): thread 0 takes it, then a block
    // barrier, then each map is written by its warp. A block holds one
    // lock at a time, so waiting blocks cannot deadlock.
    int64_t ordinal = 0, numMaps = 1;
    if (auto attr = op->getAttrOfType<IntegerAttr>(kOrdinalAttrName))
      ordinal = attr.getInt();
    if (auto attr = op->getAttrOfType<IntegerAttr>(kMapsAttrName))
      numMaps = attr.getInt();
    if (numMaps > kNumSlots || ordinal >= numMaps)
      return rewriter.notifyMatchFailure(op, "too many tensor maps");
    Value x = NVVM::BlockIdXOp::create(rewriter, loc, i32);
    Value y = NVVM::BlockIdYOp::create(rewriter, loc, i32);
    Value z = NVVM::BlockIdZOp::create(rewriter, loc, i32);
    Value nx = NVVM::GridDimXOp::create(rewriter, loc, i32);
    Value ny = NVVM::GridDimYOp::create(rewriter, loc, i32);
    Value linear = LLVM::AddOp::create(
        rewriter, loc, x,
        LLVM::MulOp::create(
            rewriter, loc, nx,
            LLVM::AddOp::create(rewriter, loc, y,
                                LLVM::MulOp::create(rewriter, loc, ny, z))));
    linear = LLVM::AddOp::create(
        rewriter, loc,
        LLVM::MulOp::create(rewriter, loc, linear,
                            createI32(rewriter, loc, numMaps)),
        createI32(rewriter, loc, ordinal));
    Value slot = LLVM::URemOp::create(rewriter, loc, linear,
                                      createI32(rewriter, loc, kNumSlots));
    slot = LLVM::ZExtOp::create(rewriter, loc, i64, slot);
    Value map = LLVM::AddOp::create(
        rewriter, loc, maps,
        LLVM::MulOp::create(rewriter, loc, slot,
                            createI64(rewriter, loc, kTensorMapBytes)));
    Value lock = LLVM::AddOp::create(
        rewriter, loc, locks,
        LLVM::MulOp::create(rewriter, loc, slot, createI64(rewriter, loc, 4)));

    // Every thread computes the map's generic address; the warp
    // `ordinal mod warps` builds it, so a kernel's maps are built in
    // parallel.
    auto ctx = rewriter.getContext();
    Value globalPtr = LLVM::IntToPtrOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(ctx, kGlobalAddressSpace),
        map);
    Value generic = LLVM::PtrToIntOp::create(
        rewriter, loc, i64,
        LLVM::AddrSpaceCastOp::create(
            rewriter, loc, LLVM::LLVMPointerType::get(ctx, 0), globalPtr));
    unsigned warps = std::max(1u, getNumWarps(op));
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value isBuilderWarp = LLVM::ZExtOp::create(
        rewriter, loc, i32,
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                             LLVM::UDivOp::create(rewriter, loc, tid,
                                                  createI32(rewriter, loc, 32)),
                             createI32(rewriter, loc, ordinal % warps)));
    Value lane =
        LLVM::AndOp::create(rewriter, loc, tid, createI32(rewriter, loc, 31));
    Value scratch =
        sharedAddress(rewriter, loc, getScratchBase(rewriter, loc, op));

    Value base =
        LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getBase());
    auto toI32 = [&](Value v) -> Value {
      return LLVM::TruncOp::create(rewriter, loc, i32, v);
    };
    Value dims[2] = {adaptor.getDim0(), adaptor.getDim1()};
    Value strideBytes = LLVM::MulOp::create(rewriter, loc, adaptor.getStride(),
                                            createI64(rewriter, loc, bytes));

    if (op.getLock()) {
      createInlineAsm(
          rewriter, loc, Type(), {isThreadZero(rewriter, loc), lock},
          predicated(".reg .pred %tbusy;\n.reg .b32 %told;\n"
                     "$$TILEC_LOCK_${:uid}:\n"
                     "atom.acquire.gpu.global.cas.b32 %told, [$1], 0, 1;\n"
                     "setp.ne.b32 %tbusy, %told, 0;\n"
                     "@%tbusy bra $$TILEC_LOCK_${:uid};"),
          "r,l");
      createBarrier(rewriter, loc);
    }
    // The builder warp: $0, $1 its lane, $2 the slot (global address), $3
    // base, $4 inner extent, $5 outer extent, $6 outer stride (bytes), $7
    // the scratch (shared address). Each lane zeroes a word, lane 0 sets
    // the fields, the warp copies the map out.
    std::string field = "@%tlead tensormap.replace.tile.";
    std::string suffix = ".shared::cta.b1024";
    std::string body;
    llvm::raw_string_ostream os(body);
    os << ".reg .pred %tlead;\n.reg .b32 %tword;\n"
       << "shl.b32 %tword, $1, 2;\nadd.u32 %tword, %tword, $7;\n"
       << "st.shared.b32 [%tword], 0;\nbar.warp.sync -1;\n"
       << "setp.eq.b32 %tlead, $1, 0;\n"
       << field << "global_address" << suffix << ".b64 [$7], $3;\n"
       << field << "rank" << suffix << ".b32 [$7], 1;\n"
       << field << "box_dim" << suffix << ".b32 [$7], 0, "
       << type.getBoxShape()[contig] << ";\n"
       << field << "box_dim" << suffix << ".b32 [$7], 1, "
       << type.getBoxShape()[other] << ";\n"
       << field << "global_dim" << suffix << ".b32 [$7], 0, $4;\n"
       << field << "global_dim" << suffix << ".b32 [$7], 1, $5;\n"
       << field << "global_stride" << suffix << ".b64 [$7], 0, $6;\n"
       << field << "element_stride" << suffix << ".b32 [$7], 0, 1;\n"
       << field << "element_stride" << suffix << ".b32 [$7], 1, 1;\n"
       << field << "elemtype" << suffix << ".b32 [$7], "
       << getElementTypeCode(type.getElementType()) << ";\n"
       << field << "swizzle_mode" << suffix << ".b32 [$7], "
       << getSwizzleCode(encoding.getSwizzle()) << ";\n"
       << "bar.warp.sync -1;\n"
       << "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic."
          "release.gpu.sync.aligned [$2], [$7], 128;";
    createInlineAsm(rewriter, loc, Type(),
                    {isBuilderWarp, lane, map, base, toI32(dims[contig]),
                     toI32(dims[other]), strideBytes, scratch},
                    predicated(body), "r,r,l,l,r,r,l,r");
    rewriter.replaceOp(op, generic);
    return success();
  }
};

// The ops below are each one PTX statement (PtxStatementConversion).

FailureOr<PtxStatement>
getFenceTensorMapPtx(tilegpu::FenceTensorMapOp op,
                     tilegpu::FenceTensorMapOp::Adaptor adaptor,
                     ConversionPatternRewriter &rewriter) {
  return PtxStatement{
      predicated("fence.proxy.tensormap::generic.acquire.gpu [$1], 128;"),
      "r,l",
      {isThreadZero(rewriter, op.getLoc()), adaptor.getMap()}};
}

FailureOr<PtxStatement>
getReleaseTensorMapPtx(tilegpu::ReleaseTensorMapOp op,
                       tilegpu::ReleaseTensorMapOp::Adaptor adaptor,
                       ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Type i32 = rewriter.getI32Type();
  Value maps =
      getPoolAddress(rewriter, loc, op, kMapsName, rewriter.getI8Type(),
                     kNumSlots * kTensorMapBytes, 128);
  Value locks =
      getPoolAddress(rewriter, loc, op, kLocksName, i32, kNumSlots, 4);
  // The slot is the map's offset into the pool (generic addresses of
  // global memory are its global addresses).
  Value slot = LLVM::UDivOp::create(
      rewriter, loc, LLVM::SubOp::create(rewriter, loc, adaptor.getMap(), maps),
      createI64(rewriter, loc, kTensorMapBytes));
  Value lock = LLVM::AddOp::create(
      rewriter, loc, locks,
      LLVM::MulOp::create(rewriter, loc, slot, createI64(rewriter, loc, 4)));
  // A relaxed store: the slot's last readers are the block's bulk copies,
  // each complete before the mbarrier wait (an acquire) that every thread,
  // thread 0 too, passed for it, and no later operation of thread 0 moves
  // above such a wait; so the next owner's writes cannot reach a copy of
  // this block. A release store would add `MEMBAR.GPU` on thread 0 before
  // the epilogue's barrier, where the whole block waits for it (measured:
  // bench/RESULTS.md, session 17).
  return PtxStatement{predicated("st.relaxed.gpu.global.b32 [$1], 0;"),
                      "r,l",
                      {isThreadZero(rewriter, loc), lock}};
}

FailureOr<PtxStatement>
getAsyncTMACopyPtx(tilegpu::AsyncTMACopyGlobalToLocalOp op,
                   tilegpu::AsyncTMACopyGlobalToLocalOp::Adaptor adaptor,
                   ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto layout = getNVMMASharedLayout(op.getDst().getType());
  if (!layout)
    return rewriter.notifyMatchFailure(op, "expected a swizzled tile");
  unsigned contig = layout->contigDim;
  Value coords[2] = {adaptor.getCoord0(), adaptor.getCoord1()};
  int64_t boxInner = op.getMap().getType().getBoxShape()[contig];
  int64_t columns = layout->contigExtent / boxInner;
  std::string body;
  llvm::raw_string_ostream os(body);
  // $1 map, $2 inner coordinate, $3 outer one, $4 tile, $5 barrier.
  for (int64_t c = 0; c < columns; ++c) {
    if (c > 0)
      os << "add.s32 %tx, $2, " << c * boxInner << ";\n";
    os << "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
          "complete_tx::bytes [$4+"
       << c * layout->getColumnStride() << "], [$1, {" << (c > 0 ? "%tx" : "$2")
       << ", $3}], [$5];\n";
  }
  return PtxStatement{predicated(".reg .b32 %tx;\n" + body),
                      "r,l,r,r,r,r",
                      {isThreadZeroAnd(rewriter, loc, adaptor.getPred()),
                       adaptor.getMap(), coords[contig], coords[1 - contig],
                       sharedAddress(rewriter, loc, adaptor.getDst()),
                       sharedAddress(rewriter, loc, adaptor.getBarrier())}};
}

/// Whether another mbarrier init follows `op` before any op with memory
/// effects: the fences after the last init of a run cover them all (they
/// order every earlier init of the thread).
bool isFollowedByInit(tilegpu::InitBarrierOp op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (isa<tilegpu::InitBarrierOp>(next))
      return true;
    if (!isMemoryEffectFree(next))
      return false;
  }
  return false;
}

/// The PTX a thread-0 mbarrier op runs on its barrier ($1).
std::string getBarrierPtx(tilegpu::InitBarrierOp op) {
  std::string init = "mbarrier.init.shared::cta.b64 [$1], " +
                     std::to_string(op.getCount()) + ";";
  if (isFollowedByInit(op))
    return init;
  return init + "\nfence.mbarrier_init.release.cluster;\n"
                "fence.proxy.async.shared::cta;";
}
std::string getBarrierPtx(tilegpu::InvalBarrierOp) {
  return "mbarrier.inval.shared::cta.b64 [$1];";
}
std::string getBarrierPtx(tilegpu::BarrierExpectOp op) {
  return "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], " +
         std::to_string(op.getBytes()) + ";";
}

/// init_barrier, inval_barrier and barrier_expect: one predicated line of
/// PTX on the barrier's shared address, in thread 0 (and, for
/// barrier_expect, where `pred` holds).
template <typename Op>
FailureOr<PtxStatement>
getThreadZeroBarrierPtx(Op op, typename Op::Adaptor adaptor,
                        ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value runs;
  if constexpr (std::is_same_v<Op, tilegpu::BarrierExpectOp>)
    runs = isThreadZeroAnd(rewriter, loc, adaptor.getPred());
  else
    runs = isThreadZero(rewriter, loc);
  return PtxStatement{
      predicated(getBarrierPtx(op)),
      "r,r",
      {runs, sharedAddress(rewriter, loc, adaptor.getBarrier())}};
}

FailureOr<PtxStatement>
getWaitBarrierPtx(tilegpu::WaitBarrierOp op,
                  tilegpu::WaitBarrierOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) {
  return PtxStatement{
      "{\n.reg .pred %tdone;\n$$TILEC_WAIT_${:uid}:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 %tdone, [$0], $1;\n"
      "@!%tdone bra $$TILEC_WAIT_${:uid};\n}",
      "r,r",
      {sharedAddress(rewriter, op.getLoc(), adaptor.getBarrier()),
       adaptor.getPhase()}};
}
} // namespace

void mlir::tilegpu::numberTensorMaps(ModuleOp module) {
  module.walk([&](FunctionOpInterface func) {
    SmallVector<tilegpu::CreateTensorMapOp> creates;
    func.walk([&](tilegpu::CreateTensorMapOp op) { creates.push_back(op); });
    Builder builder(module.getContext());
    int64_t maps = llvm::PowerOf2Ceil(std::max<size_t>(creates.size(), 1));
    for (auto [index, op] : llvm::enumerate(creates)) {
      op->setAttr(kOrdinalAttrName, builder.getI64IntegerAttr(index));
      op->setAttr(kMapsAttrName, builder.getI64IntegerAttr(maps));
    }
  });
}

void mlir::tilegpu::populateTMAOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<CreateTensorMapOpConversion>(converter, context);
  patterns.add<PtxStatementConversion<tilegpu::FenceTensorMapOp>>(
      converter, context, getFenceTensorMapPtx);
  patterns.add<PtxStatementConversion<tilegpu::ReleaseTensorMapOp>>(
      converter, context, getReleaseTensorMapPtx);
  patterns.add<PtxStatementConversion<tilegpu::AsyncTMACopyGlobalToLocalOp>>(
      converter, context, getAsyncTMACopyPtx);
  patterns.add<PtxStatementConversion<tilegpu::InitBarrierOp>>(
      converter, context, getThreadZeroBarrierPtx<tilegpu::InitBarrierOp>);
  patterns.add<PtxStatementConversion<tilegpu::InvalBarrierOp>>(
      converter, context, getThreadZeroBarrierPtx<tilegpu::InvalBarrierOp>);
  patterns.add<PtxStatementConversion<tilegpu::BarrierExpectOp>>(
      converter, context, getThreadZeroBarrierPtx<tilegpu::BarrierExpectOp>);
  patterns.add<PtxStatementConversion<tilegpu::WaitBarrierOp>>(
      converter, context, getWaitBarrierPtx);
}
