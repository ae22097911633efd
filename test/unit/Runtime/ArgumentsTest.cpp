//===- ArgumentsTest.cpp - Launch arguments against a signature -----------===//
//
// Kernel::launch's argument check, exercised without a GPU: the C++ values a
// launch receives become HostArgs (through the same ArgCollector launch uses)
// and packArguments() accepts or rejects them against the metadata, with a
// message that names the parameter. Also the f16/bf16 conversions.
//
//===----------------------------------------------------------------------===//

#include "TestSupport/Contains.h"
#include "TestSupport/HostApi.h"

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace tilec;
using namespace tilec::test;

namespace {

KernelMetadata signature() {
  return metadataOf("k", {{"out", "*f32"},
                          {"x", "*f16"},
                          {"n", "i32"},
                          {"scale", "f32"},
                          {"count", "u8"},
                          {"flag", "i1"},
                          {"h", "f16"},
                          {"big", "i64"}});
}

/// Collects C++ arguments exactly as Kernel::launch does.
template <typename... Args> std::vector<HostArg> collect(Args &&...args) {
  detail::ArgCollector collector;
  (collector.add(args), ...);
  return collector.args;
}

/// The error of packing \p args for \p meta ("<no error>" if none).
std::string errorOf(const KernelMetadata &meta,
                    const std::vector<HostArg> &args) {
  return messageOf([&] { packArguments(meta, args); });
}

DevicePtr<float> fakeF32(std::uint64_t a = 0x1000) {
  return DevicePtr<float>(a);
}
DevicePtr<f16> fakeF16(std::uint64_t a = 0x2000) { return DevicePtr<f16>(a); }

} // namespace

TEST(Arguments, AcceptsMatchingArguments) {
  PackedArgs packed =
      packArguments(signature(), collect(fakeF32(), fakeF16(), 7, 0.5f, 255u,
                                         true, 1.5, std::int64_t(1) << 40));
  ASSERT_EQ(packed.size(), 8u);
  EXPECT_EQ(packed.slot(0), 0x1000u);
  EXPECT_EQ(packed.slot(1), 0x2000u);
  EXPECT_EQ(packed.slot(2), 7u);
  float half = 0.5f;
  std::uint32_t halfBits;
  std::memcpy(&halfBits, &half, 4);
  EXPECT_EQ(packed.slot(3), halfBits);
  EXPECT_EQ(packed.slot(4), 255u);
  EXPECT_EQ(packed.slot(5), 1u);
  EXPECT_EQ(packed.slot(6), 0x3E00u); // 1.5 as f16.
  EXPECT_EQ(packed.slot(7), std::uint64_t(1) << 40);
  EXPECT_EQ(packed.paramBytes(), 8u + 8 + 4 + 4 + 1 + 1 + 2 + 8);
  void **params = packed.kernelParams();
  EXPECT_EQ(*static_cast<std::int32_t *>(params[2]), 7);
  EXPECT_EQ(*static_cast<std::uint8_t *>(params[4]), 255);
}

TEST(Arguments, NegativeIntegersKeepTheirWidth) {
  KernelMetadata meta = metadataOf("k", {{"a", "i32"}, {"b", "i8"}});
  PackedArgs packed = packArguments(meta, collect(-1, -128));
  EXPECT_EQ(packed.slot(0), 0xFFFFFFFFu);
  EXPECT_EQ(packed.slot(1), 0x80u);
  EXPECT_EQ(*static_cast<std::int32_t *>(packed.kernelParams()[0]), -1);
}

TEST(Arguments, CountMismatch) {
  std::string e = errorOf(signature(), collect(fakeF32(), fakeF16(), 7));
  EXPECT_TRUE(contains(e,
                       "kernel 'k' takes 8 arguments, got 3; its signature is "
                       "k(out: *f32, x: *f16, n: i32, scale: f32, count: u8, "
                       "flag: i1, h: f16, big: i64)"));
}

