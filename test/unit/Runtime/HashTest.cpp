//===- HashTest.cpp - SHA-256 and XXH64 against published vectors ---------===//
//
// The runtime's own SHA-256 (cache keys) and XXH64 (entry checksums) must
// match the reference algorithms bit for bit.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Hash.h"

#include <gtest/gtest.h>

using namespace tilec;

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string data;
  for (int i = 0; i < 1000; ++i)
    data += static_cast<char>(i * 31);
  for (std::size_t split : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 999u}) {
    Sha256 h;
    h.update(std::string_view(data).substr(0, split));
    h.update(std::string_view(data).substr(split));
    EXPECT_EQ(h.hexDigest(), sha256Hex(data)) << split;
  }
}

TEST(Xxh64, KnownVectors) {
  EXPECT_EQ(xxh64(""), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(xxh64("a"), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(xxh64("abc"), 0x44BC2CF5AD770999ULL);
  EXPECT_EQ(xxh64("Nobody inspects the spammish repetition"),
            0xFBCEA83C8A378BF1ULL);
  EXPECT_NE(xxh64(std::string(100, 'x')), xxh64(std::string(101, 'x')));
}
