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

#include <string>
#include <vector>

namespace tilec {

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
/// \p hostNames, when given, receives the names that the skipped top-level
/// statements define (`NAME = ...`, `def NAME`, `class NAME`), for messages
/// about a kernel that uses one.
std::string extractTritonCode(llvm::StringRef text, llvm::StringRef kernel = "",
                              std::vector<std::string> *hostNames = nullptr);

/// Whether the dotted name of a decorator (`triton.jit`, without the '@'
/// and the arguments) makes a function one tilec compiles: `triton.jit`,
/// `jit`, or `tilec.jit` (the Python package's decorator, docs/python.md).
bool isJitDecoratorName(llvm::StringRef name);

} // namespace tilec

#endif // TILEC_FRONTEND_PYTHONSOURCE_H
