//===- MetadataTest.cpp - Kernel metadata JSON: round trip, bad input -----===//
//
// The SPEC section 2 metadata must round-trip through its JSON form, and the
// reader must turn every malformed or inconsistent input into a tilec::Error
// that says what is wrong, never a crash.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/KernelMetadata.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <unistd.h>

using namespace tilec;

namespace {

KernelMetadata sampleMetadata() {
  KernelMetadata meta;
  meta.kernel = "softmax";
  meta.arch = "sm_90a";
  meta.numWarps = 8;
  meta.numStages = 2;
  meta.threadsPerBlock = 256;
  meta.sharedBytes = 98304;
  meta.params = {
      {"out", *ParamType::parse("*f32")},   {"inp", *ParamType::parse("*bf16")},
      {"stride", *ParamType::parse("i32")}, {"n", *ParamType::parse("u64")},
      {"scale", *ParamType::parse("f32")},  {"flag", *ParamType::parse("i1")}};
  meta.constexprs = {{"BLOCK", 1024}, {"EPS", 1e-5},    {"HALF", 0.5},
                     {"ONE", 1.0},    {"CAUSAL", true}, {"NEG", -7}};
  meta.sourceHash = "0123abcd";
  meta.compilerVersion = "tilec 0.1.0 \"quoted\"\n";
  return meta;
}

std::string errorOf(const std::string &json) {
  try {
    KernelMetadata::fromJson(json, "k.json");
  } catch (const Error &e) {
    return e.what();
  }
  return "<no error>";
}

const char *kMinimal = R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                            "params": []})";

} // namespace

TEST(KernelMetadata, RoundTrip) {
  KernelMetadata meta = sampleMetadata();
  std::string json = meta.toJson();
  KernelMetadata back = KernelMetadata::fromJson(json);
  EXPECT_EQ(back, meta);
  EXPECT_EQ(back.toJson(), json);
  EXPECT_TRUE(back.constexprs.at("ONE").isFloat()); // 1.0 stays a float.
  EXPECT_TRUE(back.constexprs.at("BLOCK").isInt());
  EXPECT_TRUE(back.constexprs.at("CAUSAL").isBool());
  EXPECT_EQ(back.signature(), "softmax(out: *f32, inp: *bf16, stride: i32, "
                              "n: u64, scale: f32, flag: i1)");
}

TEST(KernelMetadata, WriterUsesSpecFieldNames) {
  std::string json = sampleMetadata().toJson();
  for (const char *key :
       {"\"kernel\"", "\"arch\"", "\"num_warps\"", "\"num_stages\"",
        "\"threads_per_block\": 256", "\"shared_bytes\": 98304", "\"params\"",
        "{\"name\": \"out\", \"type\": \"*f32\"}", "\"constexprs\"",
        "\"BLOCK\": 1024", "\"source_hash\"", "\"compiler_version\""})
    EXPECT_NE(json.find(key), std::string::npos) << key << " in\n" << json;
}

TEST(KernelMetadata, NonFiniteConstexprsRoundTrip) {
  KernelMetadata meta = sampleMetadata();
  meta.constexprs = {{"A", std::numeric_limits<double>::infinity()},
                     {"B", -std::numeric_limits<double>::infinity()},
                     {"C", std::numeric_limits<double>::quiet_NaN()}};
  KernelMetadata back = KernelMetadata::fromJson(meta.toJson());
  EXPECT_TRUE(std::isinf(back.constexprs.at("A").asFloat()));
  EXPECT_LT(back.constexprs.at("B").asFloat(), 0);
  EXPECT_TRUE(std::isnan(back.constexprs.at("C").asFloat()));
}

TEST(KernelMetadata, MinimalAndExtraFields) {
  KernelMetadata meta = KernelMetadata::fromJson(kMinimal);
  EXPECT_EQ(meta.kernel, "k");
  EXPECT_EQ(meta.threadsPerBlock, 128);
  EXPECT_EQ(meta.numStages, 3);
  // Unknown fields are ignored (forward compatibility); escapes decode.
  KernelMetadata extra = KernelMetadata::fromJson(
      R"({"kernel": "k", "num_warps": 1, "shared_bytes": 0, "params": [],
          "future": {"x": [1, 2, {"y": null}]},
          "compiler_version": "a\u00e9\ud83d\ude00\n"})");
  EXPECT_EQ(extra.compilerVersion, "a\xc3\xa9\xf0\x9f\x98\x80\n");
}

