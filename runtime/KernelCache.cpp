//===- KernelCache.cpp - In-memory and on-disk cache of kernels -----------===//
//
// One file per key, `<dir>/<key>.tkc`:
//
//   tilec-kernel-cache 1 <key> <metadata bytes> <binary bytes> <xxh64>\n
//   <metadata JSON><binary>
//
// where xxh64 covers everything after the header line. A reader accepts an
// entry only if the header parses, the sizes add up to the file size exactly,
// the checksum matches and the metadata parses; anything else is a miss.
// Writers publish entries with writeFileAtomically (temporary file + rename),
// so readers see either no entry or a complete one, never a partial write.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/KernelCache.h"

#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/Files.h"
#include "tilec/Runtime/Hash.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

using namespace tilec;

namespace {

constexpr std::string_view kMagic = "tilec-kernel-cache";
constexpr int kFormatVersion = 1;

/// Keys become file names: allow only [A-Za-z0-9_-], at most 128 of them.
bool isValidKey(const std::string &key) {
  if (key.empty() || key.size() > 128)
    return false;
  for (char c : key)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-')
      return false;
  return true;
}

/// Appends "<tag>=<length>:<bytes>\n" so no two field lists serialize alike.
void addField(Sha256 &hash, std::string_view tag, std::string_view value) {
  std::string prefix =
      std::string(tag) + "=" + std::to_string(value.size()) + ":";
  hash.update(prefix);
  hash.update(value);
  hash.update("\n");
}

bool makeDirectories(const std::string &dir, std::string &error) {
  if (dir.empty())
    return true;
  std::string path;
  std::size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    path = dir.substr(0, pos);
    if (path.empty())
      continue;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
      error = "cannot create directory '" + path + "': " + std::strerror(errno);
      return false;
    }
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = "'" + dir + "' is not a directory";
    return false;
  }
  return true;
}

