//===- SharedMemoryOpToLLVM.cpp - Data exchange through shared memory -----===//
//
// convert_layout, trans and reshape move elements between threads, by the
// cheapest means the two linear layouts allow (the result's seen through
// the source's indices): a register permutation when every thread keeps
// its elements, warp shuffles when elements stay within their warp, else
// shared memory: every thread writes its registers to the op's scratch as
// vectors at their offsets in the layout getSharedExchangeLayout chooses
// (bank-conflict-free where the layouts allow), a barrier, then every
// thread reads the vectors its result registers hold; for 16-bit elements
// a side may use stmatrix / ldmatrix instead, as its MatrixAccessPlan
// says (the target's compute capability allowing). The local_* ops on
// row-major buffers are lowered here too.
//
//===----------------------------------------------------------------------===//

#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "MatrixLoadStore.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"
#include "WarpShuffle.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"
#include "tilec/Dialect/TileGPU/IR/SharedExchangeLayout.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The registers of a block of layout `dst` (onto the same indices as
/// `src`) from the registers of a block of layout `src`, without shared
/// memory: a register permutation, or one `shfl.sync.idx` per register when
/// the register to read does not depend on the lane and no element leaves
/// its warp. std::nullopt otherwise.
std::optional<SmallVector<Value>>
exchangeInRegisters(OpBuilder &builder, Location loc,
                    ArrayRef<Value> srcRegisters, const LinearLayout &src,
                    const LinearLayout &dst) {
  namespace dims = layout_dims;
  if (std::optional<SmallVector<int32_t>> map =
          getThreadLocalRegisterMap(src, dst)) {
    SmallVector<Value> registers;
    for (int32_t reg : *map)
      registers.push_back(srcRegisters[reg]);
    return registers;
  }
  std::optional<LinearLayout> holder = getWarpLocalHolder(src, dst);
  if (!holder)
    return std::nullopt;
  // Source lane = (lane's part) ^ (the register's part); the source
  // register depends on the register alone.
  ThreadIds ids = getThreadIds(builder, loc);
  EmittedBits laneBits =
      emitLinearMap(builder, loc,
                    holder->sublayout({dims::kLane}, {dims::kLane}), {ids.lane})
          .front();
  SmallVector<Value> registers;
  for (int32_t reg = 0, e = dst.getInputSize(dims::kRegister); reg < e; ++reg) {
    SmallVector<int32_t> from = holder->applyOne(dims::kRegister, reg);
    Value srcLane = addConstantBits(builder, loc, laneBits, from[1]);
    registers.push_back(createShuffle(builder, loc, srcRegisters[from[0]],
                                      srcLane, NVVM::ShflKind::idx));
  }
  return registers;
}

/// The type a register takes in the scratch: an i1 a byte, a pointer an
/// i64.
Type getSlotType(Type element) {
  MLIRContext *context = element.getContext();
  if (element.isInteger(1))
    return IntegerType::get(context, 8);
  if (isa<LLVM::LLVMPointerType>(element))
    return IntegerType::get(context, 64);
  return element;
}
Value toSlot(OpBuilder &builder, Location loc, Value value, Type slot) {
  if (value.getType() == slot)
    return value;
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    return LLVM::PtrToIntOp::create(builder, loc, slot, value);
  return LLVM::ZExtOp::create(builder, loc, slot, value);
}
Value fromSlot(OpBuilder &builder, Location loc, Value value, Type element) {
  if (value.getType() == element)
    return value;
  if (isa<LLVM::LLVMPointerType>(element))
    return LLVM::IntToPtrOp::create(builder, loc, element, value);
  return LLVM::TruncOp::create(builder, loc, element, value);
}

/// Addresses in the scratch of the elements one layout's registers hold:
/// the thread's part of the offset is emitted once; a register's part is
/// added where its bits are disjoint from the thread's (ptxas folds it into
/// the access) and XORed, once per distinct value, where they are not.
class ScratchAddresses {
public:
  /// `offsets`: (register, lane, warp) -> element offset in the scratch.
  ScratchAddresses(OpBuilder &builder, Location loc,
                   const LinearLayout &offsets, const ThreadIds &ids,
                   Value base, Type slot)
      : builder(builder), loc(loc), base(base), slot(slot) {
    namespace dims = layout_dims;
    thread = emitLinearMap(
                 builder, loc,
                 offsets.sublayout({dims::kLane, dims::kWarp}, {dims::kOffset}),
                 {ids.lane, ids.warp})
                 .front();
  }

