//===- ExampleUtils.h - Shared code of the example host programs -*- C++ -*-=//
//
// What every example host program does around its kernel: find the `.tile`
// file, open the GPU (or explain why it cannot, exiting with 77, the
// "skipped" status of automake and CTest), fill inputs with reproducible
// random numbers, compare against a CPU reference with a tolerance, and
// time launches with CUDA events.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_EXAMPLES_HOST_EXAMPLEUTILS_H
#define TILEC_EXAMPLES_HOST_EXAMPLEUTILS_H

#include "tilec/tilec.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace example {

/// The exit status of a program that found no GPU.
constexpr int kSkipped = 77;

/// The path of examples/\p file: under $TILEC_EXAMPLES_DIR if set, else the
/// source tree the program was built from.
inline std::string tilePath(const std::string &file) {
  if (const char *dir = std::getenv("TILEC_EXAMPLES_DIR"); dir && *dir)
    return std::string(dir) + "/" + file;
  return std::string(TILEC_EXAMPLES_DIR) + "/" + file;
}

/// Command-line argument \p i as an integer; \p fallback when there are
/// fewer arguments.
inline int intArg(int argc, char **argv, int i, int fallback) {
  return argc > i ? std::atoi(argv[i]) : fallback;
}

/// Opens GPU 0, or prints why not and returns false.
inline bool openDevice(tilec::Device &device) {
  std::string why;
  if (!tilec::Device::driverAvailable(&why) || tilec::Device::count() == 0) {
    std::printf("skipped: no GPU (%s)\n",
                why.empty() ? "no CUDA device" : why.c_str());
    return false;
  }
  device = tilec::Device::open(0);
  std::printf("device: %s (%s)\n", device.name().c_str(),
              device.arch().c_str());
  return true;
}

/// The start of every example's main(): with bad arguments (\p argsOk
/// false) prints `usage: PROGRAM USAGE` and returns 2; without a GPU
/// returns kSkipped; else opens GPU 0 into \p device and returns 0.
inline int start(const char *program, const char *usage, bool argsOk,
                 tilec::Device &device) {
  if (!argsOk) {
    std::fprintf(stderr, "usage: %s %s\n", program, usage);
    return 2;
  }
  return openDevice(device) ? 0 : kSkipped;
}

/// start() for an example whose arguments are sizes: argv[1], argv[2], ...
/// replace the defaults in \p sizes, in order, and must be positive.
inline int startWithSizes(int argc, char **argv, const char *usage,
                          std::initializer_list<int *> sizes,
                          tilec::Device &device) {
  bool positive = true;
  int i = 1;
  for (int *size : sizes) {
    *size = intArg(argc, argv, i++, *size);
    positive = positive && *size > 0;
  }
  return start(argv[0], usage, positive, device);
}

/// \p n uniform random numbers in [lo, hi), the same on every run.
inline std::vector<float> randomFloats(std::size_t n, float lo = -1.0f,
                                       float hi = 1.0f, unsigned seed = 42) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> out(n);
  for (float &v : out)
    v = dist(gen);
  return out;
}

/// The f16 values of \p values, and \p values rounded to them.
inline std::vector<tilec::f16> toHalf(std::vector<float> &values) {
  std::vector<tilec::f16> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    out[i] = tilec::f16::fromFloat(values[i]);
    values[i] = out[i].toFloat();
  }
  return out;
}

/// Milliseconds of wall time of \p run.
inline double wallMs(const std::function<void()> &run) {
  auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Row-wise softmax of `rows` rows of `cols` values, `stride` apart, in
/// float64 (what the softmax kernels are checked against).
inline std::vector<float> softmaxReference(const std::vector<float> &x,
                                           int rows, int cols, int stride) {
  std::vector<float> want(x.size());
  for (int r = 0; r < rows; ++r) {
    const float *in = &x[std::size_t(r) * stride];
    float *out = &want[std::size_t(r) * stride];
    float mx = in[0];
    for (int c = 1; c < cols; ++c)
      mx = std::max(mx, in[c]);
    double sum = 0;
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(in[c]) - mx);
    for (int c = 0; c < cols; ++c)
      out[c] = float(std::exp(double(in[c]) - mx) / sum);
  }
  return want;
}

