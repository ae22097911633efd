//===- CompilerBackend.h - The runtime/compiler seam ------------*- C++ -*-===//
//
// The runtime (TilecRuntime) links no LLVM or MLIR, so it cannot compile
// `.tile` source itself. This header is the narrow interface between the two
// libraries: a CompileRequest says what to build, a CompiledKernel is what
// comes back (PTX or cubin bytes plus the SPEC section 2 metadata), and a
// CompileFn is the compiler's entry point. tilec::Compiler (implemented in the
// compiler library) builds a CompileRequest from its Options and arguments,
// runs it through compileCached() (KernelCache.h) with its CompileFn, and
// loads the result with Kernel::load(). specializeRequest() turns a request
// into the one for a variant of argument specialization.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_COMPILERBACKEND_H
#define TILEC_RUNTIME_COMPILERBACKEND_H

#include "tilec/Runtime/KernelMetadata.h"
#include "tilec/Support/CompileOptions.h"
#include "tilec/Support/Types.h"

#include <functional>
#include <string>
#include <vector>

namespace tilec {

/// Everything that determines a compiled kernel. Every field but
/// sourceName takes part in the cache key (together with the compiler
/// version).
struct CompileRequest {
  /// What the source text is.
  enum class Language {
    /// The `.tile` language.
    Tile,
    /// A Python file whose `@triton.jit` kernel is compiled, typed by
    /// `signature` (as `tilec FILE.py -k KERNEL --signature ...`).
    Python,
  };

  /// The source text.
  std::string source;
  /// The name diagnostics use for the source ("softmax.tile", "<source>").
  std::string sourceName;
  /// The `@kernel` entry to compile.
  std::string kernel;
  /// Values for the kernel's constexpr parameters.
  Constexprs constexprs;
  /// Target, overrides of `@kernel(num_warps=, num_stages=)`, optimization
  /// level, argument specialization, fp fusion.
  CompileOptions options;
  Language language = Language::Tile;
  /// For a Python source: the Triton signature of the kernel's parameters
  /// ("*fp16, *fp16, i32:16, 1024": a type per parameter, with an optional
  /// hint, or a constexpr value; TritonSignature.h). Its `:16`/`:1` hints
  /// add to the options' argument specialization; pointer alignment comes
  /// from options.pointerAlignment (a pointer without `:16` is not made
  /// unaligned, unlike `tilec --signature`). Empty: the parameters'
  /// annotations.
  std::string signature;
  /// The signature types only the runtime parameters, in order: those
  /// neither annotated `tl.constexpr` nor named in `constexprs`, whose
  /// values come from `constexprs` and their defaults (the JIT's signatures,
  /// inferred from launch arguments, as Triton's JIT does).
  bool signatureOfRuntimeParams = false;
  /// For a Python source: the environment variables its module-level code
  /// reads to choose its helpers (`if os.environ.get("FAST") == "1":`), one
  /// "NAME=value" or "NAME unset" per line, as the compiler saw them
  /// (describeHostEnvironment, PythonSource.h). The JIT fills it in before
  /// it looks in a cache, so that a change of those variables is a miss.
  std::string hostEnvironment;
};

/// \p request specialized as the specializationKey() \p key (Arguments.h)
/// of a launch says, for a kernel with the runtime parameters \p params:
/// 'D' adds the integer to options.divisibleParams, 'U' to unitParams (both
/// replaced, not extended), and options.pointerAlignment is 16 when every
/// pointer is 'A', else 1 (all or nothing). What Compiler's specializing
/// kernels and the C ABI compile for each variant.
CompileRequest specializeRequest(CompileRequest request,
                                 const std::vector<KernelParam> &params,
                                 const std::string &key);

/// What specializeRequest does to the options: \p options specialized as
/// \p key says for the runtime parameters \p params (also `tilec
/// --emit=header --specializations=`).
void specializeOptions(CompileOptions &options,
                       const std::vector<KernelParam> &params,
                       const std::string &key);

/// A compiled kernel: the binary and the metadata that says how to launch it.
struct CompiledKernel {
  /// PTX text, or a cubin (ELF) image; Kernel::load tells them apart.
  std::string binary;
  KernelMetadata meta;
};

/// The compiler's entry point. Returns the kernel, or throws tilec::Error
/// whose what() is the full diagnostic text (`file:line:col: error: ...`,
/// source line, caret). It must not abort on bad input.
using CompileFn = std::function<CompiledKernel(const CompileRequest &)>;

/// The compiler library's CompileFn: parses, checks and compiles \p request
/// to PTX with the tilec pipeline (one compiler per thread, so concurrent
/// calls are safe). Defined in TilecJIT (link tilec::tilec); uncached --
/// Compiler and compileCached() add the caches. Throws tilec::Error whose
/// what() holds the diagnostics.
CompiledKernel compileTileKernel(const CompileRequest &request);

} // namespace tilec

#endif // TILEC_RUNTIME_COMPILERBACKEND_H
