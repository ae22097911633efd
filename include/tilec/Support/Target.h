//===- Target.h - The GPU a kernel is compiled for --------------*- C++ -*-===//
//
// One home for everything tilec knows about a GPU target: the spelling
// ("sm_80" .. "sm_90a"), the compute capability, whether the code is
// architecture-specific (the "a" suffix), the features the compiler may use
// (mma.sync, wgmma, TMA), the shared-memory limit of a block and the PTX ISA
// version. The CLI, the JIT, tile-bench, the pass pipeline, PTX emission and
// the runtime's metadata and device checks all ask this type; none parses an
// arch string of its own. LLVM-free, so the runtime can use it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_TARGET_H
#define TILEC_SUPPORT_TARGET_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// A GPU architecture: "sm_" + compute capability (major * 10 + minor) and
/// an optional "a" (architecture-specific features, e.g. sm_90a's wgmma).
class Target {
public:
  /// The target of a compile that names none: sm_90.
  static Target getDefault() { return Target(90, false); }

  /// Parses a target tilec compiles for: sm_80, sm_86, sm_87, sm_89, sm_90
  /// or sm_90a. std::nullopt for anything else ("native" is resolved by
  /// the caller, which has the device: see forDevice()).
  static std::optional<Target> parse(std::string_view name);
  /// Parses any well-formed target name, "sm_" + digits + an optional
  /// letter ("sm_100a"), supported or not: metadata written by another
  /// compiler version may name GPUs this one does not compile for.
  static std::optional<Target> parseAny(std::string_view name);
  /// The best target for a GPU of compute capability \p major.\p minor, as
  /// `--arch=native` and the JIT choose it: the GPU's own arch, with the
  /// architecture-specific features where tilec uses them (sm_90 -> sm_90a).
  static Target forDevice(int major, int minor);
  /// The targets parse() accepts, for messages: "sm_80, sm_86, ..., sm_90a".
  static std::string getSupportedNames();

  /// "sm_90a".
  std::string str() const;
  /// 90 for sm_90 and sm_90a.
  int getCapability() const { return capability; }
  /// Whether the code uses architecture-specific features ("a") and so
  /// runs only on GPUs of exactly this capability.
  bool isArchSpecific() const { return archSpecific; }
  /// Whether parse() accepts this target.
  bool isSupported() const;

  /// Tensor-core mma.sync (and ldmatrix, cp.async): sm_80 on.
  bool hasMmaSync() const { return capability >= 80; }
  /// Hopper's warpgroup MMA (wgmma): sm_90a only.
  bool hasWgmma() const { return capability == 90 && archSpecific; }
  /// The tensor-memory accelerator (TMA copies through tensor maps), as
  /// tilec uses it: sm_90a only.
  bool hasTMA() const { return hasWgmma(); }
  /// The most shared memory one block may use, in bytes.
  std::int64_t getSharedMemoryPerBlock() const;

  /// What one streaming multiprocessor holds at once: the limits that
  /// decide how many blocks of a kernel are resident (its occupancy).
  struct SMLimits {
    int registers;            ///< 32-bit registers in the register file.
    int threads;              ///< Resident threads.
    int blocks;               ///< Resident blocks.
    std::int64_t sharedBytes; ///< Shared memory of all resident blocks.
    std::int64_t
        sharedPerBlockReserve; ///< Shared memory the system takes per block.
  };
  SMLimits getSMLimits() const;
  /// The oldest PTX ISA version (times ten: 78 is 7.8) that can target it.
  int getMinPTXVersion() const;
  /// The PTX ISA version tilec emits for every target (times ten): 8.4,
  /// accepted by CUDA 12.4+ and CUDA 13 ptxas and drivers, and enough for
  /// every sm_90a feature.
  static constexpr int kDefaultPTXVersion = 84;

  /// Whether code for this target runs on a GPU of compute capability
  /// \p major.\p minor: a newer GPU runs older portable code; "a" code runs
  /// only on its own capability.
  bool canRunOn(int major, int minor) const;

  bool operator==(const Target &other) const {
    return capability == other.capability && archSpecific == other.archSpecific;
  }
  bool operator!=(const Target &other) const { return !(*this == other); }

private:
  Target(int capability, bool archSpecific)
      : capability(capability), archSpecific(archSpecific) {}

  int capability;
  bool archSpecific;
};

} // namespace tilec

#endif // TILEC_SUPPORT_TARGET_H
