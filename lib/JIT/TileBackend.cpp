//===- TileBackend.cpp - The compiler behind the host API's Compiler -----===//
//
// compileTileKernel() is the CompileFn of CompilerBackend.h: it turns a
// CompileRequest (source text, kernel, constexprs, arch, options) into PTX
// and its metadata with the one tilec compile driver (TileSource::parse and
// KernelCompiler::compile, shared with the CLI). A KernelCompiler keeps an
// MLIRContext and is not thread-safe, so each thread keeps its own.
// Diagnostics are captured into a string and thrown as tilec::Error, clang
// style, against the request's source name. A Python source's `@triton.jit`
// kernel is typed by the request's Triton signature, as the CLI's
// --signature does (parseRequest, which the C ABI's interpreter shares).
// compileTileKernelWith() is the same step with the caller's compiler.
//
//===----------------------------------------------------------------------===//

#include "tilec/JIT/TileBackend.h"

#include "tilec/Frontend/Sema.h"
#include "tilec/Frontend/TritonSignature.h"
#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/Hash.h"

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

/// Applies \p request's Triton signature to its kernel (throws with the
/// diagnostics when the signature is malformed or does not fit).
void applySignature(TileSource &source, const CompileRequest &request,
                    ConstexprBindings &bindings, CompileOptions &options,
                    llvm::raw_string_ostream &diagOS) {
  std::string error;
  std::optional<std::vector<SignatureEntry>> entries =
      parseTritonSignature(request.signature, error);
  if (!entries)
    throw Error("tilec: signature of kernel '" + request.kernel +
                "': " + error);
  const ast::Function *fn = source.getModule().lookup(request.kernel);
  if (!fn) // The compile reports an unknown kernel.
    return;
  DiagnosticEngine diags(source.getSourceMgr(), diagOS);
  if (request.signatureOfRuntimeParams) {
    entries = withConstexprParams(*fn, *entries, bindings, diags);
    if (!entries)
      throw Error(failureMessage(diagOS.str(), request));
  }
  if (!applyTritonSignature(*fn, *entries, bindings, options,
                            /*keepPointerAlignment=*/true, diags))
    throw Error(failureMessage(diagOS.str(), request));
}

} // namespace

CompiledKernel tilec::compileTileKernel(const CompileRequest &request) {
  return compileTileKernelWith(threadCompiler(), request);
}

ParsedRequest tilec::parseRequest(const CompileRequest &request,
                                  llvm::raw_string_ostream &diagOS) {
  if (request.kernel.empty())
    throw Error("tilec: no kernel name given for '" + request.sourceName + "'");
  std::string invalid = request.options.validate();
  if (!invalid.empty())
    throw Error("tilec: " + invalid);
  std::string name =
      request.sourceName.empty() ? "<source>" : request.sourceName;
  bool python = request.language == CompileRequest::Language::Python;
  ParsedRequest parsed;
  parsed.source = TileSource::parse(
      llvm::MemoryBuffer::getMemBufferCopy(request.source, name), diagOS,
      python ? SourceLanguage::Python : SourceLanguage::Tile, request.kernel);
  if (!parsed.source)
    throw Error(failureMessage(diagOS.str(), request));
  parsed.bindings.values = request.constexprs;
  parsed.bindings.origin = "constexpr";
  parsed.bindings.unknownNamesAreErrors = true;
  parsed.options = request.options;
  if (python && !request.signature.empty())
    applySignature(*parsed.source, request, parsed.bindings, parsed.options,
                   diagOS);
  return parsed;
}

std::string tilec::describeFailure(const std::string &diagnostics,
                                   const CompileRequest &request) {
  return failureMessage(diagnostics, request);
}

CompiledKernel tilec::compileTileKernelWith(KernelCompiler &compiler,
                                            const CompileRequest &request) {
  std::string diagnostics;
  llvm::raw_string_ostream diagOS(diagnostics);
  ParsedRequest parsed = parseRequest(request, diagOS);
  std::optional<CompileResult> result =
      compiler.compile(*parsed.source, request.kernel, parsed.bindings,
                       parsed.options, Stage::PTX, diagOS);
  if (!result)
    throw Error(failureMessage(std::move(diagnostics), request));
  CompiledKernel kernel;
  kernel.binary = std::move(result->text);
  kernel.meta = std::move(result->metadata);
  // The compiler hashes the Triton code it read (the rest of the file
  // emptied); the caches compare the hash with the request's whole text.
  if (request.language == CompileRequest::Language::Python)
    kernel.meta.sourceHash = sha256Hex(request.source);
  return kernel;
}
