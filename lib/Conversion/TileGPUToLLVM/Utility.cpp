//===- Utility.cpp - Helpers of the tilegpu to LLVM lowering --------------===//
//
// Register packing, thread ids, element indices of a layout, shared memory
// and predicated global memory accesses in inline PTX.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilec;

SmallVector<Value> mlir::tilec::unpackRegisters(OpBuilder &builder,
                                                Location loc, Value packed) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> registers;
  for (unsigned i = 0, e = structType.getBody().size(); i < e; ++i)
    registers.push_back(LLVM::ExtractValueOp::create(builder, loc, packed, i));
  return registers;
}

Value mlir::tilec::packRegisters(OpBuilder &builder, Location loc,
                                 ValueRange registers, Type type) {
  if (!isa<LLVM::LLVMStructType>(type))
    return registers.front();
  Value packed = LLVM::UndefOp::create(builder, loc, type);
  for (auto [i, value] : llvm::enumerate(registers))
    packed = LLVM::InsertValueOp::create(builder, loc, packed, value, i);
  return packed;
}

Value mlir::tilec::createI32(OpBuilder &builder, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

Value mlir::tilec::createI64(OpBuilder &builder, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                  builder.getI64IntegerAttr(value));
}

ThreadIds mlir::tilec::getThreadIds(OpBuilder &builder, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value lane =
      LLVM::AndOp::create(builder, loc, tid, createI32(builder, loc, 31));
  Value warp =
      LLVM::LShrOp::create(builder, loc, tid, createI32(builder, loc, 5));
  return {lane, warp};
}

SmallVector<SmallVector<Value>>
mlir::tilec::emitIndices(OpBuilder &builder, Location loc,
                         RankedTensorType type, const ThreadIds &ids) {
  std::optional<tilegpu::DistributedLayout> layout =
      tilegpu::getDistributedLayout(type);
  SmallVector<SmallVector<Value>> indices;
  if (!layout)
    return indices;
  tilegpu::BlockedEncodingAttr root = layout->root;
  // The part of the index that depends on the thread, per block dimension.
  SmallVector<Value> threadOffsets;
  for (unsigned d : layout->blockDims) {
    unsigned spt = root.getSizePerThread()[d];
    unsigned tpw = root.getThreadsPerWarp()[d];
    unsigned wpc = root.getWarpsPerCTA()[d];
    auto coordinate = [&](Value id, unsigned stride, unsigned count) {
      Value shifted = LLVM::LShrOp::create(
          builder, loc, id, createI32(builder, loc, llvm::Log2_32(stride)));
      return LLVM::AndOp::create(builder, loc, shifted,
                                 createI32(builder, loc, count - 1));
    };
    Value laneD = coordinate(ids.lane, layout->getLaneStride(d), tpw);
    Value warpD = coordinate(ids.warp, layout->getWarpStride(d), wpc);
    Value offset = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpD,
                            createI32(builder, loc, tpw * spt)),
        LLVM::MulOp::create(builder, loc, laneD, createI32(builder, loc, spt)));
    threadOffsets.push_back(offset);
  }
  for (unsigned reg = 0, e = layout->getNumRegisters(); reg < e; ++reg) {
    SmallVector<unsigned> coords = layout->getRegisterCoords(reg);
    SmallVector<Value> index;
    for (auto [i, d] : llvm::enumerate(layout->blockDims)) {
      Value value = LLVM::AddOp::create(
          builder, loc, threadOffsets[i],
          createI32(builder, loc, layout->getRegisterOffset(d, coords[d])));
      int64_t size = layout->rootShape[d];
      if (llvm::isPowerOf2_64(size))
        value = LLVM::AndOp::create(builder, loc, value,
                                    createI32(builder, loc, size - 1));
      else
        value = LLVM::URemOp::create(builder, loc, value,
                                     createI32(builder, loc, size));
      index.push_back(value);
    }
    indices.push_back(index);
  }
  return indices;
}

