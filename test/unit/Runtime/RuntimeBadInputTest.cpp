//===- RuntimeBadInputTest.cpp - Bad input at the runtime API -------------===//
//
// Every misuse of the host API gets a clear tilec::Error and never reaches
// the driver: no CUDA driver (a missing library, a library that is not a
// CUDA driver, cuInit failing, no GPU), wrong argument counts and types,
// null buffers, grids of 0 or beyond the device's limits, allocations too
// large, null host pointers, kernels that are not in their module or cannot
// run on the device, missing kernel files.
//
// Each driver is loaded once per process, so the tests that need another
// one run as child processes (TestSupport/ChildProcess.h) with
// TILEC_CUDA_DRIVER set: to a missing library, to libm, or to the fake driver
// of FakeCudaDriver.h, on which the whole runtime runs without a GPU -- so
// these checks run in CI and under ASan/UBSan. The same checks then run on a
// real GPU when there is one (RealGpu.*; skipped otherwise).
//
//===----------------------------------------------------------------------===//

#include "AxpyKernel.h"
#include "FakeCudaDriver.h"

#include "TestSupport/ChildProcess.h"
#include "TestSupport/Contains.h"
#include "TestSupport/HostApi.h"

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <limits>
#include <thread>

using namespace tilec;
using namespace tilec::test;

