//===- FuzzTest.cpp - Robustness of the frontend on garbage ---------------===//
//
// Feeds random bytes and random mutations of the examples through the lexer,
// parser and Sema with a fixed seed; the frontend must never crash, and a
// failure must come with at least one error.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "gtest/gtest.h"

#include <random>

using namespace tilec;
using tilec::test::runFrontend;

namespace {

const char *const kExamples[] = {"vector_add.tile",     "softmax.tile",
                                 "gelu.tile",           "matmul.tile",
                                 "conv2d.tile",         "layernorm.tile",
                                 "online_softmax.tile", "attention.tile"};

/// Characters that matter to the lexer and parser.
const char kSignificant[] = "()[]:,.=+-*/ \n\t0123456789abcxyz'\"";

std::string readExample(const char *name) {
  auto buf =
      llvm::MemoryBuffer::getFile(std::string(TILEC_EXAMPLES_DIR) + "/" + name);
  return buf ? (*buf)->getBuffer().str() : "";
}

void runAll(const std::string &src) {
  auto r = runFrontend(src, "*");
  if (!r.ok) {
    EXPECT_TRUE(r.numErrors > 0 || r.diags.find("error") != std::string::npos)
        << src;
  }
}

TEST(FuzzTest, RandomBytes) {
  std::mt19937 rng(1234);
  for (int iter = 0; iter < 1000; ++iter) {
    std::string src(rng() % 200, '\0');
    for (char &c : src)
      c = static_cast<char>(rng() % 256);
    runAll(src);
  }
}

TEST(FuzzTest, RandomTokens) {
  static const char *const pieces[] = {"@kernel\n",
                                       "def ",
                                       "k",
                                       "(",
                                       ")",
                                       ":",
                                       "\n",
                                       "    ",
                                       "x",
                                       "=",
                                       "+",
                                       "load(",
                                       "arange(0, 16)",
                                       "[:, None]",
                                       ",",
                                       "if ",
                                       "for i in range(",
                                       "while ",
                                       "return ",
                                       "1.5",
                                       "0x10",
                                       "'s'",
                                       "*f32",
                                       "constexpr",
                                       "\\\n",
                                       "zeros((16, 16), dtype=f32)",
                                       "dot(",
                                       "sum(",
                                       "axis=",
                                       "None",
                                       "#c"};
  std::mt19937 rng(42);
  for (int iter = 0; iter < 1500; ++iter) {
    std::string src = "@kernel\ndef k(p: *f32, n: i32, B: constexpr = 16):\n";
    int n = rng() % 40;
    for (int i = 0; i < n; ++i)
      src += pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
    runAll(src);
  }
}

TEST(FuzzTest, MutatedExamples) {
  std::vector<std::string> examples;
  for (const char *name : kExamples)
    examples.push_back(readExample(name));
  std::mt19937 rng(7);
  for (int iter = 0; iter < 1500; ++iter) {
    std::string src = examples[rng() % examples.size()];
    if (src.empty())
      continue;
    int edits = 1 + rng() % 4;
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % src.size();
      switch (rng() % 4) {
      case 0: // delete a run
        src.erase(pos, rng() % 8);
        break;
      case 1: // insert a random byte
        src.insert(src.begin() + pos, static_cast<char>(rng() % 128));
        break;
      case 2: // duplicate a chunk elsewhere
        src.insert(rng() % src.size(), src.substr(pos, rng() % 30));
        break;
      default: // replace a byte with a significant character
        src[pos] = kSignificant[rng() % (sizeof(kSignificant) - 1)];
        break;
      }
      if (src.empty())
        break;
    }
    runAll(src);
  }
}

} // namespace
