//===- TargetTest.cpp - Tests of tilec::Target ----------------------------===//

#include "tilec/Support/Target.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

TEST(Target, ParsesTheSupportedTargets) {
  for (const char *name :
       {"sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"}) {
    std::optional<Target> target = Target::parse(name);
    ASSERT_TRUE(target) << name;
    EXPECT_EQ(target->str(), name);
    EXPECT_TRUE(target->isSupported());
  }
  EXPECT_EQ(Target::getSupportedNames(),
            "sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a");
}

TEST(Target, RejectsOtherNames) {
  for (const char *name : {"", "sm_", "sm_70", "sm_80a", "sm_90b", "sm_100a",
                           "native", "sm90", "sm_090", "sm_90 ", "SM_90"})
    EXPECT_FALSE(Target::parse(name)) << "'" << name << "'";
}

TEST(Target, ParseAnyAcceptsWellFormedNames) {
  std::optional<Target> future = Target::parseAny("sm_100a");
  ASSERT_TRUE(future);
  EXPECT_EQ(future->getCapability(), 100);
  EXPECT_TRUE(future->isArchSpecific());
  EXPECT_FALSE(future->isSupported());
  EXPECT_TRUE(Target::parseAny("sm_120f"));
  EXPECT_EQ(Target::parseAny("sm_75")->getCapability(), 75);
  for (const char *name :
       {"", "sm_", "sm_a", "sm_90a1", "compute_90", "sm_99999999999"})
    EXPECT_FALSE(Target::parseAny(name)) << "'" << name << "'";
}

TEST(Target, Features) {
  Target sm80 = *Target::parse("sm_80");
  Target sm90 = *Target::parse("sm_90");
  Target sm90a = *Target::parse("sm_90a");
  EXPECT_TRUE(sm80.hasMmaSync());
  EXPECT_FALSE(sm80.hasWgmma());
  EXPECT_FALSE(sm90.hasWgmma());
  EXPECT_FALSE(sm90.hasTMA());
  EXPECT_TRUE(sm90a.hasWgmma());
  EXPECT_TRUE(sm90a.hasTMA());
  EXPECT_EQ(sm90.getCapability(), 90);
  EXPECT_FALSE(sm90.isArchSpecific());
  EXPECT_TRUE(sm90a.isArchSpecific());
  EXPECT_EQ(Target::getDefault(), sm90);
}

TEST(Target, SharedMemoryAndPTXVersion) {
  EXPECT_EQ(Target::parse("sm_90a")->getSharedMemoryPerBlock(), 232448);
  EXPECT_EQ(Target::parse("sm_90")->getSharedMemoryPerBlock(), 232448);
  EXPECT_EQ(Target::parse("sm_80")->getSharedMemoryPerBlock(), 166912);
  EXPECT_EQ(Target::parse("sm_87")->getSharedMemoryPerBlock(), 166912);
  EXPECT_EQ(Target::parse("sm_86")->getSharedMemoryPerBlock(), 101376);
  EXPECT_EQ(Target::parse("sm_89")->getSharedMemoryPerBlock(), 101376);
  EXPECT_EQ(Target::parse("sm_80")->getMinPTXVersion(), 70);
  EXPECT_EQ(Target::parse("sm_90")->getMinPTXVersion(), 78);
  EXPECT_EQ(Target::parse("sm_90a")->getMinPTXVersion(), 80);
  for (const char *name :
       {"sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"})
    EXPECT_LE(Target::parse(name)->getMinPTXVersion(),
              Target::kDefaultPTXVersion);
}

TEST(Target, ForDevice) {
  EXPECT_EQ(Target::forDevice(9, 0).str(), "sm_90a");
  EXPECT_EQ(Target::forDevice(8, 0).str(), "sm_80");
  EXPECT_EQ(Target::forDevice(8, 9).str(), "sm_89");
}

TEST(Target, CanRunOn) {
  // Portable code runs on its own and newer GPUs, "a" code only on its own.
  EXPECT_TRUE(Target::parse("sm_80")->canRunOn(9, 0));
  EXPECT_TRUE(Target::parse("sm_90")->canRunOn(9, 0));
  EXPECT_FALSE(Target::parse("sm_90")->canRunOn(8, 9));
  EXPECT_TRUE(Target::parse("sm_90a")->canRunOn(9, 0));
  EXPECT_FALSE(Target::parse("sm_90a")->canRunOn(10, 0));
  EXPECT_FALSE(Target::parseAny("sm_100a")->canRunOn(9, 0));
}

} // namespace
