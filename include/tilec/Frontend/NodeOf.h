//===- NodeOf.h - One node class of a kind-tagged tree ----------*- C++ -*-===//
//
// The syntax tree (ast::Expr, ast::Stmt) and the checked tree
// (checked::Expr, checked::Stmt) tag each node with a kind and use LLVM's
// isa/cast/dyn_cast. NodeOf<Base, Kind> is the base of the node class of one
// kind: it passes the kind to Base's constructor and provides classof.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_NODEOF_H
#define TILEC_FRONTEND_NODEOF_H

#include <utility>

namespace tilec {

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