namespace {

/// The fake driver's state, when this process loaded the fake driver.
fake::FakeCudaState *fakeState() {
  void *library = ::dlopen(fakeCudaDriver().c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!library)
    return nullptr;
  auto fn = reinterpret_cast<fake::StateFn>(
      ::dlsym(library, "tilec_fake_cuda_state"));
  ::dlclose(library);
  return fn ? fn() : nullptr;
}

//===----------------------------------------------------------------------===//
// The checks, run on the fake driver and on a real GPU
//===----------------------------------------------------------------------===//

/// Launches that must fail in the runtime, before the driver sees them.
void checkBadLaunches(Device &device) {
  Kernel k = Kernel::load(device, kAxpyPtx, axpyMeta());
  Buffer<float> x = device.alloc<float>(4), y = device.alloc<float>(4);
  Buffer<int> ints = device.alloc<int>(4);
  const std::string sig = "axpy(out: *f32, x: *f32, a: f32, n: i32)";

  // Argument count.
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, x, 2.0f); }),
            "kernel 'axpy' takes 4 arguments, got 3; its signature is " + sig);
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, x, 2.0f, 4, 5); }),
            "kernel 'axpy' takes 4 arguments, got 5; its signature is " + sig);
  EXPECT_EQ(messageOf([&] { k.launch({1}); }),
            "kernel 'axpy' takes 4 arguments, got 0; its signature is " + sig);

  // Argument types.
  EXPECT_EQ(messageOf([&] { k.launch({1}, ints, x, 2.0f, 4); }),
            "kernel 'axpy': argument 1 (out: *f32): expected a Buffer<float> "
            "or DevicePtr<float>, got Buffer<int32_t>");
  EXPECT_EQ(messageOf([&] { k.launch({1}, 0, x, 2.0f, 4); }),
            "kernel 'axpy': argument 1 (out: *f32): expected a Buffer<float> "
            "or DevicePtr<float>, got int32_t 0");
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, x, x, 4); }),
            "kernel 'axpy': argument 3 (a: f32): expected a floating-point "
            "value, got Buffer<float>");
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, x, 2.0f, 4.0); }),
            "kernel 'axpy': argument 4 (n: i32): expected an integer, got "
            "double 4");
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, x, 2.0f, 1ll << 40); }),
            "kernel 'axpy': argument 4 (n: i32): int64_t 1099511627776 is out "
            "of range for i32 [-2147483648, 2147483647]");

  // Null buffers: empty, moved-from, zero-sized, null pointers.
  const std::string nullBuffer =
      " is null (an empty or moved-from Buffer); pass a Buffer<float> or "
      "DevicePtr<float> holding device memory";
  Buffer<float> empty;
  EXPECT_EQ(messageOf([&] { k.launch({1}, empty, x, 2.0f, 4); }),
            "kernel 'axpy': argument 1 (out: *f32): Buffer<float>" +
                nullBuffer);
  Buffer<float> moved = device.alloc<float>(4);
  Buffer<float> target = std::move(moved);
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, moved, 2.0f, 4); }),
            "kernel 'axpy': argument 2 (x: *f32): Buffer<float>" + nullBuffer);
  Buffer<float> none = device.alloc<float>(0);
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, none, 2.0f, 0); }),
            "kernel 'axpy': argument 2 (x: *f32): Buffer<float>" + nullBuffer);
  EXPECT_EQ(messageOf([&] { k.launch({1}, DevicePtr<float>(), x, 2.0f, 4); }),
            "kernel 'axpy': argument 1 (out: *f32): DevicePtr<float> is null "
            "(a null device address); pass a Buffer<float> or "
            "DevicePtr<float> holding device memory");
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, DevicePtr<void>(), 2.0f, 4); }),
            "kernel 'axpy': argument 2 (x: *f32): DevicePtr<void> is null (a "
            "null device address); pass a Buffer<float> or DevicePtr<float> "
            "holding device memory");

  // Grids of 0, negative or beyond the device's limits, on every axis.
  std::array<std::int64_t, 3> max = device.maxGridSize();
  auto gridError = [&](const std::string &grid, const char *axis, int i) {
    return "kernel 'axpy': invalid grid " + grid + ": grid." + axis +
           " must be in [1, " + std::to_string(max[i]) + "] on " +
           describe(device);
  };
  EXPECT_EQ(messageOf([&] { k.launch({0}, y, x, 2.0f, 4); }),
            gridError("(0, 1, 1)", "x", 0));
  EXPECT_EQ(messageOf([&] { k.launch({1, 0}, y, x, 2.0f, 4); }),
            gridError("(1, 0, 1)", "y", 1));
  EXPECT_EQ(messageOf([&] { k.launch({1, 1, 0}, y, x, 2.0f, 4); }),
            gridError("(1, 1, 0)", "z", 2));
  EXPECT_EQ(messageOf([&] { k.launch({-3}, y, x, 2.0f, 4); }),
            gridError("(-3, 1, 1)", "x", 0));
  EXPECT_EQ(messageOf([&] { k.launch({max[0] + 1}, y, x, 2.0f, 4); }),
            gridError("(" + std::to_string(max[0] + 1) + ", 1, 1)", "x", 0));
  EXPECT_EQ(messageOf([&] { k.launch({1, max[1] + 1}, y, x, 2.0f, 4); }),
            gridError("(1, " + std::to_string(max[1] + 1) + ", 1)", "y", 1));
  EXPECT_EQ(messageOf([&] { k.launch({1, 1, max[2] + 1}, y, x, 2.0f, 4); }),
            gridError("(1, 1, " + std::to_string(max[2] + 1) + ")", "z", 2));
  EXPECT_EQ(messageOf([&] { k.launch({~std::size_t(0)}, y, x, 2.0f, 4); }),
            gridError("(9223372036854775807, 1, 1)", "x", 0));
  // A grid that is wrong and arguments that are wrong: the arguments first.
  EXPECT_EQ(messageOf([&] { k.launch({0}, y, x, 2.0f); }),
            "kernel 'axpy' takes 4 arguments, got 3; its signature is " + sig);

  // A stream anywhere but last; an empty kernel.
  Stream stream(device);
  EXPECT_EQ(messageOf([&] { k.launch({1}, y, stream, x, 2.0f, 4); }),
            "tilec: kernel 'axpy': a Stream, then LaunchOptions, must be the "
            "last launch arguments");
  Kernel nothing;
  EXPECT_EQ(messageOf([&] { nothing.launch({1}, y, x, 2.0f, 4); }),
            "tilec: use of an empty Kernel (load or compile one first)");
}

