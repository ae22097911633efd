//===- WarpShuffle.h - shfl.sync of any scalar ------------------*- C++ -*-===//
//
// Warp shuffles of scalars of any width up to 64 bits: narrower values are
// widened to 32 bits, 64-bit values move as two halves.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_WARPSHUFFLE_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_WARPSHUFFLE_H

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tilegpu {

/// `shfl.sync.<kind>` of `value` over the whole warp: `lane` is the source
/// lane (idx), the lane mask (bfly) or the lane delta (up, down), an i32.
Value createShuffle(OpBuilder &builder, Location loc, Value value, Value lane,
                    NVVM::ShflKind kind);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_WARPSHUFFLE_H
