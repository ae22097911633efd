//===- Parser.cpp - Top level and statements of the .tile parser ----------===//
//
// Recursive descent over the token vector: imports, decorators, function
// definitions, parameters and their type annotations, and statements. The
// expression grammar is in ParserExpr.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace tilec;
using namespace tilec::ast;

std::unique_ptr<Module> tilec::parseModule(llvm::SourceMgr &srcMgr,
                                           DiagnosticEngine &diags,
                                           SourceLanguage language) {
  if (srcMgr.getNumBuffers() == 0)
    return nullptr;
  unsigned errorsBefore = diags.getNumErrors();
  Parser parser(srcMgr, srcMgr.getMainFileID(), diags, language);
  std::unique_ptr<Module> module = parser.parseModule();
  if (diags.getNumErrors() != errorsBefore)
    return nullptr;
  return module;
}

Parser::Parser(llvm::SourceMgr &srcMgr, unsigned bufferID,
               DiagnosticEngine &diags, SourceLanguage language)
    : srcMgr(srcMgr), bufferID(bufferID), diags(diags), language(language) {}

void Parser::errorExpected(llvm::StringRef what) {
  const Token &t = tok();
  std::string got;
  if (t.is(TokKind::Identifier) || t.is(TokKind::Integer) ||
      t.is(TokKind::Float))
    got = (getTokenKindDescription(t.kind) + " '" + t.spelling + "'").str();
  else if (t.spelling.empty() || t.is(TokKind::String))
    got = getTokenKindDescription(t.kind).str();
  else
    got = ("'" + t.spelling + "'").str();
  diags.error(t.loc, "expected " + what + ", got " + got);
}

bool Parser::expect(TokKind kind, llvm::StringRef what) {
  if (consumeIf(kind))
    return true;
  errorExpected(what);
  return false;
}

void Parser::skipLine() {
  while (!tok().is(TokKind::Newline) && !tok().is(TokKind::Eof)) {
    if (tok().is(TokKind::Indent)) {
      skipIndentedBlock();
      continue;
    }
    if (tok().is(TokKind::Dedent))
      return;
    consume();
  }
  consumeIf(TokKind::Newline);
  if (tok().is(TokKind::Indent))
    skipIndentedBlock();
}

void Parser::skipIndentedBlock() {
  int depth = 0;
  do {
    if (tok().is(TokKind::Indent))
      ++depth;
    else if (tok().is(TokKind::Dedent))
      --depth;
    else if (tok().is(TokKind::Eof))
      return;
    consume();
  } while (depth > 0);
}

/// module := (import_stmt | decorated_def | def | NEWLINE)* EOF
std::unique_ptr<Module> Parser::parseModule() {
  Lexer lexer(srcMgr, bufferID, diags);
  tokens = lexer.lexAll();
  pos = 0;
  auto module = std::make_unique<Module>();
  module->filename =
      srcMgr.getMemoryBuffer(bufferID)->getBufferIdentifier().str();
  if (!checkLineLengths())
    return module;
  while (!tok().is(TokKind::Eof) && !stop())
    parseTopLevel(*module);
  return module;
}

bool Parser::checkLineLengths() {
  bool ok = true;
  size_t count = 0, first = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    TokKind kind = tokens[i].kind;
    if (kind == TokKind::Newline || kind == TokKind::Indent ||
        kind == TokKind::Dedent || kind == TokKind::Eof) {
      count = 0;
      continue;
    }
    if (count++ == 0)
      first = i;
    if (count == kMaxLineTokens + 1) {
      diags.error(tokens[first].loc,
                  "this line has more than " + std::to_string(kMaxLineTokens) +
                      " tokens; split it into several statements");
      ok = false;
    }
  }
  return ok;
}

bool Parser::NestingScope::ok() {
  bool expression = kind == NestingKind::Expression;
  unsigned limit = expression ? kMaxNesting : kMaxStatementNesting;
  if (counter() <= limit)
    return true;
  parser.diags.error(parser.tok().loc,
                     std::string(expression ? "expression" : "statements") +
                         " nested too deeply (more than " +
                         std::to_string(limit) + " levels)");
  return false;
}

bool Parser::skipBlankOrStrayIndent() {
  if (consumeIf(TokKind::Newline))
    return true;
  if (!tok().is(TokKind::Indent))
    return false;
  diags.error(tok().loc, "unexpected indentation");
  skipIndentedBlock();
  return true;
}