/// Allocations and copies that must fail with a clear error.
void checkBadMemory(Device &device) {
  EXPECT_EQ(messageOf([&] {
              device.alloc<float>(std::numeric_limits<std::size_t>::max());
            }),
            "tilec: Buffer of 18446744073709551615 elements is too large");
  const std::size_t petabyte = std::size_t(1) << 50;
  EXPECT_EQ(messageOf([&] { device.alloc<char>(petabyte); }),
            "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory) "
            "while allocating 1125899906842624 bytes on " +
                describe(device));
  Buffer<float> b = device.alloc<float>(8);
  EXPECT_EQ(messageOf([&] { b.copyFrom(static_cast<const float *>(nullptr)); }),
            "tilec: Buffer::copyFrom: the host pointer is null (32 bytes to "
            "copy)");
  EXPECT_EQ(messageOf([&] { b.copyTo(nullptr); }),
            "tilec: Buffer::copyTo: the host pointer is null (32 bytes to "
            "copy)");
  EXPECT_EQ(messageOf([&] { b.copyFrom(std::vector<float>(7)); }),
            "tilec: Buffer::copyFrom: the source has 7 elements, the buffer 8");
  Buffer<float> other = device.alloc<float>(9);
  EXPECT_EQ(messageOf([&] { b.copyFrom(other); }),
            "tilec: Buffer::copyFrom: the source has 9 elements, the buffer 8");
  // The buffer still works after all that.
  std::vector<float> host = {1, 2, 3, 4, 5, 6, 7, 8};
  b.copyFrom(host);
  EXPECT_EQ(b.toVector(), host);
}

