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

/// Compiles with \p cc and reports the cold compile and a cache hit.
inline tilec::Kernel compileAndReport(tilec::Compiler &cc,
                                      const std::string &file,
                                      const std::string &kernel,
                                      const tilec::Constexprs &constexprs) {
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

} // namespace example

#endif // TILEC_EXAMPLES_HOST_EXAMPLEUTILS_H
