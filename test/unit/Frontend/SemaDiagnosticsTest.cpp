//===- SemaDiagnosticsTest.cpp - The SPEC §5 diagnostics ------------------===//
//
// Every error that SPEC §5 lists (and the other semantic errors) with its
// exact `file:line:col: error: message` text.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "TestSupport/Contains.h"

#include "gtest/gtest.h"

using namespace tilec;
using tilec::test::contains;
using tilec::test::kernelWith;
using tilec::test::runFrontend;

namespace {

/// Checks the kernel body and expects `diag` among the diagnostics.
void expectError(llvm::StringRef body, llvm::StringRef diag) {
  auto r = runFrontend(kernelWith(body), "k");
  EXPECT_FALSE(r.ok) << body.str();
  EXPECT_TRUE(contains(r.diags, diag));
}

/// Runs the frontend on the whole \p source (its first kernel, with
/// \p bindings) and expects each of \p diags among the diagnostics.
void expectDiags(llvm::StringRef source,
                 std::initializer_list<const char *> diags,
                 const ConstexprBindings &bindings = {}) {
  auto r = runFrontend(source, "*", bindings);
  for (const char *diag : diags)
    EXPECT_TRUE(contains(r.diags, diag));
}

TEST(SemaDiagnosticsTest, UnknownNameWithSuggestion) {
  expectError("offs = arange(0, BLOCK)\nz = ofs + 1",
              "test.tile:4:9: error: unknown name 'ofs'; did you mean "
              "'offs'?");
  expectError("z = lod(x)", "test.tile:3:9: error: unknown function 'lod'; "
                            "did you mean 'load'?");
  expectError("z = tl.aragne(0, 4)", "test.tile:3:12: error: unknown "
                                     "function 'tl.aragne'; did you mean "
                                     "'tl.arange'?");
  expectError("z = qqqqqq", "test.tile:3:9: error: unknown name 'qqqqqq'\n");
}

TEST(SemaDiagnosticsTest, FullDiagnosticHasSourceLineAndCaret) {
  auto r = runFrontend(kernelWith("z = n + BLOKC"), "k");
  EXPECT_EQ(r.diags, "test.tile:3:13: error: unknown name 'BLOKC'; did you "
                     "mean 'BLOCK'?\n"
                     "    z = n + BLOKC\n"
                     "            ^\n");
}

TEST(SemaDiagnosticsTest, ArgumentCountsAndKeywords) {
  expectError("z = program_id()",
              "test.tile:3:9: error: 'program_id' takes 1 argument but 0 "
              "were given");
  expectError("z = arange(0, 4, 8)", "test.tile:3:22: error: 'arange' takes "
                                     "2 arguments but 3 were given");
  expectError("z = load(x, msk=n)", "test.tile:3:17: error: 'load' has no "
                                    "keyword argument 'msk'; did you mean "
                                    "'mask'?");
  expectError("z = load(x, n < 1, mask=n < 2)",
              "test.tile:3:24: error: argument 'mask' of 'load' given more "
              "than once");
  expectError("store(x)", "test.tile:3:5: error: 'store' is missing its "
                          "argument 'value'");
}

TEST(SemaDiagnosticsTest, ShapeMismatch) {
  expectError("a = zeros((64, 32), dtype=f32)\nb = zeros((16,), dtype=f32)\n"
              "z = a + b",
              "test.tile:5:11: error: shape mismatch in '+': [64, 32] and "
              "[16] cannot be broadcast together");
  expectError("a = zeros((64, 32), dtype=f16)\nb = zeros((64, 32), dtype=f16)\n"
              "z = dot(a, b)",
              "test.tile:5:9: error: shape mismatch in dot: [64, 32] and "
              "[64, 32] (the inner dimensions 32 and 64 differ)");
  expectError("a = zeros((8, 32), dtype=f16)\nb = zeros((32, 32), dtype=f16)\n"
              "z = dot(a, b)",
              "error: dot needs every dimension to be at least 16; got "
              "[8, 32] and [32, 32]");
  expectError("a = zeros((32, 32), dtype=f16)\nb = zeros((32, 32), dtype=f32)\n"
              "z = dot(a, b)",
              "error: dot operands must have the same element type; got "
              "f16[32, 32] and f32[32, 32]");
  expectError("a = zeros((32, 32), dtype=f16)\n"
              "z = dot(a, a, zeros((32, 32), dtype=f16))",
              "error: the accumulator of dot must be f32[32, 32]; got "
              "f16[32, 32]");
}

TEST(SemaDiagnosticsTest, NonPowerOfTwoArange) {
  expectError("z = arange(0, 100)",
              "test.tile:3:9: error: arange(0, 100) has 100 elements, which "
              "is not a power of two; use a power-of-two length (e.g. 128) "
              "and mask the extra elements");
  expectError("z = zeros((48,), dtype=f32)",
              "test.tile:3:9: error: block dimension 48 is not a power of "
              "two (shape [48])");
}

TEST(SemaDiagnosticsTest, NonConstexprWhereConstantNeeded) {
  expectError("z = arange(0, n)",
              "test.tile:3:19: error: expected a compile-time constant "
              "(constexpr) integer for 'end' of arange, got a run-time i32");
  expectError("z = zeros((n, 4), dtype=f32)",
              "test.tile:3:9: error: expected a compile-time constant "
              "(constexpr) integer for the shape of 'zeros', got a run-time "
              "i32");
  expectError("for j in static_range(n):\n    pass",
              "error: expected a compile-time constant (constexpr) integer "
              "for static_range bound");
}

TEST(SemaDiagnosticsTest, ConstexprWithoutValue) {
  expectDiags("@kernel\ndef k(x: *f32, BLOCK: constexpr):\n    pass\n",
              {"test.tile:2:16: error: constexpr 'BLOCK' has no value; give "
               "it a default or set it with -D BLOCK=..."});
}

TEST(SemaDiagnosticsTest, StoreOfAnotherTypeConverts) {
  // As Triton's tl.store: the value converts to the pointee type.
  auto r = runFrontend(
      kernelWith("o = arange(0, BLOCK)\nv = load(x + o)\nstore(y + o, v)"),
      "k");
  EXPECT_TRUE(r.ok);
  expectError("o = arange(0, BLOCK)\nstore(y + o, x + o)",
              "test.tile:4:5: error: cannot store a pointer value "
              "(*f32[128])");
}

TEST(SemaDiagnosticsTest, BlockTooLarge) {
  expectError("z = zeros((2048, 1024), dtype=f32)",
              "test.tile:3:9: error: block of 2097152 elements (shape [2048, "
              "1024]) exceeds the limit of 1048576 (2^20) elements per "
              "block");
  expectError("a = arange(0, 2048)\nb = arange(0, 1024)\n"
              "z = a[:, None] + b[None, :]",
              "test.tile:5:20: error: block of 2097152 elements");
}

TEST(SemaDiagnosticsTest, TypesAndOperators) {
  expectError("z = f // 2.0", "test.tile:3:11: error: '//' is only supported "
                              "on integers; got f32 and f32");
  expectError("z = f & n", "test.tile:3:11: error: '&' requires integer or "
                           "boolean operands; got f32 and i32");
  expectError("z = x * 2", "test.tile:3:11: error: '*' is not supported on "
                           "pointers (*f32)");
  expectError("z = x + f", "test.tile:3:11: error: a pointer offset must be "
                           "an integer; got f32");
  expectError("z = n.to(u32) % n", "error: cannot use '%' with u32 and i32 "
                                   "because they have different signedness");
  expectError("z = n ** 2", "error: '**' is only supported on compile-time "
                            "constants");
  expectError("z = arange(0, 4)[0]", "test.tile:3:22: error: only ':' and "
                                     "'None' are supported when indexing a "
                                     "block");
}

TEST(SemaDiagnosticsTest, ControlFlow) {
  expectError("if n > 0:\n    t = 1.0\nz = t",
              "test.tile:5:9: error: unknown name 't' (it is assigned in only "
              "one branch of the 'if' on line 3)");
  expectError("if n > 0:\n    z = f\nelse:\n    z = n",
              "test.tile:3:5: error: 'z' has type f32 in the 'if' branch but "
              "i32 in the 'else' branch; both branches must agree");
  expectError("acc = n\nfor j in range(4):\n    acc = acc + 1.5",
              "test.tile:4:5: error: loop-carried variable 'acc' has type i32 "
              "before the loop but f32 at the end of its body");
  expectError("for j in range(4):\n    t = j\nz = t",
              "test.tile:5:9: error: unknown name 't' (it is assigned only "
              "inside the loop on line 3)");
  expectError("for j in [1, 2]:\n    pass",
              "test.tile:3:14: error: a 'for' loop must iterate over "
              "range(...) or static_range(...)");
  // (A bare `if n > 0: return` at the top level is an early exit:
  // test/Frontend/early-return.tile.)
  expectError("for j in range(n):\n    if j > 0:\n        return",
              "test.tile:5:13: error: 'return' inside a run-time 'if', 'for' "
              "or 'while' is not supported");
  expectError("return n", "test.tile:3:12: error: a kernel cannot return a "
                          "value");
  expectError("o = arange(0, 4)\nif o > 1:\n    pass",
              "test.tile:4:10: error: the condition of 'if' must be a scalar; "
              "got i1[4]");
}

TEST(SemaDiagnosticsTest, StaticAssertMessage) {
  expectError("static_assert(BLOCK < 64, \"BLOCK too large\")",
              "test.tile:3:5: error: static assertion failed: BLOCK too "
              "large");
  expectError("static_assert(n > 0)",
              "test.tile:3:5: error: the condition of static_assert must be "
              "a compile-time constant");
}

TEST(SemaDiagnosticsTest, ReductionsAndShapes) {
  expectError("a = zeros((4, 4), dtype=f32)\nz = sum(a, axis=2)",
              "test.tile:4:9: error: axis 2 is out of range for a block of "
              "rank 2 (f32[4, 4])");
  expectError("z = trans(arange(0, 4))",
              "error: trans of a block of rank 1 needs the order of its "
              "dimensions (trans(x, 0, 2, 1)); got i32[4]");
  expectError("z = permute(reshape(arange(0, 8), (2, 4)), (1, 1))",
              "error: the dimensions of 'permute' must be a permutation of "
              "the 2 dimensions of i32[2, 4]");
  expectError("z = reshape(arange(0, 8), (4, 4))",
              "error: cannot reshape i32[8] (8 elements) to [4, 4] (16 "
              "elements)");
  expectError("z = program_id(3)", "test.tile:3:20: error: the axis of "
                                   "'program_id' must be 0, 1 or 2; got 3");
}

TEST(SemaDiagnosticsTest, HelperErrors) {
  expectDiags("def f(a):\n    return f(a)\n@kernel\ndef k(n: i32):\n"
              "    z = f(n)\n",
              {"test.tile:2:12: error: recursive call to 'f' is not "
               "supported"});
  expectDiags("def f(a, b):\n    return a\n@kernel\ndef k(n: i32):\n"
              "    z = f(n)\n    w = f(n, c=1)\n",
              {"test.tile:5:9: error: missing argument 'b' in call to 'f'",
               "test.tile:6:14: error: 'f' has no parameter named 'c'"});
}

TEST(SemaDiagnosticsTest, KernelParameters) {
  expectDiags("@kernel\ndef k(x, n: i32 = 4):\n    pass\n",
              {"test.tile:2:7: error: kernel parameter 'x' needs a type",
               "test.tile:2:19: error: run-time parameter 'n' cannot have a "
               "default"});
  ConstexprBindings b;
  b.values["n"] = ConstexprValue::ofInt(3);
  b.values["nope"] = ConstexprValue::ofInt(3);
  expectDiags("@kernel\ndef k(n: i32):\n    pass\n",
              {"warning: -D nope does not name a parameter of kernel 'k'",
               "test.tile:2:7: error: 'n' is a run-time parameter of 'k', not "
               "a constexpr"},
              b);
}

TEST(SemaDiagnosticsTest, SeveralSemaErrorsInOneKernel) {
  auto r = runFrontend(kernelWith("a = qq\nb = arange(0, 3)\nc = a + b\n"
                                  "d = load(f)"),
                       "k");
  EXPECT_EQ(r.numErrors, 3u) << r.diags;
}

} // namespace
