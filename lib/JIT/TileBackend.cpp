//===- TileBackend.cpp - The compiler behind the host API's Compiler -----===//
//
// compileTileKernel() is the CompileFn of CompilerBackend.h: it turns a
// CompileRequest (source text, kernel, constexprs, arch, options) into PTX
// and its metadata with the one tilec pipeline (TileSource::parse and
// KernelCompiler::compile, shared with the CLI). A KernelCompiler keeps an
// MLIRContext and is not thread-safe, so each thread keeps its own, one per
// (arch, optimization level); num_warps and num_stages travel in the
// constexpr bindings. Diagnostics are captured into a string and thrown as
// tilec::Error, clang style, against the request's source name.
// compileTileKernelWith() is the same step with the caller's compiler.
//
//===----------------------------------------------------------------------===//

#include "tilec/JIT/TileBackend.h"

#include "tilec/Frontend/Sema.h"
#include "tilec/Runtime/Error.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <utility>

using namespace tilec;

namespace {

/// A compiler per (arch, optLevel) for the calling thread. A thread rarely
/// needs more than one or two; the pool is capped so a thread that walks
/// many targets does not keep a context per target forever.
KernelCompiler &threadCompiler(const std::string &arch, int optLevel) {
  constexpr std::size_t kMaxCompilersPerThread = 4;
  thread_local std::map<std::pair<std::string, int>,
                        std::unique_ptr<KernelCompiler>>
      compilers;
  auto key = std::make_pair(arch, optLevel);
  auto it = compilers.find(key);
  if (it != compilers.end())
    return *it->second;
  if (compilers.size() >= kMaxCompilersPerThread)
    compilers.clear();
  CompileOptions options;
  options.arch = arch;
  options.optLevel = optLevel;
  auto compiler = std::make_unique<KernelCompiler>(options);
  return *compilers.emplace(key, std::move(compiler)).first->second;
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
  if (request.kernel.empty())
    throw Error("tilec: no kernel name given for '" + request.sourceName + "'");
  if (request.optLevel != 0 && request.optLevel != 3)
    throw Error("tilec: optimization level " +
                std::to_string(request.optLevel) +
                " is not supported (0 or 3)");
  if (request.numWarps < 0 || request.numWarps > 32 ||
      (request.numWarps & (request.numWarps - 1)) != 0)
    throw Error("tilec: num_warps = " + std::to_string(request.numWarps) +
                " is not a power of two from 1 to 32");
  if (request.numStages < 0)
    throw Error("tilec: num_stages = " + std::to_string(request.numStages) +
                " is negative");
  if (request.pointerAlignment == 0 ||
      (request.pointerAlignment & (request.pointerAlignment - 1)) != 0)
    throw Error("tilec: pointer alignment " +
                std::to_string(request.pointerAlignment) +
                " is not a power of two");

  return compileTileKernelWith(threadCompiler(request.arch, request.optLevel),
                               request);
}

CompiledKernel tilec::compileTileKernelWith(KernelCompiler &compiler,
                                            const CompileRequest &request) {
  std::string diagnostics;
  llvm::raw_string_ostream diagOS(diagnostics);
  std::string name =
      request.sourceName.empty() ? "<source>" : request.sourceName;
  std::unique_ptr<TileSource> source = TileSource::parse(
      llvm::MemoryBuffer::getMemBufferCopy(request.source, name), diagOS);
  if (!source)
    throw Error(failureMessage(std::move(diagnostics), request));

  CompileOptions &options = compiler.getMutableOptions();
  options.pointerAlignment = request.pointerAlignment;
  options.divisibleParams = request.divisibleParams;
  options.unitParams = request.unitParams;
  options.fpFusion = request.fpFusion;

  ConstexprBindings bindings;
  bindings.values = request.constexprs;
  if (request.numWarps > 0)
    bindings.numWarps = request.numWarps;
  if (request.numStages > 0)
    bindings.numStages = request.numStages;

  std::optional<CompileResult> result = compiler.compile(
      *source, request.kernel, bindings, EmitStage::PTX, diagOS);
  if (!result)
    throw Error(failureMessage(std::move(diagnostics), request));
  CompiledKernel kernel;
  kernel.binary = std::move(result->text);
  kernel.meta = std::move(result->metadata);
  return kernel;
}
