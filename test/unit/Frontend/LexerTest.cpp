//===- LexerTest.cpp - Tests of the .tile lexer ---------------------------===//
//
// Indentation, continuation, literals, operators and lexical errors.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "TestSupport/Contains.h"

#include "tilec/Frontend/Lexer.h"

#include "gtest/gtest.h"

using namespace tilec;
using tilec::test::contains;

namespace {

struct Lexed {
  /// Owns the buffer that the tokens' spellings point into.
  std::unique_ptr<llvm::SourceMgr> srcMgr;
  std::vector<Token> tokens;
  std::string diags;
  unsigned errors = 0;
};

Lexed lex(llvm::StringRef src) {
  Lexed out;
  out.srcMgr = std::make_unique<llvm::SourceMgr>();
  llvm::SourceMgr &srcMgr = *out.srcMgr;
  srcMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(src, "lex.tile"), llvm::SMLoc());
  llvm::raw_string_ostream os(out.diags);
  DiagnosticEngine diags(srcMgr, os);
  Lexer lexer(srcMgr, srcMgr.getMainFileID(), diags);
  out.tokens = lexer.lexAll();
  out.errors = diags.getNumErrors();
  os.flush();
  return out;
}

std::vector<TokKind> kinds(const Lexed &l) {
  std::vector<TokKind> k;
  for (const Token &t : l.tokens)
    k.push_back(t.kind);
  return k;
}

using TK = TokKind;

TEST(LexerTest, IndentationProducesIndentAndDedent) {
  Lexed l = lex("if a:\n    b\n\n    # comment\n    c\nd\n");
  EXPECT_EQ(l.errors, 0u);
  std::vector<TK> expected = {
      TK::kw_if,      TK::Identifier, TK::Colon,      TK::Newline, TK::Indent,
      TK::Identifier, TK::Newline,    TK::Identifier, TK::Newline, TK::Dedent,
      TK::Identifier, TK::Newline,    TK::Eof};
  EXPECT_EQ(kinds(l), expected);
}

TEST(LexerTest, DedentsAtEndOfFile) {
  Lexed l = lex("def f():\n  if x:\n    y");
  EXPECT_EQ(l.errors, 0u);
  auto k = kinds(l);
  ASSERT_GE(k.size(), 4u);
  EXPECT_EQ(k[k.size() - 1], TK::Eof);
  EXPECT_EQ(k[k.size() - 2], TK::Dedent);
  EXPECT_EQ(k[k.size() - 3], TK::Dedent);
  EXPECT_EQ(k[k.size() - 4], TK::Newline);
}

TEST(LexerTest, ImplicitJoiningAndBackslash) {
  Lexed l = lex("x = f(a,\n      b)\ny = 1 + \\\n    2\n");
  EXPECT_EQ(l.errors, 0u);
  unsigned newlines = 0, indents = 0;
  for (const Token &t : l.tokens) {
    newlines += t.is(TK::Newline);
    indents += t.is(TK::Indent);
  }
  EXPECT_EQ(newlines, 2u);
  EXPECT_EQ(indents, 0u);
}

TEST(LexerTest, Numbers) {
  Lexed l = lex("0x1F 42 1_000 1.0 1e-5 .5 2. 3.5e2\n");
  ASSERT_EQ(l.errors, 0u);
  EXPECT_EQ(l.tokens[0].intValue, 31u);
  EXPECT_EQ(l.tokens[1].intValue, 42u);
  EXPECT_EQ(l.tokens[2].intValue, 1000u);
  EXPECT_TRUE(l.tokens[3].is(TK::Float));
  EXPECT_DOUBLE_EQ(l.tokens[3].floatValue, 1.0);
  EXPECT_DOUBLE_EQ(l.tokens[4].floatValue, 1e-5);
  EXPECT_DOUBLE_EQ(l.tokens[5].floatValue, 0.5);
  EXPECT_DOUBLE_EQ(l.tokens[6].floatValue, 2.0);
  EXPECT_DOUBLE_EQ(l.tokens[7].floatValue, 350.0);
}

TEST(LexerTest, Strings) {
  Lexed l = lex("'a\\n' \"tf32\" \"\"\"doc\nstring\"\"\"\n");
  ASSERT_EQ(l.errors, 0u);
  EXPECT_EQ(l.tokens[0].stringValue, "a\n");
  EXPECT_EQ(l.tokens[1].stringValue, "tf32");
  EXPECT_EQ(l.tokens[2].stringValue, "doc\nstring");
}