  Value get(int64_t offset) {
    int64_t overlap = offset & int64_t(thread.bits);
    Value &xored = threadXor[overlap];
    if (!xored)
      xored = addConstantBits(builder, loc, thread, overlap);
    Value element = xored;
    if (int64_t disjoint = offset & ~int64_t(thread.bits))
      element = LLVM::AddOp::create(builder, loc, element,
                                    createI32(builder, loc, disjoint));
    return gep(builder, loc, slot, base, element);
  }

private:
  OpBuilder &builder;
  Location loc;
  Value base;
  Type slot;
  EmittedBits thread;
  llvm::DenseMap<int64_t, Value> threadXor;
};

/// The instructions of one side's matrix access: for each (by the offset
/// its registers other than the plan's pair and matrix registers add), the
/// register each of its halves holds (the first one, where registers hold
/// copies); and for each register, its instruction and half.
struct MatrixInstructionGroups {
  llvm::MapVector<int64_t, SmallVector<int32_t>> halves;
  SmallVector<std::pair<int64_t, unsigned>> halfOfRegister;
};
MatrixInstructionGroups groupMatrixRegisters(const LinearLayout &offsets,
                                             const MatrixAccessPlan &plan) {
  namespace dims = layout_dims;
  unsigned count = 1u << plan.matrixRegisters.size();
  MatrixInstructionGroups groups;
  for (int32_t reg = 0, e = offsets.getInputSize(dims::kRegister); reg < e;
       ++reg) {
    int32_t rest = reg & ~(1 << plan.pairRegister);
    unsigned half = (reg >> plan.pairRegister) & 1;
    for (auto [i, bit] : llvm::enumerate(plan.matrixRegisters)) {
      rest &= ~(1 << bit);
      half |= ((reg >> bit) & 1) << (i + 1);
    }
    int64_t key = offsets.applyOne(dims::kRegister, rest)[0];
    SmallVector<int32_t> &halves = groups.halves[key];
    halves.resize(2 * count, -1);
    if (halves[half] < 0)
      halves[half] = reg;
    groups.halfOfRegister.push_back({key, half});
  }
  return groups;
}

/// The addresses a lane gives one side's matrix instructions: the plan's
/// lane bases and the side's warp bases.
ScratchAddresses getMatrixAddresses(OpBuilder &builder, Location loc,
                                    const LinearLayout &offsets,
                                    const MatrixAccessPlan &plan,
                                    const ThreadIds &ids, Value base,
                                    Type slot) {
  namespace dims = layout_dims;
  LinearLayout::InputDim lane{dims::kLane.str(), {}};
  for (int64_t x : plan.laneAddressBases)
    lane.bases.push_back({int32_t(x)});
  LinearLayout::InputDim warp{
      dims::kWarp.str(),
      SmallVector<LinearLayout::Basis>(offsets.getBases(dims::kWarp))};
  LinearLayout addressLayout(
      {std::move(lane), std::move(warp)},
      SmallVector<LinearLayout::OutputDim>(offsets.getOutputs()));
  return ScratchAddresses(builder, loc, addressLayout, ids, base, slot);
}

/// The plan of a matrix access the chooser made (it only chooses those
/// that have one).
MatrixAccessPlan getPlan(const LinearLayout &offsets,
                         const SharedAccess &access) {
  std::optional<MatrixAccessPlan> plan =
      getMatrixAccessPlan(offsets, access.kind, access.pairRegister);
  assert(plan && "the exchange layout chose a matrix access without a plan");
  return *plan;
}

/// One side's stores as stmatrix: each instruction once.
void storeMatrices(OpBuilder &builder, Location loc,
                   const LinearLayout &offsets, const SharedAccess &access,
                   ArrayRef<Value> registers, const ThreadIds &ids,
                   Value base) {
  MatrixAccessPlan plan = getPlan(offsets, access);
  Type element = registers.front().getType();
  ScratchAddresses addresses =
      getMatrixAddresses(builder, loc, offsets, plan, ids, base, element);
  bool trans = plan.kind == SharedAccessKind::TransposedMatrix;
  for (auto &[key, halves] : groupMatrixRegisters(offsets, plan).halves) {
    SmallVector<Value> values;
    for (int32_t reg : halves)
      values.push_back(registers[reg]);
    emitStmatrix(builder, loc, addresses.get(key), values, trans);
  }
}

