//===- Bench.h - tile-bench: variants, JIT compiles, timing, rows -*- C++ -*-=//
//
// tile-bench measures the benchmark kernels (bench/kernels/*.tile) through
// the JIT host API: each variant of bench/variants.py (read from the JSON of
// `variants.py --json`) is compiled at run time through the kernel cache,
// loaded, checked against a float64 reference on poisoned output, then timed
// with CUDA events as bench/run_bench.py times (triton's do_bench: warm-up,
// L2 flushed before every repetition, median). Rows have run_bench.py's
// schema, so its report merges them with the peers it measures.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILE_BENCH_BENCH_H
#define TILEC_TOOLS_TILE_BENCH_BENCH_H

#include "tilec/tilec.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tilec {
class KernelCompiler;
} // namespace tilec

namespace tilebench {

/// The kernel families, in the order they run.
extern const char *const kFamilies[5];

/// One compiled variant of a benchmark kernel (an entry of variants.py).
struct Variant {
  std::string name;
  /// The file under the kernel directory ("softmax.tile"); its stem is the
  /// family.
  std::string tile;
  std::string kernel;
  tilec::Constexprs defines;
  int numWarps = 0;
  int numStages = 0;
  /// Integer parameters promised to be multiples of 16 (tilec --divisible).
  std::vector<std::string> divisible;

  std::string family() const;
  /// The constexpr value \p name as an integer (0 when absent).
  std::int64_t define(const std::string &name) const;
};

/// The JSON of `bench/variants.py --json`: variants, sizes, tolerances.
struct Config {
  std::vector<Variant> variants;
  /// Family -> list of size objects ({"M":..,"N":..,"shape":..}, ...).
  llvm::json::Object sizes;
  std::map<std::string, double> tolerances;
  /// Variants left out (--skip): find() and withPrefix() do not see them.
  std::set<std::string> skipped;

  /// Reads \p path; throws tilec::Error when it is missing or malformed.
  static Config load(const std::string &path);
  const Variant *find(const std::string &name) const;
  /// The variants whose name starts with \p prefix, sorted by name.
  std::vector<const Variant *> withPrefix(const std::string &prefix) const;
  double tolerance(const std::string &type) const;
  /// The size list of \p family (empty when there is none).
  const llvm::json::Array &sizesOf(const std::string &family) const;
};

/// What one JIT compile of a variant cost.
struct CompileStats {
  /// Through the cache, on a miss: parse + compile to PTX + store (ms).
  double compileMs = 0;
  /// The driver loading the PTX (its JIT to SASS), ms; 0 without a device.
  double loadMs = 0;
  /// The same request again with the in-memory cache cleared (disk), ms.
  double diskHitMs = 0;
  /// And once more, from memory, in microseconds.
  double memoryHitUs = 0;
  /// True when the first lookup already hit (a warm cache directory).
  bool wasCached = false;
};

/// Compiles variants with the tilec pipeline through a KernelCache (the
/// JIT's two-level cache), with each variant's --divisible specialization in
/// its request. The requests go to one KernelCompiler directly (not through
/// tilec::Compiler) so that the miss, disk-hit and memory-hit times are the
/// cache's alone.
class VariantCompiler {
public:
  /// \p saveDir, when not empty, receives each compiled variant as
  /// VARIANT.ptx and VARIANT.json (the metadata tilec writes), for tools that
  /// launch the same PTX themselves (bench/head_to_head.py).
  VariantCompiler(std::string arch, std::string kernelDir, std::string cacheDir,
                  std::string saveDir = "");
  ~VariantCompiler();

  /// Compiles \p v (first a miss, then a disk hit and a memory hit).
  tilec::CompiledKernel compile(const Variant &v, CompileStats &stats);
  const std::string &arch() const { return arch_; }
  /// Milliseconds spent making pipeline instances (MLIR contexts).
  double setupMs() const { return setupMs_; }

private:
  tilec::KernelCompiler &compiler();
  std::string source(const std::string &tile);

  void save(const Variant &v, const tilec::CompiledKernel &kernel) const;

