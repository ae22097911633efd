//===- Types.h - Scalar, pointer and block types of .tile -------*- C++ -*-===//
//
// The value types of the .tile language as the frontend sees them: a scalar
// type (tilec::ScalarType, i1 ... f64, from Support), optionally a pointer to
// global memory of that type, and a static block shape (empty = scalar).
// Compile-time values (constexprs, folded constants) are Support's
// tilec::ConstexprValue; parseConstexprValue() reads one from `-D` text.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TYPES_H
#define TILEC_FRONTEND_TYPES_H

#include "tilec/Support/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// The type of a value: scalar or block, of elements or of pointers.
struct TType {
  ScalarType elem = ScalarType::I32;
  /// A pointer to global memory holding `elem` values.
  bool isPointer = false;
  /// Block dimensions; empty for a scalar.
  std::vector<int64_t> shape;

  TType() = default;
  TType(ScalarType elem, bool isPointer = false,
        std::vector<int64_t> shape = {})
      : elem(elem), isPointer(isPointer), shape(std::move(shape)) {}

  bool isScalar() const { return shape.empty(); }
  bool isBlock() const { return !shape.empty(); }
  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  /// Product of the dimensions (1 for a scalar).
  int64_t getNumElements() const;
  /// The same type with another shape.
  TType withShape(std::vector<int64_t> newShape) const {
    return TType(elem, isPointer, std::move(newShape));
  }
  /// The same type with another element (and no pointer).
  TType withElem(ScalarType newElem) const {
    return TType(newElem, false, shape);
  }
  /// The scalar of the block (same element, same pointer-ness).
  TType getScalarType() const { return TType(elem, isPointer); }
  /// The scalar as a kernel parameter type (`*f16`, `i32`).
  ParamType getParamType() const { return ParamType{isPointer, elem}; }
  bool isFloat() const { return !isPointer && isFloatType(elem); }
  bool isInteger() const { return !isPointer && isIntegerType(elem); }
  bool isBool() const { return !isPointer && elem == ScalarType::I1; }

  /// "f32", "*f16", "f32[64, 32]", "*f16[128]".
  std::string str() const;

  bool operator==(const TType &other) const {
    return elem == other.elem && isPointer == other.isPointer &&
           shape == other.shape;
  }
  bool operator!=(const TType &other) const { return !(*this == other); }
};

/// "[64, 32]"; "[]" for a scalar.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Parses a `-D NAME=VALUE` value: an integer (decimal or 0x hex), a float,
/// or True/False/true/false.
std::optional<ConstexprValue> parseConstexprValue(llvm::StringRef text);

} // namespace tilec

#endif // TILEC_FRONTEND_TYPES_H
