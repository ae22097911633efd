//===- Types.cpp - Scalar, parameter and constexpr types ------------------===//
//
// Names and sizes of the `.tile` scalar types, parsing of parameter types
// (`*f16`), the language's dtype spellings, IEEE half and bfloat16
// conversions (round-to-nearest-even), and the two text forms of constexpr
// values (canonical for hashes and metadata, Python-style for the frontend).
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/Types.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

using namespace tilec;

namespace {
struct ScalarInfo {
  ScalarType type;
  /// The canonical name.
  const char *name;
  /// The long name (Triton's `tl.` names without the prefix).
  const char *longName;
  unsigned bits;
};

constexpr ScalarInfo kScalars[] = {
    {ScalarType::I1, "i1", "int1", 1},
    {ScalarType::I8, "i8", "int8", 8},
    {ScalarType::I16, "i16", "int16", 16},
    {ScalarType::I32, "i32", "int32", 32},
    {ScalarType::I64, "i64", "int64", 64},
    {ScalarType::U8, "u8", "uint8", 8},
    {ScalarType::U16, "u16", "uint16", 16},
    {ScalarType::U32, "u32", "uint32", 32},
    {ScalarType::U64, "u64", "uint64", 64},
    {ScalarType::F16, "f16", "float16", 16},
    {ScalarType::BF16, "bf16", "bfloat16", 16},
    {ScalarType::F32, "f32", "float32", 32},
    {ScalarType::F64, "f64", "float64", 64},
    {ScalarType::F8E4M3, "f8e4m3", "float8e4nv", 8},
    {ScalarType::F8E5M2, "f8e5m2", "float8e5", 8},
};

/// Other spellings of the fp8 types: Triton's repr and the OCP names.
constexpr std::pair<const char *, ScalarType> kFP8Aliases[] = {
    {"fp8e4nv", ScalarType::F8E4M3},
    {"float8e4m3", ScalarType::F8E4M3},
    {"fp8e5", ScalarType::F8E5M2},
    {"float8e5m2", ScalarType::F8E5M2},
};

const ScalarInfo &info(ScalarType type) {
  return kScalars[static_cast<int>(type)];
}

std::uint32_t floatBits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

float bitsToFloat(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}
} // namespace

const char *tilec::scalarTypeName(ScalarType type) { return info(type).name; }

unsigned tilec::scalarTypeBits(ScalarType type) { return info(type).bits; }

unsigned tilec::scalarTypeBytes(ScalarType type) {
  return (info(type).bits + 7) / 8;
}

std::string tilec::cppTypeName(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
    return "bool";
  case ScalarType::F16:
    return "tilec::f16";
  case ScalarType::BF16:
    return "tilec::bf16";
  case ScalarType::F32:
    return "float";
  case ScalarType::F64:
    return "double";
  case ScalarType::F8E4M3:
    return "tilec::f8e4m3";
  case ScalarType::F8E5M2:
    return "tilec::f8e5m2";
  default:
    return std::string(isUnsignedType(type) ? "uint" : "int") +
           std::to_string(8 * scalarTypeBytes(type)) + "_t";
  }
}

std::optional<ScalarType> tilec::parseScalarType(std::string_view name) {
  for (const ScalarInfo &s : kScalars)
    if (name == s.name)
      return s.type;
  return std::nullopt;
}

std::optional<ScalarType> tilec::parseDTypeName(std::string_view name) {
  if (name == "bool")
    return ScalarType::I1;
  for (const auto &[alias, type] : kFP8Aliases)
    if (name == alias)
      return type;
  // Triton's repr of the IEEE floats: "fp16", "fp32", "fp64".
  if (name.substr(0, 2) == "fp")
    return parseScalarType("f" + std::string(name.substr(2)));
  for (const ScalarInfo &s : kScalars)
    if (name == s.name || name == s.longName)
      return s.type;
  return std::nullopt;
}

bool tilec::isUnsupportedFP8Name(std::string_view name) {
  for (const char *unsupported :
       {"float8e4b15", "fp8e4b15", "float8e4b8", "fp8e4b8", "float8e5b16",
        "fp8e5b16", "float8e4b15x4", "fp8e4b15x4"})
    if (name == unsupported)
      return true;
  return false;
}

std::string tilec::tritonDTypeName(ScalarType type) {
  return std::string("tl.") + info(type).longName;
}

