//===- Limits.h - Size limits of tile programs ------------------*- C++ -*-===//
//
// Limits every layer enforces on the programs it is given: the frontend's
// shape checks (Sema) and the tile dialect's verifiers use the same numbers,
// so IR that tile-opt accepts is IR the frontend could have produced.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_LIMITS_H
#define TILEC_SUPPORT_LIMITS_H

#include <cstdint>

namespace tilec {

/// The largest number of elements of one block (2^20).
constexpr std::int64_t kMaxBlockElements = std::int64_t(1) << 20;

/// Whether a shape whose dimensions are all at least 1 has more than
/// kMaxBlockElements elements, without overflowing: the running count stays
/// <= kMaxBlockElements, so count * dim cannot overflow when dim is below the
/// bound, and a larger dim exceeds it alone.
template <typename Shape> bool exceedsMaxBlockElements(const Shape &shape) {
  std::int64_t count = 1;
  for (std::int64_t dim : shape) {
    if (dim > kMaxBlockElements || count * dim > kMaxBlockElements)
      return true;
    count *= dim;
  }
  return false;
}

} // namespace tilec

#endif // TILEC_SUPPORT_LIMITS_H
