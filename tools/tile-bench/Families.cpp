//===- Families.cpp - tile-bench: the kernels and their references -------===//
//
// One function per kernel family, mirroring bench/run_bench.py's choices:
// softmax runs the variant variants.py names per size and its alternatives
// (VARIANT_*), GeLU the one variant it names; conv2d
// tries every conv2d_* variant per shape; matmul tries every variant of its
// data type on the two smallest sizes, then the fastest two (skipping
// launches the time budget cannot afford). The best variant per size is
// recorded again as impl "tilec". References are float64 on the host: whole
// outputs for copy, softmax and GeLU; for matmul and conv2d a random sample
// of outputs against float64 dot products, and every output checked for
// the NaN poison.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace tilebench;
using llvm::json::Object;
using llvm::json::Value;

namespace {

constexpr std::size_t kSamples = 2048;

std::int64_t intField(const Object &o, const char *key) {
  std::optional<std::int64_t> v = o.getInteger(key);
  if (!v)
    throw tilec::Error(std::string("tile-bench: a size has no integer '") +
                       key + "'");
  return *v;
}

std::string strField(const Object &o, const char *key) {
  std::optional<llvm::StringRef> v = o.getString(key);
  return v ? v->str() : std::string();
}

int cdiv(std::int64_t a, std::int64_t b) { return int((a + b - 1) / b); }

/// Runs \p body; a tilec::Error (a compile failure, a bad argument) becomes
/// a failed row, a lost context stops the family. A variant left out with
/// --skip gets a skipped row.
template <typename Fn>
void guarded(Bench &b, const std::string &kernel, const std::string &shape,
             const std::string &impl, const std::string &variant, Fn body) {
  if (b.config().skipped.count(variant)) {
    b.out().row(Object{{"kernel", kernel},
                       {"shape", shape},
                       {"impl", impl},
                       {"variant", variant},
                       {"skipped", "--skip"}});
    return;
  }
  try {
    body();
  } catch (const ContextLost &) {
    throw;
  } catch (const tilec::Error &e) {
    b.out().row(Object{{"kernel", kernel},
                       {"shape", shape},
                       {"impl", impl},
                       {"variant", variant},
                       {"ok", false},
                       {"error", std::string(e.what()).substr(0, 400)}});
  }
}

/// Records \p best (the fastest variant's row) again as impl "tilec",
/// marked "best" (a repeated row, not another check).
void recordBest(Bench &b, const Object *best) {
  if (!best)
    return;
  Object r = *best;
  r["impl"] = "tilec";
  r["best"] = true;
  b.out().row(std::move(r));
}

/// Measures a size's variant \p var and its alternatives (VARIANT_*: other
/// block sizes or warp counts) with \p measureOne(variant, impl), which
/// returns the row; when there are alternatives the fastest is recorded
/// again as "tilec".
template <typename MeasureFn>
void measureAlternatives(Bench &b, const std::string &family,
                         const std::string &shape, const std::string &var,
                         MeasureFn measureOne) {
  std::vector<const Variant *> vars = b.config().withPrefix(var + "_");
  if (const Variant *named = b.config().find(var))
    vars.insert(vars.begin(), named);
  std::optional<Object> best;
  for (const Variant *v : vars) {
    std::string impl = vars.size() == 1 ? "tilec" : "tilec:" + v->name;
    guarded(b, family, shape, impl, v->name, [&] {
      Object r = measureOne(*v, impl);
      if (r.getNumber("ms") &&
          (!best || *r.getNumber("ms") < *best->getNumber("ms")))
        best = r;
    });
  }
  if (vars.size() > 1)
    recordBest(b, best ? &*best : nullptr);
}

double rate(const Object &r) {
  return r.getNumber("tflops").value_or(r.getNumber("gbs").value_or(0));
}

float toFloat(float v) { return v; }
float toFloat(tilec::f16 v) { return v.toFloat(); }

/// Counts the NaNs of \p values (elements nobody wrote keep the poison).
template <typename T> std::size_t countNaN(const std::vector<T> &values) {
  ErrorSum e = parallelError(
      values.size(), [&](std::size_t lo, std::size_t hi, ErrorSum &sum) {
        for (std::size_t i = lo; i < hi; ++i)
          if (std::isnan(double(toFloat(values[i]))))
            ++sum.nan;
      });
  return e.nan;
}

/// A random index below \p n for sample \p s.
std::size_t sampleIndex(std::uint64_t seed, std::size_t s, std::int64_t n) {
  return std::min<std::size_t>(n - 1, uniformAt(seed, s, 0, 1) * n);
}

/// One size of a family with one f32 input and one f32 output of the same
/// number of elements (copy, softmax, GeLU): the size's shape and variant,
/// the random input on the host and on the device, and the output buffer.
struct F32InOutProblem {
  std::string shape, var;
  std::vector<float> x;
  tilec::Buffer<float> dx, dy;