TEST(LexerTest, OperatorsAndKeywords) {
  Lexed l = lex("a ** b // c << d >> e <= f != g -> h += i //= j @ k\n");
  ASSERT_EQ(l.errors, 0u);
  std::vector<TK> ops;
  for (const Token &t : l.tokens)
    if (!t.is(TK::Identifier))
      ops.push_back(t.kind);
  std::vector<TK> expected = {
      TK::DoubleStar,    TK::DoubleSlash, TK::Shl,     TK::Shr,
      TK::LessEq,        TK::NotEq,       TK::Arrow,   TK::PlusEq,
      TK::DoubleSlashEq, TK::At,          TK::Newline, TK::Eof};
  EXPECT_EQ(ops, expected);
  EXPECT_TRUE(lex("and or not None True").tokens[2].is(TK::kw_not));
}

/// A source with lexical errors: how many (-1: not checked) and what the
/// diagnostics must contain.
struct LexErrorCase {
  const char *name;
  const char *source;
  int errors;
  std::vector<const char *> diags;
};

const LexErrorCase kLexErrors[] = {
    {"TabInIndentationIsAnError",
     "def f():\n\tx = 1\n",
     1,
     {"lex.tile:2:1: error: tab character in indentation; use spaces"}},
    {"UnterminatedBracketPointsAtTheOpening",
     "x = 1\ny = load(a,\n  b\n",
     1,
     {"lex.tile:2:9: error: unterminated '(': missing ')' before the end of "
      "the file"}},
    {"MismatchedAndStrayBrackets",
     "x = (a]\ny = b)\n",
     2,
     {"lex.tile:1:7: error: closing ']' does not match '('",
      "lex.tile:2:6: error: unmatched ')'"}},
    {"BadIndentationLevel",
     "if a:\n    b\n  c\n",
     -1,
     {"3:3: error: unindent does not match any outer indentation level"}},
    {"UnterminatedStringAndBadNumbers",
     "s = \"abc\nn = 12abc\nm = 0x\nbig = 99999999999999999999\n",
     -1,
     {"1:5: error: unterminated string literal",
      "2:5: error: invalid numeric literal '12abc'",
      "3:5: error: invalid numeric literal '0x'",
      "is too large for a 64-bit integer"}},
};

class LexErrorTest : public ::testing::TestWithParam<LexErrorCase> {};

TEST_P(LexErrorTest, Diagnoses) {
  const LexErrorCase &c = GetParam();
  Lexed l = lex(c.source);
  if (c.errors >= 0) {
    EXPECT_EQ(l.errors, unsigned(c.errors));
  }
  for (const char *diag : c.diags)
    EXPECT_TRUE(contains(l.diags, diag));
}

INSTANTIATE_TEST_SUITE_P(
    LexerTest, LexErrorTest, ::testing::ValuesIn(kLexErrors),
    [](const ::testing::TestParamInfo<LexErrorCase> &info) {
      return std::string(info.param.name);
    });

TEST(LexerTest, GarbageBytesAreErrorsNotCrashes) {
  std::string src = "x = 1 $ 2\ny = \x01\x02 3\nz = \"\xff\"\n";
  src += std::string("\0\0w", 3);
  Lexed l = lex(src);
  EXPECT_GE(l.errors, 3u);
  EXPECT_TRUE(contains(l.diags, "1:7: error: invalid character '$' in source"));
  EXPECT_TRUE(contains(l.diags, "invalid byte 0x01 in source"));
  EXPECT_TRUE(contains(l.diags, "invalid UTF-8 in source file"));
  EXPECT_TRUE(contains(l.diags, "invalid byte 0x00"));
  EXPECT_TRUE(l.tokens.back().is(TK::Eof));
}

TEST(LexerTest, LocationsAreLineAndColumn) {
  Lexed l = lex("a = 1\n  \nbb = c\n");
  // Tokens: a = 1 NL bb = c NL EOF
  EXPECT_EQ(l.tokens[4].spelling, "bb");
  EXPECT_EQ(l.tokens[4].loc.line, 3u);
  EXPECT_EQ(l.tokens[4].loc.col, 1u);
  EXPECT_EQ(l.tokens[6].loc.col, 6u);
}

} // namespace
