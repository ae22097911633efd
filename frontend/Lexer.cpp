//===- Lexer.cpp - Tokens of the .tile language ---------------------------===//
//
// Python-style tokenization: indentation stack, implicit line joining inside
// brackets, backslash continuation, comments, literals and operators. Every
// malformed input produces a diagnostic and lexing continues, so the parser
// can still report further errors.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>

using namespace tilec;

llvm::StringRef tilec::getTokenKindDescription(TokKind kind) {
  switch (kind) {
  case TokKind::Eof:
    return "end of file";
  case TokKind::Newline:
    return "end of line";
  case TokKind::Indent:
    return "indentation";
  case TokKind::Dedent:
    return "end of block";
  case TokKind::Identifier:
    return "identifier";
  case TokKind::Integer:
    return "integer literal";
  case TokKind::Float:
    return "float literal";
  case TokKind::String:
    return "string literal";
  case TokKind::LParen:
    return "'('";
  case TokKind::RParen:
    return "')'";
  case TokKind::LSquare:
    return "'['";
  case TokKind::RSquare:
    return "']'";
  case TokKind::Colon:
    return "':'";
  case TokKind::Comma:
    return "','";
  case TokKind::Equal:
    return "'='";
  default:
    return "token";
  }
}

Lexer::Lexer(llvm::SourceMgr &srcMgr, unsigned bufferID,
             DiagnosticEngine &diags)
    : diags(diags) {
  const llvm::MemoryBuffer *buf = srcMgr.getMemoryBuffer(bufferID);
  bufStart = buf->getBufferStart();
  bufEnd = buf->getBufferEnd();
  cur = lineStart = bufStart;
  indentStack.push_back(0);
}

SourceLoc Lexer::locAt(const char *p) const {
  SourceLoc loc;
  loc.ptr = llvm::SMLoc::getFromPointer(p);
  loc.line = lineNo;
  loc.col = static_cast<unsigned>(p - lineStart) + 1;
  return loc;
}

void Lexer::push(TokKind kind, const char *start, const char *end) {
  Token tok;
  tok.kind = kind;
  tok.spelling = llvm::StringRef(start, end - start);
  tok.loc = locAt(start);
  tokens.push_back(std::move(tok));
}

void Lexer::newLine(const char *nextLineStart) {
  ++lineNo;
  lineStart = nextLineStart;
}

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

std::vector<Token> Lexer::lexAll() {
  // Reject invalid UTF-8 once, at its first bad byte.
  const auto *utf8 = reinterpret_cast<const llvm::UTF8 *>(bufStart);
  const auto *utf8End = reinterpret_cast<const llvm::UTF8 *>(bufEnd);
  if (!llvm::isLegalUTF8String(&utf8, utf8End)) {
    const char *bad = reinterpret_cast<const char *>(utf8);
    // Compute the line of the bad byte for the location.
    const char *ls = bufStart;
    unsigned line = 1;
    for (const char *p = bufStart; p < bad; ++p)
      if (*p == '\n') {
        ++line;
        ls = p + 1;
      }
    SourceLoc loc{llvm::SMLoc::getFromPointer(bad), line,
                  static_cast<unsigned>(bad - ls) + 1};
    diags.error(loc, "invalid UTF-8 in source file (byte 0x" +
                         llvm::utohexstr(static_cast<unsigned char>(*bad)) +
                         ")");
  }

  while (cur < bufEnd && !diags.reachedErrorLimit()) {
    if (atLineStart && brackets.empty()) {
      lexIndentation();
      continue;
    }
    lexToken();
  }
  cur = std::min(cur, bufEnd);

  if (!brackets.empty()) {
    auto [open, loc] = brackets.front();
    char close = open == '(' ? ')' : open == '[' ? ']' : '}';
    diags.error(loc, llvm::Twine("unterminated '") + llvm::Twine(open) +
                         "': missing '" + llvm::Twine(close) +
                         "' before the end of the file");
  }
  if (!tokens.empty() && !tokens.back().is(TokKind::Newline) &&
      !tokens.back().is(TokKind::Dedent))
    push(TokKind::Newline, cur, cur);
  while (indentStack.size() > 1) {
    indentStack.pop_back();
    push(TokKind::Dedent, cur, cur);
  }
  push(TokKind::Eof, cur, cur);
  return std::move(tokens);
}