/// Kernels that cannot be loaded, and kernel files that are not there.
void checkBadLoads(Device &device) {
  std::string where = describe(device);
  KernelMetadata meta = axpyMeta();

  std::string bad = ".version 7.0\n.target sm_70\n.address_size 64\n"
                    ".visible .entry axpy() { bogus.instruction; }\n";
  KernelMetadata noParams = meta; // As the bad PTX's .entry.
  noParams.params.clear();
  std::string message = messageOf([&] { Kernel::load(device, bad, noParams); });
  EXPECT_TRUE(startsWith(message,
                         "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a "
                         "PTX JIT compilation failed) while loading kernel "
                         "'axpy' (PTX, " +
                             std::to_string(bad.size()) + " bytes) on " +
                             where + "\nJIT error log:\n"))
      << message;
  EXPECT_NE(message.back(), '\n') << message; // The log is trimmed.

  KernelMetadata missing = meta;
  missing.kernel = "nothere";
  EXPECT_EQ(messageOf([&] { Kernel::load(device, kAxpyPtx, missing); }),
            "kernel 'nothere' is not a .entry of the PTX (with a parameter "
            "list that reads): the metadata's \"kernel\" must name a "
            ".visible .entry of the PTX");
  // A stale .json: another parameter list than the PTX's .entry (issue
  // 25: this crashed inside cuLaunchKernel).
  KernelMetadata stale = meta;
  stale.params.pop_back();
  EXPECT_EQ(messageOf([&] { Kernel::load(device, kAxpyPtx, stale); }),
            "kernel 'axpy': the metadata lists " +
                std::to_string(stale.params.size()) + " parameters (" +
                stale.signature() + ") but the PTX .entry has " +
                std::to_string(meta.params.size()) + " (a stale .json?)");
  KernelMetadata wider = meta;
  wider.params.back().type = *ParamType::parse("i64");
  EXPECT_TRUE(startsWith(
      messageOf([&] { Kernel::load(device, kAxpyPtx, wider); }),
      "kernel 'axpy': parameter " + std::to_string(meta.params.size() - 1)))
      << messageOf([&] { Kernel::load(device, kAxpyPtx, wider); });
  KernelMetadata unnamed = meta;
  unnamed.kernel = "";
  EXPECT_EQ(messageOf([&] { Kernel::load(device, kAxpyPtx, unnamed); }),
            "tilec: kernel metadata without a kernel name");

  KernelMetadata future = meta;
  future.arch = "sm_990";
  EXPECT_TRUE(
      startsWith(messageOf([&] { Kernel::load(device, kAxpyPtx, future); }),
                 "kernel 'axpy' was compiled for sm_990, which " + where +
                     " cannot run; recompile with --arch=" + device.arch()));

  KernelMetadata warps = meta;
  warps.numWarps = 64;
  EXPECT_EQ(messageOf([&] { Kernel::load(device, kAxpyPtx, warps); }),
            "kernel 'axpy': num_warps = 64 is outside [1, 32] on " + where);
  warps.numWarps = 0;
  EXPECT_EQ(messageOf([&] { Kernel::load(device, kAxpyPtx, warps); }),
            "kernel 'axpy': num_warps = 0 is outside [1, 32] on " + where);

  KernelMetadata shared = meta;
  shared.sharedBytes = device.maxSharedMemoryPerBlockOptin() + 1;
  EXPECT_TRUE(
      startsWith(messageOf([&] { Kernel::load(device, kAxpyPtx, shared); }),
                 "kernel 'axpy' needs " + std::to_string(shared.sharedBytes) +
                     " bytes of shared memory per block, but " + where));

  EXPECT_EQ(messageOf([&] { Kernel::load(device, "not a kernel", meta); }),
            "kernel 'axpy': the binary (12 bytes) is neither PTX with an "
            ".entry nor a cubin/fatbin");
  EXPECT_EQ(messageOf([&] { Kernel::load(device, "", meta); }),
            "kernel 'axpy': the binary (0 bytes) is neither PTX with an "
            ".entry nor a cubin/fatbin");

  // Kernel files: no binary; a binary without its metadata.
  std::string dir = ::testing::TempDir() + "tilec_badload_" +
                    std::to_string(::getpid()) + "_";
  EXPECT_EQ(messageOf([&] { Kernel::loadFiles(device, dir + "none.ptx"); }),
            "cannot read kernel '" + dir +
                "none.ptx': No such file or "
                "directory");
  // A directory where the binary or the metadata should be.
  std::string sub = dir + "dir.ptx";
  ASSERT_EQ(std::system(("mkdir -p '" + sub + "'").c_str()), 0);
  EXPECT_EQ(messageOf([&] { Kernel::loadFiles(device, sub); }),
            "cannot read kernel '" + sub + "': Is a directory");
  std::ofstream(dir + "meta.ptx") << kAxpyPtx;
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "meta.json'").c_str()), 0);
  EXPECT_EQ(messageOf([&] { Kernel::loadFiles(device, dir + "meta.ptx"); }),
            "cannot read kernel metadata '" + dir +
                "meta.json': Is a directory");
  std::ofstream(dir + "lonely.ptx") << kAxpyPtx;
  message = messageOf([&] { Kernel::loadFiles(device, dir + "lonely.ptx"); });
  EXPECT_TRUE(startsWith(message, "cannot read kernel metadata '" + dir +
                                      "lonely.json'"))
      << message;
  EXPECT_EQ(std::system(("rm -rf '" + dir + "'*").c_str()), 0);
}

} // namespace

//===----------------------------------------------------------------------===//
// Without a driver (each in a child process)
//===----------------------------------------------------------------------===//

