//===- tile-run.cpp - Run a compiled kernel from the command line ---------===//
//
// A minimal runner for ahead-of-time compiled kernels, linked only against
// the runtime (no LLVM): it loads KERNEL.ptx (or .cubin) and the KERNEL.json
// beside it, allocates and initializes the buffers described on the command
// line, launches, and prints a checksum of every buffer, so GPU tests can
// compare runs without writing a host program.
//
//   tile-run k.ptx --grid 8 buf:f32:1024:rand buf:f32:1024 f32:0.5 int:1024
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Hash.h"
#include "tilec/tilec.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace tilec;

namespace {

const char *kUsage =
    "usage: tile-run KERNEL.ptx|KERNEL.cubin [options] ARG...\n"
    "options:\n"
    "  --json FILE        metadata (default: KERNEL.json beside the binary)\n"
    "  --grid X[,Y[,Z]]   the program grid (default 1)\n"
    "  --repeat N         launch N times and print the mean time per launch\n"
    "  --seed S           seed of 'rand' initialization (default 1)\n"
    "  --print N          print the first N elements of every buffer\n"
    "ARG, one per kernel parameter, in order:\n"
    "  buf:TYPE:COUNT[:INIT]  a device buffer; TYPE is i1 i8 ... u64 f16 bf16\n"
    "                         f32 f64; INIT is zero (default), rand, iota,\n"
    "                         ones, poison or const=V\n"
    "  int:V  float:V  TYPE:V  V   a scalar\n";

/// A device buffer made from a `buf:` argument.
struct BufferArg {
  std::size_t param;
  ScalarType type;
  std::size_t count;
  Buffer<std::uint8_t> memory;
};

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr, "tile-run: error: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

bool parseInt(std::string_view text, long long &out) {
  auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

bool parseDouble(std::string_view text, double &out) {
  if (text == "inf" || text == "-inf" || text == "nan") {
    out = text == "nan" ? NAN : (text[0] == '-' ? -INFINITY : INFINITY);
    return true;
  }
  auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

/// Stores \p value into \p out as one element of \p type.
void storeElement(ScalarType type, double value, std::uint8_t *out) {
  auto put = [&](auto v) { std::memcpy(out, &v, sizeof(v)); };
  switch (type) {
  case ScalarType::I1:
    put(std::uint8_t(value != 0));
    break;
  case ScalarType::I8:
    put(std::int8_t(value));
    break;
  case ScalarType::I16:
    put(std::int16_t(value));
    break;
  case ScalarType::I32:
    put(std::int32_t(value));
    break;
  case ScalarType::I64:
    put(std::int64_t(value));
    break;
  case ScalarType::U8:
    put(std::uint8_t(value));
    break;
  case ScalarType::U16:
    put(std::uint16_t(value));
    break;
  case ScalarType::U32:
    put(std::uint32_t(value));
    break;
  case ScalarType::U64:
    put(std::uint64_t(value));
    break;
  case ScalarType::F16:
    put(f16::fromFloat(float(value)).bits);
    break;
  case ScalarType::BF16:
    put(bf16::fromFloat(float(value)).bits);
    break;
  case ScalarType::F32:
    put(float(value));
    break;
  case ScalarType::F64:
    put(value);
    break;
  }
}

/// Reads one element of \p type at \p in as a double.
double loadElement(ScalarType type, const std::uint8_t *in) {
  auto get = [&](auto v) {
    std::memcpy(&v, in, sizeof(v));
    return static_cast<double>(v);
  };
  switch (type) {
  case ScalarType::I1:
    return get(std::uint8_t());
  case ScalarType::I8:
    return get(std::int8_t());
  case ScalarType::I16:
    return get(std::int16_t());
  case ScalarType::I32:
    return get(std::int32_t());
  case ScalarType::I64:
    return get(std::int64_t());
  case ScalarType::U8:
    return get(std::uint8_t());
  case ScalarType::U16:
    return get(std::uint16_t());
  case ScalarType::U32:
    return get(std::uint32_t());
  case ScalarType::U64:
    return get(std::uint64_t());
  case ScalarType::F16: {
    f16 h;
    std::memcpy(&h.bits, in, 2);
    return h.toFloat();
  }
  case ScalarType::BF16: {
    bf16 h;
    std::memcpy(&h.bits, in, 2);
    return h.toFloat();
  }
  case ScalarType::F32:
    return get(float());
  case ScalarType::F64:
    return get(double());
  }
  return 0;
}

/// Host contents of a `buf:` argument's INIT.
std::vector<std::uint8_t> initialContents(ScalarType type, std::size_t count,
                                          const std::string &init,
                                          std::uint64_t &seed) {
  unsigned width = scalarTypeBytes(type);
  std::vector<std::uint8_t> bytes(count * width, 0);
  if (init.empty() || init == "zero")
    return bytes;
  if (init == "poison") {
    std::fill(bytes.begin(), bytes.end(), 0xFF);
    return bytes;
  }
  double constant = 0;
  bool isConst = init.rfind("const=", 0) == 0;
  if (isConst && !parseDouble(std::string_view(init).substr(6), constant))
    usageError("bad constant in '" + init + "'");
  if (!isConst && init != "rand" && init != "iota" && init != "ones")
    usageError("unknown initialization '" + init + "'");
  for (std::size_t i = 0; i < count; ++i) {
    double v = constant;
    if (init == "ones") {
      v = 1;
    } else if (init == "iota") {
      v = static_cast<double>(i);
    } else if (init == "rand") {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      double unit = static_cast<double>(seed >> 11) * 0x1.0p-53; // [0, 1)
      v = type == ScalarType::I1 ? std::floor(unit * 2)
          : isFloatType(type)    ? unit * 2 - 1
                                 : std::floor(unit * 100);
    }
    storeElement(type, v, bytes.data() + i * width);
  }
  return bytes;
}

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string::npos)
      return parts;
    start = at + 1;
  }
}

} // namespace

