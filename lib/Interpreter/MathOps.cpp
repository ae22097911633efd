//===- MathOps.cpp - math ops of the interpreter --------------------------===//
//
// The `math` ops, in float64 with the C library's functions (`rsqrt` is
// 1 / sqrt), and `math.absi`, which wraps like the GPU (abs of the most
// negative integer is itself).
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tilec::interp;

std::optional<LogicalResult> tilec::interp::runMathOp(Executor &exec,
                                                      Operation *op) {
  using Result = std::optional<LogicalResult>;
  auto unary = [&](double (*fn)(double)) -> Result {
    return floatUnary(exec, op, fn);
  };
  auto binary = [&](double (*fn)(double, double)) -> Result {
    return floatBinary(exec, op, fn);
  };
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([&](math::ExpOp) { return unary(std::exp); })
      .Case([&](math::Exp2Op) { return unary(std::exp2); })
      .Case([&](math::ExpM1Op) { return unary(std::expm1); })
      .Case([&](math::LogOp) { return unary(std::log); })
      .Case([&](math::Log2Op) { return unary(std::log2); })
      .Case([&](math::Log10Op) { return unary(std::log10); })
      .Case([&](math::Log1pOp) { return unary(std::log1p); })
      .Case([&](math::SqrtOp) { return unary(std::sqrt); })
      .Case([&](math::RsqrtOp) {
        return unary([](double x) { return 1.0 / std::sqrt(x); });
      })
      .Case([&](math::CbrtOp) { return unary(std::cbrt); })
      .Case([&](math::SinOp) { return unary(std::sin); })
      .Case([&](math::CosOp) { return unary(std::cos); })
      .Case([&](math::TanOp) { return unary(std::tan); })
      .Case([&](math::TanhOp) { return unary(std::tanh); })
      .Case([&](math::AtanOp) { return unary(std::atan); })
      .Case([&](math::AsinOp) { return unary(std::asin); })
      .Case([&](math::AcosOp) { return unary(std::acos); })
      .Case([&](math::SinhOp) { return unary(std::sinh); })
      .Case([&](math::CoshOp) { return unary(std::cosh); })
      .Case([&](math::ErfOp) { return unary(std::erf); })
      .Case([&](math::FloorOp) { return unary(std::floor); })
      .Case([&](math::CeilOp) { return unary(std::ceil); })
      .Case([&](math::RoundOp) { return unary(std::round); })
      .Case([&](math::RoundEvenOp) { return unary(std::nearbyint); })
      .Case([&](math::TruncOp) { return unary(std::trunc); })
      .Case([&](math::AbsFOp) { return unary(std::fabs); })
      .Case([&](math::Atan2Op) { return binary(std::atan2); })
      .Case([&](math::PowFOp) { return binary(std::pow); })
      .Case([&](math::CopySignOp) { return binary(std::copysign); })
      .Case([&](math::FmaOp op) -> Result {
        const TileValue &a = exec.get(op.getA());
        const TileValue &b = exec.get(op.getB());
        const TileValue &c = exec.get(op.getC());
        return mapFloats(exec, op, [&](std::int64_t i) {
          return std::fma(a.floats[i], b.floats[i], c.floats[i]);
        });
      })
      .Case([&](math::AbsIOp op) -> Result {
        const TileValue &a = exec.get(op.getOperand());
        return mapInts(exec, op, [&](std::int64_t i) {
          return a.ints[i] < 0 ? subWrap(0, a.ints[i]) : a.ints[i];
        });
      })
      .Default([](Operation *) -> Result { return std::nullopt; });
}
