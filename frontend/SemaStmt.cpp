//===- SemaStmt.cpp - Statements and control flow -------------------------===//
//
// Elaboration of statements: assignments, compile-time and run-time `if`
// (with the names each branch yields), `for range(...)` loops with their
// loop-carried names, unrolled `static_range` loops, `while` loops, and
// `return` in helpers.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "tilec/Frontend/Parser.h"

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

void sema::collectAssignedNames(const ast::Block &block,
                                std::vector<std::string> &names) {
  auto add = [&](const std::string &n) {
    if (!llvm::is_contained(names, n))
      names.push_back(n);
  };
  auto addTarget = [&](const ast::Expr &target) {
    if (auto *n = llvm::dyn_cast<ast::NameExpr>(&target))
      add(n->name);
    else if (auto *t = llvm::dyn_cast<ast::TupleExpr>(&target))
      for (const auto &el : t->elements)
        if (auto *n = llvm::dyn_cast<ast::NameExpr>(el.get()))
          add(n->name);
  };
  for (const auto &stmt : block) {
    if (auto *s = llvm::dyn_cast<ast::AssignStmt>(stmt.get()))
      addTarget(*s->target);
    else if (auto *s = llvm::dyn_cast<ast::AugAssignStmt>(stmt.get()))
      addTarget(*s->target);
    else if (auto *s = llvm::dyn_cast<ast::IfStmt>(stmt.get())) {
      collectAssignedNames(s->thenBody, names);
      collectAssignedNames(s->elseBody, names);
    } else if (auto *s = llvm::dyn_cast<ast::ForStmt>(stmt.get())) {
      add(s->var);
      collectAssignedNames(s->body, names);
    } else if (auto *s = llvm::dyn_cast<ast::WhileStmt>(stmt.get())) {
      collectAssignedNames(s->body, names);
    }
  }
}

/// Whether `block` holds a bare `return` outside loops (in it, or in the
/// branches of its `if`s).
static bool containsBareReturn(const ast::Block &block) {
  for (const auto &stmt : block) {
    if (auto *ret = llvm::dyn_cast<ast::ReturnStmt>(stmt.get()))
      if (!ret->value)
        return true;
    if (auto *ifStmt = llvm::dyn_cast<ast::IfStmt>(stmt.get()))
      if (containsBareReturn(ifStmt->thenBody) ||
          containsBareReturn(ifStmt->elseBody))
        return true;
  }
  return false;
}

static std::vector<const ast::Stmt *> statementsOf(const ast::Block &block) {
  std::vector<const ast::Stmt *> stmts;
  for (const auto &stmt : block)
    stmts.push_back(stmt.get());
  return stmts;
}

void Sema::elabBlock(const ast::Block &block) {
  elabSequence(statementsOf(block));
}

void Sema::elabSequence(llvm::ArrayRef<const ast::Stmt *> stmts) {
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (frame->returned || frame->branchReturned || diags.reachedErrorLimit())
      return;
    auto *ifStmt = llvm::dyn_cast<ast::IfStmt>(stmts[i]);
    if (ifStmt && frame->loopDepth == 0 &&
        (containsBareReturn(ifStmt->thenBody) ||
         containsBareReturn(ifStmt->elseBody))) {
      elabIfThenRest(*ifStmt, stmts.drop_front(i + 1));
      return;
    }
    elabStmt(*stmts[i]);
  }
}

