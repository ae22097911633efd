//===- Parser.h - Recursive-descent parser for .tile ------------*- C++ -*-===//
//
// Parses the token stream of one buffer into an ast::Module. Each parse
// method documents the grammar rule it implements. On an error the parser
// reports it, skips to the next line and continues, so one run reports
// several errors (up to the DiagnosticEngine's limit).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_PARSER_H
#define TILEC_FRONTEND_PARSER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Lexer.h"

#include <initializer_list>
#include <memory>
#include <utility>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// What a source file is written in.
enum class SourceLanguage {
  /// A .tile file.
  Tile,
  /// The Triton code of a Python file, as extractTritonCode()
  /// (PythonSource.h) leaves it: `@triton.jit` functions (with
  /// `@triton.autotune` / `@triton.heuristics` above them, ignored) and
  /// module-level constexprs.
  Python,
};

/// Parses the main buffer of `srcMgr` (its first buffer). Returns null when
/// any error was reported (lexical or syntactic); the diagnostics are
/// already printed.
std::unique_ptr<ast::Module>
parseModule(llvm::SourceMgr &srcMgr, DiagnosticEngine &diags,
            SourceLanguage language = SourceLanguage::Tile);

/// The parser proper; use parseModule() unless you need the tokens.
class Parser {
public:
  Parser(llvm::SourceMgr &srcMgr, unsigned bufferID, DiagnosticEngine &diags,
         SourceLanguage language = SourceLanguage::Tile);

  /// Parses the whole buffer. Always returns a module (possibly partial);
  /// check the DiagnosticEngine for errors.
  std::unique_ptr<ast::Module> parseModule();

  /// The deepest nesting of expressions (brackets, calls, subscripts,
  /// unary operators, `**`) the parser recurses into.
  static constexpr unsigned kMaxNesting = 200;
  /// The most tokens in one logical line. An expression tree is never
  /// deeper than its tokens, so this bounds the recursion of everything
  /// that walks the AST (Sema, dumps, destructors), chains such as
  /// `a + b + ...` included.
  static constexpr size_t kMaxLineTokens = 500;
  /// The deepest nesting of compound statements (`if`, each `elif`, `for`,
  /// `while`); Sema applies the same limit to run-time regions across
  /// inlined helpers. Every level is a nested region in the IR, which
  /// MLIR's passes walk recursively and, in places, once per enclosing op
  /// (wouldOpBeTriviallyDead, ancestor queries): time grows with depth x
  /// size.
  static constexpr unsigned kMaxStatementNesting = 100;

private:
  // Token helpers.
  const Token &tok() const { return tokens[pos]; }
  const Token &peekTok(size_t n = 1) const {
    return tokens[std::min(pos + n, tokens.size() - 1)];
  }
  void consume() {
    if (pos + 1 < tokens.size())
      ++pos;
  }
  bool consumeIf(TokKind kind) {
    if (!tok().is(kind))
      return false;
    consume();
    return true;
  }
  /// Reports "expected WHAT" at the current token.
  void errorExpected(llvm::StringRef what);
  /// Consumes `kind` or reports "expected WHAT".
  bool expect(TokKind kind, llvm::StringRef what);
  /// Skips the rest of the logical line (and a nested block after it).
  void skipLine();
  /// Skips an indented block that starts at the current INDENT.
  void skipIndentedBlock();
  /// Consumes a blank line, or reports and skips an unexpectedly indented
  /// block; false (consuming nothing) at any other token.
  bool skipBlankOrStrayIndent();
  bool stop() const { return diags.reachedErrorLimit(); }
  /// Reports every logical line of more than kMaxLineTokens tokens; false
  /// if there is one.
  bool checkLineLengths();

  /// What a NestingScope counts.
  enum class NestingKind { Expression, Statement };
  /// One more level of expression (or statement) nesting while alive;
  /// ok() is false (after an error) beyond kMaxNesting (or
  /// kMaxStatementNesting).
  class NestingScope {
  public:
    explicit NestingScope(Parser &parser,
                          NestingKind kind = NestingKind::Expression)
        : parser(parser), kind(kind) {
      ++counter();
    }
    ~NestingScope() { --counter(); }
    NestingScope(const NestingScope &) = delete;
    NestingScope &operator=(const NestingScope &) = delete;
    bool ok();

  private:
    unsigned &counter() {
      return kind == NestingKind::Expression ? parser.nesting
                                             : parser.statementNesting;
    }
    Parser &parser;
    NestingKind kind;
  };