bool tilec::isIntegerType(ScalarType type) { return !isFloatType(type); }

bool tilec::isFloatType(ScalarType type) {
  return type == ScalarType::F16 || type == ScalarType::BF16 ||
         type == ScalarType::F32 || type == ScalarType::F64 || isFP8Type(type);
}

bool tilec::isFP8Type(ScalarType type) {
  return type == ScalarType::F8E4M3 || type == ScalarType::F8E5M2;
}

bool tilec::isUnsignedType(ScalarType type) {
  return type == ScalarType::U8 || type == ScalarType::U16 ||
         type == ScalarType::U32 || type == ScalarType::U64;
}

std::string ParamType::str() const {
  return std::string(isPointer ? "*" : "") + scalarTypeName(elem);
}

std::optional<ParamType> ParamType::parse(std::string_view text) {
  ParamType type;
  if (!text.empty() && text.front() == '*') {
    type.isPointer = true;
    text.remove_prefix(1);
  }
  std::optional<ScalarType> elem = parseScalarType(text);
  if (!elem)
    return std::nullopt;
  type.elem = *elem;
  return type;
}

f16 f16::fromFloat(float value) {
  std::uint32_t x = floatBits(value);
  std::uint16_t sign = static_cast<std::uint16_t>((x >> 16) & 0x8000);
  std::uint32_t absBits = x & 0x7FFFFFFF;
  f16 out;
  if (absBits > 0x7F800000) { // NaN: keep it quiet.
    out.bits = sign | 0x7E00;
    return out;
  }
  if (absBits >= 0x477FF000) { // Rounds to >= 65520: infinity.
    out.bits = sign | 0x7C00;
    return out;
  }
  if (absBits < 0x38800000) { // Below 2^-14: subnormal half (or zero).
    // Scale so that the half subnormal unit (2^-24) becomes 1.0 and round.
    float scaled = bitsToFloat(absBits) * 16777216.0f; // 2^24, exact.
    out.bits = sign | static_cast<std::uint16_t>(std::nearbyint(scaled));
    return out;
  }
  // Normal: rebias the exponent and round the 13 dropped mantissa bits.
  std::uint32_t mantissaOdd = (absBits >> 13) & 1;
  absBits += 0xFFF + mantissaOdd;
  out.bits = sign | static_cast<std::uint16_t>((absBits - 0x38000000) >> 13);
  return out;
}

float f16::toFloat() const {
  std::uint32_t sign = std::uint32_t(bits & 0x8000) << 16;
  std::uint32_t exponent = (bits >> 10) & 0x1F;
  std::uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0) { // Zero or subnormal: mantissa * 2^-24.
    float magnitude = static_cast<float>(mantissa) / 16777216.0f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31)
    return bitsToFloat(sign | 0x7F800000 | (mantissa << 13));
  return bitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

bf16 bf16::fromFloat(float value) {
  std::uint32_t x = floatBits(value);
  bf16 out;
  if ((x & 0x7FFFFFFF) > 0x7F800000) {
    out.bits = static_cast<std::uint16_t>((x >> 16) | 0x0040);
    return out;
  }
  x += 0x7FFF + ((x >> 16) & 1);
  out.bits = static_cast<std::uint16_t>(x >> 16);
  return out;
}

float bf16::toFloat() const { return bitsToFloat(std::uint32_t(bits) << 16); }

namespace {
/// An fp8 format: sign, \p ExpBits exponent bits (bias 2^(ExpBits-1)-1),
/// \p ManBits mantissa bits.
struct FP8Format {
  int expBits;
  int manBits;
  /// The bits of the largest finite value (0x7E for e4m3, 0x7B for e5m2).
  std::uint8_t maxFinite;
  /// Whether the all-ones exponent holds infinity and NaNs (e5m2) or
  /// ordinary values but for the all-ones NaN (e4m3).
  bool ieeeSpecials;

