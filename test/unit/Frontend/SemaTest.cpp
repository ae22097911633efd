//===- SemaTest.cpp - Tests of elaboration into checked kernels -----------===//
//
// Promotion, broadcasting, builtins' result types, helper inlining, loops,
// ifs, static_range, static_assert, constexpr bindings.
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

/// Checks a kernel body and returns the dump (fails the test on errors).
std::string check(llvm::StringRef body, const ConstexprBindings &b = {}) {
  auto r = runFrontend(kernelWith(body), "k", b);
  EXPECT_TRUE(r.ok) << r.diags;
  return r.dump;
}

/// Checks a kernel body and expects each of \p parts in the dump.
void expectDump(llvm::StringRef body,
                std::initializer_list<const char *> parts) {
  std::string d = check(body);
  for (const char *part : parts)
    EXPECT_TRUE(contains(d, part));
}

TEST(SemaTest, SignatureAndConstexprs) {
  ConstexprBindings b;
  b.values["BLOCK"] = ConstexprValue::ofInt(64);
  b.numWarps = 2;
  std::string d = check("pass", b);
  EXPECT_TRUE(contains(d, "CheckedKernel k num_warps=2 num_stages=3\n"
                          "  Param x: *f32\n  Param y: *f16\n"
                          "  Param n: i32\n  Param i: i64\n  Param f: f32\n"
                          "  Constexpr BLOCK = 64\n"));
}

TEST(SemaTest, PromotionTable) {
  struct Case {
    const char *expr;
    const char *type;
  } cases[] = {
      {"n + f", "f32"},                  // int/float mix -> float
      {"n + i", "i64"},                  // narrower -> wider
      {"n / n", "f32"},                  // '/' on ints -> f32
      {"n // 2", "i32"},                 // '//' keeps ints
      {"i + 1", "i64"},                  // weak literal adapts
      {"f * 2", "f32"},                  //
      {"n < i", "i1"},                   // comparisons -> i1
      {"f.to(f16) * 2.0", "f16"},        // weak float keeps f16
      {"f.to(f16) + f.to(bf16)", "f32"}, // f16 + bf16 -> f32
      {"f.to(f16) / f.to(f16)", "f32"},  // f16 division in f32
      {"n.to(u32) + 1", "u32"},          //
      {"n.to(u32) + n", "u32"},          // same width: unsigned wins
      {"n.to(u8) + n", "i32"},           //
      {"n.to(i8) + n.to(i16)", "i16"},   //
      {"(n < 1) & (n > 2)", "i1"},       // logical on i1
      {"n.to(f64) + f", "f64"},          //
  };
  for (const Case &c : cases) {
    std::string d = check(std::string("z = ") + c.expr);
    std::string want = std::string(" : ") + c.type + " @3:";
    size_t assign = d.find("Assign z @3:5\n");
    ASSERT_NE(assign, std::string::npos) << c.expr << "\n" << d;
    std::string firstLine =
        d.substr(assign + 14, d.find('\n', assign + 14) - assign - 14);
    EXPECT_TRUE(contains(firstLine, want))
        << c.expr << " -> " << firstLine << " (want " << c.type << ")";
  }
}

TEST(SemaTest, ConstantFolding) {
  expectDump("a = BLOCK * 2 + 1\nz = zeros((a - 1, BLOCK // 64), "
             "dtype=float32)\nw = n + a",
             {"Constant 0.0 : f32[256, 2]", "Constant 257 : i32"});
}

