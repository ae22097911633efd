//===- InlineAsm.h - Register counting of elementwise inline asm -*- C++
//-*-===//
//
// The rules of `inline_asm_elementwise` that the frontend (its diagnostics)
// and the tile dialect (its verifier) share: how elements are packed into
// asm registers, and how many operands a constraint string names.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_INLINEASM_H
#define TILEC_SUPPORT_INLINEASM_H

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace tilec {

/// How many elements of `bits` width one asm register holds when the asm
/// runs on `pack` elements at once: up to 32 bits' worth, at most `pack`.
inline unsigned getAsmElementsPerRegister(unsigned bits, unsigned pack) {
  if (bits == 0 || bits >= 32)
    return 1;
  return std::max(1u, std::min(32 / bits, pack));
}

/// The operands (outputs and inputs) an LLVM inline-asm constraint string
/// names: its comma-separated entries, clobbers (`~{memory}`) not counted.
inline int64_t countAsmConstraintOperands(std::string_view constraints) {
  int64_t count = 0;
  size_t start = 0;
  while (start <= constraints.size()) {
    size_t end = constraints.find(',', start);
    if (end == std::string_view::npos)
      end = constraints.size();
    std::string_view entry = constraints.substr(start, end - start);
    size_t first = entry.find_first_not_of(" \t");
    if (first != std::string_view::npos && entry[first] != '~')
      ++count;
    start = end + 1;
  }
  return count;
}

} // namespace tilec

#endif // TILEC_SUPPORT_INLINEASM_H
