//===- OutputWriter.h - Where tilec writes its results ----------*- C++ -*-===//
//
// Decides the output files of a compile (`-o FILE`, `-o DIR/`, `-o -`, or
// KERNEL.ext in the current directory) and writes PTX, cubins, AOT headers
// and the metadata JSON beside them, every write checked (exit code 3).
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
enum class BinaryKind { PTX, Cubin, Header, Sass };

/// Writes one kernel's result. `output` is the -o value ("" if none);
/// `multiple` says several kernels are written. Returns an exit code and
/// prints errors to stderr.
int writeKernelOutput(const CompileResult &kernel, BinaryKind kind,
                      llvm::StringRef output, bool multiple);

/// One image of a multi-variant AOT header: a compile of the kernel for
/// one target, as given (`key` empty) or for one argument specialization
/// (`key`: a specializationKey, Arguments.h).
struct HeaderVariant {
  CompileResult result;
  std::string key;
};

/// Writes one AOT header holding one kernel compiled for several targets
/// and specializations (`--emit=header --arch=A,B,...
/// --specializations=KEY,...`: `variants`, each target's generic compile
/// first, then its specializations), whose loader picks the image for the
/// device it is given and whose kernel picks, at each launch, the
/// specialization that fits the arguments best. Named and placed as
/// writeKernelOutput names a header.
int writeMultiVariantHeader(llvm::ArrayRef<HeaderVariant> variants,
                            llvm::StringRef output, bool multiple);

/// Writes text (IR of a stage) to `output` ("" or "-": stdout).
int writeTextOutput(llvm::StringRef text, llvm::StringRef output);

/// Writes `contents` to the file `path` (a regular file through a temporary
/// file and rename, so a failed write leaves nothing; a device or a pipe
/// directly). Returns an exit code, after printing the error.
int writeOutputFile(llvm::StringRef path, llvm::StringRef contents);

/// Writes `text` to standard output and flushes it; kEnvError (after a
/// message) when that fails.
int writeStandardOutput(llvm::StringRef text);

/// Flushes standard output: kEnvError (after a message, the stream's error
/// cleared) when anything written to it was lost, else kSuccess.
int checkStandardOutput();

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_OUTPUTWRITER_H
