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
  const int rows = example::intArg(argc, argv, 1, 4096);
  const int cols = example::intArg(argc, argv, 2, 1000);
  tilec::Device dev;
  if (int status =
          example::start(argv[0], "[ROWS [COLS <= 65536]]",
                         rows > 0 && cols > 0 && cols <= (1 << 16), dev))
    return status;

  int block = 1;
  while (block < cols)
    block *= 2;
  tilec::Compiler cc(dev);
  tilec::Kernel k = example::compileAndReport(cc, "softmax.tile", "softmax",
                                              {{"BLOCK", block}});

  const int stride = cols;
  std::vector<float> x =
      example::randomFloats(std::size_t(rows) * stride, -4, 4, 3);
  // x read once, y written once.
  bool ok =
      example::runSoftmax(dev, "softmax", x, rows, cols, stride, 1e-6, 2.0,
                          [&](auto &dy, auto &dx) {
                            k.launch({rows}, dy, dx, stride, stride, cols);
                          });
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