void Parser::parseTopLevel(Module &module) {
  // A Python source's chosen `if` clause keeps its statements indented,
  // after a `pass` in place of its header (extractTritonCode): the block is
  // part of the top level.
  if (language == SourceLanguage::Python &&
      (consumeIf(TokKind::Indent) || consumeIf(TokKind::kw_pass))) {
    consumeIf(TokKind::Newline);
    return;
  }
  if (skipBlankOrStrayIndent())
    return;
  if (language == SourceLanguage::Python &&
      (tok().is(TokKind::At) || tok().is(TokKind::Identifier))) {
    parsePythonTopLevel(module);
    return;
  }
  switch (tok().kind) {
  case TokKind::Dedent:
    consume();
    return;
  case TokKind::kw_import:
  case TokKind::kw_from:
    parseImport();
    return;
  case TokKind::String:
    // A module docstring.
    if (peekTok().is(TokKind::Newline) || peekTok().is(TokKind::String)) {
      while (tok().is(TokKind::String))
        consume();
      consumeIf(TokKind::Newline);
      return;
    }
    break;
  case TokKind::At:
  case TokKind::kw_def: {
    auto fn =
        tok().is(TokKind::At) ? parseDecoratedFunction() : parseFunction();
    if (fn)
      addFunction(module, std::move(fn));
    return;
  }
  default:
    break;
  }
  diags.error(tok().loc, "expected 'def', '@kernel' or 'import' at the top "
                         "level; statements must be inside a function");
  skipLine();
}

bool Parser::isNewTopLevelName(const Module &module, const std::string &name,
                               SourceLoc loc) {
  SourceLoc prev;
  if (const Function *fn = module.lookup(name))
    prev = fn->loc;
  else if (const ConstexprGlobal *global = module.lookupGlobal(name))
    prev = global->loc;
  else
    return true;
  diags.error(loc, "redefinition of '" + name + "'");
  diags.note(prev, "previous definition is here");
  return false;
}

void Parser::addFunction(Module &module, std::unique_ptr<Function> fn) {
  if (isNewTopLevelName(module, fn->name, fn->loc))
    module.functions.push_back(std::move(fn));
}

/// import_stmt := 'import' dotted ['as' NAME] (',' ...)* NEWLINE
///              | 'from' dotted 'import' ... NEWLINE        (ignored)
void Parser::parseImport() {
  while (!tok().is(TokKind::Newline) && !tok().is(TokKind::Eof))
    consume();
  consumeIf(TokKind::Newline);
}

/// decorated_def := '@' 'kernel' ['(' kwarg (',' kwarg)* ')'] NEWLINE def
std::unique_ptr<Function> Parser::parseDecoratedFunction() {
  SourceLoc atLoc = tok().loc;
  consume(); // '@'
  ExprPtr deco = parsePostfix();
  if (!deco) {
    skipLine();
    return nullptr;
  }
  const Expr *callee = deco.get();
  auto *call = llvm::dyn_cast<CallExpr>(deco.get());
  if (call)
    callee = call->callee.get();
  auto *name = llvm::dyn_cast<NameExpr>(callee);
  if (!name || name->name != "kernel") {
    auto *attr = llvm::dyn_cast<AttributeExpr>(callee);
    if (attr && attr->attr == "jit")
      diags.error(atLoc, "use '@kernel' instead of '@triton.jit' and give "
                         "the parameters types (*f32, i32, constexpr)");
    else
      diags.error(atLoc, "unknown decorator; only '@kernel' and "
                         "'@kernel(num_warps=N, num_stages=S)' are supported");
    skipLine();
    return nullptr;
  }
  std::optional<int64_t> numWarps, numStages;
  bool ok = true;
  if (call) {
    if (!call->args.empty()) {
      diags.error(call->args.front()->getLoc(),
                  "'@kernel' takes only keyword arguments (num_warps=, "
                  "num_stages=)");
      ok = false;
    }
    for (const KeywordArg &kw : call->kwargs) {
      std::optional<int64_t> *slot = kw.name == "num_warps"    ? &numWarps
                                     : kw.name == "num_stages" ? &numStages
                                                               : nullptr;
      if (!slot) {
        diags.error(kw.loc, "unknown '@kernel' option '" + kw.name +
                                "'; expected 'num_warps' or 'num_stages'");
        ok = false;
        continue;
      }
      auto *lit = llvm::dyn_cast<IntLiteral>(kw.value.get());
      if (!lit || lit->value > 1024) {
        diags.error(kw.value->getLoc(),
                    "'" + kw.name + "' must be an integer literal");
        ok = false;
        continue;
      }
      *slot = static_cast<int64_t>(lit->value);
    }
  }
  if (!expect(TokKind::Newline, "end of line after the decorator")) {
    skipLine();
    return nullptr;
  }
  if (!expectDefAfter("'@kernel'"))
    return nullptr;
  auto fn = parseFunction();
  if (!fn || !ok)
    return nullptr;
  fn->isKernel = true;
  fn->numWarps = numWarps;
  fn->numStages = numStages;
  return fn;
}