void Sema::elabIfThenRest(const ast::IfStmt &s,
                          llvm::ArrayRef<const ast::Stmt *> rest) {
  auto branchThenRest = [&](const ast::Block &branch) {
    std::vector<const ast::Stmt *> stmts = statementsOf(branch);
    stmts.insert(stmts.end(), rest.begin(), rest.end());
    return stmts;
  };
  IfStart start = startIf(s);
  if (start.taken) {
    elabSequence(branchThenRest(*start.taken ? s.thenBody : s.elseBody));
    return;
  }
  if (!start.runtime)
    return;
  // Each branch gets its own copy of the rest; early exits nested in
  // sequence multiply the copies, so they are bounded.
  constexpr size_t kMaxCopiedStatements = 100000;
  frame->copiedStatements += 2 * rest.size();
  if (frame->copiedStatements > kMaxCopiedStatements) {
    error(s.getLoc(),
          "too many early exits: the statements after an 'if' that returns "
          "are compiled into each of its branches, and this function would "
          "need more than " +
              llvm::Twine(kMaxCopiedStatements) +
              " such statements; merge the exits into fewer 'if's");
    return;
  }
  // Nothing runs after this `if` (the rest is in its branches): no name
  // is merged or yielded, as for an `if` that ends the function.
  std::unique_ptr<ck::IfStmt> ifStmt = std::move(start.runtime);
  std::map<std::string, Binding> before = frame->env;
  ck::Block *outer = curBlock;
  ++frame->runtimeDepth;
  ++regionDepth;
  for (auto [branch, target] : {std::pair(&s.thenBody, &ifStmt->thenBody),
                                std::pair(&s.elseBody, &ifStmt->elseBody)}) {
    frame->env = before;
    curBlock = target;
    elabSequence(branchThenRest(*branch));
    frame->branchReturned = false;
  }
  frame->env = std::move(before);
  --frame->runtimeDepth;
  --regionDepth;
  curBlock = outer;
  emit(std::move(ifStmt));
}

void Sema::elabStmt(const ast::Stmt &stmt) {
  switch (stmt.getKind()) {
  case ast::Stmt::Kind::Pass:
    return;
  case ast::Stmt::Kind::Expr: {
    const ast::Expr &e = *llvm::cast<ast::ExprStmt>(stmt).expr;
    if (llvm::isa<ast::StringLiteral>(e))
      return; // A docstring.
    Value v = elabExpr(e);
    // Atomics for their effect; hints because they annotate their operand
    // (`tl.multiple_of(ptrs, 16)` alone is Triton's idiom: MLIRGen anchors
    // it at the value's definition).
    if (v.isExpr() &&
        llvm::isa<ck::AtomicRMWExpr, ck::AtomicCASExpr, ck::HintExpr>(*v.expr))
      emit(std::make_unique<ck::ExprStmt>(stmt.getLoc(), std::move(v.expr)));
    return;
  }
  case ast::Stmt::Kind::Assign:
    return elabAssign(llvm::cast<ast::AssignStmt>(stmt));
  case ast::Stmt::Kind::AugAssign:
    return elabAugAssign(llvm::cast<ast::AugAssignStmt>(stmt));
  case ast::Stmt::Kind::If:
    return elabIf(llvm::cast<ast::IfStmt>(stmt));
  case ast::Stmt::Kind::For:
    return elabFor(llvm::cast<ast::ForStmt>(stmt));
  case ast::Stmt::Kind::While:
    return elabWhile(llvm::cast<ast::WhileStmt>(stmt));
  case ast::Stmt::Kind::Return:
    return elabReturn(llvm::cast<ast::ReturnStmt>(stmt));
  }
}

/// Whether `v` is known at compile time, as `x: tl.constexpr = v` needs: a
/// constant, a string, a dtype, None, a function, or a tuple of those
/// (`order: tl.constexpr = (0, 1) if ... else (1, 0)`).
static bool isCompileTime(const Value &v) {
  switch (v.kind) {
  case Value::Kind::Expr:
    return v.getConst() != nullptr;
  case Value::Kind::DType:
  case Value::Kind::String:
  case Value::Kind::None:
  case Value::Kind::Function:
    return true;
  case Value::Kind::Tuple:
    return llvm::all_of(v.elements, isCompileTime);
  default:
    return false;
  }
}

