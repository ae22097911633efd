//===- ParserPython.cpp - Top level of a Python source --------------------===//
//
// The top level of a Python file's Triton code (what extractTritonCode()
// leaves of it, PythonSource.h): `@triton.jit` functions, with
// `@triton.autotune(...)` / `@triton.heuristics(...)` decorators above
// them (recorded, with the autotune configs when they are literals; not
// evaluated), and module-level constexprs
// (`NAME = tl.constexpr(value)`, `NAME: tl.constexpr = value`). Function
// bodies parse as in a .tile file (Parser.cpp).
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/PythonSource.h"
#include "tilec/Frontend/Types.h"

using namespace tilec;
using namespace tilec::ast;

namespace {
/// `@triton.autotune` / `@triton.heuristics`, also as the Python package
/// spells them (`@tilec.autotune`, docs/python.md).
bool isTritonDecorator(llvm::StringRef name) {
  name.consume_front("triton.") || name.consume_front("tilec.");
  return name == "autotune" || name == "heuristics";
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
  std::vector<TritonDecorator> decorators;
  while (tok().is(TokKind::At)) {
    SourceLoc atLoc = tok().loc;
    consume(); // '@'
    std::optional<std::string> name = readDottedName();
    if (name && isJitDecoratorName(*name)) {
      jit = true;
    } else if (name && isTritonDecorator(*name)) {
      decorators.push_back({*name, atLoc, std::nullopt});
      if (llvm::StringRef(*name).ends_with("autotune"))
        decorators.back().configs = parseAutotuneConfigs();
    } else {
      diags.error(atLoc, "unknown decorator" +
                             (name ? " '@" + *name + "'" : std::string()) +
                             "; a function of a Python source takes "
                             "'@triton.jit', with '@triton.autotune' or "
                             "'@triton.heuristics' above it");
      skipToNextLine();
      return nullptr;
    }
    // The other arguments (`do_not_specialize=`, `key=`, the heuristics'
    // lambdas) are not read.
    skipToNextLine();
    while (tok().is(TokKind::Newline))
      consume();
  }
  if (!expectDefAfter("the decorators"))
    return nullptr;
  if (!jit) {
    diags.error(firstLoc, "'@" + decorators.front().name +
                              "' decorates a '@triton.jit' function; add "
                              "'@triton.jit' below it");
    skipLine();
    return nullptr;
  }
  auto fn = parseFunction();
  if (!fn)
    return nullptr;
  fn->isTritonJit = true;
  fn->tritonDecorators = std::move(decorators);
  return fn;
}

/// autotune_args := '(' 'configs' '=' '[' config (',' config)* [','] ']' ...
/// Reads the configs when they are written out; std::nullopt (nothing
/// reported, the tokens read so far consumed) for any other form, such as
/// `configs=get_configs()`.
std::optional<std::vector<AutotuneConfig>> Parser::parseAutotuneConfigs() {
  if (!consumeIf(TokKind::LParen))
    return std::nullopt;
  if (tok().is(TokKind::Identifier) && tok().spelling == "configs" &&
      peekTok().is(TokKind::Equal)) {
    consume();
    consume();
  }
  if (!consumeIf(TokKind::LSquare))
    return std::nullopt;
  std::vector<AutotuneConfig> configs;
  while (!tok().is(TokKind::RSquare)) {
    AutotuneConfig config;
    if (!parseAutotuneConfig(config))
      return std::nullopt;
    configs.push_back(std::move(config));
    if (!consumeIf(TokKind::Comma))
      break;
  }
  if (!consumeIf(TokKind::RSquare))
    return std::nullopt;
  return configs;
}

/// config := ('triton.Config' | 'tilec.Config' | 'Config') '(' '{' [STRING ':'
/// literal (',' ...)* [',']]
///           '}' (',' ('num_warps' | 'num_stages' | 'num_ctas') '=' INT)*
///           [','] ')'
/// literal := ['-'] (INT | FLOAT) | 'True' | 'False'
bool Parser::parseAutotuneConfig(AutotuneConfig &config) {
  config.loc = tok().loc;
  std::optional<std::string> callee = readDottedName();
  if (!callee ||
      (*callee != "triton.Config" && *callee != "tilec.Config" &&
       *callee != "Config") ||
      !consumeIf(TokKind::LParen) || !consumeIf(TokKind::LBrace))
    return false;
  while (tok().is(TokKind::String)) {
    std::string key = tok().stringValue;
    consume();
    if (!consumeIf(TokKind::Colon))
      return false;
    std::string text = consumeIf(TokKind::Minus) ? "-" : "";
    if (!tok().is(TokKind::Integer) && !tok().is(TokKind::Float) &&
        !tok().is(TokKind::kw_True) && !tok().is(TokKind::kw_False))
      return false;
    std::optional<ConstexprValue> value =
        parseConstexprValue(text + tok().spelling.str());
    if (!value)
      return false;
    consume();
    config.values.emplace_back(std::move(key), *value);
    if (!consumeIf(TokKind::Comma))
      break;
  }
  if (!consumeIf(TokKind::RBrace))
    return false;
  while (consumeIf(TokKind::Comma) && !tok().is(TokKind::RParen)) {
    if (!tok().is(TokKind::Identifier) || !peekTok().is(TokKind::Equal) ||
        !peekTok(2).is(TokKind::Integer))
      return false;
    llvm::StringRef option = tok().spelling;
    int64_t value = static_cast<int64_t>(peekTok(2).intValue);
    if (option == "num_warps")
      config.numWarps = value;
    else if (option == "num_stages")
      config.numStages = value;
    else if (option != "num_ctas" || value != 1)
      return false;
    consume();
    consume();
    consume();
  }
  return consumeIf(TokKind::RParen);
}

/// constexpr_global := NAME '=' dotted '(' expr ')' NEWLINE
///                   | NAME ':' dotted '=' expr NEWLINE
///                   | NAME '=' dotted NEWLINE      (an alias of a function)
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
  if (!assign->isConstexpr && llvm::isa<AttributeExpr>(value.get())) {
    // `NAME = libdevice.tanh`: an alias of a Triton function, resolved
    // where it is called.
    if (isNewTopLevelName(module, target->name, loc))
      module.globals.push_back({target->name, loc, std::move(value)});
    return;
  }
  if (!assign->isConstexpr) {
    // `tl.constexpr(value)`: the value.
    auto *call = llvm::dyn_cast<CallExpr>(value.get());
    if (!call || call->args.size() != 1 || !call->kwargs.empty()) {
      diags.error(value->getLoc(), "expected tl.constexpr(value)");
      return;
    }
    value = std::move(call->args.front());
  }
  if (isNewTopLevelName(module, target->name, loc))
    module.globals.push_back({target->name, loc, std::move(value)});
}
