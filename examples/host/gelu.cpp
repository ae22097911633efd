//===- gelu.cpp - Run examples/gelu.tile through the JIT host API --------===//
//
// GeLU (tanh approximation) over an f16 vector: compiles gelu.tile, checks
// every element against a CPU reference (computed in double on the f16
// inputs, compared at f16 precision) and prints the kernel time and the
// memory bandwidth. Usage: example-gelu [N] (default 2^24). Exit status 0
// when right, 1 when not, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ExampleUtils.h"

int main(int argc, char **argv) try {
  int n = 1 << 24;
  tilec::Device dev;
  if (int status = example::startWithSizes(argc, argv, "[N]", {&n}, dev))
    return status;

  const int block = 1024;
  tilec::Compiler cc(dev);
  tilec::Kernel k =
      example::compileAndReport(cc, "gelu.tile", "gelu", {{"BLOCK", block}});

  std::vector<float> x = example::randomFloats(std::size_t(n), -5, 5, 4);
  std::vector<tilec::f16> hx = example::toHalf(x);
  tilec::Buffer<tilec::f16> din = dev.alloc<tilec::f16>(hx.size()),
                            dout = dev.alloc<tilec::f16>(hx.size());
  din.copyFrom(hx);
  dout.poison();
  auto launch = [&] { k.launch({(n + block - 1) / block}, dout, din, n); };
  launch();
  std::vector<tilec::f16> hy = dout.toVector();

  std::vector<float> got(static_cast<std::size_t>(n)),
      want(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    double v = x[i];
    double g = 0.5 * v *
               (1 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
    want[i] = tilec::f16::fromFloat(float(g)).toFloat();
    got[i] = hy[i].toFloat();
  }
  // One f16 ulp (2^-10 relative) plus a little for the tanh.
  bool ok = example::check("gelu", got, want, 1e-3, 2e-3);

  float ms = example::timeLaunches(dev, launch);
  std::printf("gelu n=%d: %.3f ms, %.0f GB/s\n", n, ms,
              2.0 * n * 2 / (ms * 1e-3) / 1e9);
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
