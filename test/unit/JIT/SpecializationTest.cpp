//===- SpecializationTest.cpp - The JIT specializes on its arguments ------===//
//
// A kernel from tilec::Compiler picks, at each launch, the variant compiled
// for what its arguments allow (as Triton does): integers that are multiples
// of 16 or equal to 1, pointers aligned to 16 bytes. Each variant is
// compiled once, on first use, and its metadata records the assumptions;
// a pointer that is not 16-byte aligned gets a variant that assumes no
// alignment instead of a misaligned access. With Options::specialize off
// there is one variant, and a launch that breaks its assumptions throws.
//
// Runs on the fake CUDA driver in a child process (the whole load and launch
// path without a GPU) and on a real GPU when there is one, where the results
// are checked too.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "TestSupport/Contains.h"
#include "TestSupport/HostApi.h"
#include "TestSupport/TimingBounds.h"

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace tilec;
using namespace tilec::test;

namespace {

/// out[i] = x[i] + y[i] for i < n, then compares when \p check.
struct VectorAdd {
  static constexpr int kSize = 4096 + 64;
  Buffer<float> x, y, out;
  std::vector<float> hx, hy;

  explicit VectorAdd(Device &device)
      : x(device.alloc<float>(kSize)), y(device.alloc<float>(kSize)),
        out(device.alloc<float>(kSize)), hx(kSize), hy(kSize) {
    for (int i = 0; i < kSize; ++i) {
      hx[i] = 0.25f * i;
      hy[i] = 3.0f - i;
    }
    x.copyFrom(hx);
    y.copyFrom(hy);
  }

  /// Runs \p k on (x + xOffset, y, n) and checks out[0, n) when \p check.
  void run(const Kernel &k, int xOffset, int n, bool check) {
    out.poison();
    k.launch({(n + 255) / 256}, out, x.data() + xOffset, y, n);
    if (!check)
      return;
    std::vector<float> result = out.toVector();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(result[i], hx[i + xOffset] + hy[i]) << "i=" << i << " n=" << n;
  }
};

void checkSpecialization(Device &device, bool check) {
  Compiler cc(device, memoryOnly());
  Kernel k = cc.compileFile(examplePath("vector_add.tile"), "vector_add",
                            {{"BLOCK", 256}});
  // The generic variant, compiled at once: aligned pointers, any n.
  ASSERT_EQ(k.numVariants(), 1u);
  EXPECT_EQ(k.info().params[0].divisibility, 16u);
  EXPECT_EQ(k.info().params[3].divisibility, 1u);
  VectorAdd data(device);

  // n a multiple of 16: a variant that knows it, compiled on first use and
  // shared by every such n.
  Kernel div = k.specializedFor(data.out, data.x, data.y, 4096);
  EXPECT_EQ(div.info().params[3].divisibility, 16u);
  EXPECT_FALSE(div.info().params[3].equalToOne);
  EXPECT_EQ(k.numVariants(), 2u);
  data.run(k, 0, 4096, check);
  data.run(k, 0, 4096 + 32, check);
  EXPECT_EQ(k.numVariants(), 2u);

  // A ragged n: the generic variant.
  EXPECT_EQ(k.specializedFor(data.out, data.x, data.y, 1000).info(), k.info());
  data.run(k, 0, 1000, check);
  EXPECT_EQ(k.numVariants(), 2u);

  // n == 1: specialized to the constant.
  EXPECT_TRUE(k.specializedFor(data.out, data.x, data.y, 1)
                  .info()
                  .params[3]
                  .equalToOne);
  data.run(k, 0, 1, check);
  EXPECT_EQ(k.numVariants(), 3u);

  // x 4 bytes past an aligned address: no pointer alignment is assumed (the
  // 16-byte accesses of the other variants would fault).
  Kernel unaligned = k.specializedFor(data.out, data.x.data() + 1, data.y, 999);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(unaligned.info().params[i].divisibility, 1u) << i;
  data.run(k, 1, 999, check);
  data.run(k, 3, 4096, check); // Unaligned x with a multiple of 16.
  EXPECT_EQ(k.numVariants(), 5u);

  // Copies share the variants.
  Kernel copy = k;
  data.run(copy, 0, 4096, check);
  EXPECT_EQ(copy.numVariants(), 5u);
  // A variant is a plain kernel.
  EXPECT_EQ(div.numVariants(), 1u);
  EXPECT_EQ(div.specializedFor(data.out, data.x, data.y, 7).info(), div.info());

  // What picking the variant adds to a launch on the host (the key, a lock,
  // a compare): measured on the fake driver, whose launches cost little.
  if (!check) {
    auto medianUs = [&](const Kernel &kernel) {
      std::vector<double> us;
      for (int i = 0; i < 2000; ++i) {
        auto start = std::chrono::steady_clock::now();
        kernel.launch({16}, data.out, data.x, data.y, 4096);
        us.push_back(std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - start)
                         .count());
      }
      std::nth_element(us.begin(), us.begin() + us.size() / 2, us.end());
      return us[us.size() / 2];
    };
    double plain = medianUs(div), specializing = medianUs(k);
    std::printf("[ launch   ] host time per launch: variant %.2f us, "
                "specializing kernel %.2f us\n",
                plain, specializing);
    EXPECT_LT(specializing, plain + 1000 * timeBound(0.002));
  }