/// Measures the indentation of a logical line, skips blank and comment-only
/// lines, and emits INDENT/DEDENT tokens.
void Lexer::lexIndentation() {
  const char *p = cur;
  unsigned width = 0;
  const char *firstTab = nullptr;
  while (p < bufEnd && (*p == ' ' || *p == '\t' || *p == '\f')) {
    if (*p == '\t') {
      if (!firstTab)
        firstTab = p;
      width = (width / 8 + 1) * 8;
    } else if (*p == ' ') {
      ++width;
    }
    ++p;
  }
  // Blank or comment-only line: no tokens.
  if (p >= bufEnd || *p == '#' || *p == '\n' || *p == '\r') {
    while (p < bufEnd && *p != '\n')
      ++p;
    if (p < bufEnd)
      ++p;
    if (p <= bufEnd)
      newLine(p);
    cur = p;
    return;
  }
  if (firstTab)
    diags.error(locAt(firstTab), "tab character in indentation; use spaces");
  cur = p;
  atLineStart = false;
  if (width > indentStack.back()) {
    indentStack.push_back(width);
    push(TokKind::Indent, p, p);
    return;
  }
  if (width < indentStack.back()) {
    while (width < indentStack.back()) {
      indentStack.pop_back();
      push(TokKind::Dedent, p, p);
    }
    if (width != indentStack.back()) {
      diags.error(locAt(p),
                  "unindent does not match any outer indentation level");
      indentStack.push_back(width);
    }
  }
}

void Lexer::lexToken() {
  char c = *cur;
  // Whitespace inside a line (tabs are fine here).
  if (c == ' ' || c == '\t' || c == '\f') {
    ++cur;
    return;
  }
  if (c == '#') {
    while (cur < bufEnd && *cur != '\n')
      ++cur;
    return;
  }
  if (c == '\r' && cur + 1 < bufEnd && cur[1] == '\n') {
    ++cur;
    return;
  }
  if (c == '\n' || c == '\r') {
    if (brackets.empty()) {
      push(TokKind::Newline, cur, cur);
      atLineStart = true;
    }
    ++cur;
    newLine(cur);
    return;
  }
  if (c == '\\') {
    const char *p = cur + 1;
    if (p < bufEnd && *p == '\r')
      ++p;
    if (p < bufEnd && *p == '\n') {
      cur = p + 1;
      newLine(cur);
      return;
    }
    if (p >= bufEnd) {
      cur = p;
      return;
    }
    diags.error(locAt(cur),
                "unexpected character after line continuation '\\'");
    ++cur;
    return;
  }
  if (llvm::isDigit(c) ||
      (c == '.' && cur + 1 < bufEnd && llvm::isDigit(cur[1]))) {
    lexNumber();
    return;
  }
  if (c == '"' || c == '\'') {
    lexString();
    return;
  }
  if (isIdentStart(c)) {
    lexIdentifier();
    return;
  }
  lexOperator();
}

void Lexer::lexNumber() {
  const char *start = cur;
  bool isFloat = false;
  unsigned radix = 10;
  if (*cur == '0' && cur + 1 < bufEnd &&
      (cur[1] == 'x' || cur[1] == 'X' || cur[1] == 'b' || cur[1] == 'B' ||
       cur[1] == 'o' || cur[1] == 'O')) {
    char r = llvm::toLower(cur[1]);
    radix = r == 'x' ? 16 : r == 'b' ? 2 : 8;
    cur += 2;
    while (cur < bufEnd && (llvm::isHexDigit(*cur) || *cur == '_'))
      ++cur;
  } else {
    while (cur < bufEnd && (llvm::isDigit(*cur) || *cur == '_'))
      ++cur;
    if (cur < bufEnd && *cur == '.') {
      isFloat = true;
      ++cur;
      while (cur < bufEnd && (llvm::isDigit(*cur) || *cur == '_'))
        ++cur;
    }
    if (cur < bufEnd && (*cur == 'e' || *cur == 'E')) {
      const char *p = cur + 1;
      if (p < bufEnd && (*p == '+' || *p == '-'))
        ++p;
      if (p < bufEnd && llvm::isDigit(*p)) {
        isFloat = true;
        cur = p;
        while (cur < bufEnd && llvm::isDigit(*cur))
          ++cur;
      }
    }
  }
  bool bad = false;
  if (cur < bufEnd && isIdentChar(*cur)) {
    while (cur < bufEnd && isIdentChar(*cur))
      ++cur;
    bad = true;
  }
  push(isFloat ? TokKind::Float : TokKind::Integer, start, cur);
  Token &tok = tokens.back();
  std::string digits;
  for (char ch : tok.spelling)
    if (ch != '_')
      digits += ch;
  llvm::StringRef text(digits);
  if (radix != 10)
    text = text.drop_front(2);
  if (bad) {
    diags.error(tok.loc, "invalid numeric literal '" + tok.spelling + "'");
    return;
  }
  if (isFloat) {
    tok.floatValue = std::strtod(digits.c_str(), nullptr);
    if (std::isinf(tok.floatValue))
      diags.error(tok.loc, "float literal '" + tok.spelling + "' is too large");
    return;
  }
  if (text.empty() || text.getAsInteger(radix, tok.intValue)) {
    if (text.empty() || !llvm::all_of(text, [&](char ch) {
          return radix == 16 ? llvm::isHexDigit(ch)
                             : llvm::isDigit(ch) && ch - '0' < (int)radix;
        }))
      diags.error(tok.loc, "invalid numeric literal '" + tok.spelling + "'");
    else
      diags.error(tok.loc, "integer literal '" + tok.spelling +
                               "' is too large for a 64-bit integer");
  }
}

