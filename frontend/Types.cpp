//===- Types.cpp - Scalar, pointer and block types of .tile ---------------===//
//
// Printing of the frontend's types and parsing of `-D` constexpr values.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Types.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace tilec;

int64_t TType::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string tilec::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string TType::str() const {
  std::string s = isPointer ? "*" : "";
  s += scalarTypeName(elem);
  if (isBlock())
    s += formatShape(shape);
  return s;
}

std::optional<ConstexprValue> tilec::parseConstexprValue(llvm::StringRef text) {
  text = text.trim();
  if (text == "True" || text == "true")
    return ConstexprValue::ofBool(true);
  if (text == "False" || text == "false")
    return ConstexprValue::ofBool(false);
  bool negative = text.consume_front("-");
  uint64_t u;
  if (!text.getAsInteger(0, u)) {
    // i64's range: -2^63 .. 2^63 - 1.
    uint64_t limit = static_cast<uint64_t>(INT64_MAX) + (negative ? 1 : 0);
    if (u > limit)
      return std::nullopt;
    return ConstexprValue::ofInt(negative ? static_cast<int64_t>(0 - u)
                                          : static_cast<int64_t>(u));
  }
  // An integer literal too large for i64 is an error, not a float.
  llvm::StringRef digits = text;
  bool hex = digits.consume_front_insensitive("0x");
  if (!digits.empty() &&
      llvm::all_of(digits, hex ? llvm::isHexDigit : llvm::isDigit))
    return std::nullopt;
  double d;
  if (text == "inf")
    d = INFINITY;
  else if (text == "nan")
    d = NAN;
  else if (text.getAsDouble(d))
    return std::nullopt;
  return ConstexprValue::ofFloat(negative ? -d : d);
}
