//===- UntrustedFilesTest.cpp - Files the runtime must not trust ---------===//
//
// Issue 25: whole-file reads stop at their limit (/dev/zero is an error,
// not std::bad_alloc) and, for FileKind::Regular, never block; metadata that
// does not match the PTX's .entry is described before the driver sees it
// (Kernel::load throws it); std::bad_alloc becomes tilec::Error at the API.
// The cache's side: KernelCacheTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/Files.h"
#include "tilec/Runtime/PtxEntry.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace tilec;

namespace {

std::string freshDir(const std::string &name) {
  std::string dir = ::testing::TempDir() + "tilec_untrusted_" + name + "_" +
                    std::to_string(::getpid());
  EXPECT_EQ(
      std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str()),
      0);
  return dir;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

TEST(BoundedReads, WholeFileReadsStopAtTheirLimit) {
  auto start = std::chrono::steady_clock::now();
  try {
    detail::readWholeFile("/dev/zero", "kernel", 1 << 20);
    ADD_FAILURE() << "read /dev/zero whole";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "cannot read kernel '/dev/zero': larger than the "
                           "limit of 1 MiB");
  }
  try {
    detail::readWholeFile("/dev/zero", "", 1 << 20, detail::FileKind::Regular);
    ADD_FAILURE() << "read /dev/zero as a regular file";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "cannot read '/dev/zero': not a regular file");
  }
  EXPECT_LT(secondsSince(start), 10.0);
  std::string dir = freshDir("bounded");
  std::ofstream(dir + "/small") << "0123456789";
  EXPECT_EQ(detail::readWholeFile(dir + "/small", ""), "0123456789");
  try {
    detail::readWholeFile(dir + "/small", "", 4);
    ADD_FAILURE() << "read past the limit";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), ("cannot read '" + dir +
                            "/small': 10 bytes, larger than the limit of 4 "
                            "bytes")
                               .c_str());
  }
}

TEST(PtxEntry, ParameterSizes) {
  // As LLVM's NVPTX backend declares `k(o: *f32, a: i8, b: i16, c: f16,
  // d: bf16, e: i1, f: f64, g: i64)`.
  const char *ptx = ".visible .entry kk(\n"
                    "\t.param .u64 kk_param_0\n)\n{\n}\n"
                    ".visible .entry k(\n"
                    "\t.param .u64 .ptr .global .align 1 k_param_0,\n"
                    "\t.param .u8 k_param_1,\n"
                    "\t.param .u16 k_param_2,\n"
                    "\t.param .align 2 .b8 k_param_3[2],\n"
                    "\t.param .align 2 .b8 k_param_4[2],\n"
                    "\t.param .u8 k_param_5,\n"
                    "\t.param .f64 k_param_6,\n"
                    "\t.param .u64 k_param_7\n"
                    ")\n.reqntid 128, 1, 1\n{\n  ret;\n}\n";
  auto params = detail::parsePtxEntryParams(ptx, "k");
  ASSERT_TRUE(params);
  std::vector<std::uint64_t> sizes;
  std::string kinds;
  for (const detail::PtxParam &param : *params) {
    sizes.push_back(param.bytes);
    kinds += "PFIB"[static_cast<int>(param.kind)];
  }
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{8, 1, 2, 2, 2, 1, 8, 8}));
  EXPECT_EQ(kinds, "PIIBBIFI");
  EXPECT_EQ(detail::parsePtxEntryParams(ptx, "kk")->size(), 1u);
  EXPECT_FALSE(detail::parsePtxEntryParams(ptx, "missing"));
  EXPECT_EQ(detail::parsePtxEntryParams(".entry e()\n{}", "e")->size(), 0u);
  EXPECT_FALSE(detail::parsePtxEntryParams(".entry e(.param bogus)", "e"));

  KernelMetadata meta;
  meta.kernel = "k";
  for (const char *type :
       {"*f32", "i8", "i16", "f16", "bf16", "i1", "f64", "i64"})
    meta.params.push_back({"p", *ParamType::parse(type)});
  EXPECT_EQ(detail::describePtxEntryMismatch(ptx, meta), "");
  KernelMetadata stale = meta;
  stale.params[6].type = *ParamType::parse("f32");
  EXPECT_EQ(detail::describePtxEntryMismatch(ptx, stale),
            "kernel 'k': parameter 6 ('p', f32) has 4 bytes in the metadata "
            "but 8 in the PTX .entry (a stale .json?)");
  // Sizes that agree but kinds that do not (a pointer retyped as i64, an
  // f64 as i64, an i64 as f64).
  for (auto [index, type, message] :
       {std::tuple{0, "i64", "('p', i64) is a pointer"},
        std::tuple{6, "i64", "('p', i64) is a float"},
        std::tuple{7, "f64", "('p', f64) is an integer"}}) {
    KernelMetadata retyped = meta;
    retyped.params[index].type = *ParamType::parse(type);
    EXPECT_EQ(detail::describePtxEntryMismatch(ptx, retyped),
              "kernel 'k': parameter " + std::to_string(index) + " " + message +
                  " in the PTX .entry (a stale .json?)");
  }
}

TEST(AllocationFailures, AreErrors) {
  try {
    reportAllocationFailure("loading 'k.ptx'",
                            []() -> int { throw std::bad_alloc(); });
    ADD_FAILURE() << "no exception";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "tilec: out of memory while loading 'k.ptx'");
  }
  EXPECT_EQ(reportAllocationFailure("x", [] { return 7; }), 7);
}