TEST(Arguments, PointerMismatches) {
  KernelMetadata meta = metadataOf("k", {{"out", "*f32"}});
  std::string e = errorOf(meta, collect(fakeF16()));
  EXPECT_EQ(e, "kernel 'k': argument 1 (out: *f32): expected a Buffer<float> "
               "or DevicePtr<float>, got DevicePtr<tilec::f16>");
  e = errorOf(meta, collect(3));
  EXPECT_EQ(e, "kernel 'k': argument 1 (out: *f32): expected a Buffer<float> "
               "or DevicePtr<float>, got int32_t 3");
  // An empty Buffer<int> still has a type.
  Buffer<int> empty;
  e = errorOf(meta, collect(empty));
  EXPECT_EQ(e, "kernel 'k': argument 1 (out: *f32): expected a Buffer<float> "
               "or DevicePtr<float>, got Buffer<int32_t>");
  // An untyped pointer goes anywhere; an offset pointer keeps its type.
  EXPECT_EQ(packArguments(meta, collect(DevicePtr<void>(0x40))).slot(0), 0x40u);
  EXPECT_EQ(packArguments(meta, collect(fakeF32(0x100) + 4)).slot(0), 0x110u);
}

TEST(Arguments, NullPointers) {
  // An empty (or moved-from) Buffer and a null DevicePtr are refused before
  // the launch: the kernel would fault on them.
  KernelMetadata meta = metadataOf("k", {{"out", "*f32"}});
  Buffer<float> empty;
  EXPECT_EQ(errorOf(meta, collect(empty)),
            "kernel 'k': argument 1 (out: *f32): Buffer<float> is null (an "
            "empty or moved-from Buffer); pass a Buffer<float> or "
            "DevicePtr<float> holding device memory");
  EXPECT_EQ(errorOf(meta, collect(DevicePtr<float>())),
            "kernel 'k': argument 1 (out: *f32): DevicePtr<float> is null (a "
            "null device address); pass a Buffer<float> or DevicePtr<float> "
            "holding device memory");
  EXPECT_EQ(errorOf(meta, collect(DevicePtr<void>())),
            "kernel 'k': argument 1 (out: *f32): DevicePtr<void> is null (a "
            "null device address); pass a Buffer<float> or DevicePtr<float> "
            "holding device memory");
  // The element type is checked first; any non-null address is accepted.
  EXPECT_TRUE(contains(errorOf(meta, collect(DevicePtr<int>())),
                       "expected a "
                       "Buffer<float>"));
  EXPECT_EQ(errorOf(meta, collect(fakeF32(1))), "<no error>");
}

TEST(Arguments, ScalarMismatches) {
  KernelMetadata meta = metadataOf("k", {{"n", "i32"}, {"s", "f32"}});
  EXPECT_EQ(errorOf(meta, collect(0.5, 1.0f)),
            "kernel 'k': argument 1 (n: i32): expected an integer, got "
            "double 0.5");
  EXPECT_EQ(errorOf(meta, collect(1, 2)),
            "kernel 'k': argument 2 (s: f32): expected a floating-point value "
            "(write a floating-point literal, e.g. 2.0), got int32_t 2");
  EXPECT_EQ(errorOf(meta, collect(fakeF32(), 1.0f)),
            "kernel 'k': argument 1 (n: i32): expected an integer, got "
            "DevicePtr<float>");
  EXPECT_EQ(errorOf(meta, collect(std::int64_t(1) << 31, 1.0f)),
            "kernel 'k': argument 1 (n: i32): int64_t 2147483648 is out of "
            "range for i32 [-2147483648, 2147483647]");
  EXPECT_EQ(errorOf(meta, collect(0, 1e39)),
            "kernel 'k': argument 2 (s: f32): double 1e+39 is out of range "
            "for f32");
  // Infinity and NaN are values, not overflow.
  EXPECT_EQ(errorOf(meta, collect(0, std::numeric_limits<double>::infinity())),
            "<no error>");
}

TEST(Arguments, IntegerRanges) {
  KernelMetadata meta = metadataOf("k", {{"u", "u8"}});
  EXPECT_TRUE(contains(errorOf(meta, collect(-1)),
                       "int32_t -1 is out of range for "
                       "u8 [0, 255]"));
  EXPECT_TRUE(contains(errorOf(meta, collect(256)), "out of range"));
  EXPECT_EQ(errorOf(meta, collect(std::uint8_t(255))), "<no error>");
  meta.params = {{"b", *ParamType::parse("i1")}};
  EXPECT_EQ(errorOf(meta, collect(true)), "<no error>");
  EXPECT_EQ(errorOf(meta, collect(1)), "<no error>");
  EXPECT_TRUE(
      contains(errorOf(meta, collect(2)), "out of range for i1 [0, 1]"));
  meta.params = {{"x", *ParamType::parse("u64")}};
  EXPECT_EQ(errorOf(meta, collect(~std::uint64_t(0))), "<no error>");
  meta.params = {{"x", *ParamType::parse("i64")}};
  EXPECT_TRUE(
      contains(errorOf(meta, collect(~std::uint64_t(0))), "out of range"));
}

