//===- TileBackend.h - The JIT's compile step with a given compiler -------===//
//
// compileTileKernel() (CompilerBackend.h) compiles with a KernelCompiler of
// its own per thread. compileTileKernelWith() does the same step with the
// caller's KernelCompiler, for callers that configure their own (tile-bench
// specializes arguments as divisible by 16, like `tilec --divisible`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_TILEBACKEND_H
#define TILEC_JIT_TILEBACKEND_H

#include "tilec/Pipeline/Pipeline.h"
#include "tilec/Runtime/CompilerBackend.h"

namespace tilec {

/// Parses \p request's source and compiles its kernel to PTX with
/// \p compiler (its constexprs, num_warps and num_stages; the arch and
/// optimization level are \p compiler's). Throws tilec::Error holding the
/// diagnostics.
CompiledKernel compileTileKernelWith(KernelCompiler &compiler,
                                     const CompileRequest &request);

} // namespace tilec

#endif // TILEC_JIT_TILEBACKEND_H
