//===- SpareRegisters.cpp - Registers ptxas leaves unused -----------------===//
//
// The occupancy arithmetic of one SM (registers are allocated per warp in
// units of 256, every block reserves some shared memory) and the PTX edit
// that asks ptxas to spend the registers a kernel's occupancy leaves spare.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/SpareRegisters.h"

#include "tilec/Runtime/PtxEntry.h"

#include <algorithm>

using namespace tilec;

namespace {
/// Registers are allocated to a warp in units of this many.
constexpr int kRegisterUnitPerWarp = 256;
/// The most registers one thread may use.
constexpr int kMaxRegistersPerThread = 255;

bool containsWord(std::string_view text, std::string_view word) {
  return text.find(word) != std::string_view::npos;
}
} // namespace

int tilec::getResidentBlocks(const Target &target, int registers, int threads,
                             std::int64_t sharedBytes) {
  if (registers < 0 || registers > kMaxRegistersPerThread || threads <= 0 ||
      sharedBytes < 0)
    return 0;
  Target::SMLimits sm = target.getSMLimits();
  int warps = (threads + 31) / 32;
  int perWarp = std::max(1, (registers * 32 + kRegisterUnitPerWarp - 1) /
                                kRegisterUnitPerWarp) *
                kRegisterUnitPerWarp;
  int blocks = std::min(
      {sm.registers / perWarp / warps, sm.threads / threads, sm.blocks});
  std::int64_t sharedPerBlock = sharedBytes + sm.sharedPerBlockReserve;
  return static_cast<int>(
      std::min<std::int64_t>(blocks, sm.sharedBytes / sharedPerBlock));
}

int tilec::getRegisterLimit(const Target &target, int blocks, int threads,
                            std::int64_t sharedBytes) {
  if (blocks <= 0)
    return 0;
  // 255, then the multiples of 8 below it.
  for (int registers = kMaxRegistersPerThread; registers > 0;
       registers = (registers - 1) / 8 * 8)
    if (getResidentBlocks(target, registers, threads, sharedBytes) >= blocks)
      return registers;
  return 0;
}

std::optional<std::string>
tilec::spendSpareRegisters(std::string_view ptx, std::string_view kernel,
                           const Target &target, int registersUsed, int threads,
                           std::int64_t sharedBytes) {
  // Asynchronous copies keep their loads in flight without registers.
  if (containsWord(ptx, "cp.async"))
    return std::nullopt;
  int blocks = getResidentBlocks(target, registersUsed, threads, sharedBytes);
  if (blocks == 0 ||
      getRegisterLimit(target, blocks, threads, sharedBytes) - registersUsed <
          kMinSpareRegisters)
    return std::nullopt;
  std::optional<std::pair<std::size_t, std::size_t>> range =
      detail::findPtxEntryDirectives(ptx, kernel);
  if (!range)
    return std::nullopt;
  std::string_view directives = ptx.substr(range->first, range->second);
  // `.minnctapersm` needs the block size; the user's (or an earlier
  // pass's) register and occupancy directives are left as they are.
  if ((!containsWord(directives, ".reqntid") &&
       !containsWord(directives, ".maxntid")) ||
      containsWord(directives, ".minnctapersm") ||
      containsWord(directives, ".maxnreg") ||
      containsWord(directives, ".maxnctapersm"))
    return std::nullopt;
  std::string out(ptx.substr(0, range->first + range->second));
  if (!out.empty() && out.back() != '\n')
    out += '\n';
  out += ".minnctapersm " + std::to_string(blocks) + "\n";
  out += ptx.substr(range->first + range->second);
  return out;
}
