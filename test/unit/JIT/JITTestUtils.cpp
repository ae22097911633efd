//===- JITTestUtils.cpp - Helpers shared by the JIT unit tests -----------===//
//
// File and directory helpers for the tests of tilec::Compiler.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace tilec::test;

std::string tilec::test::examplePath(const std::string &name) {
  // The source tree as built, unless the tests run elsewhere (a GPU
  // machine with a copy of the tree: test/gpu/build-unit-bundle.sh).
  const char *root = std::getenv("TILEC_TEST_SOURCE_DIR");
  return std::string(root && *root ? root : TILEC_SOURCE_DIR) + "/examples/" +
         name;
}

std::string tilec::test::freshDir(const std::string &name) {
  std::string dir = ::testing::TempDir() + "tilec_jit_" + name + "_" +
                    std::to_string(::getpid());
  std::string command = "rm -rf '" + dir + "'";
  EXPECT_EQ(std::system(command.c_str()), 0);
  return dir;
}

std::string tilec::test::readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void tilec::test::writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

std::vector<std::string> tilec::test::listDir(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *entry = ::readdir(d)) {
      std::string name = entry->d_name;
      if (name != "." && name != "..")
        names.push_back(name);
    }
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}
