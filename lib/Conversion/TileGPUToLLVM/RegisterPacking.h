//===- RegisterPacking.h - A block's registers as one value -----*- C++ -*-===//
//
// A converted block is an LLVM struct with one member per register a thread
// holds (a scalar stays itself): unpacking gives the registers, packing
// builds the struct back, and once the conversion is done the members
// extracted are forwarded from where they were inserted. Tensor-core operands
// pack their elements into 32-bit registers.
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

/// Replaces every `llvm.extractvalue` of one member of a packed struct with
/// the register inserted there, in time linear in the IR: each chain of
/// `llvm.insertvalue`s is read once. Canonicalize would fold the same, but
/// its fold walks the chain for every extract, O(registers^2) per block: a
/// 2^20-element block on one warp (32768 registers a thread) took two
/// minutes. Chains left without users are erased.
void forwardPackedRegisters(Operation *root);

/// One 32-bit register of a tensor-core operand (mma.sync, wgmma from
/// registers): `elements` 16-bit elements packed (kWidth 2), or one tf32/f32
/// element as its bits, rounded to tf32 to nearest.
Value packDotOperand(OpBuilder &builder, Location loc,
                     ArrayRef<Value> elements);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_REGISTERPACKING_H