TEST(KernelMetadata, MalformedJson) {
  EXPECT_NE(errorOf("").find("k.json: invalid kernel metadata: line 1, "
                             "column 1: expected a JSON value"),
            std::string::npos)
      << errorOf("");
  EXPECT_NE(errorOf("{\"kernel\": \"k\",\n  \"num_warps\": 4,,}")
                .find("line 2, column 18: expected a string key"),
            std::string::npos)
      << errorOf("{\"kernel\": \"k\",\n  \"num_warps\": 4,,}");
  EXPECT_NE(errorOf("{\"kernel\": \"k").find("unterminated string"),
            std::string::npos);
  EXPECT_NE(errorOf("{} trailing").find("unexpected text"), std::string::npos);
  EXPECT_NE(errorOf("{\"a\": 1, \"a\": 2}").find("duplicate key"),
            std::string::npos);
  EXPECT_NE(errorOf("{\"a\": 01}").find("expected ',' or '}'"),
            std::string::npos);
  EXPECT_NE(errorOf("{\"a\": 1e999}").find("out of range"), std::string::npos);
  EXPECT_NE(errorOf("{\"a\": \"\\x\"}").find("invalid escape"),
            std::string::npos);
  EXPECT_NE(errorOf("{\"a\": \"\\ud800\"}").find("surrogate"),
            std::string::npos);
  EXPECT_NE(errorOf("[").find("expected a JSON value"), std::string::npos);
  EXPECT_NE(errorOf("nul").find("expected a JSON value"), std::string::npos);
  EXPECT_NE(errorOf(std::string("{\"a\": \"x\ny\"}")).find("control character"),
            std::string::npos);
  // Deep nesting is an error, not a stack overflow.
  std::string deep(100000, '[');
  EXPECT_NE(errorOf(deep).find("nested deeper than"), std::string::npos);
  // Arbitrary bytes never crash.
  std::string junk;
  for (int i = 0; i < 4096; ++i)
    junk += static_cast<char>((i * 7919) & 0xFF);
  EXPECT_NE(errorOf(junk).find("invalid kernel metadata"), std::string::npos);
}

TEST(KernelMetadata, InvalidFields) {
  EXPECT_NE(errorOf("[]").find("the top level must be an object"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"num_warps": 4, "shared_bytes": 0, "params": []})")
                .find("missing field \"kernel\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "shared_bytes": 0, "params": []})")
                .find("missing field \"num_warps\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": 3, "num_warps": 4, "shared_bytes": 0,
                        "params": []})")
                .find("\"kernel\" must be a string, not a number"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "1k", "num_warps": 4, "shared_bytes": 0,
                        "params": []})")
                .find("not a valid kernel name"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 64, "shared_bytes": 0,
                        "params": []})")
                .find("\"num_warps\" is 64, outside [1, 32]"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 2.5, "shared_bytes": 0,
                        "params": []})")
                .find("\"num_warps\" must be an integer"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": -1,
                        "params": []})")
                .find("\"shared_bytes\" is -1"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                        "threads_per_block": 64, "params": []})")
                .find("\"threads_per_block\" is 64 but 32 * num_warps is 128"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                        "arch": "ampere", "params": []})")
                .find("\"arch\": \"ampere\" is not a target"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                        "params": {}})")
                .find("\"params\" must be an array, not an object"),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                        "params": [{"name": "x", "type": "*f17"}]})")
                .find("\"params\"[0] (x): unknown type \"*f17\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                        "params": [{"name": "x"}]})")
                .find("\"params\"[0] needs a string \"type\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                        "params": [{"name": "x", "type": "i32"},
                                   {"name": "x", "type": "i32"}]})")
                .find("duplicate parameter name \"x\""),
            std::string::npos);
  EXPECT_NE(errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                        "params": [], "constexprs": {"B": [1]}})")
                .find("\"constexprs\".\"B\" must be a number or a boolean"),
            std::string::npos);
}