TEST(SemaTest, BroadcastingIsExplicit) {
  std::string d = check("r = arange(0, 16)\nc = arange(0, 32)\n"
                        "z = r[:, None] * 32 + c[None, :]");
  EXPECT_TRUE(contains(d, "Binary add : i32[16, 32] @5:25\n"
                          "      Broadcast : i32[16, 32] @5:25\n"
                          "        Binary mul : i32[16, 1] @5:20\n"
                          "          ExpandDims axis=1 : i32[16, 1] @5:10\n"
                          "            VarRef r : i32[16] @5:9\n"
                          "          Constant 32 : i32[16, 1] @5:22\n"
                          "      Broadcast : i32[16, 32] @5:25\n"
                          "        ExpandDims axis=0 : i32[1, 32] @5:28\n"));
  // Rank extension for NumPy-style broadcasting.
  d = check("a = zeros((8, 16), dtype=f32)\nb = arange(0, 16)\nz = a + b");
  EXPECT_TRUE(contains(d, "Broadcast : f32[8, 16] @5:11\n"
                          "        ExpandDims axis=0 : f32[1, 16] @5:11\n"
                          "          Cast : f32[16] @5:11\n"));
}

TEST(SemaTest, PointerArithmeticAndMemory) {
  expectDump("o = arange(0, BLOCK)\np = x + o\n"
             "v = load(p, mask=o < n)\nstore(p, v + 1.0, mask=o < "
             "n)\nold = atomic_add(x + o, v)",
             {"AddPtr : *f32[128] @4:11\n"
              "      Splat : *f32[128] @4:11\n"
              "        VarRef x : *f32 @4:9\n",
              // A masked load without `other` gets an explicit zero.
              "Constant 0.0 : f32[128] @5:9", "Store @6:5",
              "AtomicRMW add acq_rel gpu : f32[128]"});
}

TEST(SemaTest, DotReduceAndShapes) {
  expectDump("a = zeros((32, 16), dtype=f16)\nb = zeros((16, 64), dtype=f16)\n"
             "c = dot(a, b)\ns = sum(c, axis=1)\nm = max(c)\n"
             "am = argmax(c, axis=0)\nt = trans(c)\nr = reshape(c, (64, 32))\n"
             "e = expand_dims(s, 1)\nbb = broadcast_to(e, (32, 4))\n"
             "k = sum(c, axis=1, keep_dims=True)",
             {"Dot tf32 : f32[32, 64]", "Constant 0.0 : f32[32, 64]",
              "Reduce sum axis=1 : f32[32]",
              "Reduce max axis=0 : f32 @7:9\n"
              "      Reshape : f32[2048]",
              "Reduce argmax axis=0 : i32[64]", "Trans : f32[64, 32]",
              "Reshape : f32[64, 32]", "ExpandDims axis=1 : f32[32, 1]",
              "Broadcast : f32[32, 4]"});
}

TEST(SemaTest, MathCastsHalfToF32) {
  expectDump("h = f.to(f16)\ne = exp(h)\ng = sqrt(n)",
             {"Assign e @4:5\n"
              "    Cast : f16 @4:9\n"
              "      Math exp : f32 @4:9\n"
              "        Cast : f32 @4:9\n",
              "Math sqrt : f32 @5:9\n      Cast : f32"});
}

TEST(SemaTest, WhereFmaHintsAndMinMax) {
  expectDump("o = arange(0, BLOCK)\nw = where(o < n, f, 0.0)\n"
             "m = maximum(o, 3)\nq = fma(f, f, 1.0)\n"
             "h = multiple_of(o, 16)\nmx = max(n, 4)\nc = cdiv(n, 16)",
             {"Select : f32[128]", "Binary max : i32[128]", "Fma : f32",
              "Hint multiple_of[16] : i32[128]",
              "Assign mx @8:5\n    Binary max : i32",
              "Assign c @9:5\n    Binary idiv : i32"});
}

TEST(SemaTest, InfAndNanConstants) {
  expectDump("a = -inf\nb = float(\"-inf\")\nc = nan\n"
             "z = zeros((4,), dtype=f32) + a + b + c + "
             "float('inf')",
             {"Constant -inf : f32[4]", "Constant nan : f32[4]",
              "Constant inf : f32[4]"});
}

