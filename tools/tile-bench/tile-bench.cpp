//===- tile-bench.cpp - Benchmark the tilec kernels through the JIT ------===//
//
// Compiles the variants of bench/variants.py (bench/kernels/*.tile) at run
// time, records each compile (cold, disk-cache hit, memory-cache hit),
// checks every kernel against a float64 reference on NaN-poisoned output,
// and times it with CUDA events as bench/run_bench.py does. Writes JSON rows
// that run_bench.py --merge puts beside the peers (cuBLAS, cuDNN, torch,
// Triton) it measures in the same run.
//
//   tile-bench [--only=softmax,gelu] [--json=FILE]   # on a GPU
//   tile-bench --compile-only [--arch=sm_90a]         # anywhere
//
// Exit status: 0 when every check passed, 1 when one failed, 2 on a bad
// variants file or --only, 77 when there is no GPU (and no --compile-only).
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "tilec/Driver/Pipeline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

using namespace tilebench;
namespace cl = llvm::cl;
using llvm::json::Object;

namespace {

cl::OptionCategory category("tile-bench options");

cl::opt<std::string> variantsPath(
    "variants", cl::value_desc("FILE"), cl::cat(category),
    cl::desc("The variants and sizes: the JSON of `bench/variants.py "
             "--json` (default: ../bench/variants.json beside the binary, "
             "else the build tree's)"));
cl::opt<std::string> kernelDir(
    "kernels", cl::value_desc("DIR"), cl::cat(category),
    cl::desc("The directory of the benchmark .tile files (default: "
             "../bench/kernels beside the binary, else the source tree's)"));
cl::opt<std::string>
    only("only", cl::value_desc("LIST"), cl::cat(category),
         cl::init("copy,softmax,gelu,conv2d,matmul"),
         cl::desc("Families to run: copy,softmax,gelu,conv2d,matmul"));
cl::opt<std::string>
    skip("skip", cl::value_desc("LIST"), cl::cat(category),
         cl::desc("Variants to leave out (one that faulted in an earlier run: "
                  "its lost CUDA context would end this one too)"));
cl::opt<std::string> jsonPath("json", cl::value_desc("FILE"), cl::cat(category),
                              cl::desc("Write every row to FILE (JSON)"));
cl::opt<bool> compileOnly(
    "compile-only", cl::cat(category),
    cl::desc("Only compile the variants (no GPU needed) and report the "
             "compile times"));
cl::opt<bool> listOnly("list", cl::cat(category),
                       cl::desc("Print the variants and sizes, then exit"));
cl::opt<std::string>
    archOpt("arch", cl::value_desc("ARCH"), cl::cat(category),
            cl::desc("The target (sm_80, sm_90, sm_90a); default the GPU's, "
                     "with sm_90a for sm_90 as the JIT; sm_90a with "
                     "--compile-only"));
cl::opt<std::string>
    cacheDir("cache-dir", cl::value_desc("DIR"), cl::cat(category),
             cl::desc("The kernel cache (default: a new temporary directory, "
                      "so that the first compile of each variant is cold)"));
cl::opt<std::string> saveKernels(
    "save-kernels", cl::value_desc("DIR"), cl::cat(category),
    cl::desc("Also write each compiled variant to DIR as VARIANT.ptx and "
             "VARIANT.json (tilec's metadata), for bench/head_to_head.py"));
cl::opt<unsigned long long>
    seedOpt("seed", cl::cat(category),
            cl::desc("Seed of the random inputs (default: random, printed)"));
cl::opt<double>
    budgetS("budget-s", cl::init(150), cl::cat(category),
            cl::desc("Seconds after which slow matmul variants are skipped"));
cl::opt<unsigned> flushMB(
    "flush-mb", cl::init(256), cl::cat(category),
    cl::desc("The buffer cleared before each timed run to flush L2, MB"));
cl::opt<unsigned>
    maxReps("max-reps", cl::init(100000), cl::cat(category),
            cl::desc("The most timed runs per measurement (do_bench takes "
                     "as many as fit in 100 ms)"));
cl::opt<int> deviceOrdinal("device", cl::init(0), cl::cat(category),
                           cl::desc("The GPU to run on"));

/// \p option's value, else \p rel beside the binary if it exists, else
/// \p fallback (a path of the build).
std::string defaultPath(const std::string &option, const char *argv0,
                        const char *rel, const char *fallback) {
  if (!option.empty())
    return option;
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&defaultPath));
  llvm::SmallString<256> path(llvm::sys::path::parent_path(exe));
  llvm::sys::path::append(path, "..", rel);
  return llvm::sys::fs::exists(path) ? std::string(path) : fallback;
}

