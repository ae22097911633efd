//===- Elementwise.h - Elementwise helpers of the interpreter ---*- C++ -*-===//
//
// Evaluates an elementwise op by a function of the element index, for the
// arith and math op families: the result takes the shape of the op's
// result, integers are wrapped to its width.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_ELEMENTWISE_H
#define TILEC_LIB_INTERPRETER_ELEMENTWISE_H

#include "Executor.h"

#include "mlir/IR/TypeUtilities.h"

namespace tilec::interp {

inline mlir::Type getElementType(mlir::Value value) {
  return mlir::getElementTypeOrSelf(value);
}

/// A value of `value`'s shape with uninitialized elements of `kind`.
inline TileValue makeLike(mlir::Value value, ElemKind kind) {
  TileValue result;
  result.shape = getShape(value.getType());
  if (kind == ElemKind::Float)
    result.floats.resize(result.size());
  else
    result.ints.resize(result.size());
  return result;
}

/// Sets the single result of `op` to `fn(i)` for each element index i.
template <typename Fn>
mlir::LogicalResult mapFloats(Executor &exec, mlir::Operation *op, Fn fn) {
  TileValue result = makeLike(op->getResult(0), ElemKind::Float);
  for (std::int64_t i = 0, e = result.size(); i < e; ++i)
    result.floats[i] = fn(i);
  exec.set(op->getResult(0), std::move(result));
  return mlir::success();
}

/// Sets the single integer result of `op` to `fn(i)`, wrapped to its width.
template <typename Fn>
mlir::LogicalResult mapInts(Executor &exec, mlir::Operation *op, Fn fn) {
  TileValue result = makeLike(op->getResult(0), ElemKind::Int);
  unsigned width = getIntWidth(getElementType(op->getResult(0)));
  for (std::int64_t i = 0, e = result.size(); i < e; ++i)
    result.ints[i] = wrapInt(fn(i), width);
  exec.set(op->getResult(0), std::move(result));
  return mlir::success();
}

template <typename Fn>
mlir::LogicalResult floatUnary(Executor &exec, mlir::Operation *op, Fn fn) {
  const TileValue &a = exec.get(op->getOperand(0));
  return mapFloats(exec, op, [&](std::int64_t i) { return fn(a.floats[i]); });
}

template <typename Fn>
mlir::LogicalResult floatBinary(Executor &exec, mlir::Operation *op, Fn fn) {
  const TileValue &a = exec.get(op->getOperand(0));
  const TileValue &b = exec.get(op->getOperand(1));
  return mapFloats(
      exec, op, [&](std::int64_t i) { return fn(a.floats[i], b.floats[i]); });
}

/// Two's-complement arithmetic on 64 bits (wrapped to a width by callers).
inline std::int64_t addWrap(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) +
                                   static_cast<std::uint64_t>(b));
}
inline std::int64_t subWrap(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) -
                                   static_cast<std::uint64_t>(b));
}
inline std::int64_t mulWrap(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) *
                                   static_cast<std::uint64_t>(b));
}

} // namespace tilec::interp

#endif // TILEC_LIB_INTERPRETER_ELEMENTWISE_H