bool Parser::expectDefAfter(llvm::StringRef decorators) {
  while (tok().is(TokKind::Newline))
    consume();
  if (tok().is(TokKind::kw_def))
    return true;
  errorExpected("'def' after " + decorators.str());
  skipLine();
  return false;
}

/// def := 'def' NAME '(' [param (',' param)* [',']] ')' ['->' annotation]
///        suite
std::unique_ptr<Function> Parser::parseFunction() {
  consume(); // 'def'
  auto fn = std::make_unique<Function>();
  fn->loc = tok().loc;
  if (!tok().is(TokKind::Identifier)) {
    errorExpected("function name");
    skipLine();
    return nullptr;
  }
  fn->name = tok().spelling.str();
  consume();
  currentFunction = fn.get();
  struct ResetCurrentFunction {
    Function *&current;
    ~ResetCurrentFunction() { current = nullptr; }
  } reset{currentFunction};
  if (!expect(TokKind::LParen, "'('")) {
    skipLine();
    return nullptr;
  }
  while (!tok().is(TokKind::RParen)) {
    if (!parseParam(*fn)) {
      skipLine();
      return nullptr;
    }
    if (!consumeIf(TokKind::Comma))
      break;
  }
  if (!expect(TokKind::RParen, "')' or ','")) {
    skipLine();
    return nullptr;
  }
  if (consumeIf(TokKind::Arrow)) {
    // The return annotation is ignored.
    while (!tok().is(TokKind::Colon) && !tok().is(TokKind::Newline) &&
           !tok().is(TokKind::Eof))
      consume();
  }
  if (!parseSuite(fn->body))
    return nullptr;
  liftEarlyReturns(fn->body);
  return fn;
}

/// param := NAME [':' annotation] ['=' expr]
bool Parser::parseParam(Function &fn) {
  if (tok().is(TokKind::Star) || tok().is(TokKind::DoubleStar)) {
    diags.error(tok().loc, "variadic parameters are not supported");
    return false;
  }
  if (!tok().is(TokKind::Identifier)) {
    errorExpected("parameter name");
    return false;
  }
  Param param;
  param.name = tok().spelling.str();
  param.loc = tok().loc;
  consume();
  for (const Param &p : fn.params)
    if (p.name == param.name) {
      diags.error(param.loc, "duplicate parameter '" + param.name + "'");
      return false;
    }
  if (consumeIf(TokKind::Colon) && !parseTypeAnnotation(param.type))
    return false;
  if (consumeIf(TokKind::Equal)) {
    param.defaultValue = parseExpr();
    if (!param.defaultValue)
      return false;
  }
  fn.params.push_back(std::move(param));
  return true;
}

/// dotted_name := NAME ('.' NAME)*; returns the last NAME (`tl.constexpr`
/// -> `constexpr`), or reports `expected` and returns std::nullopt.
std::optional<std::string>
Parser::parseDottedNameTail(llvm::StringRef expected) {
  std::string name;
  do {
    if (!tok().is(TokKind::Identifier)) {
      errorExpected(expected);
      return std::nullopt;
    }
    name = tok().spelling.str();
    consume();
  } while (consumeIf(TokKind::Dot));
  return name;
}