void Lexer::lexString() {
  const char *start = cur;
  char quote = *cur;
  bool triple = cur + 2 < bufEnd && cur[1] == quote && cur[2] == quote;
  cur += triple ? 3 : 1;
  std::string value;
  SourceLoc startLoc = locAt(start);
  while (true) {
    if (cur >= bufEnd || (!triple && (*cur == '\n' || *cur == '\r'))) {
      diags.error(startLoc, "unterminated string literal");
      break;
    }
    char c = *cur;
    if (c == quote) {
      if (!triple) {
        ++cur;
        break;
      }
      if (cur + 2 < bufEnd && cur[1] == quote && cur[2] == quote) {
        cur += 3;
        break;
      }
    }
    if (c == '\n') {
      value += c;
      ++cur;
      newLine(cur);
      continue;
    }
    if (c == '\\' && cur + 1 < bufEnd) {
      char e = cur[1];
      cur += 2;
      switch (e) {
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case 'r':
        value += '\r';
        break;
      case '0':
        value += '\0';
        break;
      case '\\':
      case '\'':
      case '"':
        value += e;
        break;
      case '\n':
        newLine(cur);
        break;
      default:
        value += '\\';
        value += e;
        break;
      }
      continue;
    }
    value += c;
    ++cur;
  }
  Token tok;
  tok.kind = TokKind::String;
  tok.spelling = llvm::StringRef(start, cur - start);
  tok.loc = startLoc;
  tok.stringValue = std::move(value);
  tokens.push_back(std::move(tok));
}

void Lexer::lexIdentifier() {
  const char *start = cur;
  while (cur < bufEnd && isIdentChar(*cur))
    ++cur;
  llvm::StringRef text(start, cur - start);
  TokKind kind = llvm::StringSwitch<TokKind>(text)
                     .Case("def", TokKind::kw_def)
                     .Case("return", TokKind::kw_return)
                     .Case("if", TokKind::kw_if)
                     .Case("elif", TokKind::kw_elif)
                     .Case("else", TokKind::kw_else)
                     .Case("for", TokKind::kw_for)
                     .Case("in", TokKind::kw_in)
                     .Case("while", TokKind::kw_while)
                     .Case("pass", TokKind::kw_pass)
                     .Case("break", TokKind::kw_break)
                     .Case("continue", TokKind::kw_continue)
                     .Case("import", TokKind::kw_import)
                     .Case("from", TokKind::kw_from)
                     .Case("as", TokKind::kw_as)
                     .Case("and", TokKind::kw_and)
                     .Case("or", TokKind::kw_or)
                     .Case("not", TokKind::kw_not)
                     .Case("is", TokKind::kw_is)
                     .Case("True", TokKind::kw_True)
                     .Case("False", TokKind::kw_False)
                     .Case("None", TokKind::kw_None)
                     .Cases({"with", "lambda", "class", "global", "nonlocal",
                             "try", "except", "finally", "raise", "yield",
                             "del", "assert", "async", "await"},
                            TokKind::kw_unsupported)
                     .Default(TokKind::Identifier);
  push(kind, start, cur);
}

