//===- CompileOptionsTest.cpp - Tests of tilec::CompileOptions ------------===//

#include "tilec/Support/CompileOptions.h"

#include <gtest/gtest.h>

#include <functional>

using namespace tilec;

namespace {

TEST(CompileOptions, DefaultsAreValid) {
  CompileOptions options;
  EXPECT_EQ(options.validate(), "");
  EXPECT_EQ(options.getTarget(), Target::getDefault());
}

TEST(CompileOptions, ValidateNamesTheFirstBadField) {
  struct Case {
    std::function<void(CompileOptions &)> change;
    const char *message;
  };
  const Case cases[] = {
      {[](CompileOptions &o) { o.arch = "sm_70"; },
       "unknown target 'sm_70' (sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a)"},
      {[](CompileOptions &o) { o.numWarps = 3; },
       "num_warps = 3 is not a power of two from 1 to 32"},
      {[](CompileOptions &o) { o.numWarps = 64; },
       "num_warps = 64 is not a power of two from 1 to 32"},
      {[](CompileOptions &o) { o.numWarps = -4; },
       "num_warps = -4 is not a power of two from 1 to 32"},
      {[](CompileOptions &o) { o.numStages = 17; },
       "num_stages = 17 is not from 1 to 16"},
      {[](CompileOptions &o) { o.numStages = -1; },
       "num_stages = -1 is not from 1 to 16"},
      {[](CompileOptions &o) { o.optLevel = 2; },
       "optimization level 2 is not supported (0 or 3)"},
      {[](CompileOptions &o) { o.pointerAlignment = 0; },
       "pointer alignment 0 is not a power of two"},
      {[](CompileOptions &o) { o.pointerAlignment = 12; },
       "pointer alignment 12 is not a power of two"},
  };
  for (const Case &c : cases) {
    CompileOptions options;
    c.change(options);
    EXPECT_EQ(options.validate(), c.message);
  }
}

TEST(CompileOptions, AcceptsEveryValidValue) {
  CompileOptions options;
  for (int warps : {0, 1, 2, 4, 8, 16, 32}) {
    options.numWarps = warps;
    EXPECT_EQ(options.validate(), "") << warps;
  }
  for (int stages = 0; stages <= 16; ++stages) {
    options.numStages = stages;
    EXPECT_EQ(options.validate(), "") << stages;
  }
  options.optLevel = 0;
  options.pointerAlignment = 1;
  options.arch = "sm_80";
  EXPECT_EQ(options.validate(), "");
  EXPECT_EQ(options.getTarget().str(), "sm_80");
}

TEST(CompileOptions, KeyTextCoversEveryCodeField) {
  CompileOptions base;
  std::string key = base.getKeyText();
  std::vector<std::function<void(CompileOptions &)>> changes = {
      [](CompileOptions &o) { o.arch = "sm_90a"; },
      [](CompileOptions &o) { o.numWarps = 8; },
      [](CompileOptions &o) { o.numStages = 2; },
      [](CompileOptions &o) { o.optLevel = 0; },
      [](CompileOptions &o) { o.pointerAlignment = 1; },
      [](CompileOptions &o) { o.divisibleParams = {"n"}; },
      [](CompileOptions &o) { o.unitParams = {"n"}; },
      [](CompileOptions &o) { o.fpFusion = false; },
      [](CompileOptions &o) { o.unalignedParams = {"x"}; },
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    CompileOptions changed;
    changes[i](changed);
    EXPECT_NE(changed.getKeyText(), key) << i;
  }
  // Debugging output does not change the code.
  CompileOptions debug;
  debug.printIRAfterAll = true;
  debug.timing = true;
  EXPECT_EQ(debug.getKeyText(), key);
  // The default target and its name are the same compile.
  CompileOptions named;
  named.arch = Target::getDefault().str();
  EXPECT_EQ(named.getKeyText(), key);
  // Which list a name is in matters, and names cannot run together.
  CompileOptions a, b;
  a.divisibleParams = {"x"};
  b.unitParams = {"x"};
  EXPECT_NE(a.getKeyText(), b.getKeyText());
  CompileOptions c, d;
  c.divisibleParams = {"ab"};
  d.divisibleParams = {"a", "b"};
  EXPECT_NE(c.getKeyText(), d.getKeyText());
}

} // namespace