void Sema::elabAssign(const ast::AssignStmt &s) {
  Value value = elabExpr(*s.value);
  if (s.isConstexpr) {
    // As Triton: a new name, bound to a compile-time constant.
    auto &name = llvm::cast<ast::NameExpr>(*s.target);
    if (frame->env.count(name.name)) {
      error(s.target->getLoc(), "'" + name.name +
                                    "' is already defined; a constexpr "
                                    "cannot be reassigned");
      value = Value::invalid();
    } else if (!value.isInvalid() && !isCompileTime(value)) {
      error(s.value->getLoc(), "'" + name.name +
                                   "' is annotated constexpr, but its value "
                                   "is not a compile-time constant");
      value = Value::invalid();
    }
  }
  if (auto *name = llvm::dyn_cast<ast::NameExpr>(s.target.get())) {
    if (value.isNone() && !llvm::isa<ast::NoneLiteral>(*s.value) &&
        !value.isInvalid()) {
      error(s.value->getLoc(), "this expression does not produce a value");
      value = Value::invalid();
    }
    bind(name->name, std::move(value), s.getLoc());
    return;
  }
  auto &targets = llvm::cast<ast::TupleExpr>(*s.target).elements;
  if (value.isInvalid()) {
    for (const auto &t : targets)
      bind(llvm::cast<ast::NameExpr>(*t).name, Value::invalid(), s.getLoc());
    return;
  }
  if (value.kind != Value::Kind::Tuple ||
      value.elements.size() != targets.size()) {
    error(s.value->getLoc(),
          "cannot unpack " +
              (value.kind == Value::Kind::Tuple
                   ? std::to_string(value.elements.size()) + " values"
                   : "a " + value.describe() + " value") +
              " into " + std::to_string(targets.size()) + " names");
    for (const auto &t : targets)
      bind(llvm::cast<ast::NameExpr>(*t).name, Value::invalid(), s.getLoc());
    return;
  }
  // Evaluate everything before binding: `a, b = b, a` swaps. Variable
  // references are copied too, since binding an earlier target may rebind
  // the variable a later element refers to.
  value = materializeTrivial(std::move(value), s.getLoc(), "tuple");
  for (Value &el : value.elements) {
    if (!el.isExpr() || !llvm::isa<ck::VarRefExpr>(*el.expr))
      continue;
    std::string copy = freshName("tuple");
    TType type = el.type();
    SourceLoc loc = el.expr->getLoc();
    emit(std::make_unique<ck::AssignStmt>(loc, copy, std::move(el.expr)));
    el.expr = std::make_unique<ck::VarRefExpr>(type, loc, copy);
  }
  for (size_t i = 0; i < targets.size(); ++i)
    bind(llvm::cast<ast::NameExpr>(*targets[i]).name,
         std::move(value.elements[i]), targets[i]->getLoc());
}

void Sema::elabAugAssign(const ast::AugAssignStmt &s) {
  auto &target = llvm::cast<ast::NameExpr>(*s.target);
  Value lhs = elabName(target);
  Value rhs = elabExpr(*s.value);
  Value result = binaryOp(s.op, std::move(lhs), std::move(rhs), s.getLoc());
  bind(target.name, std::move(result), s.getLoc());
}

void Sema::elabReturn(const ast::ReturnStmt &s) {
  if (frame->runtimeDepth > 0 && !s.value && frame->loopDepth == 0) {
    // A bare return in a branch that carries the rest of the function
    // (elabIfThenRest): the branch ends here.
    frame->branchReturned = true;
    return;
  }
  if (frame->runtimeDepth > 0) {
    error(s.getLoc(), "'return' inside a run-time 'if', 'for' or 'while' is "
                      "not supported; assign to a variable and return it at "
                      "the end of the function");
    return;
  }
  if (frame->isKernel && s.value) {
    error(s.value->getLoc(), "a kernel cannot return a value; store results "
                             "to memory with store(...)");
    return;
  }
  frame->returnValue = s.value ? elabExpr(*s.value) : Value::none();
  frame->returned = true;
}

bool Sema::checkRegionDepth(SourceLoc loc) {
  if (regionDepth < Parser::kMaxStatementNesting)
    return true;
  error(loc, "statements nested too deeply (more than " +
                 llvm::Twine(Parser::kMaxStatementNesting) +
                 " levels of run-time if/for/while, counting inlined "
                 "helpers)");
  return false;
}

/// The checked name of leaf `leaf` of the aggregate bound to `name` (a
/// key no source name can be).
static std::string leafKey(const std::string &name, int leaf) {
  return leaf < 0 ? name : name + "." + std::to_string(leaf);
}

/// Makes `checkedName` a result of `ifStmt`: `thenValue` in its then
/// branch, `elseValue` in its else branch (two Exprs of one type).
static void yieldBranchValues(ck::IfStmt &ifStmt, Value &thenValue,
                              Value &elseValue, const std::string &checkedName,
                              SourceLoc loc) {
  TType type = thenValue.type();
  for (auto [value, body] : {std::pair{&thenValue, &ifStmt.thenBody},
                             std::pair{&elseValue, &ifStmt.elseBody}}) {
    auto *ref = llvm::dyn_cast<ck::VarRefExpr>(value->expr.get());
    if (ref && ref->name == checkedName)
      continue;
    body->push_back(std::make_unique<ck::AssignStmt>(loc, checkedName,
                                                     std::move(value->expr)));
  }
  ifStmt.yields.push_back({checkedName, type});
}

