//===- TileBackend.h - The JIT's compile step with a given compiler -------===//
//
// compileTileKernel() (CompilerBackend.h) compiles with a KernelCompiler of
// its own per thread. compileTileKernelWith() does the same step with the
// caller's KernelCompiler (tile-bench keeps one to time its compiles).
// parseRequest() is its first half (the source parsed, the constexprs and
// a Python kernel's signature applied), shared with the C ABI's
// interpreter (lib/JIT/CApiInterpret.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_TILEBACKEND_H
#define TILEC_JIT_TILEBACKEND_H

#include "tilec/Driver/KernelCompiler.h"
#include "tilec/Runtime/CompilerBackend.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace tilec {

/// A CompileRequest's source parsed, with the bindings and options its
/// kernel compiles with.
struct ParsedRequest {
  std::unique_ptr<TileSource> source;
  ConstexprBindings bindings;
  CompileOptions options;
};

/// Validates \p request's options and kernel name, parses its source (a
/// Python source's Triton code) and applies its constexprs and Triton
/// signature. Diagnostics go to \p diagOS; throws tilec::Error holding them.
ParsedRequest parseRequest(const CompileRequest &request,
                           llvm::raw_string_ostream &diagOS);

/// The message of a failed step on \p request: \p diagnostics without
/// trailing newlines, or a fallback when there are none.
std::string describeFailure(const std::string &diagnostics,
                            const CompileRequest &request);

/// Validates \p request's options, parses its source and compiles its
/// kernel to PTX with \p compiler. Throws tilec::Error holding the
/// diagnostics.
CompiledKernel compileTileKernelWith(KernelCompiler &compiler,
                                     const CompileRequest &request);

} // namespace tilec

#endif // TILEC_JIT_TILEBACKEND_H
