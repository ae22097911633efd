//===- Sema.h - Semantic analysis of .tile kernels --------------*- C++ -*-===//
//
// Public entry points of semantic analysis ("elaboration"): select a kernel
// of a parsed module, bind its constexpr parameters, check names, types and
// shapes, and produce a checked::CheckedKernel that MLIRGen translates
// mechanically. Errors go to the DiagnosticEngine (SPEC §5).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_SEMA_H
#define TILEC_FRONTEND_SEMA_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/CheckedKernel.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Types.h"
#include "tilec/Support/Limits.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilec {

/// Values for constexpr parameters (`-D NAME=VALUE`, host API) and launch
/// option overrides (`--num-warps`, `--num-stages`).
/// The type of a `@triton.jit` kernel parameter that is a host tensor
/// descriptor (Triton's `TensorDescriptor`; `--signature` entry
/// `tensordesc<fp16[64, 64]>`): its element type and block shape.
struct DescriptorParamType {
  ScalarType elem = ScalarType::F32;
  std::vector<int64_t> blockShape;
};

struct ConstexprBindings {
  Constexprs values;
  std::optional<int64_t> numWarps;
  std::optional<int64_t> numStages;
  /// How `values` were given, for messages: "-D" (the command line) or
  /// "constexpr" (the host API).
  std::string origin = "-D";
  /// Whether a value that names no parameter of the kernel is an error
  /// (the host API, as Triton's launcher) rather than a warning (tilec).
  bool unknownNamesAreErrors = false;
  /// Types of kernel parameters written without one (a `@triton.jit`
  /// kernel's, from `--signature`: TritonSignature.h). An untyped parameter
  /// with a value in `values` is a constexpr.
  std::map<std::string, ParamType> paramTypes;
  /// Parameters that are host tensor descriptors (from `--signature`).
  std::map<std::string, DescriptorParamType> descriptorTypes;
  /// Constexpr values that are not numbers (from `--signature`): strings
  /// (`"leaky_relu"`, compared with `==` in the kernel) and dtypes
  /// (`tl.bfloat16`).
  std::map<std::string, std::string> strings;
  std::map<std::string, ScalarType> dtypes;
  /// Constexprs that are `None` (from `--signature`: an optional pointer
  /// passed as None).
  std::set<std::string> nones;

  /// Whether `name` has a constexpr value of any kind.
  bool hasValue(const std::string &name) const {
    return values.count(name) || strings.count(name) || dtypes.count(name) ||
           nones.count(name);
  }
};

/// Parses one `-D` argument, `NAME=VALUE`, into `bindings`. On failure
/// returns false and sets `error` to a message for the user.
bool parseConstexprDefine(llvm::StringRef define, ConstexprBindings &bindings,
                          std::string &error);

/// Names of the kernels of `module` (Module::getKernels), in source order.
std::vector<std::string> listKernels(const ast::Module &module);

/// Checks and elaborates kernel `kernelName` of `module`. Returns
/// std::nullopt after reporting errors (unknown kernel: the error lists the
/// available ones). Bindings that name no parameter of the kernel get a
/// warning (an error with `unknownNamesAreErrors`); bindings of
/// non-constexpr parameters are errors.
std::optional<checked::CheckedKernel>
checkKernel(const ast::Module &module, llvm::StringRef kernelName,
            const ConstexprBindings &bindings, DiagnosticEngine &diags);

} // namespace tilec

#endif // TILEC_FRONTEND_SEMA_H