IfStart Sema::startIf(const ast::IfStmt &s) {
  IfStart start;
  Value cond = elabExpr(*s.cond);
  if (cond.isInvalid())
    return start;
  if ((start.taken = cond.getConstTruth()))
    return start;
  if (!requireExpr(cond, s.cond->getLoc(), "'if' condition"))
    return start;
  if (cond.type().isBlock()) {
    error(s.cond->getLoc(), "the condition of 'if' must be a scalar; got " +
                                cond.type().str() +
                                " (use where(...) to select elementwise)");
    return start;
  }
  if (!checkRegionDepth(s.getLoc()))
    return start;
  start.runtime = std::make_unique<ck::IfStmt>(
      s.getLoc(), toBool(std::move(cond.expr), s.cond->getLoc()));
  return start;
}

void Sema::elabIf(const ast::IfStmt &s) {
  IfStart start = startIf(s);
  if (start.taken) {
    // A compile-time condition: only the taken branch exists.
    elabBlock(*start.taken ? s.thenBody : s.elseBody);
    return;
  }
  if (!start.runtime)
    return;
  std::unique_ptr<ck::IfStmt> ifStmt = std::move(start.runtime);
  std::vector<std::string> assigned;
  collectAssignedNames(s.thenBody, assigned);
  collectAssignedNames(s.elseBody, assigned);

  std::map<std::string, Binding> before = frame->env;
  ck::Block *outer = curBlock;
  ++frame->runtimeDepth;
  ++regionDepth;
  curBlock = &ifStmt->thenBody;
  elabBlock(s.thenBody);
  std::map<std::string, Binding> thenEnv = std::move(frame->env);
  frame->env = before;
  curBlock = &ifStmt->elseBody;
  elabBlock(s.elseBody);
  std::map<std::string, Binding> elseEnv = std::move(frame->env);
  frame->env = std::move(before);
  --frame->runtimeDepth;
  --regionDepth;
  curBlock = outer;

  if (s.endsFunction) {
    // Nothing runs after this `if` (an early exit was lifted into it, as
    // Triton's top-level early return ends the function): its branches'
    // names need no common type and are not yielded.
    emit(std::move(ifStmt));
    return;
  }
  auto live = [](std::map<std::string, Binding> &env,
                 const std::string &n) -> Binding * {
    auto it = env.find(n);
    return it != env.end() && it->second.hiddenReason.empty() ? &it->second
                                                              : nullptr;
  };
  for (const std::string &name : assigned) {
    Binding *tb = live(thenEnv, name);
    Binding *eb = live(elseEnv, name);
    if (!tb && !eb)
      continue;
    if (!tb || !eb) {
      frame->env[name].hiddenReason =
          "it is assigned in only one branch of the 'if' on line " +
          std::to_string(s.getLoc().line);
      continue;
    }
    Value &tv = tb->value, &ev = eb->value;
    if (tv.isInvalid() || ev.isInvalid()) {
      frame->env[name].value = Value::invalid();
      continue;
    }
    const ConstexprValue *tc = tv.getConst(), *ec = ev.getConst();
    if (tc && ec && *tc == *ec && tv.type() == ev.type()) {
      frame->env[name].value = tv.clone();
      continue;
    }
    if (tv.isAggregate() && tv.sameStructure(ev)) {
      // Each leaf that differs between the branches is yielded.
      Value merged = tv.clone();
      std::vector<Value *> tl, el, ml;
      tv.collectExprLeaves(tl);
      ev.collectExprLeaves(el);
      merged.collectExprLeaves(ml);
      for (size_t i = 0; i < tl.size(); ++i) {
        const ConstexprValue *a = tl[i]->getConst(), *b = el[i]->getConst();
        if (a && b && *a == *b)
          continue;
        std::string checkedName =
            getCheckedName(leafKey(name, static_cast<int>(i)));
        TType type = tl[i]->type();
        yieldBranchValues(*ifStmt, *tl[i], *el[i], checkedName, s.getLoc());
        *ml[i] = Value::ofExpr(
            std::make_unique<ck::VarRefExpr>(type, s.getLoc(), checkedName));
      }
      frame->env[name].value = std::move(merged);
      frame->env[name].hiddenReason.clear();
      continue;
    }
    if (!tv.isExpr() || !ev.isExpr()) {
      if (tv.kind == ev.kind && !tv.isAggregate() &&
          (tv.kind != Value::Kind::DType || tv.sameDType(ev)) &&
          tv.str == ev.str) {
        frame->env[name].value = tv.clone();
        continue;
      }
      error(s.getLoc(), "'" + name +
                            "' must hold the same compile-time "
                            "value (" +
                            tv.describe() + ", " + ev.describe() +
                            ") in both branches of a run-time 'if'");
      frame->env[name].value = Value::invalid();
      continue;
    }
    if (tv.type() != ev.type()) {
      error(s.getLoc(), "'" + name + "' has type " + tv.type().str() +
                            " in the 'if' branch but " + ev.type().str() +
                            " in the 'else' branch; both branches must "
                            "agree");
      frame->env[name].value = Value::invalid();
      continue;
    }
    std::string checkedName = getCheckedName(name);
    TType type = tv.type();
    yieldBranchValues(*ifStmt, tv, ev, checkedName, s.getLoc());
    frame->env[name].value = Value::ofExpr(
        std::make_unique<ck::VarRefExpr>(type, s.getLoc(), checkedName));
    frame->env[name].hiddenReason.clear();
  }
  emit(std::move(ifStmt));
}

