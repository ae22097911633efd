//===- TypesTest.cpp - The frontend's view of Support's types -------------===//
//
// The spellings the frontend takes from Support's scalar and constexpr
// types: dtype names (canonical, long, Triton's repr), Triton-style names in
// suggestions, the two text forms of a constexpr value, and `-D` values.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Types.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tilec;

TEST(FrontendTypesTest, DTypeNames) {
  EXPECT_EQ(parseDTypeName("f32"), ScalarType::F32);
  EXPECT_EQ(parseDTypeName("float32"), ScalarType::F32);
  EXPECT_EQ(parseDTypeName("fp32"), ScalarType::F32);
  EXPECT_EQ(parseDTypeName("fp16"), ScalarType::F16);
  EXPECT_EQ(parseDTypeName("bfloat16"), ScalarType::BF16);
  EXPECT_EQ(parseDTypeName("bool"), ScalarType::I1);
  EXPECT_EQ(parseDTypeName("int1"), ScalarType::I1);
  EXPECT_EQ(parseDTypeName("uint8"), ScalarType::U8);
  EXPECT_EQ(parseDTypeName("int64"), ScalarType::I64);
  EXPECT_FALSE(parseDTypeName("fp"));
  EXPECT_FALSE(parseDTypeName("fpbf16"));
  EXPECT_FALSE(parseDTypeName("float"));
  // The metadata parser takes canonical names only.
  EXPECT_FALSE(parseScalarType("float32"));
  EXPECT_EQ(tritonDTypeName(ScalarType::F32), "tl.float32");
  EXPECT_EQ(tritonDTypeName(ScalarType::I1), "tl.int1");
  EXPECT_EQ(tritonDTypeName(ScalarType::U16), "tl.uint16");
  EXPECT_EQ(tritonDTypeName(ScalarType::BF16), "tl.bfloat16");
  EXPECT_EQ(scalarTypeBits(ScalarType::I1), 1u);
  EXPECT_EQ(scalarTypeBytes(ScalarType::I1), 1u);
  EXPECT_EQ(scalarTypeBits(ScalarType::BF16), 16u);
}

TEST(FrontendTypesTest, FP8Names) {
  for (const char *name : {"f8e4m3", "float8e4nv", "fp8e4nv", "float8e4m3"})
    EXPECT_EQ(parseDTypeName(name), ScalarType::F8E4M3) << name;
  for (const char *name : {"f8e5m2", "float8e5", "fp8e5", "float8e5m2"})
    EXPECT_EQ(parseDTypeName(name), ScalarType::F8E5M2) << name;
  EXPECT_FALSE(parseDTypeName("float8e4b15"));
  EXPECT_TRUE(isUnsupportedFP8Name("float8e4b15"));
  EXPECT_TRUE(isUnsupportedFP8Name("fp8e4b15"));
  EXPECT_FALSE(isUnsupportedFP8Name("fp8e4nv"));
  EXPECT_EQ(parseScalarType("f8e4m3"), ScalarType::F8E4M3);
  EXPECT_EQ(tritonDTypeName(ScalarType::F8E4M3), "tl.float8e4nv");
  EXPECT_EQ(tritonDTypeName(ScalarType::F8E5M2), "tl.float8e5");
  EXPECT_EQ(scalarTypeBytes(ScalarType::F8E5M2), 1u);
  EXPECT_TRUE(isFloatType(ScalarType::F8E4M3));
  EXPECT_TRUE(isFP8Type(ScalarType::F8E5M2));
  EXPECT_FALSE(isFP8Type(ScalarType::F16));
}