TEST(Arguments, HalfArguments) {
  KernelMetadata meta = metadataOf("k", {{"h", "f16"}, {"b", "bf16"}});
  PackedArgs packed =
      packArguments(meta, collect(f16::fromFloat(2.0f), f16::fromFloat(2.0f)));
  EXPECT_EQ(packed.slot(0), 0x4000u);
  EXPECT_EQ(packed.slot(1), 0x4000u); // 2.0 in bf16 is 0x4000 as well.
  EXPECT_TRUE(
      contains(errorOf(meta, collect(70000.0, 1.0f)), "out of range for f16"));
}

TEST(Arguments, StreamMustBeLast) {
  detail::ArgCollector collector;
  Stream stream;
  collector.add(1);
  collector.add(stream);
  EXPECT_FALSE(collector.streamNotLast);
  collector.add(2);
  EXPECT_TRUE(collector.streamNotLast);
}

TEST(Arguments, LaunchOfEmptyKernelThrows) {
  Kernel kernel;
  EXPECT_FALSE(kernel);
  try {
    kernel.launch({1}, 1, 2.0f);
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("empty Kernel"), std::string::npos);
  }
}

TEST(Arguments, GridConversions) {
  Grid a{7};
  EXPECT_EQ(a.x, 7);
  EXPECT_EQ(a.y, 1);
  std::size_t n = 5;
  Grid b{n, 3u, 2};
  EXPECT_EQ(b.x, 5);
  EXPECT_EQ(b.z, 2);
  Grid c{~std::uint64_t(0)};
  EXPECT_EQ(c.x, std::numeric_limits<std::int64_t>::max());
}

TEST(HalfFloats, Conversions) {
  EXPECT_EQ(f16::fromFloat(1.0f).bits, 0x3C00);
  EXPECT_EQ(f16::fromFloat(-2.0f).bits, 0xC000);
  EXPECT_EQ(f16::fromFloat(65504.0f).bits, 0x7BFF);
  EXPECT_EQ(f16::fromFloat(65520.0f).bits, 0x7C00); // Rounds to infinity.
  EXPECT_EQ(f16::fromFloat(5.960464477539063e-08f).bits, 0x0001);
  EXPECT_EQ(f16::fromFloat(1.0f + 1.0f / 2048).bits, 0x3C00); // Tie to even.
  EXPECT_EQ(f16::fromFloat(1.0f + 3.0f / 2048).bits, 0x3C02);
  EXPECT_TRUE(std::isnan(f16::fromFloat(NAN).toFloat()));
  for (std::uint32_t bits = 0; bits < 0x7C00; ++bits) {
    f16 h{static_cast<std::uint16_t>(bits)};
    ASSERT_EQ(f16::fromFloat(h.toFloat()).bits, bits) << bits;
  }
  EXPECT_EQ(bf16::fromFloat(1.0f).bits, 0x3F80);
  EXPECT_EQ(bf16::fromFloat(3.140625f).bits, 0x4049);
  EXPECT_EQ(bf16{0x4049}.toFloat(), 3.140625f);
  EXPECT_TRUE(std::isnan(bf16::fromFloat(NAN).toFloat()));
}

TEST(ConstexprValues, Kinds) {
  Constexprs c = {{"BLOCK", 1024},
                  {"EPS", 1e-5},
                  {"ON", true},
                  {"BIG", 1ull << 40},
                  {"F", 2.0f}};
  EXPECT_TRUE(c["BLOCK"].isInt());
  EXPECT_EQ(c["BLOCK"].str(), "1024");
  EXPECT_TRUE(c["EPS"].isFloat());
  EXPECT_EQ(c["EPS"].str(), "1e-05");
  EXPECT_EQ(c["F"].str(), "2.0");
  EXPECT_TRUE(c["ON"].isBool());
  EXPECT_EQ(c["ON"].str(), "true");
  EXPECT_EQ(c["BIG"].asInt(), std::int64_t(1) << 40);
  EXPECT_NE(ConstexprValue(1), ConstexprValue(1.0));
  EXPECT_NE(ConstexprValue(1), ConstexprValue(true));
}

