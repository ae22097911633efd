//===- Interpret.cpp - tilec --interpret ----------------------------------===//
//
// The command-line side of the reference interpreter: `--grid X[,Y[,Z]]`,
// one `--arg NAME=SPEC` per run-time parameter (a number for a scalar; for
// a buffer `zeros:N`, `ones:N`, `iota:N`, `rand[:SEED]:N`, `full:V:N`,
// `poison:N`, `values:V,V,...` or `file:PATH`, each optionally with the
// element type after the kind, `rand:f32:N`), and the outputs `--dump=NAME`
// (the first elements on stdout), `--dump=NAME=PATH` and `--dump-all=DIR`
// (raw little-endian bytes).
//
//===----------------------------------------------------------------------===//

#include "Interpret.h"
#include "OutputWriter.h"

#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Pipeline/Pipeline.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>

using namespace tilec;

namespace {
/// The host memory of one buffer argument.
struct HostBuffer {
  std::string name;
  ScalarType elem;
  std::vector<std::uint8_t> bytes;
};

/// A usage error: the message for `error: --arg ...`.
struct UsageError {
  std::string message;
};

//===----------------------------------------------------------------------===//
// Numbers and elements
//===----------------------------------------------------------------------===//

std::optional<double> parseDouble(llvm::StringRef text) {
  text = text.trim();
  bool negative = text.consume_front("-");
  if (text == "inf" || text == "nan")
    return negative        ? -std::numeric_limits<double>::infinity()
           : text == "inf" ? std::numeric_limits<double>::infinity()
                           : std::numeric_limits<double>::quiet_NaN();
  double value;
  if (text.empty() || text.getAsDouble(value, /*AllowInexact=*/true))
    return std::nullopt;
  return negative ? -value : value;
}

/// An integer that fits `type` (signed or unsigned by the type; i1 also
/// takes true/false).
std::optional<std::int64_t> parseInteger(llvm::StringRef text,
                                         ScalarType type) {
  text = text.trim();
  if (type == ScalarType::I1) {
    if (text == "true" || text == "True" || text == "1")
      return 1;
    if (text == "false" || text == "False" || text == "0")
      return 0;
    return std::nullopt;
  }
  unsigned bits = 8 * scalarTypeBytes(type);
  if (isUnsignedType(type)) {
    std::uint64_t value;
    if (text.getAsInteger(0, value) || (bits < 64 && value >> bits))
      return std::nullopt;
    return static_cast<std::int64_t>(value);
  }
  std::int64_t value;
  if (text.getAsInteger(0, value))
    return std::nullopt;
  if (bits < 64 && (value < -(std::int64_t(1) << (bits - 1)) ||
                    value >= (std::int64_t(1) << (bits - 1))))
    return std::nullopt;
  return value;
}

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

/// Element `index` of `buffer` as text: the shortest decimal that reads
/// back as the same float of its type; integers by their signedness.
std::string formatElement(const HostBuffer &buffer, std::size_t index) {
  const std::uint8_t *p =
      buffer.bytes.data() + index * scalarTypeBytes(buffer.elem);
  std::uint64_t bits = 0;
  std::memcpy(&bits, p, scalarTypeBytes(buffer.elem));
  char text[64];
  auto shortest = [&](auto value) {
    if (std::isnan(value))
      return std::string("nan");
    if (std::isinf(value))
      return std::string(value < 0 ? "-inf" : "inf");
    auto result = std::to_chars(text, text + sizeof(text), value);
    return std::string(text, result.ptr);
  };
  switch (buffer.elem) {
  case ScalarType::F16:
    return shortest(f16{static_cast<std::uint16_t>(bits)}.toFloat());
  case ScalarType::BF16:
    return shortest(bf16{static_cast<std::uint16_t>(bits)}.toFloat());
  case ScalarType::F32: {
    float value;
    std::memcpy(&value, p, sizeof(value));
    return shortest(value);
  }
  case ScalarType::F64: {
    double value;
    std::memcpy(&value, p, sizeof(value));
    return shortest(value);
  }
  case ScalarType::I1:
    return bits & 1 ? "1" : "0";
  default:
    break;
  }
  unsigned width = 8 * scalarTypeBytes(buffer.elem);
  if (isUnsignedType(buffer.elem))
    return std::to_string(bits);
  std::uint64_t shift = 64 - width;
  return std::to_string(static_cast<std::int64_t>(bits << shift) >> shift);
}

/// SplitMix64: a small, fixed generator, so `rand:SEED:N` gives the same
/// data on every machine.
std::uint64_t nextRandom(std::uint64_t &state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A random element of `type`: floats uniform in [-1, 1), signed integers
/// in [-64, 64), unsigned ones in [0, 128), i1 0 or 1.
double randomElement(std::uint64_t &state, ScalarType type) {
  std::uint64_t r = nextRandom(state);
  if (isFloatType(type))
    return static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0;
  if (type == ScalarType::I1)
    return static_cast<double>(r & 1);
  if (isUnsignedType(type))
    return static_cast<double>(r % 128);
  return static_cast<double>(r % 128) - 64;
}

//===----------------------------------------------------------------------===//
// --arg
//===----------------------------------------------------------------------===//

std::size_t parseCount(llvm::StringRef text) {
  std::size_t count;
  if (text.getAsInteger(10, count))
    throw UsageError{"expected an element count, not '" + text.str() + "'"};
  if (count > (std::size_t(1) << 32))
    throw UsageError{"at most 2^32 elements per buffer"};
  return count;
}

/// The buffer a SPEC describes for a parameter of element type `elem`.
/// `defaultSeed` seeds `rand` without a seed, so buffers differ.
HostBuffer makeBuffer(const KernelParam &param, llvm::StringRef spec,
                      std::uint64_t defaultSeed) {
  HostBuffer buffer{param.name, param.type.elem, {}};
  unsigned elemBytes = scalarTypeBytes(buffer.elem);
  auto [kind, rest] = spec.split(':');
  if (kind == "file") {
    auto file = llvm::MemoryBuffer::getFile(rest, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      throw UsageError{"cannot read '" + rest.str() +
                       "': " + file.getError().message()};
    llvm::StringRef data = (*file)->getBuffer();
    if (data.size() % elemBytes)
      throw UsageError{"'" + rest.str() + "' holds " +
                       std::to_string(data.size()) + " bytes, not a whole " +
                       "number of " + scalarTypeName(buffer.elem) +
                       " elements"};
    buffer.bytes.assign(data.begin(), data.end());
    return buffer;
  }
  llvm::SmallVector<llvm::StringRef> fields;
  if (!rest.empty())
    rest.split(fields, ':');
  // An optional element type after the kind must be the parameter's.
  if (!fields.empty() && parseScalarType(fields.front().str())) {
    if (fields.front() != scalarTypeName(buffer.elem))
      throw UsageError{"'" + param.name + "' is " + param.type.str() +
                       ", not a buffer of " + fields.front().str()};
    fields.erase(fields.begin());
  }
  auto expectFields = [&](size_t min, size_t max, const char *form) {
    if (fields.size() < min || fields.size() > max)
      throw UsageError{"expected " + std::string(form)};
  };
  auto allocate = [&](std::size_t count) {
    buffer.bytes.assign(count * elemBytes, 0);
    return count;
  };
  if (kind == "zeros" || kind == "ones" || kind == "iota" || kind == "poison") {
    expectFields(1, 1, (kind + ":COUNT").str().c_str());
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
    std::uint64_t state = defaultSeed;
    if (fields.size() == 2 && fields[0].getAsInteger(0, state))
      throw UsageError{"expected a seed, not '" + fields[0].str() + "'"};
    std::size_t count = allocate(parseCount(fields.back()));
    for (std::size_t i = 0; i < count; ++i)
      storeElement(buffer, i, Number::of(randomElement(state, buffer.elem)));
    return buffer;
  }
  auto parseValue = [&](llvm::StringRef text) -> Number {
    if (isFloatType(buffer.elem)) {
      if (std::optional<double> value = parseDouble(text))
        return Number::of(*value);
    } else if (std::optional<std::int64_t> value =
                   parseInteger(text, buffer.elem)) {
      return {0, *value};
    }
    throw UsageError{"'" + text.str() + "' is not a value of type " +
                     scalarTypeName(buffer.elem)};
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
    llvm::SmallVector<llvm::StringRef> items;
    fields[0].split(items, ',');
    allocate(items.size());
    for (auto [i, item] : llvm::enumerate(items))
      storeElement(buffer, i, parseValue(item));
    return buffer;
  }
  throw UsageError{"unknown buffer '" + kind.str() +
                   "' (zeros:N, ones:N, iota:N, rand[:SEED]:N, full:V:N, "
                   "poison:N, values:V,..., file:PATH)"};
}

/// The argument a SPEC gives a scalar parameter.
InterpreterArg makeScalar(const KernelParam &param, llvm::StringRef spec) {
  ScalarType type = param.type.elem;
  if (isFloatType(type)) {
    if (std::optional<double> value = parseDouble(spec))
      return InterpreterArg::real(*value);
  } else if (std::optional<std::int64_t> value = parseInteger(spec, type)) {
    return InterpreterArg::integer(*value);
  }
  throw UsageError{"'" + spec.str() + "' is not a value of type " +
                   param.type.str()};
}

/// Builds one argument per parameter from the `--arg`s.
std::vector<InterpreterArg> makeArguments(llvm::ArrayRef<KernelParam> params,
                                          llvm::ArrayRef<std::string> specs,
                                          std::vector<HostBuffer> &buffers) {
  std::vector<std::optional<InterpreterArg>> args(params.size());
  std::vector<std::string> names;
  for (const KernelParam &param : params)
    names.push_back(param.name);
  // Arguments point into the buffers' byte vectors, which keep their
  // memory when `buffers` grows.
  for (const std::string &spec : specs) {
    auto [name, value] = llvm::StringRef(spec).split('=');
    if (!llvm::StringRef(spec).contains('='))
      throw UsageError{"expected NAME=SPEC in '--arg " + spec + "'"};
    auto it = llvm::find(names, name);
    if (it == names.end())
      throw UsageError{"--arg " + spec + ": the kernel has no run-time " +
                       "parameter '" + name.str() +
                       "' (it has: " + llvm::join(names, ", ") + ")"};
    std::size_t index = it - names.begin();
    if (args[index])
      throw UsageError{"--arg " + name.str() + " is given twice"};
    const KernelParam &param = params[index];
    try {
      if (param.type.isPointer) {
        buffers.push_back(makeBuffer(param, value, index + 1));
        args[index] =
            InterpreterArg::buffer(param.type.elem, buffers.back().bytes);
      } else {
        args[index] = makeScalar(param, value);
      }
    } catch (const UsageError &error) {
      throw UsageError{"--arg " + spec + ": " + error.message};
    }
  }
  std::vector<InterpreterArg> result;
  for (auto [param, arg] : llvm::zip(params, args)) {
    if (!arg)
      throw UsageError{"no --arg for parameter '" + param.name + "' (" +
                       param.type.str() + ")"};
    result.push_back(*arg);
  }
  return result;
}

/// Parses `--grid`: one to three positive integers separated by commas.
std::array<std::int64_t, 3> parseGrid(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  std::array<std::int64_t, 3> grid = {1, 1, 1};
  if (parts.size() > 3)
    throw UsageError{"--grid=" + text.str() + ": at most three dimensions"};
  // CUDA's limits: 2^31 - 1 programs along x, 65535 along y and z.
  for (auto [i, part] : llvm::enumerate(parts))
    if (part.trim().getAsInteger(10, grid[i]) || grid[i] < 1 ||
        grid[i] > (i == 0 ? std::numeric_limits<std::int32_t>::max() : 65535))
      throw UsageError{"--grid=" + text.str() +
                       ": expected X[,Y[,Z]] with X from 1 to 2^31-1 and Y, "
                       "Z from 1 to 65535"};
  return grid;
}

//===----------------------------------------------------------------------===//
// --dump
//===----------------------------------------------------------------------===//

HostBuffer *findBuffer(std::vector<HostBuffer> &buffers, llvm::StringRef name) {
  for (HostBuffer &buffer : buffers)
    if (buffer.name == name)
      return &buffer;
  return nullptr;
}

void printBuffer(const HostBuffer &buffer, unsigned maxCount,
                 llvm::raw_ostream &os) {
  std::size_t count = buffer.bytes.size() / scalarTypeBytes(buffer.elem);
  std::size_t shown =
      maxCount == 0 ? count : std::min<std::size_t>(count, maxCount);
  os << buffer.name << ": " << scalarTypeName(buffer.elem) << "[" << count
     << "] = [";
  for (std::size_t i = 0; i < shown; ++i)
    os << (i ? ", " : "") << formatElement(buffer, i);
  if (shown < count)
    os << (shown ? ", ...]" : "...]");
  else
    os << "]";
  os << "\n";
}

/// Writes the raw bytes of `buffer` to `path`; false after an error.
bool writeBuffer(const HostBuffer &buffer, llvm::StringRef path) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (!error) {
    os.write(reinterpret_cast<const char *>(buffer.bytes.data()),
             buffer.bytes.size());
    os.close();
    error = os.error();
  }
  if (error)
    llvm::errs() << "error: cannot write '" << path << "': " << error.message()
                 << "\n";
  return !error;
}

/// Checks the `--dump` names before running; returns (name, path) pairs.
std::vector<std::pair<std::string, std::string>>
parseDumps(llvm::ArrayRef<std::string> dumps,
           std::vector<HostBuffer> &buffers) {
  std::vector<std::pair<std::string, std::string>> result;
  for (const std::string &dump : dumps) {
    auto [name, path] = llvm::StringRef(dump).split('=');
    if (!findBuffer(buffers, name))
      throw UsageError{"--dump=" + dump + ": '" + name.str() +
                       "' is not a buffer argument of the kernel"};
    result.emplace_back(name.str(), path.str());
  }
  return result;
}

/// Prints and writes the dumps after a run; returns an exit code.
int writeDumps(const InterpretRequest &request,
               llvm::ArrayRef<std::pair<std::string, std::string>> dumps,
               std::vector<HostBuffer> &buffers) {
  for (const auto &[name, path] : dumps) {
    HostBuffer &buffer = *findBuffer(buffers, name);
    if (path.empty())
      printBuffer(buffer, request.dumpCount, llvm::outs());
    else if (!writeBuffer(buffer, path))
      return kEnvError;
  }
  if (request.dumpAll.empty())
    return kSuccess;
  if (std::error_code error =
          llvm::sys::fs::create_directories(request.dumpAll)) {
    llvm::errs() << "error: cannot create '" << request.dumpAll
                 << "': " << error.message() << "\n";
    return kEnvError;
  }
  for (const HostBuffer &buffer : buffers) {
    llvm::SmallString<128> path(request.dumpAll);
    llvm::sys::path::append(path, buffer.name + ".bin");
    if (!writeBuffer(buffer, path))
      return kEnvError;
  }
  return kSuccess;
}
} // namespace

int tilec::runInterpret(TileSource &source, llvm::StringRef kernel,
                        const ConstexprBindings &bindings,
                        const InterpretRequest &request) {
  InterpreterOptions options;
  try {
    options.grid = parseGrid(request.grid);
  } catch (const UsageError &error) {
    llvm::errs() << "error: " << error.message << "\n";
    return kUsageError;
  }
  std::unique_ptr<KernelInterpreter> interpreter =
      KernelInterpreter::create(source, kernel, bindings, llvm::errs());
  if (!interpreter)
    return kInputError;
  std::vector<HostBuffer> buffers;
  std::vector<InterpreterArg> args;
  std::vector<std::pair<std::string, std::string>> dumps;
  try {
    args = makeArguments(interpreter->getParams(), request.args, buffers);
    dumps = parseDumps(request.dumps, buffers);
  } catch (const UsageError &error) {
    llvm::errs() << "error: " << error.message << "\n";
    return kUsageError;
  } catch (const std::bad_alloc &) {
    llvm::errs() << "error: not enough memory for the --arg buffers\n";
    return kEnvError;
  }
  if (!interpreter->run(args, options, llvm::errs()))
    return kInputError;
  llvm::outs().flush();
  return writeDumps(request, dumps, buffers);
}
