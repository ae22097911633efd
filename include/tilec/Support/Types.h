//===- Types.h - Scalar, parameter and constexpr types ----------*- C++ -*-===//
//
// The value types shared by the kernel metadata, the argument checker and the
// host API: the scalar element types of the `.tile` language (`i32`, `f16`,
// ...), a kernel parameter type (`*f32`, `i64`) and a named parameter with
// what the code assumes of it (KernelParam), host-side storage types for
// the 16- and 8-bit floats (tilec::f16, tilec::bf16, tilec::f8e4m3,
// tilec::f8e5m2), and the value of a constexpr
// parameter (an integer, a float or a bool). Nothing here needs a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_TYPES_H
#define TILEC_SUPPORT_TYPES_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tilec {

/// A scalar element type of the `.tile` language.
enum class ScalarType {
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
  F64,
  /// fp8 with 4 exponent and 3 mantissa bits, no infinity (OCP E4M3FN;
  /// Triton's `float8e4nv`).
  F8E4M3,
  /// fp8 with 5 exponent and 2 mantissa bits (OCP E5M2; Triton's `float8e5`).
  F8E5M2
};

/// The canonical name of \p type ("i32", "bf16", ...).
const char *scalarTypeName(ScalarType type);
/// The C++ element type that holds \p type on the host: "float",
/// "int32_t", "tilec::f16", "bool".
std::string cppTypeName(ScalarType type);
/// Parses a canonical scalar name ("f32"); std::nullopt when it is not one.
std::optional<ScalarType> parseScalarType(std::string_view name);
/// Parses a dtype name as the language accepts it: canonical ("f32"), long
/// ("float32", "int64", "bfloat16", "uint8"), Triton's repr ("fp32",
/// "fp16", "fp8e4nv") or "bool"/"int1"; std::nullopt when it is none of
/// them.
std::optional<ScalarType> parseDTypeName(std::string_view name);
/// True for the fp8 names of Triton's that tilec does not have
/// ("float8e4b15", "fp8e4b15", "float8e4b8", "float8e5b16").
bool isUnsupportedFP8Name(std::string_view name);
/// The Triton-style name of \p type, used in suggestions: "tl.float32".
std::string tritonDTypeName(ScalarType type);
/// The size in bytes of one element in memory (i1 is stored as one byte).
unsigned scalarTypeBytes(ScalarType type);
/// The number of bits of one element (1 for i1).
unsigned scalarTypeBits(ScalarType type);
/// True for i1 and every signed or unsigned integer type.
bool isIntegerType(ScalarType type);
/// True for f16, bf16, f32, f64 and the fp8 types.
bool isFloatType(ScalarType type);
/// True for the fp8 types (f8e4m3, f8e5m2).
bool isFP8Type(ScalarType type);
/// True for the unsigned integer types u8..u64.
bool isUnsignedType(ScalarType type);

/// The type of one kernel parameter: a scalar, or a pointer to global memory
/// holding scalars (`*f16`).
struct ParamType {
  bool isPointer = false;
  ScalarType elem = ScalarType::I32;

  /// The metadata spelling: "*f16", "i32".
  std::string str() const;
  /// Parses the metadata spelling; std::nullopt when it is malformed.
  static std::optional<ParamType> parse(std::string_view text);

  bool operator==(const ParamType &other) const {
    return isPointer == other.isPointer && elem == other.elem;
  }
};

/// One runtime (non-constexpr) kernel parameter, in PTX entry order.
struct KernelParam {
  std::string name;
  ParamType type;
  /// What the code was compiled to assume of the argument (argument
  /// specialization; a launch that breaks it is refused). For a pointer:
  /// its address is a multiple of this many bytes; for an integer: its
  /// value is a multiple of this. 1 assumes nothing.
  std::uint32_t divisibility = 1;
  /// An integer the code was compiled to assume equal to 1.
  bool equalToOne = false;

  bool operator==(const KernelParam &other) const {
    return name == other.name && type == other.type &&
           divisibility == other.divisibility && equalToOne == other.equalToOne;
  }
};

/// A kernel parameter that is a host tensor descriptor (Triton's
/// `TensorDescriptor(base, shape, strides, block_shape)`): it is passed as
/// run-time parameters, from `firstParam` on: the base pointer, one `i32`
/// per dimension (the shape), one `i64` per dimension but the last (the
/// strides; the last stride is 1, as Triton requires).
struct TensorDescParam {
  std::string name;
  ScalarType elem = ScalarType::F32;
  std::vector<std::int64_t> blockShape;
  std::size_t firstParam = 0;

  /// How many run-time parameters it takes: 2 * rank.
  std::size_t numParams() const { return 2 * blockShape.size(); }
  bool operator==(const TensorDescParam &other) const {
    return name == other.name && elem == other.elem &&
           blockShape == other.blockShape && firstParam == other.firstParam;
  }
};

/// Host storage for one IEEE half-precision value (`f16`). Use it as the
/// element type of a Buffer passed to a `*f16` parameter.
struct f16 {
  std::uint16_t bits = 0;
  /// Converts with round-to-nearest-even; overflow gives infinity.
  static f16 fromFloat(float value);
  /// Converts exactly to float.
  float toFloat() const;
};

/// Host storage for one bfloat16 value (`bf16`).
struct bf16 {
  std::uint16_t bits = 0;
  /// Converts with round-to-nearest-even; NaN stays NaN.
  static bf16 fromFloat(float value);
  /// Converts exactly to float.
  float toFloat() const;
};

