//===- AtomicOpToLLVM.cpp - atomic_rmw, atomic_cas to LLVM ----------------===//
//
// Atomics are PTX `atom.{sem}.{scope}.global` in inline asm, one per
// element: the registers and threads that hold copies of an element skip it
// (each element is combined once) and, where the old values are used, the
// thread that owns each element hands its old value to the others through
// the op's shared-memory scratch. `max`/`min` of floats are two integer
// atomics on the bits, as Triton's: a signed max (min) for values >= 0, an
// unsigned min (max) for values < 0. A scalar atomic runs in thread 0; with
// release ordering a barrier before it puts the program's earlier accesses
// before its release, with acquire ordering a barrier after it puts the
// acquire before the program's later accesses. A bf16 add before sm_90
// (no atom.add.bf16) is a compare-and-swap loop.
//
//===----------------------------------------------------------------------===//

#include "GlobalMemoryAccess.h"
#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The PTX operation and type of one lane of an integer (or float add,
/// xchg) `atomic_rmw` on `type`.
std::string getRMWInstruction(tile::AtomicRMWKind kind, Type type) {
  std::string bits = std::to_string(type.getIntOrFloatBitWidth());
  switch (kind) {
  case tile::AtomicRMWKind::Add:
    if (type.isF16())
      return "add.noftz.f16";
    if (type.isBF16())
      return "add.noftz.bf16";
    return isa<FloatType>(type) ? "add.f" + bits : "add.u" + bits;
  case tile::AtomicRMWKind::Max:
    return "max.s" + bits;
  case tile::AtomicRMWKind::Min:
    return "min.s" + bits;
  case tile::AtomicRMWKind::UMax:
    return "max.u" + bits;
  case tile::AtomicRMWKind::UMin:
    return "min.u" + bits;
  case tile::AtomicRMWKind::And:
    return "and.b" + bits;
  case tile::AtomicRMWKind::Or:
    return "or.b" + bits;
  case tile::AtomicRMWKind::Xor:
    return "xor.b" + bits;
  case tile::AtomicRMWKind::Xchg:
    return "exch.b" + bits;
  }
  llvm_unreachable("unknown atomic kind");
}

/// The PTX ordering qualifiers of an atomic (".acq_rel.gpu").
std::string getSemScope(tile::MemSemantic sem, tile::MemSyncScope scope) {
  return "." + tile::stringifyMemSemantic(sem).str() + "." +
         tile::stringifyMemSyncScope(scope).str();
}

/// Triton's float `max`/`min`: an integer atomic on the bits, signed for
/// values >= 0 and unsigned (the other way round) for values < 0; a NaN
/// value takes neither.
Value emitFloatMinMax(OpBuilder &builder, Location loc, bool isMax,
                      StringRef semScope, Value ptr, Value value, Value mask) {
  Type type = value.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Type intType = builder.getIntegerType(width);
  Value bits = LLVM::BitcastOp::create(builder, loc, intType, value);
  Value zero =
      LLVM::ConstantOp::create(builder, loc, type, builder.getZeroAttr(type));
  Value positive =
      LLVM::FCmpOp::create(builder, loc, LLVM::FCmpPredicate::oge, value, zero);
  Value negative =
      LLVM::FCmpOp::create(builder, loc, LLVM::FCmpPredicate::olt, value, zero);
  std::string w = std::to_string(width);
  Value fromPositive = emitGlobalAtomic(
      builder, loc, (isMax ? "max.s" : "min.s") + w, semScope, ptr, bits,
      Value(), andMasks(builder, loc, mask, positive));
  Value fromNegative = emitGlobalAtomic(
      builder, loc, (isMax ? "min.u" : "max.u") + w, semScope, ptr, bits,
      Value(), andMasks(builder, loc, mask, negative));
  Value old = LLVM::SelectOp::create(builder, loc, positive, fromPositive,
                                     fromNegative);
  return LLVM::BitcastOp::create(builder, loc, type, old);
}

/// Where the op's old values are used by threads that do not own them (it
/// has scratch, getScratchBytes), each owner stores its old value to the
/// element's slot and the others to a spare slot; after a barrier every
/// thread reads its elements' slots. A barrier first keeps the stores from
/// overwriting slots an earlier use of the scratch still reads, unless
/// `afterBarrier` says one was just issued (no shared access since).
SmallVector<Value> shareOldValues(OpBuilder &builder, Location loc,
                                  Operation *op, ArrayRef<Value> old,
                                  ArrayRef<Value> owners, bool afterBarrier) {
  Type type = op->getResult(0).getType();
  Type element = old.front().getType();
  Value base = getScratchBase(builder, loc, op);
  SmallVector<Value> slots;
  Value spare;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    ThreadIds ids = getThreadIds(builder, loc);
    for (const SmallVector<Value> &index :
         emitIndices(builder, loc, tensor, ids))
      slots.push_back(linearizeIndex(builder, loc, index, tensor.getShape()));
    spare = createI32(builder, loc, tensor.getNumElements());
  } else {
    slots.push_back(createI32(builder, loc, 0));
    spare = createI32(builder, loc, 1);
  }
  if (!afterBarrier)
    createBarrier(builder, loc);
  for (auto [i, value] : llvm::enumerate(old)) {
    Value slot = slots[i];
    if (owners.size() == old.size() && owners[i])
      slot = LLVM::SelectOp::create(builder, loc, owners[i], slot, spare);
    storeShared(builder, loc, gep(builder, loc, element, base, slot), value);
  }
  createBarrier(builder, loc);
  SmallVector<Value> shared;
  for (Value slot : slots)
    shared.push_back(loadShared(builder, loc, element,
                                gep(builder, loc, element, base, slot)));
  return shared;
}

