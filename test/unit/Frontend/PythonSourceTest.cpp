//===- PythonSourceTest.cpp - Python sources and Triton signatures --------===//
//
// extractTritonCode() keeps the `@triton.jit` functions and module-level
// constexprs of a Python file line for line and empties every other line
// (through brackets, continuations and strings); parseTritonSignature()
// reads Triton's AOT signature syntax; random mutations of a Python file
// never crash the pre-pass, the parser or Sema.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/PythonSource.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/PythonHostEval.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Frontend/TritonSignature.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <random>

using namespace tilec;

namespace {
/// The lines of `text`.
std::vector<std::string> linesOf(const std::string &text) {
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(text).split(parts, '\n');
  return std::vector<std::string>(parts.begin(), parts.end());
}
} // namespace

TEST(PythonSourceTest, KeepsJitFunctionsAndConstexprGlobals) {
  std::string text = "import triton\n"               // 0
                     "B = tl.constexpr(64)\n"        // 1
                     "C: tl.constexpr = 2\n"         // 2
                     "D = 3\n"                       // 3
                     "@triton.autotune(configs=[\n"  // 4
                     "  triton.Config({'X': 1})],\n" // 5
                     "  key=[])\n"                   // 6
                     "@triton.jit\n"                 // 7
                     "def k(x):\n"                   // 8
                     "    pass\n"                    // 9
                     "\n"                            // 10
                     "    # a comment in the body\n" // 11
                     "    return x\n"                // 12
                     "def host():\n"                 // 13
                     "\tpass\n"                      // 14
                     "@other\n"                      // 15
                     "def g(): pass\n";              // 16
  std::vector<std::string> in = linesOf(text);
  std::vector<std::string> out = linesOf(extractTritonCode(text));
  ASSERT_EQ(out.size(), in.size());
  for (size_t i : {1, 2, 4, 5, 6, 7, 8, 9, 11, 12})
    EXPECT_EQ(out[i], in[i]) << "line " << i;
  for (size_t i : {0, 3, 13, 14, 15, 16})
    EXPECT_EQ(out[i], "") << "line " << i;
}

TEST(PythonSourceTest, StringsAndContinuationsDoNotStartStatements) {
  std::string text = "s = '''\n"
                     "@triton.jit\n"
                     "def fake(x):\n"
                     "'''\n"
                     "t = (1,\n"
                     "@triton.jit\n"
                     ")\n"
                     "u = 1 + \\\n"
                     "B = tl.constexpr(1)\n"
                     "x = \"a # not a comment \\\" (\"\n"
                     "E = tl.constexpr(5)\n";
  std::vector<std::string> out = linesOf(extractTritonCode(text));
  for (size_t i = 0; i < 10; ++i)
    EXPECT_EQ(out[i], "") << "line " << i;
  EXPECT_EQ(out[10], "E = tl.constexpr(5)");
}

TEST(PythonSourceTest, SignatureEntries) {
  std::string error;
  auto entries =
      parseTritonSignature("*fp16:16, *bf16, i32:16, i64:1, fp32, 1024, "
                           "0.5, True, *f32, u8",
                           error);
  ASSERT_TRUE(entries) << error;
  ASSERT_EQ(entries->size(), 10u);
  EXPECT_TRUE((*entries)[0].type.isPointer);
  EXPECT_EQ((*entries)[0].type.elem, ScalarType::F16);
  EXPECT_EQ((*entries)[0].hint, 16u);
  EXPECT_EQ((*entries)[1].type.elem, ScalarType::BF16);
  EXPECT_EQ((*entries)[1].hint, 0u);
  EXPECT_EQ((*entries)[3].type.elem, ScalarType::I64);
  EXPECT_EQ((*entries)[3].hint, 1u);
  EXPECT_EQ((*entries)[4].type.elem, ScalarType::F32);
  EXPECT_TRUE((*entries)[5].isValue);
  EXPECT_EQ((*entries)[5].value.asInt(), 1024);
  EXPECT_TRUE((*entries)[6].isValue);
  EXPECT_TRUE((*entries)[7].isValue);
  EXPECT_EQ((*entries)[8].type.elem, ScalarType::F32);
  EXPECT_EQ((*entries)[9].type.elem, ScalarType::U8);
  auto empty = parseTritonSignature("  ", error);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->empty());
}

