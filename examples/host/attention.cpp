//===- attention.cpp - Run examples/attention.tile through the JIT host API
//===//
//
// Fused attention forward, out = softmax(Q K^T * sm_scale) V, on f16
// [batch*heads, seq, 64] tensors (contiguous), optionally causal: compiles
// attention.tile (BLOCK_M = BLOCK_N = 64), checks every query row of three
// heads (the first, a middle one and the last) against a CPU reference in
// double and prints the kernel time and TFLOP/s. Usage: example-attention
// [BATCH_HEADS [SEQ [CAUSAL]]] (default 32 x 1024, CAUSAL 0 or 1, default
// 0). Exit status 0 when right, 1 when not, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "ExampleUtils.h"

int main(int argc, char **argv) try {
  const int BH = example::intArg(argc, argv, 1, 32);
  const int seq = example::intArg(argc, argv, 2, 1024);
  const bool causal = example::intArg(argc, argv, 3, 0) != 0;
  const int D = 64;
  tilec::Device dev;
  if (int status = example::start(
          argv[0], "[BATCH_HEADS [SEQ [CAUSAL]]]",
          BH > 0 && seq > 0 && std::int64_t(seq) * D <= (1 << 30), dev))
    return status;

  const int BM = 64, BN = 64;
  tilec::Compiler cc(dev);
  tilec::Kernel k = example::compileAndReport(
      cc, "attention.tile", "attention",
      {{"HEAD_DIM", D}, {"BLOCK_M", BM}, {"BLOCK_N", BN}, {"CAUSAL", causal}});

  const std::size_t size = std::size_t(BH) * seq * D;
  std::vector<float> q = example::randomFloats(size, -1, 1, 11);
  std::vector<float> kk = example::randomFloats(size, -1, 1, 12);
  std::vector<float> v = example::randomFloats(size, -1, 1, 13);
  std::vector<tilec::f16> hq = example::toHalf(q), hk = example::toHalf(kk),
                          hv = example::toHalf(v);
  tilec::Buffer<tilec::f16> dq = dev.alloc<tilec::f16>(size),
                            dk = dev.alloc<tilec::f16>(size),
                            dv = dev.alloc<tilec::f16>(size),
                            dout = dev.alloc<tilec::f16>(size);
  dq.copyFrom(hq);
  dk.copyFrom(hk);
  dv.copyFrom(hv);
  dout.poison();
  const float smScale = 1.0f / std::sqrt(float(D));
  const int strideBH = seq * D, strideS = D;
  tilec::Grid grid((seq + BM - 1) / BM, BH);
  auto launch = [&] {
    k.launch(grid, dout, dq, dk, dv, seq, strideBH, strideS, smScale);
  };
  launch();
  std::vector<tilec::f16> hout = dout.toVector();

  // The reference for every query row of three heads (all of them takes
  // too long at the default size).
  std::vector<int> heads = {0, BH / 2, BH - 1};
  heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
  std::vector<float> got, want;
  std::vector<double> p(static_cast<std::size_t>(seq));
  for (int bh : heads) {
    const std::size_t base = std::size_t(bh) * strideBH;
    for (int i = 0; i < seq; ++i) {
      const float *qi = &q[base + std::size_t(i) * D];
      const int hi = causal ? i + 1 : seq;
      double mx = -INFINITY;
      for (int j = 0; j < hi; ++j) {
        const float *kj = &kk[base + std::size_t(j) * D];
        double s = 0;
        for (int d = 0; d < D; ++d)
          s += double(qi[d]) * kj[d];
        p[j] = s * smScale;
        mx = std::max(mx, p[j]);
      }
      double sum = 0;
      for (int j = 0; j < hi; ++j)
        sum += p[j] = std::exp(p[j] - mx);
      for (int d = 0; d < D; ++d) {
        double acc = 0;
        for (int j = 0; j < hi; ++j)
          acc += p[j] * v[base + std::size_t(j) * D + d];
        want.push_back(float(acc / sum));
        got.push_back(hout[base + std::size_t(i) * D + d].toFloat());
      }
    }
  }
  // The output is f16 and P goes through f16 before the second dot.
  bool ok = example::check("out", got, want, 2e-3, 5e-3);

  float ms = example::timeLaunches(dev, launch);
  double flops = 4.0 * BH * double(seq) * seq * D * (causal ? 0.5 : 1.0);
  std::printf("attention BH=%d seq=%d d=%d%s: %.3f ms, %.1f TFLOP/s\n", BH, seq,
              D, causal ? " causal" : "", ms, flops / (ms * 1e-3) / 1e12);
  return ok ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
