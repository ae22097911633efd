//===- Error.h - The one exception type of the tilec host API ---*- C++ -*-===//
//
// Every failure in tilec -- a bad `.tile` file, malformed kernel metadata, an
// argument that does not match a kernel's signature, a failing CUDA driver
// call -- is reported by throwing tilec::Error. Its what() holds the complete
// diagnostic text, ready to print.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ERROR_H
#define TILEC_RUNTIME_ERROR_H

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

} // namespace tilec

#endif // TILEC_RUNTIME_ERROR_H
