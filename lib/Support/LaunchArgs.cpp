//===- LaunchArgs.cpp - Kernel arguments described on a command line ------===//
//
// Parsing of NAME=SPEC arguments and grids, the buffers they describe
// (filled with SplitMix64 for `rand`), and element conversions.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/LaunchArgs.h"

#include "tilec/Support/Random.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sys/stat.h>

using namespace tilec;

namespace {
//===----------------------------------------------------------------------===//
// Numbers
//===----------------------------------------------------------------------===//

std::string_view trim(std::string_view text) {
  const char *space = " \t\n\v\f\r";
  std::size_t begin = text.find_first_not_of(space);
  if (begin == std::string_view::npos)
    return {};
  return text.substr(begin, text.find_last_not_of(space) - begin + 1);
}

/// Splits `text` at every `sep`.
std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    std::size_t at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos)
      return parts;
    text.remove_prefix(at + 1);
  }
}

std::optional<double> parseDouble(std::string_view text) {
  text = trim(text);
  bool negative = !text.empty() && text.front() == '-';
  if (negative)
    text.remove_prefix(1);
  if (text == "inf" || text == "nan")
    return negative        ? -std::numeric_limits<double>::infinity()
           : text == "inf" ? std::numeric_limits<double>::infinity()
                           : std::numeric_limits<double>::quiet_NaN();
  if (text.empty() || text.front() == '-')
    return std::nullopt;
  std::string copy(text);
  char *end = nullptr;
  double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size())
    return std::nullopt;
  return negative ? -value : value;
}

/// An unsigned integer in decimal, or in hex, binary or octal with a 0x,
/// 0b, 0o or 0 prefix.
std::optional<std::uint64_t> parseUnsigned(std::string_view text) {
  int radix = 10;
  if (text.size() > 1 && text[0] == '0') {
    char prefix = static_cast<char>(text[1] | 0x20);
    if (prefix == 'x' || prefix == 'b' || prefix == 'o') {
      radix = prefix == 'x' ? 16 : prefix == 'b' ? 2 : 8;
      text.remove_prefix(2);
    } else {
      radix = 8;
      text.remove_prefix(1);
    }
  }
  std::uint64_t value = 0;
  if (text.empty())
    return std::nullopt;
  auto result =
      std::from_chars(text.data(), text.data() + text.size(), value, radix);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size())
    return std::nullopt;
  return value;
}

/// A signed integer: parseUnsigned() with an optional '-'.
std::optional<std::int64_t> parseSigned(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  std::optional<std::uint64_t> magnitude =
      parseUnsigned(negative ? text.substr(1) : text);
  if (!magnitude)
    return std::nullopt;
  if (negative) {
    if (*magnitude > (std::uint64_t(1) << 63))
      return std::nullopt;
    return static_cast<std::int64_t>(0 - *magnitude);
  }
  if (*magnitude >> 63)
    return std::nullopt;
  return static_cast<std::int64_t>(*magnitude);
}

