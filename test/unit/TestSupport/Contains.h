//===- Contains.h - Substring assertions of the unit tests ------*- C++ -*-===//
//
// contains(text, part) for EXPECT_TRUE / EXPECT_FALSE: a failure shows the
// part and the whole text (diagnostics, error messages, dumps), so the
// assertion needs no `<< text` of its own. Header-only, with no dependency
// but GoogleTest: shared by every unit test folder.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_TESTSUPPORT_CONTAINS_H
#define TILEC_TEST_UNIT_TESTSUPPORT_CONTAINS_H

#include <gtest/gtest.h>

#include <string_view>

namespace tilec::test {

/// Whether \p text contains \p part; the message shows both either way (a
/// failed EXPECT_FALSE needs it too).
inline ::testing::AssertionResult contains(std::string_view text,
                                           std::string_view part) {
  bool found = text.find(part) != std::string_view::npos;
  ::testing::AssertionResult result =
      found ? ::testing::AssertionSuccess() : ::testing::AssertionFailure();
  return result << "'" << part << "' is " << (found ? "" : "not ") << "in:\n"
                << text;
}

/// Whether \p text starts with \p prefix.
inline ::testing::AssertionResult startsWith(std::string_view text,
                                             std::string_view prefix) {
  if (text.substr(0, prefix.size()) == prefix)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "'" << text << "' does not start with '" << prefix << "'";
}

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_TESTSUPPORT_CONTAINS_H
