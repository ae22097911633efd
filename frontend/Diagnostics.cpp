//===- Diagnostics.cpp - Clang-style diagnostics over llvm::SourceMgr -----===//
//
// Prints `FILE:LINE:COL: error: MESSAGE` with the source line and a caret
// through llvm::SMDiagnostic (control characters of the message or the
// source line escaped as \xHH), counts errors and enforces the error limit.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

std::string SourceLoc::str() const {
  return std::to_string(line) + ":" + std::to_string(col);
}

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &srcMgr)
    : srcMgr(srcMgr), os(llvm::errs()) {}

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &srcMgr,
                                   llvm::raw_ostream &os)
    : srcMgr(srcMgr), os(os) {}

namespace {
bool isControl(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t') || u == 0x7f;
}

bool hasControl(llvm::StringRef text) { return llvm::any_of(text, isControl); }

const char *kindLabel(llvm::SourceMgr::DiagKind kind) {
  switch (kind) {
  case llvm::SourceMgr::DK_Error:
    return "error";
  case llvm::SourceMgr::DK_Warning:
    return "warning";
  case llvm::SourceMgr::DK_Note:
    return "note";
  case llvm::SourceMgr::DK_Remark:
    return "remark";
  }
  return "error";
}

/// Prints \p diag (which has control characters in its message or source
/// line) clang-style with each control character escaped as \xHH, the
/// caret under the escaped text: no byte of the source reaches the
/// terminal as an escape sequence.
void printEscaped(const llvm::SMDiagnostic &diag, llvm::raw_ostream &os) {
  llvm::StringRef line = diag.getLineContents();
  size_t column = std::min<size_t>(diag.getColumnNo(), line.size());
  std::string caret;
  for (char c : line.take_front(column))
    caret += c == '\t' ? "\t" : isControl(c) ? "    " : " ";
  if (!diag.getFilename().empty())
    os << diag.getFilename() << ":" << diag.getLineNo() << ":"
       << diag.getColumnNo() + 1 << ": ";
  os << kindLabel(diag.getKind()) << ": "
     << escapeControlCharacters(diag.getMessage()) << "\n";
  if (diag.getLineNo() > 0)
    os << escapeControlCharacters(line) << "\n" << caret << "^\n";
}
} // namespace

std::string tilec::escapeControlCharacters(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (!isControl(c)) {
      out += c;
      continue;
    }
    static const char kHex[] = "0123456789ABCDEF";
    unsigned char u = static_cast<unsigned char>(c);
    out += "\\x";
    out += kHex[u >> 4];
    out += kHex[u & 15];
  }
  return out;
}

void ControlEscapingOstream::write_impl(const char *ptr, size_t size) {
  written += size;
  llvm::StringRef text(ptr, size);
  // Lines one at a time: a newline is not a control character to escape.
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    os << escapeControlCharacters(line);
    if (line.size() < text.size())
      os << '\n';
    text = rest;
  }
}

void DiagnosticEngine::emit(SourceLoc loc, int kind, const llvm::Twine &msg) {
  auto diagKind = static_cast<llvm::SourceMgr::DiagKind>(kind);
  llvm::SMDiagnostic diag =
      loc.ptr.isValid() && srcMgr.FindBufferContainingLoc(loc.ptr)
          ? srcMgr.GetMessage(loc.ptr, diagKind, msg)
          : llvm::SMDiagnostic("", diagKind, msg.str());
  if (hasControl(diag.getMessage()) || hasControl(diag.getLineContents()))
    printEscaped(diag, os);
  else
    diag.print(nullptr, os, /*ShowColors=*/false);
}

void DiagnosticEngine::error(SourceLoc loc, const llvm::Twine &msg) {
  ++numErrors;
  if (numErrors > errorLimit) {
    lastSuppressed = true;
    if (!printedLimitMessage) {
      printedLimitMessage = true;
      emit(SourceLoc(), llvm::SourceMgr::DK_Error,
           "too many errors emitted, stopping now");
    }
    return;
  }
  lastSuppressed = false;
  emit(loc, llvm::SourceMgr::DK_Error, msg);
}

void DiagnosticEngine::warning(SourceLoc loc, const llvm::Twine &msg) {
  lastSuppressed = numErrors > errorLimit;
  if (!lastSuppressed)
    emit(loc, llvm::SourceMgr::DK_Warning, msg);
}

void DiagnosticEngine::note(SourceLoc loc, const llvm::Twine &msg) {
  if (!lastSuppressed)
    emit(loc, llvm::SourceMgr::DK_Note, msg);
}

void DiagnosticEngine::remark(SourceLoc loc, const llvm::Twine &msg) {
  emit(loc, llvm::SourceMgr::DK_Remark, msg);
}

std::string tilec::findClosestName(llvm::StringRef name,
                                   llvm::ArrayRef<std::string> candidates) {
  std::string best;
  // The edit distance of two names costs the product of their lengths;
  // nobody misspells a name that long.
  if (name.size() > kMaxSuggestedNameLength)
    return best;
  unsigned bestDist = 3;
  for (const std::string &cand : candidates) {
    if (cand == name || cand.empty())
      continue;
    // The distance is at least the difference in length: a long name (up
    // to the input size limit) costs nothing against short candidates.
    size_t lengthDifference = name.size() > cand.size()
                                  ? name.size() - cand.size()
                                  : cand.size() - name.size();
    if (lengthDifference >= bestDist)
      continue;
    unsigned dist = name.edit_distance(cand, /*AllowReplacements=*/true,
                                       /*MaxEditDistance=*/bestDist);
    // Very short names would match almost anything.
    if (dist < bestDist && dist < std::max<size_t>(name.size(), 2)) {
      bestDist = dist;
      best = cand;
    }
  }
  return best;
}
