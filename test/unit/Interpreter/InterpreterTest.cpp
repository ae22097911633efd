//===- InterpreterTest.cpp - The interpreter against float64 references ---===//
//
// Runs examples/softmax.tile, gelu.tile, matmul.tile and vector_add.tile
// through the interpreter's C++ API with small constexprs and ragged sizes,
// and compares every output element with a float64 reference computed
// here.
//
//===----------------------------------------------------------------------===//

#include "InterpreterTestUtils.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace tilec;
using tilec::test::loadKernel;
using tilec::test::readSourceFile;

namespace {

TEST(InterpreterTest, VectorAddIsExact) {
  test::LoadedKernel k = loadKernel(readSourceFile("examples/vector_add.tile"),
                                    "vector_add", {{"BLOCK", 64}});
  ASSERT_TRUE(k.interpreter) << k.diags;
  const int n = 1000;
  std::vector<float> out(n, -1), x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = i * 0.5f;
    y[i] = 1.0f / (i + 1);
  }
  ASSERT_TRUE(k.run({InterpreterArg::buffer(out), InterpreterArg::buffer(x),
                     InterpreterArg::buffer(y), InterpreterArg::integer(n)},
                    {(n + 63) / 64, 1, 1}))
      << k.diags;
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], static_cast<float>(double(x[i]) + double(y[i])))
        << "at " << i;
}

TEST(InterpreterTest, SoftmaxMatchesFloat64) {
  test::LoadedKernel k = loadKernel(readSourceFile("examples/softmax.tile"),
                                    "softmax", {{"BLOCK", 128}});
  ASSERT_TRUE(k.interpreter) << k.diags;
  const int rows = 5, cols = 100;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-3, 3);
  std::vector<float> in(rows * cols), out(rows * cols, -1);
  for (float &v : in)
    v = dist(rng);
  ASSERT_TRUE(
      k.run({InterpreterArg::buffer(out), InterpreterArg::buffer(in),
             InterpreterArg::integer(cols), InterpreterArg::integer(cols),
             InterpreterArg::integer(cols)},
            {rows, 1, 1}))
      << k.diags;
  for (int r = 0; r < rows; ++r) {
    const float *x = &in[r * cols];
    double max = x[0], sum = 0;
    for (int c = 1; c < cols; ++c)
      max = std::max<double>(max, x[c]);
    for (int c = 0; c < cols; ++c)
      sum += std::exp(x[c] - max);
    for (int c = 0; c < cols; ++c)
      EXPECT_FLOAT_EQ(out[r * cols + c],
                      static_cast<float>(std::exp(x[c] - max) / sum))
          << "row " << r << " col " << c;
  }
}

TEST(InterpreterTest, GeluMatchesFloat64) {
  test::LoadedKernel k = loadKernel(readSourceFile("examples/gelu.tile"),
                                    "gelu", {{"BLOCK", 256}});
  ASSERT_TRUE(k.interpreter) << k.diags;
  const int n = 1000;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-4, 4);
  std::vector<f16> in(n), out(n, f16::fromFloat(-1));
  for (f16 &v : in)
    v = f16::fromFloat(dist(rng));
  ASSERT_TRUE(k.run({InterpreterArg::buffer(out), InterpreterArg::buffer(in),
                     InterpreterArg::integer(n)},
                    {(n + 255) / 256, 1, 1}))
      << k.diags;
  // The kernel's float literals are f32 constants.
  const double c0 = static_cast<float>(0.7978845608028654);
  const double c1 = static_cast<float>(0.044715);
  for (int i = 0; i < n; ++i) {
    double x = in[i].toFloat();
    double inner = c0 * (x + c1 * x * x * x);
    double ref = 0.5 * x * (1.0 + std::tanh(inner));
    // One f16 rounding of the float64 result.
    EXPECT_NEAR(out[i].toFloat(), ref,
                std::max(std::abs(ref), 1.0 / 16384) / 1024)
        << "x = " << x;
  }
}

TEST(InterpreterTest, MatmulMatchesFloat64) {
  test::LoadedKernel k = loadKernel(
      readSourceFile("examples/matmul.tile"), "matmul",
      {{"BLOCK_M", 32}, {"BLOCK_N", 16}, {"BLOCK_K", 16}, {"GROUP_M", 2}});
  ASSERT_TRUE(k.interpreter) << k.diags;
  // Ragged: no dimension is a multiple of its block.
  const int m = 40, n = 40, kk = 44;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<f16> a(m * kk), b(kk * n);
  for (f16 &v : a)
    v = f16::fromFloat(dist(rng));
  for (f16 &v : b)
    v = f16::fromFloat(dist(rng));
  std::vector<float> c(m * n, -1);
  auto i64 = [](std::int64_t v) { return InterpreterArg::integer(v); };
  int grid = ((m + 31) / 32) * ((n + 15) / 16);
  ASSERT_TRUE(k.run({InterpreterArg::buffer(c), InterpreterArg::buffer(a),
                     InterpreterArg::buffer(b), i64(m), i64(n), i64(kk),
                     i64(kk), i64(1), i64(n), i64(1), i64(n), i64(1)},
                    {grid, 1, 1}))
      << k.diags;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0;
      for (int l = 0; l < kk; ++l)
        ref += double(a[i * kk + l].toFloat()) * b[l * n + j].toFloat();
      EXPECT_FLOAT_EQ(c[i * n + j], static_cast<float>(ref))
          << "c[" << i << ", " << j << "]";
    }
}

TEST(InterpreterTest, DevicePrintGoesToTheStream) {
  test::LoadedKernel k = loadKernel(R"(
@kernel
def show(x: *i32):
    v = load(x + arange(0, 2))
    device_print("v = ", v)
)",
                                    "show");
  ASSERT_TRUE(k.interpreter) << k.diags;
  std::vector<std::int32_t> x = {7, -3};
  std::string printed;
  ASSERT_TRUE(k.run({InterpreterArg::buffer(x)}, {1, 2, 1}, &printed))
      << k.diags;
  EXPECT_EQ(printed, "pid (0, 0, 0) idx (0) v = 7\n"
                     "pid (0, 0, 0) idx (1) v = -3\n"
                     "pid (0, 1, 0) idx (0) v = 7\n"
                     "pid (0, 1, 0) idx (1) v = -3\n");
}

} // namespace