/// The child of the NoDriver tests: every entry point that needs the
/// driver fails with TILEC_TEST_EXPECT (a prefix of the message), the same
/// message each time.
TEST(NoDriverChild, EveryEntryPointSaysWhy) {
  if (!isTestChild())
    GTEST_SKIP() << "runs as a child of the NoDriver tests";
  const char *expected = std::getenv("TILEC_TEST_EXPECT");
  ASSERT_NE(expected, nullptr);
  std::string why;
  EXPECT_FALSE(Device::driverAvailable(&why));
  EXPECT_TRUE(startsWith(why, expected)) << why;
  EXPECT_EQ(messageOf([] { Device::open(0); }), why);
  EXPECT_EQ(messageOf([] { Device::open(3); }), why);
  EXPECT_EQ(messageOf([] { Device::count(); }), why);
  EXPECT_EQ(messageOf([] { Device::open(0); }), why); // Not only the first.
  // Objects made without a driver throw without touching it.
  Device none;
  EXPECT_EQ(messageOf([&] { none.alloc<float>(1); }),
            "tilec: use of an unopened Device (call Device::open first)");
  EXPECT_EQ(messageOf([&] { Stream s(none); }),
            "tilec: use of an unopened Device (call Device::open first)");
  EXPECT_EQ(messageOf([&] { Kernel::load(none, kAxpyPtx, axpyMeta()); }),
            "tilec: use of an unopened Device (call Device::open first)");
  EXPECT_EQ(messageOf([&] { compilePtxToCubin(none, kAxpyPtx); }), why);
}

TEST(NoDriver, MissingLibrary) {
  const std::string library = "/nonexistent/libcuda.so.1";
  ChildResult r =
      runSelf("NoDriverChild.*",
              {{"TILEC_CUDA_DRIVER", library},
               {"TILEC_TEST_EXPECT",
                "cannot load the CUDA driver (" + library + "): " + library +
                    ": cannot open shared "
                    "object file: No such file or directory; "
                    "is an NVIDIA GPU driver installed?"}});
  EXPECT_CHILD_PASSED(r, 1);
}

TEST(NoDriver, LibraryThatIsNotACudaDriver) {
  ChildResult r =
      runSelf("NoDriverChild.*",
              {{"TILEC_CUDA_DRIVER", "libm.so.6"},
               {"TILEC_TEST_EXPECT",
                "the CUDA driver (libm.so.6) lacks the entry points cuInit, "
                "cuDriverGetVersion, cuGetErrorName, "}});
  EXPECT_CHILD_PASSED(r, 1);
}

TEST(NoDriver, CuInitFails) {
  ChildResult r =
      runSelf("NoDriverChild.*",
              {{"TILEC_CUDA_DRIVER", fakeCudaDriver()},
               {"TILEC_FAKE_CUDA", "init-fails"},
               {"TILEC_TEST_EXPECT", "cuInit failed: CUDA_ERROR_NO_DEVICE (no "
                                     "CUDA-capable device is detected)"}});
  EXPECT_CHILD_PASSED(r, 1);
}

/// The child of NoDriver.DriverWithoutGpus.
TEST(NoGpuChild, OpenSaysThereIsNone) {
  if (!isTestChild())
    GTEST_SKIP() << "runs as a child of NoDriver.DriverWithoutGpus";
  std::string why;
  EXPECT_TRUE(Device::driverAvailable(&why)) << why;
  EXPECT_EQ(Device::count(), 0);
  EXPECT_EQ(messageOf([] { Device::open(0); }),
            "no CUDA device with ordinal 0; this machine has no CUDA GPU");
  EXPECT_EQ(messageOf([] { Device::open(-1); }),
            "no CUDA device with ordinal -1; this machine has no CUDA GPU");
}

TEST(NoDriver, DriverWithoutGpus) {
  ChildResult r =
      runSelf("NoGpuChild.*", {{"TILEC_CUDA_DRIVER", fakeCudaDriver()},
                               {"TILEC_FAKE_CUDA", "no-devices"}});
  EXPECT_CHILD_PASSED(r, 1);
}

//===----------------------------------------------------------------------===//
// On the fake driver (in a child process)
//===----------------------------------------------------------------------===//

/// Runs the FakeGpuChild tests in a process whose CUDA driver is the fake.
TEST(FakeGpu, RuntimeOnAFakeDriver) {
  expectPassOnFakeGpu("FakeGpuChild.*", 10);
}

