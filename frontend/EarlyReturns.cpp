//===- EarlyReturns.cpp - Bare returns in branches, as the rest's guard ---===//
//
// liftEarlyReturns (AST.h): `if c: ...; return` followed by more statements
// becomes `if c: ... else: <the rest>`, wherever the `if` is in tail
// position (the function ends after it): the function body, and the
// branches of an `if` in tail position. Kernels written with an early exit
// (`if row >= n_rows: return`) then need no return inside a run-time `if`.
// A return inside a loop, or one with a value, is left where it is (Sema
// reports it when its condition is a run-time one).
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/AST.h"

namespace tilec::ast {
namespace {

/// Whether `block` ends with `return` (no value).
bool endsWithBareReturn(const Block &block) {
  if (block.empty())
    return false;
  auto *ret = llvm::dyn_cast<ReturnStmt>(block.back().get());
  return ret && !ret->value;
}

} // namespace

void liftEarlyReturns(Block &block) {
  for (size_t i = 0; i < block.size(); ++i) {
    auto *ifStmt = llvm::dyn_cast<IfStmt>(block[i].get());
    if (!ifStmt)
      continue;
    bool thenReturns = endsWithBareReturn(ifStmt->thenBody);
    bool elseReturns = endsWithBareReturn(ifStmt->elseBody);
    bool last = i + 1 == block.size();
    if (!thenReturns && !elseReturns) {
      if (last) // In tail position: its branches are too.
        for (Block *branch : {&ifStmt->thenBody, &ifStmt->elseBody})
          liftEarlyReturns(*branch);
      continue;
    }
    ifStmt->endsFunction = true;
    // The statements after the `if` run only through the branch that does
    // not return (none: they never run).
    Block rest;
    for (size_t j = i + 1; j < block.size(); ++j)
      rest.push_back(std::move(block[j]));
    block.resize(i + 1);
    if (thenReturns)
      ifStmt->thenBody.pop_back();
    if (elseReturns)
      ifStmt->elseBody.pop_back();
    if (thenReturns != elseReturns) {
      Block &target = thenReturns ? ifStmt->elseBody : ifStmt->thenBody;
      for (StmtPtr &stmt : rest)
        target.push_back(std::move(stmt));
    }
    for (Block *branch : {&ifStmt->thenBody, &ifStmt->elseBody})
      liftEarlyReturns(*branch);
    return;
  }
}

} // namespace tilec::ast
