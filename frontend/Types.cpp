//===- Types.cpp - Scalar, pointer and block types of .tile ---------------===//
//
// Names, parsing and printing of the frontend's types and constants.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Types.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace tilec;

llvm::StringRef tilec::getScalarKindName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return "i1";
  case ScalarKind::I8:
    return "i8";
  case ScalarKind::I16:
    return "i16";
  case ScalarKind::I32:
    return "i32";
  case ScalarKind::I64:
    return "i64";
  case ScalarKind::U8:
    return "u8";
  case ScalarKind::U16:
    return "u16";
  case ScalarKind::U32:
    return "u32";
  case ScalarKind::U64:
    return "u64";
  case ScalarKind::F16:
    return "f16";
  case ScalarKind::BF16:
    return "bf16";
  case ScalarKind::F32:
    return "f32";
  case ScalarKind::F64:
    return "f64";
  }
  return "?";
}

std::optional<ScalarKind> tilec::parseScalarKindName(llvm::StringRef name) {
  using SK = ScalarKind;
  return llvm::StringSwitch<std::optional<ScalarKind>>(name)
      .Cases({"i1", "int1", "bool"}, SK::I1)
      .Cases({"i8", "int8"}, SK::I8)
      .Cases({"i16", "int16"}, SK::I16)
      .Cases({"i32", "int32"}, SK::I32)
      .Cases({"i64", "int64"}, SK::I64)
      .Cases({"u8", "uint8"}, SK::U8)
      .Cases({"u16", "uint16"}, SK::U16)
      .Cases({"u32", "uint32"}, SK::U32)
      .Cases({"u64", "uint64"}, SK::U64)
      .Cases({"f16", "float16", "fp16"}, SK::F16)
      .Cases({"bf16", "bfloat16"}, SK::BF16)
      .Cases({"f32", "float32", "fp32"}, SK::F32)
      .Cases({"f64", "float64", "fp64"}, SK::F64)
      .Default(std::nullopt);
}

unsigned tilec::getBitWidth(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return 1;
  case ScalarKind::I8:
  case ScalarKind::U8:
    return 8;
  case ScalarKind::I16:
  case ScalarKind::U16:
  case ScalarKind::F16:
  case ScalarKind::BF16:
    return 16;
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::F32:
    return 32;
  case ScalarKind::I64:
  case ScalarKind::U64:
  case ScalarKind::F64:
    return 64;
  }
  return 32;
}

bool tilec::isFloatKind(ScalarKind kind) {
  return kind == ScalarKind::F16 || kind == ScalarKind::BF16 ||
         kind == ScalarKind::F32 || kind == ScalarKind::F64;
}

bool tilec::isIntegerKind(ScalarKind kind) { return !isFloatKind(kind); }

bool tilec::isUnsignedKind(ScalarKind kind) {
  return kind == ScalarKind::U8 || kind == ScalarKind::U16 ||
         kind == ScalarKind::U32 || kind == ScalarKind::U64;
}

std::string tilec::getTritonDTypeName(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::I1:
    return "tl.int1";
  case ScalarKind::F16:
    return "tl.float16";
  case ScalarKind::BF16:
    return "tl.bfloat16";
  case ScalarKind::F32:
    return "tl.float32";
  case ScalarKind::F64:
    return "tl.float64";
  default:
    break;
  }
  std::string name = getScalarKindName(kind).str();
  bool isUnsigned = name[0] == 'u';
  return (isUnsigned ? "tl.uint" : "tl.int") + name.substr(1);
}

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
  s += getScalarKindName(elem).str();
  if (isBlock())
    s += formatShape(shape);
  return s;
}

std::string ConstValue::str() const {
  switch (kind) {
  case Kind::Int:
    return std::to_string(intValue);
  case Kind::Bool:
    return intValue ? "True" : "False";
  case Kind::Float:
    break;
  }
  if (std::isnan(floatValue))
    return "nan";
  if (std::isinf(floatValue))
    return floatValue < 0 ? "-inf" : "inf";
  std::string s;
  // Prefer the shortest spelling that round-trips.
  for (int prec = 1; prec <= 17; ++prec) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%.*g", prec, floatValue);
    if (std::strtod(buf, nullptr) == floatValue) {
      s = buf;
      break;
    }
  }
  if (s.find_first_of(".eE") == std::string::npos)
    s += ".0";
  return s;
}

bool ConstValue::operator==(const ConstValue &o) const {
  if (kind != o.kind)
    return false;
  if (isFloat())
    return floatValue == o.floatValue ||
           (std::isnan(floatValue) && std::isnan(o.floatValue));
  return intValue == o.intValue;
}

std::optional<ConstValue> tilec::parseConstValue(llvm::StringRef text) {
  text = text.trim();
  if (text == "True" || text == "true")
    return ConstValue::getBool(true);
  if (text == "False" || text == "false")
    return ConstValue::getBool(false);
  bool negative = text.consume_front("-");
  uint64_t u;
  if (!text.getAsInteger(0, u)) {
    if (u > static_cast<uint64_t>(INT64_MAX))
      return std::nullopt;
    int64_t v = static_cast<int64_t>(u);
    return ConstValue::getInt(negative ? -v : v);
  }
  double d;
  if (text == "inf")
    d = INFINITY;
  else if (text == "nan")
    d = NAN;
  else if (text.getAsDouble(d))
    return std::nullopt;
  return ConstValue::getFloat(negative ? -d : d);
}
