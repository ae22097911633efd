//===- CompilerTest.cpp - tilec::Compiler: compiling, options, errors ----===//
//
// The JIT host API without a GPU: compileSource/compileFile to PTX and
// metadata, the options (arch, num_warps, num_stages, opt level), compile
// errors carried in tilec::Error with clang-style diagnostics, bad API input
// (unknown kernel, missing file, invalid options, no device), several
// threads compiling at once, and autotune() refusing to run without a GPU.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "TestSupport/Contains.h"
#include "TestSupport/HostApi.h"
#include "TestSupport/TimingBounds.h"

#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace tilec;
using namespace tilec::test;

namespace {

const char *kAxpy = R"(# axpy.tile
@kernel(num_warps=4)
def axpy(out: *f32, x: *f32, alpha: f32, n: i32, BLOCK: constexpr = 256):
    offs = program_id(0) * BLOCK + arange(0, BLOCK)
    mask = offs < n
    store(out + offs, alpha * load(x + offs, mask=mask), mask=mask)
)";

/// The error of compiling kernel \p kernel of \p source (named \p file) to
/// PTX with \p cc ("<no error>" if it compiles).
std::string ptxError(Compiler &cc, const std::string &source,
                     const std::string &file, const std::string &kernel) {
  return messageOf([&] { cc.compileSourceToPTX(source, file, kernel); });
}

} // namespace

TEST(Compiler, CompileSourceToPTX) {
  Compiler cc(memoryOnly("sm_90"));
  EXPECT_EQ(cc.arch(), "sm_90");
  CompiledKernel k = cc.compileSourceToPTX(kAxpy, "axpy.tile", "axpy");
  EXPECT_TRUE(contains(k.binary, ".visible .entry axpy("));
  EXPECT_TRUE(contains(k.binary, ".target sm_90"));
  EXPECT_EQ(k.meta.kernel, "axpy");
  EXPECT_EQ(k.meta.arch, "sm_90");
  EXPECT_EQ(k.meta.numWarps, 4);
  EXPECT_EQ(k.meta.threadsPerBlock, 128);
  EXPECT_EQ(k.meta.signature(), "axpy(out: *f32, x: *f32, alpha: f32, n: i32)");
  ASSERT_EQ(k.meta.constexprs.count("BLOCK"), 1u);
  EXPECT_EQ(k.meta.constexprs.at("BLOCK").asInt(), 256);
  EXPECT_EQ(k.meta.compilerVersion.rfind("tilec ", 0), 0u);

  CompiledKernel k2 =
      cc.compileSourceToPTX(kAxpy, "axpy.tile", "axpy", {{"BLOCK", 1024}});
  EXPECT_EQ(k2.meta.constexprs.at("BLOCK").asInt(), 1024);
  EXPECT_NE(k.binary, k2.binary);
}

TEST(Compiler, CompileFileToPTX) {
  Compiler cc(memoryOnly("sm_90"));
  CompiledKernel k =
      cc.compileFileToPTX(examplePath("softmax.tile"), "softmax");
  EXPECT_TRUE(contains(k.binary, ".visible .entry softmax("));
  EXPECT_EQ(k.meta.params.size(), 5u);
  EXPECT_EQ(k.meta.constexprs.at("BLOCK").asInt(), 1024);
}

TEST(Compiler, DefaultArchWithoutDevice) {
  Compiler::Options options;
  options.cacheDir = "";
  Compiler cc(options);
  EXPECT_EQ(cc.arch(), "sm_90");
  EXPECT_TRUE(cc.options().arch.empty());
}

TEST(Compiler, Options) {
  Compiler::Options options = memoryOnly("sm_80");
  options.numWarps = 8;
  options.numStages = 2;
  options.optLevel = 0;
  Compiler cc(options);
  CompiledKernel k = cc.compileSourceToPTX(kAxpy, "axpy.tile", "axpy");
  EXPECT_EQ(k.meta.arch, "sm_80");
  EXPECT_TRUE(contains(k.binary, ".target sm_80"));
  EXPECT_EQ(k.meta.numWarps, 8);
  EXPECT_EQ(k.meta.threadsPerBlock, 256);
  EXPECT_EQ(k.meta.numStages, 2);
}

