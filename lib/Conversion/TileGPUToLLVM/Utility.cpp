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
using namespace mlir::tilegpu;

SmallVector<Value> mlir::tilegpu::unpackRegisters(OpBuilder &builder,
                                                  Location loc, Value packed) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> registers;
  for (unsigned i = 0, e = structType.getBody().size(); i < e; ++i)
    registers.push_back(LLVM::ExtractValueOp::create(builder, loc, packed, i));
  return registers;
}

Value mlir::tilegpu::packRegisters(OpBuilder &builder, Location loc,
                                   ValueRange registers, Type type) {
  if (!isa<LLVM::LLVMStructType>(type))
    return registers.front();
  Value packed = LLVM::UndefOp::create(builder, loc, type);
  for (auto [i, value] : llvm::enumerate(registers))
    packed = LLVM::InsertValueOp::create(builder, loc, packed, value, i);
  return packed;
}

Value mlir::tilegpu::createI32(OpBuilder &builder, Location loc,
                               int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

Value mlir::tilegpu::createI64(OpBuilder &builder, Location loc,
                               int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                  builder.getI64IntegerAttr(value));
}

ThreadIds mlir::tilegpu::getThreadIds(OpBuilder &builder, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value lane =
      LLVM::AndOp::create(builder, loc, tid, createI32(builder, loc, 31));
  Value warp =
      LLVM::LShrOp::create(builder, loc, tid, createI32(builder, loc, 5));
  return {lane, warp};
}

namespace {

Value addConstant(OpBuilder &builder, Location loc, Value value,
                  int64_t constant) {
  return LLVM::AddOp::create(builder, loc, value,
                             createI32(builder, loc, constant));
}

/// `value mod size` for the wrap-around of blocks smaller than a layout tile.
Value wrap(OpBuilder &builder, Location loc, Value value, int64_t size) {
  if (llvm::isPowerOf2_64(size))
    return LLVM::AndOp::create(builder, loc, value,
                               createI32(builder, loc, size - 1));
  return LLVM::URemOp::create(builder, loc, value,
                              createI32(builder, loc, size));
}

/// emitIndices for mma accumulators and dot operands (see LayoutUtils.h
/// for the layout functions these evaluate).
SmallVector<SmallVector<Value>> emitTensorCoreIndices(OpBuilder &builder,
                                                      Location loc,
                                                      RankedTensorType type,
                                                      const ThreadIds &ids) {
  SmallVector<SmallVector<Value>> indices;
  Value groupId = shiftAnd(builder, loc, ids.lane, 2, 7);
  Value tig = shiftAnd(builder, loc, ids.lane, 0, 3);
  if (auto mma = tilegpu::getMmaLayout(type)) {
    Value warpM = LLVM::URemOp::create(builder, loc, ids.warp,
                                       createI32(builder, loc, mma->wm));
    Value warpN = LLVM::URemOp::create(
        builder, loc,
        LLVM::UDivOp::create(builder, loc, ids.warp,
                             createI32(builder, loc, mma->wm)),
        createI32(builder, loc, mma->wn));
    Value rowBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpM, createI32(builder, loc, 16)),
        groupId);
    Value colBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpN, createI32(builder, loc, 8)),
        LLVM::MulOp::create(builder, loc, tig, createI32(builder, loc, 2)));
    for (unsigned reg = 0; reg < mma->getNumRegisters(); ++reg) {
      unsigned j = reg % 4, tile = reg / 4;
      int64_t m = tile / mma->repN, n = tile % mma->repN;
      Value row = addConstant(builder, loc, rowBase,
                              m * 16 * mma->wm + (j >= 2 ? 8 : 0));
      Value col = addConstant(builder, loc, colBase, n * 8 * mma->wn + j % 2);
      indices.push_back({wrap(builder, loc, row, mma->shape[0]),
                         wrap(builder, loc, col, mma->shape[1])});
    }
    return indices;
  }
  auto dot = tilegpu::getDotOperandLayout(type);
  if (!dot)
    return indices;
  unsigned kStep = dot->getKStep(), perStep = dot->getRegistersPerStep();
  Value kBase = LLVM::MulOp::create(builder, loc, tig,
                                    createI32(builder, loc, dot->kWidth));
  Value outerBase;
  if (dot->opIdx == 0) {
    Value warpM = LLVM::URemOp::create(builder, loc, ids.warp,
                                       createI32(builder, loc, dot->wm));
    outerBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpM, createI32(builder, loc, 16)),
        groupId);
  } else {
    Value warpN = LLVM::URemOp::create(
        builder, loc,
        LLVM::UDivOp::create(builder, loc, ids.warp,
                             createI32(builder, loc, dot->wm)),
        createI32(builder, loc, dot->wn));
    outerBase = LLVM::AddOp::create(
        builder, loc,
        LLVM::MulOp::create(builder, loc, warpN, createI32(builder, loc, 8)),
        groupId);
  }
  for (unsigned reg = 0; reg < dot->getNumRegisters(); ++reg) {
    unsigned i = reg % perStep, group = reg / perStep;
    int64_t outer = group / dot->kSteps, step = group % dot->kSteps;
    unsigned p = i / dot->kWidth, e = i % dot->kWidth;
    if (dot->opIdx == 0) {
      Value row = addConstant(builder, loc, outerBase,
                              outer * 16 * dot->wm + (p % 2) * 8);
      Value k = addConstant(builder, loc, kBase,
                            step * kStep + e + (p / 2) * (kStep / 2));
      indices.push_back({wrap(builder, loc, row, dot->shape[0]),
                         wrap(builder, loc, k, dot->shape[1])});
    } else {
      Value k =
          addConstant(builder, loc, kBase, step * kStep + e + p * (kStep / 2));
      Value col = addConstant(builder, loc, outerBase, outer * 8 * dot->wn);
      indices.push_back({wrap(builder, loc, k, dot->shape[0]),
                         wrap(builder, loc, col, dot->shape[1])});
    }
  }
  return indices;
}
} // namespace