/// One side's registers loaded with ldmatrix: each instruction once.
SmallVector<Value> loadMatrices(OpBuilder &builder, Location loc,
                                const LinearLayout &offsets,
                                const SharedAccess &access, Type element,
                                const ThreadIds &ids, Value base) {
  MatrixAccessPlan plan = getPlan(offsets, access);
  ScratchAddresses addresses =
      getMatrixAddresses(builder, loc, offsets, plan, ids, base, element);
  bool trans = plan.kind == SharedAccessKind::TransposedMatrix;
  unsigned count = 1u << plan.matrixRegisters.size();
  MatrixInstructionGroups groups = groupMatrixRegisters(offsets, plan);
  llvm::DenseMap<int64_t, SmallVector<Value>> loaded;
  for (auto &[key, halves] : groups.halves)
    loaded[key] =
        emitLdmatrix(builder, loc, element, addresses.get(key), count, trans);
  SmallVector<Value> registers;
  for (auto [key, half] : groups.halfOfRegister)
    registers.push_back(loaded[key][half]);
  return registers;
}

/// The registers of a block of layout `dst` from those of `src` (onto the
/// same indices) through the scratch of `op`, laid out as `exchange` says:
/// a barrier (earlier users of the bytes are done), vector (or matrix)
/// stores, a barrier, vector (or matrix) loads (each distinct one once).
SmallVector<Value> exchangeThroughShared(OpBuilder &builder, Location loc,
                                         Operation *op,
                                         ArrayRef<Value> srcRegisters,
                                         const LinearLayout &src,
                                         const LinearLayout &dst,
                                         const SharedExchangeLayout &exchange) {
  namespace dims = layout_dims;
  LinearLayout toOffset = *exchange.scratch.invert();
  Type element = srcRegisters.front().getType();
  Type slot = getSlotType(element);
  unsigned slotBytes = exchange.elementBytes;
  ThreadIds ids = getThreadIds(builder, loc);
  Value base = getScratchBase(builder, loc, op);

  // Stores: registers grouped by their vector's first offset.
  createBarrier(builder, loc);
  if (exchange.store.isMatrix()) {
    storeMatrices(builder, loc, src.compose(toOffset), exchange.store,
                  srcRegisters, ids, base);
  } else {
    LinearLayout offsets = src.compose(toOffset);
    ScratchAddresses addresses(builder, loc, offsets, ids, base, slot);
    int64_t width = int64_t(1) << exchange.store.vectorLog2;
    llvm::MapVector<int64_t, SmallVector<Value>> vectors;
    for (auto [reg, value] : llvm::enumerate(srcRegisters)) {
      int64_t offset = offsets.applyOne(dims::kRegister, reg)[0];
      SmallVector<Value> &vector = vectors[offset & ~(width - 1)];
      vector.resize(width);
      if (!vector[offset & (width - 1)])
        vector[offset & (width - 1)] = value;
    }
    // Each register takes its slot type right at its store (an i1 held as
    // a predicate stays one until then).
    for (auto &[offset, values] : vectors) {
      Value ptr = addresses.get(offset);
      if (width == 1) {
        LLVM::StoreOp::create(builder, loc,
                              toSlot(builder, loc, values.front(), slot), ptr);
        continue;
      }
      auto type = VectorType::get({width}, slot);
      Value vector = LLVM::UndefOp::create(builder, loc, type);
      for (auto [i, value] : llvm::enumerate(values))
        vector = LLVM::InsertElementOp::create(
            builder, loc, vector, toSlot(builder, loc, value, slot),
            createI32(builder, loc, i));
      LLVM::StoreOp::create(builder, loc, vector, ptr,
                            /*alignment=*/width * slotBytes);
    }
  }
  createBarrier(builder, loc);

  // Loads: each vector once, its elements to every register that holds them.
  LinearLayout offsets = dst.compose(toOffset);
  if (exchange.load.isMatrix())
    return loadMatrices(builder, loc, offsets, exchange.load, element, ids,
                        base);
  ScratchAddresses addresses(builder, loc, offsets, ids, base, slot);
  int64_t width = int64_t(1) << exchange.load.vectorLog2;
  llvm::DenseMap<int64_t, Value> vectors;
  SmallVector<Value> registers;
  for (int32_t reg = 0, e = dst.getInputSize(dims::kRegister); reg < e; ++reg) {
    int64_t offset = offsets.applyOne(dims::kRegister, reg)[0];
    Value &vector = vectors[offset & ~(width - 1)];
    if (!vector) {
      Type type = width == 1 ? slot : VectorType::get({width}, slot);
      vector = LLVM::LoadOp::create(builder, loc, type,
                                    addresses.get(offset & ~(width - 1)),
                                    /*alignment=*/width * slotBytes);
    }
    Value value = width == 1
                      ? vector
                      : LLVM::ExtractElementOp::create(
                            builder, loc, vector,
                            createI32(builder, loc, offset & (width - 1)))
                            .getResult();
    registers.push_back(fromSlot(builder, loc, value, element));
  }
  return registers;
}

