//===- InterpreterTestUtils.h - Interpreter test helpers --------*- C++ -*-===//
//
// Compiles a kernel of a `.tile` file (or source text) for the interpreter
// and runs it, keeping the diagnostics as text for the assertions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_INTERPRETER_INTERPRETERTESTUTILS_H
#define TILEC_TEST_UNIT_INTERPRETER_INTERPRETERTESTUTILS_H

#include "tilec/Driver/KernelInterpreter.h"
#include "tilec/Interpreter/Interpreter.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <string>

namespace tilec::test {

/// A kernel compiled for the interpreter, with its diagnostics.
struct LoadedKernel {
  std::unique_ptr<TileSource> source;
  std::unique_ptr<KernelInterpreter> interpreter;
  std::string diags;

  /// Runs the kernel; false (with `diags` filled) after an error.
  bool run(llvm::ArrayRef<InterpreterArg> args,
           std::array<std::int64_t, 3> grid, std::string *printed = nullptr) {
    InterpreterOptions options;
    options.grid = grid;
    std::string out;
    llvm::raw_string_ostream printOS(out);
    options.printOS = &printOS;
    llvm::raw_string_ostream diagOS(diags);
    bool ok = interpreter->run(args, options, diagOS);
    if (printed)
      *printed = out;
    return ok;
  }
};

/// Compiles `kernel` of the source `text` (named `name` in diagnostics)
/// with integer constexprs `constexprs`; `interpreter` is null on errors.
inline LoadedKernel
loadKernel(llvm::StringRef text, llvm::StringRef kernel,
           const std::map<std::string, std::int64_t> &constexprs = {},
           llvm::StringRef name = "test.tile") {
  LoadedKernel loaded;
  llvm::raw_string_ostream diagOS(loaded.diags);
  loaded.source = TileSource::parse(
      llvm::MemoryBuffer::getMemBufferCopy(text, name), diagOS);
  if (!loaded.source)
    return loaded;
  ConstexprBindings bindings;
  for (const auto &[key, value] : constexprs)
    bindings.values[key] = ConstexprValue::ofInt(value);
  loaded.interpreter =
      KernelInterpreter::create(*loaded.source, kernel, bindings, diagOS);
  return loaded;
}

/// The text of `path` relative to the source tree ("" if unreadable).
inline std::string readSourceFile(llvm::StringRef path) {
  auto buffer =
      llvm::MemoryBuffer::getFile(std::string(TILEC_SOURCE_DIR) + "/" + path);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_INTERPRETER_INTERPRETERTESTUTILS_H
