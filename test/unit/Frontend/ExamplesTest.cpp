//===- ExamplesTest.cpp - The examples/*.tile kernels check clean ---------===//
//
// Parses and checks every kernel of the flagship examples, with their
// defaults and with some -D overrides.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "gtest/gtest.h"

using namespace tilec;
using tilec::test::runFrontend;

namespace {

std::string readExample(llvm::StringRef name) {
  auto buf = llvm::MemoryBuffer::getFile(std::string(TILEC_EXAMPLES_DIR) + "/" +
                                         name.str());
  if (!buf)
    return "";
  return (*buf)->getBuffer().str();
}

class ExamplesTest : public ::testing::TestWithParam<const char *> {};

TEST_P(ExamplesTest, ChecksClean) {
  std::string src = readExample(GetParam());
  ASSERT_FALSE(src.empty()) << "cannot read " << GetParam();
  auto ast = runFrontend(src, "");
  ASSERT_TRUE(ast.ok) << ast.diags;
  auto r = runFrontend(src, "*");
  EXPECT_TRUE(r.ok) << r.diags;
  EXPECT_EQ(r.diags, "");
  EXPECT_NE(r.dump.find("CheckedKernel"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Frontend, ExamplesTest,
                         ::testing::Values("vector_add.tile", "softmax.tile",
                                           "gelu.tile", "matmul.tile",
                                           "conv2d.tile", "layernorm.tile",
                                           "online_softmax.tile",
                                           "attention.tile"));

TEST(ExamplesTest, MatmulShape) {
  auto r = runFrontend(readExample("matmul.tile"), "matmul");
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_NE(r.dump.find("CheckedKernel matmul num_warps=8 num_stages=3"),
            std::string::npos);
  EXPECT_NE(r.dump.find("For k: i32 carried(acc: f32[128, 128], a_ptrs: "
                        "*f16[128, 32], b_ptrs: *f16[32, 128])"),
            std::string::npos)
      << r.dump;
}

TEST(ExamplesTest, AttentionCausalOverride) {
  ConstexprBindings b;
  b.values["CAUSAL"] = ConstexprValue::ofBool(true);
  b.values["BLOCK_M"] = ConstexprValue::ofInt(128);
  auto r = runFrontend(readExample("attention.tile"), "attention", b);
  ASSERT_TRUE(r.ok) << r.diags;
  EXPECT_NE(r.dump.find("Constexpr CAUSAL = True"), std::string::npos);
  EXPECT_NE(r.dump.find("Binary ge : i1[128, 64]"), std::string::npos)
      << r.dump;
}

TEST(ExamplesTest, BadOverrideIsReported) {
  ConstexprBindings b;
  b.values["BLOCK"] = ConstexprValue::ofInt(1000);
  auto r = runFrontend(readExample("softmax.tile"), "softmax", b);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diags.find("arange(0, 1000) has 1000 elements, which is not a "
                         "power of two"),
            std::string::npos)
      << r.diags;
}

} // namespace
