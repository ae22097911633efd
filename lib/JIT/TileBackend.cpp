//===- TileBackend.cpp - The compiler behind the host API's Compiler -----===//
//
// compileTileKernel() is the CompileFn of CompilerBackend.h: it turns a
// CompileRequest (source text, kernel, constexprs, arch, options) into PTX
// and its metadata with the one tilec compile driver (TileSource::parse and
// KernelCompiler::compile, shared with the CLI). A KernelCompiler keeps an
// MLIRContext and is not thread-safe, so each thread keeps its own.
// Diagnostics are captured into a string and thrown as tilec::Error, clang
// style, against the request's source name.
// compileTileKernelWith() is the same step with the caller's compiler.
//
//===----------------------------------------------------------------------===//

#include "tilec/JIT/TileBackend.h"

#include "tilec/Frontend/Sema.h"
#include "tilec/Runtime/Error.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace tilec;

namespace {

/// The calling thread's compiler.
KernelCompiler &threadCompiler() {
  thread_local KernelCompiler compiler;
  return compiler;
}

/// The message of a failed compile: the diagnostics, or a fallback when the
/// pipeline failed without printing any.
std::string failureMessage(std::string diagnostics,
                           const CompileRequest &request) {
  while (!diagnostics.empty() && diagnostics.back() == '\n')
    diagnostics.pop_back();
  if (!diagnostics.empty())
    return diagnostics;
  return request.sourceName + ": error: compiling kernel '" + request.kernel +
         "' failed (no diagnostic was reported)";
}

} // namespace

CompiledKernel tilec::compileTileKernel(const CompileRequest &request) {
  return compileTileKernelWith(threadCompiler(), request);
}

CompiledKernel tilec::compileTileKernelWith(KernelCompiler &compiler,
                                            const CompileRequest &request) {
  if (request.kernel.empty())
    throw Error("tilec: no kernel name given for '" + request.sourceName + "'");
  std::string invalid = request.options.validate();
  if (!invalid.empty())
    throw Error("tilec: " + invalid);
  std::string diagnostics;
  llvm::raw_string_ostream diagOS(diagnostics);
  std::string name =
      request.sourceName.empty() ? "<source>" : request.sourceName;
  std::unique_ptr<TileSource> source = TileSource::parse(
      llvm::MemoryBuffer::getMemBufferCopy(request.source, name), diagOS);
  if (!source)
    throw Error(failureMessage(std::move(diagnostics), request));

  ConstexprBindings bindings;
  bindings.values = request.constexprs;
  bindings.origin = "constexpr";
  bindings.unknownNamesAreErrors = true;

  std::optional<CompileResult> result = compiler.compile(
      *source, request.kernel, bindings, request.options, Stage::PTX, diagOS);
  if (!result)
    throw Error(failureMessage(std::move(diagnostics), request));
  CompiledKernel kernel;
  kernel.binary = std::move(result->text);
  kernel.meta = std::move(result->metadata);
  return kernel;
}