/// annotation := '*' dtype | dtype | 'constexpr' | 'tl.constexpr'
/// dtype      := NAME | 'tl' '.' NAME
bool Parser::parseTypeAnnotation(TypeAnnotation &type) {
  type.loc = tok().loc;
  bool isPointer = consumeIf(TokKind::Star);
  std::optional<std::string> dotted =
      parseDottedNameTail("a type (i32, f32, *f16, constexpr, ...)");
  if (!dotted)
    return false;
  std::string name = std::move(*dotted);
  if (name == "constexpr" && !isPointer) {
    type.kind = TypeAnnotation::Kind::Constexpr;
    return true;
  }
  std::optional<ScalarType> kind = parseDTypeName(name);
  // Python's own annotations (`n: int`, `x: tl.tensor`) say nothing the
  // signature does not: the parameter stays untyped.
  if (!kind && !isPointer && language == SourceLanguage::Python) {
    type.kind = TypeAnnotation::Kind::None;
    return true;
  }
  llvm::StringRef bare = llvm::StringRef(name).rsplit('.').second;
  if (!kind && isUnsupportedFP8Name(bare.empty() ? name : bare.str())) {
    diags.error(type.loc, "type '" + name +
                              "' is not supported; tilec has the fp8 types "
                              "f8e4m3 (float8e4nv) and f8e5m2 (float8e5)");
    return false;
  }
  if (!kind) {
    diags.error(type.loc, "unknown type '" + name +
                              "'; expected a dtype (i32, f32, bf16, ...), a "
                              "pointer (*f16) or constexpr");
    return false;
  }
  type.kind =
      isPointer ? TypeAnnotation::Kind::Pointer : TypeAnnotation::Kind::Scalar;
  type.elem = *kind;
  return true;
}

/// suite := ':' NEWLINE INDENT statement+ DEDENT
///        | ':' simple_stmt (';' simple_stmt)* NEWLINE
bool Parser::parseSuite(Block &block) {
  if (!expect(TokKind::Colon, "':'")) {
    skipLine();
    return false;
  }
  if (!tok().is(TokKind::Newline)) {
    if (parseSimpleStatement(block))
      return true;
    skipLine();
    return false;
  }
  consume();
  if (!tok().is(TokKind::Indent)) {
    diags.error(tok().loc, "expected an indented block");
    return false;
  }
  consume();
  while (!tok().is(TokKind::Dedent) && !tok().is(TokKind::Eof) && !stop())
    parseStatement(block);
  consumeIf(TokKind::Dedent);
  return true;
}

/// statement := if_stmt | for_stmt | while_stmt | simple_stmts NEWLINE
void Parser::parseStatement(Block &block) {
  if (skipBlankOrStrayIndent())
    return;
  StmtPtr stmt;
  NestingScope scope(*this, NestingKind::Statement);
  bool compound = tok().is(TokKind::kw_if) || tok().is(TokKind::kw_for) ||
                  tok().is(TokKind::kw_while);
  if (compound && !scope.ok()) {
    skipLine();
    return;
  }
  switch (tok().kind) {
  case TokKind::kw_if:
    stmt = parseIf(/*isElif=*/false);
    break;
  case TokKind::kw_for:
    stmt = parseFor();
    break;
  case TokKind::kw_while:
    stmt = parseWhile();
    break;
  case TokKind::kw_elif:
  case TokKind::kw_else:
    diags.error(tok().loc, "'" + tok().spelling + "' without a matching 'if'");
    skipLine();
    return;
  case TokKind::kw_def:
  case TokKind::At:
    diags.error(tok().loc, "nested functions and decorators are not "
                           "supported; define helpers at the top level");
    skipLine();
    return;
  default:
    if (!parseSimpleStatement(block))
      skipLine();
    return;
  }
  if (stmt)
    block.push_back(std::move(stmt));
}

/// simple_stmts := simple_stmt (';' simple_stmt)* [';'] NEWLINE
/// simple_stmt  := 'pass' | 'return' [tuple_or_expr] | import_stmt
///               | expr_or_assign
bool Parser::parseSimpleStatement(Block &block) {
  while (true) {
    SourceLoc loc = tok().loc;
    switch (tok().kind) {
    case TokKind::kw_pass:
      consume();
      block.push_back(std::make_unique<PassStmt>(loc));
      break;
    case TokKind::kw_return: {
      consume();
      ExprPtr value;
      if (!tok().is(TokKind::Newline) && !tok().is(TokKind::Semi)) {
        value = parseTupleOrExpr();
        if (!value)
          return false;
      }
      block.push_back(std::make_unique<ReturnStmt>(loc, std::move(value)));
      break;
    }
    case TokKind::kw_break:
    case TokKind::kw_continue:
      diags.error(loc, "'" + tok().spelling + "' is not supported");
      return false;
    case TokKind::kw_import:
    case TokKind::kw_from:
      parseImport();
      return true;
    case TokKind::kw_unsupported:
      diags.error(loc, "'" + tok().spelling + "' is not supported");
      return false;
    default: {
      StmtPtr stmt = parseExprOrAssign();
      if (!stmt)
        return false;
      block.push_back(std::move(stmt));
      break;
    }
    }
    if (!consumeIf(TokKind::Semi))
      break;
    if (tok().is(TokKind::Newline))
      break;
  }
  if (tok().is(TokKind::Eof) || tok().is(TokKind::Dedent))
    return true;
  return expect(TokKind::Newline, "end of line");
}