Value mlir::tilec::getScratchBase(OpBuilder &builder, Location loc,
                                  Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  MLIRContext *context = builder.getContext();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kSharedMemoryName);
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto arrayType = LLVM::LLVMArrayType::get(IntegerType::get(context, 8), 0);
    global = LLVM::GlobalOp::create(
        builder, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::External,
        kSharedMemoryName, Attribute(), /*alignment=*/16, kSharedAddressSpace);
  }
  Value base = LLVM::AddressOfOp::create(builder, loc, global);
  int64_t offset = 0;
  if (auto attr =
          op->getAttrOfType<IntegerAttr>(tilegpu::kScratchOffsetAttrName))
    offset = attr.getInt();
  if (offset == 0)
    return base;
  return gep(builder, loc, builder.getI8Type(), base,
             createI32(builder, loc, offset));
}

Value mlir::tilec::gep(OpBuilder &builder, Location loc, Type elementType,
                       Value base, Value index) {
  return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                             ValueRange{index});
}

void mlir::tilec::createBarrier(OpBuilder &builder, Location loc) {
  NVVM::Barrier0Op::create(builder, loc);
}

namespace {
/// The inline-PTX register class and width of a scalar type in memory.
struct AsmType {
  unsigned bits;       // Width of the memory access.
  StringRef constraint; // Register constraint letter.
  Type intType;        // Integer type of the register.
};

AsmType getAsmType(OpBuilder &builder, Type type) {
  unsigned bits = isa<LLVM::LLVMPointerType>(type)
                      ? 64
                      : std::max(8u, type.getIntOrFloatBitWidth());
  if (bits <= 16)
    return {bits, "h", builder.getI16Type()};
  if (bits == 32)
    return {bits, "r", builder.getI32Type()};
  return {bits, "l", builder.getI64Type()};
}

/// Converts `value` to the integer register type of the asm operand.
Value toAsmRegister(OpBuilder &builder, Location loc, Value value,
                    const AsmType &asmType) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(builder, loc, asmType.intType, value);
  if (isa<FloatType>(type))
    value = LLVM::BitcastOp::create(
        builder, loc, builder.getIntegerType(type.getIntOrFloatBitWidth()),
        value);
  if (value.getType() != asmType.intType)
    value = LLVM::ZExtOp::create(builder, loc, asmType.intType, value);
  return value;
}

/// Converts an asm register back to `type`.
Value fromAsmRegister(OpBuilder &builder, Location loc, Value value,
                      Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(builder, loc, type, value);
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits == 1)
    return LLVM::ICmpOp::create(
        builder, loc, LLVM::ICmpPredicate::ne, value,
        LLVM::ConstantOp::create(builder, loc, value.getType(),
                                 builder.getIntegerAttr(value.getType(), 0)));
  if (value.getType().getIntOrFloatBitWidth() != bits)
    value = LLVM::TruncOp::create(builder, loc, builder.getIntegerType(bits),
                                  value);
  if (isa<FloatType>(type))
    value = LLVM::BitcastOp::create(builder, loc, type, value);
  return value;
}

Value zeroOf(OpBuilder &builder, Location loc, Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::ZeroOp::create(builder, loc, type);
  return LLVM::ConstantOp::create(builder, loc, type,
                                  builder.getZeroAttr(type));
}
} // namespace

