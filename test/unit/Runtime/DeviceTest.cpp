//===- DeviceTest.cpp - Devices, buffers and launches ---------------------===//
//
// Without a CUDA driver (the build machines, CI) Device::open must throw a
// clear tilec::Error. With one, the GPU tests load hand-written PTX, launch
// it through the checked host API and compare results; they skip themselves
// (GTEST_SKIP) when there is no driver or no GPU.
//
//===----------------------------------------------------------------------===//

#include "AxpyKernel.h"

#include "TestSupport/Contains.h"
#include "TestSupport/HostApi.h"

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

using namespace tilec;
using namespace tilec::test;

namespace {

/// One block: thread t writes 2t to dynamic shared memory 64 KiB in, then
/// reads its neighbour's value: out[t] = 2 * ((t + 1) % ntid).
const char *kBigSharedPtx = R"(
.version 7.0
.target sm_70
.address_size 64
.extern .shared .align 16 .b8 dsmem[];

.visible .entry bigsmem(.param .u64 bigsmem_param_0)
{
    .reg .b32 %r<10>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [bigsmem_param_0];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ntid.x;
    mov.u64 %rd3, dsmem;
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd3, %rd4;
    add.s64 %rd5, %rd5, 65536;
    shl.b32 %r3, %r1, 1;
    st.shared.u32 [%rd5], %r3;
    bar.sync 0;
    add.s32 %r4, %r1, 1;
    rem.u32 %r5, %r4, %r2;
    mul.wide.u32 %rd6, %r5, 4;
    add.s64 %rd7, %rd3, %rd6;
    add.s64 %rd7, %rd7, 65536;
    ld.shared.u32 %r6, [%rd7];
    add.s64 %rd8, %rd2, %rd4;
    st.global.u32 [%rd8], %r6;
    ret;
}
)";

} // namespace

TEST(NoGpu, OpenWithoutDriverThrowsClearError) {
  std::string why;
  if (Device::driverAvailable(&why))
    GTEST_SKIP() << "a CUDA driver is installed here";
  std::string message = messageOf([] { Device::open(0); });
  // No driver library at all (this machine, CI), or a driver without a
  // usable GPU (cuInit fails): both must say so plainly.
  const char *library = std::getenv("TILEC_CUDA_DRIVER");
  std::string noLibrary = std::string("cannot load the CUDA driver (") +
                          (library && *library ? library : "libcuda.so.1") +
                          "): ";
  EXPECT_TRUE(message.rfind(noLibrary, 0) == 0 ||
              message.rfind("cuInit failed: CUDA_ERROR_", 0) == 0)
      << message;
  EXPECT_EQ(message, why);
  // The same error every time, and from every entry point.
  EXPECT_EQ(messageOf([] { Device::open(0); }), message);
  EXPECT_EQ(messageOf([] { Device::count(); }), message);
}

TEST(NoGpu, UnopenedObjectsThrow) {
  Device device;
  EXPECT_TRUE(
      contains(messageOf([&] { device.alloc<float>(4); }), "unopened Device"));
  Buffer<float> empty;
  EXPECT_EQ(empty.size(), 0u);
  std::vector<float> none;
  EXPECT_NO_THROW(empty.copyFrom(none)); // Nothing to copy.
  std::vector<float> four(4);
  EXPECT_TRUE(contains(messageOf([&] { empty.copyFrom(four); }),
                       "the source has 4 elements, the buffer 0"));
}

TEST_F(RealGpuTest, Properties) {
  EXPECT_FALSE(device.name().empty());
  auto [major, minor] = device.computeCapability();
  EXPECT_GE(major, 7);
  EXPECT_EQ(device.arch(), "sm_" + std::to_string(major * 10 + minor));
  EXPECT_GT(device.multiprocessorCount(), 0);
  EXPECT_GE(device.maxSharedMemoryPerBlockOptin(), 48u * 1024);
  std::printf("%s (%s), %d SMs, %zu bytes shared optin\n",
              device.name().c_str(), device.arch().c_str(),
              device.multiprocessorCount(),
              device.maxSharedMemoryPerBlockOptin());
  EXPECT_TRUE(contains(messageOf([] { Device::open(1000); }),
                       "no CUDA device with ordinal 1000"));
}

TEST_F(RealGpuTest, Buffers) {
  Buffer<float> a = device.alloc<float>(1000);
  std::vector<float> host(1000);
  for (int i = 0; i < 1000; ++i)
    host[i] = i * 0.25f;
  a.copyFrom(host);
  EXPECT_EQ(a.toVector(), host);
  Buffer<float> b = device.alloc<float>(1000);
  b.copyFrom(a);
  EXPECT_EQ(b.toVector(), host);
  b.fill(3.5f);
  EXPECT_EQ(b.toVector(), std::vector<float>(1000, 3.5f));
  b.poison();
  EXPECT_TRUE(std::isnan(b.toVector()[17]));
  Buffer<double> d = device.alloc<double>(3000000); // Chunked 8-byte fill.
  d.fill(-1.25);
  std::vector<double> dh = d.toVector();
  EXPECT_EQ(dh.front(), -1.25);
  EXPECT_EQ(dh.back(), -1.25);
  Buffer<f16> h = device.alloc<f16>(10);
  h.fill(f16::fromFloat(2.0f));
  EXPECT_EQ(h.toVector()[9].toFloat(), 2.0f);
  Buffer<float> moved = std::move(a);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(moved.size(), 1000u);
  EXPECT_EQ(a.data().address(), 0u); // A moved-from buffer is empty.
}

