//===- CudaToolkit.h - The CUDA toolkit's files and tools -------*- C++ -*-===//
//
// The one place that locates the (optional) CUDA toolkit: its root folders,
// libdevice.10.bc (linked when a kernel calls `__nv_*` math functions) and
// ptxas (the cubin stage), and that runs ptxas on PTX.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_CUDATOOLKIT_H
#define TILEC_TARGET_CUDATOOLKIT_H

#include "tilec/Support/Target.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

/// Finds libdevice.10.bc: `$TILEC_LIBDEVICE` (a file, or a folder holding
/// it), then `nvvm/libdevice` under each toolkit root ($CUDA_HOME,
/// $CUDA_PATH, /usr/local/cuda). Returns an empty string if none exists.
std::string findLibdevice();

/// Resolves `path` (libdevice.10.bc, or a folder holding it) to an
/// existing file, or returns an empty string.
std::string resolveLibdevice(llvm::StringRef path);

/// The places `findLibdevice()` looks, in order, for error messages.
std::string describeLibdeviceSearchPath();

/// Finds ptxas: `$TILEC_PTXAS` (`none`: act as if there were none), PATH,
/// then `bin/ptxas` under each toolkit root. Empty if none is found.
std::string findPtxas();

/// How long assembleCubin waits for ptxas by default.
constexpr unsigned kDefaultPtxasTimeoutSeconds = 300;
/// How long assembleCubin waits for ptxas: `$TILEC_PTXAS_TIMEOUT` seconds
/// (a positive integer), else kDefaultPtxasTimeoutSeconds.
unsigned getPtxasTimeout();

/// Assembles `ptx` (of kernel `kernelName`, for messages) for `target` with
/// ptxas into a cubin (ELF) image; with `registersUsed`, also the
/// registers per thread the kernel uses (ptxas -v). Fails with a message
/// when ptxas is missing, rejects the PTX, runs longer than
/// getPtxasTimeout() (it is killed), succeeds without writing an ELF image
/// or, asked for them, reports no registers.
llvm::Expected<std::string> assembleCubin(llvm::StringRef ptx, Target target,
                                          llvm::StringRef kernelName,
                                          int *registersUsed = nullptr);

/// The registers per thread of the first kernel in a `ptxas -v` report
/// ("Used 143 registers, ..."); -1 when it names none.
int parsePtxasRegisters(llvm::StringRef log);

/// Finds a SASS disassembler: `$TILEC_NVDISASM` (`none`: act as if there
/// were none), then `nvdisasm` and `cuobjdump` on PATH and under each
/// toolkit root's bin/. Empty if none is found.
std::string findDisassembler();

/// The SASS of `cubin` (kernel `kernelName`, for messages) as text:
/// `nvdisasm -c` (code sections only), or `cuobjdump -sass` when only that
/// is found. Fails with a message when neither is found or it fails.
llvm::Expected<std::string> disassembleCubin(llvm::StringRef cubin,
                                             llvm::StringRef kernelName);

} // namespace tilec

#endif // TILEC_TARGET_CUDATOOLKIT_H
