//===- TileTypesTest.cpp - Unit tests of tile types and op builders -------===//
//
// Checks the type helpers the tile ops are defined with and that ops built
// from C++ (as the frontend builds them) verify.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tile;

namespace {
class TileTypesTest : public ::testing::Test {
protected:
  TileTypesTest() { context.loadDialect<TileDialect>(); }
  MLIRContext context;
  OpBuilder builder{&context};
};

TEST_F(TileTypesTest, PointeeTypeOfScalarAndBlock) {
  Type f16 = builder.getF16Type();
  auto ptr = PointerType::get(&context, f16);
  EXPECT_EQ(getPointeeTypeLike(ptr), f16);
  auto block = RankedTensorType::get({4, 8}, ptr);
  EXPECT_EQ(getPointeeTypeLike(block), RankedTensorType::get({4, 8}, f16));
  EXPECT_FALSE(getPointeeTypeLike(f16));
}

TEST_F(TileTypesTest, I1TypeLikeKeepsShape) {
  auto block = RankedTensorType::get({16}, builder.getF32Type());
  EXPECT_EQ(getI1TypeLike(block),
            RankedTensorType::get({16}, builder.getI1Type()));
  EXPECT_EQ(getI1TypeLike(builder.getI32Type()), builder.getI1Type());
}

TEST_F(TileTypesTest, NumElements) {
  EXPECT_EQ(getNumElements(RankedTensorType::get({4, 8}, builder.getF32Type())),
            32);
  EXPECT_EQ(getNumElements(builder.getF32Type()), 1);
}

TEST_F(TileTypesTest, ZeroConstants) {
  auto type = RankedTensorType::get({4}, builder.getF32Type());
  EXPECT_TRUE(isZeroConstant(DenseElementsAttr::get(type, 0.0f)));
  EXPECT_FALSE(isZeroConstant(DenseElementsAttr::get(type, 1.0f)));
  EXPECT_FALSE(isZeroConstant(builder.getF32FloatAttr(-0.0f)));
  EXPECT_TRUE(isZeroConstant(builder.getI32IntegerAttr(0)));
  EXPECT_FALSE(isZeroConstant(Attribute()));
}

TEST_F(TileTypesTest, BuiltLoadVerifies) {
  auto module = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(module.getBody());
  auto ptrType = PointerType::get(&context, builder.getF32Type());
  auto func = func::FuncOp::create(builder, builder.getUnknownLoc(), "k",
                                   builder.getFunctionType({ptrType}, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  Location loc = builder.getUnknownLoc();
  auto range = MakeRangeOp::create(
      builder, loc, RankedTensorType::get({128}, builder.getI32Type()), 0, 128);
  auto ptrs =
      SplatOp::create(builder, loc, RankedTensorType::get({128}, ptrType),
                      entry->getArgument(0));
  auto addr = AddPtrOp::create(builder, loc, ptrs.getType(), ptrs, range);
  auto load = LoadOp::create(builder, loc, addr, Value(), Value());
  func::ReturnOp::create(builder, loc);
  EXPECT_EQ(load.getType(), RankedTensorType::get({128}, builder.getF32Type()));
  EXPECT_TRUE(succeeded(verify(module)));
  module->destroy();
}
} // namespace
