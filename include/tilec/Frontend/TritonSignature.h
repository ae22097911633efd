//===- TritonSignature.h - Triton's AOT kernel signatures -------*- C++ -*-===//
//
// A `@triton.jit` kernel's parameters have no types in the source; Triton
// takes them from the launch, and its AOT compiler (triton/tools/compile.py)
// from a signature string: one comma-separated entry per parameter, a type
// (`*fp16`, `i32`, ...) with an optional hint (`:16`, divisible by 16 or a
// 16-byte aligned pointer; `:1`, equal to 1), or a value (`1024`) for a
// constexpr. `tilec --signature` reads the same string (docs/cli.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TRITONSIGNATURE_H
#define TILEC_FRONTEND_TRITONSIGNATURE_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Support/CompileOptions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// One entry of a signature.
struct SignatureEntry {
  /// As written, without the spaces around it.
  std::string text;
  /// A type (a pointer or a scalar) or a constexpr value.
  bool isValue = false;
  ParamType type;
  ConstexprValue value;
  /// A value that is not a number: a quoted string (`"mean"`, without the
  /// quotes here) or a dtype (`tl.bfloat16`).
  std::optional<std::string> stringValue;
  std::optional<ScalarType> dtypeValue;
  /// The value `None` (a constexpr None, as Triton's JIT makes a None
  /// argument).
  bool isNone = false;
  /// A host tensor descriptor, `tensordesc<fp16[64, 64]>`.
  std::optional<DescriptorParamType> descriptor;
  /// The hint after ':': 16 (divisible by 16, or a 16-byte aligned
  /// pointer), 1 (equal to 1) or 0 (none).
  unsigned hint = 0;
  /// Not written: the parameter is a constexpr whose value the bindings
  /// (or its default) give (withConstexprParams).
  bool fromBindings = false;
};

/// Parses a signature ("*fp16:16, *fp16, i32:16, 1024"). Types take
/// tilec's and Triton's spellings (`f16`/`fp16`, `i32`, `u8`, `bf16`, ...;
/// SPEC §1.3), and `tensordesc<fp16[64, 64]>` is a host tensor descriptor
/// (the entries are split at the commas outside brackets); values are
/// integers, floats, True or False, quoted strings and dtypes. std::nullopt
/// with `error` set on a malformed entry, an unknown type or a hint that does
/// not fit its type.
std::optional<std::vector<SignatureEntry>>
parseTritonSignature(llvm::StringRef text, std::string &error);

/// Gives the parameters of `kernel` the types and values of `signature`,
/// one entry per parameter in order: a type goes to `bindings.paramTypes`
/// (checked against the parameter's annotation when it has one), a value
/// to `bindings.values` (the parameter becomes a constexpr, as in Triton), a
/// tensor descriptor to `bindings.descriptorTypes`;
/// `:16` on an integer adds it to `options.divisibleParams`, `:1` to
/// `options.unitParams`; a pointer without `:16` goes to
/// `options.unalignedParams` (no alignment is assumed, as in Triton),
/// unless `keepPointerAlignment` (--pointer-alignment was given). Errors (a
/// signature of the wrong length, a type for a constexpr parameter, ...)
/// are reported at the kernel's parameters; false after one.
bool applyTritonSignature(const ast::Function &kernel,
                          llvm::ArrayRef<SignatureEntry> signature,
                          ConstexprBindings &bindings, CompileOptions &options,
                          bool keepPointerAlignment, DiagnosticEngine &diags);

/// A signature of the runtime parameters of `kernel` only (a JIT's,
/// inferred from launch arguments) made one of every parameter: the
/// parameters annotated `tl.constexpr` or given a value by `bindings` take
/// theirs from there. Reports (at the kernel) and returns std::nullopt when
/// the runtime parameters and the entries differ in number.
std::optional<std::vector<SignatureEntry>>
withConstexprParams(const ast::Function &kernel,
                    llvm::ArrayRef<SignatureEntry> runtimeEntries,
                    const ConstexprBindings &bindings, DiagnosticEngine &diags);

} // namespace tilec

#endif // TILEC_FRONTEND_TRITONSIGNATURE_H
