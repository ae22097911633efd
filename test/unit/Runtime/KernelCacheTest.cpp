//===- KernelCacheTest.cpp - The kernel cache: hits, misses, corruption ---===//
//
// Cache keys change with every input that changes the code; entries survive
// a new process (disk), a truncated or corrupted entry reads as a miss, and
// eight processes writing the same key at once all succeed and leave a valid
// entry. Lookups of a warm cache take well under a millisecond.
//
//===----------------------------------------------------------------------===//

#include "TestSupport/TimingBounds.h"

#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/Hash.h"
#include "tilec/Runtime/KernelCache.h"
#include "tilec/tilec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tilec;

namespace {

/// A fresh, empty directory under the test temp dir.
std::string freshDir(const std::string &name) {
  std::string dir = ::testing::TempDir() + "tilec_cache_" + name + "_" +
                    std::to_string(::getpid());
  std::string command = "rm -rf '" + dir + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  return dir + "/nested/cache";
}

CompileRequest sampleRequest() {
  CompileRequest r;
  r.source = "@kernel\ndef k(x: *f32):\n    pass\n";
  r.sourceName = "k.tile";
  r.kernel = "k";
  r.constexprs = {{"BLOCK", 128}};
  r.options.arch = "sm_90";
  return r;
}

CompiledKernel sampleKernel(std::size_t ptxBytes = 4096) {
  CompiledKernel k;
  k.binary = ".version 8.0\n.target sm_90\n.visible .entry k()\n{\n  ret;\n}\n";
  while (k.binary.size() < ptxBytes)
    k.binary += "// padding padding padding padding padding padding\n";
  k.meta.kernel = "k";
  k.meta.arch = "sm_90";
  k.meta.params = {{"x", *ParamType::parse("*f32")}};
  k.meta.constexprs = {{"BLOCK", 128}};
  return k;
}

/// What compiling \p request gives, as far as the cache can tell.
CompiledKernel compiledFrom(const CompileRequest &request) {
  CompiledKernel k = sampleKernel();
  k.meta.kernel = request.kernel;
  k.meta.constexprs = request.constexprs;
  k.meta.sourceHash = sha256Hex(request.source);
  return k;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::vector<std::string> listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        names.push_back(e->d_name);
    closedir(d);
  }
  return names;
}

} // namespace

TEST(CacheKey, DependsOnEveryInput) {
  CompileRequest base = sampleRequest();
  std::string key = cacheKey(base, "v1");
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, cacheKey(base, "v1"));
  std::vector<CompileRequest> variants(13, base);
  variants[0].source += " ";
  variants[1].kernel = "k2";
  variants[2].constexprs["BLOCK"] = 256;
  variants[3].constexprs["BLOCK"] = 128.0; // Same number, another kind.
  variants[4].options.arch = "sm_90a";
  variants[5].options.numWarps = 8;
  variants[6].options.numStages = 4;
  variants[7].options.optLevel = 0;
  variants[8].options.pointerAlignment = 1;
  variants[9].options.divisibleParams = {"n"};
  variants[10].options.unitParams = {"n"};
  variants[11].options.fpFusion = false;
  // Which list a name is in matters, not only the names.
  variants[12].options.divisibleParams = {"a"};
  variants[12].options.unitParams = {"b"};
  CompileRequest swapped = variants[12];
  std::swap(swapped.options.divisibleParams, swapped.options.unitParams);
  EXPECT_NE(cacheKey(swapped, "v1"), cacheKey(variants[12], "v1"));
  for (std::size_t i = 0; i < variants.size(); ++i)
    EXPECT_NE(cacheKey(variants[i], "v1"), key) << i;
  EXPECT_NE(cacheKey(base, "v2"), key);
  CompileRequest renamed = base;
  renamed.sourceName = "other.tile"; // Only labels diagnostics.
  EXPECT_EQ(cacheKey(renamed, "v1"), key);
}

// A Python source's module-level code may read the environment to choose
// its helpers: the values it read are part of the key.
TEST(CacheKey, PythonSourcesKeyTheEnvironmentTheyRead) {
  CompileRequest python = sampleRequest();
  python.language = CompileRequest::Language::Python;
  python.signature = "*fp32";
  std::string key = cacheKey(python, "v1");
  CompileRequest set = python, unset = python;
  set.hostEnvironment = "FAST=1\n";
  unset.hostEnvironment = "FAST unset\n";
  EXPECT_NE(cacheKey(set, "v1"), key);
  EXPECT_NE(cacheKey(unset, "v1"), key);
  EXPECT_NE(cacheKey(set, "v1"), cacheKey(unset, "v1"));
}

