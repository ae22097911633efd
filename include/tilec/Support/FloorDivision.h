//===- FloorDivision.h - Python's // and % --------------------------------===//
//
// Python's `//` (rounds toward negative infinity) and `%` (the remainder
// takes the divisor's sign), which Triton's constexpr folding and a Python
// source's module-level code follow; the run-time operators truncate.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_FLOORDIVISION_H
#define TILEC_SUPPORT_FLOORDIVISION_H

#include <cmath>
#include <cstdint>

namespace tilec {

/// `a // b` for b != 0 and not (a == INT64_MIN and b == -1).
inline std::int64_t floorDivide(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q;
}

/// `a % b` for b != 0.
inline std::int64_t floorModulo(std::int64_t a, std::int64_t b) {
  if (b == -1)
    return 0; // INT64_MIN % -1 would trap.
  std::int64_t r = a % b;
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

/// `a % b` on floats, b != 0, as Python computes it (from fmod).
inline double floorModulo(double a, double b) {
  double r = std::fmod(a, b);
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

} // namespace tilec

#endif // TILEC_SUPPORT_FLOORDIVISION_H
