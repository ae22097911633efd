//===- MatrixLoadStore.cpp - ldmatrix and stmatrix ------------------------===//
//
// The two instructions as inline PTX: the address as a 32-bit shared
// address, each 32-bit register a pair of 16-bit values.
//
//===----------------------------------------------------------------------===//

#include "MatrixLoadStore.h"
#include "InlineAsm.h"
#include "LLVMBuilders.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// "m8n8.x{count}[.trans].shared.b16": the common suffix of both
/// instructions.
std::string getShapeSuffix(unsigned count, bool trans) {
  return "m8n8.x" + std::to_string(count) + (trans ? ".trans" : "") +
         ".shared.b16";
}

/// "$first, $first+1, ..." for `count` operands.
std::string getOperandList(unsigned first, unsigned count) {
  std::string list;
  for (unsigned i = 0; i < count; ++i)
    list += (i ? ", $" : "$") + std::to_string(first + i);
  return list;
}
} // namespace

SmallVector<Value> mlir::tilegpu::emitLdmatrix(OpBuilder &builder, Location loc,
                                               Type element, Value address,
                                               unsigned count, bool trans) {
  Type i32 = builder.getI32Type();
  SmallVector<Type> types(count, i32);
  Type resultType =
      LLVM::LLVMStructType::getLiteral(builder.getContext(), types);
  std::string text = "ldmatrix.sync.aligned." + getShapeSuffix(count, trans) +
                     " {" + getOperandList(0, count) + "}, [ $" +
                     std::to_string(count) + " + 0 ];";
  std::string constraints;
  for (unsigned i = 0; i < count; ++i)
    constraints += "=r,";
  constraints += "r";
  Value word32 = LLVM::PtrToIntOp::create(builder, loc, i32, address);
  auto asmOp = createInlineAsm(builder, loc, resultType, ValueRange{word32},
                               text, constraints);
  SmallVector<Value> halves;
  auto pair = VectorType::get({2}, element);
  for (unsigned i = 0; i < count; ++i) {
    Value word =
        LLVM::ExtractValueOp::create(builder, loc, asmOp.getResult(0), i);
    Value vector = LLVM::BitcastOp::create(builder, loc, pair, word);
    for (unsigned h = 0; h < 2; ++h)
      halves.push_back(LLVM::ExtractElementOp::create(
          builder, loc, vector, createI32(builder, loc, h)));
  }
  return halves;
}

void mlir::tilegpu::emitStmatrix(OpBuilder &builder, Location loc,
                                 Value address, ArrayRef<Value> halves,
                                 bool trans) {
  unsigned count = halves.size() / 2;
  Type i32 = builder.getI32Type();
  SmallVector<Value> operands{
      LLVM::PtrToIntOp::create(builder, loc, i32, address)};
  auto pair = VectorType::get({2}, halves.front().getType());
  for (unsigned i = 0; i < count; ++i) {
    Value vector = LLVM::UndefOp::create(builder, loc, pair);
    for (unsigned h = 0; h < 2; ++h)
      vector = LLVM::InsertElementOp::create(
          builder, loc, vector, halves[2 * i + h], createI32(builder, loc, h));
    operands.push_back(LLVM::BitcastOp::create(builder, loc, i32, vector));
  }
  std::string text = "stmatrix.sync.aligned." + getShapeSuffix(count, trans) +
                     " [ $0 + 0 ], {" + getOperandList(1, count) + "};";
  std::string constraints = "r";
  for (unsigned i = 0; i < count; ++i)
    constraints += ",r";
  createInlineAsm(builder, loc, Type(), operands, text, constraints);
}
