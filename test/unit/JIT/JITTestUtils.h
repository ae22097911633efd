//===- JITTestUtils.h - Helpers shared by the JIT unit tests ----*- C++ -*-===//
//
// Options with a memory-only cache, paths of the example kernels, fresh
// cache directories, file helpers and a wall-clock stopwatch for the tests
// of tilec::Compiler (the helpers the runtime tests share too are in
// TestSupport/HostApi.h).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_JIT_JITTESTUTILS_H
#define TILEC_TEST_UNIT_JIT_JITTESTUTILS_H

#include "tilec/tilec.h"

#include <chrono>
#include <string>
#include <vector>

namespace tilec::test {

/// Compiler options for \p arch ("": the device's, or the Compiler's
/// default) with a memory-only cache, so that each test starts cold.
inline Compiler::Options memoryOnly(std::string arch = "") {
  Compiler::Options options;
  options.arch = std::move(arch);
  options.cacheDir = "";
  return options;
}

/// The path of examples/\p name in the source tree ($TILEC_TEST_SOURCE_DIR
/// if set, else the one the tests were built from).
std::string examplePath(const std::string &name);
/// An empty directory, unique to this process and \p name (made on demand
/// by the cache; removed here if it exists).
std::string freshDir(const std::string &name);
/// The contents of \p path ("" when it cannot be read).
std::string readFile(const std::string &path);
/// Writes \p text to \p path.
void writeFile(const std::string &path, const std::string &text);
/// The names in \p dir, sorted; no "." and "..".
std::vector<std::string> listDir(const std::string &dir);

/// Milliseconds since construction.
class Stopwatch {
public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double ms() const {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start_)
        .count();
  }

private:
  std::chrono::steady_clock::time_point start_;
};

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_JIT_JITTESTUTILS_H
