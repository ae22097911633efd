//===- Json.h - A small JSON reader and writer for the runtime --*- C++ -*-===//
//
// The runtime must not depend on LLVM (the ahead-of-time runner links only
// the runtime), so it carries this minimal JSON support for the kernel
// metadata: a value tree, a strict RFC 8259 parser that reports the line and
// column of the first problem (and limits nesting, so hostile input cannot
// exhaust the stack), and string escaping for the writer.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_JSON_H
#define TILEC_RUNTIME_JSON_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilec::json {

/// One JSON value.
struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  /// For numbers: the value as a double, and whether the literal was an
  /// integer (no fraction or exponent) that fits in int64 (then in integer).
  double number = 0;
  bool isInteger = false;
  std::int64_t integer = 0;
  /// For strings: the decoded UTF-8 text.
  std::string string;
  std::vector<Value> array;
  /// For objects: members in source order (duplicates rejected by parse).
  std::vector<std::pair<std::string, Value>> object;

  /// The member \p key of an object, or nullptr.
  const Value *find(std::string_view key) const;
  /// "a string", "an object", ... for messages.
  const char *kindName() const;
};

/// Parses \p text as one JSON value. On failure returns false and sets
/// \p error to "line L, column C: <problem>".
bool parse(std::string_view text, Value &out, std::string &error);

/// \p text as a quoted JSON string with escapes.
std::string quote(std::string_view text);

} // namespace tilec::json

#endif // TILEC_RUNTIME_JSON_H