namespace {
/// Tests of the runtime on the fake driver; skipped unless this process
/// is a child that loaded it.
class FakeGpuChild : public ::testing::Test {
protected:
  void SetUp() override {
    if (!isTestChild())
      GTEST_SKIP() << "runs as a child of FakeGpu.RuntimeOnAFakeDriver";
    device = Device::open(0);
    state = fakeState();
    ASSERT_NE(state, nullptr) << "the fake CUDA driver is not loaded";
    before = *state;
  }
  void TearDown() override {
    if (!state)
      return;
    device = Device();
    // Everything a test made is released with its last handle.
    EXPECT_EQ(state->liveAllocations, before.liveAllocations);
    EXPECT_EQ(state->liveModules, before.liveModules);
    EXPECT_EQ(state->liveStreams, before.liveStreams);
    EXPECT_EQ(state->liveEvents, before.liveEvents);
    EXPECT_EQ(state->primaryContextRefs, 0);
  }
  Device device;
  fake::FakeCudaState *state = nullptr;
  fake::FakeCudaState before;
};
} // namespace

TEST_F(FakeGpuChild, Properties) {
  EXPECT_EQ(device.name(), "Fake GPU (tilec tests)");
  EXPECT_EQ(device.arch(), "sm_90");
  EXPECT_EQ(device.multiprocessorCount(), 132);
  EXPECT_EQ(device.maxSharedMemoryPerBlockOptin(), 227u * 1024);
  EXPECT_EQ(device.maxGridSize(),
            (std::array<std::int64_t, 3>{2147483647, 65535, 65535}));
  EXPECT_EQ(Device::count(), 1);
  EXPECT_EQ(messageOf([] { Device::open(1); }),
            "no CUDA device with ordinal 1; this machine has 1 (ordinals 0 "
            "to 0)");
}

TEST_F(FakeGpuChild, DependentLaunch) {
  // LaunchOptions{dependentLaunch}: cuLaunchKernelEx with programmatic
  // stream serialization (the fake device is sm_90), after the Stream.
  Kernel k = Kernel::load(device, kAxpyPtx, axpyMeta());
  Buffer<float> x = device.alloc<float>(64), y = device.alloc<float>(64);
  Stream stream(device);
  LaunchOptions dependent;
  dependent.dependentLaunch = true;
  k.launch({1}, y, x, 1.0f, 64, stream, dependent);
  EXPECT_EQ(state->launches, before.launches + 1);
  EXPECT_EQ(state->dependentLaunches, before.dependentLaunches + 1);
  EXPECT_EQ(state->lastLaunchDependent, 1);
  EXPECT_EQ(state->params[3], 64u);
  k.launch({1}, y, x, 1.0f, 64, dependent);
  EXPECT_EQ(state->dependentLaunches, before.dependentLaunches + 2);
  k.launch({1}, y, x, 1.0f, 64, LaunchOptions());
  EXPECT_EQ(state->lastLaunchDependent, 0);
  EXPECT_EQ(state->dependentLaunches, before.dependentLaunches + 2);
  // Packed arguments too (the C ABI and Python path).
  std::uint64_t packed[4] = {y.data().address(), x.data().address(), 0, 64};
  k.launchPacked({1}, packed, sizeof(packed), nullptr, dependent);
  EXPECT_EQ(state->dependentLaunches, before.dependentLaunches + 3);
  EXPECT_TRUE(contains(
      messageOf([&] { k.launch({1}, y, x, dependent, 1.0f, 64); }),
      "a Stream, then LaunchOptions, must be the last launch arguments"));
  EXPECT_TRUE(contains(
      messageOf([&] { k.launch({1}, y, x, 1.0f, 64, dependent, stream); }),
      "a Stream, then LaunchOptions, must be the last launch arguments"));
}