std::vector<CarriedValue> Sema::prepareCarried(const ast::Block &body,
                                               SourceLoc loc,
                                               const std::string &skipName) {
  std::vector<std::string> assigned;
  collectAssignedNames(body, assigned);
  std::vector<CarriedValue> carried;
  for (const std::string &name : assigned) {
    if (name == skipName)
      continue;
    auto it = frame->env.find(name);
    if (it == frame->env.end() || !it->second.hiddenReason.empty())
      continue;
    Value &v = it->second.value;
    // Compile-time values cannot change in a run-time loop; aggregates
    // carry each of their Expr leaves.
    if (!v.isExpr() && !v.isAggregate())
      continue;
    std::vector<Value *> leaves;
    v.collectExprLeaves(leaves);
    for (size_t i = 0; i < leaves.size(); ++i) {
      int leaf = v.isExpr() ? -1 : static_cast<int>(i);
      std::string checkedName = getCheckedName(leafKey(name, leaf));
      Value &lv = *leaves[i];
      TType type = lv.type();
      auto *ref = llvm::dyn_cast<ck::VarRefExpr>(lv.expr.get());
      if (!ref || ref->name != checkedName) {
        emit(std::make_unique<ck::AssignStmt>(loc, checkedName,
                                              std::move(lv.expr)));
        lv = Value::ofExpr(
            std::make_unique<ck::VarRefExpr>(type, loc, checkedName));
      }
      carried.push_back({name, leaf, {checkedName, type}});
    }
  }
  return carried;
}

void Sema::finishCarried(std::vector<CarriedValue> &carried,
                         std::map<std::string, Binding> &bodyEnv,
                         ck::Block &body, SourceLoc loc, llvm::StringRef what) {
  // Each aggregate is checked once, at its first leaf.
  std::string checkedAggregate;
  std::vector<Value *> leaves;
  for (CarriedValue &c : carried) {
    Binding &b = bodyEnv[c.name];
    if (b.value.isInvalid() || !b.hiddenReason.empty())
      continue;
    Value *value = &b.value;
    if (c.leaf >= 0) {
      if (checkedAggregate != c.name) {
        checkedAggregate = c.name;
        leaves.clear();
        const Value &before = frame->env[c.name].value;
        if (!before.sameStructure(b.value)) {
          error(loc, "'" + c.name + "' is a " + before.describe() +
                         " before the " + what + " but " + b.value.describe() +
                         " at the end of its body; a loop-carried tuple, "
                         "descriptor or block pointer must keep its "
                         "compile-time parts and the types of its values");
          b.value = Value::invalid();
          continue;
        }
        b.value.collectExprLeaves(leaves);
      }
      if (static_cast<size_t>(c.leaf) >= leaves.size())
        continue;
      value = leaves[c.leaf];
    } else if (!b.value.isExpr()) {
      error(loc, "'" + c.name + "' is a run-time value before the " + what +
                     " but becomes " + b.value.describe() + " in its body");
      continue;
    } else if (b.value.type() != c.named.type) {
      error(loc, "loop-carried variable '" + c.name + "' has type " +
                     c.named.type.str() + " before the " + what + " but " +
                     b.value.type().str() +
                     " at the end of its body; the types must be the same "
                     "(convert with .to(...))");
      continue;
    }
    auto *ref = llvm::dyn_cast<ck::VarRefExpr>(value->expr.get());
    if (ref && ref->name == c.named.name)
      continue;
    body.push_back(std::make_unique<ck::AssignStmt>(loc, c.named.name,
                                                    std::move(value->expr)));
  }
}

