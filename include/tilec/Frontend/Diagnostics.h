//===- Diagnostics.h - Source locations and error reporting -----*- C++ -*-===//
//
// Source locations of the frontend (a pointer into the llvm::SourceMgr buffer
// plus its line and column) and the DiagnosticEngine that prints clang-style
// diagnostics: `FILE:LINE:COL: error: MESSAGE`, the source line and a caret.
// The engine counts errors and stops printing after a limit (20 by default).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_DIAGNOSTICS_H
#define TILEC_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace tilec {

/// A position in a .tile source buffer. `line` and `col` are 1-based (the
/// column counts bytes, like clang); an invalid location has line 0.
struct SourceLoc {
  llvm::SMLoc ptr;
  unsigned line = 0;
  unsigned col = 0;

  bool isValid() const { return line != 0; }
  /// "LINE:COL".
  std::string str() const;
};

/// Prints diagnostics through an llvm::SourceMgr (no colors) and counts them.
class DiagnosticEngine {
public:
  /// Diagnostics go to `os` (stderr by default).
  explicit DiagnosticEngine(llvm::SourceMgr &srcMgr);
  DiagnosticEngine(llvm::SourceMgr &srcMgr, llvm::raw_ostream &os);

  /// Reports an error at `loc` (no position printed when `loc` is invalid).
  void error(SourceLoc loc, const llvm::Twine &msg);
  /// Reports a warning.
  void warning(SourceLoc loc, const llvm::Twine &msg);
  /// Attaches a note to the last error or warning (dropped with it when the
  /// error limit suppressed that diagnostic).
  void note(SourceLoc loc, const llvm::Twine &msg);
  /// Compile-time output (`static_print`).
  void remark(SourceLoc loc, const llvm::Twine &msg);

  /// Number of errors reported, including those suppressed by the limit.
  unsigned getNumErrors() const { return numErrors; }
  bool hasErrors() const { return numErrors != 0; }
  /// True once an error beyond the limit was reported ("too many errors"):
  /// callers should stop early.
  bool reachedErrorLimit() const { return numErrors > errorLimit; }
  /// Sets the maximum number of errors printed (0 = unlimited).
  void setErrorLimit(unsigned limit) { errorLimit = limit ? limit : ~0u; }

  llvm::SourceMgr &getSourceMgr() const { return srcMgr; }

private:
  void emit(SourceLoc loc, int kind, const llvm::Twine &msg);

  llvm::SourceMgr &srcMgr;
  llvm::raw_ostream &os;
  unsigned numErrors = 0;
  unsigned errorLimit = 20;
  bool lastSuppressed = false;
  bool printedLimitMessage = false;
};

/// \p text with each control character (below 0x20 but tab, and 0x7F)
/// written as `\xHH`: what diagnostics print of source text and messages.
std::string escapeControlCharacters(llvm::StringRef text);

/// A stream that writes to another with control characters escaped as
/// escapeControlCharacters() does (newlines kept): for the diagnostics MLIR's
/// handlers print, whose source lines are the input's (a `.mlir` file, a
/// `.tile` file's lowering), so that no byte of the input reaches a terminal
/// as an escape sequence.
class ControlEscapingOstream : public llvm::raw_ostream {
public:
  explicit ControlEscapingOstream(llvm::raw_ostream &os) : os(os) {
    SetUnbuffered();
  }

private:
  void write_impl(const char *ptr, size_t size) override;
  uint64_t current_pos() const override { return written; }

  llvm::raw_ostream &os;
  uint64_t written = 0;
};

/// Names longer than this get no did-you-mean suggestion.
constexpr size_t kMaxSuggestedNameLength = 256;

/// The closest candidate to `name` within edit distance 2, or "" when none
/// (always none for a name longer than kMaxSuggestedNameLength).
std::string findClosestName(llvm::StringRef name,
                            llvm::ArrayRef<std::string> candidates);

} // namespace tilec

#endif // TILEC_FRONTEND_DIAGNOSTICS_H
