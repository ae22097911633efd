//===- JITBadInputTest.cpp - Bad input at the JIT host API ----------------===//
//
// tilec::Compiler with a device, given what a user gets wrong: a missing or
// unreadable file, an unknown kernel name, a kernel that does not compile,
// then launches of a JIT-compiled kernel with the wrong argument count or
// types, null buffers, and grids of 0 or beyond the device's limits; and
// no GPU at all. Each must be a tilec::Error that says what is wrong.
//
// The checks run three ways: in a child process whose CUDA driver is a
// missing library (no GPU: everything but compiling to PTX fails clearly),
// in a child whose driver is the fake of test/unit/Runtime/FakeCudaDriver.h
// (the full load and launch path without a GPU: CI, sanitizers), and on a
// real GPU when there is one (skipped otherwise).
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "TestSupport/Contains.h"
#include "TestSupport/HostApi.h"

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <functional>

using namespace tilec;
using namespace tilec::test;

namespace {

/// Compiling through a Compiler with \p device: files and kernels that are
/// not there, sources that do not compile.
void checkBadCompiles(Device &device) {
  Compiler cc(device, memoryOnly());
  std::string vectorAdd = examplePath("vector_add.tile");

  EXPECT_EQ(messageOf([&] { cc.compileFile("/nonexistent/k.tile", "k"); }),
            "tilec: cannot read '/nonexistent/k.tile': No such file or "
            "directory");
  std::string dir = freshDir("badinput_dir");
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  EXPECT_EQ(messageOf([&] { cc.compileFile(dir, "k"); }),
            "tilec: cannot read '" + dir + "': Is a directory");
  std::string what =
      messageOf([&] { cc.compileFile(vectorAdd, "no_such_kernel"); });
  EXPECT_TRUE(contains(what, "no_such_kernel"));
  EXPECT_TRUE(contains(what, "vector_add")); // The one there is.
  EXPECT_EQ(messageOf([&] { cc.compileFile(vectorAdd, ""); }),
            "tilec: no kernel name given for '" + vectorAdd + "'");
  what = messageOf(
      [&] { cc.compileSource("@kernel\ndef k(:\n", "broken.tile", "k"); });
  EXPECT_TRUE(contains(what, "broken.tile:2:"));
  EXPECT_TRUE(contains(what, "error:"));
  what = messageOf(
      [&] { cc.compileFile(vectorAdd, "vector_add", {{"BLOCK", 100}}); });
  EXPECT_TRUE(contains(what, "not a power of two"));
  EXPECT_TRUE(contains(what, vectorAdd + ":"));
}

/// Launches of the JIT-compiled vector_add that must fail before the
/// driver sees them.
void checkBadLaunches(Device &device) {
  Compiler cc(device, memoryOnly());
  Kernel k = cc.compileFile(examplePath("vector_add.tile"), "vector_add",
                            {{"BLOCK", 256}});
  const std::string sig = "vector_add(out: *f32, x: *f32, y: *f32, n: i32)";
  Buffer<float> a = device.alloc<float>(1000), b = device.alloc<float>(1000),
                c = device.alloc<float>(1000);
  Buffer<double> d = device.alloc<double>(1000);

  Buffer<float> empty;
  std::array<std::int64_t, 3> max = device.maxGridSize();
  const std::string where = describe(device);
  const std::string holding =
      "; pass a Buffer<float> or DevicePtr<float> holding device memory";
  struct Case {
    std::function<void()> launch;
    std::string message;
  } cases[] = {
      {[&] { k.launch({4}, c, a, b); },
       "kernel 'vector_add' takes 4 arguments, got 3; its signature is " + sig},
      {[&] { k.launch({4}, c, a, b, 1000, 1); },
       "kernel 'vector_add' takes 4 arguments, got 5; its signature is " + sig},
      {[&] { k.launch({4}, c, d, b, 1000); },
       "kernel 'vector_add': argument 2 (x: *f32): expected a Buffer<float> "
       "or DevicePtr<float>, got Buffer<double>"},
      {[&] { k.launch({4}, c, a, b, 1000.0f); },
       "kernel 'vector_add': argument 4 (n: i32): expected an integer, got "
       "float 1000"},
      {[&] { k.launch({4}, c, a, 7, 1000); },
       "kernel 'vector_add': argument 3 (y: *f32): expected a Buffer<float> "
       "or DevicePtr<float>, got int32_t 7"},
      {[&] { k.launch({4}, c, a, empty, 1000); },
       "kernel 'vector_add': argument 3 (y: *f32): Buffer<float> is null (an "
       "empty or moved-from Buffer)" +
           holding},
      {[&] { k.launch({4}, DevicePtr<float>(), a, b, 1000); },
       "kernel 'vector_add': argument 1 (out: *f32): DevicePtr<float> is null "
       "(a null device address)" +
           holding},
      {[&] { k.launch({0}, c, a, b, 1000); },
       "kernel 'vector_add': invalid grid (0, 1, 1): grid.x must be in [1, " +
           std::to_string(max[0]) + "] on " + where},
      {[&] { k.launch({1, 1, max[2] + 1}, c, a, b, 1000); },
       "kernel 'vector_add': invalid grid (1, 1, " +
           std::to_string(max[2] + 1) + "): grid.z must be in [1, " +
           std::to_string(max[2]) + "] on " + where},
      {[&] { k.launch({max[0] + 1}, c, a, b, 1000); },
       "kernel 'vector_add': invalid grid (" + std::to_string(max[0] + 1) +
           ", 1, 1): grid.x must be in [1, " + std::to_string(max[0]) +
           "] on " + where},
  };
  for (const Case &bad : cases)
    EXPECT_EQ(messageOf(bad.launch), bad.message);
}

/// The same with a good launch after the bad ones, and its result checked
/// when \p check (a real GPU).
void checkGoodLaunch(Device &device, bool check) {
  Compiler cc(device, memoryOnly());
  Kernel k = cc.compileFile(examplePath("vector_add.tile"), "vector_add",
                            {{"BLOCK", 256}});
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1000.0f - i;
  }
  Buffer<float> a = device.alloc<float>(n), b = device.alloc<float>(n),
                c = device.alloc<float>(n);
  a.copyFrom(x);
  b.copyFrom(y);
  c.poison();
  k.launch({(n + 255) / 256}, c, a, b, n);
  if (!check)
    return;
  std::vector<float> out = c.toVector();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], x[i] + y[i]) << i;
}

} // namespace

