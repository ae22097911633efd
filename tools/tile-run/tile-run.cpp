//===- tile-run.cpp - Run a compiled kernel from the command line ---------===//
//
// A minimal runner for ahead-of-time compiled kernels, linked only against
// the runtime (no LLVM): it loads KERNEL.ptx (or .cubin) and the KERNEL.json
// beside it, allocates and initializes the buffers described on the command
// line (one `--arg NAME=SPEC` per parameter, the syntax of `tilec
// --interpret`: tilec/Support/LaunchArgs.h), launches, and prints a checksum
// of every buffer, so GPU tests can compare runs without writing a host
// program.
//
//   tile-run k.ptx --grid 8 --arg x=rand:1024 --arg out=zeros:1024 --arg n=1024
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Files.h"
#include "tilec/Runtime/Hash.h"
#include "tilec/Support/LaunchArgs.h"
#include "tilec/tilec.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

using namespace tilec;

namespace {

const char *kUsage =
    "usage: tile-run KERNEL.ptx|KERNEL.cubin [options] --arg NAME=SPEC...\n"
    "options:\n"
    "  --json FILE        metadata (default: KERNEL.json beside the binary)\n"
    "  --grid X[,Y[,Z]]   the program grid (default 1)\n"
    "  --repeat N         launch N times and print the mean time per launch\n"
    "  --print N          print the first N elements of every buffer\n"
    "  --arg NAME=SPEC    one per kernel parameter, as tilec --interpret:\n"
    "                     a number for a scalar; for a buffer zeros:N,\n"
    "                     ones:N, iota:N, rand[:SEED]:N, full:V:N, poison:N,\n"
    "                     values:V,V,... or file:PATH (optionally with the\n"
    "                     element type after the kind: rand:f32:N)\n";

[[noreturn]] void usageError(const std::string &message) {
  std::fprintf(stderr, "tile-run: error: %s\n%s", message.c_str(), kUsage);
  std::exit(2);
}

bool parseInt(std::string_view text, long long &out) {
  auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

/// Prints the checksums (and with \p printCount the first elements) of
/// \p buffer.
void printBuffer(const HostBuffer &buffer, const ParamType &type,
                 long long printCount) {
  double sum = 0, absSum = 0;
  std::size_t nans = 0;
  for (std::size_t i = 0; i < buffer.size(); ++i) {
    double v = loadElement(buffer, i);
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    sum += v;
    absSum += std::fabs(v);
  }
  std::string_view raw(reinterpret_cast<const char *>(buffer.bytes.data()),
                       buffer.bytes.size());
  std::printf("%s: %s[%zu] sum=%.9g abssum=%.9g nan=%zu xxh64=%016llx\n",
              buffer.name.c_str(), type.str().c_str(), buffer.size(), sum,
              absSum, nans, static_cast<unsigned long long>(xxh64(raw)));
  if (printCount <= 0)
    return;
  std::printf("  ");
  for (std::size_t i = 0;
       i < buffer.size() && i < static_cast<std::size_t>(printCount); ++i)
    std::printf("%s%s", i ? " " : "", formatElement(buffer, i).c_str());
  std::printf("\n");
}

} // namespace

int main(int argc, char **argv) {
  std::string binaryPath, jsonPath, gridText = "1";
  std::vector<std::string> specs;
  long long repeat = 1, printCount = 0;
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
      gridText = value();
    } else if (a == "--arg") {
      specs.push_back(value());
    } else if (a == "--repeat") {
      if (!parseInt(value(), repeat) || repeat < 1)
        usageError("--repeat needs a positive integer");
    } else if (a == "--print") {
      if (!parseInt(value(), printCount) || printCount < 0)
        usageError("--print needs a count");
    } else if (binaryPath.empty() && a.rfind("--", 0) != 0) {
      binaryPath = a;
    } else if (a.rfind("--", 0) == 0) {
      usageError("unknown option " + a);
    } else {
      usageError("unexpected argument '" + a + "' (use --arg NAME=SPEC)");
    }
  }
  if (binaryPath.empty())
    usageError("no kernel given");

  try {
    KernelMetadata meta = KernelMetadata::readFile(
        jsonPath.empty() ? metadataPathFor(binaryPath) : jsonPath);
    std::array<std::int64_t, 3> grid;
    LaunchArgs launch;
    try {
      grid = parseGrid(gridText);
      launch = makeLaunchArgs(meta.params, specs);
    } catch (const LaunchArgError &error) {
      usageError(error.what());
    }
    Device device = Device::open(0);
    Kernel kernel = Kernel::load(
        device, detail::readWholeFile(binaryPath, "kernel binary"), meta);

    std::vector<Buffer<std::uint8_t>> memory;
    std::vector<HostArg> hostArgs;
    for (const LaunchArg &arg : launch.args) {
      if (arg.kind == LaunchArg::Kind::Buffer) {
        const HostBuffer &host = launch.buffers[arg.buffer];
        memory.push_back(device.alloc<std::uint8_t>(host.bytes.size()));
        memory.back().copyFrom(host.bytes);
        hostArgs.push_back(HostArg::pointer(memory.back().data().address(),
                                            host.elem, "Buffer"));
      } else if (arg.kind == LaunchArg::Kind::Int) {
        hostArgs.push_back(HostArg::value(arg.intValue));
      } else {
        hostArgs.push_back(HostArg::value(arg.floatValue));
      }
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
                meta.kernel.c_str(), static_cast<long long>(grid[0]),
                static_cast<long long>(grid[1]),
                static_cast<long long>(grid[2]), 32 * meta.numWarps,
                static_cast<unsigned long long>(meta.sharedBytes));
    // launch.args is in parameter order, and so is memory (one buffer per
    // buffer argument); launch.buffers is in the order of the --args.
    std::size_t next = 0;
    for (std::size_t i = 0; i < launch.args.size(); ++i) {
      const LaunchArg &arg = launch.args[i];
      if (arg.kind != LaunchArg::Kind::Buffer)
        continue;
      HostBuffer &host = launch.buffers[arg.buffer];
      host.bytes = memory[next++].toVector();
      printBuffer(host, meta.params[i].type, printCount);
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "tile-run: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "tile-run: error: not enough memory\n");
    return 3;
  }
  return 0;
}
