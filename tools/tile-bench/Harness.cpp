//===- Harness.cpp - tile-bench: variants, compiles, timing, output -------===//
//
// Everything the benchmark families share: reading variants.json, compiling
// a variant through the JIT's kernel cache (with compile, disk-hit and
// memory-hit times), the JSON output, random inputs, float64 error sums on
// all host cores, and measure()/time(): correctness on poisoned output, then
// the median of CUDA-event-timed runs with L2 flushed, as bench/run_bench.py.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "tilec/Driver/Pipeline.h"
#include "tilec/JIT/TileBackend.h"
#include "tilec/Support/Random.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

using namespace tilebench;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

const char *const tilebench::kFamilies[5] = {"copy", "softmax", "gelu",
                                             "conv2d", "matmul"};

//===----------------------------------------------------------------------===//
// Variants
//===----------------------------------------------------------------------===//

std::string Variant::family() const { return tile.substr(0, tile.rfind('.')); }

std::int64_t Variant::define(const std::string &name) const {
  auto it = defines.find(name);
  return it == defines.end() ? 0 : it->second.asInt();
}

namespace {
std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw tilec::Error("tile-bench: cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

[[noreturn]] void badConfig(const std::string &path, const std::string &why) {
  throw tilec::Error("tile-bench: " + path + ": " + why +
                     " (expected the JSON of bench/variants.py --json)");
}

Variant parseVariant(const Object &o, const std::string &path) {
  Variant v;
  auto str = [&](const char *key) {
    std::optional<llvm::StringRef> s = o.getString(key);
    if (!s)
      badConfig(path, std::string("a variant has no string '") + key + "'");
    return s->str();
  };
  v.name = str("variant");
  v.tile = str("tile");
  v.kernel = str("kernel");
  v.numWarps = o.getInteger("num_warps").value_or(0);
  v.numStages = o.getInteger("num_stages").value_or(0);
  if (const Object *defs = o.getObject("defines"))
    for (const auto &[key, value] : *defs) {
      std::optional<std::int64_t> i = value.getAsInteger();
      if (!i)
        badConfig(path, "variant " + v.name + ": define " + key.str() +
                            " is not an integer");
      v.defines[key.str()] = *i;
    }
  if (const Array *div = o.getArray("divisible"))
    for (const Value &p : *div)
      if (std::optional<llvm::StringRef> s = p.getAsString())
        v.divisible.push_back(s->str());
  return v;
}
} // namespace

Config Config::load(const std::string &path) {
  llvm::Expected<Value> parsed = llvm::json::parse(readFile(path));
  if (!parsed)
    badConfig(path, llvm::toString(parsed.takeError()));
  Object *root = parsed->getAsObject();
  const Array *variants = root ? root->getArray("variants") : nullptr;
  const Object *sizes = root ? root->getObject("sizes") : nullptr;
  if (!variants || !sizes)
    badConfig(path, "no \"variants\" list or \"sizes\" object");
  Config c;
  for (const Value &v : *variants) {
    const Object *o = v.getAsObject();
    if (!o)
      badConfig(path, "a variant is not an object");
    c.variants.push_back(parseVariant(*o, path));
  }
  c.sizes = *sizes;
  if (const Object *tol = root->getObject("tolerances"))
    for (const auto &[key, value] : *tol)
      if (std::optional<double> d = value.getAsNumber())
        c.tolerances[key.str()] = *d;
  return c;
}

const Variant *Config::find(const std::string &name) const {
  for (const Variant &v : variants)
    if (v.name == name && !skipped.count(name))
      return &v;
  return nullptr;
}

std::vector<const Variant *>
Config::withPrefix(const std::string &prefix) const {
  std::vector<const Variant *> out;
  for (const Variant &v : variants)
    if (llvm::StringRef(v.name).starts_with(prefix) && !skipped.count(v.name))
      out.push_back(&v);
  std::sort(out.begin(), out.end(), [](const Variant *a, const Variant *b) {
    return a->name < b->name;
  });
  return out;
}

double Config::tolerance(const std::string &type) const {
  auto it = tolerances.find(type);
  return it == tolerances.end() ? 1e-5 : it->second;
}

const Array &Config::sizesOf(const std::string &family) const {
  static const Array empty;
  const Array *a = sizes.getArray(family);
  return a ? *a : empty;
}

//===----------------------------------------------------------------------===//
// JIT compiles
//===----------------------------------------------------------------------===//

VariantCompiler::VariantCompiler(std::string arch, std::string kernelDir,
                                 std::string cacheDir, std::string saveDir)
    : arch_(std::move(arch)), kernelDir_(std::move(kernelDir)),
      saveDir_(std::move(saveDir)), cache_(std::move(cacheDir)) {}

VariantCompiler::~VariantCompiler() = default;

tilec::KernelCompiler &VariantCompiler::compiler() {
  if (!compiler_) {
    std::uint64_t start = nowNs();
    compiler_ = std::make_unique<tilec::KernelCompiler>();
    setupMs_ += msSince(start);
  }
  return *compiler_;
}

std::string VariantCompiler::source(const std::string &tile) {
  auto it = sources_.find(tile);
  if (it == sources_.end())
    it = sources_.emplace(tile, readFile(kernelDir_ + "/" + tile)).first;
  return it->second;
}

tilec::CompiledKernel VariantCompiler::compile(const Variant &v,
                                               CompileStats &stats) {
  tilec::CompileRequest request;
  request.source = source(v.tile);
  request.sourceName = v.tile;
  request.kernel = v.kernel;
  request.constexprs = v.defines;
  request.options.arch = arch_;
  request.options.numWarps = v.numWarps;
  request.options.numStages = v.numStages;
  request.options.divisibleParams = v.divisible;
  std::string version = tilec::getVersionString();
  tilec::KernelCompiler &compiler = this->compiler();
  int misses = 0;
  tilec::CompileFn fn = [&](const tilec::CompileRequest &r) {
    ++misses;
    return tilec::compileTileKernelWith(compiler, r);
  };
  std::uint64_t start = nowNs();
  tilec::CompiledKernel kernel =
      tilec::compileCached(cache_, request, version, fn);
  stats.compileMs = msSince(start);
  stats.wasCached = misses == 0;
  cache_.clearMemory();
  start = nowNs();
  tilec::compileCached(cache_, request, version, fn);
  stats.diskHitMs = msSince(start);
  start = nowNs();
  tilec::compileCached(cache_, request, version, fn);
  stats.memoryHitUs = msSince(start) * 1e3;
  if (misses > 1)
    stats.diskHitMs = -1; // Not cached on disk: no hit to report.
  save(v, kernel);
  return kernel;
}

void VariantCompiler::save(const Variant &v,
                           const tilec::CompiledKernel &kernel) const {
  if (saveDir_.empty())
    return;
  auto write = [&](const char *ext, const std::string &text) {
    std::string path = saveDir_ + "/" + v.name + ext;
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (!ec) {
      os << text;
      os.close();
      ec = os.error();
    }
    if (ec)
      throw tilec::Error("cannot write " + path + ": " + ec.message());
  };
  write(".ptx", kernel.binary);
  write(".json", kernel.meta.toJson());
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

Output::Output(std::string path) : path_(std::move(path)) {}

void Output::row(Object r) {
  std::string line;
  llvm::raw_string_ostream os(line);
  Object brief;
  for (const char *key : {"kernel", "shape", "impl", "ms", "tflops", "gbs",
                          "relerr", "ok", "error", "skipped"})
    if (const Value *v = r.get(key))
      brief[key] = *v;
  os << Value(std::move(brief));
  std::printf("ROW %s\n", line.c_str());
  std::fflush(stdout);
  rows_.push_back(std::move(r));
  save();
}

void Output::compile(Object c) {
  compiles_.push_back(std::move(c));
  save();
}

void Output::note(const std::string &text) {
  std::printf("NOTE %s\n", text.c_str());
  std::fflush(stdout);
  notes_.push_back(text);
  save();
}

void Output::set(const std::string &key, Value value) {
  extra_[key] = std::move(value);
  save();
}

void Output::save() const {
  if (path_.empty())
    return;
  Object root = extra_;
  root["tool"] = "tile-bench";
  root["env"] = Object(env_);
  auto array = [](const auto &items) {
    Array a;
    for (const auto &item : items)
      a.push_back(std::decay_t<decltype(item)>(item));
    return a;
  };
  root["rows"] = array(rows_);
  root["compile"] = array(compiles_);
  root["notes"] = array(notes_);
  std::string tmp = path_ + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << llvm::formatv("{0:1}", Value(std::move(root))).str() << "\n";
    if (!f)
      throw tilec::Error("tile-bench: cannot write '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0)
    throw tilec::Error("tile-bench: cannot write '" + path_ + "'");
}

//===----------------------------------------------------------------------===//
// Host helpers
//===----------------------------------------------------------------------===//

std::uint64_t tilebench::nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double tilebench::msSince(std::uint64_t startNs) {
  return (nowNs() - startNs) * 1e-6;
}

void tilebench::parallelFor(
    std::size_t n, const std::function<void(std::size_t, std::size_t)> &fn) {
  std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, n / 4096 + 1);
  if (threads <= 1) {
    fn(0, n);
    return;
  }
  std::vector<std::thread> pool;
  std::size_t chunk = (n + threads - 1) / threads;
  for (std::size_t begin = 0; begin < n; begin += chunk)
    pool.emplace_back(fn, begin, std::min(n, begin + chunk));
  for (std::thread &t : pool)
    t.join();
}

float tilebench::uniformAt(std::uint64_t seed, std::uint64_t i, float lo,
                           float hi) {
  // Element i of the seed's sequence: independent of the thread that asks.
  std::uint64_t z = tilec::randomAt(seed, i);
  return lo + (hi - lo) * float((z >> 40) * (1.0 / (1ull << 24)));
}

std::vector<float> tilebench::randomFloats(std::size_t n, std::uint64_t seed,
                                           float lo, float hi) {
  std::vector<float> out(n);
  parallelFor(n, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      out[i] = uniformAt(seed, i, lo, hi);
  });
  return out;
}

std::vector<tilec::f16> tilebench::toHalf(const std::vector<float> &values) {
  std::vector<tilec::f16> out(values.size());
  parallelFor(values.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i)
      out[i] = tilec::f16::fromFloat(values[i]);
  });
  return out;
}