TEST(Compiler, InvalidOptions) {
  Compiler::Options options = memoryOnly("sm_90");
  options.numWarps = 3;
  EXPECT_TRUE(
      contains(messageOf([&] { Compiler cc(options); }), "num_warps = 3"));
  options.numWarps = 0;
  options.optLevel = 2;
  EXPECT_TRUE(contains(messageOf([&] { Compiler cc(options); }),
                       "optimization level 2"));
  options.optLevel = 3;
  options.numStages = -1;
  EXPECT_TRUE(
      contains(messageOf([&] { Compiler cc(options); }), "num_stages = -1"));
}

TEST(Compiler, UnsupportedArch) {
  // The options are validated when the Compiler is made.
  std::string what = messageOf([&] { Compiler cc(memoryOnly("sm_70")); });
  EXPECT_TRUE(contains(what, "unknown target 'sm_70'"));
}

TEST(Compiler, ErrorsHoldDiagnostics) {
  Compiler cc(memoryOnly("sm_90"));
  std::string source = "@kernel\n"
                       "def bad(out: *f32, n: i32):\n"
                       "    x = undefined_name + 1\n"
                       "    store(out, x)\n";
  std::string what = ptxError(cc, source, "bad.tile", "bad");
  EXPECT_TRUE(contains(what, "bad.tile:3:9: error:"));
  EXPECT_TRUE(contains(what, "undefined_name"));
  // The source line and a caret, like clang.
  EXPECT_TRUE(contains(what, "    x = undefined_name + 1\n"));
  EXPECT_TRUE(contains(what, "^"));
  // Errors are not cached: the same request fails again, the same way.
  EXPECT_EQ(ptxError(cc, source, "bad.tile", "bad"), what);
}

TEST(Compiler, SyntaxErrorsHoldDiagnostics) {
  Compiler cc(memoryOnly("sm_90"));
  std::string what = ptxError(cc,
                              "@kernel\n"
                              "def bad(out: *f32:\n"
                              "    pass\n",
                              "syntax.tile", "bad");
  EXPECT_TRUE(contains(what, "syntax.tile:2:"));
  EXPECT_TRUE(contains(what, "error:"));
}

TEST(Compiler, ShapeErrorFromDeepInThePipeline) {
  Compiler cc(memoryOnly("sm_90"));
  std::string what =
      ptxError(cc,
               "@kernel\n"
               "def mm(c: *f32):\n"
               "    a = zeros((16, 32), dtype=float32)\n"
               "    b = zeros((16, 16), dtype=float32)\n"
               "    acc = dot(a, b)\n"
               "    store(c + arange(0, 16), sum(acc, axis=1))\n",
               "mm.tile", "mm");
  EXPECT_TRUE(contains(what, "mm.tile:5:"));
}

TEST(Compiler, UnknownKernel) {
  Compiler cc(memoryOnly("sm_90"));
  std::string what = ptxError(cc, kAxpy, "axpy.tile", "no_such_kernel");
  EXPECT_TRUE(contains(what, "no_such_kernel"));
  EXPECT_TRUE(contains(what, "axpy")); // The known one.
  EXPECT_TRUE(contains(ptxError(cc, kAxpy, "axpy.tile", ""), "no kernel name"));
}

TEST(Compiler, MissingFile) {
  Compiler cc(memoryOnly("sm_90"));
  std::string what =
      messageOf([&] { cc.compileFileToPTX("/nonexistent/dir/k.tile", "k"); });
  EXPECT_TRUE(contains(what, "cannot read '/nonexistent/dir/k.tile'"));
}