/// if_stmt := 'if' expr suite ('elif' expr suite)* ['else' suite]
StmtPtr Parser::parseIf(bool isElif) {
  SourceLoc loc = tok().loc;
  consume(); // 'if' or 'elif'
  ExprPtr cond = parseExprOrSkipLine();
  if (!cond)
    return nullptr;
  auto stmt = std::make_unique<IfStmt>(loc, std::move(cond));
  stmt->isElif = isElif;
  if (!parseSuite(stmt->thenBody))
    return nullptr;
  if (tok().is(TokKind::kw_elif)) {
    // An elif is an `if` nested in the else branch.
    NestingScope scope(*this, NestingKind::Statement);
    if (!scope.ok()) {
      skipLine();
      return nullptr;
    }
    if (StmtPtr elif = parseIf(/*isElif=*/true))
      stmt->elseBody.push_back(std::move(elif));
  } else if (tok().is(TokKind::kw_else)) {
    consume();
    if (!parseSuite(stmt->elseBody))
      return nullptr;
  }
  return stmt;
}

ExprPtr Parser::parseExprOrSkipLine() {
  ExprPtr expr = parseExpr();
  if (!expr)
    skipLine();
  return expr;
}

template <typename LoopStmt>
StmtPtr Parser::parseLoopSuite(std::unique_ptr<LoopStmt> loop,
                               llvm::StringRef keyword) {
  if (!parseSuite(loop->body))
    return nullptr;
  if (tok().is(TokKind::kw_else)) {
    diags.error(tok().loc, "'" + keyword + " ... else' is not supported");
    skipLine();
  }
  return loop;
}

/// for_stmt := 'for' NAME 'in' expr suite
StmtPtr Parser::parseFor() {
  SourceLoc loc = tok().loc;
  consume(); // 'for'
  if (!tok().is(TokKind::Identifier)) {
    errorExpected("loop variable name");
    skipLine();
    return nullptr;
  }
  std::string var = tok().spelling.str();
  SourceLoc varLoc = tok().loc;
  consume();
  if (tok().is(TokKind::Comma)) {
    diags.error(tok().loc, "a 'for' loop takes a single loop variable");
    skipLine();
    return nullptr;
  }
  if (!expect(TokKind::kw_in, "'in'")) {
    skipLine();
    return nullptr;
  }
  ExprPtr iter = parseExprOrSkipLine();
  if (!iter)
    return nullptr;
  return parseLoopSuite(
      std::make_unique<ForStmt>(loc, var, varLoc, std::move(iter)), "for");
}

/// while_stmt := 'while' expr suite
StmtPtr Parser::parseWhile() {
  SourceLoc loc = tok().loc;
  consume(); // 'while'
  ExprPtr cond = parseExprOrSkipLine();
  if (!cond)
    return nullptr;
  return parseLoopSuite(std::make_unique<WhileStmt>(loc, std::move(cond)),
                        "while");
}

/// Checks that `target` is a name or a tuple of names.
bool Parser::checkAssignTarget(const Expr &target) {
  if (llvm::isa<NameExpr>(target))
    return true;
  if (auto *tuple = llvm::dyn_cast<TupleExpr>(&target)) {
    for (const auto &el : tuple->elements)
      if (!llvm::isa<NameExpr>(*el)) {
        diags.error(el->getLoc(), "only names can be unpacked into");
        return false;
      }
    return !tuple->elements.empty();
  }
  if (llvm::isa<SubscriptExpr>(target))
    diags.error(target.getLoc(), "cannot assign to a subscript; blocks are "
                                 "immutable values (build a new one with "
                                 "where(...))");
  else if (llvm::isa<AttributeExpr>(target))
    diags.error(target.getLoc(), "cannot assign to an attribute");
  else
    diags.error(target.getLoc(), "cannot assign to this expression");
  return false;
}