TEST(PythonSourceTest, SignatureErrors) {
  std::string error;
  EXPECT_FALSE(parseTritonSignature("*fp32, f33", error));
  EXPECT_EQ(error.rfind("entry 2: unknown type 'f33'", 0), 0u) << error;
  EXPECT_FALSE(parseTritonSignature("i32:4", error));
  EXPECT_FALSE(parseTritonSignature("fp16:16", error));
  EXPECT_FALSE(parseTritonSignature("*i8:1", error));
  EXPECT_FALSE(parseTritonSignature("16:16", error));
  EXPECT_FALSE(parseTritonSignature("i32,,i32", error));
  EXPECT_FALSE(parseTritonSignature("*fp8e4b15", error));
  EXPECT_NE(error.find("this fp8 type is not supported"), std::string::npos);
  auto fp8 = parseTritonSignature("*fp8e4nv, *fp8e5, *f8e4m3:16", error);
  ASSERT_TRUE(fp8) << error;
  EXPECT_EQ((*fp8)[0].type.elem, ScalarType::F8E4M3);
  EXPECT_EQ((*fp8)[1].type.elem, ScalarType::F8E5M2);
  EXPECT_EQ((*fp8)[2].type.str(), "*f8e4m3");
}

TEST(PythonSourceTest, KeepsOnlyTheKernelAndWhatItNames) {
  std::string text = "@triton.jit\n"
                     "def helper(x):\n"
                     "    return x\n"
                     "@triton.jit\n"
                     "def other(x):\n"
                     "    break\n"
                     "@triton.jit\n"
                     "def k(x):\n"
                     "    return helper(x)\n";
  std::vector<std::string> all = linesOf(extractTritonCode(text));
  EXPECT_EQ(all[5], "    break");
  std::vector<std::string> out = linesOf(extractTritonCode(text, "k"));
  EXPECT_EQ(out[1], "def helper(x):");
  EXPECT_EQ(out[4], "");
  EXPECT_EQ(out[5], "");
  EXPECT_EQ(out[7], "def k(x):");
  // An unknown kernel keeps every function (the compile reports it).
  EXPECT_EQ(linesOf(extractTritonCode(text, "nope"))[5], "    break");
}

namespace {
/// The repr of \p text evaluated in \p scope, or "error: WHY".
std::string eval(HostScope &scope, llvm::StringRef text) {
  std::string why;
  std::optional<HostValue> value = scope.evaluate(text, why);
  return value ? value->repr() : "error: " + why;
}
} // namespace

TEST(PythonHostEvalTest, EvaluatesFlagAndVersionChecks) {
  HostScope scope;
  EXPECT_EQ(eval(scope, "int(triton.__version__.split('.')[0]) >= 3"), "True");
  EXPECT_EQ(eval(scope, "tuple(map(int, triton.__version__.split('.')[:2]))"),
            "(3, 6)");
  EXPECT_EQ(eval(scope, "version.parse(triton.__version__) < "
                        "version.parse('3.10.1')"),
            "True");
  EXPECT_EQ(eval(scope, "-7 // 2, -7 % 3, 7 % -3, 2 * 3 + 1 - 4 / 2"),
            "(-4, 2, -2, 5.0)");
  EXPECT_EQ(eval(scope, "'ab' in 'xaby' and not [] or 5"), "True");
  EXPECT_EQ(eval(scope, "1 < 2 < 2"), "False");
  EXPECT_EQ(eval(scope, "None if 0 else ('x' 'y').upper()[::1]"),
            "error: a slice with a step");
  EXPECT_EQ(eval(scope, "'a,b'.split(',')[-1] + str(len('abc'))"), "'b3'");
  scope.assign("MODE", HostValue::ofString("fast"));
  EXPECT_EQ(eval(scope, "MODE in ('fast', 'exact') and MODE != 'exact'"),
            "True");
  scope.assign("MODE", std::nullopt);
  EXPECT_EQ(eval(scope, "MODE"), "error: 'MODE'");
}

