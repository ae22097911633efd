//===- TypeConverter.h - LLVM types of laid-out tile programs ---*- C++ -*-===//
//
// The type converter of the tilegpu to LLVM lowering (a block becomes an
// LLVM struct of the registers a thread holds) and the NVPTX address spaces
// the converted types live in.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_TYPECONVERTER_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace mlir::tilegpu {

/// Address space of global and shared memory in NVPTX.
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;

/// LLVM types of laid-out programs: a block with a distributed layout
/// becomes `!llvm.struct<(T, T, ...)>` with one member per register,
/// `!tile.ptr<T>` becomes `!llvm.ptr<1>`.
class TileGPUToLLVMTypeConverter : public LLVMTypeConverter {
public:
  TileGPUToLLVMTypeConverter(MLIRContext *context,
                             const LowerToLLVMOptions &options);
  /// The LLVM type of one element of a block of element type `type`.
  Type convertElementType(Type type) const;
};

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_TYPECONVERTER_H