TEST(SemaTest, HelperInliningWithTupleReturnAndUniqueNames) {
  auto r = runFrontend("def helper(a, SCALE: constexpr):\n"
                       "    x = a * SCALE\n"
                       "    return x, x + 1\n"
                       "@kernel\n"
                       "def k(p: *f32, n: i32):\n"
                       "    x = n\n"
                       "    u, v = helper(x, 2)\n"
                       "    w, z = helper(v, 3)\n"
                       "    store(p, (u + w + z).to(f32))\n");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_TRUE(contains(r.dump, "Assign x.1 @2:5\n"
                               "    Binary mul : i32 @2:11\n"
                               "      VarRef x : i32 @2:9\n"
                               "      Constant 2 : i32 @2:13\n"));
  // Tuple targets are bound from copies, so `x, y = y, x` swaps.
  EXPECT_TRUE(contains(r.dump, "Assign tuple.3 @3:12\n    VarRef x.1"));
  EXPECT_TRUE(contains(r.dump, "Assign u @7:5\n    VarRef tuple.3"));
  EXPECT_TRUE(contains(r.dump, "Assign x.5 @2:5"));
  EXPECT_TRUE(contains(r.dump, "Constant 3 : i32"));
}

TEST(SemaTest, LoopCarriedDetection) {
  expectDump("acc = zeros((BLOCK,), dtype=f32)\ncount = 0\n"
             "unused = 5\n"
             "for j in range(n):\n    t = f * j\n"
             "    acc = acc + t\n    count += 1\n"
             "s = sum(acc, axis=0) + count",
             {"Assign count @6:5\n    Constant 0 : i32",
              "For j: i32 carried(acc: f32[128], count: i32) "
              "@6:5",
              "    Constant 0 : i32 @6:14\n"
              "    VarRef n : i32 @6:20\n"
              "    Constant 1 : i32 @6:14\n"});
}

TEST(SemaTest, LoopWithI64BoundsAndNumStages) {
  expectDump("for j in range(0, i, 4, num_stages=2):\n"
             "    pass",
             {"For j: i64 num_stages=2 @3:5"});
}

TEST(SemaTest, IfYields) {
  expectDump("a = f\nif n > 0:\n    a = f * 2.0\n    b = 1\n"
             "    c = 1.0\nelse:\n    b = 2\n    c = 1.0\n"
             "z = a + b + c",
             {"If yields(a: f32, b: i32) @4:5",
              // Constants are materialized at the end of each branch.
              "  Then\n    Assign a @5:9\n",
              "    Assign b @4:5\n      Constant 1 : i32",
              "    Assign b @4:5\n      Constant 2 : i32",
              // c is the same constant in both branches: no yield.
              "Constant 1.0 : f32 @"});
}

TEST(SemaTest, ConstexprIfIsResolvedAtCompileTime) {
  ConstexprBindings b;
  b.values["BLOCK"] = ConstexprValue::ofInt(64);
  std::string d = check("if BLOCK > 100:\n    z = f\nelse:\n    z = n\n"
                        "w = z",
                        b);
  EXPECT_FALSE(contains(d, "If"));
  EXPECT_TRUE(contains(d, "Assign z @6:9\n    VarRef n"));
}

TEST(SemaTest, StaticRangeUnrollsAndStaticAssertPasses) {
  std::string d = check("static_assert(BLOCK % 16 == 0, \"bad\")\n"
                        "acc = f\nfor j in static_range(0, 3):\n"
                        "    acc = acc + j");
  EXPECT_FALSE(contains(d, "For"));
  EXPECT_TRUE(contains(d, "Constant 0.0 : f32"));
  EXPECT_TRUE(contains(d, "Constant 2.0 : f32"));
  size_t count = 0;
  for (size_t pos = 0; (pos = d.find("Assign acc", pos)) != std::string::npos;
       ++pos)
    ++count;
  EXPECT_EQ(count, 4u) << d;
}

TEST(SemaTest, WhileLoop) {
  expectDump("j = 0\nacc = f\nwhile j < n:\n    acc = acc * 2.0\n"
             "    j += 1",
             {"While carried(acc: f32, j: i32) @5:5\n"
              "    Binary lt : i1"});
}