void ErrorSum::add(double got, double ref) {
  ++count;
  ref2 += ref * ref;
  if (std::isnan(got)) {
    ++nan;
    got = 0;
  }
  diff2 += (got - ref) * (got - ref);
}

void ErrorSum::merge(const ErrorSum &other) {
  diff2 += other.diff2;
  ref2 += other.ref2;
  nan += other.nan;
  count += other.count;
}

double ErrorSum::relErr() const {
  return ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
}

ErrorSum tilebench::parallelError(
    std::size_t n,
    const std::function<void(std::size_t, std::size_t, ErrorSum &)> &fn) {
  std::mutex mutex;
  ErrorSum total;
  parallelFor(n, [&](std::size_t b, std::size_t e) {
    ErrorSum part;
    fn(b, e, part);
    std::lock_guard<std::mutex> lock(mutex);
    total.merge(part);
  });
  return total;
}

//===----------------------------------------------------------------------===//
// Bench
//===----------------------------------------------------------------------===//

Bench::Bench(tilec::Device device, const Config &config,
             VariantCompiler &compiler, Output &out, Settings settings)
    : device_(std::move(device)), config_(config), compiler_(compiler),
      out_(out), settings_(settings), startNs_(nowNs()) {
  // triton.testing.do_bench clears a 256 MB buffer before each repetition.
  flush_ = device_.alloc<std::uint8_t>(settings_.flushBytes);
}

