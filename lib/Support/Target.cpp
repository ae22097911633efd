//===- Target.cpp - The GPU a kernel is compiled for ----------------------===//
//
// The table of supported targets (name, oldest PTX ISA) and the rules that
// follow from a target's capability: features, shared-memory limit, which
// GPUs run its code.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/Target.h"

#include <cctype>

using namespace tilec;

namespace {
/// A target tilec compiles for and the oldest PTX ISA (times ten) that can
/// target it.
struct SupportedTarget {
  const char *name;
  int minPTXVersion;
};

constexpr SupportedTarget kSupportedTargets[] = {{"sm_80", 70}, {"sm_86", 71},
                                                 {"sm_87", 74}, {"sm_89", 78},
                                                 {"sm_90", 78}, {"sm_90a", 80}};

const SupportedTarget *findSupported(const std::string &name) {
  for (const SupportedTarget &target : kSupportedTargets)
    if (name == target.name)
      return &target;
  return nullptr;
}
} // namespace

std::optional<Target> Target::parseAny(std::string_view name) {
  if (name.substr(0, 3) != "sm_")
    return std::nullopt;
  std::size_t i = 3;
  int capability = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) {
    if (capability > 100000)
      return std::nullopt;
    capability = capability * 10 + (name[i++] - '0');
  }
  if (i == 3)
    return std::nullopt;
  // A letter suffix ("a"; "f" for families on newer GPUs) makes the code
  // at least as specific as its capability.
  bool archSpecific = i < name.size();
  while (i < name.size() && std::isalpha(static_cast<unsigned char>(name[i])))
    ++i;
  if (i != name.size())
    return std::nullopt;
  return Target(capability, archSpecific);
}

std::optional<Target> Target::parse(std::string_view name) {
  std::optional<Target> target = parseAny(name);
  if (!target || !target->isSupported() || target->str() != name)
    return std::nullopt;
  return target;
}

Target Target::forDevice(int major, int minor) {
  int capability = major * 10 + minor;
  return Target(capability, capability == 90);
}

std::string Target::getSupportedNames() {
  std::string names;
  for (const SupportedTarget &target : kSupportedTargets) {
    if (!names.empty())
      names += ", ";
    names += target.name;
  }
  return names;
}

std::string Target::str() const {
  return "sm_" + std::to_string(capability) + (archSpecific ? "a" : "");
}

bool Target::isSupported() const { return findSupported(str()) != nullptr; }

std::int64_t Target::getSharedMemoryPerBlock() const {
  if (capability == 90)
    return 232448; // 227 KiB
  if (capability == 80 || capability == 87)
    return 166912; // 163 KiB
  return 101376;   // sm_86, sm_89: 99 KiB
}

Target::SMLimits Target::getSMLimits() const {
  // CUDA C Programming Guide, "Technical Specifications per Compute
  // Capability"; each block also reserves 1 KiB of shared memory.
  if (capability == 86 || capability == 89)
    return {65536, 1536, capability == 86 ? 16 : 24, 102400, 1024};
  if (capability == 87)
    return {65536, 2048, 16, 167936, 1024};
  if (capability == 80)
    return {65536, 2048, 32, 167936, 1024};
  return {65536, 2048, 32, 233472, 1024}; // sm_90 and newer
}

int Target::getMinPTXVersion() const {
  const SupportedTarget *supported = findSupported(str());
  return supported ? supported->minPTXVersion : kDefaultPTXVersion;
}

bool Target::canRunOn(int major, int minor) const {
  int device = major * 10 + minor;
  return archSpecific ? capability == device : capability <= device;
}