/// convert_layout, trans and reshape: registers when they suffice
/// (exchangeInRegisters), else the scratch (exchangeThroughShared), between
/// the source's layout and the result's seen through the source's indices
/// (getExchangeLayouts).
template <typename OpTy>
struct ExchangeOpConversion : OpConversionPattern<OpTy> {
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  ExchangeOpConversion(const TypeConverter &converter, MLIRContext *context,
                       MatrixInstructions matrix)
      : OpConversionPattern<OpTy>(converter, context), matrix(matrix) {}

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    if constexpr (std::is_same_v<OpTy, tilegpu::ConvertLayoutOp>)
      if (tilegpu::layoutsAreEquivalent(srcType, resultType)) {
        rewriter.replaceOp(op, adaptor.getSrc());
        return success();
      }
    Location loc = op.getLoc();
    Type resultLLVMType = this->getTypeConverter()->convertType(resultType);
    std::optional<std::pair<LinearLayout, LinearLayout>> layouts =
        getExchangeLayouts(op);
    if (!resultLLVMType || !layouts)
      return rewriter.notifyMatchFailure(op, "layouts must hold registers");
    auto &[src, dst] = *layouts;
    SmallVector<Value> srcRegisters =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    std::optional<SmallVector<Value>> registers =
        exchangeInRegisters(rewriter, loc, srcRegisters, src, dst);
    if (!registers) {
      std::optional<SharedExchangeLayout> exchange = getSharedExchangeLayout(
          src, dst, getSharedElementBytes(srcType.getElementType()), matrix);
      if (!exchange)
        return rewriter.notifyMatchFailure(op, "no scratch layout");
      registers = exchangeThroughShared(rewriter, loc, op, srcRegisters, src,
                                        dst, *exchange);
    }
    rewriter.replaceOp(
        op, packRegisters(rewriter, loc, *registers, resultLLVMType));
    return success();
  }

  /// The ldmatrix / stmatrix forms the target has.
  MatrixInstructions matrix;
};
} // namespace

void mlir::tilegpu::populateSharedMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability) {
  MatrixInstructions matrix =
      MatrixInstructions::forCapability(computeCapability);
  patterns.add<ExchangeOpConversion<tilegpu::ConvertLayoutOp>,
               ExchangeOpConversion<tile::TransOp>,
               ExchangeOpConversion<tile::ReshapeOp>>(
      converter, patterns.getContext(), matrix);
}

