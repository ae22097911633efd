//===- Hash.cpp - SHA-256 and XXH64 ---------------------------------------===//
//
// Straightforward implementations of SHA-256 (FIPS 180-4) and XXH64 (the
// reference algorithm by Yann Collet), so that the runtime needs no crypto or
// LLVM library. Both are checked against published test vectors in the unit
// tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Hash.h"

#include <algorithm>
#include <cstring>

using namespace tilec;

namespace {

constexpr std::uint32_t kSha256Round[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline std::uint32_t rotr32(std::uint32_t x, unsigned n) {
  return (x >> n) | (x << (32 - n));
}

inline std::uint64_t rotl64(std::uint64_t x, unsigned n) {
  return (x << n) | (x >> (64 - n));
}

inline std::uint64_t read64(const unsigned char *p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8); // Little-endian hosts only (x86-64, AArch64).
  return v;
}

inline std::uint32_t read32(const unsigned char *p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

inline std::uint64_t xxhRound(std::uint64_t acc, std::uint64_t input) {
  acc += input * kPrime2;
  acc = rotl64(acc, 31);
  return acc * kPrime1;
}

inline std::uint64_t xxhMerge(std::uint64_t acc, std::uint64_t value) {
  acc ^= xxhRound(0, value);
  return acc * kPrime1 + kPrime4;
}

} // namespace

Sha256::Sha256() {
  static constexpr std::uint32_t kInit[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                             0xa54ff53a, 0x510e527f, 0x9b05688c,
                                             0x1f83d9ab, 0x5be0cd19};
  std::memcpy(state_, kInit, sizeof(state_));
}

void Sha256::compress(const std::uint8_t *block) {
  std::uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = (std::uint32_t(block[4 * i]) << 24) |
           (std::uint32_t(block[4 * i + 1]) << 16) |
           (std::uint32_t(block[4 * i + 2]) << 8) | block[4 * i + 3];
  for (int i = 16; i < 64; ++i) {
    std::uint32_t s0 =
        rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
    std::uint32_t s1 =
        rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3],
                e = state_[4], f = state_[5], g = state_[6], h = state_[7];
  for (int i = 0; i < 64; ++i) {
    std::uint32_t s1 = rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25);
    std::uint32_t ch = (e & f) ^ (~e & g);
    std::uint32_t t1 = h + s1 + ch + kSha256Round[i] + w[i];
    std::uint32_t s0 = rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22);
    std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    std::uint32_t t2 = s0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
  state_[4] += e;
  state_[5] += f;
  state_[6] += g;
  state_[7] += h;
}

void Sha256::update(const void *data, std::size_t size) {
  const auto *p = static_cast<const std::uint8_t *>(data);
  totalBytes_ += size;
  if (buffered_) {
    std::size_t take = std::min(size, sizeof(buffer_) - buffered_);
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    size -= take;
    if (buffered_ < sizeof(buffer_))
      return;
    compress(buffer_);
    buffered_ = 0;
  }
  for (; size >= 64; size -= 64, p += 64)
    compress(p);
  std::memcpy(buffer_, p, size);
  buffered_ = size;
}

void Sha256::update(std::string_view data) { update(data.data(), data.size()); }

std::array<std::uint8_t, 32> Sha256::digest() {
  std::uint64_t bits = totalBytes_ * 8;
  std::uint8_t pad[72] = {0x80};
  std::size_t padLen = (buffered_ < 56 ? 56 : 120) - buffered_;
  for (int i = 0; i < 8; ++i)
    pad[padLen + i] = std::uint8_t(bits >> (56 - 8 * i));
  update(pad, padLen + 8);
  std::array<std::uint8_t, 32> out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = std::uint8_t(state_[i] >> (24 - 8 * j));
  return out;
}

std::string Sha256::hexDigest() {
  std::array<std::uint8_t, 32> d = digest();
  return toHex(d.data(), d.size());
}

std::string tilec::sha256Hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hexDigest();
}

std::string tilec::toHex(const std::uint8_t *bytes, std::size_t size) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(2 * size, '0');
  for (std::size_t i = 0; i < size; ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

std::uint64_t tilec::xxh64(std::string_view data, std::uint64_t seed) {
  const auto *p = reinterpret_cast<const unsigned char *>(data.data());
  const unsigned char *end = p + data.size();
  std::uint64_t h;
  if (data.size() >= 32) {
    std::uint64_t v1 = seed + kPrime1 + kPrime2, v2 = seed + kPrime2, v3 = seed,
                  v4 = seed - kPrime1;
    for (; p + 32 <= end; p += 32) {
      v1 = xxhRound(v1, read64(p));
      v2 = xxhRound(v2, read64(p + 8));
      v3 = xxhRound(v3, read64(p + 16));
      v4 = xxhRound(v4, read64(p + 24));
    }
    h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
    h = xxhMerge(h, v1);
    h = xxhMerge(h, v2);
    h = xxhMerge(h, v3);
    h = xxhMerge(h, v4);
  } else {
    h = seed + kPrime5;
  }
  h += data.size();
  for (; p + 8 <= end; p += 8) {
    h ^= xxhRound(0, read64(p));
    h = rotl64(h, 27) * kPrime1 + kPrime4;
  }
  if (p + 4 <= end) {
    h ^= std::uint64_t(read32(p)) * kPrime1;
    h = rotl64(h, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  for (; p < end; ++p) {
    h ^= (*p) * kPrime5;
    h = rotl64(h, 11) * kPrime1;
  }
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  h ^= h >> 32;
  return h;
}