TEST_F(FakeGpuChild, LaunchPassesTheArguments) {
  Kernel k = Kernel::load(device, kAxpyPtx, axpyMeta());
  EXPECT_EQ(k.numRegisters(), 40);
  Buffer<float> x = device.alloc<float>(1000), y = device.alloc<float>(1000);
  k.launch({8}, y, x.data() + 10, -2.5f, 990);
  EXPECT_EQ(state->launches, before.launches + 1);
  EXPECT_STREQ(state->kernel, "axpy");
  EXPECT_EQ(state->grid[0], 8u);
  EXPECT_EQ(state->grid[1], 1u);
  EXPECT_EQ(state->block[0], 128u);
  EXPECT_EQ(state->sharedBytes, 0u);
  ASSERT_EQ(state->numParams, 4);
  EXPECT_EQ(state->params[0], y.data().address());
  EXPECT_EQ(state->params[1], x.data().address() + 40);
  float a = -2.5f;
  std::uint32_t bits;
  std::memcpy(&bits, &a, 4);
  EXPECT_EQ(state->params[2], bits);
  EXPECT_EQ(state->params[3], 990u);
  // On a stream, timed.
  Stream stream(device);
  Timer timer(device, stream);
  timer.start();
  k.launch({2, 3, 4}, y, x, 1.0f, 5, stream);
  EXPECT_EQ(timer.stop(), 0.25f);
  stream.synchronize();
  device.synchronize();
  EXPECT_EQ(state->grid[2], 4u);
  EXPECT_EQ(state->failedCalls, before.failedCalls);
}

TEST_F(FakeGpuChild, SpareRegistersAreSpent) {
  // axpy with a block size and the registers a JIT gives it.
  auto withRegisters = [](int registers) {
    std::string ptx = kAxpyPtx;
    ptx.replace(ptx.find(")\n{"), 3,
                ")\n.reqntid 128, 1, 1\n{\n// fake num_regs " +
                    std::to_string(registers) +
                    "\n// fake num_regs_spent 124\n");
    return ptx;
  };
  // 100 registers for 128 threads: 4 blocks per SM, which 128 registers
  // keep as well; the JIT runs again with `.minnctapersm 4`.
  Kernel k = Kernel::load(device, withRegisters(100), axpyMeta());
  EXPECT_EQ(state->moduleLoads, before.moduleLoads + 2);
  EXPECT_EQ(state->lastMinCtasPerSM, 4);
  EXPECT_EQ(k.numRegisters(), 124);
  // 120: 8 spare, not worth it; loaded once, as written.
  Kernel once = Kernel::load(device, withRegisters(120), axpyMeta());
  EXPECT_EQ(state->moduleLoads, before.moduleLoads + 3);
  EXPECT_EQ(state->lastMinCtasPerSM, 0);
  EXPECT_EQ(once.numRegisters(), 120);
  EXPECT_EQ(state->failedCalls, before.failedCalls);
  // A JIT that rejects the edited PTX: the kernel stays as it loaded.
  Kernel kept = Kernel::load(
      device, withRegisters(100) + "// fake reject_minnctapersm\n", axpyMeta());
  EXPECT_EQ(state->moduleLoads, before.moduleLoads + 4);
  EXPECT_EQ(state->lastMinCtasPerSM, 0);
  EXPECT_EQ(state->failedCalls, before.failedCalls + 1);
  EXPECT_EQ(kept.numRegisters(), 100);
}

TEST_F(FakeGpuChild, BadLaunchesNeverReachTheDriver) {
  checkBadLaunches(device);
  EXPECT_EQ(state->launches, before.launches);
  EXPECT_EQ(state->failedCalls, before.failedCalls);
}

TEST_F(FakeGpuChild, BadMemory) {
  checkBadMemory(device);
  // Only the petabyte allocation reached the driver (and failed there).
  EXPECT_EQ(state->failedCalls, before.failedCalls + 1);
}