TEST(Compiler, ConstexprWithoutValue) {
  Compiler cc(memoryOnly("sm_90"));
  std::string source = "@kernel\n"
                       "def k(out: *f32, BLOCK: constexpr):\n"
                       "    store(out + arange(0, BLOCK), 1.0)\n";
  std::string what = ptxError(cc, source, "k.tile", "k");
  EXPECT_TRUE(contains(what, "k.tile:"));
  EXPECT_TRUE(contains(what, "BLOCK"));
  CompiledKernel k =
      cc.compileSourceToPTX(source, "k.tile", "k", {{"BLOCK", 64}});
  EXPECT_EQ(k.meta.constexprs.at("BLOCK").asInt(), 64);
}

// A constexpr that names no parameter is an error of the host API (as
// Triton's launcher), the same check as tilec's -D (a warning there); it
// was accepted silently (issue 25).
TEST(Compiler, UnknownConstexprName) {
  Compiler cc(memoryOnly("sm_90"));
  std::string source = "@kernel\n"
                       "def k(out: *f32, BLOCK: constexpr = 16):\n"
                       "    store(out + arange(0, BLOCK), 1.0)\n";
  std::string what = messageOf(
      [&] { cc.compileSourceToPTX(source, "k.tile", "k", {{"BLCK", 64}}); });
  EXPECT_EQ(what, "error: constexpr BLCK does not name a parameter of kernel "
                  "'k'");
  // A too large source is refused before it is read.
  std::string big = ::testing::TempDir() + "tilec_big_source.tile";
  EXPECT_EQ(std::system(("truncate -s 17M '" + big + "'").c_str()), 0);
  what = messageOf([&] { cc.compileFileToPTX(big, "k"); });
  EXPECT_TRUE(contains(what, "larger than the limit of 16 MiB")) << what;
  std::remove(big.c_str());
}

TEST(Compiler, NoDevice) {
  // A Compiler without a device compiles but cannot load.
  Compiler cc(memoryOnly("sm_90"));
  std::string what =
      messageOf([&] { cc.compileSource(kAxpy, "axpy.tile", "axpy"); });
  EXPECT_TRUE(contains(what, "has no device"));
  // An unopened Device is refused up front.
  what = messageOf([&] { Compiler bad{Device()}; });
  EXPECT_TRUE(contains(what, "not open"));
  // Opening a GPU where there is none says why.
  std::string why;
  if (!Device::driverAvailable(&why)) {
    what = messageOf([] { Device::open(0); });
    EXPECT_TRUE(contains(what, "CUDA driver"));
  }
}

TEST(Compiler, AutotuneNeedsADevice) {
  Compiler cc(memoryOnly("sm_90"));
  std::vector<TuneConfig> configs = {{{{"BLOCK", 128}}, 4, 0},
                                     {{{"BLOCK", 256}}, 8, 0}};
  EXPECT_EQ(configs[1].str(), "BLOCK=256,num_warps=8");
  DevicePtr<float> out, x, y;
  std::string what = messageOf([&] {
    autotune(
        cc, examplePath("vector_add.tile"), "vector_add", configs, "n=4096",
        [](const TuneConfig &c) {
          return Grid(4096 / c.constexprs.at("BLOCK").asInt());
        },
        out, x, y, 4096);
  });
  EXPECT_TRUE(contains(what, "needs a Compiler made with a Device"));
  EXPECT_TRUE(contains(messageOf([&] {
                         autotune(cc, "k.tile", "k", {}, "",
                                  [](const TuneConfig &) { return Grid(1); });
                       }),
                       "no configs"));
}

TEST(Compiler, ThreadsCompileAtOnce) {
  // Each thread gets its own KernelCompiler; the results match a serial
  // compile.
  Compiler cc(memoryOnly("sm_90"));
  std::vector<std::string> names = {"vector_add", "softmax", "gelu",
                                    "layernorm"};
  std::vector<std::string> ptx(names.size()), errors(names.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < names.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        ptx[i] = cc.compileFileToPTX(examplePath(names[i] + ".tile"), names[i])
                     .binary;
      } catch (const Error &e) {
        errors[i] = e.what();
      }
    });
  for (std::thread &t : threads)
    t.join();
  Compiler::clearMemoryCaches();
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(errors[i], "") << names[i];
    EXPECT_EQ(
        ptx[i],
        cc.compileFileToPTX(examplePath(names[i] + ".tile"), names[i]).binary)
        << names[i];
  }
}

