//===- softmax.cpp - Run examples/softmax.tile through the JIT host API --===//
//
// Row-wise softmax of a rows x cols f32 matrix, one program per row:
// compiles softmax.tile with BLOCK the next power of two >= cols, checks
// every row against a CPU reference and prints the kernel time and the
// memory bandwidth. Usage: example-softmax [ROWS [COLS]] (default 4096 x
// 1000). Exit status 0 when right, 1 when not, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ExampleUtils.h"

int main(int argc, char **argv) try {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 1000;
  if (rows <= 0 || cols <= 0 || cols > (1 << 16)) {
    std::fprintf(stderr, "usage: %s [ROWS [COLS <= 65536]]\n", argv[0]);
    return 2;
  }
  tilec::Device dev;
  if (!example::openDevice(dev))
    return example::kSkipped;

  int block = 1;
  while (block < cols)
    block *= 2;
  tilec::Compiler cc(dev);
  tilec::Kernel k = example::compileAndReport(
      cc, example::tilePath("softmax.tile"), "softmax", {{"BLOCK", block}});

  const int stride = cols;
  std::vector<float> x =
      example::randomFloats(std::size_t(rows) * stride, -4, 4, 3);
  tilec::Buffer<float> dx = dev.alloc<float>(x.size()),
                       dy = dev.alloc<float>(x.size());
  dx.copyFrom(x);
  dy.poison();
  auto launch = [&] { k.launch({rows}, dy, dx, stride, stride, cols); };
  launch();
  std::vector<float> y = dy.toVector();

  std::vector<float> want = example::softmaxReference(x, rows, cols, stride);
  bool ok = example::check("softmax", y, want, 1e-6, 1e-4);

  float ms = example::timeLaunches(dev, launch);
  std::printf("softmax %dx%d: %.3f ms, %.0f GB/s\n", rows, cols, ms,
              2.0 * rows * cols * sizeof(float) / (ms * 1e-3) / 1e9);
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