TEST_F(FakeGpuChild, BadLoads) {
  checkBadLoads(device);
  EXPECT_EQ(state->liveModules, before.liveModules); // None leaked.
  EXPECT_EQ(messageOf([&] { compilePtxToCubin(device, kAxpyPtx); }),
            "the CUDA driver has no cuLink API (cuLinkCreate_v2); cannot turn "
            "PTX into a cubin with it");
}

TEST_F(FakeGpuChild, SharedMemoryAbove48KIsOptedIn) {
  KernelMetadata meta = axpyMeta();
  meta.sharedBytes = 100000;
  Kernel k = Kernel::load(device, kAxpyPtx, meta);
  Buffer<float> x = device.alloc<float>(4);
  k.launch({1}, x, x, 1.0f, 4); // The fake refuses > 48 KB without opt-in.
  EXPECT_EQ(state->sharedBytes, 100000u);
  EXPECT_EQ(state->failedCalls, before.failedCalls);
}

TEST_F(FakeGpuChild, HandlesOutliveTheDevice) {
  Kernel k;
  Buffer<float> b;
  {
    Device d = Device::open(0);
    k = Kernel::load(d, kAxpyPtx, axpyMeta());
    b = d.alloc<float>(16);
  }
  device = Device();
  EXPECT_GT(state->primaryContextRefs, 0); // Held by k and b.
  k.launch({1}, b, b, 1.0f, 16);
  b.fill(1.5f);
  EXPECT_EQ(b.toVector(), std::vector<float>(16, 1.5f));
  k = Kernel();
  b = Buffer<float>();
  EXPECT_EQ(state->primaryContextRefs, 0);
  EXPECT_EQ(state->failedCalls, before.failedCalls);
}

TEST_F(FakeGpuChild, ThreadsShareTheRuntime) {
  // Each thread launches and copies with the context made current for it
  // (the fake refuses calls on a thread without one).
  Kernel k = Kernel::load(device, kAxpyPtx, axpyMeta());
  std::vector<std::string> errors(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      try {
        Buffer<float> b = device.alloc<float>(256);
        for (int i = 0; i < 50; ++i) {
          k.launch({2}, b, b, 1.0f, 256);
          b.fill(float(t));
          if (b.toVector()[255] != float(t))
            errors[t] = "wrong contents";
        }
        Stream s(device);
        k.launch({1}, b, b, 1.0f, 256, s);
        s.synchronize();
      } catch (const Error &e) {
        errors[t] = e.what();
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < 8; ++t)
    EXPECT_EQ(errors[t], "") << "thread " << t;
  EXPECT_EQ(state->launches, before.launches + 8 * 51);
  EXPECT_EQ(state->failedCalls, before.failedCalls);
}

//===----------------------------------------------------------------------===//
// On a real GPU (skipped without one)
//===----------------------------------------------------------------------===//

namespace {
class RealGpu : public RealGpuTest {
protected:
  /// After the errors, the device still computes axpy correctly (no
  /// sticky CUDA error).
  void expectStillWorks() {
    Kernel k = Kernel::load(device, kAxpyPtx, axpyMeta());
    Buffer<float> x = device.alloc<float>(300), y = device.alloc<float>(300);
    std::vector<float> host(300);
    for (int i = 0; i < 300; ++i)
      host[i] = float(i);
    x.copyFrom(host);
    y.poison();
    k.launch({3}, y, x, 2.0f, 300);
    std::vector<float> out = y.toVector();
    for (int i = 0; i < 300; ++i)
      ASSERT_EQ(out[i], 2.0f * i) << i;
  }
};
} // namespace

TEST_F(RealGpu, BadLaunches) {
  checkBadLaunches(device);
  expectStillWorks();
}

TEST_F(RealGpu, BadMemory) {
  checkBadMemory(device);
  expectStillWorks();
}

TEST_F(RealGpu, BadLoads) {
  checkBadLoads(device);
  expectStillWorks();
}