  std::string arch_, kernelDir_, saveDir_;
  tilec::KernelCache cache_;
  std::unique_ptr<tilec::KernelCompiler> compiler_;
  std::map<std::string, std::string> sources_;
  double setupMs_ = 0;
};

/// The JSON written by tile-bench: {"env", "rows", "compile", "notes"}.
/// Saved after every change, so a crash loses nothing measured.
class Output {
public:
  explicit Output(std::string path);
  llvm::json::Object &env() { return env_; }
  /// Appends a row, prints it ("ROW {...}") and saves.
  void row(llvm::json::Object r);
  void compile(llvm::json::Object c);
  void note(const std::string &text);
  void set(const std::string &key, llvm::json::Value value);
  const std::vector<llvm::json::Object> &rows() const { return rows_; }
  void save() const;

private:
  std::string path_;
  llvm::json::Object env_, extra_;
  std::vector<llvm::json::Object> rows_, compiles_;
  std::vector<std::string> notes_;
};

/// Milliseconds since \p start of the steady clock.
double msSince(std::uint64_t startNs);
std::uint64_t nowNs();

/// Runs fn(begin, end) over [0, n) in chunks on all host cores.
void parallelFor(std::size_t n,
                 const std::function<void(std::size_t, std::size_t)> &fn);

/// A reproducible uniform random number in [lo, hi) for element \p i.
float uniformAt(std::uint64_t seed, std::uint64_t i, float lo, float hi);
std::vector<float> randomFloats(std::size_t n, std::uint64_t seed, float lo,
                                float hi);
std::vector<tilec::f16> toHalf(const std::vector<float> &values);

/// Error of an output against a float64 reference: ||got - ref|| / ||ref||
/// with NaN outputs counted (and taken as 0), as run_bench.py computes it.
struct ErrorSum {
  double diff2 = 0, ref2 = 0;
  std::size_t nan = 0, count = 0;

  void add(double got, double ref);
  void merge(const ErrorSum &other);
  double relErr() const;
};
/// ErrorSum over [0, n): fn(begin, end, sum) on all cores.
ErrorSum parallelError(
    std::size_t n,
    const std::function<void(std::size_t, std::size_t, ErrorSum &)> &fn);

/// Thrown when the CUDA context is lost (a kernel faulted): the family
/// stops, as nothing else can run in this process. \p variant is the one
/// that ran last ("" when it was no variant of ours).
struct ContextLost : tilec::Error {
  ContextLost(const std::string &message, std::string variant)
      : tilec::Error(message), variant(std::move(variant)) {}
  std::string variant;
};

/// One GPU and what the families share: variants compiled and loaded on
/// first use, the timing method, the output.
class Bench {
public:
  struct Settings {
    /// The first seed of the random inputs (each input takes the next).
    std::uint64_t seed = 0;
    /// Seconds after which slow matmul variants are skipped.
    double budgetS = 150;
    /// Bytes cleared before each timed run (L2 flush), as do_bench.
    std::size_t flushBytes = 256u << 20;
    int maxReps = 100000;
  };
  Bench(tilec::Device device, const Config &config, VariantCompiler &compiler,
        Output &out, Settings settings);

  tilec::Device &device() { return device_; }
  const Config &config() const { return config_; }
  Output &out() { return out_; }
  std::uint64_t seed() { return settings_.seed++; }
  /// Seconds since the benchmark started, and the budget for slow kernels.
  double elapsedS() const;
  double budgetS() const { return settings_.budgetS; }

  /// The loaded kernel of \p variant (compiled on first use).
  const tilec::Kernel &kernel(const std::string &variant);
  /// Row fields describing \p variant: name, compile times, registers.
  llvm::json::Object variantInfo(const std::string &variant);

  /// What measure() needs to know about one implementation.
  struct Case {
    std::string kernel, shape, impl;
    llvm::json::Object extra;
    std::function<void()> poison, launch;
    /// Reads the output back and compares it with the reference.
    std::function<ErrorSum()> check;
    double tolerance = 0, flops = 0, bytes = 0;
    /// Above this many ms per launch, one timed launch is the result.
    double maxMs = 1e30;
  };
  /// Correctness first (poison, launch, check), then the median time; adds
  /// the row to the output and returns it. Launch or check failures make a
  /// failed row; a lost context throws ContextLost after the row.
  llvm::json::Object measure(Case c);
  /// Median ms of \p fn: triton's do_bench (L2 flushed before each rep)
  /// unless one launch takes over 40 ms. \p how says which.
  double time(const std::function<void()> &fn, double estMs, std::string &how);

private:
  double eventMs(const std::function<void()> &fn);
  void flushL2();

  tilec::Device device_;
  const Config &config_;
  VariantCompiler &compiler_;
  Output &out_;
  Settings settings_;
  std::uint64_t startNs_;
  tilec::Buffer<std::uint8_t> flush_;
  std::map<std::string, tilec::Kernel> kernels_;
  std::map<std::string, CompileStats> stats_;
};

/// The families: each measures every size of bench/variants.py.
void runCopy(Bench &bench);
void runSoftmax(Bench &bench);
void runGelu(Bench &bench);
void runMatmul(Bench &bench);
void runConv2d(Bench &bench);

} // namespace tilebench

#endif // TILEC_TOOLS_TILE_BENCH_BENCH_H
