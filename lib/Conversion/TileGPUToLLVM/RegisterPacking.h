//===- RegisterPacking.h - A block's registers as one value -----*- C++ -*-===//
//
// A converted block is an LLVM struct with one member per register a thread
// holds (a scalar stays itself): unpacking gives the registers, packing
// builds the struct back. Tensor-core operands pack their elements into
// 32-bit registers.
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

/// One 32-bit register of a tensor-core operand (mma.sync, wgmma from
/// registers): `elements` 16-bit elements packed (kWidth 2), or one tf32/f32
/// element as its bits, rounded to tf32 to nearest.
Value packDotOperand(OpBuilder &builder, Location loc,
                     ArrayRef<Value> elements);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_REGISTERPACKING_H