/// Lowers an atomic op: `emitLane(i, mask)` issues register i's atomic
/// where `mask` (may be null) holds and returns its old value.
LogicalResult lowerAtomic(Operation *op, tile::MemSemantic sem,
                          ArrayRef<Value> masks,
                          ConversionPatternRewriter &rewriter,
                          const TypeConverter &converter,
                          llvm::function_ref<Value(unsigned, Value)> emitLane) {
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  bool isScalar = !isa<RankedTensorType>(type);
  bool releases =
      sem == tile::MemSemantic::Release || sem == tile::MemSemantic::AcqRel;
  bool acquires =
      sem == tile::MemSemantic::Acquire || sem == tile::MemSemantic::AcqRel;
  if (isScalar && releases)
    createBarrier(rewriter, loc);
  SmallVector<Value> owners = getOwnerPredicates(rewriter, loc, type);
  SmallVector<Value> results;
  for (unsigned i = 0; i < masks.size(); ++i) {
    Value owner = owners.size() == masks.size() ? owners[i] : Value();
    results.push_back(emitLane(i, andMasks(rewriter, loc, masks[i], owner)));
  }
  // A release barrier before the atomics also separates the scratch's
  // earlier reads from these stores (the atomics touch only global memory).
  if (op->hasAttr(kScratchOffsetAttrName))
    results = shareOldValues(rewriter, loc, op, results, owners,
                             /*afterBarrier=*/isScalar && releases);
  else if (isScalar && acquires)
    createBarrier(rewriter, loc);
  rewriter.replaceOp(
      op, packRegisters(rewriter, loc, results, converter.convertType(type)));
  return success();
}

SmallVector<Value> unpackOrNulls(OpBuilder &builder, Location loc, Value value,
                                 unsigned count) {
  if (!value)
    return SmallVector<Value>(count, Value());
  return unpackRegisters(builder, loc, value);
}

struct AtomicRMWOpConversion : OpConversionPattern<tile::AtomicRMWOp> {
  AtomicRMWOpConversion(const TypeConverter &converter, MLIRContext *context,
                        unsigned computeCapability)
      : OpConversionPattern(converter, context),
        computeCapability(computeCapability) {}
  LogicalResult
  matchAndRewrite(tile::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks =
        unpackOrNulls(rewriter, loc, adaptor.getMask(), ptrs.size());
    tile::AtomicRMWKind kind = op.getKind();
    std::string semScope = getSemScope(op.getSem(), op.getScope());
    bool isFloat = isa<FloatType>(getElementTypeOrSelf(op.getType()));
    bool isMinMax =
        kind == tile::AtomicRMWKind::Max || kind == tile::AtomicRMWKind::Min;
    return lowerAtomic(
        op, op.getSem(), masks, rewriter, *getTypeConverter(),
        [&](unsigned i, Value mask) {
          if (isFloat && isMinMax)
            return emitFloatMinMax(rewriter, loc,
                                   kind == tile::AtomicRMWKind::Max, semScope,
                                   ptrs[i], values[i], mask);
          // atom.add.noftz.bf16 is sm_90's; before, a swap loop.
          if (kind == tile::AtomicRMWKind::Add &&
              values[i].getType().isBF16() && computeCapability != 0 &&
              computeCapability < 90)
            return emitGlobalBF16AddByCAS(rewriter, loc, semScope, ptrs[i],
                                          values[i], mask);
          return emitGlobalAtomic(rewriter, loc,
                                  getRMWInstruction(kind, values[i].getType()),
                                  semScope, ptrs[i], values[i], Value(), mask);
        });
  }

  unsigned computeCapability;
};

struct AtomicCASOpConversion : OpConversionPattern<tile::AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> cmps = unpackRegisters(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getValue());
    std::string semScope = getSemScope(op.getSem(), op.getScope());
    SmallVector<Value> masks(ptrs.size(), Value());
    return lowerAtomic(
        op, op.getSem(), masks, rewriter, *getTypeConverter(),
        [&](unsigned i, Value mask) {
          std::string instruction =
              "cas.b" +
              std::to_string(values[i].getType().getIntOrFloatBitWidth());
          return emitGlobalAtomic(rewriter, loc, instruction, semScope, ptrs[i],
                                  values[i], cmps[i], mask);
        });
  }
};
} // namespace

void mlir::tilegpu::populateAtomicOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns,
    unsigned computeCapability) {
  patterns.add<AtomicRMWOpConversion>(converter, patterns.getContext(),
                                      computeCapability);
  patterns.add<AtomicCASOpConversion>(converter, patterns.getContext());
}
