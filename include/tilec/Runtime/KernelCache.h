//===- KernelCache.h - In-memory and on-disk cache of kernels ---*- C++ -*-===//
//
// Compiled kernels are cached under a SHA-256 key of everything that
// determines them (source, kernel name, constexprs, options, arch, compiler
// version). The cache has two levels: a map in memory and a directory on
// disk holding one file per key. Disk writes go to a temporary file in the
// same directory and are renamed into place, so any number of processes may
// write the same key at once; each entry carries a checksum, so a truncated
// or corrupt entry reads as a miss and is rebuilt by the caller.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_KERNELCACHE_H
#define TILEC_RUNTIME_KERNELCACHE_H

#include "tilec/Runtime/CompilerBackend.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// The cache directory the host API uses by default: `$TILEC_CACHE_DIR` when
/// set and not empty, else `$HOME/.cache/tilec`, else "" (no disk cache).
std::string defaultCacheDir();

/// The cache key of \p request compiled by \p compilerVersion: 64 lowercase
/// hex digits (SHA-256 of an unambiguous serialization of every field).
std::string cacheKey(const CompileRequest &request,
                     std::string_view compilerVersion);

/// A two-level (memory, disk) cache of compiled kernels. Thread-safe.
class KernelCache {
public:
  /// A cache that keeps entries under \p directory (created on the first
  /// store); an empty directory keeps them in memory only.
  explicit KernelCache(std::string directory);
  ~KernelCache();
  KernelCache(const KernelCache &) = delete;
  KernelCache &operator=(const KernelCache &) = delete;

  /// The entry for \p key, from memory or else from disk (then kept in
  /// memory). std::nullopt on a miss -- including an entry on disk that is
  /// truncated, corrupt or for another key; \p whyMiss (optional) then says
  /// why. Never throws for a bad entry.
  std::optional<CompiledKernel> lookup(const std::string &key,
                                       std::string *whyMiss = nullptr);

  /// Stores \p kernel under \p key in memory and, when there is a directory,
  /// atomically on disk. A failure to write the disk entry is not an error
  /// (the kernel stays cached in memory): returns false and sets \p error.
  bool store(const std::string &key, const CompiledKernel &kernel,
             std::string *error = nullptr);

  /// Forgets the in-memory entries (the disk entries stay).
  void clearMemory();

  /// The directory ("" when memory only).
  const std::string &directory() const;
  /// The file that holds \p key's disk entry.
  std::string entryPath(const std::string &key) const;

  /// Serializes an entry to the on-disk format (header line with sizes and a
  /// checksum, the metadata JSON, the binary).
  static std::string encodeEntry(const std::string &key,
                                 const CompiledKernel &kernel);
  /// Parses an on-disk entry; std::nullopt (and \p why) when it is not a
  /// complete, intact entry for \p key.
  static std::optional<CompiledKernel> decodeEntry(std::string_view bytes,
                                                   const std::string &key,
                                                   std::string *why = nullptr);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Why an entry with metadata \p meta cannot be what \p request made
/// (another kernel, source, target, num_warps, num_stages or constexpr
/// value); "" when it can. (The compiler version is part of the key.)
std::string describeEntryMismatch(const KernelMetadata &meta,
                                  const CompileRequest &request);

/// Looks \p request up in \p cache; on a miss (or an entry whose metadata
/// does not match the request, describeEntryMismatch()) compiles it with
/// \p compile and stores the result. Compile errors propagate (as tilec::Error)
/// and are not cached. This is the body of Compiler::compileSource.
CompiledKernel compileCached(KernelCache &cache, const CompileRequest &request,
                             std::string_view compilerVersion,
                             const CompileFn &compile);

/// Writes \p bytes to \p path atomically: to a temporary file in the same
/// directory, then rename(). Creates missing parent directories. Returns
/// false and sets \p error on failure.
bool writeFileAtomically(const std::string &path, std::string_view bytes,
                         std::string *error = nullptr);

} // namespace tilec

#endif // TILEC_RUNTIME_KERNELCACHE_H
