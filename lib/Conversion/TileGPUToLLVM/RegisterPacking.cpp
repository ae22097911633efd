//===- RegisterPacking.cpp - A block's registers as one LLVM value --------===//
//
// Extracts the registers of a converted block from its struct and inserts
// them back; packs tensor-core operand elements into 32-bit registers.
//
//===----------------------------------------------------------------------===//

#include "RegisterPacking.h"
#include "LLVMBuilders.h"
#include "TF32Rounding.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

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

Value mlir::tilegpu::packDotOperand(OpBuilder &builder, Location loc,
                                    ArrayRef<Value> elements) {
  Type i32 = builder.getI32Type();
  if (elements.size() == 1) {
    // tf32: round to nearest (ties away) as the FMA path does; the tensor
    // cores would otherwise truncate the low mantissa bits.
    if (elements.front().getType().isF32())
      return LLVM::BitcastOp::create(
          builder, loc, i32, roundToTF32(builder, loc, elements.front()));
    return LLVM::BitcastOp::create(builder, loc, i32, elements.front());
  }
  auto vectorType =
      VectorType::get({(int64_t)elements.size()}, elements.front().getType());
  Value vector = LLVM::UndefOp::create(builder, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(builder, loc, vector, element,
                                           createI32(builder, loc, i));
  return LLVM::BitcastOp::create(builder, loc, i32, vector);
}