void Lexer::lexOperator() {
  const char *start = cur;
  auto peek = [&](size_t i) -> char {
    return cur + i < bufEnd ? cur[i] : '\0';
  };
  char c = *cur;
  auto emit = [&](TokKind kind, unsigned len) {
    cur += len;
    push(kind, start, cur);
  };
  // The token of the `len` characters here or, where '=' follows them, the
  // token of those characters and the '=' (`+` or `+=`, `<<` or `<<=`, ...).
  auto emitWithOptionalEq = [&](unsigned len, TokKind kind, TokKind withEq) {
    return peek(len) == '=' ? emit(withEq, len + 1) : emit(kind, len);
  };
  auto openBracket = [&](TokKind kind) {
    brackets.push_back({c, locAt(cur)});
    emit(kind, 1);
  };
  auto closeBracket = [&](TokKind kind, char open) {
    if (brackets.empty()) {
      diags.error(locAt(cur),
                  llvm::Twine("unmatched '") + llvm::Twine(c) + "'");
    } else if (brackets.back().first != open) {
      char expected = brackets.back().first == '('   ? ')'
                      : brackets.back().first == '[' ? ']'
                                                     : '}';
      diags.error(locAt(cur), llvm::Twine("closing '") + llvm::Twine(c) +
                                  "' does not match '" +
                                  llvm::Twine(brackets.back().first) +
                                  "'; expected '" + llvm::Twine(expected) +
                                  "'");
      diags.note(brackets.back().second, "opening bracket is here");
      brackets.pop_back();
    } else {
      brackets.pop_back();
    }
    emit(kind, 1);
  };
  switch (c) {
  case '(':
    return openBracket(TokKind::LParen);
  case '[':
    return openBracket(TokKind::LSquare);
  case '{':
    return openBracket(TokKind::LBrace);
  case ')':
    return closeBracket(TokKind::RParen, '(');
  case ']':
    return closeBracket(TokKind::RSquare, '[');
  case '}':
    return closeBracket(TokKind::RBrace, '{');
  case ',':
    return emit(TokKind::Comma, 1);
  case ':':
    return emit(TokKind::Colon, 1);
  case ';':
    return emit(TokKind::Semi, 1);
  case '.':
    return emit(TokKind::Dot, 1);
  case '~':
    return emit(TokKind::Tilde, 1);
  case '@':
    return emitWithOptionalEq(1, TokKind::At, TokKind::AtEq);
  case '=':
    return emitWithOptionalEq(1, TokKind::Equal, TokKind::EqEq);
  case '!':
    if (peek(1) == '=')
      return emit(TokKind::NotEq, 2);
    break;
  case '+':
    return emitWithOptionalEq(1, TokKind::Plus, TokKind::PlusEq);
  case '-':
    if (peek(1) == '>')
      return emit(TokKind::Arrow, 2);
    return emitWithOptionalEq(1, TokKind::Minus, TokKind::MinusEq);
  case '*':
    if (peek(1) == '*')
      return emitWithOptionalEq(2, TokKind::DoubleStar, TokKind::DoubleStarEq);
    return emitWithOptionalEq(1, TokKind::Star, TokKind::StarEq);
  case '/':
    if (peek(1) == '/')
      return emitWithOptionalEq(2, TokKind::DoubleSlash,
                                TokKind::DoubleSlashEq);
    return emitWithOptionalEq(1, TokKind::Slash, TokKind::SlashEq);
  case '%':
    return emitWithOptionalEq(1, TokKind::Percent, TokKind::PercentEq);
  case '&':
    return emitWithOptionalEq(1, TokKind::Amp, TokKind::AmpEq);
  case '|':
    return emitWithOptionalEq(1, TokKind::Pipe, TokKind::PipeEq);
  case '^':
    return emitWithOptionalEq(1, TokKind::Caret, TokKind::CaretEq);
  case '<':
    if (peek(1) == '<')
      return emitWithOptionalEq(2, TokKind::Shl, TokKind::ShlEq);
    return emitWithOptionalEq(1, TokKind::Less, TokKind::LessEq);
  case '>':
    if (peek(1) == '>')
      return emitWithOptionalEq(2, TokKind::Shr, TokKind::ShrEq);
    return emitWithOptionalEq(1, TokKind::Greater, TokKind::GreaterEq);
  default:
    break;
  }
  // Anything else is a stray character; report a run of them once.
  auto isStray = [](char ch) {
    return !(llvm::isAlnum(ch) || ch == '_' || ch == ' ' || ch == '\n' ||
             ch == '\t' || ch == '#' || ch == '\r' ||
             llvm::StringRef("()[]{},:;.~@=!+-*/%&|^<>\"'\\").contains(ch));
  };
  auto uc = static_cast<unsigned char>(c);
  if (uc >= 0x80)
    diags.error(locAt(cur), "non-ASCII character in source (allowed only in "
                            "strings and comments)");
  else if (llvm::isPrint(c))
    diags.error(locAt(cur), llvm::Twine("invalid character '") +
                                llvm::Twine(c) + "' in source");
  else
    diags.error(locAt(cur), "invalid byte 0x" + llvm::utohexstr(uc, false, 2) +
                                " in source");
  ++cur;
  while (cur < bufEnd && isStray(*cur) &&
         (static_cast<unsigned char>(*cur) >= 0x80) == (uc >= 0x80))
    ++cur;
}
