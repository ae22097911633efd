//===- online_softmax.cpp - Run examples/online_softmax.tile (JIT) -------===//
//
// Softmax of long f32 rows, one program per row, in chunks of BLOCK = 2048:
// one pass keeps a running max and sum, a second writes the result.
// Compiles online_softmax.tile, checks every row against a CPU reference in
// double and prints the kernel time and the memory bandwidth (x read twice,
// y written once). Usage: example-online-softmax [ROWS [COLS]] (default
// 1024 x 16384). Exit status 0 when right, 1 when not, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ExampleUtils.h"

int main(int argc, char **argv) try {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 16384;
  if (rows <= 0 || cols <= 0) {
    std::fprintf(stderr, "usage: %s [ROWS [COLS]]\n", argv[0]);
    return 2;
  }
  tilec::Device dev;
  if (!example::openDevice(dev))
    return example::kSkipped;

  const int block = 2048;
  tilec::Compiler cc(dev);
  tilec::Kernel k =
      example::compileAndReport(cc, example::tilePath("online_softmax.tile"),
                                "online_softmax", {{"BLOCK", block}});

  const int stride = cols;
  // Values that grow along the row, so the running max is rescaled often.
  std::vector<float> x =
      example::randomFloats(std::size_t(rows) * stride, -4, 4, 10);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      x[std::size_t(r) * stride + c] += 8.0f * c / cols;
  tilec::Buffer<float> dx = dev.alloc<float>(x.size()),
                       dy = dev.alloc<float>(x.size());
  dx.copyFrom(x);
  dy.poison();
  auto launch = [&] { k.launch({rows}, dy, dx, stride, cols); };
  launch();
  std::vector<float> y = dy.toVector();

  std::vector<float> want = example::softmaxReference(x, rows, cols, stride);
  bool ok = example::check("online_softmax", y, want, 1e-7, 1e-4);

  float ms = example::timeLaunches(dev, launch);
  std::printf("online_softmax %dx%d: %.3f ms, %.0f GB/s\n", rows, cols, ms,
              3.0 * rows * cols * sizeof(float) / (ms * 1e-3) / 1e9);
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
