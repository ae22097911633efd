//===- SpareRegisters.h - Registers ptxas leaves unused at its occupancy -*- C++
//-*-===//
//
// Left to its defaults, ptxas schedules a kernel to need few registers and
// so to keep many blocks resident. Where it does not get the occupancy it
// aimed for, or gets it with registers to spare, the registers between what
// the kernel uses and what its occupancy allows stay unused, and the loads
// they could have held in flight do not happen: a layer norm over rows of
// 16384 floats kept 4 of its 16 loads per thread in flight, at one block
// per SM that 255 registers would have kept as well.
//
// `.minnctapersm N` on the kernel, N its occupancy, tells ptxas the
// occupancy to keep; ptxas then schedules for latency within the registers
// N blocks allow. tilec adds it where ptxas leaves at least
// kMinSpareRegisters spare and where the kernel's memory parallelism lives
// in registers: PTX without asynchronous copies (cp.async, bulk/TMA copies),
// whose loads stay in flight whatever the registers, and where the
// directive measured no gain. Kernel::load does this with the register
// count of the driver's JIT; `tilec --emit=cubin` (and `--emit=ptx
// --spare-registers`) with ptxas's.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_SPAREREGISTERS_H
#define TILEC_RUNTIME_SPAREREGISTERS_H

#include "tilec/Support/Target.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// How many blocks of \p threads threads, each using \p registers
/// registers and \p sharedBytes bytes of shared memory, one SM of \p target
/// holds at once; 0 when one block does not fit.
int getResidentBlocks(const Target &target, int registers, int threads,
                      std::int64_t sharedBytes);

/// The most registers per thread (at most 255) that keep \p blocks blocks
/// resident; 0 when none do.
int getRegisterLimit(const Target &target, int blocks, int threads,
                     std::int64_t sharedBytes);

/// Registers per thread below which spending the spare ones is not worth a
/// second compile: four more 16-byte loads in flight per thread.
constexpr int kMinSpareRegisters = 16;

/// \p ptx with `.minnctapersm N` added to entry \p kernel, N the blocks per
/// SM it reaches using \p registersUsed registers, when that occupancy
/// leaves at least kMinSpareRegisters registers per thread unused, the PTX
/// has no asynchronous copies and the entry declares its block size
/// (`.reqntid`/`.maxntid`) and no register or occupancy directive yet;
/// std::nullopt otherwise.
std::optional<std::string> spendSpareRegisters(std::string_view ptx,
                                               std::string_view kernel,
                                               const Target &target,
                                               int registersUsed, int threads,
                                               std::int64_t sharedBytes);

} // namespace tilec

#endif // TILEC_RUNTIME_SPAREREGISTERS_H
