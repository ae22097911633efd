//===- Arguments.cpp - Checking and packing launch arguments --------------===//
//
// packArguments() holds every rule about which C++ value may be passed to
// which kernel parameter: typed device pointers only to pointers of the same
// element type, integers (range-checked) only to integer parameters, floats
// (range-checked, converted to the parameter's width) only to float
// parameters; no null device pointers. A violation throws tilec::Error
// naming the kernel, the parameter's position, name and type, and what was
// passed.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Arguments.h"

#include "tilec/Runtime/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace tilec;

namespace {

/// The value range of an integer parameter type, as [min, max] in int64 or
/// (for u64) [0, UINT64_MAX].
struct IntRange {
  std::int64_t min;
  std::uint64_t max;
};

IntRange rangeOf(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
    return {0, 1};
  case ScalarType::I8:
    return {-128, 127};
  case ScalarType::I16:
    return {-32768, 32767};
  case ScalarType::I32:
    return {std::numeric_limits<std::int32_t>::min(), 2147483647u};
  case ScalarType::I64:
    return {
        std::numeric_limits<std::int64_t>::min(),
        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())};
  case ScalarType::U8:
    return {0, 255};
  case ScalarType::U16:
    return {0, 65535};
  case ScalarType::U32:
    return {0, 4294967295u};
  default:
    return {0, std::numeric_limits<std::uint64_t>::max()};
  }
}

/// The largest finite value of a float parameter type.
double maxFinite(ScalarType type) {
  switch (type) {
  case ScalarType::F16:
    return 65504.0;
  case ScalarType::BF16:
    return 3.3895313892515355e38;
  case ScalarType::F32:
    return std::numeric_limits<float>::max();
  default:
    return std::numeric_limits<double>::max();
  }
}

std::string formatDouble(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.9g", v);
  return buffer;
}

/// Checks one argument against one parameter and writes its slot.
class ArgPacker {
public:
  ArgPacker(const KernelMetadata &meta, std::size_t index)
      : meta_(meta), index_(index), param_(meta.params[index]) {}

  std::uint64_t pack(const HostArg &arg) {
    const ParamType &type = param_.type;
    if (type.isPointer) {
      std::uint64_t address = packPointer(arg);
      if (address % param_.divisibility != 0)
        broken(arg,
               "is not aligned to " + std::to_string(param_.divisibility) +
                   " bytes",
               "--pointer-alignment=" + std::to_string(param_.divisibility));
      return address;
    }
    if (isFloatType(type.elem))
      return packFloat(arg);
    std::uint64_t bits = packInteger(arg);
    if (param_.divisibility > 1 || param_.equalToOne)
      checkIntegerAssumptions(arg);
    return bits;
  }

private:
  /// Throws: \p arg breaks an assumption the kernel was compiled with.
  [[noreturn]] void broken(const HostArg &arg, const std::string &what,
                           const std::string &flag) const {
    throw Error("kernel '" + meta_.kernel + "': argument " +
                std::to_string(index_ + 1) + " (" + param_.name + ": " +
                param_.type.str() + "): " + arg.describe() + " " + what +
                ", which the kernel was compiled to assume (tilec " + flag +
                "); compile it without that assumption, or through "
                "tilec::Compiler, which specializes on the arguments");
  }

  void checkIntegerAssumptions(const HostArg &arg) const {
    // packInteger accepted the kind: Signed, Unsigned or Bool.
    bool isSigned = arg.kind == HostArg::Kind::Signed;
    std::uint64_t magnitude =
        isSigned ? (arg.i < 0 ? 0 - static_cast<std::uint64_t>(arg.i)
                              : static_cast<std::uint64_t>(arg.i))
                 : arg.u;
    if (param_.equalToOne && (magnitude != 1 || (isSigned && arg.i < 0)))
      broken(arg, "is not 1", "--unit=" + param_.name);
    if (magnitude % param_.divisibility != 0)
      broken(arg, "is not a multiple of " + std::to_string(param_.divisibility),
             "--divisible=" + param_.name);
  }

  [[noreturn]] void fail(const std::string &expected,
                         const HostArg &arg) const {
    throw Error("kernel '" + meta_.kernel + "': argument " +
                std::to_string(index_ + 1) + " (" + param_.name + ": " +
                param_.type.str() + "): expected " + expected + ", got " +
                arg.describe());
  }

  std::string cppElemName() const { return cppTypeName(param_.type.elem); }

  std::uint64_t packPointer(const HostArg &arg) const {
    // Messages are built only on failure: this runs on every launch.
    auto expected = [&] {
      return "a Buffer<" + cppElemName() + "> or DevicePtr<" + cppElemName() +
             ">";
    };
    if (arg.kind != HostArg::Kind::Pointer)
      fail(expected(), arg);
    if (!arg.isUntyped && arg.elem != param_.type.elem)
      fail(expected(), arg);
    if (arg.u == 0)
      throw Error("kernel '" + meta_.kernel + "': argument " +
                  std::to_string(index_ + 1) + " (" + param_.name + ": " +
                  param_.type.str() + "): " + arg.describe() + " is null (" +
                  (arg.cppType == "Buffer" ? "an empty or moved-from Buffer"
                                           : "a null device address") +
                  "); pass " + expected() + " holding device memory");
    return arg.u;
  }