// Every fp8 bit pattern converts to float and back unchanged (NaNs to the
// canonical 0x7F); rounding is to nearest even with saturation.
TEST(FrontendTypesTest, FP8Conversions) {
  for (int bits = 0; bits < 256; ++bits) {
    f8e4m3 e4{static_cast<std::uint8_t>(bits)};
    f8e5m2 e5{static_cast<std::uint8_t>(bits)};
    float v4 = e4.toFloat(), v5 = e5.toFloat();
    EXPECT_EQ(f8e4m3::fromFloat(v4).bits, std::isnan(v4) ? 0x7F : bits) << bits;
    if (std::isinf(v5)) // satfinite: infinity becomes the largest finite.
      EXPECT_EQ(f8e5m2::fromFloat(v5).bits, (bits & 0x80) | 0x7B) << bits;
    else
      EXPECT_EQ(f8e5m2::fromFloat(v5).bits, std::isnan(v5) ? 0x7F : bits)
          << bits;
  }
  EXPECT_EQ(f8e4m3{0x7E}.toFloat(), 448.0f);
  EXPECT_TRUE(std::isnan(f8e4m3{0x7F}.toFloat()));
  EXPECT_EQ(f8e4m3{0x01}.toFloat(), std::ldexp(1.0f, -9));
  EXPECT_EQ(f8e5m2{0x7B}.toFloat(), 57344.0f);
  EXPECT_TRUE(std::isinf(f8e5m2{0x7C}.toFloat()));
  EXPECT_EQ(f8e5m2{0x01}.toFloat(), std::ldexp(1.0f, -16));
  // Saturation, infinity included.
  EXPECT_EQ(f8e4m3::fromFloat(1000.0f).bits, 0x7E);
  EXPECT_EQ(f8e4m3::fromFloat(-INFINITY).bits, 0xFE);
  EXPECT_EQ(f8e5m2::fromFloat(1e6f).bits, 0x7B);
  EXPECT_EQ(f8e4m3::fromFloat(NAN).bits, 0x7F);
  // Ties to even: 1.0625 is halfway between 1.0 (0x38) and 1.125 (0x39).
  EXPECT_EQ(f8e4m3::fromFloat(1.0625f).bits, 0x38);
  EXPECT_EQ(f8e4m3::fromFloat(1.1875f).bits, 0x3A);
  EXPECT_EQ(f8e4m3::fromFloat(1.07f).bits, 0x39);
  // Subnormals and underflow: 2^-10 is halfway between 0 and 2^-9.
  EXPECT_EQ(f8e4m3::fromFloat(std::ldexp(1.0f, -10)).bits, 0x00);
  EXPECT_EQ(f8e4m3::fromFloat(std::ldexp(3.0f, -10)).bits, 0x02);
  EXPECT_EQ(f8e4m3::fromFloat(-std::ldexp(1.0f, -9)).bits, 0x81);
  // Rounding up across a binade: 0.9999 -> 1.0.
  EXPECT_EQ(f8e4m3::fromFloat(0.9999f).bits, 0x38);
  EXPECT_EQ(f8e5m2::fromFloat(1.125f).bits, 0x3C); // tie to even: 1.0
  EXPECT_EQ(f8e5m2::fromFloat(1.375f).bits, 0x3E); // tie to even: 1.5
}

TEST(FrontendTypesTest, ConstexprText) {
  // pythonStr() is the frontend's (dumps, static_print, diagnostics), str()
  // the canonical one of hashes and metadata.
  EXPECT_EQ(ConstexprValue::ofBool(true).pythonStr(), "True");
  EXPECT_EQ(ConstexprValue::ofBool(true).str(), "true");
  EXPECT_EQ(ConstexprValue::ofFloat(120000.0).pythonStr(), "1.2e+05");
  EXPECT_EQ(ConstexprValue::ofFloat(120000.0).str(), "120000.0");
  EXPECT_EQ(ConstexprValue::ofFloat(0.5).pythonStr(), "0.5");
  EXPECT_EQ(ConstexprValue::ofFloat(2.0).pythonStr(), "2.0");
  EXPECT_EQ(ConstexprValue::ofFloat(-INFINITY).pythonStr(), "-inf");
  EXPECT_EQ(ConstexprValue::ofInt(-3).pythonStr(), "-3");
}

TEST(FrontendTypesTest, DefineValues) {
  EXPECT_EQ(parseConstexprValue("0x10"), ConstexprValue::ofInt(16));
  EXPECT_EQ(parseConstexprValue("-3"), ConstexprValue::ofInt(-3));
  EXPECT_EQ(parseConstexprValue("True"), ConstexprValue::ofBool(true));
  EXPECT_EQ(parseConstexprValue("false"), ConstexprValue::ofBool(false));
  EXPECT_EQ(parseConstexprValue("1e-5"), ConstexprValue::ofFloat(1e-5));
  EXPECT_EQ(parseConstexprValue("-inf"), ConstexprValue::ofFloat(-INFINITY));
  EXPECT_FALSE(parseConstexprValue("abc"));
}
