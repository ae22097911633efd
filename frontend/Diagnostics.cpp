//===- Diagnostics.cpp - Clang-style diagnostics over llvm::SourceMgr -----===//
//
// Prints `FILE:LINE:COL: error: MESSAGE` with the source line and a caret
// through llvm::SourceMgr::PrintMessage, counts errors and enforces the error
// limit.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Diagnostics.h"

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

void DiagnosticEngine::emit(SourceLoc loc, int kind, const llvm::Twine &msg) {
  auto diagKind = static_cast<llvm::SourceMgr::DiagKind>(kind);
  if (loc.ptr.isValid() && srcMgr.FindBufferContainingLoc(loc.ptr)) {
    srcMgr.PrintMessage(os, loc.ptr, diagKind, msg, {}, {},
                        /*ShowColors=*/false);
    return;
  }
  llvm::SMDiagnostic diag("", diagKind, msg.str());
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
  unsigned bestDist = 3;
  for (const std::string &cand : candidates) {
    if (cand == name || cand.empty())
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