/// An integer that fits `type` (signed or unsigned by the type; i1 also
/// takes true/false).
std::optional<std::int64_t> parseInteger(std::string_view text,
                                         ScalarType type) {
  text = trim(text);
  if (type == ScalarType::I1) {
    if (text == "true" || text == "True" || text == "1")
      return 1;
    if (text == "false" || text == "False" || text == "0")
      return 0;
    return std::nullopt;
  }
  unsigned bits = 8 * scalarTypeBytes(type);
  if (isUnsignedType(type)) {
    std::optional<std::uint64_t> value = parseUnsigned(text);
    if (!value || (bits < 64 && *value >> bits))
      return std::nullopt;
    return static_cast<std::int64_t>(*value);
  }
  std::optional<std::int64_t> value = parseSigned(text);
  if (!value)
    return std::nullopt;
  if (bits < 64 && (*value < -(std::int64_t(1) << (bits - 1)) ||
                    *value >= (std::int64_t(1) << (bits - 1))))
    return std::nullopt;
  return value;
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

/// One element value: `floatValue` for float buffers, `intValue` for
/// integer ones.
struct Number {
  double floatValue = 0;
  std::int64_t intValue = 0;

  static Number of(double value) {
    bool fits = std::fabs(value) < 0x1p63; // false for NaN
    return {value, fits ? static_cast<std::int64_t>(value) : 0};
  }
};

/// Writes `value` as element `index` of `buffer` (rounded to nearest for
/// floats; integers keep their low bytes).
void storeElement(HostBuffer &buffer, std::size_t index, Number value) {
  std::uint8_t *p = buffer.bytes.data() + index * scalarTypeBytes(buffer.elem);
  auto put = [&](auto v) { std::memcpy(p, &v, sizeof(v)); };
  switch (buffer.elem) {
  case ScalarType::F16:
    put(f16::fromFloat(static_cast<float>(value.floatValue)).bits);
    return;
  case ScalarType::BF16:
    put(bf16::fromFloat(static_cast<float>(value.floatValue)).bits);
    return;
  case ScalarType::F8E4M3:
    put(f8e4m3::fromFloat(static_cast<float>(value.floatValue)).bits);
    return;
  case ScalarType::F8E5M2:
    put(f8e5m2::fromFloat(static_cast<float>(value.floatValue)).bits);
    return;
  case ScalarType::F32:
    put(static_cast<float>(value.floatValue));
    return;
  case ScalarType::F64:
    put(value.floatValue);
    return;
  case ScalarType::I1:
    put(static_cast<std::uint8_t>(value.intValue != 0));
    return;
  default:
    std::memcpy(p, &value.intValue, scalarTypeBytes(buffer.elem));
  }
}

/// A random element of `type`: floats uniform in [-1, 1), signed integers
/// in [-64, 64), unsigned ones in [0, 128), i1 0 or 1.
double randomElement(SplitMix64 &random, ScalarType type) {
  std::uint64_t r = random.next();
  if (isFloatType(type))
    return static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0;
  if (type == ScalarType::I1)
    return static_cast<double>(r & 1);
  if (isUnsignedType(type))
    return static_cast<double>(r % 128);
  return static_cast<double>(r % 128) - 64;
}

//===----------------------------------------------------------------------===//
// SPECs
//===----------------------------------------------------------------------===//

std::size_t parseCount(std::string_view text) {
  std::size_t count = 0;
  auto result = std::from_chars(text.data(), text.data() + text.size(), count);
  if (text.empty() || result.ec != std::errc() ||
      result.ptr != text.data() + text.size())
    throw LaunchArgError("expected an element count, not '" +
                         std::string(text) + "'");
  if (count > (std::size_t(1) << 32))
    throw LaunchArgError("at most 2^32 elements per buffer");
  return count;
}

/// The buffer contents of `file:PATH`.
void readBufferFile(HostBuffer &buffer, const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw LaunchArgError("cannot read '" + path +
                         "': " + std::strerror(errno ? errno : ENOENT));
  // Bounded: a buffer holds at most 2^32 elements (parseCount), and a
  // stream whose size is not known up front (a pipe, /dev/zero) at most
  // 1 GiB, read in chunks.
  std::uint64_t limit = (std::uint64_t(1) << 32) * scalarTypeBytes(buffer.elem);
  struct stat info;
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    limit = std::min<std::uint64_t>(limit, std::uint64_t(1) << 30);
  else if (std::uint64_t(info.st_size) > limit)
    throw LaunchArgError("'" + path + "' holds " +
                         std::to_string(info.st_size) +
                         " bytes, more than a buffer's 2^32 elements");
  std::vector<char> chunk(1 << 16);
  while (in) {
    in.read(chunk.data(), chunk.size());
    buffer.bytes.insert(buffer.bytes.end(), chunk.data(),
                        chunk.data() + in.gcount());
    if (buffer.bytes.size() > limit)
      throw LaunchArgError("'" + path + "' gives more than " +
                           std::to_string(limit) +
                           " bytes (a pipe or device is read up to 1 GiB, a "
                           "file up to 2^32 elements)");
  }
  if (in.bad())
    throw LaunchArgError("cannot read '" + path + "'");
  unsigned elemBytes = scalarTypeBytes(buffer.elem);
  if (buffer.bytes.size() % elemBytes)
    throw LaunchArgError("'" + path + "' holds " +
                         std::to_string(buffer.bytes.size()) +
                         " bytes, not a whole number of " +
                         scalarTypeName(buffer.elem) + " elements");
}

/// The buffer a SPEC describes for `param`. `defaultSeed` seeds `rand`
/// without a seed.
HostBuffer makeBuffer(const KernelParam &param, std::string_view spec,
                      std::uint64_t defaultSeed) {
  HostBuffer buffer{param.name, param.type.elem, {}};
  unsigned elemBytes = scalarTypeBytes(buffer.elem);
  std::size_t colon = spec.find(':');
  std::string kind(spec.substr(0, colon));
  std::string_view rest =
      colon == std::string_view::npos ? "" : spec.substr(colon + 1);
  if (kind == "file") {
    readBufferFile(buffer, std::string(rest));
    return buffer;
  }
  std::vector<std::string_view> fields;
  if (!rest.empty())
    fields = split(rest, ':');
  // An optional element type after the kind must be the parameter's.
  if (!fields.empty() && parseScalarType(fields.front())) {
    if (fields.front() != scalarTypeName(buffer.elem))
      throw LaunchArgError("'" + param.name + "' is " + param.type.str() +
                           ", not a buffer of " + std::string(fields.front()));
    fields.erase(fields.begin());
  }
  auto expectFields = [&](size_t min, size_t max, const std::string &form) {
    if (fields.size() < min || fields.size() > max)
      throw LaunchArgError("expected " + form);
  };
  auto allocate = [&](std::size_t count) {
    buffer.bytes.assign(count * elemBytes, 0);
    return count;
  };
  if (kind == "zeros" || kind == "ones" || kind == "iota" || kind == "poison") {
    expectFields(1, 1, kind + ":COUNT");
    std::size_t count = allocate(parseCount(fields[0]));
    if (kind == "poison")
      std::fill(buffer.bytes.begin(), buffer.bytes.end(), 0xFF);
    else if (kind != "zeros")
      for (std::size_t i = 0; i < count; ++i)
        storeElement(buffer, i, Number::of(kind == "ones" ? 1.0 : double(i)));
    return buffer;
  }
  if (kind == "rand") {
    expectFields(1, 2, "rand:COUNT or rand:SEED:COUNT");
    std::uint64_t seed = defaultSeed;
    if (fields.size() == 2) {
      std::optional<std::uint64_t> given = parseUnsigned(fields[0]);
      if (!given)
        throw LaunchArgError("expected a seed, not '" + std::string(fields[0]) +
                             "'");
      seed = *given;
    }
    std::size_t count = allocate(parseCount(fields.back()));
    SplitMix64 random(seed);
    for (std::size_t i = 0; i < count; ++i)
      storeElement(buffer, i, Number::of(randomElement(random, buffer.elem)));
    return buffer;
  }
  auto parseValue = [&](std::string_view text) -> Number {
    if (isFloatType(buffer.elem)) {
      if (std::optional<double> value = parseDouble(text))
        return Number::of(*value);
    } else if (std::optional<std::int64_t> value =
                   parseInteger(text, buffer.elem)) {
      return {0, *value};
    }
    throw LaunchArgError("'" + std::string(text) + "' is not a value of type " +
                         scalarTypeName(buffer.elem));
  };
  if (kind == "full") {
    expectFields(2, 2, "full:VALUE:COUNT");
    Number value = parseValue(fields[0]);
    std::size_t count = allocate(parseCount(fields[1]));
    for (std::size_t i = 0; i < count; ++i)
      storeElement(buffer, i, value);
    return buffer;
  }
  if (kind == "values") {
    expectFields(1, 1, "values:V,V,...");
    std::vector<std::string_view> items = split(fields[0], ',');
    allocate(items.size());
    for (std::size_t i = 0; i < items.size(); ++i)
      storeElement(buffer, i, parseValue(items[i]));
    return buffer;
  }
  throw LaunchArgError("unknown buffer '" + kind +
                       "' (zeros:N, ones:N, iota:N, rand[:SEED]:N, full:V:N, "
                       "poison:N, values:V,..., file:PATH)");
}

/// The argument a SPEC gives a scalar parameter.
LaunchArg makeScalar(const KernelParam &param, std::string_view spec) {
  ScalarType type = param.type.elem;
  LaunchArg arg;
  if (isFloatType(type)) {
    if (std::optional<double> value = parseDouble(spec)) {
      arg.kind = LaunchArg::Kind::Float;
      arg.floatValue = *value;
      return arg;
    }
  } else if (std::optional<std::int64_t> value = parseInteger(spec, type)) {
    arg.intValue = *value;
    return arg;
  }
  throw LaunchArgError("'" + std::string(spec) + "' is not a value of type " +
                       param.type.str());
}

std::string joinNames(const std::vector<KernelParam> &params) {
  std::string names;
  for (const KernelParam &param : params)
    names += (names.empty() ? "" : ", ") + param.name;
  return names;
}
} // namespace

