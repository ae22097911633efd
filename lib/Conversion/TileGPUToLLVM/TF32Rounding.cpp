//===- TF32Rounding.cpp - f32 rounded to tf32 -----------------------------===//
//
// `cvt.rna.tf32.f32`, whose result is an f32 with the low 13 mantissa bits
// zero.
//
//===----------------------------------------------------------------------===//

#include "TF32Rounding.h"
#include "InlineAsm.h"

using namespace mlir;
using namespace mlir::tilegpu;

Value mlir::tilegpu::roundToTF32(OpBuilder &builder, Location loc,
                                 Value value) {
  Type i32 = builder.getI32Type();
  auto asmOp = createInlineAsm(builder, loc, i32, ValueRange{value},
                               "cvt.rna.tf32.f32 $0, $1;", "=r,f",
                               /*hasSideEffects=*/false);
  return LLVM::BitcastOp::create(builder, loc, builder.getF32Type(),
                                 asmOp.getResult(0));
}