TEST(Compiler, LoadsOnAGpu) {
  std::string why;
  if (!Device::driverAvailable(&why) || Device::count() == 0)
    GTEST_SKIP() << "no GPU: " << why;
  Device dev = Device::open(0);
  Compiler::Options options;
  options.cacheDir = "";
  Compiler cc(dev, options);
  EXPECT_EQ(cc.arch(), dev.arch() == "sm_90" ? "sm_90a" : dev.arch());
  Kernel k = cc.compileSource(kAxpy, "axpy.tile", "axpy");
  const int n = 1000;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = float(i);
  Buffer<float> x = dev.alloc<float>(n), y = dev.alloc<float>(n);
  x.copyFrom(host);
  y.poison();
  k.launch({(n + 255) / 256}, y, x, 2.0f, n);
  std::vector<float> out = y.toVector();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * i) << i;
  // A second compile returns the loaded kernel.
  Stopwatch hit;
  Kernel again = cc.compileSource(kAxpy, "axpy.tile", "axpy");
  EXPECT_LT(hit.ms(), timeBound(1.0));
  EXPECT_TRUE(again);
}

TEST(Compiler, AutotunesOnAGpu) {
  std::string why;
  if (!Device::driverAvailable(&why) || Device::count() == 0)
    GTEST_SKIP() << "no GPU: " << why;
  Device dev = Device::open(0);
  std::string cacheDir = freshDir("autotune-gpu");
  Compiler::Options options;
  options.cacheDir = cacheDir;
  Compiler cc(dev, options);
  const int n = 1 << 20;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = float(i % 1000);
    hy[i] = 1.0f;
  }
  Buffer<float> x = dev.alloc<float>(n), y = dev.alloc<float>(n),
                out = dev.alloc<float>(n);
  x.copyFrom(hx);
  y.copyFrom(hy);
  std::vector<TuneConfig> configs = {{{{"BLOCK", 128}}, 1, 0},
                                     {{{"BLOCK", 1024}}, 4, 0},
                                     {{{"BLOCK", 4096}}, 8, 0}};
  auto grid = [&](const TuneConfig &c) {
    return Grid((n + c.constexprs.at("BLOCK").asInt() - 1) /
                c.constexprs.at("BLOCK").asInt());
  };
  Kernel first = autotune(cc, examplePath("vector_add.tile"), "vector_add",
                          configs, "n=1M", grid, out, x, y, n);
  ASSERT_TRUE(first);
  // The record of the choice is on disk, under the cache directory.
  std::vector<std::string> records;
  for (const auto &entry :
       std::filesystem::recursive_directory_iterator(cacheDir))
    if (entry.is_regular_file()) {
      std::ifstream in(entry.path());
      std::string magic;
      if (in >> magic && magic == "tilec-autotune-1")
        records.push_back(entry.path().string());
    }
  ASSERT_EQ(records.size(), 1u);
  auto written = std::filesystem::last_write_time(records[0]);
  // A second autotune with the same key remembers the choice: no timing
  // runs, the record is left as it is, and the kernel it gives computes
  // the right result with the grid of its config.
  Stopwatch again;
  Kernel second = autotune(cc, examplePath("vector_add.tile"), "vector_add",
                           configs, "n=1M", grid, out, x, y, n);
  ASSERT_TRUE(second);
  EXPECT_LT(again.ms(), timeBound(50.0));
  EXPECT_EQ(std::filesystem::last_write_time(records[0]), written);
  std::ifstream in(records[0]);
  std::string magic;
  std::size_t index = 99;
  ASSERT_TRUE(in >> magic >> index);
  ASSERT_LT(index, configs.size());
  out.poison();
  second.launch(grid(configs[index]), out, x, y, n);
  std::vector<float> got = out.toVector();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], hx[i] + hy[i]) << i;
}
