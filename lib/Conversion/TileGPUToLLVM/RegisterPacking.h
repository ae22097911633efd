//===- RegisterPacking.h - A block's registers as one value -----*- C++ -*-===//
//
// A converted block is an LLVM struct with one member per register a thread
// holds (a scalar stays itself): unpacking gives the registers, packing
// builds the struct back.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_REGISTERPACKING_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_REGISTERPACKING_H

#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// The registers of a converted value: the members of a struct, or the
/// value itself for a scalar.
SmallVector<Value> unpackRegisters(OpBuilder &builder, Location loc,
                                   Value packed);
/// Packs registers into a value of `type` (a struct, or a scalar type
/// when there is one register and `type` is not a struct).
Value packRegisters(OpBuilder &builder, Location loc, ValueRange registers,
                    Type type);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_REGISTERPACKING_H