/// annotated_assign := NAME ':' NAME ('.' NAME)* '=' expr
/// As Triton: a `constexpr` annotation (`tl.constexpr`, ...) makes the name
/// a compile-time constant, which must be new and given a constant; any
/// other annotation (`tl.tensor`, `tl.int32`) is not checked and the
/// statement is a plain assignment.
StmtPtr Parser::parseAnnotatedAssign(SourceLoc loc, ExprPtr target) {
  consume(); // ':'
  if (!llvm::isa<NameExpr>(*target)) {
    diags.error(target->getLoc(), "only a name can be annotated");
    return nullptr;
  }
  std::optional<std::string> dotted =
      parseDottedNameTail("a type annotation (tl.constexpr, ...)");
  if (!dotted)
    return nullptr;
  std::string annotation = std::move(*dotted);
  if (!tok().is(TokKind::Equal)) {
    diags.error(tok().loc,
                "an annotation without a value is not supported; write '" +
                    llvm::cast<NameExpr>(*target).name + ": " + annotation +
                    " = value'");
    return nullptr;
  }
  consume();
  ExprPtr value = parseExpr();
  if (!value)
    return nullptr;
  return std::make_unique<AssignStmt>(loc, std::move(target), std::move(value),
                                      annotation == "constexpr");
}

/// expr_or_assign := tuple_or_expr ['=' tuple_or_expr]
///                 | NAME augop expr
///                 | annotated_assign
/// augop := '+=' | '-=' | '*=' | '/=' | '//=' | '%=' | '&=' | '|=' | '^='
///        | '<<=' | '>>='
StmtPtr Parser::parseExprOrAssign() {
  SourceLoc loc = tok().loc;
  ExprPtr lhs = parseTupleOrExpr();
  if (!lhs)
    return nullptr;
  if (tok().is(TokKind::Equal)) {
    consume();
    ExprPtr rhs = parseTupleOrExpr();
    if (!rhs)
      return nullptr;
    if (tok().is(TokKind::Equal)) {
      diags.error(tok().loc, "chained assignment is not supported");
      return nullptr;
    }
    if (!checkAssignTarget(*lhs))
      return nullptr;
    return std::make_unique<AssignStmt>(loc, std::move(lhs), std::move(rhs));
  }
  std::optional<BinaryOp> augOp;
  switch (tok().kind) {
  case TokKind::PlusEq:
    augOp = BinaryOp::Add;
    break;
  case TokKind::MinusEq:
    augOp = BinaryOp::Sub;
    break;
  case TokKind::StarEq:
    augOp = BinaryOp::Mul;
    break;
  case TokKind::SlashEq:
    augOp = BinaryOp::Div;
    break;
  case TokKind::DoubleSlashEq:
    augOp = BinaryOp::FloorDiv;
    break;
  case TokKind::PercentEq:
    augOp = BinaryOp::Mod;
    break;
  case TokKind::AmpEq:
    augOp = BinaryOp::BitAnd;
    break;
  case TokKind::PipeEq:
    augOp = BinaryOp::BitOr;
    break;
  case TokKind::CaretEq:
    augOp = BinaryOp::BitXor;
    break;
  case TokKind::ShlEq:
    augOp = BinaryOp::Shl;
    break;
  case TokKind::ShrEq:
    augOp = BinaryOp::Shr;
    break;
  case TokKind::DoubleStarEq:
  case TokKind::AtEq:
    diags.error(tok().loc, "'" + tok().spelling + "' is not supported");
    return nullptr;
  case TokKind::Colon:
    return parseAnnotatedAssign(loc, std::move(lhs));
  default:
    break;
  }
  if (augOp) {
    consume();
    if (!llvm::isa<NameExpr>(*lhs)) {
      diags.error(lhs->getLoc(), "the target of an augmented assignment "
                                 "must be a name");
      return nullptr;
    }
    ExprPtr rhs = parseExpr();
    if (!rhs)
      return nullptr;
    return std::make_unique<AugAssignStmt>(loc, *augOp, std::move(lhs),
                                           std::move(rhs));
  }
  return std::make_unique<ExprStmt>(loc, std::move(lhs));
}