TEST(SemaTest, ReturnInHelperUnderStaticIf) {
  auto r = runFrontend("def pick(a, FIRST: constexpr):\n"
                       "    if FIRST:\n        return a\n"
                       "    return a * 2\n"
                       "@kernel\ndef k(p: *i32, n: i32):\n"
                       "    store(p, pick(n, True) + pick(n, False))\n");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_TRUE(contains(r.dump, "Binary mul : i32"));
}

TEST(SemaTest, StaticPrintIsARemark) {
  auto r = runFrontend(kernelWith("static_print(\"block is\", BLOCK)"));
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(contains(r.diags, "test.tile:3:5: remark: static_print: block "
                                "is 128"));
}

TEST(SemaTest, DevicePrintAndMethods) {
  expectDump("o = arange(0, BLOCK)\ndevice_print(\"o=\", o)\n"
             "s = o.to(f32).sum(axis=0)\nt = x.dtype if False "
             "else o.dtype\nu = zeros((4, 8), dtype=t).T",
             {"DevicePrint \"o=\" @4:5", "Reduce sum axis=0 : f32",
              "Trans : i32[8, 4]"});
}

TEST(SemaTest, KernelSelection) {
  auto r = runFrontend("@kernel\ndef a():\n    pass\n@kernel\ndef b():\n"
                       "    pass\n",
                       "c");
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.diags, "error: no kernel named 'c' in test.tile; available "
                     "kernels: a, b\n");
}

TEST(SemaTest, ParseConstexprDefine) {
  ConstexprBindings b;
  std::string err;
  EXPECT_TRUE(parseConstexprDefine("BLOCK=256", b, err));
  EXPECT_TRUE(parseConstexprDefine("EPS=1e-5", b, err));
  EXPECT_TRUE(parseConstexprDefine("CAUSAL=True", b, err));
  EXPECT_TRUE(parseConstexprDefine("NEG=-3", b, err));
  EXPECT_EQ(b.values["BLOCK"].asInt(), 256);
  EXPECT_TRUE(b.values["EPS"].isFloat());
  EXPECT_TRUE(b.values["CAUSAL"].isBool());
  EXPECT_EQ(b.values["NEG"].asInt(), -3);
  EXPECT_FALSE(parseConstexprDefine("BLOCK", b, err));
  EXPECT_FALSE(parseConstexprDefine("BLOCK=abc", b, err));
  EXPECT_EQ(err, "invalid value 'abc' for constexpr 'BLOCK'; expected an "
                 "integer (of i64's range), a float, True or False");
}

// i64's whole range is accepted; an integer beyond it is an error, not a
// float (issue 25).
TEST(SemaTest, ParseConstexprDefineRange) {
  ConstexprBindings b;
  std::string err;
  EXPECT_TRUE(parseConstexprDefine("S=-9223372036854775808", b, err));
  EXPECT_EQ(b.values["S"].asInt(), INT64_MIN);
  EXPECT_TRUE(parseConstexprDefine("M=9223372036854775807", b, err));
  EXPECT_EQ(b.values["M"].asInt(), INT64_MAX);
  EXPECT_FALSE(parseConstexprDefine("B=9223372036854775808", b, err));
  EXPECT_FALSE(parseConstexprDefine("B=-9223372036854775809", b, err));
  EXPECT_FALSE(parseConstexprDefine("B=18446744073709551616", b, err));
  EXPECT_EQ(err, "invalid value '18446744073709551616' for constexpr 'B'; "
                 "expected an integer (of i64's range), a float, True or "
                 "False");
  EXPECT_FALSE(parseConstexprDefine("B=0x10000000000000000", b, err));
  EXPECT_FALSE(b.values.count("B"));
  EXPECT_TRUE(parseConstexprDefine("F=1e30", b, err));
  EXPECT_TRUE(b.values["F"].isFloat());
}

} // namespace
