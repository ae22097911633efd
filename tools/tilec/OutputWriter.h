//===- OutputWriter.h - Where tilec writes its results ----------*- C++ -*-===//
//
// Decides the output files of a compile (`-o FILE`, `-o DIR/`, `-o -`, or
// KERNEL.ext in the current directory) and writes PTX, cubins, AOT headers
// and the metadata JSON beside them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_OUTPUTWRITER_H
#define TILEC_TOOLS_TILEC_OUTPUTWRITER_H

#include "tilec/Driver/KernelCompiler.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tilec {

/// Exit codes of SPEC section 3.
enum ExitCode { kSuccess = 0, kInputError = 1, kUsageError = 2, kEnvError = 3 };

/// What to emit for a PTX-level compile.
enum class BinaryKind { PTX, Cubin, Header };

/// Writes one kernel's result. `output` is the -o value ("" if none);
/// `multiple` says several kernels are written. Returns an exit code and
/// prints errors to stderr.
int writeKernelOutput(const CompileResult &kernel, BinaryKind kind,
                      llvm::StringRef output, bool multiple);

/// Writes text (IR of a stage) to `output` ("" or "-": stdout).
int writeTextOutput(llvm::StringRef text, llvm::StringRef output);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_OUTPUTWRITER_H