//===----------------------------------------------------------------------===//
// No GPU: the CUDA driver is a library that is not there
//===----------------------------------------------------------------------===//

/// The child of JITBadInput.NoGpu.
TEST(JITNoGpuChild, CompilesButCannotLoad) {
  if (!isTestChild())
    GTEST_SKIP() << "runs as a child of JITBadInput.NoGpu";
  const std::string why =
      "cannot load the CUDA driver (/nonexistent/libcuda.so.1): "
      "/nonexistent/libcuda.so.1: cannot open shared object file: No such "
      "file or directory; is an NVIDIA GPU driver installed?";
  EXPECT_EQ(messageOf([] { Device::open(0); }), why);
  EXPECT_EQ(messageOf([] { Compiler cc(Device::open(0)); }), why);
  EXPECT_EQ(messageOf([] { Compiler cc{Device()}; }),
            "tilec: Compiler(Device): the device is not open (call "
            "Device::open first; to compile to PTX without a GPU, use "
            "Compiler(Options))");
  Compiler cc(memoryOnly());
  std::string path = examplePath("vector_add.tile");
  EXPECT_EQ(messageOf([&] { cc.compileFile(path, "vector_add"); }),
            "tilec: cannot load kernel 'vector_add': this Compiler has no "
            "device (it was made with Compiler(Options)); use "
            "compileFileToPTX or compileSourceToPTX, or make it with "
            "Device::open()");
  // Compiling to PTX needs no GPU.
  CompiledKernel k = cc.compileFileToPTX(path, "vector_add");
  EXPECT_TRUE(contains(k.binary, ".visible .entry vector_add("));
  EXPECT_EQ(cc.arch(), "sm_90");
}

TEST(JITBadInput, NoGpu) {
  ChildResult r = runSelf("JITNoGpuChild.*",
                          {{"TILEC_CUDA_DRIVER", "/nonexistent/libcuda.so.1"}});
  EXPECT_CHILD_PASSED(r, 1);
}

//===----------------------------------------------------------------------===//
// The fake driver: the whole path without a GPU
//===----------------------------------------------------------------------===//

/// The child of JITBadInput.OnAFakeGpu.
TEST(JITFakeGpuChild, BadInput) {
  onFakeGpu("JITBadInput.OnAFakeGpu", [](Device &device) {
    checkBadCompiles(device);
    checkBadLaunches(device);
    checkGoodLaunch(device, /*check=*/false); // The fake checks the ABI.
  });
}

TEST(JITBadInput, OnAFakeGpu) { expectPassOnFakeGpu("JITFakeGpuChild.*"); }

//===----------------------------------------------------------------------===//
// A real GPU (skipped without one)
//===----------------------------------------------------------------------===//

TEST(JITBadInput, OnTheGpu) {
  onRealGpu([](Device &device) {
    checkBadCompiles(device);
    checkBadLaunches(device);
    checkGoodLaunch(device, /*check=*/true);
  });
}