TEST(PythonHostEvalTest, ReadsAndRecordsTheEnvironment) {
  ::setenv("TILEC_HOST_EVAL_SET", "1", 1);
  ::unsetenv("TILEC_HOST_EVAL_UNSET");
  HostScope scope;
  EXPECT_EQ(eval(scope, "os.environ.get('TILEC_HOST_EVAL_SET', '0') == '1'"),
            "True");
  EXPECT_EQ(eval(scope, "os.getenv('TILEC_HOST_EVAL_UNSET')"), "None");
  EXPECT_EQ(eval(scope, "os.getenv('TILEC_HOST_EVAL_UNSET', 'd')"), "'d'");
  EXPECT_EQ(eval(scope, "os.environ['TILEC_HOST_EVAL_UNSET']"),
            "error: os.environ['TILEC_HOST_EVAL_UNSET'] of an unset variable");
  EXPECT_EQ(scope.getEnvironmentReads(),
            (std::vector<std::string>{"TILEC_HOST_EVAL_SET=1",
                                      "TILEC_HOST_EVAL_UNSET unset"}));
}

TEST(PythonHostEvalTest, SaysWhatItCannotEvaluate) {
  HostScope scope;
  EXPECT_EQ(eval(scope, "is_hip()"), "error: a call of 'is_hip'");
  EXPECT_EQ(eval(scope, "torch.cuda.get_device_capability()[0] >= 9"),
            "error: a call of 'torch.cuda.get_device_capability'");
  EXPECT_EQ(eval(scope, "__name__ == '__main__'"), "error: '__name__'");
  EXPECT_EQ(eval(scope, "[x for x in y]"), "error: a comprehension");
  EXPECT_EQ(eval(scope, "f'{x}'"), "error: a 'f' string");
  EXPECT_EQ(eval(scope, "9223372036854775807 + 1"),
            "error: an integer that overflows");
  EXPECT_EQ(eval(scope, "1 // 0"), "error: a division by zero");
  EXPECT_EQ(eval(scope, "(1"),
            "error: the end of the expression where ')' belongs");
  EXPECT_EQ(eval(scope, "0.1 + 0.2, 1e300 * 1e300, 2.5"),
            "(0.30000000000000004, inf, 2.5)");
  // Deep nesting is refused, not a stack overflow.
  EXPECT_EQ(eval(scope, std::string(5000, '(') + "1" + std::string(5000, ')')),
            "error: an expression nested too deeply");
  EXPECT_EQ(eval(scope, std::string(5000, '-') + "1"),
            "error: an expression nested too deeply");
}

TEST(PythonSourceTest, DecidesModuleLevelIfs) {
  std::string text = "import os\n"                      // 0
                     "V = int(triton.__version__[0])\n" // 1
                     "if V < 3:\n"                      // 2
                     "    @triton.jit\n"                // 3
                     "    def f(x): return x\n"         // 4
                     "elif (V == 3 and\n"               // 5
                     "      V > 2):\n"                  // 6
                     "    @triton.jit\n"                // 7
                     "    def f(x): return x + 1\n"     // 8
                     "    C = tl.constexpr(2)\n"        // 9
                     "else:\n"                          // 10
                     "    @triton.jit\n"                // 11
                     "    def f(x): return x + 2\n"     // 12
                     "if probe():\n"                    // 13
                     "    @triton.jit\n"                // 14
                     "    def g(x): return x\n";        // 15
  HostCode host;
  std::vector<std::string> out = linesOf(extractTritonCode(text, "", &host));
  std::vector<std::string> in = linesOf(text);
  ASSERT_EQ(out.size(), in.size());
  EXPECT_EQ(out[5], "pass");
  for (size_t i : {7, 8, 9})
    EXPECT_EQ(out[i], in[i]) << "line " << i;
  for (size_t i : {0, 1, 2, 3, 4, 6, 10, 11, 12, 13, 14, 15})
    EXPECT_EQ(out[i], "") << "line " << i;
  EXPECT_TRUE(llvm::is_contained(host.names, "g"));
  EXPECT_EQ(host.whyUndecided["g"],
            "under the module-level 'if' on line 14; its condition has a "
            "call of 'probe', which tilec cannot evaluate");
  EXPECT_FALSE(llvm::is_contained(host.names, "f"));
}

