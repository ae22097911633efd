//===- TreeDumper.h - Indented one-node-per-line tree printing --*- C++ -*-===//
//
// The base of the AST dumper (AST.cpp) and the checked-kernel dumper
// (CheckedKernel.cpp): two spaces of indentation per level and the
// ` @LINE:COL` suffix that ends a node's line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TREEDUMPER_H
#define TILEC_FRONTEND_TREEDUMPER_H

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

namespace tilec {

class TreeDumper {
protected:
  explicit TreeDumper(llvm::raw_ostream &os) : os(os) {}

  /// Starts a line at depth \p level.
  llvm::raw_ostream &indent(int level) { return os.indent(2 * level); }
  /// Ends a node's line with its location.
  void loc(SourceLoc l) { os << " @" << l.line << ":" << l.col << "\n"; }

  llvm::raw_ostream &os;
};

} // namespace tilec

#endif // TILEC_FRONTEND_TREEDUMPER_H
