//===- Hash.h - SHA-256 and a fast checksum ---------------------*- C++ -*-===//
//
// Self-contained hashing for the runtime (which links no LLVM): SHA-256 for
// cache keys and `source_hash` in the kernel metadata, and XXH64 as the fast
// integrity checksum of on-disk cache entries.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_HASH_H
#define TILEC_RUNTIME_HASH_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilec {

/// Incremental SHA-256 (FIPS 180-4).
class Sha256 {
public:
  Sha256();
  /// Appends \p data to the message.
  void update(std::string_view data);
  /// Appends \p size bytes at \p data.
  void update(const void *data, std::size_t size);
  /// Finishes and returns the 32-byte digest; the object is spent afterwards.
  std::array<std::uint8_t, 32> digest();
  /// Finishes and returns the digest as 64 lowercase hex digits.
  std::string hexDigest();

private:
  void compress(const std::uint8_t *block);
  std::uint32_t state_[8];
  std::uint8_t buffer_[64];
  std::size_t buffered_ = 0;
  std::uint64_t totalBytes_ = 0;
};

/// SHA-256 of \p data as 64 lowercase hex digits.
std::string sha256Hex(std::string_view data);

/// XXH64 of \p data with \p seed (bit-compatible with the reference xxHash).
std::uint64_t xxh64(std::string_view data, std::uint64_t seed = 0);

/// \p bytes as lowercase hex.
std::string toHex(const std::uint8_t *bytes, std::size_t size);

} // namespace tilec

#endif // TILEC_RUNTIME_HASH_H
