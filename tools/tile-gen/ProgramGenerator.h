//===- ProgramGenerator.h - Random valid .tile kernels ----------*- C++ -*-===//
//
// A structured random generator of valid .tile kernels, for fuzzing the
// compiler (tilec-gen-fuzzer) and for differential checks (tile-gen). Every
// decision comes from a ChoiceSource: a seeded PRNG, or the bytes of a
// libFuzzer input (consumed like FuzzedDataProvider, zeros once they run
// out, so that every input decodes to a program and short inputs to small
// ones). Besides the source, a program carries a RunSpec: how to launch it
// (grid, every parameter's buffer type and size or scalar value, the input
// ranges) and, per output, a bound on how far its float64 value may lie
// from what the GPU computes. Plain C++: no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILE_GEN_PROGRAMGENERATOR_H
#define TILEC_TOOLS_TILE_GEN_PROGRAMGENERATOR_H

#include "tilec/Support/Random.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilec::gen {

/// Where the generator's decisions come from.
class ChoiceSource {
public:
  virtual ~ChoiceSource() = default;
  /// A number in [0, bound); 0 when bound is 0 or 1.
  virtual uint64_t below(uint64_t bound) = 0;
  /// True with about `percent` % probability; false once bytes run out.
  bool chance(unsigned percent) { return below(100) >= 100 - percent; }
  /// A number in [lo, hi].
  int64_t inRange(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
  }
};

/// Decisions from a seeded PRNG (splitmix64): the same seed gives the same
/// program on every platform.
class SeededChoices : public ChoiceSource {
public:
  explicit SeededChoices(uint64_t seed) : random(seed) {}
  uint64_t below(uint64_t bound) override;

private:
  tilec::SplitMix64 random;
};

/// Decisions read from bytes (a libFuzzer input): one byte per decision of
/// up to 256 values, more for larger ones; zeros after the end.
class ByteChoices : public ChoiceSource {
public:
  ByteChoices(const uint8_t *data, size_t size) : data(data), size(size) {}
  uint64_t below(uint64_t bound) override;

private:
  const uint8_t *data;
  size_t size;
};

/// What the generator may use.
struct GenOptions {
  /// The kernel's name.
  std::string kernelName = "gen";
  /// dot (f16 and f32 inputs).
  bool allowDot = true;
  /// f16 values and buffers.
  bool allowF16 = true;
  /// Run-time loops, if/else and static_range.
  bool allowControlFlow = true;
  /// The most statements in the kernel body (besides indexing and stores).
  unsigned maxStatements = 8;
};

/// One kernel parameter and how to pass it.
struct ParamSpec {
  enum class Kind { Input, Output, Scalar, Constexpr };
  std::string name;
  Kind kind = Kind::Scalar;
  /// Element type of a buffer (f32, f16, i32), or the scalar's type.
  std::string dtype;
  /// Elements of a buffer.
  uint64_t count = 0;
  /// Inputs: fill with values uniform in [lo, hi] (integers for i32,
  /// rounded to f16 for f16).
  double lo = 0, hi = 0;
  /// Scalars and constexprs: the value.
  double value = 0;
  /// Outputs: the GPU's result may differ from the float64 result by at
  /// most this much per element (0: exactly equal).
  double atol = 0;
};

/// How to run a generated kernel.
struct RunSpec {
  std::string kernel;
  unsigned numWarps = 4;
  unsigned numStages = 3;
  std::array<uint64_t, 3> grid = {1, 1, 1};
  /// Every parameter in order, the constexprs (fixed in the source) last.
  std::vector<ParamSpec> params;
  /// The language features the kernel uses (for triage).
  std::vector<std::string> features;

  /// The description as JSON (see docs/fuzzing.md).
  std::string toJSON() const;
};

/// A generated kernel and how to run it.
struct GeneratedProgram {
  std::string source;
  RunSpec run;
};

/// Generates one valid kernel from the decisions of `choices`.
GeneratedProgram generateProgram(ChoiceSource &choices,
                                 const GenOptions &options = {});

} // namespace tilec::gen

#endif // TILEC_TOOLS_TILE_GEN_PROGRAMGENERATOR_H
