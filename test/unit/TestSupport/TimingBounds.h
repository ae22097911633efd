//===- TimingBounds.h - Time limits of tests, scaled per build --*- C++ -*-===//
//
// Some unit tests bound how long an operation takes (a cache hit costs well
// under a millisecond). The bounds are for optimized builds; under
// AddressSanitizer or ThreadSanitizer (scripts/sanitize.sh) every memory
// access is checked and they would fail for no fault of the code, so
// timeBound() scales them. Header-only: shared by the Runtime and JIT tests.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_TESTSUPPORT_TIMINGBOUNDS_H
#define TILEC_TEST_UNIT_TESTSUPPORT_TIMINGBOUNDS_H

namespace tilec::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TILEC_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TILEC_TEST_SANITIZED 1
#endif
#endif

/// How much slower than an optimized build this build may be.
#if defined(TILEC_TEST_SANITIZED)
constexpr double kTimeScale = 20;
#elif !defined(__OPTIMIZE__)
constexpr double kTimeScale = 5;
#else
constexpr double kTimeScale = 1;
#endif

/// \p ms, a bound measured on an optimized build, for this build.
constexpr double timeBound(double ms) { return ms * kTimeScale; }

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_TESTSUPPORT_TIMINGBOUNDS_H
