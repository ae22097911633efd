//===- Lexer.h - Tokens of the .tile language -------------------*- C++ -*-===//
//
// The lexer turns a .tile buffer into tokens following Python's rules:
// NEWLINE / INDENT / DEDENT from a stack of indentation levels (spaces only),
// implicit line joining inside brackets, `\` continuation, `#` comments,
// integer, float and string literals, identifiers, keywords and operators.
// Bad input (tabs in indentation, unterminated brackets or strings, stray or
// non-UTF-8 bytes) is reported through the DiagnosticEngine; lexing goes on.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_LEXER_H
#define TILEC_FRONTEND_LEXER_H

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// Token kinds. Keywords are `kw_*`; operators are named after their shape.
enum class TokKind : uint8_t {
  Eof,
  Newline,
  Indent,
  Dedent,
  Identifier,
  Integer,
  Float,
  String,
  // Keywords.
  kw_def,
  kw_return,
  kw_if,
  kw_elif,
  kw_else,
  kw_for,
  kw_in,
  kw_while,
  kw_pass,
  kw_break,
  kw_continue,
  kw_import,
  kw_from,
  kw_as,
  kw_and,
  kw_or,
  kw_not,
  kw_is,
  kw_True,
  kw_False,
  kw_None,
  /// Python keywords that .tile does not support (`with`, `lambda`, ...).
  kw_unsupported,
  // Punctuation and operators.
  LParen,
  RParen,
  LSquare,
  RSquare,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Semi,
  Dot,
  At,
  Arrow,
  Equal,
  Plus,
  Minus,
  Star,
  Slash,
  DoubleSlash,
  Percent,
  DoubleStar,
  Shl,
  Shr,
  Amp,
  Pipe,
  Caret,
  Tilde,
  EqEq,
  NotEq,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  PlusEq,
  MinusEq,
  StarEq,
  SlashEq,
  DoubleSlashEq,
  PercentEq,
  AmpEq,
  PipeEq,
  CaretEq,
  ShlEq,
  ShrEq,
  DoubleStarEq,
  AtEq,
};

/// Human-readable description of a token kind for diagnostics, e.g. "')'",
/// "identifier", "end of line".
llvm::StringRef getTokenKindDescription(TokKind kind);

/// One token with its source text and location.
struct Token {
  TokKind kind = TokKind::Eof;
  /// The token's text in the buffer (empty for NEWLINE/INDENT/DEDENT/EOF).
  llvm::StringRef spelling;
  SourceLoc loc;
  /// Value of an Integer token.
  uint64_t intValue = 0;
  /// Value of a Float token.
  double floatValue = 0.0;
  /// Decoded value of a String token.
  std::string stringValue;

  bool is(TokKind k) const { return kind == k; }
};

/// Tokenizes one buffer of a SourceMgr.
class Lexer {
public:
  Lexer(llvm::SourceMgr &srcMgr, unsigned bufferID, DiagnosticEngine &diags);

  /// Lexes the whole buffer. The result always ends with NEWLINE (unless the
  /// file is empty), the DEDENTs that close open blocks, and EOF.
  std::vector<Token> lexAll();

private:
  SourceLoc locAt(const char *p) const;
  void lexIndentation();
  void lexToken();
  void lexNumber();
  void lexString();
  void lexIdentifier();
  void lexOperator();
  void push(TokKind kind, const char *start, const char *end);
  void newLine(const char *nextLineStart);

  DiagnosticEngine &diags;
  const char *bufStart;
  const char *bufEnd;
  const char *cur;
  const char *lineStart;
  unsigned lineNo = 1;
  bool atLineStart = true;
  std::vector<unsigned> indentStack;
  /// Open brackets: the character and where it is.
  std::vector<std::pair<char, SourceLoc>> brackets;
  std::vector<Token> tokens;
};

} // namespace tilec

#endif // TILEC_FRONTEND_LEXER_H
