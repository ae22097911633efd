//===- Libdevice.h - Linking NVIDIA's libdevice -----------------*- C++ -*-===//
//
// Private to lib/Target: links the CUDA toolkit's libdevice.10.bc into an
// NVPTX LLVM module that calls `__nv_*` math functions, lazily (only the
// functions that are used are read) and with the file's bytes cached per
// process, then internalizes everything that is not a kernel and answers
// the `__nvvm_reflect` queries that LLVM's NVVMReflect pass leaves open.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_LIBDEVICE_H
#define TILEC_LIB_TARGET_LIBDEVICE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace tilec {
namespace detail {

/// Returns the name of a function that `module` declares (without a body)
/// and uses whose name starts with `__nv_`, or an empty string.
llvm::StringRef findLibdeviceCall(const llvm::Module &module);

/// Links libdevice into `module` if it calls `__nv_*` functions. The file
/// is `libdevicePath`, or `findLibdevice()`'s when that is empty. Fails
/// with a message naming the function and where libdevice was looked for
/// when none is found, or naming `__nv_*` functions libdevice lacks.
llvm::Error linkLibdeviceIfNeeded(llvm::Module &module,
                                  llvm::StringRef libdevicePath);

/// Gives internal linkage to every function with a body that is not a
/// kernel (`ptx_kernel` calling convention). Global variables keep theirs.
void internalizeNonKernels(llvm::Module &module);

/// Sets the module flags that libdevice's `__nvvm_reflect` queries read:
/// `nvvm-reflect-ftz` = 0 (denormals kept) unless already set, and replaces
/// `__nvvm_reflect("__CUDA_PREC_SQRT")` by 1 (IEEE sqrt, as nvcc's default
/// `-prec-sqrt=true`), which LLVM's NVVMReflect pass would fold to 0.
void setReflectParameters(llvm::Module &module);

} // namespace detail
} // namespace tilec

#endif // TILEC_LIB_TARGET_LIBDEVICE_H
