//===- ParserTest.cpp - Tests of the .tile parser and AST dump ------------===//
//
// Statement and expression forms, precedence, decorators, annotations, the
// AST dump format, and error recovery.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "gtest/gtest.h"

using namespace tilec;
using tilec::test::runFrontend;

namespace {

bool contains(const std::string &haystack, llvm::StringRef needle) {
  return haystack.find(needle.str()) != std::string::npos;
}

TEST(ParserTest, KernelSignatureAndDump) {
  auto r = runFrontend(
      "import triton\nfrom triton import language as tl\n"
      "@kernel(num_warps=8, num_stages=2)\n"
      "def k(out: *f32, a: tl.float16, n: i32, B: tl.constexpr = 16) -> None:\n"
      "    row = tl.program_id(0)\n",
      "");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_TRUE(contains(r.dump, "Kernel k num_warps=8 num_stages=2 @4:5"))
      << r.dump;
  EXPECT_TRUE(contains(r.dump, "Param out: *f32 @4:7"));
  EXPECT_TRUE(contains(r.dump, "Param a: f16 @4:18"));
  EXPECT_TRUE(contains(r.dump, "Param B: constexpr @4:41"));
  EXPECT_TRUE(contains(r.dump, "Assign row @5:5"));
  EXPECT_TRUE(contains(r.dump, "Attribute program_id @5:11"));
}

TEST(ParserTest, DefaultLaunchOptionsAndHelpers) {
  auto r = runFrontend("@kernel\ndef k():\n    pass\n\ndef helper(x, y=2):\n"
                       "    return x, y\n",
                       "");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_TRUE(contains(r.dump, "Kernel k num_warps=4 num_stages=3"));
  EXPECT_TRUE(contains(r.dump, "Function helper @5:5"));
  EXPECT_TRUE(contains(r.dump, "Return @6:5\n      Tuple @6:12"));
}

TEST(ParserTest, PrecedenceFollowsPython) {
  auto r = runFrontend("def f():\n    z = a + b * c ** 2 < d & e\n", "");
  ASSERT_TRUE(r.ok) << r.diags;
  // `&` binds tighter than `<`; `**` tighter than `*`.
  EXPECT_TRUE(contains(r.dump, "Assign z @2:5\n"
                               "      Binary < @2:24\n"
                               "        Binary + @2:11\n"
                               "          Name a @2:9\n"
                               "          Binary * @2:15\n"
                               "            Name b @2:13\n"
                               "            Binary ** @2:19\n"))
      << r.dump;
  EXPECT_TRUE(contains(r.dump, "        Binary & @2:28\n"));
}

TEST(ParserTest, StatementsAndExpressions) {
  auto r = runFrontend("def f(x):\n"
                       "    \"\"\"doc\"\"\"\n"
                       "    a, b = g(x, axis=0), -x[:, None]\n"
                       "    a += 1; b //= 2\n"
                       "    if a and not b:\n        pass\n"
                       "    elif a is not None:\n        c = 1 if a else .5\n"
                       "    else:\n        c = [1, 2]\n"
                       "    for i in range(0, 10, 2):\n        c = c\n"
                       "    while c < 3:\n        c = c + 1\n"
                       "    return\n",
                       "");
  ASSERT_TRUE(r.ok) << r.diags;
  for (llvm::StringRef s :
       {"Assign (a, b) @3:5", "Keyword axis @3:17", "Subscript @3:28",
        "Slice @3:29", "None @3:32", "AugAssign += @4:5", "AugAssign //= @4:13",
        "If @5:5", "Unary not @5:14", "Elif @7:5", "Binary is not @7:12",
        "Ternary @8:15", "Float 0.5 @8:25", "List @10:13", "For i @11:5",
        "While @13:5", "Return @15:5"})
    EXPECT_TRUE(contains(r.dump, s)) << s.str() << "\n" << r.dump;
}

TEST(ParserTest, ErrorRecoveryReportsSeveralErrors) {
  auto r = runFrontend("def f():\n"
                       "    x = = 1\n"
                       "    y = (1 +)\n"
                       "    break\n"
                       "    z = a < b < c\n"
                       "    ok = 1\n",
                       "");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.numErrors, 4u) << r.diags;
  EXPECT_TRUE(contains(r.diags, "test.tile:2:9: error: expected an "
                                "expression, got '='"))
      << r.diags;
  EXPECT_TRUE(contains(r.diags, "test.tile:3:13: error: expected an "
                                "expression, got ')'"));
  EXPECT_TRUE(contains(r.diags, "test.tile:4:5: error: 'break' is not "
                                "supported"));
  EXPECT_TRUE(contains(r.diags, "test.tile:5:15: error: chained comparisons "
                                "are not supported"));
}

TEST(ParserTest, SourceLineAndCaretArePrinted) {
  auto r = runFrontend("def f():\n    continue\n", "");
  EXPECT_EQ(r.diags, "test.tile:2:5: error: 'continue' is not supported\n"
                     "    continue\n"
                     "    ^\n");
}

TEST(ParserTest, ErrorLimitStopsAt20) {
  std::string src = "def f():\n";
  for (int i = 0; i < 40; ++i)
    src += "    break\n";
  auto r = runFrontend(src, "");
  EXPECT_FALSE(r.ok);
  size_t count = 0;
  for (size_t pos = 0;
       (pos = r.diags.find("'break'", pos)) != std::string::npos; ++pos)
    ++count;
  EXPECT_EQ(count, 20u);
  EXPECT_TRUE(contains(r.diags, "error: too many errors emitted, stopping "
                                "now"));
}

TEST(ParserTest, DecoratorErrors) {
  auto r = runFrontend("@triton.jit\ndef k(x):\n    pass\n", "");
  EXPECT_TRUE(contains(r.diags, "test.tile:1:1: error: use '@kernel' instead "
                                "of '@triton.jit'"))
      << r.diags;
  r = runFrontend("@kernel(num_wraps=4)\ndef k():\n    pass\n", "");
  EXPECT_TRUE(contains(r.diags, "1:9: error: unknown '@kernel' option "
                                "'num_wraps'"))
      << r.diags;
}

TEST(ParserTest, BadAnnotationsAndTargets) {
  auto r = runFrontend("def k(x: *float33):\n    x[0] = 1\n", "");
  EXPECT_TRUE(contains(r.diags, "1:10: error: unknown type 'float33'"))
      << r.diags;
  r = runFrontend("def k():\n    x[0] = 1\n    y = 2\n", "");
  EXPECT_TRUE(contains(r.diags, "2:6: error: cannot assign to a subscript"))
      << r.diags;
}

TEST(ParserTest, UnexpectedIndentAndTopLevelStatements) {
  auto r = runFrontend("x = 1\ndef f():\n    a = 1\n        b = 2\n", "");
  EXPECT_TRUE(contains(r.diags, "1:1: error: expected 'def', '@kernel' or "
                                "'import' at the top level"))
      << r.diags;
  EXPECT_TRUE(contains(r.diags, "4:9: error: unexpected indentation"));
}

} // namespace
