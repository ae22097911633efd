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
  const int block = 2048; // Rows are read in chunks of BLOCK.
  int rows = 1024, cols = 16384;
  tilec::Device dev;
  if (int status = example::startWithSizes(argc, argv, "[ROWS [COLS]]",
                                           {&rows, &cols}, dev))
    return status;

  tilec::Compiler cc(dev);
  tilec::Kernel k = example::compileAndReport(
      cc, "online_softmax.tile", "online_softmax", {{"BLOCK", block}});

  const int stride = cols;
  // Values that grow along the row, so the running max is rescaled often.
  std::vector<float> x =
      example::randomFloats(std::size_t(rows) * stride, -4, 4, 10);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      x[std::size_t(r) * stride + c] += 8.0f * c / cols;
  // x read twice, y written once.
  bool ok = example::runSoftmax(
      dev, "online_softmax", x, rows, cols, stride, 1e-7, 3.0,
      [&](auto &dy, auto &dx) { k.launch({rows}, dy, dx, stride, cols); });
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
