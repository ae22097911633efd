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