HostBuffer *LaunchArgs::findBuffer(std::string_view name) {
  for (HostBuffer &buffer : buffers)
    if (buffer.name == name)
      return &buffer;
  return nullptr;
}

LaunchArgs tilec::makeLaunchArgs(const std::vector<KernelParam> &params,
                                 const std::vector<std::string> &specs) {
  std::vector<std::optional<LaunchArg>> args(params.size());
  LaunchArgs result;
  for (const std::string &spec : specs) {
    std::size_t equals = spec.find('=');
    if (equals == std::string::npos)
      throw LaunchArgError("expected NAME=SPEC in '--arg " + spec + "'");
    std::string name = spec.substr(0, equals);
    std::string_view value = std::string_view(spec).substr(equals + 1);
    auto it =
        std::find_if(params.begin(), params.end(),
                     [&](const KernelParam &p) { return p.name == name; });
    if (it == params.end())
      throw LaunchArgError("--arg " + spec +
                           ": the kernel has no run-time parameter '" + name +
                           "' (it has: " + joinNames(params) + ")");
    std::size_t index = it - params.begin();
    if (args[index])
      throw LaunchArgError("--arg " + name + " is given twice");
    try {
      if (it->type.isPointer) {
        LaunchArg arg;
        arg.kind = LaunchArg::Kind::Buffer;
        arg.buffer = result.buffers.size();
        result.buffers.push_back(makeBuffer(*it, value, index + 1));
        args[index] = arg;
      } else {
        args[index] = makeScalar(*it, value);
      }
    } catch (const LaunchArgError &error) {
      throw LaunchArgError("--arg " + spec + ": " + error.what());
    }
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (!args[i])
      throw LaunchArgError("no --arg for parameter '" + params[i].name + "' (" +
                           params[i].type.str() + ")");
    result.args.push_back(*args[i]);
  }
  return result;
}

