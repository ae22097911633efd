//===- GlobalMemoryAccess.h - Predicated global accesses in PTX -*- C++ -*-===//
//
// Loads, stores and atomics of global memory as inline PTX, predicated
// so that masked-off lanes never touch memory, scalar or as vectors of up
// to four 32-bit words.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_GLOBALMEMORYACCESS_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_GLOBALMEMORYACCESS_H

#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// Names of the attributes the lowering pass puts on memory ops from the
/// axis analysis: elements per vector access, and whether the mask is
/// constant over each vector.
inline constexpr llvm::StringLiteral kVectorWidthAttrName =
    "tilegpu.vector_width";
inline constexpr llvm::StringLiteral kUniformMaskAttrName =
    "tilegpu.uniform_mask";

/// Loads one element of `elementType` (an LLVM scalar type) from global
/// `ptr`; where `mask` (i1, may be null) is false nothing is read and the
/// result is `other` (may be null: zero).
Value emitGlobalLoad(OpBuilder &builder, Location loc, Type elementType,
                     Value ptr, Value mask, Value other);
/// Loads `masks.size()` consecutive elements starting at `ptr` with one
/// vector access (its alignment known). Masks (empty: none) and others
/// (empty: zero) are per element; `uniformMask` says all masks are equal.
/// Where masks differ within the vector, the elements are loaded one by one.
SmallVector<Value> emitGlobalVectorLoad(OpBuilder &builder, Location loc,
                                        Type elementType, unsigned width,
                                        ArrayRef<Value> ptrs,
                                        ArrayRef<Value> masks,
                                        ArrayRef<Value> others,
                                        bool uniformMask);
/// Stores consecutive elements with one vector access; see the load.
void emitGlobalVectorStore(OpBuilder &builder, Location loc,
                           ArrayRef<Value> ptrs, ArrayRef<Value> values,
                           ArrayRef<Value> masks, bool uniformMask);

/// Stores `value` to global `ptr` where `mask` (may be null) is true.
void emitGlobalStore(OpBuilder &builder, Location loc, Value ptr, Value value,
                     Value mask);
/// One lane's `atom{sem}{scope}.global.{op} d, [ptr], value` (or, for
/// "cas.bN", `atom...cas.bN d, [ptr], cmp, value`): `op` is the PTX operation
/// and type ("add.f32", "max.u64", "exch.b32", "cas.b16"), `semScope` the
/// ordering qualifiers (".acq_rel.gpu"). Runs where `mask` (may be null) is
/// true; returns the old value, of `value`'s type (zero in masked-off lanes).
Value emitGlobalAtomic(OpBuilder &builder, Location loc, StringRef op,
                       StringRef semScope, Value ptr, Value value, Value cmp,
                       Value mask);
/// One lane's bf16 atomic add where the target has no `atom.add.bf16`
/// (before sm_90): a compare-and-swap loop on the 16 bits, the sum rounded
/// once (`fma.rn.bf16 old, 1.0, value`), with the ordering `semScope` on
/// each swap. Runs where `mask` (may be null) is true; returns the old
/// value (zero in masked-off lanes).
Value emitGlobalBF16AddByCAS(OpBuilder &builder, Location loc,
                             StringRef semScope, Value ptr, Value value,
                             Value mask);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_GLOBALMEMORYACCESS_H