/// The families of --only, in their run order; exits on an unknown one.
std::vector<std::string> selectedFamilies() {
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(only).split(names, ',', -1, false);
  for (llvm::StringRef n : names)
    if (std::find_if(std::begin(kFamilies), std::end(kFamilies),
                     [&](const char *f) { return n == f; }) ==
        std::end(kFamilies)) {
      std::fprintf(stderr,
                   "tile-bench: error: unknown family '%s' in --only (copy, "
                   "softmax, gelu, conv2d, matmul)\n",
                   n.str().c_str());
      std::exit(2);
    }
  std::vector<std::string> out;
  for (const char *f : kFamilies)
    if (llvm::is_contained(names, f))
      out.push_back(f);
  return out;
}

void listConfig(const Config &config) {
  for (const Variant &v : config.variants) {
    std::string defs;
    for (const auto &[name, value] : v.defines)
      defs += " " + name + "=" + value.str();
    std::printf("variant %-28s %s -k %s%s num_warps=%d num_stages=%d%s%s\n",
                v.name.c_str(), v.tile.c_str(), v.kernel.c_str(), defs.c_str(),
                v.numWarps, v.numStages,
                v.divisible.empty() ? "" : " divisible=",
                llvm::join(v.divisible, ",").c_str());
  }
  for (const char *f : kFamilies)
    for (const llvm::json::Value &s : config.sizesOf(f))
      if (const Object *o = s.getAsObject())
        std::printf("size    %-8s %s\n", f,
                    o->getString("shape").value_or("?").str().c_str());
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Compiles every selected variant without a GPU; prints the times.
int compileAll(const Config &config, const std::vector<std::string> &families,
               VariantCompiler &compiler, Output &out) {
  int failures = 0;
  std::vector<double> cold, disk, memory;
  for (const Variant &v : config.variants) {
    if (!llvm::is_contained(families, v.family()) ||
        config.skipped.count(v.name))
      continue;
    CompileStats s;
    try {
      tilec::CompiledKernel k = compiler.compile(v, s);
      std::printf("compile %-28s %8.1f ms cold, %6.2f ms disk hit, %6.1f us "
                  "memory hit%s\n",
                  v.name.c_str(), s.compileMs, s.diskHitMs, s.memoryHitUs,
                  s.wasCached ? " (was cached)" : "");
      cold.push_back(s.compileMs);
      disk.push_back(s.diskHitMs);
      memory.push_back(s.memoryHitUs);
      out.compile(Object{{"variant", v.name},
                         {"compile_ms", s.compileMs},
                         {"disk_hit_ms", s.diskHitMs},
                         {"memory_hit_us", s.memoryHitUs},
                         {"was_cached", s.wasCached},
                         {"ptx_bytes", std::int64_t(k.binary.size())},
                         {"shared_bytes", std::int64_t(k.meta.sharedBytes)}});
    } catch (const tilec::Error &e) {
      std::printf("compile %-28s FAILED: %s\n", v.name.c_str(), e.what());
      out.compile(Object{{"variant", v.name}, {"error", e.what()}});
      ++failures;
    }
  }
  std::printf("%zu compiled for %s, %d failed: median %.1f ms cold (max "
              "%.1f), %.2f ms disk hit, %.1f us memory hit; %.0f ms of "
              "pipeline setup\n",
              cold.size(), compiler.arch().c_str(), failures, median(cold),
              cold.empty() ? 0.0 : *std::max_element(cold.begin(), cold.end()),
              median(disk), median(memory), compiler.setupMs());
  return failures ? 1 : 0;
}

/// The best row per kernel and size as a short table; returns the number
/// of failed checks (every variant's row counts, skipped ones not).
int printSummary(const Output &out) {
  int failed = 0, passed = 0;
  for (const Object &r : out.rows()) {
    if (r.get("best") || r.get("skipped"))
      continue;
    ++(r.getBoolean("ok").value_or(false) ? passed : failed);
  }
  std::printf("\n%-8s %-28s %-28s %12s %-16s %9s %9s\n", "kernel", "shape",
              "impl", "rate", "check", "cold ms", "hit ms");
  for (const Object &r : out.rows()) {
    llvm::StringRef impl = r.getString("impl").value_or("");
    if (impl.starts_with("tilec:") || impl.starts_with("exp:"))
      continue; // Every variant's row; "tilec" repeats the best one.
    std::string rate = "-", check = r.get("skipped") ? "skipped" : "ERROR";
    if (std::optional<double> t = r.getNumber("tflops"))
      rate = llvm::formatv("{0:f1} TF", *t).str();
    else if (std::optional<double> g = r.getNumber("gbs"))
      rate = llvm::formatv("{0:f0} GB/s", *g).str();
    if (std::optional<double> e = r.getNumber("relerr"))
      check =
          llvm::formatv("{0} {1:e1}",
                        r.getBoolean("ok").value_or(false) ? "ok" : "FAIL", *e)
              .str();
    auto ms = [&](const char *key, double scale) {
      std::optional<double> v = r.getNumber(key);
      return v ? llvm::formatv("{0:f2}", *v * scale).str() : std::string("-");
    };
    std::printf("%-8s %-28s %-28s %12s %-16s %9s %9s\n",
                r.getString("kernel").value_or("").str().c_str(),
                r.getString("shape").value_or("").str().c_str(),
                (impl == "tilec" ? r.getString("variant").value_or(impl) : impl)
                    .str()
                    .c_str(),
                rate.c_str(), check.c_str(), ms("compile_s", 1e3).c_str(),
                ms("compile_hit_ms", 1).c_str());
  }
  std::printf("tile-bench: %d passed, %d failed\n", passed, failed);
  return failed;
}

int runOnGpu(const Config &config, const std::vector<std::string> &families,
             Output &out, std::uint64_t seed) {
  std::string why;
  if (!tilec::Device::driverAvailable(&why) ||
      tilec::Device::count() <= deviceOrdinal) {
    std::string msg = "no GPU " + std::to_string(deviceOrdinal) + " here (" +
                      (why.empty() ? "no CUDA device" : why) +
                      "): nothing measured; --compile-only compiles the "
                      "variants without one";
    std::fprintf(stderr, "tile-bench: %s\n", msg.c_str());
    out.set("error", msg);
    return 77;
  }
  tilec::Device device = tilec::Device::open(deviceOrdinal);
  std::string arch = archOpt;
  if (arch.empty()) {
    auto [major, minor] = device.computeCapability();
    arch = tilec::Target::forDevice(major, minor).str();
  }
  VariantCompiler compiler(arch, kernelDir, cacheDir, saveKernels);
  out.env()["device"] = device.name();
  out.env()["sm_count"] = device.multiprocessorCount();
  out.env()["arch"] = arch;
  out.save();
  std::printf("device: %s (%s, %d SMs), compiling for %s, seed %llu\n",
              device.name().c_str(), device.arch().c_str(),
              device.multiprocessorCount(), arch.c_str(),
              static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  Bench bench(device, config, compiler, out,
              {seed, budgetS, std::size_t(flushMB) << 20, int(maxReps)});
  void (*run[])(Bench &) = {runCopy, runSoftmax, runGelu, runConv2d, runMatmul};
  for (std::size_t i = 0; i < std::size(kFamilies); ++i) {
    if (!llvm::is_contained(families, kFamilies[i]))
      continue;
    std::printf("==== %s (at %.0f s)\n", kFamilies[i], bench.elapsedS());
    std::fflush(stdout);
    try {
      run[i](bench);
    } catch (const ContextLost &e) {
      out.note(std::string(e.what()) + ": the remaining families are lost");
      out.set("lost_variant", e.variant);
      printSummary(out);
      return 1;
    } catch (const tilec::Error &e) {
      out.note(std::string("family ") + kFamilies[i] + " aborted: " + e.what());
    }
  }
  out.set("total_s", bench.elapsedS());
  out.set("compile_setup_ms", compiler.setupMs());
  return printSummary(out) ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tile-bench: the tilec benchmark kernels through the JIT, checked "
      "against float64 references and timed with CUDA events\n");
  variantsPath = defaultPath(variantsPath, argv[0], "bench/variants.json",
                             TILE_BENCH_VARIANTS);
  kernelDir =
      defaultPath(kernelDir, argv[0], "bench/kernels", TILE_BENCH_KERNELS);
  Config config;
  try {
    config = Config::load(variantsPath);
  } catch (const tilec::Error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  llvm::SmallVector<llvm::StringRef> skipped;
  llvm::StringRef(skip).split(skipped, ',', -1, false);
  for (llvm::StringRef name : skipped)
    config.skipped.insert(name.str());
  try {
    if (listOnly) {
      listConfig(config);
      return 0;
    }
    std::vector<std::string> families = selectedFamilies();
    std::uint64_t seed =
        seedOpt.getNumOccurrences() ? seedOpt : std::random_device()();
    std::string tempCache;
    if (cacheDir.empty()) {
      llvm::SmallString<128> dir;
      if (llvm::sys::fs::createUniqueDirectory("tile-bench-cache", dir))
        throw tilec::Error("tile-bench: cannot make a temporary directory");
      cacheDir = tempCache = std::string(dir);
    }
    if (!saveKernels.empty())
      if (std::error_code ec =
              llvm::sys::fs::create_directories(saveKernels.getValue()))
        throw tilec::Error("cannot make " + saveKernels.getValue() + ": " +
                           ec.message());
    Output out(jsonPath);
    out.env()["compiler"] = tilec::getVersionString();
    out.env()["variants"] = std::string(variantsPath);
    out.env()["kernels"] = std::string(kernelDir);
    out.env()["seed"] = std::int64_t(seed);
    int status;
    if (compileOnly) {
      VariantCompiler compiler(archOpt.empty() ? "sm_90a" : archOpt.getValue(),
                               kernelDir, cacheDir, saveKernels);
      status = compileAll(config, families, compiler, out);
    } else {
      status = runOnGpu(config, families, out, seed);
    }
    out.save();
    if (!tempCache.empty())
      std::filesystem::remove_all(tempCache);
    return status;
  } catch (const tilec::Error &e) {
    std::fprintf(stderr, "tile-bench: error: %s\n", e.what());
    return 1;
  }
}