TEST_F(RealGpuTest, LaunchPtx) {
  Kernel k = Kernel::load(device, kAxpyPtx, axpyMeta());
  EXPECT_EQ(k.info().kernel, "axpy");
  EXPECT_GT(k.numRegisters(), 0);
  const int n = 1000;
  Buffer<float> x = device.alloc<float>(n), y = device.alloc<float>(n);
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = static_cast<float>(i);
  x.copyFrom(host);
  y.poison();
  k.launch({(n + 127) / 128}, y, x, 2.0f, n);
  device.synchronize();
  std::vector<float> out = y.toVector();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * i) << i;

  // On a stream, timed; a sub-range through an offset pointer.
  Stream stream(device);
  Timer timer(device, stream);
  timer.start();
  k.launch({1}, y.data() + 10, x, 3.0f, 5, stream);
  float ms = timer.stop();
  EXPECT_GE(ms, 0.0f);
  stream.synchronize();
  out = y.toVector();
  EXPECT_EQ(out[10], 0.0f);
  EXPECT_EQ(out[14], 12.0f);
  EXPECT_EQ(out[15], 30.0f);

  float median = detail::benchmark(
      device, [&] { k.launch({(n + 127) / 128}, y, x, 2.0f, n); });
  EXPECT_GT(median, 0.0f);
}

TEST_F(RealGpuTest, LaunchErrors) {
  Kernel k = Kernel::load(device, kAxpyPtx, axpyMeta());
  Buffer<float> x = device.alloc<float>(4);
  Buffer<int> wrong = device.alloc<int>(4);
  EXPECT_EQ(messageOf([&] { k.launch({1}, wrong, x, 2.0f, 4); }),
            "kernel 'axpy': argument 1 (out: *f32): expected a Buffer<float> "
            "or DevicePtr<float>, got Buffer<int32_t>");
  EXPECT_TRUE(contains(messageOf([&] { k.launch({1}, x, x, 2, 4); }),
                       "argument 3 (a: f32): expected a floating-point value"));
  EXPECT_TRUE(contains(messageOf([&] { k.launch({1}, x, x, 2.0f); }),
                       "takes 4 arguments, got 3"));
  EXPECT_TRUE(contains(messageOf([&] { k.launch({0}, x, x, 2.0f, 4); }),
                       "invalid grid (0, 1, 1): grid.x must be in [1, "));
  EXPECT_TRUE(
      contains(messageOf([&] { k.launch({1, 1 << 20}, x, x, 2.0f, 4); }),
               "grid.y must be in [1, 65535]"));
  Stream stream(device);
  EXPECT_TRUE(contains(
      messageOf([&] { k.launch({1}, x, stream, x, 2.0f, 4); }),
      "a Stream, then LaunchOptions, must be the last launch arguments"));
}

TEST_F(RealGpuTest, LoadErrors) {
  // The entry matches the metadata (so the PTX check passes) and the body
  // does not assemble: the driver's error and JIT log come back.
  std::string bad = ".version 7.0\n.target sm_70\n.address_size 64\n"
                    ".visible .entry axpy(.param .u64 p0, .param .u64 p1, "
                    ".param .f32 p2, .param .u32 p3) { bogus.instruction; }\n";
  std::string message =
      messageOf([&] { Kernel::load(device, bad, axpyMeta()); });
  EXPECT_TRUE(
      contains(message, "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX"));
  EXPECT_TRUE(contains(message, "JIT error log:"));

  // axpy's metadata with one field changed.
  auto loadError = [&](const KernelMetadata &meta) {
    return messageOf([&] { Kernel::load(device, kAxpyPtx, meta); });
  };
  KernelMetadata missing = axpyMeta();
  missing.kernel = "nothere";
  EXPECT_TRUE(
      contains(loadError(missing), "'nothere' is not a .entry of the PTX"));
  KernelMetadata future = axpyMeta();
  future.arch = "sm_990";
  EXPECT_TRUE(
      contains(loadError(future), "was compiled for sm_990, which device 0"));

  EXPECT_TRUE(contains(
      messageOf([&] { Kernel::load(device, "not a kernel", axpyMeta()); }),
      "neither PTX with an .entry nor a cubin"));
}

