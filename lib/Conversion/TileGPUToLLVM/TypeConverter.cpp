//===- TypeConverter.cpp - LLVM types of laid-out tile programs -----------===//
//
// A block with a blocked or slice layout becomes a struct of the registers
// one thread holds; tile pointers become global-memory LLVM pointers.
//
//===----------------------------------------------------------------------===//

#include "TypeConverter.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

TileGPUToLLVMTypeConverter::TileGPUToLLVMTypeConverter(
    MLIRContext *context, const LowerToLLVMOptions &options)
    : LLVMTypeConverter(context, options) {
  addConversion([context](tile::PointerType) -> Type {
    return LLVM::LLVMPointerType::get(context, kGlobalAddressSpace);
  });
  // A shared-memory buffer is its base address.
  addConversion([context](tilegpu::MemDescType) -> Type {
    return LLVM::LLVMPointerType::get(context, kSharedAddressSpace);
  });
  // A tensor map is its generic address (in thread 0).
  addConversion([context](tilegpu::TensorMapType) -> Type {
    return IntegerType::get(context, 64);
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    if (!tilegpu::hasRegisterLayout(type.getEncoding()))
      return std::nullopt;
    Type element = convertElementType(type.getElementType());
    if (!element)
      return std::nullopt;
    SmallVector<Type> members(tilegpu::getNumRegisters(type), element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), members);
  });
}

Type TileGPUToLLVMTypeConverter::convertElementType(Type type) const {
  if (isa<tile::PointerType>(type))
    return LLVM::LLVMPointerType::get(type.getContext(), kGlobalAddressSpace);
  return convertType(type);
}
