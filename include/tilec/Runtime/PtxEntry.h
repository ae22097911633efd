//===- PtxEntry.h - The parameters of a PTX .entry ---------------*- C++
//-*-===//
//
// Kernel::load cross-checks the metadata against the PTX it loads before the
// driver sees either: the metadata's kernel must be a `.entry` of the PTX,
// with as many parameters, each of the size the runtime packs for it. A
// stale or hand-edited `.json` is then a tilec::Error that says what
// differs, not a crash inside cuLaunchKernel.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_PTXENTRY_H
#define TILEC_RUNTIME_PTXENTRY_H

#include "tilec/Runtime/KernelMetadata.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilec::detail {

/// One parameter of a PTX `.entry`: its size and what its declaration says
/// it holds.
struct PtxParam {
  enum class Kind {
    /// `.u64 .ptr ...`: a pointer.
    Pointer,
    /// `.f32`, `.f64`, `.f16`, ...
    Float,
    /// `.u32`, `.s64`, ... (not marked a pointer).
    Integer,
    /// `.b8` arrays, `.b16`, ...: any value of that size.
    Bits,
  };
  std::uint64_t bytes = 0;
  Kind kind = Kind::Bits;
};

/// The parameters of `.entry` \p kernel of \p ptx, in order; std::nullopt
/// when the PTX has no such entry or its parameter list does not parse.
std::optional<std::vector<PtxParam>>
parsePtxEntryParams(std::string_view ptx, std::string_view kernel);

/// The text between the parameter list of `.entry` \p kernel of \p ptx
/// and its body's `{`: the performance directives (`.reqntid 128, 1, 1`,
/// `.maxnreg 168`, ...), as an offset and a length into \p ptx;
/// std::nullopt when the PTX has no such entry.
std::optional<std::pair<std::size_t, std::size_t>>
findPtxEntryDirectives(std::string_view ptx, std::string_view kernel);

/// Why \p ptx cannot be launched with \p meta (no `.entry` of that name,
/// another number, size or kind of parameters: a pointer where the PTX has
/// a float or a non-pointer, a float where it has an integer); "" when it
/// can.
std::string describePtxEntryMismatch(std::string_view ptx,
                                     const KernelMetadata &meta);

} // namespace tilec::detail

#endif // TILEC_RUNTIME_PTXENTRY_H