TEST(Arguments, AssumptionsAreChecked) {
  KernelMetadata meta = metadataOf(
      "k",
      {{"out", "*f32"}, {"stride", "i32"}, {"unit", "i64"}, {"count", "u32"}});
  meta.params[0].divisibility = 16;
  meta.params[1].divisibility = 16;
  meta.params[2].equalToOne = true;
  meta.params[3].divisibility = 16;
  EXPECT_EQ(errorOf(meta, collect(fakeF32(0x1000), -32, 1, 48u)), "<no error>");
  EXPECT_EQ(errorOf(meta, collect(fakeF32(0x1000), 0, std::int64_t(1), 0u)),
            "<no error>");
  EXPECT_EQ(errorOf(meta, collect(fakeF32(0x1004), 16, 1, 16u)),
            "kernel 'k': argument 1 (out: *f32): DevicePtr<float> is not "
            "aligned to 16 bytes, which the kernel was compiled to assume "
            "(tilec --pointer-alignment=16); compile it without that "
            "assumption, or through tilec::Compiler, which specializes on "
            "the arguments");
  std::string e = errorOf(meta, collect(fakeF32(), 4097, 1, 16u));
  EXPECT_TRUE(
      contains(e, "argument 2 (stride: i32): int32_t 4097 is not a "
                  "multiple of 16, which the kernel was compiled to assume "
                  "(tilec --divisible=stride)"));
  e = errorOf(meta, collect(fakeF32(), 16, -1, 16u));
  EXPECT_TRUE(contains(e,
                       "argument 3 (unit: i64): int32_t -1 is not 1, which the "
                       "kernel was compiled to assume (tilec --unit=unit)"));
  e = errorOf(meta, collect(fakeF32(), 16, 1, 8u));
  EXPECT_TRUE(contains(e,
                       "argument 4 (count: u32): uint32_t 8 is not a multiple "
                       "of 16"));
}

TEST(Arguments, SpecializationKey) {
  KernelMetadata meta = metadataOf("k", {{"out", "*f32"},
                                         {"x", "*f16"},
                                         {"n", "i32"},
                                         {"stride", "i64"},
                                         {"m", "u32"},
                                         {"scale", "f32"},
                                         {"flag", "i1"}});
  // Aligned pointers; a multiple of 16, 1, neither; floats and bools: none.
  EXPECT_EQ(
      specializationKey(meta, collect(fakeF32(0x1000), fakeF16(0x2010), 4096,
                                      std::int64_t(1), 17u, 16.0f, true)),
      "AADU---");
  EXPECT_EQ(
      specializationKey(meta, collect(fakeF32(0x1008), fakeF16(0x2002), 0,
                                      std::int64_t(-16), 1u, 1.0f, false)),
      "--DDU--");
  // -1 is not 1; mismatched kinds and missing arguments give '-'.
  EXPECT_EQ(specializationKey(meta, collect(fakeF32(), 7, -1)), "A------");
  EXPECT_EQ(specializationKey(meta, collect(fakeF32(), fakeF16(), -1)),
            "AA-----");
}

TEST(Arguments, InferredTypes) {
  // Triton's JIT types: pointers by element, integers by value (i32 when
  // 32 signed bits hold it, else i64, u64 beyond), floats f32, bools i1.
  std::vector<HostArg> args =
      collect(fakeF32(0x1000), fakeF16(0x2008), 4096, std::int64_t(1) << 40,
              std::uint64_t(1) << 63, 7u, 0.5, true, f16::fromFloat(1.0f),
              bf16::fromFloat(2.0f), std::int64_t(-1));
  std::vector<std::string> types;
  for (const ParamType &type : inferParamTypes(args, "k"))
    types.push_back(type.str());
  EXPECT_EQ(types, (std::vector<std::string>{"*f32", "*f16", "i32", "i64",
                                             "u64", "i32", "f32", "i1", "f16",
                                             "bf16", "i32"}));
  // The signature adds argument specialization's integer hints.
  EXPECT_EQ(launchSignature(collect(fakeF32(), 4096, 1, 17, 0.5f), "k",
                            /*hints=*/true),
            "*f32, i32:16, i32:1, i32, f32");
  EXPECT_EQ(launchSignature(collect(fakeF32(), 4096, 1), "k", false),
            "*f32, i32, i32");
  EXPECT_TRUE(pointersAligned(collect(fakeF32(0x1000), 3, fakeF16(0x2010))));
  EXPECT_FALSE(pointersAligned(collect(fakeF32(0x1000), fakeF16(0x2008))));
  // An untyped pointer has no element type to infer.
  EXPECT_TRUE(contains(
      messageOf([&] {
        inferParamTypes(collect(fakeF32(), DevicePtr<void>(0x3000)), "add");
      }),
      "kernel 'add' takes its parameter types from its launch arguments, "
      "but argument 2 is DevicePtr"));
}
