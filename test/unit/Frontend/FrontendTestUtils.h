//===- FrontendTestUtils.h - Helpers for the frontend unit tests -*- C++ -*-=//
//
// Runs the frontend (parse, optionally check a kernel) on a source string
// named "test.tile" and captures the diagnostics and dumps as text.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_FRONTEND_FRONTENDTESTUTILS_H
#define TILEC_TEST_UNIT_FRONTEND_FRONTENDTESTUTILS_H

#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/Sema.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilec::test {

/// The outcome of running the frontend on a string.
struct FrontendResult {
  bool ok = false;
  unsigned numErrors = 0;
  std::string diags;
  std::string dump;
};

/// Parses `source`; with `kernel` non-empty (or "*" for the first kernel)
/// also checks that kernel. `dump` holds the AST dump (parse only) or the
/// checked kernel dump.
inline FrontendResult runFrontend(llvm::StringRef source,
                                  llvm::StringRef kernel = "*",
                                  const ConstexprBindings &bindings = {}) {
  FrontendResult result;
  llvm::SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  llvm::raw_string_ostream diagStream(result.diags);
  llvm::raw_string_ostream dumpStream(result.dump);
  DiagnosticEngine diags(srcMgr, diagStream);
  std::unique_ptr<ast::Module> module = parseModule(srcMgr, diags);
  if (module && kernel.empty()) {
    ast::dumpAST(*module, dumpStream);
    result.ok = true;
  } else if (module) {
    std::string name = kernel.str();
    if (name == "*") {
      std::vector<std::string> kernels = listKernels(*module);
      name = kernels.empty() ? "" : kernels.front();
    }
    if (auto checked = checkKernel(*module, name, bindings, diags)) {
      checked::dumpCheckedKernel(*checked, dumpStream);
      result.ok = true;
    }
  }
  result.numErrors = diags.getNumErrors();
  diagStream.flush();
  dumpStream.flush();
  return result;
}

/// Wraps statements into a kernel `k(x: *f32, y: *f16, n: i32, i: i64,
/// f: f32, BLOCK: constexpr = 128)`; the body starts on line 3, column 5.
inline std::string kernelWith(llvm::StringRef body) {
  std::string src = "@kernel\ndef k(x: *f32, y: *f16, n: i32, i: i64, f: f32, "
                    "BLOCK: constexpr = 128):\n";
  llvm::SmallVector<llvm::StringRef> lines;
  body.split(lines, '\n');
  for (llvm::StringRef line : lines)
    src += "    " + line.str() + "\n";
  return src;
}

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_FRONTEND_FRONTENDTESTUTILS_H
