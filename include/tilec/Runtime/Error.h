//===- Error.h - The one exception type of the tilec host API ---*- C++ -*-===//
//
// Every failure in tilec -- a bad `.tile` file, malformed kernel metadata, an
// argument that does not match a kernel's signature, a failing CUDA driver
// call, memory that cannot be allocated -- is reported by throwing
// tilec::Error. Its what() holds the complete diagnostic text, ready to print.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ERROR_H
#define TILEC_RUNTIME_ERROR_H

#include <new>
#include <stdexcept>
#include <string>

namespace tilec {

/// The exception thrown by every tilec API on failure. what() is the full,
/// human-readable diagnostic (for CUDA failures: the driver call's name, the
/// error's name and the driver's description of it).
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Calls \p fn; a std::bad_alloc it throws becomes tilec::Error "tilec: out
/// of memory while WHAT", so that the host API's callers see one exception
/// type for every failure.
template <typename Fn>
auto reportAllocationFailure(const std::string &what, Fn &&fn)
    -> decltype(fn()) {
  try {
    return fn();
  } catch (const std::bad_alloc &) {
    throw Error("tilec: out of memory while " + what);
  }
}

} // namespace tilec

#endif // TILEC_RUNTIME_ERROR_H