std::array<std::int64_t, 3> tilec::parseGrid(std::string_view text) {
  std::vector<std::string_view> parts = split(text, ',');
  std::array<std::int64_t, 3> grid = {1, 1, 1};
  if (parts.size() > 3)
    throw LaunchArgError("--grid=" + std::string(text) +
                         ": at most three dimensions");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string_view part = trim(parts[i]);
    std::int64_t limit =
        i == 0 ? std::numeric_limits<std::int32_t>::max() : 65535;
    auto result =
        std::from_chars(part.data(), part.data() + part.size(), grid[i]);
    if (part.empty() || result.ec != std::errc() ||
        result.ptr != part.data() + part.size() || grid[i] < 1 ||
        grid[i] > limit)
      throw LaunchArgError("--grid=" + std::string(text) +
                           ": expected X[,Y[,Z]] with X from 1 to 2^31-1 and "
                           "Y, Z from 1 to 65535");
  }
  return grid;
}

namespace {
/// The value of element `index` of `buffer`: a double for the float types,
/// else the integer (sign-extended for the signed types, 0/1 for i1).
struct Element {
  bool isFloat = false;
  double floatValue = 0;
  std::int64_t intValue = 0;
  std::uint64_t bits = 0;
};

Element readElement(const HostBuffer &buffer, std::size_t index) {
  unsigned bytes = scalarTypeBytes(buffer.elem);
  Element element;
  std::memcpy(&element.bits, buffer.bytes.data() + index * bytes, bytes);
  element.isFloat = isFloatType(buffer.elem);
  switch (buffer.elem) {
  case ScalarType::F16:
    element.floatValue =
        f16{static_cast<std::uint16_t>(element.bits)}.toFloat();
    return element;
  case ScalarType::BF16:
    element.floatValue =
        bf16{static_cast<std::uint16_t>(element.bits)}.toFloat();
    return element;
  case ScalarType::F8E4M3:
    element.floatValue =
        f8e4m3{static_cast<std::uint8_t>(element.bits)}.toFloat();
    return element;
  case ScalarType::F8E5M2:
    element.floatValue =
        f8e5m2{static_cast<std::uint8_t>(element.bits)}.toFloat();
    return element;
  case ScalarType::F32: {
    float value;
    std::memcpy(&value, &element.bits, sizeof(value));
    element.floatValue = value;
    return element;
  }
  case ScalarType::F64:
    std::memcpy(&element.floatValue, &element.bits, sizeof(double));
    return element;
  case ScalarType::I1:
    element.bits &= 1;
    element.intValue = static_cast<std::int64_t>(element.bits);
    return element;
  default:
    break;
  }
  unsigned shift = 64 - 8 * bytes;
  element.intValue =
      isUnsignedType(buffer.elem)
          ? static_cast<std::int64_t>(element.bits)
          : static_cast<std::int64_t>(element.bits << shift) >> shift;
  return element;
}
} // namespace

double tilec::loadElement(const HostBuffer &buffer, std::size_t index) {
  Element element = readElement(buffer, index);
  if (element.isFloat)
    return element.floatValue;
  if (isUnsignedType(buffer.elem))
    return static_cast<double>(element.bits);
  return static_cast<double>(element.intValue);
}

std::string tilec::formatElement(const HostBuffer &buffer, std::size_t index) {
  Element element = readElement(buffer, index);
  if (!element.isFloat)
    return isUnsignedType(buffer.elem) ? std::to_string(element.bits)
                                       : std::to_string(element.intValue);
  // f16, bf16 and fp8 values print as their float value.
  if (buffer.elem == ScalarType::F64)
    return shortestDecimal(element.floatValue);
  return shortestDecimal(static_cast<float>(element.floatValue));
}