Value mlir::tilec::emitGlobalLoad(OpBuilder &builder, Location loc,
                                  Type elementType, Value ptr, Value mask,
                                  Value other) {
  AsmType asmType = getAsmType(builder, elementType);
  if (!other)
    other = zeroOf(builder, loc, elementType);
  std::string width = std::to_string(asmType.bits);
  // Bytes load as unsigned into a 16-bit register.
  std::string op = asmType.bits == 8 ? "ld.global.u8" : "ld.global.b" + width;
  std::string asmString;
  std::string constraints;
  SmallVector<Value> operands{ptr};
  if (mask) {
    asmString = "mov.b" + std::to_string(asmType.bits == 8 ? 16 : asmType.bits) +
                " $0, $3;\n\t@$2 " + op + " $0, [ $1 + 0 ];";
    constraints = "=" + asmType.constraint.str() + ",l,b," +
                  asmType.constraint.str();
    operands.push_back(mask);
    operands.push_back(toAsmRegister(builder, loc, other, asmType));
  } else {
    asmString = op + " $0, [ $1 + 0 ];";
    constraints = "=" + asmType.constraint.str() + ",l";
  }
  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, asmType.intType, operands, asmString, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return fromAsmRegister(builder, loc, asmOp.getResult(0), elementType);
}

void mlir::tilec::emitGlobalStore(OpBuilder &builder, Location loc, Value ptr,
                                  Value value, Value mask) {
  AsmType asmType = getAsmType(builder, value.getType());
  std::string op = "st.global.b" + std::to_string(asmType.bits);
  Value reg = toAsmRegister(builder, loc, value, asmType);
  if (asmType.bits == 8) {
    op = "st.global.u8";
  }
  SmallVector<Value> operands{ptr, reg};
  std::string asmString = op + " [ $0 + 0 ], $1;";
  std::string constraints = "l," + asmType.constraint.str();
  if (mask) {
    asmString = "@$2 " + asmString;
    constraints += ",b";
    operands.push_back(mask);
  }
  LLVM::InlineAsmOp::create(
      builder, loc, TypeRange(), operands, asmString, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

FailureOr<Value> mlir::tilec::emitGlobalAtomicAdd(OpBuilder &builder,
                                                  Location loc, Value ptr,
                                                  Value value, Value mask) {
  Type type = value.getType();
  std::string suffix;
  if (type.isF16())
    suffix = "noftz.f16";
  else if (type.isBF16())
    suffix = "noftz.bf16";
  else if (type.isF32())
    suffix = "f32";
  else if (type.isF64())
    suffix = "f64";
  else if (type.isInteger(32))
    suffix = "u32";
  else if (type.isInteger(64))
    suffix = "u64";
  else
    return failure();
  AsmType asmType = getAsmType(builder, type);
  std::string zero = "mov.b" + std::to_string(asmType.bits) + " $0, 0;\n\t";
  std::string asmString = zero + (mask ? "@$3 " : "") +
                          "atom.global.add." + suffix + " $0, [ $1 + 0 ], $2;";
  std::string c = asmType.constraint.str();
  std::string constraints = "=" + c + ",l," + c + (mask ? ",b" : "");
  SmallVector<Value> operands{ptr, toAsmRegister(builder, loc, value, asmType)};
  if (mask)
    operands.push_back(mask);
  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, asmType.intType, operands, asmString, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return fromAsmRegister(builder, loc, asmOp.getResult(0), type);
}

void mlir::tilec::storeShared(OpBuilder &builder, Location loc, Value ptr,
                              Value value) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(builder, loc, builder.getI8Type(), value);
  LLVM::StoreOp::create(builder, loc, value, ptr);
}

Value mlir::tilec::loadShared(OpBuilder &builder, Location loc, Type type,
                              Value ptr) {
  if (type.isInteger(1)) {
    Value byte = LLVM::LoadOp::create(builder, loc, builder.getI8Type(), ptr);
    return LLVM::TruncOp::create(builder, loc, type, byte);
  }
  return LLVM::LoadOp::create(builder, loc, type, ptr);
}

Value mlir::tilec::linearizeIndex(OpBuilder &builder, Location loc,
                                  ArrayRef<Value> index,
                                  ArrayRef<int64_t> shape) {
  Value linear = createI32(builder, loc, 0);
  for (auto [value, size] : llvm::zip(index, shape)) {
    linear = LLVM::MulOp::create(builder, loc, linear,
                                 createI32(builder, loc, size));
    linear = LLVM::AddOp::create(builder, loc, linear, value);
  }
  return linear;
}