TEST(KernelCache, MissThenHitInMemoryAndOnDisk) {
  std::string dir = freshDir("hit");
  std::string key = cacheKey(sampleRequest(), "v1");
  {
    KernelCache cache(dir);
    std::string why;
    EXPECT_FALSE(cache.lookup(key, &why));
    EXPECT_EQ(why, "no entry");
    std::string error;
    ASSERT_TRUE(cache.store(key, sampleKernel(), &error)) << error;
    std::optional<CompiledKernel> hit = cache.lookup(key);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->binary, sampleKernel().binary);
  }
  // A new cache (as in a new process) finds the entry on disk.
  KernelCache again(dir);
  std::optional<CompiledKernel> hit = again.lookup(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->binary, sampleKernel().binary);
  EXPECT_EQ(hit->meta, sampleKernel().meta);
  // No temporary files are left behind.
  EXPECT_EQ(listDir(dir), std::vector<std::string>{key + ".tkc"});
}

TEST(KernelCache, MemoryOnly) {
  KernelCache cache("");
  EXPECT_FALSE(cache.lookup("abc"));
  EXPECT_TRUE(cache.store("abc", sampleKernel()));
  EXPECT_TRUE(cache.lookup("abc"));
  cache.clearMemory();
  EXPECT_FALSE(cache.lookup("abc"));
}

TEST(KernelCache, CorruptEntriesAreMisses) {
  std::string dir = freshDir("corrupt");
  std::string key = cacheKey(sampleRequest(), "v1");
  KernelCache writer(dir);
  ASSERT_TRUE(writer.store(key, sampleKernel()));
  std::string path = writer.entryPath(key);
  std::string good = readFile(path);

  auto whyMiss = [&](const std::string &bytes) {
    writeFile(path, bytes);
    KernelCache reader(dir);
    std::string why;
    EXPECT_FALSE(reader.lookup(key, &why)) << "accepted a bad entry";
    return why;
  };
  EXPECT_EQ(whyMiss(good.substr(0, good.size() - 1)),
            "corrupt entry: truncated or wrong size");
  EXPECT_EQ(whyMiss(good.substr(0, 10)), "corrupt entry: no header line");
  EXPECT_EQ(whyMiss(""), "corrupt entry: no header line");
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x20;
  EXPECT_EQ(whyMiss(flipped), "corrupt entry: checksum mismatch");
  EXPECT_EQ(whyMiss(good + "x"), "corrupt entry: truncated or wrong size");
  std::string otherKey = good;
  otherKey.replace(otherKey.find(key), 1, key[0] == 'a' ? "b" : "a");
  EXPECT_EQ(whyMiss(otherKey), "entry for another key");
  EXPECT_EQ(whyMiss("tilec-kernel-cache 1 " + key +
                    " 99999999999999999999 "
                    "0 0000000000000000\n"),
            "corrupt entry: malformed header");

  // The caller rebuilds and stores again; the entry is good once more.
  KernelCache rebuilt(dir);
  ASSERT_TRUE(rebuilt.store(key, sampleKernel()));
  KernelCache reader(dir);
  EXPECT_TRUE(reader.lookup(key));
}

TEST(KernelCache, DecodeNeverCrashesOnGarbage) {
  std::string key = "k";
  std::string entry = KernelCache::encodeEntry(key, sampleKernel(256));
  for (std::size_t cut = 0; cut < entry.size(); cut += 7)
    EXPECT_FALSE(KernelCache::decodeEntry(entry.substr(0, cut), key));
  EXPECT_TRUE(KernelCache::decodeEntry(entry, key));
}