double Bench::elapsedS() const { return msSince(startNs_) * 1e-3; }

const tilec::Kernel &Bench::kernel(const std::string &name) {
  auto it = kernels_.find(name);
  if (it != kernels_.end())
    return it->second;
  const Variant *v = config_.find(name);
  if (!v)
    throw tilec::Error("tile-bench: no variant '" + name + "'");
  CompileStats stats;
  tilec::CompiledKernel compiled = compiler_.compile(*v, stats);
  std::uint64_t start = nowNs();
  tilec::Kernel k =
      tilec::Kernel::load(device_, compiled.binary, compiled.meta);
  stats.loadMs = msSince(start);
  stats_[name] = stats;
  out_.compile(
      Object{{"variant", name},
             {"compile_ms", stats.compileMs},
             {"load_ms", stats.loadMs},
             {"disk_hit_ms", stats.diskHitMs},
             {"memory_hit_us", stats.memoryHitUs},
             {"was_cached", stats.wasCached},
             {"regs", k.numRegisters()},
             {"shared_bytes", std::int64_t(compiled.meta.sharedBytes)}});
  return kernels_.emplace(name, k).first->second;
}

Object Bench::variantInfo(const std::string &name) {
  const tilec::Kernel &k = kernel(name);
  const CompileStats &s = stats_[name];
  return Object{{"variant", name},
                {"compile_s", s.compileMs * 1e-3},
                {"compile_hit_ms", s.diskHitMs},
                {"load_ms", s.loadMs},
                {"regs", k.numRegisters()},
                {"shared_bytes", std::int64_t(k.info().sharedBytes)}};
}

