//===- MatrixLoadStore.h - ldmatrix and stmatrix ----------------*- C++ -*-===//
//
// The warp-wide shared-memory accesses of 8x8 matrices of 16-bit elements:
// `ldmatrix` (sm_75 on) and `stmatrix` (sm_90 on), .x1/.x2/.x4, plain or
// .trans. In matrix i of an instruction, lane t holds (as its 32-bit
// register i) elements 2 (t % 4) and 2 (t % 4) + 1 of row t / 4, or with
// .trans elements t / 4 of rows 2 (t % 4) and 2 (t % 4) + 1; lane 8 i + r
// gives the address of row r (16 bytes, 16-byte aligned).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_MATRIXLOADSTORE_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_MATRIXLOADSTORE_H

#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// One `ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16` at the
/// lane's shared `address`; returns the 2 * count halves (of type
/// `element`) it gives the lane, register by register.
SmallVector<Value> emitLdmatrix(OpBuilder &builder, Location loc, Type element,
                                Value address, unsigned count, bool trans);

/// One `stmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16` of the
/// lane's `halves` (2 * count 16-bit values, register by register) at its
/// shared `address`.
void emitStmatrix(OpBuilder &builder, Location loc, Value address,
                  ArrayRef<Value> halves, bool trans);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_MATRIXLOADSTORE_H
