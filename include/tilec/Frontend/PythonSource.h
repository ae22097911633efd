//===- PythonSource.h - The Triton code of a Python file --------*- C++ -*-===//
//
// A Python file that holds `@triton.jit` kernels also holds host code
// (imports, tensors, launches, tests) that tilec does not compile. Before
// parsing, extractTritonCode() keeps the lines tilec reads and empties every
// other line, so that the parser never sees host code and every kept line
// keeps its line and column numbers (diagnostics point into the file as
// written).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_PYTHONSOURCE_H
#define TILEC_FRONTEND_PYTHONSOURCE_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace tilec {

/// What extractTritonCode() learns about the host code it skips.
struct HostCode {
  /// The names the skipped statements define (`NAME = ...`, `def NAME`,
  /// `class NAME`), for messages about a kernel that uses one.
  std::vector<std::string> names;
  /// For a name defined under a module-level `if` whose condition tilec
  /// could not evaluate: where, and why ("under the module-level 'if' on
  /// line 12; its condition has 'is_hip', which tilec cannot evaluate").
  std::map<std::string, std::string> whyUndecided;
  /// The environment variables that module-level conditions and assignments
  /// read (`os.environ.get("FAST", "0")`), each "NAME=value" or
  /// "NAME unset": the compiled code depends on them (cache keys).
  std::vector<std::string> environmentReads;
  /// Names that imports give Triton's function modules
  /// (`import triton.language.extra.libdevice as tldevice`, `from
  /// triton.language.extra import libdevice as ld`): `tldevice.exp(x)` is
  /// then a built-in, as `libdevice.exp(x)` is.
  std::vector<std::string> moduleAliases;
  /// Names that imports give `triton.language` itself besides `tl`
  /// (`import triton.language as language`, `from triton import language
  /// as tlang`): `tlang.load(...)`, `tlang.float32`, `tlang.constexpr` are
  /// then read as `tl.load(...)`, `tl.float32`, `tl.constexpr`.
  std::vector<std::string> languageAliases;
};

/// The text of the Python source \p text with only these top-level
/// statements left, each with its lines as written:
///  - decorated `def`s with `@triton.jit` (or `@jit`) among their
///    decorators (the other decorators and the whole body kept);
///  - module-level constexprs: `NAME = tl.constexpr(value)` and
///    `NAME: tl.constexpr = value` (any spelling ending in `constexpr`).
/// Every other line (imports, classes, plain functions, `if __name__`
/// blocks, comments, ...) is empty in the result, which has as many lines
/// as \p text. Python's logical lines are followed through brackets,
/// backslash continuations and (triple-quoted) strings.
///
/// When \p kernel names a `@triton.jit` function, only it and the
/// `@triton.jit` functions whose names occur in the kept ones (the helpers
/// it calls, and maybe a few more) are kept, so that a construct tilec
/// cannot parse in another kernel of the file is no error.
///
/// A module-level `if`/`elif`/`else` is decided as Python would decide it
/// on import, when tilec can evaluate its conditions (PythonHostEval.h:
/// literals, earlier module-level assignments, `os.environ`,
/// `triton.__version__`, ...): the statements of the chosen clause are
/// walked as the file's own (kept with their indentation, which the parser
/// accepts at the top level of Python sources), the other clauses are
/// dropped. When a condition cannot be evaluated, the whole statement is
/// host code, and the names it defines say why (HostCode::whyUndecided).
///
/// \p host, when given, receives what the skipped host code defines and
/// reads (HostCode).
std::string extractTritonCode(llvm::StringRef text, llvm::StringRef kernel = "",
                              HostCode *host = nullptr);

/// The environment variables that the module-level code of the Python
/// source \p text reads to choose its helpers, one "NAME=value" or
/// "NAME unset" per line ("" when it reads none): what besides the text
/// decides the code (CompileRequest::hostEnvironment).
std::string describeHostEnvironment(llvm::StringRef text);

/// Whether the dotted name of a decorator (`triton.jit`, without the '@'
/// and the arguments) makes a function one tilec compiles: `triton.jit`,
/// `jit`, or `tilec.jit` (the Python package's decorator, docs/python.md).
bool isJitDecoratorName(llvm::StringRef name);

} // namespace tilec

#endif // TILEC_FRONTEND_PYTHONSOURCE_H
