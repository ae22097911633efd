//===- InlineAsm.h - Rules of elementwise inline asm ------------*- C++ -*-===//
//
// The rules of `inline_asm_elementwise` that the frontend (its diagnostics)
// and the tile dialect (its verifier) share: how elements are packed into
// asm registers, which constraint strings and asm templates the NVPTX
// backend takes. Anything these accept lowers without LLVM aborting;
// anything else is a diagnostic, never a crash in code generation.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_INLINEASM_H
#define TILEC_SUPPORT_INLINEASM_H

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// How many elements of `bits` width one asm register holds when the asm
/// runs on `pack` elements at once: up to 32 bits' worth, at most `pack`.
inline unsigned getAsmElementsPerRegister(unsigned bits, unsigned pack) {
  if (bits == 0 || bits >= 32)
    return 1;
  return std::max(1u, std::min(32 / bits, pack));
}

/// A constraint string split into its entries, in the order LLVM numbers
/// operands: outputs (`=r`, `=&l`, ...), then inputs (`r`, or the number of
/// the output an input is tied to), then clobbers (`~{memory}`).
struct AsmConstraints {
  int64_t outputs = 0;
  /// One entry per input: the output it is tied to, or -1.
  std::vector<int64_t> inputTies;
  int64_t operands() const {
    return outputs + static_cast<int64_t>(inputTies.size());
  }
};

/// Parses `constraints` into `result`. Returns why the string is not one
/// the NVPTX backend takes (empty when it is). Accepted: register classes
/// r, l, h, c, f, d (32/64/16/8-bit integer, f32, f64), `=` and `=&` on
/// outputs, tied inputs naming an earlier output, `~{name}` clobbers, spaces
/// around entries (`"=r, r"`); no memory or immediate operands, `+` or `*`
/// modifiers.
std::string parseAsmConstraints(std::string_view constraints,
                                AsmConstraints &result);

/// `constraints` (accepted by parseAsmConstraints) as LLVM is given it: the
/// spaces around its entries removed.
std::string removeAsmConstraintSpaces(std::string_view constraints);

/// Returns why `asmString` is not a template the NVPTX backend prints for
/// an asm with `operands` operands (empty when it is): `$N` and `${N}` with
/// N below `operands`, and `$$` (a literal `$`), are the only `$` forms.
std::string checkAsmTemplate(std::string_view asmString, int64_t operands);

} // namespace tilec

#endif // TILEC_SUPPORT_INLINEASM_H
