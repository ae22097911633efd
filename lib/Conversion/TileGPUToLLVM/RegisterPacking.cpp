//===- RegisterPacking.cpp - A block's registers as one LLVM value --------===//
//
// Extracts the registers of a converted block from its struct and inserts
// them back.
//
//===----------------------------------------------------------------------===//

#include "RegisterPacking.h"

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