// Deeply nested module-level ifs are host code past a fixed depth, not a
// deep recursion.
TEST(PythonSourceTest, DeepIfNestingIsHostCode) {
  std::string text;
  for (int depth = 0; depth < 3000; ++depth)
    text += std::string(depth, ' ') + "if True:\n";
  text += std::string(3000, ' ') + "X = tl.constexpr(1)\n";
  HostCode host;
  std::string out = extractTritonCode(text, "", &host);
  EXPECT_EQ(linesOf(out)[3000], ""); // X = ..., not kept
  EXPECT_NE(host.whyUndecided["X"].find("nested more than 64 levels deep"),
            std::string::npos)
      << host.whyUndecided["X"];
}

// The pre-pass keeps only decorated functions with `@triton.jit`, so tilec
// never gives the parser one without it; the parser still says what is
// missing.
TEST(PythonSourceTest, ParserWantsTritonJitBelowAutotune) {
  llvm::SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          "@triton.autotune(configs=[], key=[])\ndef k(x):\n    pass\n",
          "deco.py"),
      llvm::SMLoc());
  std::string output;
  llvm::raw_string_ostream os(output);
  DiagnosticEngine diags(srcMgr, os);
  EXPECT_FALSE(parseModule(srcMgr, diags, SourceLanguage::Python));
  EXPECT_NE(output.find("deco.py:1:1: error: '@triton.autotune' decorates a "
                        "'@triton.jit' function; add '@triton.jit' below it"),
            std::string::npos)
      << output;
}

TEST(PythonSourceTest, MutationsNeverCrash) {
  const std::string original =
      "\"\"\"Doc.\"\"\"\n"
      "import triton\n"
      "import triton.language as tl\n"
      "B = tl.constexpr(64)\n"
      "S: tl.constexpr = 2.0\n"
      "@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=2)],"
      " key=['n'])\n"
      "@triton.heuristics({'E': lambda a: a['n'] % 2 == 0})\n"
      "@triton.jit\n"
      "def k(out, x, n, BLOCK: tl.constexpr, E: tl.constexpr):\n"
      "    offs = tl.arange(0, BLOCK)\n"
      "    v = h(tl.load(x + offs, mask=offs < n))\n"
      "    tl.store(out + offs, v * S, mask=offs < n)\n"
      "@triton.jit\n"
      "def h(v):\n"
      "    return v + B\n"
      "def host(x):\n"
      "    return {'a': [i for i in x]}  # (\n"
      "if __name__ == '__main__':\n"
      "    print(f'{host(1)!r}')\n";
  const char significant[] = "()[]{}:,.=@#'\"\\\n\t ajkx0123";
  std::mt19937 rng(4321);
  for (int iter = 0; iter < 2000; ++iter) {
    std::string src = original;
    for (int edits = 1 + rng() % 4; edits > 0; --edits) {
      size_t at = rng() % (src.size() + 1);
      char c = significant[rng() % (sizeof(significant) - 1)];
      switch (rng() % 3) {
      case 0:
        src.insert(src.begin() + at, c);
        break;
      case 1:
        if (at < src.size())
          src.erase(at, 1);
        break;
      default:
        if (at < src.size())
          src[at] = c;
      }
    }
    std::string kept = extractTritonCode(src, iter % 2 ? "k" : "");
    ASSERT_EQ(linesOf(kept).size(), linesOf(src).size()) << src;
    llvm::SourceMgr srcMgr;
    srcMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(kept, "test.py"), llvm::SMLoc());
    std::string output;
    llvm::raw_string_ostream os(output);
    DiagnosticEngine diags(srcMgr, os);
    std::unique_ptr<ast::Module> module =
        parseModule(srcMgr, diags, SourceLanguage::Python);
    if (!module) {
      EXPECT_TRUE(diags.hasErrors()) << src;
      continue;
    }
    ConstexprBindings bindings;
    bindings.paramTypes = {{"out", {true, ScalarType::F32}},
                           {"x", {true, ScalarType::F32}},
                           {"n", {false, ScalarType::I32}}};
    bindings.values["BLOCK"] = ConstexprValue::ofInt(64);
    bindings.values["E"] = ConstexprValue::ofBool(true);
    for (const ast::Function *fn : module->getKernels()) {
      if (!checkKernel(*module, fn->name, bindings, diags)) {
        EXPECT_TRUE(diags.hasErrors()) << src;
      }
    }
  }
}
