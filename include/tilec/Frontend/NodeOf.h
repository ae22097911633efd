//===- NodeOf.h - One node class of a kind-tagged tree ----------*- C++ -*-===//
//
// The syntax tree (ast::Expr, ast::Stmt) and the checked tree
// (checked::Expr, checked::Stmt) tag each node with a kind and use LLVM's
// isa/cast/dyn_cast. KindedNode<Kind> holds the kind and location of a
// node; NodeOf<Base, Kind> is the base of the node class of one kind: it
// passes the kind to Base's constructor and provides classof.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_NODEOF_H
#define TILEC_FRONTEND_NODEOF_H

#include "tilec/Frontend/Diagnostics.h"

#include <utility>

namespace tilec {

/// The root of a tree whose nodes carry a kind and a source location
/// (ast::Expr, ast::Stmt, checked::Stmt).
template <typename KindT> class KindedNode {
public:
  using Kind = KindT;
  KindedNode(KindT kind, SourceLoc loc) : kind(kind), loc(loc) {}
  virtual ~KindedNode() = default;
  KindT getKind() const { return kind; }
  SourceLoc getLoc() const { return loc; }

private:
  KindT kind;
  SourceLoc loc;
};

template <typename Base, auto NodeKind> class NodeOf : public Base {
public:
  /// Constructs Base from the kind followed by \p args.
  template <typename... Args>
  explicit NodeOf(Args &&...args)
      : Base(NodeKind, std::forward<Args>(args)...) {}

  static bool classof(const Base *node) { return node->getKind() == NodeKind; }
};

} // namespace tilec

#endif // TILEC_FRONTEND_NODEOF_H
