//===- FrontendFuzzer.cpp - libFuzzer entry for the .tile frontend --------===//
//
// Runs lexer, parser and Sema (every kernel of the input, default
// constexprs) on arbitrary bytes. Built with -fsanitize=fuzzer when
// TILEC_BUILD_FUZZERS is on and the compiler is clang.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), llvm::SMLoc());
  std::string sink;
  llvm::raw_string_ostream os(sink);
  tilec::DiagnosticEngine diags(srcMgr, os);
  std::unique_ptr<tilec::ast::Module> module =
      tilec::parseModule(srcMgr, diags);
  if (!module)
    return 0;
  tilec::ast::dumpAST(*module, os);
  for (const std::string &kernel : tilec::listKernels(*module))
    if (auto checked = tilec::checkKernel(*module, kernel, {}, diags))
      tilec::checked::dumpCheckedKernel(*checked, os);
  return 0;
}