  std::uint64_t packInteger(const HostArg &arg) const {
    ScalarType elem = param_.type.elem;
    const char *expected = elem == ScalarType::I1 ? "a bool" : "an integer";
    IntRange range = rangeOf(elem);
    bool fits = false;
    std::uint64_t bits = 0;
    switch (arg.kind) {
    case HostArg::Kind::Signed:
      fits = arg.i >= range.min &&
             (arg.i < 0 || static_cast<std::uint64_t>(arg.i) <= range.max);
      bits = static_cast<std::uint64_t>(arg.i);
      break;
    case HostArg::Kind::Unsigned:
    case HostArg::Kind::Bool:
      fits = arg.u <= range.max;
      bits = arg.u;
      break;
    default:
      fail(expected, arg);
    }
    if (!fits)
      throw Error("kernel '" + meta_.kernel + "': argument " +
                  std::to_string(index_ + 1) + " (" + param_.name + ": " +
                  param_.type.str() + "): " + arg.describe() +
                  " is out of range for " + param_.type.str() + " [" +
                  std::to_string(range.min) + ", " + std::to_string(range.max) +
                  "]");
    // Keep only the parameter's width (two's complement for negatives).
    unsigned width = scalarTypeBytes(elem);
    if (width < 8)
      bits &= (std::uint64_t(1) << (8 * width)) - 1;
    return bits;
  }

  std::uint64_t packFloat(const HostArg &arg) const {
    ScalarType elem = param_.type.elem;
    double value;
    if (arg.kind == HostArg::Kind::Half) {
      if (arg.elem == elem)
        return arg.u; // Same 16-bit format: pass the bits through.
      value = arg.elem == ScalarType::F16
                  ? f16{static_cast<std::uint16_t>(arg.u)}.toFloat()
                  : bf16{static_cast<std::uint16_t>(arg.u)}.toFloat();
    } else if (arg.kind == HostArg::Kind::Float) {
      value = arg.f;
    } else {
      std::string hint;
      if (arg.kind == HostArg::Kind::Signed ||
          arg.kind == HostArg::Kind::Unsigned)
        hint = " (write a floating-point literal, e.g. " +
               (arg.kind == HostArg::Kind::Signed ? std::to_string(arg.i)
                                                  : std::to_string(arg.u)) +
               ".0)";
      fail("a floating-point value" + hint, arg);
    }
    if (std::isfinite(value) && std::fabs(value) > maxFinite(elem))
      throw Error("kernel '" + meta_.kernel + "': argument " +
                  std::to_string(index_ + 1) + " (" + param_.name + ": " +
                  param_.type.str() + "): " + arg.describe() +
                  " is out of range for " + param_.type.str());
    std::uint64_t bits = 0;
    switch (elem) {
    case ScalarType::F64:
      std::memcpy(&bits, &value, 8);
      break;
    case ScalarType::F32: {
      float f = static_cast<float>(value);
      std::uint32_t b;
      std::memcpy(&b, &f, 4);
      bits = b;
      break;
    }
    case ScalarType::F16:
      bits = f16::fromFloat(static_cast<float>(value)).bits;
      break;
    default:
      bits = bf16::fromFloat(static_cast<float>(value)).bits;
      break;
    }
    return bits;
  }

  const KernelMetadata &meta_;
  std::size_t index_;
  const KernelParam &param_;
};

} // namespace

HostArg HostArg::pointer(std::uint64_t address, ScalarType elem,
                         std::string cppType) {
  HostArg a;
  a.kind = Kind::Pointer;
  a.elem = elem;
  a.u = address;
  a.cppType = std::move(cppType);
  return a;
}

HostArg HostArg::untypedPointer(std::uint64_t address) {
  HostArg a;
  a.kind = Kind::Pointer;
  a.isUntyped = true;
  a.u = address;
  a.cppType = "DevicePtr";
  return a;
}

std::string HostArg::describe() const {
  switch (kind) {
  case Kind::Pointer:
    if (isUntyped)
      return "DevicePtr<void>";
    return (cppType.empty() ? std::string("DevicePtr") : cppType) + "<" +
           cppTypeName(elem) + ">";
  case Kind::Signed:
    return cppType + " " + std::to_string(i);
  case Kind::Unsigned:
    return cppType + " " + std::to_string(u);
  case Kind::Bool:
    return u ? "bool true" : "bool false";
  case Kind::Float:
    return cppType + " " + formatDouble(f);
  case Kind::Half: {
    float v = elem == ScalarType::F16
                  ? f16{static_cast<std::uint16_t>(u)}.toFloat()
                  : bf16{static_cast<std::uint16_t>(u)}.toFloat();
    return cppType + " " + formatDouble(v);
  }
  }
  return cppType;
}

void **PackedArgs::kernelParams() {
  pointers_.resize(slots_.size());
  for (std::size_t i = 0; i < slots_.size(); ++i)
    pointers_[i] = &slots_[i];
  return pointers_.empty() ? nullptr : pointers_.data();
}