/// Compares \p got with \p want element by element (|got - want| <= atol +
/// rtol * |want|); prints the first mismatches and a summary.
inline bool check(const char *what, const std::vector<float> &got,
                  const std::vector<float> &want, double atol, double rtol) {
  std::size_t bad = 0;
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    double diff = std::fabs(double(got[i]) - double(want[i]));
    if (!(diff <= atol + rtol * std::fabs(double(want[i])))) {
      if (bad < 5)
        std::printf("  %s[%zu] = %g, expected %g\n", what, i, got[i], want[i]);
      ++bad;
    }
    if (diff > worst || std::isnan(diff))
      worst = diff;
  }
  std::printf("check %s: %zu of %zu elements off (max abs error %.3g): %s\n",
              what, bad, want.size(), worst, bad ? "FAILED" : "ok");
  return bad == 0;
}

/// Median milliseconds per launch of \p launch over \p reps launches after
/// a warm-up.
inline float timeLaunches(tilec::Device &device,
                          const std::function<void()> &launch, int reps = 20) {
  launch();
  device.synchronize();
  std::vector<float> times;
  tilec::Timer timer(device);
  for (int i = 0; i < reps; ++i) {
    timer.start();
    launch();
    times.push_back(timer.stop());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Compiles \p kernel of examples/\p tileFile with \p cc and reports the
/// cold compile and a cache hit.
inline tilec::Kernel compileAndReport(tilec::Compiler &cc,
                                      const std::string &tileFile,
                                      const std::string &kernel,
                                      const tilec::Constexprs &constexprs) {
  const std::string file = tilePath(tileFile);
  tilec::Kernel k;
  double first = wallMs([&] { k = cc.compileFile(file, kernel, constexprs); });
  double hit = wallMs([&] { cc.compileFile(file, kernel, constexprs); });
  std::printf("compile %s: %.1f ms (first, disk cache: %s), %.3f ms (hit); "
              "%d registers, %llu bytes shared\n",
              kernel.c_str(), first,
              cc.options().cacheDir.empty() ? "off"
                                            : cc.options().cacheDir.c_str(),
              hit, k.numRegisters(),
              static_cast<unsigned long long>(k.info().sharedBytes));
  return k;
}

/// The softmax examples' run: \p launch(y, x) on the rows of \p x (`rows`
/// x `cols`, \p stride apart) once, checked against softmaxReference with
/// \p atol (and a relative 1e-4), then timed; prints the median time and
/// the bandwidth of \p passes passes over the rows. Whether y was right.
inline bool runSoftmax(
    tilec::Device &device, const char *name, const std::vector<float> &x,
    int rows, int cols, int stride, double atol, double passes,
    const std::function<void(tilec::Buffer<float> &y, tilec::Buffer<float> &x)>
        &launch) {
  tilec::Buffer<float> dx = device.alloc<float>(x.size()),
                       dy = device.alloc<float>(x.size());
  dx.copyFrom(x);
  dy.poison();
  launch(dy, dx);
  std::vector<float> y = dy.toVector();
  std::vector<float> want = softmaxReference(x, rows, cols, stride);
  bool ok = check(name, y, want, atol, 1e-4);
  float ms = timeLaunches(device, [&] { launch(dy, dx); });
  std::printf("%s %dx%d: %.3f ms, %.0f GB/s\n", name, rows, cols, ms,
              passes * rows * cols * sizeof(float) / (ms * 1e-3) / 1e9);
  return ok;
}

} // namespace example

#endif // TILEC_EXAMPLES_HOST_EXAMPLEUTILS_H