SmallVector<SmallVector<Value>>
mlir::tilegpu::emitIndices(OpBuilder &builder, Location loc,
                           RankedTensorType type, const ThreadIds &ids) {
  std::optional<tilegpu::DistributedLayout> layout =
      tilegpu::getDistributedLayout(type);
  SmallVector<SmallVector<Value>> indices;
  if (!layout)
    return emitTensorCoreIndices(builder, loc, type, ids);
  tilegpu::BlockedEncodingAttr root = layout->root;
  // The part of the index that depends on the thread, per block dimension.
  SmallVector<Value> threadOffsets;
  for (unsigned d : layout->blockDims) {
    unsigned spt = root.getSizePerThread()[d];
    unsigned tpw = root.getThreadsPerWarp()[d];
    unsigned wpc = root.getWarpsPerCTA()[d];
    auto coordinate = [&](Value id, unsigned stride, unsigned count) {
      return shiftAnd(builder, loc, id, llvm::Log2_32(stride), count - 1);
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

Value mlir::tilegpu::getScratchBase(OpBuilder &builder, Location loc,
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
        kSharedMemoryName, Attribute(),
        /*alignment=*/kNVMMASharedAlignment, kSharedAddressSpace);
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

Value mlir::tilegpu::gep(OpBuilder &builder, Location loc, Type elementType,
                         Value base, Value index) {
  return LLVM::GEPOp::create(builder, loc, base.getType(), elementType, base,
                             ValueRange{index});
}

Value mlir::tilegpu::shiftAnd(OpBuilder &builder, Location loc, Value value,
                              unsigned shift, unsigned mask) {
  if (shift)
    value = LLVM::LShrOp::create(builder, loc, value,
                                 createI32(builder, loc, shift));
  return LLVM::AndOp::create(builder, loc, value,
                             createI32(builder, loc, mask));
}

LLVM::InlineAsmOp
mlir::tilegpu::createInlineAsm(OpBuilder &builder, Location loc, Type result,
                               ValueRange operands, StringRef text,
                               StringRef constraints, bool hasSideEffects) {
  return LLVM::InlineAsmOp::create(
      builder, loc, result ? TypeRange(result) : TypeRange(), operands, text,
      constraints, hasSideEffects, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

void mlir::tilegpu::createBarrier(OpBuilder &builder, Location loc) {
  NVVM::Barrier0Op::create(builder, loc);
}

namespace {
/// The inline-PTX register class and width of a scalar type in memory.
struct AsmType {
  unsigned bits;        // Width of the memory access.
  StringRef constraint; // Register constraint letter.
  Type intType;         // Integer type of the register.
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

Value mlir::tilegpu::emitGlobalLoad(OpBuilder &builder, Location loc,
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
    asmString = "mov.b" +
                std::to_string(asmType.bits == 8 ? 16 : asmType.bits) +
                " $0, $3;\n\t@$2 " + op + " $0, [ $1 + 0 ];";
    constraints =
        "=" + asmType.constraint.str() + ",l,b," + asmType.constraint.str();
    operands.push_back(mask);
    operands.push_back(toAsmRegister(builder, loc, other, asmType));
  } else {
    asmString = op + " $0, [ $1 + 0 ];";
    constraints = "=" + asmType.constraint.str() + ",l";
  }
  auto asmOp = createInlineAsm(builder, loc, asmType.intType, operands,
                               asmString, constraints);
  return fromAsmRegister(builder, loc, asmOp.getResult(0), elementType);
}

void mlir::tilegpu::emitGlobalStore(OpBuilder &builder, Location loc, Value ptr,
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
  createInlineAsm(builder, loc, Type(), operands, asmString, constraints);
}

FailureOr<Value> mlir::tilegpu::emitGlobalAtomicAdd(OpBuilder &builder,
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
  std::string asmString = zero + (mask ? "@$3 " : "") + "atom.global.add." +
                          suffix + " $0, [ $1 + 0 ], $2;";
  std::string c = asmType.constraint.str();
  std::string constraints = "=" + c + ",l," + c + (mask ? ",b" : "");
  SmallVector<Value> operands{ptr, toAsmRegister(builder, loc, value, asmType)};
  if (mask)
    operands.push_back(mask);
  auto asmOp = createInlineAsm(builder, loc, asmType.intType, operands,
                               asmString, constraints);
  return fromAsmRegister(builder, loc, asmOp.getResult(0), type);
}

void mlir::tilegpu::storeShared(OpBuilder &builder, Location loc, Value ptr,
                                Value value) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(builder, loc, builder.getI8Type(), value);
  LLVM::StoreOp::create(builder, loc, value, ptr);
}

Value mlir::tilegpu::loadShared(OpBuilder &builder, Location loc, Type type,
                                Value ptr) {
  if (type.isInteger(1)) {
    Value byte = LLVM::LoadOp::create(builder, loc, builder.getI8Type(), ptr);
    return LLVM::TruncOp::create(builder, loc, type, byte);
  }
  return LLVM::LoadOp::create(builder, loc, type, ptr);
}

Value mlir::tilegpu::rowElementAddress(OpBuilder &builder, Location loc,
                                       Type element, Value base, Value row,
                                       Value col, int64_t stride) {
  Value offset = LLVM::AddOp::create(
      builder, loc,
      LLVM::MulOp::create(builder, loc, row, createI32(builder, loc, stride)),
      col);
  return gep(builder, loc, element, base, offset);
}

void mlir::tilegpu::storeSharedRows(OpBuilder &builder, Location loc,
                                    RankedTensorType type,
                                    ArrayRef<Value> registers, Value base,
                                    int64_t stride) {
  Type element = registers.front().getType();
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  unsigned run = getContiguousRegisterRun(type, 16 / bytes);
  auto indices = emitIndices(builder, loc, type, getThreadIds(builder, loc));
  for (unsigned reg = 0; reg < registers.size(); reg += run) {
    Value ptr = rowElementAddress(builder, loc, element, base, indices[reg][0],
                                  indices[reg][1], stride);
    if (run == 1) {
      LLVM::StoreOp::create(builder, loc, registers[reg], ptr);
      continue;
    }
    auto vectorType = VectorType::get({run}, element);
    Value vector = LLVM::UndefOp::create(builder, loc, vectorType);
    for (unsigned i = 0; i < run; ++i)
      vector = LLVM::InsertElementOp::create(
          builder, loc, vector, registers[reg + i], createI32(builder, loc, i));
    LLVM::StoreOp::create(builder, loc, vector, ptr, /*alignment=*/run * bytes);
  }
}

SmallVector<Value> mlir::tilegpu::loadSharedRows(OpBuilder &builder,
                                                 Location loc,
                                                 RankedTensorType type,
                                                 Type element, Value base,
                                                 int64_t stride) {
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  unsigned run = getContiguousRegisterRun(type, 16 / bytes);
  auto indices = emitIndices(builder, loc, type, getThreadIds(builder, loc));
  SmallVector<Value> registers;
  for (unsigned reg = 0; reg < indices.size(); reg += run) {
    Value ptr = rowElementAddress(builder, loc, element, base, indices[reg][0],
                                  indices[reg][1], stride);
    if (run == 1) {
      registers.push_back(LLVM::LoadOp::create(builder, loc, element, ptr));
      continue;
    }
    auto vectorType = VectorType::get({run}, element);
    Value vector = LLVM::LoadOp::create(builder, loc, vectorType, ptr,
                                        /*alignment=*/run * bytes);
    for (unsigned i = 0; i < run; ++i)
      registers.push_back(LLVM::ExtractElementOp::create(
          builder, loc, vector, createI32(builder, loc, i)));
  }
  return registers;
}

Value mlir::tilegpu::linearizeIndex(OpBuilder &builder, Location loc,
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

namespace {
/// The number of 32-bit words of a vector access of `width` elements of
/// `type`, or 0 when it does not split into whole words.
unsigned getWordCount(Type type, unsigned width) {
  unsigned bits =
      isa<LLVM::LLVMPointerType>(type) ? 64 : type.getIntOrFloatBitWidth();
  if (bits < 8 || (bits * width) % 32 != 0)
    return 0;
  return bits * width / 32;
}

/// The conjunction of `masks`.
Value allOf(OpBuilder &builder, Location loc, ArrayRef<Value> masks) {
  Value all = masks.front();
  for (Value mask : masks.drop_front())
    all = LLVM::AndOp::create(builder, loc, all, mask);
  return all;
}

/// `mask && !all`: lanes loaded one by one when the vector path is off.
Value leftover(OpBuilder &builder, Location loc, Value mask, Value all) {
  Value one = LLVM::ConstantOp::create(builder, loc, builder.getI1Type(),
                                       builder.getBoolAttr(true));
  Value notAll = LLVM::XOrOp::create(builder, loc, all, one);
  return LLVM::AndOp::create(builder, loc, mask, notAll);
}

/// Reinterprets `words` i32 values as `width` elements of `type`.
SmallVector<Value> wordsToElements(OpBuilder &builder, Location loc,
                                   ArrayRef<Value> words, Type type,
                                   unsigned width) {
  Type i32 = builder.getI32Type();
  bool isPtr = isa<LLVM::LLVMPointerType>(type);
  Type scalar = isPtr ? builder.getI64Type() : type;
  auto wordVector = VectorType::get({(int64_t)words.size()}, i32);
  Value vector = LLVM::UndefOp::create(builder, loc, wordVector);
  for (auto [i, word] : llvm::enumerate(words))
    vector = LLVM::InsertElementOp::create(builder, loc, vector, word,
                                           createI32(builder, loc, i));
  auto elementVector = VectorType::get({(int64_t)width}, scalar);
  Value cast = LLVM::BitcastOp::create(builder, loc, elementVector, vector);
  SmallVector<Value> elements;
  for (unsigned i = 0; i < width; ++i) {
    Value element = LLVM::ExtractElementOp::create(builder, loc, cast,
                                                   createI32(builder, loc, i));
    if (isPtr)
      element = LLVM::IntToPtrOp::create(builder, loc, type, element);
    elements.push_back(element);
  }
  return elements;
}

/// Reinterprets elements as i32 words.
SmallVector<Value> elementsToWords(OpBuilder &builder, Location loc,
                                   ArrayRef<Value> elements) {
  Type type = elements.front().getType();
  bool isPtr = isa<LLVM::LLVMPointerType>(type);
  Type scalar = isPtr ? builder.getI64Type() : type;
  auto elementVector = VectorType::get({(int64_t)elements.size()}, scalar);
  Value vector = LLVM::UndefOp::create(builder, loc, elementVector);
  for (auto [i, element] : llvm::enumerate(elements)) {
    Value value =
        isPtr ? Value(LLVM::PtrToIntOp::create(builder, loc, scalar, element))
              : element;
    vector = LLVM::InsertElementOp::create(builder, loc, vector, value,
                                           createI32(builder, loc, i));
  }
  unsigned words = getWordCount(type, elements.size());
  auto wordVector = VectorType::get({(int64_t)words}, builder.getI32Type());
  Value cast = LLVM::BitcastOp::create(builder, loc, wordVector, vector);
  SmallVector<Value> result;
  for (unsigned i = 0; i < words; ++i)
    result.push_back(LLVM::ExtractElementOp::create(
        builder, loc, cast, createI32(builder, loc, i)));
  return result;
}

std::string wordList(unsigned first, unsigned count) {
  std::string list = "{";
  for (unsigned i = 0; i < count; ++i)
    list += (i ? ", $" : "$") + std::to_string(first + i);
  return list + "}";
}

} // namespace

SmallVector<Value>
mlir::tilegpu::emitGlobalVectorLoad(OpBuilder &builder, Location loc,
                                    Type elementType, unsigned width,
                                    ArrayRef<Value> ptrs, ArrayRef<Value> masks,
                                    ArrayRef<Value> others, bool uniformMask) {
  unsigned words = getWordCount(elementType, width);
  if (width == 1 || words == 0 || words > 4 || elementType.isInteger(1)) {
    SmallVector<Value> values;
    for (unsigned i = 0; i < width; ++i)
      values.push_back(emitGlobalLoad(builder, loc, elementType, ptrs[i],
                                      masks.empty() ? Value() : masks[i],
                                      others.empty() ? Value() : others[i]));
    return values;
  }
  Type i32 = builder.getI32Type();
  SmallVector<Type> resultTypes(words, i32);
  Type resultType =
      LLVM::LLVMStructType::getLiteral(builder.getContext(), resultTypes);
  std::string suffix = words == 1 ? "" : ".v" + std::to_string(words);
  std::string constraints;
  for (unsigned i = 0; i < words; ++i)
    constraints += (i ? ",=r" : "=r");
  constraints += ",l";
  SmallVector<Value> operands{ptrs.front()};
  std::string text;
  std::string destination = words == 1 ? std::string("$0") : wordList(0, words);
  Value all;
  if (!masks.empty()) {
    all = uniformMask ? masks.front() : allOf(builder, loc, masks);
    operands.push_back(all);
    constraints += ",b";
    SmallVector<Value> otherValues(others);
    if (otherValues.empty())
      for (unsigned i = 0; i < width; ++i)
        otherValues.push_back(zeroOf(builder, loc, elementType));
    SmallVector<Value> otherWords = elementsToWords(builder, loc, otherValues);
    for (unsigned i = 0; i < words; ++i) {
      text += "mov.b32 $" + std::to_string(i) + ", $" +
              std::to_string(words + 2 + i) + ";\n\t";
      operands.push_back(otherWords[i]);
      constraints += ",r";
    }
    text += "@$" + std::to_string(words + 1) + " ";
  }
  text += "ld.global" + suffix + ".b32 " + destination + ", [ $" +
          std::to_string(words) + " + 0 ];";
  auto asmOp =
      createInlineAsm(builder, loc, resultType, operands, text, constraints);
  SmallVector<Value> wordValues;
  for (unsigned i = 0; i < words; ++i)
    wordValues.push_back(
        LLVM::ExtractValueOp::create(builder, loc, asmOp.getResult(0), i));
  SmallVector<Value> values =
      wordsToElements(builder, loc, wordValues, elementType, width);
  if (!masks.empty() && !uniformMask)
    for (unsigned i = 0; i < width; ++i)
      values[i] =
          emitGlobalLoad(builder, loc, elementType, ptrs[i],
                         leftover(builder, loc, masks[i], all), values[i]);
  return values;
}

void mlir::tilegpu::emitGlobalVectorStore(OpBuilder &builder, Location loc,
                                          ArrayRef<Value> ptrs,
                                          ArrayRef<Value> values,
                                          ArrayRef<Value> masks,
                                          bool uniformMask) {
  Type type = values.front().getType();
  unsigned width = values.size();
  unsigned words = getWordCount(type, width);
  if (width == 1 || words == 0 || words > 4 || type.isInteger(1)) {
    for (unsigned i = 0; i < width; ++i)
      emitGlobalStore(builder, loc, ptrs[i], values[i],
                      masks.empty() ? Value() : masks[i]);
    return;
  }
  SmallVector<Value> wordValues = elementsToWords(builder, loc, values);
  SmallVector<Value> operands{ptrs.front()};
  std::string constraints = "l";
  for (Value word : wordValues) {
    operands.push_back(word);
    constraints += ",r";
  }
  std::string text;
  Value all;
  if (!masks.empty()) {
    all = uniformMask ? masks.front() : allOf(builder, loc, masks);
    operands.push_back(all);
    constraints += ",b";
    text = "@$" + std::to_string(words + 1) + " ";
  }
  std::string suffix = words == 1 ? "" : ".v" + std::to_string(words);
  std::string source = words == 1 ? std::string("$1") : wordList(1, words);
  text += "st.global" + suffix + ".b32 [ $0 + 0 ], " + source + ";";
  createInlineAsm(builder, loc, Type(), operands, text, constraints);
  if (!masks.empty() && !uniformMask)
    for (unsigned i = 0; i < width; ++i)
      emitGlobalStore(builder, loc, ptrs[i], values[i],
                      leftover(builder, loc, masks[i], all));
}

Value mlir::tilegpu::emitSwizzledOffset(OpBuilder &builder, Location loc,
                                        const NVMMASharedLayout &layout,
                                        Value row, Value col) {
  auto c = [&](int64_t v) { return createI32(builder, loc, v); };
  int64_t perRow = layout.getElementsPerRow();
  unsigned perRowLog = llvm::Log2_64(perRow);
  Value column = LLVM::LShrOp::create(builder, loc, col, c(perRowLog));
  Value inRow = LLVM::AndOp::create(builder, loc, col, c(perRow - 1));
  Value offset = LLVM::AddOp::create(
      builder, loc,
      LLVM::MulOp::create(builder, loc, column, c(layout.getColumnStride())),
      LLVM::AddOp::create(
          builder, loc,
          LLVM::MulOp::create(builder, loc, row, c(layout.swizzle)),
          LLVM::MulOp::create(builder, loc, inRow, c(layout.elementBytes))));
  Value phase = LLVM::ShlOp::create(
      builder, loc, shiftAnd(builder, loc, offset, 7, layout.swizzle / 16 - 1),
      c(4));
  return LLVM::XOrOp::create(builder, loc, offset, phase);
}

Value mlir::tilegpu::roundToTF32(OpBuilder &builder, Location loc,
                                 Value value) {
  Type i32 = builder.getI32Type();
  auto asmOp = createInlineAsm(builder, loc, i32, ValueRange{value},
                               "cvt.rna.tf32.f32 $0, $1;", "=r,f",
                               /*hasSideEffects=*/false);
  return LLVM::BitcastOp::create(builder, loc, builder.getF32Type(),
                                 asmOp.getResult(0));
}
