//===- PtxasWorkarounds.h - Code shapes that ptxas miscompiles -*- C++ -*-===//
//
// LLVM IR rewrites, run last before NVPTX code generation, that keep ptxas
// away from code it is known to compile wrongly.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_PTXASWORKAROUNDS_H
#define TILEC_LIB_TARGET_PTXASWORKAROUNDS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tilec::detail {

/// Replaces 32-bit integer min/max (llvm.smin/smax/umin/umax) with an
/// opaque compare + select. ptxas 13.0 (and the 580 driver's JIT) at -O1 and
/// above fuses `min(min(a, -b), c)` into a three-input VIMNMX3 and drops the
/// negation of `b` (found by the differential check of random kernels;
/// test/gpu/regress.tile, test/Target/ptxas-integer-minmax.test); a `setp` +
/// `selp` pair is not fused.
void hideIntegerMinMaxFromPtxas(llvm::Module &module);

} // namespace tilec::detail

#endif // TILEC_LIB_TARGET_PTXASWORKAROUNDS_H
