//===- layernorm.cpp - Run examples/layernorm.tile through the JIT host API
//===//
//
// Layer norm of a rows x cols f16 matrix, one program per row: compiles
// layernorm.tile with BLOCK the next power of two >= cols, at most 1024
// (longer rows are processed in chunks of BLOCK), checks y, mean and rstd of
// every row against a CPU reference in double and prints the kernel time
// and the memory bandwidth (x read once, y written once). Usage:
// example-layernorm [ROWS [COLS]] (default 4096 x 1000). Exit status 0 when
// right, 1 when not, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ExampleUtils.h"

int main(int argc, char **argv) try {
  int rows = 4096, cols = 1000;
  tilec::Device dev;
  if (int status = example::startWithSizes(argc, argv, "[ROWS [COLS]]",
                                           {&rows, &cols}, dev))
    return status;

  int block = 1;
  while (block < cols && block < 1024)
    block *= 2;
  tilec::Compiler cc(dev);
  tilec::Kernel k = example::compileAndReport(cc, "layernorm.tile", "layernorm",
                                              {{"BLOCK", block}});

  const int stride = cols;
  const float eps = 1e-5f;
  // Rows with a nonzero mean, so that the centering matters.
  std::vector<float> x =
      example::randomFloats(std::size_t(rows) * stride, -1, 3, 7);
  std::vector<float> w = example::randomFloats(std::size_t(cols), 0.5, 1.5, 8);
  std::vector<float> b = example::randomFloats(std::size_t(cols), -0.5, 0.5, 9);
  std::vector<tilec::f16> hx = example::toHalf(x), hw = example::toHalf(w),
                          hb = example::toHalf(b);
  tilec::Buffer<tilec::f16> dx = dev.alloc<tilec::f16>(hx.size()),
                            dy = dev.alloc<tilec::f16>(hx.size()),
                            dw = dev.alloc<tilec::f16>(hw.size()),
                            db = dev.alloc<tilec::f16>(hb.size());
  tilec::Buffer<float> dmean = dev.alloc<float>(std::size_t(rows)),
                       drstd = dev.alloc<float>(std::size_t(rows));
  dx.copyFrom(hx);
  dw.copyFrom(hw);
  db.copyFrom(hb);
  dy.poison();
  dmean.poison();
  drstd.poison();
  auto launch = [&] {
    k.launch({rows}, dy, dx, dw, db, dmean, drstd, stride, cols, eps);
  };
  launch();
  std::vector<tilec::f16> hy = dy.toVector();
  std::vector<float> mean = dmean.toVector(), rstd = drstd.toVector();

  std::vector<float> got(x.size()), want(x.size()), wantMean(rows),
      wantRstd(rows);
  for (int r = 0; r < rows; ++r) {
    const float *in = &x[std::size_t(r) * stride];
    double mu = 0;
    for (int c = 0; c < cols; ++c)
      mu += in[c];
    mu /= cols;
    double var = 0;
    for (int c = 0; c < cols; ++c)
      var += (in[c] - mu) * (in[c] - mu);
    var /= cols;
    double rs = 1 / std::sqrt(var + double(eps));
    wantMean[r] = float(mu);
    wantRstd[r] = float(rs);
    for (int c = 0; c < cols; ++c) {
      std::size_t i = std::size_t(r) * stride + c;
      want[i] = float((in[c] - mu) * rs * w[c] + b[c]);
      got[i] = hy[i].toFloat();
    }
  }
  bool ok = example::check("mean", mean, wantMean, 1e-5, 1e-5);
  ok &= example::check("rstd", rstd, wantRstd, 1e-6, 1e-4);
  // y is f16: one f16 ulp (2^-11 relative) of the result, plus a little.
  ok &= example::check("y", got, want, 2e-3, 2e-3);

  float ms = example::timeLaunches(dev, launch);
  std::printf("layernorm %dx%d (BLOCK %d): %.3f ms, %.0f GB/s\n", rows, cols,
              block, ms, 2.0 * rows * cols * 2 / (ms * 1e-3) / 1e9);
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