TEST(KernelCache, ConcurrentWritersOfOneKey) {
  std::string dir = freshDir("concurrent");
  std::string key = cacheKey(sampleRequest(), "v1");
  CompiledKernel kernel = sampleKernel(1 << 20); // Big enough to interleave.
  constexpr int kWriters = 8;
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  std::vector<pid_t> children;
  for (int i = 0; i < kWriters; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Wait for the start signal so all eight write at the same moment.
      char c;
      close(ready[1]);
      if (read(ready[0], &c, 1) != 0)
        _exit(3);
      KernelCache cache(dir);
      bool ok = true;
      for (int round = 0; round < 5; ++round)
        ok &= cache.store(key, kernel);
      _exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  close(ready[0]);
  close(ready[1]); // Releases every child at once.
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  KernelCache reader(dir);
  std::string why;
  std::optional<CompiledKernel> hit = reader.lookup(key, &why);
  ASSERT_TRUE(hit) << why;
  EXPECT_EQ(hit->binary, kernel.binary);
  EXPECT_EQ(listDir(dir), std::vector<std::string>{key + ".tkc"});
}

/// Milliseconds of CPU this thread has used so far. The lookups are timed
/// with it: wall time on a loaded CI machine (other tests compiling on
/// both cores) once measured 30-36 ms for a 0.9 ms lookup.
double threadCpuMs() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

TEST(KernelCache, LookupsAreFast) {
  std::string dir = freshDir("fast");
  std::string key = cacheKey(sampleRequest(), "v1");
  KernelCache writer(dir);
  ASSERT_TRUE(writer.store(key, sampleKernel(256 * 1024)));
  // Cold: from the file (256 KiB of PTX), checksum included; each lookup
  // through a new cache (empty memory tier); the median of 5.
  std::vector<double> diskTimes;
  for (int i = 0; i < 5; ++i) {
    KernelCache fresh(dir);
    double start = threadCpuMs();
    ASSERT_TRUE(fresh.lookup(key));
    diskTimes.push_back(threadCpuMs() - start);
  }
  std::sort(diskTimes.begin(), diskTimes.end());
  double diskMs = diskTimes[diskTimes.size() / 2];
  // Warm: key computation plus a memory hit.
  KernelCache cache(dir);
  ASSERT_TRUE(cache.lookup(key));
  CompileRequest request = sampleRequest();
  double start = threadCpuMs();
  for (int i = 0; i < 100; ++i)
    ASSERT_TRUE(cache.lookup(cacheKey(request, "v1")));
  double warmMs = (threadCpuMs() - start) / 100;
  EXPECT_LT(warmMs, tilec::test::timeBound(0.5));
  EXPECT_LT(diskMs, tilec::test::timeBound(5.0));
  std::printf("cache lookup (thread CPU time): %.3f ms warm, %.3f ms from "
              "the file\n",
              warmMs, diskMs);
}

TEST(KernelCache, CompileCachedCompilesOnce) {
  std::string dir = freshDir("compile");
  int compiles = 0;
  CompileFn compile = [&](const CompileRequest &request) {
    ++compiles;
    return compiledFrom(request);
  };
  KernelCache cache(dir);
  CompiledKernel a = compileCached(cache, sampleRequest(), "v1", compile);
  CompiledKernel b = compileCached(cache, sampleRequest(), "v1", compile);
  EXPECT_EQ(compiles, 1);
  EXPECT_EQ(a.binary, b.binary);
  KernelCache fresh(dir); // Another process: still no recompilation.
  compileCached(fresh, sampleRequest(), "v1", compile);
  EXPECT_EQ(compiles, 1);
  compileCached(fresh, sampleRequest(), "v2", compile);
  EXPECT_EQ(compiles, 2);

  // Compile errors propagate and are not cached.
  CompileFn failing = [&](const CompileRequest &) -> CompiledKernel {
    ++compiles;
    throw Error("k.tile:1:1: error: nope");
  };
  CompileRequest other = sampleRequest();
  other.kernel = "broken";
  EXPECT_THROW(compileCached(fresh, other, "v1", failing), Error);
  EXPECT_THROW(compileCached(fresh, other, "v1", failing), Error);
  EXPECT_EQ(compiles, 4);
}

// Issue 25: cache reads never block and never read without bound.
TEST(KernelCache, SpecialFilesAreMissesAtOnce) {
  std::string dir = freshDir("special");
  ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  KernelCache cache(dir);
  std::string key = cacheKey(sampleRequest(), "v1");
  std::string path = cache.entryPath(key);
  std::time_t start = std::time(nullptr);
  std::string why;

  // A FIFO nobody writes: opening it for reading used to block forever.
  ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
  EXPECT_FALSE(cache.lookup(key, &why));
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
  ::unlink(path.c_str());

  // A symlink to /dev/zero: used to be read until std::bad_alloc.
  ASSERT_EQ(::symlink("/dev/zero", path.c_str()), 0);
  EXPECT_FALSE(cache.lookup(key, &why));
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
  ::unlink(path.c_str());

  // A 3 GB sparse file: refused by its size, before reading.
  int fd = ::open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, off_t(3) << 30), 0);
  ::close(fd);
  EXPECT_FALSE(cache.lookup(key, &why));
  EXPECT_NE(why.find("larger than the limit of 256 MiB"), std::string::npos)
      << why;
  ::unlink(path.c_str());

  EXPECT_FALSE(cache.lookup(key, &why));
  EXPECT_EQ(why, "no entry");
  EXPECT_LT(std::time(nullptr) - start, 10);
}

