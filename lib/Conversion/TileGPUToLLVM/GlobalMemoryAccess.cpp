//===- GlobalMemoryAccess.cpp - Predicated global accesses in PTX ---------===//
//
// `ld.global` / `st.global` / `atom.global` in inline PTX: a masked
// load first moves `other` into its destination and then loads under the
// mask's predicate; vector accesses move 32-bit words and reinterpret them
// as elements.
//
//===----------------------------------------------------------------------===//

#include "GlobalMemoryAccess.h"
#include "InlineAsm.h"
#include "LLVMBuilders.h"

using namespace mlir;
using namespace mlir::tilegpu;

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

Value mlir::tilegpu::emitGlobalAtomic(OpBuilder &builder, Location loc,
                                      StringRef op, StringRef semScope,
                                      Value ptr, Value value, Value cmp,
                                      Value mask) {
  Type type = value.getType();
  AsmType asmType = getAsmType(builder, type);
  std::string c = asmType.constraint.str();
  SmallVector<Value> operands{ptr};
  std::string constraints = "=" + c + ",l";
  std::string sources;
  for (Value source : {cmp, value}) {
    if (!source)
      continue;
    sources += ", $" + std::to_string(operands.size() + 1);
    operands.push_back(toAsmRegister(builder, loc, source, asmType));
    constraints += "," + c;
  }
  std::string guard;
  if (mask) {
    guard = "@$" + std::to_string(operands.size() + 1) + " ";
    operands.push_back(mask);
    constraints += ",b";
  }
  std::string asmString = "mov.b" + std::to_string(asmType.bits) +
                          " $0, 0;\n\t" + guard + "atom" + semScope.str() +
                          ".global." + op.str() + " $0, [ $1 + 0 ]" + sources +
                          ";";
  auto asmOp = createInlineAsm(builder, loc, asmType.intType, operands,
                               asmString, constraints);
  return fromAsmRegister(builder, loc, asmOp.getResult(0), type);
}

Value mlir::tilegpu::emitGlobalBF16AddByCAS(OpBuilder &builder, Location loc,
                                            StringRef semScope, Value ptr,
                                            Value value, Value mask) {
  AsmType asmType = getAsmType(builder, value.getType());
  SmallVector<Value> operands{ptr, toAsmRegister(builder, loc, value, asmType)};
  std::string constraints = "=h,l,h";
  std::string skip;
  if (mask) {
    operands.push_back(mask);
    constraints += ",b";
    skip = "@!$3 bra $$L_bf16_add_done_${:uid};\n\t";
  }
  // old + value rounded once (fma by 1.0, 0x3F80), swapped in while the
  // location still holds old; else again with what it holds.
  std::string asmString =
      "{\n\t.reg .pred changed;\n\t.reg .b16 one, old, sum, seen;\n\t"
      "mov.b16 $0, 0;\n\t" +
      skip +
      "mov.b16 one, 0x3F80;\n\t"
      "ld.global.b16 old, [ $1 + 0 ];\n"
      "$$L_bf16_add_again_${:uid}:\n\t"
      "fma.rn.bf16 sum, old, one, $2;\n\t"
      "atom" +
      semScope.str() +
      ".global.cas.b16 seen, [ $1 + 0 ], old, sum;\n\t"
      "setp.ne.b16 changed, seen, old;\n\t"
      "mov.b16 old, seen;\n\t"
      "@changed bra $$L_bf16_add_again_${:uid};\n\t"
      "mov.b16 $0, seen;\n"
      "$$L_bf16_add_done_${:uid}:\n\t}";
  auto asmOp = createInlineAsm(builder, loc, asmType.intType, operands,
                               asmString, constraints);
  return fromAsmRegister(builder, loc, asmOp.getResult(0), value.getType());
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