  // Wrong arguments are reported as by any kernel.
  try {
    k.launch({1}, data.out, data.x, 5);
    ADD_FAILURE() << "no error for a missing argument";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("takes 4 arguments, got 3"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(k.numVariants(), 5u);

  // Without specialization: one variant, which refuses what it cannot run.
  Compiler::Options options = memoryOnly();
  options.specialize = false;
  Compiler plain(device, options);
  Kernel p = plain.compileFile(examplePath("vector_add.tile"), "vector_add",
                               {{"BLOCK", 256}});
  data.run(p, 0, 4096, check);
  EXPECT_EQ(p.numVariants(), 1u);
  try {
    data.run(p, 1, 999, check);
    ADD_FAILURE() << "no error for a misaligned pointer";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "argument 2 (x: *f32): DevicePtr<float> is not aligned to "
                  "16 bytes, which the kernel was compiled to assume"),
              std::string::npos)
        << e.what();
  }
}

/// Triton's tutorial 01 kernel, as a Python source (no types in it).
constexpr const char *kTritonAdd = R"(import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)
)";

/// A Python source's kernel takes its types from its launch arguments, as
/// under Triton's JIT: one variant per inferred signature and
/// specialization, compiled at first use.
void checkTypedAtLaunch(Device &device, bool check) {
  Compiler cc(device, memoryOnly());
  Kernel k = cc.compileSource(kTritonAdd, "add.py", "add_kernel",
                              {{"BLOCK_SIZE", 256}});
  EXPECT_EQ(k.numVariants(), 0u);
  EXPECT_TRUE(contains(messageOf([&] { k.info(); }),
                       "kernel 'add_kernel' takes its parameter types from "
                       "its launch arguments and has no metadata before its "
                       "first launch"));
  VectorAdd data(device);
  auto run = [&](int n) {
    data.out.poison();
    k.launch({(n + 255) / 256}, data.x, data.y, data.out, n);
    if (!check)
      return;
    std::vector<float> result = data.out.toVector();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(result[i], data.hx[i] + data.hy[i]) << "i=" << i;
  };
  run(4096);
  ASSERT_EQ(k.numVariants(), 1u);
  const KernelMetadata &meta = k.info();
  ASSERT_EQ(meta.params.size(), 4u);
  EXPECT_EQ(meta.params[0].type.str(), "*f32");
  EXPECT_EQ(meta.params[0].divisibility, 16u);
  EXPECT_EQ(meta.params[3].type.str(), "i32");
  EXPECT_EQ(meta.params[3].divisibility, 16u);
  run(4096 + 32); // the same variant
  run(1000);      // a ragged n: another
  EXPECT_EQ(k.numVariants(), 2u);
  EXPECT_EQ(k.specializedFor(data.x, data.y, data.out, 1000)
                .info()
                .params[3]
                .divisibility,
            1u);
  // Other element types, a 64-bit count, an unaligned pointer: variants
  // of their own (compiled, not launched).
  Buffer<f16> hx = device.alloc<f16>(64), hy = device.alloc<f16>(64);
  EXPECT_EQ(k.specializedFor(hx, hy, hx, 64).info().params[2].type.str(),
            "*f16");
  EXPECT_EQ(k.specializedFor(data.x, data.y, data.out, std::int64_t(1) << 33)
                .info()
                .params[3]
                .type.str(),
            "i64");
  EXPECT_EQ(k.specializedFor(data.x.data() + 1, data.y, data.out, 64)
                .info()
                .params[0]
                .divisibility,
            1u);
  EXPECT_EQ(k.numVariants(), 5u);
  // What cannot be typed, or does not fit the kernel, is an error at launch.
  EXPECT_TRUE(contains(messageOf([&] {
                         k.launch({1}, DevicePtr<void>(data.x.data()), data.y,
                                  data.out, 16);
                       }),
                       "but argument 1 is DevicePtr"));
  EXPECT_TRUE(contains(
      messageOf([&] { k.launch({1}, data.x, data.y, 16); }),
      "'add_kernel' takes 4 run-time arguments (x_ptr, y_ptr, output_ptr, "
      "n_elements), the launch passed 3 (*f32, *f32, i32:16)"));
  EXPECT_EQ(k.numVariants(), 5u);
  // Without a launch there are no types to compile with.
  EXPECT_TRUE(
      contains(messageOf([&] {
                 cc.compileSourceToPTX(kTritonAdd, "add.py", "add_kernel",
                                       {{"BLOCK_SIZE", 256}});
               }),
               "takes its parameter types from its launch arguments, which "
               "compileSourceToPTX does not have"));
}

} // namespace

/// The child of Specialization.TypedAtLaunchOnAFakeGpu.
TEST(SpecializationFakeGpuChild, TypedAtLaunch) {
  onFakeGpu("Specialization.TypedAtLaunchOnAFakeGpu", [](Device &device) {
    checkTypedAtLaunch(device, /*check=*/false);
  });
}

TEST(Specialization, TypedAtLaunchOnAFakeGpu) {
  expectPassOnFakeGpu("SpecializationFakeGpuChild.TypedAtLaunch");
}

TEST(Specialization, TypedAtLaunchOnTheGpu) {
  onRealGpu([](Device &device) { checkTypedAtLaunch(device, /*check=*/true); });
}

/// The child of Specialization.OnAFakeGpu.
TEST(SpecializationFakeGpuChild, Variants) {
  onFakeGpu("Specialization.OnAFakeGpu", [](Device &device) {
    checkSpecialization(device, /*check=*/false);
  });
}

TEST(Specialization, OnAFakeGpu) {
  expectPassOnFakeGpu("SpecializationFakeGpuChild.Variants");
}

TEST(Specialization, OnTheGpu) {
  onRealGpu(
      [](Device &device) { checkSpecialization(device, /*check=*/true); });
}
