//===- aot_vector_add.cpp - An ahead-of-time host program ----------------===//
//
// Runs examples/vector_add.tile from the header `tilec --emit=header`
// generated at build time (vector_add.h embeds the cubin and the metadata),
// so this program links only the runtime (tilec::runtime): no compiler, no
// LLVM, no CUDA toolkit. It checks out = x + y, then measures the host cost
// of Kernel::launch: the median over 10,000 launches of a one-program
// kernel, each timed on the host (the launches are asynchronous, so this is
// the argument check plus cuLaunchKernel). Exit status 0 when right, 1 when
// not, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "vector_add.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 24;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [N]\n", argv[0]);
    return 2;
  }
  std::string why;
  if (!tilec::Device::driverAvailable(&why) || tilec::Device::count() == 0) {
    std::printf("skipped: no GPU (%s)\n", why.c_str());
    return 77;
  }
  tilec::Device dev = tilec::Device::open(0);
  std::printf("device: %s (%s); kernel built for %s\n", dev.name().c_str(),
              dev.arch().c_str(), tilec_aot::vector_add_arch);
  tilec::Kernel k = tilec_aot::load_vector_add(dev);
  const int block = int(k.info().constexprs.at("BLOCK").asInt());

  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % 1000);
    y[i] = 0.5f * float(i % 777);
  }
  tilec::Buffer<float> dx = dev.alloc<float>(n), dy = dev.alloc<float>(n),
                       out = dev.alloc<float>(n);
  dx.copyFrom(x);
  dy.copyFrom(y);
  out.poison();
  tilec_aot::launch_vector_add(k, {(n + block - 1) / block}, out, dx, dy, n);
  std::vector<float> got = out.toVector();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (got[i] != x[i] + y[i] && bad++ < 5)
      std::printf("  out[%d] = %g, expected %g\n", i, got[i], x[i] + y[i]);
  std::printf("check vector_add n=%d: %s\n", n, bad ? "FAILED" : "ok");

  // Host overhead of one launch: one program over `block` elements.
  constexpr int kLaunches = 10000;
  std::vector<double> us;
  us.reserve(kLaunches);
  tilec::Stream stream(dev);
  for (int i = 0; i < kLaunches; ++i) {
    auto start = std::chrono::steady_clock::now();
    k.launch({1}, out, dx, dy, block, stream);
    us.push_back(std::chrono::duration<double, std::micro>(
                     std::chrono::steady_clock::now() - start)
                     .count());
    if (i % 1000 == 999)
      stream.synchronize(); // Keep the queue from filling up.
  }
  stream.synchronize();
  std::sort(us.begin(), us.end());
  std::printf("Kernel::launch host overhead over %d launches: median %.2f us, "
              "p10 %.2f us, p90 %.2f us\n",
              kLaunches, us[kLaunches / 2], us[kLaunches / 10],
              us[kLaunches * 9 / 10]);
  return bad ? 1 : 0;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
