//===- KernelMetadata.h - The kernel ABI description (SPEC 2) ---*- C++ -*-===//
//
// Next to every `.ptx`/`.cubin` the compiler writes a `.json` of the same stem
// that says how to launch the kernel: its entry name, target, warps, dynamic
// shared memory, and the type of every runtime parameter. This header is the
// in-memory form of that file plus its writer and a strict, crash-free reader
// (the runtime carries its own small JSON parser so it links no LLVM).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_KERNELMETADATA_H
#define TILEC_RUNTIME_KERNELMETADATA_H

#include "tilec/Support/CompileOptions.h"
#include "tilec/Support/Types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// The SPEC section 2 metadata of one compiled kernel:
/// `{"kernel", "arch", "num_warps", "num_stages", "threads_per_block",
///   "shared_bytes", "params": [{"name", "type"}], "constexprs": {...},
///   "source_hash", "compiler_version"}`. A parameter the code assumes
/// something of also has `"divisibility": N` (N > 1) or `"equal_to_1": true`.
struct KernelMetadata {
  /// The PTX entry name (the `.tile` kernel's name).
  std::string kernel;
  /// The target, "sm_80", "sm_90a", ...
  std::string arch;
  int numWarps = CompileOptions::kDefaultNumWarps;
  int numStages = CompileOptions::kDefaultNumStages;
  /// Always 32 * numWarps; kept because the file records it.
  int threadsPerBlock = 32 * CompileOptions::kDefaultNumWarps;
  /// Dynamic shared memory per block, in bytes.
  std::uint64_t sharedBytes = 0;
  std::vector<KernelParam> params;
  /// Parameters of the source that are host tensor descriptors, each
  /// passed as several of `params` (TensorDescParam); JSON "descriptors",
  /// written only when there are some.
  std::vector<TensorDescParam> descriptors;
  /// The constexpr values the kernel was specialized with.
  Constexprs constexprs;
  /// Hex hash of the `.tile` source the kernel came from.
  std::string sourceHash;
  std::string compilerVersion;

  /// Serializes to the JSON of SPEC section 2 (pretty-printed, keys in the
  /// order above, ending with a newline).
  std::string toJson() const;

  /// Parses and validates metadata JSON. \p origin (a file name) prefixes
  /// error messages. Throws tilec::Error on malformed JSON, a missing or
  /// mistyped field, an unknown parameter type, or inconsistent values;
  /// never crashes. Unknown extra fields are ignored.
  static KernelMetadata fromJson(std::string_view text,
                                 std::string_view origin = "<metadata>");

  /// Reads and parses \p path; throws tilec::Error when it cannot.
  static KernelMetadata readFile(const std::string &path);
  /// Writes toJson() to \p path; throws tilec::Error when it cannot.
  void writeFile(const std::string &path) const;

  /// "kernel(out: *f32, x: *f32, n: i32)" -- for messages.
  std::string signature() const;

  bool operator==(const KernelMetadata &other) const;
  bool operator!=(const KernelMetadata &other) const {
    return !(*this == other);
  }
};

/// The path of the metadata file beside a kernel binary: "dir/k.ptx" ->
/// "dir/k.json".
std::string metadataPathFor(const std::string &binaryPath);

} // namespace tilec

#endif // TILEC_RUNTIME_KERNELMETADATA_H
