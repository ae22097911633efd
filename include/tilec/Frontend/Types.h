//===- Types.h - Scalar, pointer and block types of .tile -------*- C++ -*-===//
//
// The value types of the .tile language as the frontend sees them: a scalar
// kind (i1 ... f64), optionally a pointer to global memory of that kind, and a
// static block shape (empty = scalar). Also `ConstValue`, a compile-time
// integer, float or bool (constexpr values, folded constants).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TYPES_H
#define TILEC_FRONTEND_TYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// Element kinds of the language (SPEC §1.3).
enum class ScalarKind : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64
};

/// Canonical spelling: "i1", "f16", "bf16", ...
llvm::StringRef getScalarKindName(ScalarKind kind);
/// Parses a dtype name: canonical ("f32"), long ("float32", "int64",
/// "bfloat16", "uint8"), Triton's repr ("fp32", "fp16") or "bool"/"int1".
std::optional<ScalarKind> parseScalarKindName(llvm::StringRef name);
/// Number of bits of an element (1 for i1).
unsigned getBitWidth(ScalarKind kind);
bool isFloatKind(ScalarKind kind);
/// True for i1..i64 and u8..u64.
bool isIntegerKind(ScalarKind kind);
bool isUnsignedKind(ScalarKind kind);
/// The Triton-style name of a dtype for suggestions: "tl.float32".
std::string getTritonDTypeName(ScalarKind kind);

/// The type of a value: scalar or block, of elements or of pointers.
struct TType {
  ScalarKind elem = ScalarKind::I32;
  /// A pointer to global memory holding `elem` values.
  bool isPointer = false;
  /// Block dimensions; empty for a scalar.
  std::vector<int64_t> shape;

  TType() = default;
  TType(ScalarKind elem, bool isPointer = false,
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
  TType withElem(ScalarKind newElem) const {
    return TType(newElem, false, shape);
  }
  /// The scalar of the block (same element, same pointer-ness).
  TType getScalarType() const { return TType(elem, isPointer); }
  bool isFloat() const { return !isPointer && isFloatKind(elem); }
  bool isInteger() const { return !isPointer && isIntegerKind(elem); }
  bool isBool() const { return !isPointer && elem == ScalarKind::I1; }

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

/// A compile-time constant: an integer, a float or a bool.
struct ConstValue {
  enum class Kind : uint8_t { Int, Float, Bool };
  Kind kind = Kind::Int;
  int64_t intValue = 0;
  double floatValue = 0.0;

  static ConstValue getInt(int64_t v) { return {Kind::Int, v, 0.0}; }
  static ConstValue getFloat(double v) { return {Kind::Float, 0, v}; }
  static ConstValue getBool(bool v) { return {Kind::Bool, v ? 1 : 0, 0.0}; }

  bool isInt() const { return kind == Kind::Int; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isBool() const { return kind == Kind::Bool; }
  /// The value as a double (ints and bools converted).
  double getAsDouble() const {
    return isFloat() ? floatValue : static_cast<double>(intValue);
  }
  /// Truthiness (Python rules).
  bool isTruthy() const {
    return isFloat() ? floatValue != 0.0 : intValue != 0;
  }
  /// "1024", "0.5", "True", "-inf".
  std::string str() const;
  bool operator==(const ConstValue &o) const;
};

/// Parses a `-D NAME=VALUE` value: an integer (decimal or 0x hex), a float,
/// or True/False/true/false.
std::optional<ConstValue> parseConstValue(llvm::StringRef text);

} // namespace tilec

#endif // TILEC_FRONTEND_TYPES_H