TEST(KernelCache, EntriesAreCrossCheckedWithTheRequest) {
  CompileRequest request = sampleRequest();
  CompiledKernel kernel = compiledFrom(request);
  EXPECT_EQ(describeEntryMismatch(kernel.meta, request), "");

  CompiledKernel other = kernel;
  other.meta.kernel = "other";
  EXPECT_EQ(describeEntryMismatch(other.meta, request),
            "entry for kernel 'other', not 'k'");
  other = kernel;
  other.meta.sourceHash = sha256Hex("another source");
  EXPECT_EQ(describeEntryMismatch(other.meta, request),
            "entry for another source");
  other = kernel;
  other.meta.arch = "sm_80";
  EXPECT_EQ(describeEntryMismatch(other.meta, request), "entry for sm_80");
  other = kernel;
  other.meta.constexprs["BLOCK"] = ConstexprValue::ofInt(64);
  EXPECT_EQ(describeEntryMismatch(other.meta, request),
            "entry for another value of constexpr BLOCK");
  CompileRequest warps = request;
  warps.options.numWarps = 8;
  EXPECT_EQ(describeEntryMismatch(kernel.meta, warps),
            "entry for num_warps = 4");

  // An intact entry (checksum recomputed) with another kernel's body and
  // metadata under this request's key is rebuilt, not served.
  std::string dir = freshDir("crosscheck");
  std::string key = cacheKey(request, "v1");
  CompiledKernel foreign = kernel;
  foreign.meta.kernel = "other";
  foreign.binary = "// another kernel's PTX\n";
  {
    KernelCache writer(dir);
    ASSERT_TRUE(writer.store(key, foreign));
  }
  KernelCache cache(dir);
  int compiles = 0;
  CompileFn compile = [&](const CompileRequest &r) {
    ++compiles;
    return compiledFrom(r);
  };
  CompiledKernel served = compileCached(cache, request, "v1", compile);
  EXPECT_EQ(compiles, 1);
  EXPECT_EQ(served.meta.kernel, "k");
  EXPECT_EQ(served.binary, kernel.binary);
  // The rebuilt entry replaced the foreign one.
  KernelCache again(dir);
  compileCached(again, request, "v1", compile);
  EXPECT_EQ(compiles, 1);
}

TEST(KernelCache, UnwritableDirectoryKeepsMemoryEntry) {
  KernelCache cache("/proc/tilec-cannot-exist/cache");
  std::string error;
  EXPECT_FALSE(cache.store("abc", sampleKernel(), &error));
  EXPECT_NE(error.find("cannot create directory"), std::string::npos) << error;
  EXPECT_TRUE(cache.lookup("abc"));
}

TEST(KernelCache, DefaultDirectory) {
  const char *saved = std::getenv("TILEC_CACHE_DIR");
  std::string savedValue = saved ? saved : "";
  setenv("TILEC_CACHE_DIR", "/tmp/somewhere", 1);
  EXPECT_EQ(defaultCacheDir(), "/tmp/somewhere");
  unsetenv("TILEC_CACHE_DIR");
  if (const char *home = std::getenv("HOME"); home && *home) {
    EXPECT_EQ(defaultCacheDir(), std::string(home) + "/.cache/tilec");
  }
  if (saved)
    setenv("TILEC_CACHE_DIR", savedValue.c_str(), 1);
}

TEST(Autotune, RemembersTheChoicePerProblem) {
  std::string dir = freshDir("tune");
  CompilerOptions options;
  options.cacheDir = dir;
  std::vector<TuneConfig> configs = {{{{"BLOCK", 64}}, 4, 0},
                                     {{{"BLOCK", 128}}, 8, 3}};
  EXPECT_EQ(configs[1].str(), "BLOCK=128,num_warps=8,num_stages=3");
  EXPECT_EQ(TuneConfig().str(), "(defaults)");
  std::string path = detail::tuneRecordPath(
      options, "sm_90", "/nonexistent.tile", "k", configs, "n=1024");
  EXPECT_EQ(path.rfind(dir + "/autotune/", 0), 0u) << path;
  EXPECT_NE(path, detail::tuneRecordPath(options, "sm_90", "/nonexistent.tile",
                                         "k", configs, "n=2048"));
  EXPECT_NE(path, detail::tuneRecordPath(options, "sm_80", "/nonexistent.tile",
                                         "k", configs, "n=1024"));
  EXPECT_FALSE(detail::loadTuneChoice(path, configs.size()));
  detail::saveTuneChoice(path, 1, 0.25f);
  EXPECT_EQ(detail::loadTuneChoice(path, configs.size()), std::size_t(1));
  EXPECT_FALSE(detail::loadTuneChoice(path, 1)); // Index out of range now.
  options.cacheDir = "";
  EXPECT_EQ(detail::tuneRecordPath(options, "sm_90", "f", "k", configs, "x"),
            "");
}