// Issue 25: a .json that does not match its PTX's .entry (a stale file next
// to a recompiled kernel) used to reach cuLaunchKernel, which read the
// arguments with the PTX's sizes and crashed. On the real driver the load
// itself must fail with a tilec::Error naming the mismatch, from memory and
// from files, and the matching pair must still load and run.
TEST_F(RealGpuTest, MetadataPtxMismatchIsAClearError) {
  const KernelMetadata good = axpyMeta();
  auto loadError = [&](const KernelMetadata &meta) {
    return messageOf([&] { Kernel::load(device, kAxpyPtx, meta); });
  };

  // One parameter fewer than the .entry.
  KernelMetadata fewer = good;
  fewer.params.pop_back();
  EXPECT_EQ(loadError(fewer),
            "kernel 'axpy': the metadata lists 3 parameters (" +
                fewer.signature() +
                ") but the PTX .entry has 4 (a stale .json?)");
  // One more.
  KernelMetadata more = good;
  more.params.push_back(good.params.back());
  more.params.back().name = "extra";
  EXPECT_TRUE(contains(loadError(more), "the metadata lists 5 parameters (" +
                                            more.signature() +
                                            ") but the PTX .entry has 4"));
  // The right count, a scalar of another width: n as i64 (8 bytes, the
  // .entry's .u32 has 4).
  KernelMetadata wider = metadataOf(
      "axpy", {{"out", "*f32"}, {"x", "*f32"}, {"a", "f32"}, {"n", "i64"}});
  wider.arch = good.arch;
  wider.numWarps = good.numWarps;
  EXPECT_EQ(loadError(wider),
            "kernel 'axpy': parameter 3 ('n', i64) has 8 bytes in the "
            "metadata but 4 in the PTX .entry (a stale .json?)");
  // A pointer where the .entry has a 4-byte scalar.
  KernelMetadata pointer = metadataOf(
      "axpy", {{"out", "*f32"}, {"x", "*f32"}, {"a", "*f32"}, {"n", "i32"}});
  pointer.arch = good.arch;
  pointer.numWarps = good.numWarps;
  EXPECT_TRUE(contains(loadError(pointer),
                       "parameter 2 ('a', *f32) has 8 bytes in the metadata "
                       "but 4 in the PTX .entry"));

  // The same through files, as a host program loads tilec's output.
  std::string dir = ::testing::TempDir() + std::to_string(::getpid()) + "_";
  std::string ptxPath = dir + "tilec_stale_axpy.ptx";
  std::ofstream(ptxPath, std::ios::binary) << kAxpyPtx;
  fewer.writeFile(dir + "tilec_stale_axpy.json");
  EXPECT_TRUE(contains(messageOf([&] { Kernel::loadFiles(device, ptxPath); }),
                       "the metadata lists 3 parameters"));

  // The matching pair loads (from files too) and runs.
  good.writeFile(dir + "tilec_stale_axpy.json");
  Kernel k = Kernel::loadFiles(device, ptxPath);
  Buffer<float> x = device.alloc<float>(4), y = device.alloc<float>(4);
  x.copyFrom(std::vector<float>{1, 2, 3, 4});
  y.poison();
  k.launch({1}, y, x, 3.0f, 4);
  EXPECT_EQ(y.toVector(), (std::vector<float>{3, 6, 9, 12}));
  std::remove(ptxPath.c_str());
  std::remove((dir + "tilec_stale_axpy.json").c_str());
}

TEST_F(RealGpuTest, DynamicSharedMemoryAbove48K) {
  KernelMetadata meta = metadataOf("bigsmem", {{"out", "*i32"}});
  meta.numWarps = 4;
  meta.sharedBytes = 65536 + 512;
  Kernel k = Kernel::load(device, kBigSharedPtx, meta);
  Buffer<int> out = device.alloc<int>(128);
  out.poison();
  k.launch({1}, out);
  std::vector<int> host = out.toVector();
  for (int t = 0; t < 128; ++t)
    ASSERT_EQ(host[t], 2 * ((t + 1) % 128)) << t;

  meta.sharedBytes = device.maxSharedMemoryPerBlockOptin() + 1024;
  EXPECT_TRUE(
      contains(messageOf([&] { Kernel::load(device, kBigSharedPtx, meta); }),
               "bytes of shared memory per block, but device 0"));
}

TEST_F(RealGpuTest, CubinAndFiles) {
  std::string cubin = compilePtxToCubin(device, kAxpyPtx);
  ASSERT_GE(cubin.size(), 4u);
  EXPECT_EQ(cubin.substr(0, 4), "\x7f"
                                "ELF");
  std::string dir = ::testing::TempDir() + std::to_string(::getpid()) + "_";
  {
    std::ofstream(dir + "tilec_axpy.cubin", std::ios::binary) << cubin;
    axpyMeta().writeFile(dir + "tilec_axpy.json");
  }
  Kernel k = Kernel::loadFiles(device, dir + "tilec_axpy.cubin");
  Buffer<float> x = device.alloc<float>(4), y = device.alloc<float>(4);
  x.copyFrom(std::vector<float>{1, 2, 3, 4});
  k.launch({1}, y, x, -1.0f, 4);
  EXPECT_EQ(y.toVector(), (std::vector<float>{-1, -2, -3, -4}));
  EXPECT_TRUE(contains(messageOf([&] { compilePtxToCubin(device, "garbage"); }),
                       "failed: CUDA_ERROR_"));
}