std::vector<ck::NamedType>
Sema::elabLoopBody(const ast::Block &astBody, ck::Block &body,
                   std::map<std::string, Binding> before,
                   std::vector<CarriedValue> &carried, SourceLoc loc,
                   llvm::StringRef loopVar) {
  ck::Block *outer = curBlock;
  curBlock = &body;
  ++frame->runtimeDepth;
  ++frame->loopDepth;
  if (checkRegionDepth(loc)) {
    ++regionDepth;
    elabBlock(astBody);
    --regionDepth;
  }
  --frame->loopDepth;
  --frame->runtimeDepth;
  curBlock = outer;
  std::map<std::string, Binding> bodyEnv = std::move(frame->env);
  frame->env = std::move(before);
  finishCarried(carried, bodyEnv, body, loc, "loop");

  // Names first bound inside the body are not visible after the loop.
  for (auto &[name, b] : bodyEnv) {
    if (frame->env.count(name) || name == loopVar)
      continue;
    frame->env[name].hiddenReason =
        "it is assigned only inside the loop on line " +
        std::to_string(loc.line);
  }
  std::vector<ck::NamedType> names;
  for (CarriedValue &c : carried)
    names.push_back(c.named);
  return names;
}

void Sema::elabFor(const ast::ForStmt &s) {
  auto *call = llvm::dyn_cast<ast::CallExpr>(s.iter.get());
  std::string callee;
  if (call) {
    if (auto *n = llvm::dyn_cast<ast::NameExpr>(call->callee.get()))
      callee = n->name;
    else if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(call->callee.get()))
      if (auto *base = llvm::dyn_cast<ast::NameExpr>(a->base.get()))
        if (isLanguageModuleName(base->name))
          callee = a->attr;
  }
  if (callee != "range" && callee != "static_range") {
    error(s.iter->getLoc(), "a 'for' loop must iterate over range(...) or "
                            "static_range(...)");
    return;
  }
  CallArgs args;
  if (!evalArgs(*call, args))
    return;
  if (callee == "static_range")
    return elabStaticFor(s, args);

  std::vector<Value> slots;
  if (!bindArgs(args, "range", {"arg0", "arg1", "step", "num_stages"}, 1, slots,
                {"loop_unroll_factor", "warp_specialize", "flatten"}))
    return;
  Value lo, hi, step;
  if (slots[1].isNone()) {
    lo = makeConst(ConstexprValue::ofInt(0), call->getLoc());
    hi = std::move(slots[0]);
  } else {
    lo = std::move(slots[0]);
    hi = std::move(slots[1]);
  }
  step = slots[2].isNone() ? makeConst(ConstexprValue::ofInt(1), call->getLoc())
                           : std::move(slots[2]);
  int64_t numStages = -1;
  if (!slots[3].isNone()) {
    auto n = requireConstInt(slots[3], call->getLoc(), "num_stages");
    if (!n)
      return;
    numStages = *n;
  }
  // Bounds: integer scalars; the induction variable has their common type.
  ScalarType ivKind = ScalarType::I32;
  for (Value *v : {&lo, &hi, &step}) {
    if (!requireExpr(*v, call->getLoc(), "range bound"))
      return;
    if (!v->type().isInteger() || v->type().isBlock() ||
        v->type().elem == ScalarType::I1) {
      error(call->getLoc(),
            "range() bounds must be integer scalars; got " + v->type().str());
      return;
    }
    if (!v->weak && scalarTypeBits(v->type().elem) == 64)
      ivKind = ScalarType::I64;
    if (v->weak && v->getConst() &&
        (v->getConst()->asInt() > INT32_MAX ||
         v->getConst()->asInt() < INT32_MIN))
      ivKind = ScalarType::I64;
  }
  if (const ConstexprValue *c = step.getConst()) {
    if (c->asInt() <= 0) {
      error(call->getLoc(), c->asInt() == 0
                                ? "range() step must not be zero"
                                : "a negative range() step is not supported");
      return;
    }
  }
  auto forStmt = std::make_unique<ck::ForStmt>(s.getLoc());
  forStmt->lo = castTo(std::move(lo.expr), ivKind, call->getLoc());
  forStmt->hi = castTo(std::move(hi.expr), ivKind, call->getLoc());
  forStmt->step = castTo(std::move(step.expr), ivKind, call->getLoc());
  forStmt->numStages = numStages;
  forStmt->inductionVarType = TType(ivKind);

  auto carried = prepareCarried(s.body, s.getLoc(), s.var);
  std::map<std::string, Binding> before = frame->env;
  bool varBoundBefore = before.count(s.var) != 0;
  std::string ivName = getCheckedName(s.var);
  forStmt->inductionVar = ivName;
  Binding &ivBinding = frame->env[s.var];
  ivBinding.hiddenReason.clear();
  ivBinding.value = Value::ofExpr(
      std::make_unique<ck::VarRefExpr>(TType(ivKind), s.varLoc, ivName));

  forStmt->carried = elabLoopBody(s.body, forStmt->body, std::move(before),
                                  carried, s.getLoc(), s.var);
  if (!varBoundBefore)
    frame->env[s.var].hiddenReason = "the loop variable of the loop on line " +
                                     std::to_string(s.getLoc().line) +
                                     " is not visible after it";
  emit(std::move(forStmt));
}

