//===- SharedMemoryAccess.h - Shared-memory accesses ------------*- C++ -*-===//
//
// The module's dynamic shared-memory array and an op's scratch in it, block
// barriers and async-proxy fences, scalar loads and stores (i1 as a byte)
// and the row-wise vector stores of 2-D blocks staged in padded row-major
// tiles for ldmatrix.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_SHAREDMEMORYACCESS_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_SHAREDMEMORYACCESS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tilegpu {

/// Name of the module's dynamic shared-memory array.
constexpr llvm::StringLiteral kSharedMemoryName = "global_smem";

/// The address of the scratch shared memory of `op` (its
/// `tilegpu.scratch_offset`) as `!llvm.ptr<3>`; declares the module's
/// dynamic shared-memory array on first use.
Value getScratchBase(OpBuilder &builder, Location loc, Operation *op);

/// The addresses of the sections of getScratchSections(`types`, `slots`)
/// (LayoutUtils.h) in the scratch at `base`.
SmallVector<Value> getScratchSectionBases(OpBuilder &builder, Location loc,
                                          Value base, TypeRange types,
                                          int64_t slots);

/// A block-wide barrier (`bar.sync 0`).
void createBarrier(OpBuilder &builder, Location loc);

/// Erases each barrier that follows another with nothing between them that
/// touches memory (a `debug_barrier` before an atomic's release barrier):
/// the second orders nothing the first did not.
void removeBackToBackBarriers(Operation *root);

/// The PTX that makes this thread's shared-memory writes visible to the
/// async proxy (tensor cores, TMA); createAsyncProxyFence emits it.
constexpr llvm::StringLiteral kAsyncProxyFencePtx =
    "fence.proxy.async.shared::cta;";
void createAsyncProxyFence(OpBuilder &builder, Location loc);

/// Stores `value` (an LLVM scalar) to / loads it from shared memory.
void storeShared(OpBuilder &builder, Location loc, Value ptr, Value value);
Value loadShared(OpBuilder &builder, Location loc, Type type, Value ptr);

/// The shared address of element (row, col) of rows `stride` elements apart
/// from `base`.
Value rowElementAddress(OpBuilder &builder, Location loc, Type element,
                        Value base, Value row, Value col, int64_t stride);

/// Stores the registers of a 2-D block of `type` at their rows of `stride`
/// elements from shared `base` (the padded tiles ldmatrix reads). Each
/// aligned run of registers holding consecutive elements of a row is one
/// vector access of up to 16 bytes (getContiguousRegisterRun).
void storeSharedRows(OpBuilder &builder, Location loc, RankedTensorType type,
                     ArrayRef<Value> registers, Value base, int64_t stride);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_SHAREDMEMORYACCESS_H