int main(int argc, char **argv) {
  std::string binaryPath, jsonPath;
  std::vector<std::string> args;
  long long grid[3] = {1, 1, 1};
  long long repeat = 1, seedValue = 1, printCount = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        usageError(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--json") {
      jsonPath = value();
    } else if (a == "--grid") {
      std::vector<std::string> dims = split(value(), ',');
      if (dims.size() > 3)
        usageError("--grid takes at most three dimensions");
      for (std::size_t d = 0; d < dims.size(); ++d)
        if (!parseInt(dims[d], grid[d]))
          usageError("bad --grid dimension '" + dims[d] + "'");
    } else if (a == "--repeat") {
      if (!parseInt(value(), repeat) || repeat < 1)
        usageError("--repeat needs a positive integer");
    } else if (a == "--seed") {
      if (!parseInt(value(), seedValue))
        usageError("--seed needs an integer");
    } else if (a == "--print") {
      if (!parseInt(value(), printCount) || printCount < 0)
        usageError("--print needs a count");
    } else if (binaryPath.empty() && a.rfind("--", 0) != 0) {
      binaryPath = a;
    } else if (a.rfind("--", 0) == 0) {
      usageError("unknown option " + a);
    } else {
      args.push_back(a);
    }
  }
  if (binaryPath.empty())
    usageError("no kernel given");

  try {
    KernelMetadata meta = KernelMetadata::readFile(
        jsonPath.empty() ? metadataPathFor(binaryPath) : jsonPath);
    if (args.size() != meta.params.size())
      usageError("kernel '" + meta.kernel + "' takes " +
                 std::to_string(meta.params.size()) + " arguments (" +
                 meta.signature() + "), got " + std::to_string(args.size()));
    Device device = Device::open(0);
    std::string binary;
    {
      FILE *f = std::fopen(binaryPath.c_str(), "rb");
      if (!f)
        throw Error("cannot read '" + binaryPath +
                    "': " + std::strerror(errno));
      char chunk[65536];
      for (std::size_t n; (n = std::fread(chunk, 1, sizeof(chunk), f)) > 0;)
        binary.append(chunk, n);
      std::fclose(f);
    }
    Kernel kernel = Kernel::load(device, binary, meta);

    std::uint64_t seed = static_cast<std::uint64_t>(seedValue);
    std::vector<BufferArg> buffers;
    std::vector<HostArg> hostArgs;
    for (std::size_t p = 0; p < args.size(); ++p) {
      std::vector<std::string> parts = split(args[p], ':');
      if (parts[0] == "buf") {
        long long count = 0;
        std::optional<ScalarType> type;
        if (parts.size() >= 3)
          type = parseScalarType(parts[1]);
        if (parts.size() < 3 || parts.size() > 4 || !type ||
            !parseInt(parts[2], count) || count < 0)
          usageError("bad buffer '" + args[p] + "' (buf:TYPE:COUNT[:INIT])");
        BufferArg buffer{p, *type, static_cast<std::size_t>(count), {}};
        buffer.memory =
            device.alloc<std::uint8_t>(buffer.count * scalarTypeBytes(*type));
        buffer.memory.copyFrom(initialContents(
            *type, buffer.count, parts.size() == 4 ? parts[3] : "", seed));
        hostArgs.push_back(
            HostArg::pointer(buffer.memory.data().address(), *type, "Buffer"));
        buffers.push_back(std::move(buffer));
        continue;
      }
      std::string kind = parts.size() == 2 ? parts[0] : "";
      std::string text = parts.back();
      std::optional<ScalarType> typed = parseScalarType(kind);
      bool wantInt = kind == "int" || (typed && !isFloatType(*typed));
      bool wantFloat = kind == "float" || (typed && isFloatType(*typed));
      if (parts.size() > 2 || (!kind.empty() && !wantInt && !wantFloat))
        usageError("bad argument '" + args[p] + "'");
      long long i = 0;
      double f = 0;
      if (!wantFloat && parseInt(text, i))
        hostArgs.push_back(HostArg::value(static_cast<std::int64_t>(i)));
      else if (!wantInt && parseDouble(text, f))
        hostArgs.push_back(HostArg::value(f));
      else
        usageError("bad scalar '" + args[p] + "'");
    }

    Grid g(grid[0], grid[1], grid[2]);
    Timer timer(device);
    kernel.launchArgs(g, hostArgs, Stream()); // Warm-up and correctness run.
    device.synchronize();
    if (repeat > 1) {
      timer.start();
      for (long long r = 0; r < repeat; ++r)
        kernel.launchArgs(g, hostArgs, Stream());
      float ms = timer.stop();
      std::printf("time: %.6f ms per launch (%lld launches)\n", ms / repeat,
                  repeat);
    }
    std::printf("kernel %s: grid (%lld, %lld, %lld), %d threads, %llu bytes "
                "shared\n",
                meta.kernel.c_str(), grid[0], grid[1], grid[2],
                32 * meta.numWarps,
                static_cast<unsigned long long>(meta.sharedBytes));
    for (BufferArg &buffer : buffers) {
      std::vector<std::uint8_t> bytes = buffer.memory.toVector();
      unsigned width = scalarTypeBytes(buffer.type);
      double sum = 0, absSum = 0;
      std::size_t nans = 0;
      for (std::size_t i = 0; i < buffer.count; ++i) {
        double v = loadElement(buffer.type, bytes.data() + i * width);
        if (std::isnan(v)) {
          ++nans;
          continue;
        }
        sum += v;
        absSum += std::fabs(v);
      }
      std::string_view raw(reinterpret_cast<const char *>(bytes.data()),
                           bytes.size());
      const KernelParam &param = meta.params[buffer.param];
      std::printf("%s: %s[%zu] sum=%.9g abssum=%.9g nan=%zu xxh64=%016llx\n",
                  param.name.c_str(), param.type.str().c_str(), buffer.count,
                  sum, absSum, nans,
                  static_cast<unsigned long long>(xxh64(raw)));
      if (printCount > 0) {
        std::printf("  ");
        for (std::size_t i = 0;
             i < buffer.count && i < static_cast<std::size_t>(printCount); ++i)
          std::printf("%s%.9g", i ? " " : "",
                      loadElement(buffer.type, bytes.data() + i * width));
        std::printf("\n");
      }
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "tile-run: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
