//===- LaunchArgs.h - Kernel arguments described on a command line -*- C++
//-*-===//
//
// The one syntax for describing a launch's arguments on a command line,
// shared by `tilec --interpret` and `tile-run`: `--grid X[,Y[,Z]]` and one
// `NAME=SPEC` per run-time parameter. A scalar takes a number; a buffer
// `zeros:N`, `ones:N`, `iota:N`, `rand[:SEED]:N`, `full:V:N`, `poison:N`,
// `values:V,V,...` or `file:PATH`, each optionally with the element type
// after the kind (`rand:f32:N`). Also the element conversions and the text
// of elements that the tools print. LLVM-free (tile-run links no LLVM).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_LAUNCHARGS_H
#define TILEC_SUPPORT_LAUNCHARGS_H

#include "tilec/Support/Types.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// A malformed argument description; what() is the message, without
/// "error: ".
class LaunchArgError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The host memory of one buffer argument.
struct HostBuffer {
  /// The parameter's name.
  std::string name;
  ScalarType elem = ScalarType::F32;
  /// Little-endian elements (i1 as one byte each).
  std::vector<std::uint8_t> bytes;

  std::size_t size() const { return bytes.size() / scalarTypeBytes(elem); }
};

/// One launch argument: a buffer (an index into the buffers) or a scalar.
struct LaunchArg {
  enum class Kind { Buffer, Int, Float };
  Kind kind = Kind::Int;
  std::size_t buffer = 0;
  std::int64_t intValue = 0;
  double floatValue = 0;
};

/// The arguments of one launch, in parameter order, and the buffers they
/// point to.
struct LaunchArgs {
  std::vector<LaunchArg> args;
  std::vector<HostBuffer> buffers;

  /// The buffer of parameter `name`, or null.
  HostBuffer *findBuffer(std::string_view name);
};

/// Builds one argument per parameter of `params` from `specs` (NAME=SPEC,
/// one per parameter, any order). A buffer's `rand` without a seed is
/// seeded with its parameter's position (1, 2, ...), so buffers differ.
/// Throws LaunchArgError.
LaunchArgs makeLaunchArgs(const std::vector<KernelParam> &params,
                          const std::vector<std::string> &specs);

/// Parses a grid, "X", "X,Y" or "X,Y,Z", within CUDA's limits (2^31 - 1
/// programs along x, 65535 along y and z). Throws LaunchArgError.
std::array<std::int64_t, 3> parseGrid(std::string_view text);

/// Element `index` of `buffer` as a double.
double loadElement(const HostBuffer &buffer, std::size_t index);
/// Element `index` of `buffer` as text: the shortest decimal that reads
/// back as the same float of its type; integers by their signedness.
std::string formatElement(const HostBuffer &buffer, std::size_t index);

} // namespace tilec

#endif // TILEC_SUPPORT_LAUNCHARGS_H
