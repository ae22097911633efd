//===- TileBackend.h - The JIT's compile step with a given compiler -------===//
//
// compileTileKernel() (CompilerBackend.h) compiles with a KernelCompiler of
// its own per thread. compileTileKernelWith() does the same step with the
// caller's KernelCompiler (tile-bench keeps one to time its compiles).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_TILEBACKEND_H
#define TILEC_JIT_TILEBACKEND_H

#include "tilec/Driver/KernelCompiler.h"
#include "tilec/Runtime/CompilerBackend.h"

namespace tilec {

/// Validates \p request's options, parses its source and compiles its
/// kernel to PTX with \p compiler. Throws tilec::Error holding the
/// diagnostics.
CompiledKernel compileTileKernelWith(KernelCompiler &compiler,
                                     const CompileRequest &request);

} // namespace tilec

#endif // TILEC_JIT_TILEBACKEND_H
