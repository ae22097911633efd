//===- LaunchArgsTest.cpp - Tests of the launch-argument syntax -----------===//

#include "tilec/Support/LaunchArgs.h"
#include "tilec/Support/Random.h"

#include "TestSupport/Contains.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>

using namespace tilec;
using tilec::test::contains;

namespace {

KernelParam param(const char *name, const char *type) {
  return {name, *ParamType::parse(type)};
}

std::string errorOf(const std::vector<KernelParam> &params,
                    const std::vector<std::string> &specs) {
  try {
    makeLaunchArgs(params, specs);
  } catch (const LaunchArgError &error) {
    return error.what();
  }
  return "";
}

/// One element's expected text: which buffer, which element, what text.
struct ElementText {
  std::size_t buffer, index;
  const char *text;
};

void expectElementTexts(const LaunchArgs &launch,
                        std::initializer_list<ElementText> expected) {
  for (const ElementText &e : expected)
    EXPECT_EQ(formatElement(launch.buffers[e.buffer], e.index), e.text)
        << "buffer " << e.buffer << ", element " << e.index;
}

TEST(LaunchArgs, BuffersAndScalarsInParameterOrder) {
  std::vector<KernelParam> params = {param("out", "*f32"), param("x", "*i32"),
                                     param("n", "i32"), param("s", "f32")};
  LaunchArgs launch =
      makeLaunchArgs(params, {"s=0.5", "n=0x10", "x=iota:4", "out=full:2.5:3"});
  ASSERT_EQ(launch.args.size(), 4u);
  EXPECT_EQ(launch.args[0].kind, LaunchArg::Kind::Buffer);
  EXPECT_EQ(launch.args[1].kind, LaunchArg::Kind::Buffer);
  EXPECT_EQ(launch.args[2].kind, LaunchArg::Kind::Int);
  EXPECT_EQ(launch.args[2].intValue, 16);
  EXPECT_EQ(launch.args[3].kind, LaunchArg::Kind::Float);
  EXPECT_EQ(launch.args[3].floatValue, 0.5);
  const HostBuffer &out = launch.buffers[launch.args[0].buffer];
  const HostBuffer &x = launch.buffers[launch.args[1].buffer];
  EXPECT_EQ(out.name, "out");
  EXPECT_EQ(out.size(), 3u);
  EXPECT_EQ(loadElement(out, 2), 2.5);
  EXPECT_EQ(x.size(), 4u);
  EXPECT_EQ(formatElement(x, 3), "3");
  EXPECT_EQ(launch.findBuffer("x"), &launch.buffers[launch.args[1].buffer]);
  EXPECT_EQ(launch.findBuffer("n"), nullptr);
}

TEST(LaunchArgs, EveryBufferKind) {
  std::vector<KernelParam> params = {param("a", "*f16"), param("b", "*u8"),
                                     param("c", "*i1"), param("d", "*f64"),
                                     param("e", "*i16")};
  LaunchArgs launch =
      makeLaunchArgs(params, {"a=ones:2", "b=poison:2", "c=values:true,0,1",
                              "d=zeros:1", "e=values:-3,0x7fff"});
  expectElementTexts(launch, {{0, 1, "1"},
                              {1, 0, "255"},
                              {2, 0, "1"},
                              {2, 1, "0"},
                              {3, 0, "0"},
                              {4, 0, "-3"},
                              {4, 1, "32767"}});
}

TEST(LaunchArgs, RandIsSeededAndInRange) {
  std::vector<KernelParam> params = {param("x", "*f32"), param("y", "*f32"),
                                     param("i", "*i8")};
  LaunchArgs a =
      makeLaunchArgs(params, {"x=rand:100", "y=rand:100", "i=rand:7:100"});
  LaunchArgs b =
      makeLaunchArgs(params, {"x=rand:f32:100", "y=rand:100", "i=rand:7:100"});
  EXPECT_EQ(a.buffers[0].bytes, b.buffers[0].bytes);
  // Without a seed, each parameter's position seeds it: x and y differ.
  EXPECT_NE(a.buffers[0].bytes, a.buffers[1].bytes);
  for (std::size_t k = 0; k < 100; ++k) {
    double v = loadElement(a.buffers[0], k);
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
    double i = loadElement(a.buffers[2], k);
    EXPECT_GE(i, -64);
    EXPECT_LT(i, 64);
  }
  // The first float of seed 1 is SplitMix64's first number, scaled.
  SplitMix64 random(1);
  float first = static_cast<float>(
      static_cast<double>(random.next() >> 11) * 0x1.0p-52 - 1.0);
  EXPECT_EQ(loadElement(a.buffers[0], 0), first);
}

TEST(LaunchArgs, FileBuffers) {
  std::string path = testing::TempDir() + "/launch-args-file.bin";
  {
    std::ofstream out(path, std::ios::binary);
    float values[3] = {1.5f, -2.0f, 0.25f};
    out.write(reinterpret_cast<const char *>(values), sizeof(values));
  }
  LaunchArgs launch = makeLaunchArgs({param("x", "*f32")}, {"x=file:" + path});
  expectElementTexts(launch, {{0, 0, "1.5"}, {0, 1, "-2"}});
  EXPECT_TRUE(contains(errorOf({param("x", "*f64")}, {"x=file:" + path}),
                       "holds 12 bytes, not a whole number of f64 elements"));
  std::remove(path.c_str());
  EXPECT_TRUE(contains(errorOf({param("x", "*f32")}, {"x=file:" + path}),
                       "cannot read '" + path + "'"));
}

TEST(LaunchArgs, Errors) {
  std::vector<KernelParam> params = {param("x", "*f32"), param("n", "i8")};
  struct Case {
    std::vector<std::string> specs;
    const char *message;
  };
  const Case cases[] = {
      {{"x"}, "expected NAME=SPEC in '--arg x'"},
      {{"y=1"},
       "--arg y=1: the kernel has no run-time parameter 'y' (it "
       "has: x, n)"},
      {{"n=1", "n=2"}, "--arg n is given twice"},
      {{"n=1"}, "no --arg for parameter 'x' (*f32)"},
      {{"x=zeros:1"}, "no --arg for parameter 'n' (i8)"},
      {{"n=128"}, "--arg n=128: '128' is not a value of type i8"},
      {{"x=zeros:f16:4"},
       "--arg x=zeros:f16:4: 'x' is *f32, not a buffer "
       "of f16"},
      {{"x=zeros"}, "--arg x=zeros: expected zeros:COUNT"},
      {{"x=zeros:-1"}, "expected an element count, not '-1'"},
      {{"x=zeros:9999999999"}, "at most 2^32 elements per buffer"},
      {{"x=rand:s:4"}, "expected a seed, not 's'"},
      {{"x=full:abc:4"}, "'abc' is not a value of type f32"},
      {{"x=blah:4"}, "unknown buffer 'blah'"},
  };
  for (const Case &c : cases)
    EXPECT_TRUE(contains(errorOf(params, c.specs), c.message));
}

TEST(LaunchArgs, Grids) {
  EXPECT_EQ(parseGrid("4"), (std::array<std::int64_t, 3>{4, 1, 1}));
  EXPECT_EQ(parseGrid("4,2,3"), (std::array<std::int64_t, 3>{4, 2, 3}));
  EXPECT_EQ(parseGrid("2147483647,65535"),
            (std::array<std::int64_t, 3>{2147483647, 65535, 1}));
  for (const char *bad :
       {"", "0", "1,2,3,4", "2147483648", "1,65536", "x", "1,,2", "-1"})
    EXPECT_THROW(parseGrid(bad), LaunchArgError) << bad;
}

TEST(LaunchArgs, ElementText) {
  std::vector<KernelParam> params = {param("h", "*f16"), param("f", "*f32"),
                                     param("u", "*u64")};
  LaunchArgs launch =
      makeLaunchArgs(params, {"h=values:0.1,inf", "f=values:nan,-inf,0.1",
                              "u=values:18446744073709551615"});
  // f16 values print as the shortest decimal of their float value.
  expectElementTexts(launch, {{0, 0, "0.099975586"},
                              {0, 1, "inf"},
                              {1, 0, "nan"},
                              {1, 1, "-inf"},
                              {1, 2, "0.1"},
                              {2, 0, "18446744073709551615"}});
  EXPECT_TRUE(std::isnan(loadElement(launch.buffers[1], 0)));
}

} // namespace
