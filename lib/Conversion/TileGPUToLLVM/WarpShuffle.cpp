//===- WarpShuffle.cpp - shfl.sync of any scalar --------------------------===//
//
// 32-bit values shuffle as they are; narrower ones zero-extended, wider ones
// as two 32-bit halves. `up` clamps at lane 0, the other kinds at lane 31.
//
//===----------------------------------------------------------------------===//

#include "WarpShuffle.h"
#include "LLVMBuilders.h"

using namespace mlir;
using namespace mlir::tilegpu;

Value mlir::tilegpu::createShuffle(OpBuilder &builder, Location loc,
                                   Value value, Value lane,
                                   NVVM::ShflKind kind) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type)) {
    Value asInt =
        LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), value);
    return LLVM::IntToPtrOp::create(
        builder, loc, type, createShuffle(builder, loc, asInt, lane, kind));
  }
  Type i32 = builder.getI32Type();
  unsigned bits = type.getIntOrFloatBitWidth();
  Value memberMask = createI32(builder, loc, -1);
  // The lowest valid source lane for `up`, the highest for the others.
  Value clamp = createI32(builder, loc, kind == NVVM::ShflKind::up ? 0 : 0x1f);
  auto shuffle32 = [&](Value v) -> Value {
    return NVVM::ShflOp::create(builder, loc, v.getType(), memberMask, v, lane,
                                clamp, kind, UnitAttr());
  };
  if (type.isF32() || type.isInteger(32))
    return shuffle32(value);
  Type intType = builder.getIntegerType(bits);
  Value asInt =
      isa<FloatType>(type)
          ? Value(LLVM::BitcastOp::create(builder, loc, intType, value))
          : value;
  Value result;
  if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(builder, loc, i32, asInt);
    result = LLVM::TruncOp::create(builder, loc, intType, shuffle32(wide));
  } else {
    Value lo = LLVM::TruncOp::create(builder, loc, i32, asInt);
    Value hi = LLVM::TruncOp::create(
        builder, loc, i32,
        LLVM::LShrOp::create(builder, loc, asInt, createI64(builder, loc, 32)));
    Value loS = LLVM::ZExtOp::create(builder, loc, intType, shuffle32(lo));
    Value hiS = LLVM::ZExtOp::create(builder, loc, intType, shuffle32(hi));
    result = LLVM::OrOp::create(
        builder, loc, loS,
        LLVM::ShlOp::create(builder, loc, hiS, createI64(builder, loc, 32)));
  }
  if (isa<FloatType>(type))
    result = LLVM::BitcastOp::create(builder, loc, type, result);
  return result;
}
