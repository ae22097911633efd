//===- Interpret.h - tilec --interpret --------------------------*- C++ -*-===//
//
// Runs one kernel of a .tile file on the CPU with the reference interpreter:
// builds its arguments from `--arg NAME=SPEC`, runs the `--grid`, and prints
// or writes the buffers asked for with `--dump` and `--dump-all`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_INTERPRET_H
#define TILEC_TOOLS_TILEC_INTERPRET_H

#include "tilec/Frontend/Sema.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

class TileSource;

/// The default of `--max-ops`: enough for kernels that terminate, a
/// bound (some seconds to minutes) on those that do not.
constexpr std::uint64_t kDefaultMaxOps = 100000000;

/// The command line of one `tilec --interpret`.
struct InterpretRequest {
  /// `--grid`: "X", "X,Y" or "X,Y,Z".
  std::string grid = "1";
  /// `--arg`: NAME=SPEC, one per run-time parameter.
  std::vector<std::string> args;
  /// `--dump`: NAME (print) or NAME=PATH (write the raw bytes).
  std::vector<std::string> dumps;
  /// `--dump-count`: how many elements `--dump=NAME` prints (0: all).
  unsigned dumpCount = 16;
  /// `--dump-all`: a directory to write every buffer to, as NAME.bin.
  std::string dumpAll;
  /// `--max-ops`: InterpreterOptions::maxOps (0: no limit).
  std::uint64_t maxOps = kDefaultMaxOps;
};

/// Interprets `kernel` of `source` as `request` says. Returns an exit code
/// of SPEC section 3 after printing diagnostics: 1 for errors in the kernel
/// or while it runs, 2 for a bad request, 3 when an output cannot be
/// written.
int runInterpret(TileSource &source, llvm::StringRef kernel,
                 const ConstexprBindings &bindings,
                 const InterpretRequest &request);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_INTERPRET_H
