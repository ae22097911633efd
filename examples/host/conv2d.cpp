//===- conv2d.cpp - Run examples/conv2d.tile through the JIT host API ----===//
//
// A 3x3 convolution, stride 1, padding 1, as an implicit GEMM: NHWC f16
// input, KRSC f16 filter, NPQK f32 output. Compiles conv2d.tile, checks
// every output against a CPU reference and prints the kernel time and
// TFLOP/s. Usage: example-conv2d [N [H [C [K]]]] (default 16 x 56 x 64 x
// 64; W = H). Exit status 0 when right, 1 when not, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ExampleUtils.h"

int main(int argc, char **argv) try {
  const int N = example::intArg(argc, argv, 1, 16);
  const int H = example::intArg(argc, argv, 2, 56), W = H;
  const int C = example::intArg(argc, argv, 3, 64);
  const int K = example::intArg(argc, argv, 4, 64);
  const bool argsOk = N > 0 && H > 0 && C > 0 && K > 0;
  const int R = 3, S = 3, strideH = 1, strideW = 1, padH = 1, padW = 1;
  const int P = (H + 2 * padH - R) / strideH + 1;
  const int Q = (W + 2 * padW - S) / strideW + 1;
  tilec::Device dev;
  if (int status = example::start(argv[0], "[N [H [C [K]]]]", argsOk, dev))
    return status;

  const int BM = 64, BN = 64, BC = 32;
  tilec::Compiler cc(dev);
  tilec::Kernel k = example::compileAndReport(
      cc, "conv2d.tile", "conv2d",
      {{"R", R}, {"S", S}, {"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_C", BC}});

  std::vector<float> x =
      example::randomFloats(std::size_t(N) * H * W * C, -1, 1, 5);
  std::vector<float> w =
      example::randomFloats(std::size_t(K) * R * S * C, -1, 1, 6);
  std::vector<tilec::f16> hx = example::toHalf(x), hw = example::toHalf(w);
  tilec::Buffer<tilec::f16> dx = dev.alloc<tilec::f16>(hx.size()),
                            dw = dev.alloc<tilec::f16>(hw.size());
  tilec::Buffer<float> dout = dev.alloc<float>(std::size_t(N) * P * Q * K);
  dx.copyFrom(hx);
  dw.copyFrom(hw);
  dout.poison();
  const int gemmM = N * P * Q;
  tilec::Grid grid((gemmM + BM - 1) / BM, (K + BN - 1) / BN);
  auto launch = [&] {
    k.launch(grid, dout, dx, dw, N, H, W, C, K, P, Q, strideH, strideW, padH,
             padW);
  };
  launch();
  std::vector<float> out = dout.toVector();

  std::vector<float> want(out.size());
  for (int n = 0; n < N; ++n)
    for (int p = 0; p < P; ++p)
      for (int q = 0; q < Q; ++q)
        for (int kk = 0; kk < K; ++kk) {
          double acc = 0;
          for (int r = 0; r < R; ++r)
            for (int s = 0; s < S; ++s) {
              int h = p * strideH - padH + r, wi = q * strideW - padW + s;
              if (h < 0 || h >= H || wi < 0 || wi >= W)
                continue;
              const float *xp = &x[((std::size_t(n) * H + h) * W + wi) * C];
              const float *wp = &w[((std::size_t(kk) * R + r) * S + s) * C];
              for (int c = 0; c < C; ++c)
                acc += double(xp[c]) * wp[c];
            }
          want[((std::size_t(n) * P + p) * Q + q) * K + kk] = float(acc);
        }
  bool ok = example::check("out", out, want,
                           1e-3 * std::sqrt(double(R * S * C)), 1e-3);

  float ms = example::timeLaunches(dev, launch);
  std::printf("conv2d N=%d H=W=%d C=%d K=%d 3x3: %.3f ms, %.1f TFLOP/s\n", N, H,
              C, K, ms, 2.0 * gemmM * K * R * S * C / (ms * 1e-3) / 1e12);
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