PackedArgs tilec::packArguments(const KernelMetadata &meta,
                                const std::vector<HostArg> &args) {
  if (args.size() != meta.params.size())
    throw Error("kernel '" + meta.kernel + "' takes " +
                std::to_string(meta.params.size()) + " argument" +
                (meta.params.size() == 1 ? "" : "s") + ", got " +
                std::to_string(args.size()) + "; its signature is " +
                meta.signature());
  PackedArgs packed;
  packed.slots_.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    packed.slots_.push_back(ArgPacker(meta, i).pack(args[i]));
    const ParamType &type = meta.params[i].type;
    packed.paramBytes_ += type.isPointer ? 8 : scalarTypeBytes(type.elem);
  }
  return packed;
}

std::string tilec::specializationKey(const KernelMetadata &meta,
                                     const std::vector<HostArg> &args) {
  std::string key(meta.params.size(), '-');
  for (std::size_t i = 0; i < meta.params.size() && i < args.size(); ++i) {
    const ParamType &type = meta.params[i].type;
    const HostArg &arg = args[i];
    if (type.isPointer) {
      if (arg.kind == HostArg::Kind::Pointer && arg.u % 16 == 0)
        key[i] = 'A';
      continue;
    }
    if (isFloatType(type.elem) || type.elem == ScalarType::I1)
      continue;
    std::uint64_t magnitude;
    if (arg.kind == HostArg::Kind::Signed)
      magnitude = arg.i < 0 ? 0 - static_cast<std::uint64_t>(arg.i)
                            : static_cast<std::uint64_t>(arg.i);
    else if (arg.kind == HostArg::Kind::Unsigned)
      magnitude = arg.u;
    else
      continue;
    if (magnitude == 1 && !(arg.kind == HostArg::Kind::Signed && arg.i < 0))
      key[i] = 'U';
    else if (magnitude % 16 == 0)
      key[i] = 'D';
  }
  return key;
}

std::vector<ParamType> tilec::inferParamTypes(const std::vector<HostArg> &args,
                                              const std::string &kernel) {
  std::vector<ParamType> types;
  types.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const HostArg &arg = args[i];
    ParamType type;
    switch (arg.kind) {
    case HostArg::Kind::Pointer:
      if (arg.isUntyped)
        throw Error("kernel '" + kernel +
                    "' takes its parameter types from "
                    "its launch arguments, but argument " +
                    std::to_string(i + 1) + " is " + arg.describe() +
                    ", whose element type is unknown; pass a Buffer<T> or "
                    "a DevicePtr<T>");
      type.isPointer = true;
      type.elem = arg.elem;
      break;
    case HostArg::Kind::Signed:
      type.elem = arg.i >= INT32_MIN && arg.i <= INT32_MAX ? ScalarType::I32
                                                           : ScalarType::I64;
      break;
    case HostArg::Kind::Unsigned:
      type.elem = arg.u <= INT32_MAX                  ? ScalarType::I32
                  : arg.u <= std::uint64_t(INT64_MAX) ? ScalarType::I64
                                                      : ScalarType::U64;
      break;
    case HostArg::Kind::Float:
      type.elem = ScalarType::F32;
      break;
    case HostArg::Kind::Half:
      type.elem = arg.elem;
      break;
    case HostArg::Kind::Bool:
      type.elem = ScalarType::I1;
      break;
    }
    types.push_back(type);
  }
  return types;
}

std::string tilec::launchSignature(const std::vector<HostArg> &args,
                                   const std::string &kernel, bool hints) {
  KernelMetadata meta;
  meta.kernel = kernel;
  for (const ParamType &type : inferParamTypes(args, kernel))
    meta.params.push_back({"", type});
  std::string key = hints ? specializationKey(meta, args) : "";
  std::string signature;
  for (std::size_t i = 0; i < meta.params.size(); ++i) {
    if (i)
      signature += ", ";
    signature += meta.params[i].type.str();
    if (hints && key[i] == 'D')
      signature += ":16";
    else if (hints && key[i] == 'U')
      signature += ":1";
  }
  return signature;
}

bool tilec::pointersAligned(const std::vector<HostArg> &args) {
  return std::all_of(args.begin(), args.end(), [](const HostArg &arg) {
    return arg.kind != HostArg::Kind::Pointer || arg.u % 16 == 0;
  });
}

int tilec::pickSpecialization(const std::vector<std::string> &variantKeys,
                              const std::string &launchKey) {
  int best = -1, bestAssumed = -1;
  for (std::size_t v = 0; v < variantKeys.size(); ++v) {
    const std::string &key = variantKeys[v];
    if (key.size() != launchKey.size())
      continue;
    int assumed = 0;
    bool fits = true;
    for (std::size_t i = 0; i < key.size() && fits; ++i) {
      if (key[i] == '-')
        continue;
      fits = key[i] == launchKey[i];
      ++assumed;
    }
    if (fits && assumed > bestAssumed) {
      best = static_cast<int>(v);
      bestAssumed = assumed;
    }
  }
  return best;
}
