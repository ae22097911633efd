//===- IndexPolynomialTest.cpp - Index polynomials emit deterministically -===//
//
// IndexPolynomial keys its terms by the atoms' addresses; what it emits
// must not depend on them. The atoms here are made in the reverse of their
// program order (each op inserted before the previous one), so their
// addresses run against it; the emitted sum must still read them in
// program order.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/TensorMapPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
TEST(IndexPolynomial, EmitsTermsInProgramOrder) {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect, func::FuncDialect>();
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto function =
      func::FuncOp::create(builder, loc, "f", builder.getFunctionType({}, {}));
  Block *body = function.addEntryBlock();

  // atoms[i] is the i-th op of the body; atoms[15] was made first.
  constexpr int kAtoms = 16;
  SmallVector<Value> atoms(kAtoms);
  for (int i = kAtoms - 1; i >= 0; --i) {
    builder.setInsertionPointToStart(body);
    atoms[i] = arith::ConstantOp::create(builder, loc,
                                         builder.getI64IntegerAttr(100 + i));
  }
  IndexPolynomial poly = IndexPolynomial::constant(0);
  for (Value atom : atoms)
    poly = poly + IndexPolynomial::atom(atom);
  std::optional<IndexPolynomial> product =
      IndexPolynomial::atom(atoms[9]) * IndexPolynomial::atom(atoms[3]);
  ASSERT_TRUE(product);
  poly = poly + *product;

  builder.setInsertionPointToEnd(body);
  DenseMap<Value, Value> noSubstitutions;
  Value sum = poly.materialize(builder, loc, noSubstitutions);
  func::ReturnOp::create(builder, loc);
  ASSERT_TRUE(sum);

  // The order in which the emitted ops read the atoms.
  SmallVector<int> read;
  for (Operation &op : *body)
    for (Value operand : op.getOperands())
      if (const auto *it = llvm::find(atoms, operand); it != atoms.end())
        read.push_back(it - atoms.begin());
  // atoms[3] * atoms[9] (the product's atoms in program order) comes right
  // after atoms[3]'s own term.
  SmallVector<int> expected = {0, 1, 2, 3, 3, 9};
  for (int i = 4; i < kAtoms; ++i)
    expected.push_back(i);
  EXPECT_EQ(read, expected);
}
} // namespace