void Sema::elabStaticFor(const ast::ForStmt &s, CallArgs &args) {
  std::vector<Value> slots;
  if (!bindArgs(args, "static_range", {"arg0", "arg1", "step"}, 1, slots))
    return;
  std::optional<int64_t> lo = 0, hi, step = 1;
  if (slots[1].isNone()) {
    hi = requireConstInt(slots[0], args.loc, "static_range bound");
  } else {
    lo = requireConstInt(slots[0], args.loc, "static_range bound");
    hi = requireConstInt(slots[1], args.loc, "static_range bound");
  }
  if (!slots[2].isNone())
    step = requireConstInt(slots[2], args.loc, "static_range step");
  if (!lo || !hi || !step)
    return;
  if (*step == 0) {
    error(args.loc, "static_range() step must not be zero");
    return;
  }
  int64_t trips = 0;
  for (int64_t i = *lo; *step > 0 ? i < *hi : i > *hi; i += *step)
    if (++trips > 4096) {
      error(args.loc, "static_range() unrolls more than 4096 iterations; "
                      "use range(...) for a run-time loop");
      return;
    }
  for (int64_t i = *lo; *step > 0 ? i < *hi : i > *hi; i += *step) {
    if (frame->returned || diags.reachedErrorLimit())
      return;
    bind(s.var, makeConst(ConstexprValue::ofInt(i), s.varLoc), s.varLoc);
    ++frame->loopDepth;
    elabBlock(s.body);
    --frame->loopDepth;
  }
}

void Sema::elabWhile(const ast::WhileStmt &s) {
  auto whileStmt = std::make_unique<ck::WhileStmt>(s.getLoc());
  auto carried = prepareCarried(s.body, s.getLoc(), "");
  std::map<std::string, Binding> before = frame->env;

  // The condition is evaluated in its own region.
  ck::Block condBlock;
  ck::Block *outer = curBlock;
  curBlock = &condBlock;
  Value cond = elabExpr(*s.cond);
  curBlock = outer;
  if (cond.isInvalid())
    return;
  if (!condBlock.empty()) {
    error(s.cond->getLoc(), "the condition of a 'while' loop cannot call "
                            "helper functions; compute it in a variable");
    return;
  }
  if (std::optional<bool> c = cond.getConstTruth()) {
    if (!*c)
      return;
    error(s.cond->getLoc(), "this 'while' loop never ends ('break' is not "
                            "supported)");
    return;
  }
  if (!requireExpr(cond, s.cond->getLoc(), "'while' condition"))
    return;
  if (cond.type().isBlock()) {
    error(s.cond->getLoc(), "the condition of 'while' must be a scalar; got " +
                                cond.type().str());
    return;
  }
  whileStmt->cond = toBool(std::move(cond.expr), s.cond->getLoc());

  whileStmt->carried = elabLoopBody(s.body, whileStmt->body, std::move(before),
                                    carried, s.getLoc(), /*loopVar=*/"");
  emit(std::move(whileStmt));
}