TEST(KernelMetadata, ParamTypes) {
  for (const char *name : {"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32",
                           "u64", "f16", "bf16", "f32", "f64"}) {
    std::optional<ParamType> scalar = ParamType::parse(name);
    ASSERT_TRUE(scalar) << name;
    EXPECT_FALSE(scalar->isPointer);
    EXPECT_EQ(scalar->str(), name);
    std::optional<ParamType> pointer =
        ParamType::parse(std::string("*") + name);
    ASSERT_TRUE(pointer) << name;
    EXPECT_TRUE(pointer->isPointer);
    EXPECT_EQ(pointer->str(), std::string("*") + name);
  }
  for (const char *bad : {"", "*", "**f32", "f128", "float", "*i", "i32 "})
    EXPECT_FALSE(ParamType::parse(bad)) << bad;
}

TEST(KernelMetadata, Files) {
  EXPECT_EQ(metadataPathFor("out/k.ptx"), "out/k.json");
  EXPECT_EQ(metadataPathFor("k.cubin"), "k.json");
  EXPECT_EQ(metadataPathFor("dir.d/k"), "dir.d/k.json");
  EXPECT_EQ(metadataPathFor("dir/.hidden"), "dir/.hidden.json");

  std::string path = ::testing::TempDir() + "tilec_meta_test_" +
                     std::to_string(::getpid()) + ".json";
  sampleMetadata().writeFile(path);
  EXPECT_EQ(KernelMetadata::readFile(path), sampleMetadata());
  std::remove(path.c_str());
  try {
    KernelMetadata::readFile(path);
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("cannot read kernel metadata '" +
                                         path + "': No such file"),
              std::string::npos)
        << e.what();
  }
}

TEST(KernelMetadata, AssumptionsRoundTrip) {
  KernelMetadata meta = sampleMetadata();
  meta.params[0].divisibility = 16; // out: a 16-byte aligned pointer
  meta.params[2].divisibility = 16; // stride: a multiple of 16
  meta.params[3].equalToOne = true; // n: 1
  std::string json = meta.toJson();
  EXPECT_NE(json.find("{\"name\": \"out\", \"type\": \"*f32\", "
                      "\"divisibility\": 16}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"name\": \"n\", \"type\": \"u64\", "
                      "\"equal_to_1\": true}"),
            std::string::npos)
      << json;
  // Parameters that assume nothing are written as before.
  EXPECT_NE(json.find("{\"name\": \"inp\", \"type\": \"*bf16\"}"),
            std::string::npos);
  KernelMetadata back = KernelMetadata::fromJson(json);
  EXPECT_EQ(back, meta);
  EXPECT_EQ(back.params[2].divisibility, 16u);
  EXPECT_TRUE(back.params[3].equalToOne);
  EXPECT_NE(back, sampleMetadata());
}

TEST(KernelMetadata, InvalidAssumptions) {
  auto withParam = [](const std::string &param) {
    return errorOf(R"({"kernel": "k", "num_warps": 4, "shared_bytes": 0,
                       "params": [)" +
                   param + "]}");
  };
  EXPECT_NE(withParam(R"({"name": "n", "type": "i32", "divisibility": 12})")
                .find("\"params\"[0] (n): \"divisibility\" must be a power "
                      "of two from 1 to 2^30"),
            std::string::npos);
  EXPECT_NE(withParam(R"({"name": "n", "type": "i32", "divisibility": 0})")
                .find("must be a power of two"),
            std::string::npos);
  EXPECT_NE(withParam(R"({"name": "n", "type": "i32", "divisibility": "16"})")
                .find("must be a power of two"),
            std::string::npos);
  EXPECT_NE(withParam(R"({"name": "s", "type": "f32", "divisibility": 16})")
                .find("\"divisibility\" applies to pointers and integers, "
                      "not f32"),
            std::string::npos);
  EXPECT_NE(withParam(R"({"name": "p", "type": "*f32", "equal_to_1": true})")
                .find("\"equal_to_1\" applies to integers, not *f32"),
            std::string::npos);
  EXPECT_NE(withParam(R"({"name": "n", "type": "i32", "equal_to_1": 1})")
                .find("\"equal_to_1\" must be true or false"),
            std::string::npos);
  EXPECT_EQ(withParam(R"({"name": "n", "type": "i64", "divisibility": 1,
                          "equal_to_1": false})"),
            "<no error>");
}
