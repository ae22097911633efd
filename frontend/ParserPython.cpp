//===- ParserPython.cpp - Top level of a Python source --------------------===//
//
// The top level of a Python file's Triton code (what extractTritonCode()
// leaves of it, PythonSource.h): `@triton.jit` functions, with
// `@triton.autotune(...)` / `@triton.heuristics(...)` decorators above
// them (recorded and not evaluated), and module-level constexprs
// (`NAME = tl.constexpr(value)`, `NAME: tl.constexpr = value`). Function
// bodies parse as in a .tile file (Parser.cpp).
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Parser.h"

using namespace tilec;
using namespace tilec::ast;

namespace {
bool isJitDecorator(llvm::StringRef name) {
  return name == "triton.jit" || name == "jit";
}

bool isIgnoredDecorator(llvm::StringRef name) {
  return name == "triton.autotune" || name == "autotune" ||
         name == "triton.heuristics" || name == "heuristics";
}
} // namespace

std::optional<std::string> Parser::readDottedName() {
  if (!tok().is(TokKind::Identifier))
    return std::nullopt;
  std::string name = tok().spelling.str();
  consume();
  while (tok().is(TokKind::Dot) && peekTok().is(TokKind::Identifier)) {
    consume();
    name += "." + tok().spelling.str();
    consume();
  }
  return name;
}

void Parser::skipToNextLine() {
  while (!tok().is(TokKind::Newline) && !tok().is(TokKind::Eof))
    consume();
  consumeIf(TokKind::Newline);
}

void Parser::parsePythonTopLevel(Module &module) {
  if (tok().is(TokKind::At)) {
    if (auto fn = parseTritonFunction())
      addFunction(module, std::move(fn));
    return;
  }
  parseConstexprGlobal(module);
}

/// triton_def := ('@' dotted [call_args] NEWLINE)+ def
/// One of the decorators is `@triton.jit` (or `@jit`, arguments ignored);
/// the others may be `@triton.autotune(...)` and `@triton.heuristics(...)`.
std::unique_ptr<Function> Parser::parseTritonFunction() {
  SourceLoc firstLoc = tok().loc;
  bool jit = false;
  std::vector<IgnoredDecorator> ignored;
  while (tok().is(TokKind::At)) {
    SourceLoc atLoc = tok().loc;
    consume(); // '@'
    std::optional<std::string> name = readDottedName();
    if (name && isJitDecorator(*name)) {
      jit = true;
    } else if (name && isIgnoredDecorator(*name)) {
      ignored.push_back({*name, atLoc});
    } else {
      diags.error(atLoc, "unknown decorator" +
                             (name ? " '@" + *name + "'" : std::string()) +
                             "; a function of a Python source takes "
                             "'@triton.jit', with '@triton.autotune' or "
                             "'@triton.heuristics' above it");
      skipToNextLine();
      return nullptr;
    }
    // The arguments (`do_not_specialize=`, the configs, the heuristics'
    // lambdas) are not read.
    skipToNextLine();
    while (tok().is(TokKind::Newline))
      consume();
  }
  if (!tok().is(TokKind::kw_def)) {
    errorExpected("'def' after the decorators");
    skipLine();
    return nullptr;
  }
  if (!jit) {
    diags.error(firstLoc, "'@" + ignored.front().name +
                              "' decorates a '@triton.jit' function; add "
                              "'@triton.jit' below it");
    skipLine();
    return nullptr;
  }
  auto fn = parseFunction();
  if (!fn)
    return nullptr;
  fn->isTritonJit = true;
  fn->ignoredDecorators = std::move(ignored);
  return fn;
}

/// constexpr_global := NAME '=' dotted '(' expr ')' NEWLINE
///                   | NAME ':' dotted '=' expr NEWLINE
/// where the dotted name ends in `constexpr` (`tl.constexpr`).
void Parser::parseConstexprGlobal(Module &module) {
  Block block;
  SourceLoc loc = tok().loc;
  if (!parseSimpleStatement(block)) {
    skipLine();
    return;
  }
  auto *assign = block.size() == 1
                     ? llvm::dyn_cast<AssignStmt>(block.front().get())
                     : nullptr;
  auto *target =
      assign ? llvm::dyn_cast<NameExpr>(assign->target.get()) : nullptr;
  if (!target) {
    diags.error(loc, "expected a module-level constexpr (NAME = "
                     "tl.constexpr(value)) or '@triton.jit'");
    return;
  }
  ExprPtr value = std::move(assign->value);
  if (!assign->isConstexpr) {
    // `tl.constexpr(value)`: the value.
    auto *call = llvm::dyn_cast<CallExpr>(value.get());
    if (!call || call->args.size() != 1 || !call->kwargs.empty()) {
      diags.error(value->getLoc(), "expected tl.constexpr(value)");
      return;
    }
    value = std::move(call->args.front());
  }
  if (module.lookupGlobal(target->name) || module.lookup(target->name)) {
    diags.error(loc, "redefinition of '" + target->name + "'");
    return;
  }
  module.globals.push_back({target->name, loc, std::move(value)});
}