void Bench::flushL2() { flush_.fillBytes(0); }

double Bench::eventMs(const std::function<void()> &fn) {
  tilec::Timer timer(device_);
  timer.start();
  fn();
  return timer.stop();
}

double Bench::time(const std::function<void()> &fn, double estMs,
                   std::string &how) {
  if (estMs > 40) {
    int n = estMs < 300 ? 5 : (estMs < 1500 ? 3 : 1);
    std::vector<double> ms;
    for (int i = 0; i < n; ++i)
      ms.push_back(eventMs(fn));
    std::sort(ms.begin(), ms.end());
    how = "events x" + std::to_string(n);
    return ms[ms.size() / 2];
  }
  // do_bench(fn, warmup=25, rep=100, return_mode="median").
  fn();
  device_.synchronize();
  double est = eventMs([&] {
                 for (int i = 0; i < 5; ++i) {
                   flushL2();
                   fn();
                 }
               }) /
               5;
  int warmup = std::clamp(int(25 / std::max(est, 1e-4)), 1, settings_.maxReps);
  int reps = std::clamp(int(100 / std::max(est, 1e-4)), 1, settings_.maxReps);
  for (int i = 0; i < warmup; ++i)
    fn();
  std::vector<tilec::Event> starts, ends;
  for (int i = 0; i < reps; ++i) {
    starts.emplace_back(device_);
    ends.emplace_back(device_);
  }
  for (int i = 0; i < reps; ++i) {
    flushL2();
    starts[i].record();
    fn();
    ends[i].record();
  }
  device_.synchronize();
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i)
    ms.push_back(tilec::Event::elapsedMs(starts[i], ends[i]));
  std::sort(ms.begin(), ms.end());
  how = "do_bench x" + std::to_string(reps);
  return ms.size() % 2 ? ms[ms.size() / 2]
                       : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
}

Object Bench::measure(Case c) {
  Object r = std::move(c.extra);
  r["kernel"] = c.kernel;
  r["shape"] = c.shape;
  r["impl"] = c.impl;
  bool lost = false;
  try {
    if (c.poison)
      c.poison();
    c.launch();
    device_.synchronize();
    ErrorSum err = c.check();
    r["relerr"] = err.relErr();
    r["nan"] = std::int64_t(err.nan);
    r["checked"] = std::int64_t(err.count);
    r["ok"] = err.nan == 0 && err.relErr() < c.tolerance;
    double est = eventMs(c.launch);
    r["est_ms"] = est;
    std::string how = "single launch";
    double ms = est > c.maxMs ? est : time(c.launch, est, how);
    r["ms"] = ms;
    r["timing"] = how;
    if (c.flops)
      r["tflops"] = c.flops / ms / 1e9;
    if (c.bytes)
      r["gbs"] = c.bytes / ms / 1e6;
  } catch (const tilec::Error &e) {
    r["ok"] = false;
    r["error"] = std::string(e.what()).substr(0, 400);
    try {
      device_.synchronize();
    } catch (const tilec::Error &) {
      lost = true;
    }
  }
  out_.row(r);
  if (lost)
    throw ContextLost("tile-bench: the CUDA context is lost after " + c.impl +
                          " " + c.kernel + " " + c.shape,
                      r.getString("variant").value_or("").str());
  return r;
}