  F32InOutProblem(Bench &b, const Object &size, std::int64_t elements, float lo,
                  float hi)
      : shape(strField(size, "shape")), var(strField(size, "variant")),
        x(randomFloats(elements, b.seed(), lo, hi)),
        dx(b.device().alloc<float>(elements)),
        dy(b.device().alloc<float>(elements)) {
    dx.copyFrom(x);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// copy, softmax, GeLU
//===----------------------------------------------------------------------===//

void tilebench::runCopy(Bench &b) {
  for (const Value &size : b.config().sizesOf("copy")) {
    const Object &o = *size.getAsObject();
    std::int64_t n = intField(o, "n");
    F32InOutProblem p(b, o, n, -1, 1);
    auto check = [&] {
      std::vector<float> y = p.dy.toVector();
      return parallelError(n,
                           [&](std::size_t lo, std::size_t hi, ErrorSum &sum) {
                             for (std::size_t i = lo; i < hi; ++i)
                               sum.add(y[i], p.x[i]);
                           });
    };
    Bench::Case c{"copy", p.shape, "memcpy"};
    c.poison = [&] { p.dy.poison(); };
    c.launch = [&] { p.dy.copyFrom(p.dx); };
    c.check = check;
    c.tolerance = 1e-12;
    c.bytes = 2.0 * n * sizeof(float);
    b.measure(c);
    guarded(b, "copy", p.shape, "tilec", p.var, [&] {
      const tilec::Kernel &k = b.kernel(p.var);
      int grid = cdiv(n, b.config().find(p.var)->define("BLOCK"));
      c.impl = "tilec";
      c.extra = b.variantInfo(p.var);
      c.launch = [&] { k.launch({grid}, p.dy, p.dx, int(n)); };
      b.measure(c);
    });
  }
}

void tilebench::runSoftmax(Bench &b) {
  for (const Value &size : b.config().sizesOf("softmax")) {
    const Object &o = *size.getAsObject();
    std::int64_t M = intField(o, "M"), N = intField(o, "N");
    F32InOutProblem p(b, o, M * N, -4, 4);
    measureAlternatives(
        b, "softmax", p.shape, p.var,
        [&](const Variant &v, const std::string &impl) {
          const tilec::Kernel &k = b.kernel(v.name);
          Bench::Case c{"softmax", p.shape, impl, b.variantInfo(v.name)};
          c.poison = [&] { p.dy.poison(); };
          c.launch = [&] { k.launch({M}, p.dy, p.dx, int(N), int(N), int(N)); };
          c.check = [&] {
            std::vector<float> y = p.dy.toVector();
            return parallelError(
                M, [&](std::size_t lo, std::size_t hi, ErrorSum &sum) {
                  for (std::size_t r = lo; r < hi; ++r) {
                    const float *in = &p.x[r * N], *out = &y[r * N];
                    double mx = *std::max_element(in, in + N), total = 0;
                    for (std::int64_t i = 0; i < N; ++i)
                      total += std::exp(double(in[i]) - mx);
                    for (std::int64_t i = 0; i < N; ++i)
                      sum.add(out[i], std::exp(double(in[i]) - mx) / total);
                  }
                });
          };
          c.tolerance = b.config().tolerance("f32");
          c.bytes = 2.0 * M * N * sizeof(float);
          return b.measure(c);
        });
  }
}

void tilebench::runGelu(Bench &b) {
  for (const Value &size : b.config().sizesOf("gelu")) {
    const Object &o = *size.getAsObject();
    std::int64_t n = intField(o, "n");
    F32InOutProblem p(b, o, n, -5, 5);
    measureAlternatives(
        b, "gelu", p.shape, p.var,
        [&](const Variant &v, const std::string &impl) {
          const tilec::Kernel &k = b.kernel(v.name);
          int grid = cdiv(n, v.define("BLOCK"));
          Bench::Case c{"gelu", p.shape, impl, b.variantInfo(v.name)};
          c.poison = [&] { p.dy.poison(); };
          c.launch = [&] { k.launch({grid}, p.dy, p.dx, int(n)); };
          c.check = [&] {
            std::vector<float> y = p.dy.toVector();
            return parallelError(
                n, [&](std::size_t lo, std::size_t hi, ErrorSum &sum) {
                  for (std::size_t i = lo; i < hi; ++i) {
                    double v = p.x[i];
                    double t = 0.7978845608028654 * (v + 0.044715 * v * v * v);
                    sum.add(y[i], 0.5 * v * (1 + std::tanh(t)));
                  }
                });
          };
          c.tolerance = b.config().tolerance("f32");
          c.bytes = 2.0 * n * sizeof(float);
          return b.measure(c);
        });
  }
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

namespace {

/// One matmul size: inputs on the host and the device, and the case
/// (without its launch) shared by every variant.
template <typename T> struct MatmulProblem {
  std::int64_t M, N, K;
  std::vector<float> a, b; // The values the kernel sees (f16-rounded).
  tilec::Buffer<T> da, db, dc;

  MatmulProblem(Bench &bench, std::int64_t M, std::int64_t N, std::int64_t K)
      : M(M), N(N), K(K) {
    a = randomFloats(M * K, bench.seed(), -1, 1);
    b = randomFloats(K * N, bench.seed(), -1, 1);
    da = upload(bench, a);
    db = upload(bench, b);
    dc = bench.device().alloc<T>(M * N);
  }

  static tilec::Buffer<T> upload(Bench &bench, std::vector<float> &values) {
    tilec::Buffer<T> d = bench.device().alloc<T>(values.size());
    if constexpr (std::is_same_v<T, float>) {
      d.copyFrom(values);
    } else {
      std::vector<tilec::f16> h = toHalf(values);
      parallelFor(values.size(), [&](std::size_t lo, std::size_t hi) {
        for (std::size_t i = lo; i < hi; ++i)
          values[i] = h[i].toFloat();
      });
      d.copyFrom(h);
    }
    return d;
  }

  ErrorSum check(std::uint64_t seed) {
    std::vector<T> c = dc.toVector();
    ErrorSum err = parallelError(
        kSamples, [&](std::size_t lo, std::size_t hi, ErrorSum &sum) {
          for (std::size_t s = lo; s < hi; ++s) {
            std::size_t i = sampleIndex(seed, 2 * s, M);
            std::size_t j = sampleIndex(seed, 2 * s + 1, N);
            double ref = 0;
            for (std::int64_t k = 0; k < K; ++k)
              ref += double(a[i * K + k]) * b[k * N + j];
            sum.add(toFloat(c[i * N + j]), ref);
          }
        });
    err.nan = std::max(err.nan, countNaN(c));
    return err;
  }
};

/// Variants the larger matmul sizes try: the fastest on the second size.
/// Five, not three: at 2048^3 (one wave) the TMA variants pay their
/// tensor-map set-up unhidden and could fall out of a top three although
/// they lead at 4096^3 and 8192^3.
constexpr std::size_t kLargeSizeConfigs = 5;

struct MatmulChoice {
  /// The fastest kLargeSizeConfigs variants on the second size, which the
  /// larger sizes try (they are often within noise of each other there).
  std::vector<const Variant *> chosen;
  std::map<std::string, double> rate; // TFLOP/s per variant measured.
};

template <typename T>
void matmulSize(Bench &b, const Object &size, std::size_t index,
                const std::string &dt, MatmulChoice &choice) {
  std::int64_t M = intField(size, "M"), N = intField(size, "N"),
               K = intField(size, "K");
  std::string shape = strField(size, "shape");
  MatmulProblem<T> p(b, M, N, K);
  std::uint64_t sampleSeed = b.seed();
  double flops = 2.0 * M * N * K;
  Bench::Case base{"matmul", shape};
  base.poison = [&] { p.dc.poison(); };
  base.check = [&] { return p.check(sampleSeed); };
  base.tolerance = b.config().tolerance(dt == "f16" ? "f16" : "tf32");
  base.flops = flops;
  base.maxMs = 4000;

  auto run = [&](const Variant &v, const std::string &impl) {
    Object r;
    guarded(b, "matmul", shape, impl, v.name, [&] {
      const tilec::Kernel &k = b.kernel(v.name);
      int grid = cdiv(M, v.define("BLOCK_M")) * cdiv(N, v.define("BLOCK_N"));
      Bench::Case c = base;
      c.impl = impl;
      c.extra = b.variantInfo(v.name);
      c.launch = [&] {
        k.launch({grid}, p.dc, p.da, p.db, int(M), int(N), int(K), int(K),
                 int(N), int(N));
      };
      r = b.measure(c);
    });
    return r;
  };

  std::vector<const Variant *> vars =
      b.config().withPrefix("matmul_" + dt + "_");
  if (!choice.chosen.empty())
    vars = choice.chosen;
  std::optional<Object> best;
  for (const Variant *v : vars) {
    auto known = choice.rate.find(v->name);
    double left = b.budgetS() - b.elapsedS();
    if (known != choice.rate.end()) {
      double predMs = flops / (known->second * 1e9);
      if (predMs > 4000 || predMs * 8 / 1000 > left - 60) {
        b.out().row(Object{
            {"kernel", "matmul"},
            {"shape", shape},
            {"impl", "tilec:" + v->name},
            {"variant", v->name},
            {"skipped", llvm::formatv("predicted {0:f0} ms per launch; {1:f0} "
                                      "s of budget left",
                                      predMs, left)
                            .str()}});
        continue;
      }
    }
    Object r = run(*v, "tilec:" + v->name);
    if (r.getNumber("tflops")) {
      choice.rate[v->name] = rate(r);
      if (!best || *r.getNumber("ms") < *best->getNumber("ms"))
        best = r;
    }
  }
  recordBest(b, best ? &*best : nullptr);
  // The experiment of variants.py (B masked instead of `% N`), as run_bench.
  if (dt == "f16" && N == 4096 && K == M && (M == 4096 || M == 4000))
    for (const Variant *v : b.config().withPrefix("mmx_f16"))
      run(*v, "exp:" + v->name);
  if (index == 1 && !choice.rate.empty()) {
    std::vector<std::pair<double, std::string>> ranked;
    for (const auto &[name, tflops] : choice.rate)
      ranked.push_back({tflops, name});
    std::sort(ranked.rbegin(), ranked.rend());
    std::string names;
    for (std::size_t i = 0; i < ranked.size() && i < kLargeSizeConfigs; ++i) {
      choice.chosen.push_back(b.config().find(ranked[i].second));
      names += (i ? ", " : "") + ranked[i].second;
    }
    b.out().note("matmul " + dt + ": configs " + names +
                 " tried at the larger sizes");
  }
}

} // namespace

void tilebench::runMatmul(Bench &b) {
  for (const char *dt : {"f16", "f32"}) {
    MatmulChoice choice;
    std::size_t index = 0;
    for (const Value &size : b.config().sizesOf("matmul")) {
      const Object &o = *size.getAsObject();
      if (strField(o, "dtype") != dt)
        continue;
      if (std::string(dt) == "f16")
        matmulSize<tilec::f16>(b, o, index++, dt, choice);
      else
        matmulSize<float>(b, o, index++, dt, choice);
    }
  }
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

void tilebench::runConv2d(Bench &b) {
  for (const Value &size : b.config().sizesOf("conv2d")) {
    const Object &o = *size.getAsObject();
    std::int64_t NB = intField(o, "N"), H = intField(o, "H"),
                 C = intField(o, "C"), K = intField(o, "K");
    std::string shape = strField(o, "shape");
    std::int64_t pixels = NB * H * H;
    // NHWC input, KRSC filter, NPQK output (P = H, Q = W: 3x3, pad 1).
    std::vector<float> x = randomFloats(pixels * C, b.seed(), -1, 1);
    std::vector<float> w = randomFloats(K * 9 * C, b.seed(), -1, 1);
    std::vector<tilec::f16> hx = toHalf(x), hw = toHalf(w);
    tilec::Buffer<tilec::f16> dx = b.device().alloc<tilec::f16>(hx.size()),
                              dw = b.device().alloc<tilec::f16>(hw.size()),
                              dy = b.device().alloc<tilec::f16>(pixels * K);
    dx.copyFrom(hx);
    dw.copyFrom(hw);
    std::uint64_t sampleSeed = b.seed();
    Bench::Case base{"conv2d", shape};
    base.poison = [&] { dy.poison(); };
    base.check = [&] {
      std::vector<tilec::f16> y = dy.toVector();
      ErrorSum err = parallelError(
          kSamples, [&](std::size_t lo, std::size_t hi, ErrorSum &sum) {
            for (std::size_t s = lo; s < hi; ++s) {
              std::size_t m = sampleIndex(sampleSeed, 2 * s, pixels);
              std::size_t k = sampleIndex(sampleSeed, 2 * s + 1, K);
              std::int64_t n = m / (H * H), p = m / H % H, q = m % H;
              double ref = 0;
              for (int r = 0; r < 3; ++r)
                for (int t = 0; t < 3; ++t) {
                  std::int64_t h = p + r - 1, wi = q + t - 1;
                  if (h < 0 || h >= H || wi < 0 || wi >= H)
                    continue;
                  const tilec::f16 *xp = &hx[((n * H + h) * H + wi) * C];
                  const tilec::f16 *wp = &hw[((k * 3 + r) * 3 + t) * C];
                  for (std::int64_t c = 0; c < C; ++c)
                    ref += double(xp[c].toFloat()) * wp[c].toFloat();
                }
              sum.add(y[m * K + k].toFloat(), ref);
            }
          });
      err.nan = std::max(err.nan, countNaN(y));
      return err;
    };
    base.tolerance = b.config().tolerance("f16");
    base.flops = 2.0 * pixels * K * C * 9;
    base.maxMs = 3000;
    std::optional<Object> best;
    for (const Variant *v : b.config().withPrefix("conv2d_")) {
      guarded(b, "conv2d", shape, "tilec:" + v->name, v->name, [&] {
        const tilec::Kernel &k = b.kernel(v->name);
        tilec::Grid grid(cdiv(pixels, v->define("BLOCK_M")),
                         cdiv(K, v->define("BLOCK_N")));
        Bench::Case c = base;
        c.impl = "tilec:" + v->name;
        c.extra = b.variantInfo(v->name);
        c.launch = [&] {
          k.launch(grid, dy, dx, dw, int(NB), int(H), int(H), int(C), int(K),
                   int(H), int(H), 1, 1, 1, 1);
        };
        Object r = b.measure(c);
        if (r.getNumber("ms") &&
            (!best || *r.getNumber("ms") < *best->getNumber("ms")))
          best = r;
      });
    }
    recordBest(b, best ? &*best : nullptr);
  }
}
