//===- HostApi.h - Helpers of the host API's unit tests ---------*- C++ -*-===//
//
// What the runtime and JIT unit tests share around tilec's host API: the
// message of the tilec::Error a call throws, kernel metadata written as a
// parameter list, and the three places the host API runs in the tests --
// the fake CUDA driver of test/unit/Runtime/FakeCudaDriver.h (in a child
// process, TestSupport/ChildProcess.h), a real GPU (skipped without one),
// and no driver at all. Header-only; the executable defines
// TILEC_FAKE_CUDA_DRIVER, the path of the built fake driver.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_TESTSUPPORT_HOSTAPI_H
#define TILEC_TEST_UNIT_TESTSUPPORT_HOSTAPI_H

#include "TestSupport/ChildProcess.h"

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>

namespace tilec::test {

/// The what() of the tilec::Error \p run throws; "<no error>" if none.
inline std::string messageOf(const std::function<void()> &run) {
  try {
    run();
  } catch (const Error &e) {
    return e.what();
  }
  return "<no error>";
}

/// "device 0 (NAME, sm_XY)", as the runtime's messages name a device.
inline std::string describe(const Device &device) {
  return "device " + std::to_string(device.ordinal()) + " (" + device.name() +
         ", " + device.arch() + ")";
}

/// The metadata of kernel \p kernel with the parameters \p params (name and
/// type, e.g. {"out", "*f32"}); nothing else set.
inline KernelMetadata metadataOf(
    const std::string &kernel,
    std::initializer_list<std::pair<const char *, const char *>> params) {
  KernelMetadata meta;
  meta.kernel = kernel;
  for (const auto &[name, type] : params)
    meta.params.push_back({name, *ParamType::parse(type)});
  return meta;
}

/// The fake CUDA driver ($TILEC_TEST_FAKE_CUDA_DRIVER if set, else the one
/// built beside the tests).
inline std::string fakeCudaDriver() {
  const char *path = std::getenv("TILEC_TEST_FAKE_CUDA_DRIVER");
  return path && *path ? path : TILEC_FAKE_CUDA_DRIVER;
}

/// Runs the tests \p filter in a child process whose CUDA driver is the fake
/// one; expects \p passed of them to pass.
inline void expectPassOnFakeGpu(const std::string &filter, int passed = 1) {
  ChildResult r = runSelf(filter, {{"TILEC_CUDA_DRIVER", fakeCudaDriver()}});
  EXPECT_CHILD_PASSED(r, passed);
}

/// In the child that expectPassOnFakeGpu() starts (for the test \p parent):
/// runs \p checks on the fake GPU. Skips the test in any other process.
inline void onFakeGpu(const std::string &parent,
                      const std::function<void(Device &)> &checks) {
  if (!isTestChild())
    GTEST_SKIP() << "runs as a child of " << parent;
  Device device = Device::open(0);
  ASSERT_EQ(device.name(), "Fake GPU (tilec tests)");
  checks(device);
}

/// Why this test cannot use GPU 0 of a real CUDA driver ("" if it can): no
/// driver, no GPU, or a child process (whose driver may be the fake one).
inline std::string whyNoRealGpu() {
  if (isTestChild())
    return "a child process (its driver may be a fake)";
  std::string why;
  if (!Device::driverAvailable(&why))
    return "no GPU: " + why;
  if (Device::count() == 0)
    return "no GPU: no CUDA GPU";
  return "";
}

/// Runs \p checks on GPU 0 of a real CUDA driver; skips without one.
inline void onRealGpu(const std::function<void(Device &)> &checks) {
  std::string why = whyNoRealGpu();
  if (!why.empty())
    GTEST_SKIP() << why;
  Device device = Device::open(0);
  checks(device);
}

/// A test on GPU 0 of a real CUDA driver (`device`); skipped without one.
class RealGpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string why = whyNoRealGpu();
    if (!why.empty())
      GTEST_SKIP() << why;
    device = Device::open(0);
  }
  Device device;
};

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_TESTSUPPORT_HOSTAPI_H