  // Top level.
  void parseTopLevel(ast::Module &module);
  /// Whether no function or module-level constexpr of \p module is named
  /// \p name; else reports a redefinition at \p loc.
  bool isNewTopLevelName(const ast::Module &module, const std::string &name,
                         SourceLoc loc);
  /// Adds \p fn to \p module, or reports a redefinition.
  void addFunction(ast::Module &module, std::unique_ptr<ast::Function> fn);
  void parseImport();
  std::unique_ptr<ast::Function> parseDecoratedFunction();
  /// Skips blank lines after \p decorators (as the message names them);
  /// whether a `def` follows, else reports that one should and skips the
  /// line.
  bool expectDefAfter(llvm::StringRef decorators);
  std::unique_ptr<ast::Function> parseFunction();
  bool parseParam(ast::Function &fn);
  bool parseTypeAnnotation(ast::TypeAnnotation &type);

  // Top level of a Python source (ParserPython.cpp).
  void parsePythonTopLevel(ast::Module &module);
  std::unique_ptr<ast::Function> parseTritonFunction();
  std::optional<std::vector<ast::AutotuneConfig>> parseAutotuneConfigs();
  bool parseAutotuneConfig(ast::AutotuneConfig &config);
  void parseConstexprGlobal(ast::Module &module);
  /// Reads `NAME ('.' NAME)*` into "NAME.NAME"; std::nullopt (nothing
  /// reported) when the current token is not a name.
  std::optional<std::string> readDottedName();
  /// Skips the rest of the logical line and its NEWLINE.
  void skipToNextLine();

  // Statements.
  bool parseSuite(ast::Block &block);
  void parseStatement(ast::Block &block);
  bool parseSimpleStatement(ast::Block &block);
  ast::StmtPtr parseIf(bool isElif);
  ast::StmtPtr parseFor();
  ast::StmtPtr parseWhile();
  /// An expression; where none parses, the rest of the line is skipped
  /// (error recovery) and the result is null.
  ast::ExprPtr parseExprOrSkipLine();
  /// Parses the suite of \p loop (a `for` or `while` statement, \p keyword)
  /// into its body and returns it; a following `else` (Python's loop-else)
  /// is reported as unsupported. Null if the suite does not parse.
  template <typename LoopStmt>
  ast::StmtPtr parseLoopSuite(std::unique_ptr<LoopStmt> loop,
                              llvm::StringRef keyword);
  ast::StmtPtr parseExprOrAssign();
  ast::StmtPtr parseAnnotatedAssign(SourceLoc loc, ast::ExprPtr target);
  std::optional<std::string> parseDottedNameTail(llvm::StringRef expected);
  bool checkAssignTarget(const ast::Expr &target);

  // Expressions.
  ast::ExprPtr parseTupleOrExpr();
  ast::ExprPtr parseExpr();
  ast::ExprPtr parseOr();
  ast::ExprPtr parseAnd();
  ast::ExprPtr parseNot();
  ast::ExprPtr parseComparison();
  /// One precedence level of left-associative binary operators: operands
  /// parsed by \p parseOperand, joined by the tokens of \p operators.
  ast::ExprPtr parseLeftAssociative(
      ast::ExprPtr (Parser::*parseOperand)(),
      std::initializer_list<std::pair<TokKind, ast::BinaryOp>> operators);
  ast::ExprPtr parseBitOr();
  ast::ExprPtr parseBitXor();
  ast::ExprPtr parseBitAnd();
  ast::ExprPtr parseShift();
  ast::ExprPtr parseArith();
  ast::ExprPtr parseTerm();
  ast::ExprPtr parseFactor();
  ast::ExprPtr parsePower();
  ast::ExprPtr parsePostfix();
  ast::ExprPtr parseAtom();
  ast::ExprPtr parseParenOrTuple();
  ast::ExprPtr parseList();
  bool parseCallArgs(ast::CallExpr &call);
  ast::ExprPtr parseSubscriptIndex();

  llvm::SourceMgr &srcMgr;
  unsigned bufferID;
  DiagnosticEngine &diags;
  SourceLanguage language;
  /// The function being parsed (null at the top level), whose calledNames
  /// parsePostfix() records.
  ast::Function *currentFunction = nullptr;
  std::vector<Token> tokens;
  size_t pos = 0;
  unsigned nesting = 0;
  unsigned statementNesting = 0;
};

} // namespace tilec

#endif // TILEC_FRONTEND_PARSER_H
