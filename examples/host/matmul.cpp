//===- matmul.cpp - Run examples/matmul.tile through the JIT host API ----===//
//
// C = A @ B with f16 inputs and f32 accumulation: compiles matmul.tile for
// the GPU (through the kernel cache), multiplies random M x K and K x N
// matrices, checks 64 rows of C against a CPU reference and prints the
// kernel time and TFLOP/s. Usage: example-matmul [M [N [K]]] (default 2048
// each). Exit status 0 when the result is right, 1 when not, 77 without a
// GPU.
//
//===----------------------------------------------------------------------===//

#include "ExampleUtils.h"

int main(int argc, char **argv) try {
  const int M = example::intArg(argc, argv, 1, 2048);
  const int N = example::intArg(argc, argv, 2, M);
  const int K = example::intArg(argc, argv, 3, M);
  tilec::Device dev;
  if (int status =
          example::start(argv[0], "[M [N [K]]]", M > 0 && N > 0 && K > 0, dev))
    return status;

  const int BM = 128, BN = 128, BK = 32;
  tilec::Compiler cc(dev);
  tilec::Kernel k = example::compileAndReport(
      cc, "matmul.tile", "matmul",
      {{"BLOCK_M", BM}, {"BLOCK_N", BN}, {"BLOCK_K", BK}, {"GROUP_M", 8}});

  std::vector<float> a = example::randomFloats(std::size_t(M) * K, -1, 1, 1);
  std::vector<float> b = example::randomFloats(std::size_t(K) * N, -1, 1, 2);
  std::vector<tilec::f16> ha = example::toHalf(a), hb = example::toHalf(b);
  tilec::Buffer<tilec::f16> da = dev.alloc<tilec::f16>(ha.size()),
                            db = dev.alloc<tilec::f16>(hb.size());
  tilec::Buffer<float> dc = dev.alloc<float>(std::size_t(M) * N);
  da.copyFrom(ha);
  db.copyFrom(hb);
  dc.poison();

  tilec::Grid grid(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
  auto launch = [&] {
    k.launch(grid, dc, da, db, M, N, K, /*stride_am=*/K, /*stride_ak=*/1,
             /*stride_bk=*/N, /*stride_bn=*/1, /*stride_cm=*/N,
             /*stride_cn=*/1);
  };
  launch();
  std::vector<float> c = dc.toVector();

  // The reference for 64 rows spread over C (all of C takes too long).
  std::vector<float> got, want;
  for (int s = 0; s < 64; ++s) {
    int i = int((std::int64_t(s) * 7919) % M);
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int kk = 0; kk < K; ++kk)
        acc += double(a[std::size_t(i) * K + kk]) * b[std::size_t(kk) * N + j];
      want.push_back(float(acc));
      got.push_back(c[std::size_t(i) * N + j]);
    }
  }
  bool ok = example::check("C", got, want, 1e-3 * std::sqrt(double(K)), 1e-3);

  float ms = example::timeLaunches(dev, launch);
  std::printf("matmul %dx%dx%d: %.3f ms, %.1f TFLOP/s\n", M, N, K, ms,
              2.0 * M * N * K / (ms * 1e-3) / 1e12);
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