namespace {
/// Writes the registers of `value` (a block of `type`) row-major at `base`.
void storeBlock(OpBuilder &builder, Location loc, RankedTensorType type,
                Value packed, Value base) {
  SmallVector<Value> registers = unpackRegisters(builder, loc, packed);
  Type element = registers.front().getType();
  Type slot = element.isInteger(1) ? builder.getI8Type() : element;
  auto indices = emitIndices(builder, loc, type, getThreadIds(builder, loc));
  for (auto [value, index] : llvm::zip(registers, indices))
    storeShared(builder, loc,
                gep(builder, loc, slot, base,
                    linearizeIndex(builder, loc, index, type.getShape())),
                value);
}

/// The base address of an allocation: the shared-memory array at its offset.
Value allocationBase(OpBuilder &builder, Location loc, Operation *alloc) {
  Value base = getScratchBase(builder, loc, alloc);
  int64_t offset = 0;
  if (auto attr = alloc->getAttrOfType<IntegerAttr>("offset"))
    offset = attr.getInt();
  if (offset == 0)
    return base;
  return gep(builder, loc, builder.getI8Type(), base,
             createI32(builder, loc, offset));
}

/// The shared-memory buffer a local_* op works on.
tilegpu::MemDescType getBuffer(tilegpu::LocalAllocOp op) {
  return op.getType();
}
tilegpu::MemDescType getBuffer(tilegpu::LocalStoreOp op) {
  return op.getDst().getType();
}
tilegpu::MemDescType getBuffer(tilegpu::LocalLoadOp op) {
  return op.getSrc().getType();
}

/// A local_* op's lowering, which matches only where its buffer is
/// row-major without swizzling (isRowMajorShared).
template <typename OpTy> struct RowMajorPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!isRowMajorShared(getBuffer(op)))
      return rewriter.notifyMatchFailure(op, "only unswizzled row-major");
    return rewriteRowMajor(op, adaptor, rewriter);
  }

  virtual LogicalResult
  rewriteRowMajor(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const = 0;
};

struct LocalAllocOpConversion : RowMajorPattern<tilegpu::LocalAllocOp> {
  using RowMajorPattern::RowMajorPattern;
  LogicalResult
  rewriteRowMajor(tilegpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = allocationBase(rewriter, loc, op);
    if (Value src = adaptor.getSrc()) {
      createBarrier(rewriter, loc);
      storeBlock(rewriter, loc, cast<RankedTensorType>(op.getSrc().getType()),
                 src, base);
      createBarrier(rewriter, loc);
    }
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct LocalStoreOpConversion : RowMajorPattern<tilegpu::LocalStoreOp> {
  using RowMajorPattern::RowMajorPattern;
  LogicalResult
  rewriteRowMajor(tilegpu::LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Readers of the old contents first, then the writes become visible.
    createBarrier(rewriter, loc);
    storeBlock(rewriter, loc, op.getSrc().getType(), adaptor.getSrc(),
               adaptor.getDst());
    createBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LocalLoadOpConversion : RowMajorPattern<tilegpu::LocalLoadOp> {
  using RowMajorPattern::RowMajorPattern;
  LogicalResult
  rewriteRowMajor(tilegpu::LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type resultType = getTypeConverter()->convertType(type);
    if (!resultType)
      return failure();
    auto *converter = getTypeConverter<TileGPUToLLVMTypeConverter>();
    Type element = converter->convertElementType(type.getElementType());
    Type slot = element.isInteger(1) ? rewriter.getI8Type() : element;
    // Aligned runs of registers holding consecutive elements of a row are
    // consecutive bytes of the tile: one vector load of up to 16 bytes each.
    unsigned bytes = slot.getIntOrFloatBitWidth() / 8;
    unsigned run =
        element.isInteger(1)
            ? 1
            : getContiguousRegisterRun(type, std::max(1u, 16 / bytes));
    auto indices =
        emitIndices(rewriter, loc, type, getThreadIds(rewriter, loc));
    SmallVector<Value> registers;
    for (unsigned reg = 0; reg < indices.size(); reg += run) {
      Value ptr =
          gep(rewriter, loc, slot, adaptor.getSrc(),
              linearizeIndex(rewriter, loc, indices[reg], type.getShape()));
      if (run == 1) {
        registers.push_back(loadShared(rewriter, loc, element, ptr));
        continue;
      }
      auto vectorType = VectorType::get({run}, element);
      Value vector = LLVM::LoadOp::create(rewriter, loc, vectorType, ptr,
                                          /*alignment=*/run * bytes);
      for (unsigned i = 0; i < run; ++i)
        registers.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, vector, createI32(rewriter, loc, i)));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, registers, resultType));
    return success();
  }
};

/// tilegpu.barrier (the compiler's) and tile.debug_barrier (the user's):
/// `bar.sync 0`.
template <typename BarrierOpTy>
struct BarrierOpConversion : OpConversionPattern<BarrierOpTy> {
  using OpConversionPattern<BarrierOpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BarrierOpTy op, typename BarrierOpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    createBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateLocalMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<LocalAllocOpConversion, LocalStoreOpConversion,
               LocalLoadOpConversion, BarrierOpConversion<tilegpu::BarrierOp>,
               BarrierOpConversion<tile::DebugBarrierOp>>(
      converter, patterns.getContext());
}