bool parseSize(std::string_view text, std::uint64_t &out) {
  if (text.empty() || text.size() > 19)
    return false;
  out = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    out = out * 10 + std::uint64_t(c - '0');
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Keys and atomic files
//===----------------------------------------------------------------------===//

std::string tilec::defaultCacheDir() {
  if (const char *dir = std::getenv("TILEC_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/tilec";
  return "";
}

std::string tilec::cacheKey(const CompileRequest &request,
                            std::string_view compilerVersion) {
  Sha256 hash;
  hash.update("tilec-cache-key-v2\n");
  addField(hash, "compiler", compilerVersion);
  addField(hash, "source", request.source);
  addField(hash, "kernel", request.kernel);
  hash.update(request.options.getKeyText());
  addField(hash, "constexprs", std::to_string(request.constexprs.size()));
  for (const auto &[name, value] : request.constexprs) {
    addField(hash, "name", name);
    static const char *kKinds[] = {"int", "float", "bool"};
    addField(hash, kKinds[static_cast<int>(value.kind())], value.str());
  }
  // Added only for Python sources, so that the keys of .tile requests stay
  // as they were.
  if (request.language == CompileRequest::Language::Python) {
    addField(hash, "language", "python");
    addField(hash, "signature", request.signature);
    if (request.signatureOfRuntimeParams)
      addField(hash, "signature-of", "runtime parameters");
    if (!request.hostEnvironment.empty())
      addField(hash, "host-environment", request.hostEnvironment);
  }
  // sourceName only labels diagnostics; it does not change the code.
  return hash.hexDigest();
}

bool tilec::writeFileAtomically(const std::string &path, std::string_view bytes,
                                std::string *error) {
  std::string why;
  auto failed = [&](const std::string &message) {
    if (error)
      *error = message;
    return false;
  };
  std::size_t slash = path.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  if (slash != std::string::npos && !makeDirectories(dir, why))
    return failed(why);
  std::string temp = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0)
    return failed("cannot create a temporary file in '" + dir +
                  "': " + std::strerror(errno));
  ::fchmod(fd, 0644);
  const char *p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      why = std::strerror(errno);
      ::close(fd);
      ::unlink(temp.c_str());
      return failed("cannot write '" + temp + "': " + why);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    why = std::strerror(errno);
    ::unlink(temp.c_str());
    return failed("cannot write '" + temp + "': " + why);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    why = std::strerror(errno);
    ::unlink(temp.c_str());
    return failed("cannot rename '" + temp + "' to '" + path + "': " + why);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// KernelCache
//===----------------------------------------------------------------------===//

struct KernelCache::Impl {
  std::string directory;
  std::mutex mutex;
  std::unordered_map<std::string, CompiledKernel> memory;
};

KernelCache::KernelCache(std::string directory) : impl_(new Impl) {
  while (directory.size() > 1 && directory.back() == '/')
    directory.pop_back();
  impl_->directory = std::move(directory);
}

KernelCache::~KernelCache() = default;

const std::string &KernelCache::directory() const { return impl_->directory; }

std::string KernelCache::entryPath(const std::string &key) const {
  return impl_->directory + "/" + key + ".tkc";
}

void KernelCache::clearMemory() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->memory.clear();
}

std::string KernelCache::encodeEntry(const std::string &key,
                                     const CompiledKernel &kernel) {
  std::string meta = kernel.meta.toJson();
  std::string body = meta + kernel.binary;
  char checksum[17];
  std::snprintf(checksum, sizeof(checksum), "%016llx",
                static_cast<unsigned long long>(xxh64(body)));
  std::string header =
      std::string(kMagic) + " " + std::to_string(kFormatVersion) + " " + key +
      " " + std::to_string(meta.size()) + " " +
      std::to_string(kernel.binary.size()) + " " + checksum + "\n";
  return header + body;
}

std::optional<CompiledKernel> KernelCache::decodeEntry(std::string_view bytes,
                                                       const std::string &key,
                                                       std::string *why) {
  auto miss = [&](const std::string &reason) -> std::optional<CompiledKernel> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  std::size_t newline = bytes.find('\n');
  if (newline == std::string_view::npos || newline > 512)
    return miss("corrupt entry: no header line");
  std::string_view header = bytes.substr(0, newline);
  std::string_view fields[6];
  std::size_t count = 0, start = 0;
  while (start <= header.size() && count < 6) {
    std::size_t space = header.find(' ', start);
    std::size_t end = space == std::string_view::npos ? header.size() : space;
    fields[count++] = header.substr(start, end - start);
    if (space == std::string_view::npos)
      break;
    start = space + 1;
  }
  std::uint64_t version = 0, metaSize = 0, binarySize = 0;
  if (count != 6 || fields[0] != kMagic || !parseSize(fields[1], version) ||
      !parseSize(fields[3], metaSize) || !parseSize(fields[4], binarySize) ||
      fields[5].size() != 16)
    return miss("corrupt entry: malformed header");
  if (version != kFormatVersion)
    return miss("entry of another format version");
  if (fields[2] != key)
    return miss("entry for another key");
  std::string_view body = bytes.substr(newline + 1);
  if (metaSize > body.size() || binarySize != body.size() - metaSize)
    return miss("corrupt entry: truncated or wrong size");
  char checksum[17];
  std::snprintf(checksum, sizeof(checksum), "%016llx",
                static_cast<unsigned long long>(xxh64(body)));
  if (fields[5] != checksum)
    return miss("corrupt entry: checksum mismatch");
  CompiledKernel kernel;
  try {
    kernel.meta = KernelMetadata::fromJson(body.substr(0, metaSize), key);
  } catch (const Error &e) {
    return miss(std::string("corrupt entry: ") + e.what());
  }
  kernel.binary = std::string(body.substr(metaSize));
  return kernel;
}

std::optional<CompiledKernel> KernelCache::lookup(const std::string &key,
                                                  std::string *whyMiss) {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    auto it = impl_->memory.find(key);
    if (it != impl_->memory.end())
      return it->second;
  }
  auto miss = [&](const std::string &reason) -> std::optional<CompiledKernel> {
    if (whyMiss)
      *whyMiss = reason;
    return std::nullopt;
  };
  if (impl_->directory.empty())
    return miss("no entry");
  if (!isValidKey(key))
    return miss("invalid key");
  // Regular files only, size checked before reading: a FIFO, a device or a
  // huge file in the cache directory is a miss, never a blocked or
  // unbounded read.
  std::string path = entryPath(key), bytes;
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return miss(errno == ENOENT ? "no entry" : std::strerror(errno));
  try {
    bytes = detail::readWholeFile(path, "cache entry", detail::kMaxBinaryBytes,
                                  detail::FileKind::Regular);
  } catch (const Error &e) {
    return miss(e.what());
  }
  std::optional<CompiledKernel> kernel = decodeEntry(bytes, key, whyMiss);
  if (kernel) {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->memory.emplace(key, *kernel);
  }
  return kernel;
}

bool KernelCache::store(const std::string &key, const CompiledKernel &kernel,
                        std::string *error) {
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    impl_->memory[key] = kernel;
  }
  if (impl_->directory.empty())
    return true;
  if (!isValidKey(key)) {
    if (error)
      *error = "invalid cache key '" + key + "'";
    return false;
  }
  return writeFileAtomically(entryPath(key), encodeEntry(key, kernel), error);
}

std::string tilec::describeEntryMismatch(const KernelMetadata &meta,
                                         const CompileRequest &request) {
  if (meta.kernel != request.kernel)
    return "entry for kernel '" + meta.kernel + "', not '" + request.kernel +
           "'";
  if (meta.sourceHash != sha256Hex(request.source))
    return "entry for another source";
  std::string invalid = request.options.validate();
  if (invalid.empty() && meta.arch != request.options.getTarget().str())
    return "entry for " + meta.arch;
  if (request.options.numWarps != 0 &&
      meta.numWarps != request.options.numWarps)
    return "entry for num_warps = " + std::to_string(meta.numWarps);
  if (request.options.numStages != 0 &&
      meta.numStages != request.options.numStages)
    return "entry for num_stages = " + std::to_string(meta.numStages);
  for (const auto &[name, value] : request.constexprs) {
    auto it = meta.constexprs.find(name);
    if (it == meta.constexprs.end() || !(it->second == value))
      return "entry for another value of constexpr " + name;
  }
  return "";
}

CompiledKernel tilec::compileCached(KernelCache &cache,
                                    const CompileRequest &request,
                                    std::string_view compilerVersion,
                                    const CompileFn &compile) {
  std::string key = cacheKey(request, compilerVersion);
  // An entry is served only if its metadata describes this request: a key
  // collision or an entry another kernel's body was copied into (with its
  // checksum recomputed) is a miss and is rebuilt.
  if (std::optional<CompiledKernel> hit = cache.lookup(key);
      hit && describeEntryMismatch(hit->meta, request).empty())
    return *std::move(hit);
  if (!compile)
    throw Error("tilec: no compiler backend to compile kernel '" +
                request.kernel + "'");
  CompiledKernel kernel = compile(request);
  cache.store(key, kernel); // A disk failure leaves it cached in memory.
  return kernel;
}