  int bias() const { return (1 << (expBits - 1)) - 1; }
};

constexpr FP8Format kE4M3{4, 3, 0x7E, false};
constexpr FP8Format kE5M2{5, 2, 0x7B, true};

double decodeFP8(const FP8Format &f, std::uint8_t bits) {
  int manMask = (1 << f.manBits) - 1;
  int exponent = (bits >> f.manBits) & ((1 << f.expBits) - 1);
  int mantissa = bits & manMask;
  bool negative = bits & 0x80;
  double magnitude;
  int allOnes = (1 << f.expBits) - 1;
  if (f.ieeeSpecials && exponent == allOnes)
    magnitude = mantissa ? NAN : INFINITY;
  else if (!f.ieeeSpecials && exponent == allOnes && mantissa == manMask)
    magnitude = NAN;
  else if (exponent == 0) // Subnormal: mantissa * 2^(1 - bias - manBits).
    magnitude = std::ldexp(mantissa, 1 - f.bias() - f.manBits);
  else
    magnitude = std::ldexp(mantissa + (1 << f.manBits),
                           exponent - f.bias() - f.manBits);
  return negative ? -magnitude : magnitude;
}

std::uint8_t encodeFP8(const FP8Format &f, float value) {
  if (std::isnan(value))
    return 0x7F;
  std::uint8_t sign = std::signbit(value) ? 0x80 : 0;
  double magnitude = std::fabs(static_cast<double>(value));
  double maxFinite = decodeFP8(f, f.maxFinite);
  if (magnitude >= maxFinite)
    return sign | f.maxFinite;
  // The spacing of representable values around `magnitude`.
  int minExponent = 1 - f.bias();
  int exponent = magnitude == 0 ? minExponent : std::ilogb(magnitude);
  if (exponent < minExponent)
    exponent = minExponent;
  double quantum = std::ldexp(1.0, exponent - f.manBits);
  // Exact in double; nearbyint rounds half to even.
  double units = std::nearbyint(magnitude / quantum);
  double rounded = units * quantum;
  if (rounded >= maxFinite)
    return sign | f.maxFinite;
  if (rounded < std::ldexp(1.0, minExponent)) // Subnormal (or zero).
    return sign | static_cast<std::uint8_t>(units);
  int roundedExponent = std::ilogb(rounded);
  int mantissa =
      static_cast<int>(std::ldexp(rounded, f.manBits - roundedExponent)) -
      (1 << f.manBits);
  return sign | static_cast<std::uint8_t>(
                    ((roundedExponent + f.bias()) << f.manBits) | mantissa);
}
} // namespace

f8e4m3 f8e4m3::fromFloat(float value) { return {encodeFP8(kE4M3, value)}; }
float f8e4m3::toFloat() const {
  return static_cast<float>(decodeFP8(kE4M3, bits));
}
f8e5m2 f8e5m2::fromFloat(float value) { return {encodeFP8(kE5M2, value)}; }
float f8e5m2::toFloat() const {
  return static_cast<float>(decodeFP8(kE5M2, bits));
}

namespace {
/// The shortest "%g" form of \p value that reads back the same value.
std::string shortestG(double value) {
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  return buffer;
}

/// The text of \p value: bools as \p trueText/\p falseText, integers in
/// decimal, floats as "nan", "inf", "-inf" or \p digits's text with ".0"
/// added when it would read as an integer.
std::string constexprText(const ConstexprValue &value, const char *trueText,
                          const char *falseText,
                          std::string (*digits)(double)) {
  switch (value.kind()) {
  case ConstexprValue::Kind::Bool:
    return value.asBool() ? trueText : falseText;
  case ConstexprValue::Kind::Int:
    return std::to_string(value.asInt());
  case ConstexprValue::Kind::Float:
    break;
  }
  double x = value.asFloat();
  if (std::isnan(x))
    return "nan";
  if (std::isinf(x))
    return x < 0 ? "-inf" : "inf";
  std::string text = digits(x);
  if (text.find_first_of(".eE") == std::string::npos)
    text += ".0";
  return text;
}
} // namespace

std::string ConstexprValue::str() const {
  return constexprText(*this, "true", "false",
                       [](double x) { return shortestDecimal(x); });
}

std::string ConstexprValue::pythonStr() const {
  return constexprText(*this, "True", "False", shortestG);
}

namespace {
template <typename T> std::string shortest(T value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[64];
  std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, r.ptr);
}
} // namespace

std::string tilec::shortestDecimal(double value) { return shortest(value); }

std::string tilec::shortestDecimal(float value) { return shortest(value); }

bool ConstexprValue::operator==(const ConstexprValue &other) const {
  if (kind_ != other.kind_)
    return false;
  if (kind_ == Kind::Float) // NaN equals NaN here: the same specialization.
    return float_ == other.float_ ||
           (std::isnan(float_) && std::isnan(other.float_));
  return int_ == other.int_;
}