/// The fp8 conversions (both fp8 types are stored as one byte). fromFloat
/// rounds to nearest even and saturates as PTX's `cvt.rn.satfinite` does:
/// a value beyond the largest finite one (infinity included) becomes the
/// largest finite one of its sign, NaN becomes 0x7F. toFloat is exact.
struct f8e4m3 {
  std::uint8_t bits = 0;
  static f8e4m3 fromFloat(float value);
  float toFloat() const;
};
struct f8e5m2 {
  std::uint8_t bits = 0;
  static f8e5m2 fromFloat(float value);
  float toFloat() const;
};

/// The shortest decimal that reads back as \p value ("0.1", "1e-05",
/// "3"), or "nan", "inf", "-inf".
std::string shortestDecimal(double value);
/// The same for a float: the shortest decimal that reads back as the same
/// float ("0.1" for 0.1f, where the double would need 17 digits).
std::string shortestDecimal(float value);

/// A compile-time value: an integer, a float or a bool. It is the value of a
/// constexpr kernel parameter (host API, `-D NAME=VALUE`, metadata) and of a
/// constant the frontend folds. Converts implicitly from C++ literals, so
/// `{{"BLOCK", 1024}}` and `{{"EPS", 1e-5}, {"CAUSAL", true}}` build a
/// tilec::Constexprs map; ofInt/ofFloat/ofBool name the kind explicitly.
///
/// Two text forms: str() is the canonical one of hashes and metadata
/// ("true", floats via std::to_chars); pythonStr() is the frontend's, in
/// its dumps and diagnostics ("True", floats as the shortest "%g" that
/// round-trips).
class ConstexprValue {
public:
  /// Which alternative is held.
  enum class Kind { Int, Float, Bool };

  ConstexprValue() = default;
  /// From a bool.
  ConstexprValue(bool value) : kind_(Kind::Bool), int_(value ? 1 : 0) {}
  /// From any integer type except bool.
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                             int> = 0>
  ConstexprValue(T value)
      : kind_(Kind::Int), int_(static_cast<std::int64_t>(value)) {}
  /// From float or double.
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  ConstexprValue(T value)
      : kind_(Kind::Float), float_(static_cast<double>(value)) {}

  static ConstexprValue ofInt(std::int64_t value) {
    return ConstexprValue(value);
  }
  static ConstexprValue ofFloat(double value) { return ConstexprValue(value); }
  static ConstexprValue ofBool(bool value) { return ConstexprValue(value); }

  Kind kind() const { return kind_; }
  bool isInt() const { return kind_ == Kind::Int; }
  bool isFloat() const { return kind_ == Kind::Float; }
  bool isBool() const { return kind_ == Kind::Bool; }
  /// The integer (or 0/1 for a bool); a float is truncated.
  std::int64_t asInt() const {
    return kind_ == Kind::Float ? static_cast<std::int64_t>(float_) : int_;
  }
  /// The value as a double.
  double asFloat() const {
    return kind_ == Kind::Float ? float_ : static_cast<double>(int_);
  }
  /// The bool (nonzero integers are true).
  bool asBool() const { return kind_ == Kind::Float ? float_ != 0 : int_ != 0; }
  /// A canonical text form used in hashes and messages: "1024", "1e-05",
  /// "0.5", "true", "inf". Floats always show a '.', 'e', "inf" or "nan".
  std::string str() const;
  /// The frontend's text form, in Python spelling: "1024", "0.5", "True",
  /// "-inf"; a float is the shortest "%g" form that reads back the same
  /// value, with ".0" added when it would look like an integer.
  std::string pythonStr() const;

  bool operator==(const ConstexprValue &other) const;
  bool operator!=(const ConstexprValue &other) const {
    return !(*this == other);
  }

private:
  Kind kind_ = Kind::Int;
  std::int64_t int_ = 0;
  double float_ = 0;
};

/// Constexpr parameter values by name, in a deterministic (sorted) order.
using Constexprs = std::map<std::string, ConstexprValue>;

/// The tilec::ScalarType stored by one element of the C++ type \p T
/// (`float` -> F32, `int` -> I32, `tilec::f16` -> F16, `bool` -> I1).
template <typename T> constexpr ScalarType scalarTypeOf() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return ScalarType::I1;
  else if constexpr (std::is_same_v<U, f16>)
    return ScalarType::F16;
  else if constexpr (std::is_same_v<U, bf16>)
    return ScalarType::BF16;
  else if constexpr (std::is_same_v<U, f8e4m3>)
    return ScalarType::F8E4M3;
  else if constexpr (std::is_same_v<U, f8e5m2>)
    return ScalarType::F8E5M2;
  else if constexpr (std::is_same_v<U, float>)
    return ScalarType::F32;
  else if constexpr (std::is_same_v<U, double>)
    return ScalarType::F64;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>)
    return sizeof(U) == 1   ? ScalarType::I8
           : sizeof(U) == 2 ? ScalarType::I16
           : sizeof(U) == 4 ? ScalarType::I32
                            : ScalarType::I64;
  else if constexpr (std::is_integral_v<U>)
    return sizeof(U) == 1   ? ScalarType::U8
           : sizeof(U) == 2 ? ScalarType::U16
           : sizeof(U) == 4 ? ScalarType::U32
                            : ScalarType::U64;
  else
    static_assert(sizeof(U) == 0, "tilec: not a tile scalar element type "
                                  "(use bool, an integer, float, double, "
                                  "tilec::f16 or tilec::bf16)");
}

} // namespace tilec

#endif // TILEC_SUPPORT_TYPES_H
