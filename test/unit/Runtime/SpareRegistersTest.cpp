//===- SpareRegistersTest.cpp - Occupancy and spare registers -------------===//
//
// The occupancy arithmetic against the CUDA occupancy calculator's numbers
// and the PTX edit of spendSpareRegisters: where it adds `.minnctapersm`
// and every case it leaves the PTX alone.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/SpareRegisters.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {
const Target kSm90 = *Target::parse("sm_90a");
const Target kSm86 = *Target::parse("sm_86");

/// A kernel entry with \p directives between its parameters and body.
std::string entry(const std::string &directives, const std::string &body = "") {
  return ".version 8.4\n.target sm_90a\n.address_size 64\n\n"
         ".visible .entry k(\n\t.param .u64 k_param_0\n)\n" +
         directives + "{\n" + body + "\tret;\n}\n";
}
} // namespace

TEST(SpareRegisters, ResidentBlocks) {
  // 256 threads: 143 registers leave room for one block, 128 for two, 80
  // for three (the register file holds 64K).
  EXPECT_EQ(getResidentBlocks(kSm90, 143, 256, 0), 1);
  EXPECT_EQ(getResidentBlocks(kSm90, 128, 256, 0), 2);
  EXPECT_EQ(getResidentBlocks(kSm90, 100, 256, 0), 2);
  EXPECT_EQ(getResidentBlocks(kSm90, 80, 256, 0), 3);
  EXPECT_EQ(getResidentBlocks(kSm90, 255, 256, 0), 1);
  // Registers are allocated in units of 8 per thread: 81 counts as 88.
  EXPECT_EQ(getResidentBlocks(kSm90, 81, 256, 0), 2);
  // Threads and blocks per SM bound it: 16 blocks of 128, 32 of 32.
  EXPECT_EQ(getResidentBlocks(kSm90, 16, 128, 0), 16);
  EXPECT_EQ(getResidentBlocks(kSm90, 16, 32, 0), 32);
  EXPECT_EQ(getResidentBlocks(kSm86, 16, 32, 0), 16);
  EXPECT_EQ(getResidentBlocks(kSm86, 16, 128, 0), 12);
  // Shared memory, with 1 KiB reserved per block: 228 KiB hold two blocks
  // of 100 KiB, one of 130 KiB; none of 228 KiB.
  EXPECT_EQ(getResidentBlocks(kSm90, 32, 128, 100 * 1024), 2);
  EXPECT_EQ(getResidentBlocks(kSm90, 32, 128, 130 * 1024), 1);
  EXPECT_EQ(getResidentBlocks(kSm90, 32, 128, 228 * 1024), 0);
  // Nothing fits: more than 255 registers, no threads.
  EXPECT_EQ(getResidentBlocks(kSm90, 256, 32, 0), 0);
  EXPECT_EQ(getResidentBlocks(kSm90, 32, 0, 0), 0);
}

TEST(SpareRegisters, RegisterLimit) {
  EXPECT_EQ(getRegisterLimit(kSm90, 1, 256, 0), 255);
  EXPECT_EQ(getRegisterLimit(kSm90, 2, 256, 0), 128);
  EXPECT_EQ(getRegisterLimit(kSm90, 3, 256, 0), 80);
  EXPECT_EQ(getRegisterLimit(kSm90, 3, 128, 0), 168);
  EXPECT_EQ(getRegisterLimit(kSm90, 16, 128, 0), 32);
  EXPECT_EQ(getRegisterLimit(kSm90, 17, 128, 0), 0);
  EXPECT_EQ(getRegisterLimit(kSm90, 0, 128, 0), 0);
  // Two blocks of 100 KiB with 256 threads may use 128 registers each.
  EXPECT_EQ(getRegisterLimit(kSm90, 2, 256, 100 * 1024), 128);
}

TEST(SpareRegisters, AddsTheOccupancyWhereRegistersAreSpare) {
  std::string ptx = entry(".reqntid 256, 1, 1\n");
  // 143 registers: one block per SM, 112 registers spare.
  std::optional<std::string> spent =
      spendSpareRegisters(ptx, "k", kSm90, 143, 256, 0);
  ASSERT_TRUE(spent);
  EXPECT_NE(spent->find(".reqntid 256, 1, 1\n.minnctapersm 1\n{"),
            std::string::npos)
      << *spent;
  // 100 registers: two blocks, 28 spare.
  spent = spendSpareRegisters(ptx, "k", kSm90, 100, 256, 0);
  ASSERT_TRUE(spent);
  EXPECT_NE(spent->find(".minnctapersm 2\n"), std::string::npos);
  // `.maxntid` declares the block size as well.
  EXPECT_TRUE(spendSpareRegisters(entry(".maxntid 256, 1, 1\n"), "k", kSm90,
                                  100, 256, 0));
}

TEST(SpareRegisters, LeavesThePtxAlone) {
  std::string ptx = entry(".reqntid 256, 1, 1\n");
  // Fewer than kMinSpareRegisters spare: 120 of 128.
  EXPECT_FALSE(spendSpareRegisters(ptx, "k", kSm90, 120, 256, 0));
  // Limited by threads, not registers: 32 of 32 per thread.
  EXPECT_FALSE(spendSpareRegisters(entry(".reqntid 128, 1, 1\n"), "k", kSm90,
                                   24, 128, 0));
  // Asynchronous copies.
  EXPECT_FALSE(spendSpareRegisters(
      entry(".reqntid 256, 1, 1\n", "\tcp.async.wait_all;\n"), "k", kSm90, 100,
      256, 0));
  // No block size; a register or occupancy directive already there.
  EXPECT_FALSE(spendSpareRegisters(entry(""), "k", kSm90, 100, 256, 0));
  for (const char *directive :
       {".maxnreg 128\n", ".minnctapersm 1\n", ".maxnctapersm 4\n"})
    EXPECT_FALSE(spendSpareRegisters(
        entry(std::string(".reqntid 256, 1, 1\n") + directive), "k", kSm90, 100,
        256, 0))
        << directive;
  // Another kernel's name; a block that does not fit at all.
  EXPECT_FALSE(spendSpareRegisters(ptx, "other", kSm90, 100, 256, 0));
  EXPECT_FALSE(spendSpareRegisters(ptx, "k", kSm90, 100, 256, 300 * 1024));
}
