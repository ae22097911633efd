//===- CApiHandles.h - What the C ABI's opaque handles hold ----*- C++ -*-===//
//
// The structs behind the opaque handles of include/tilec-c/tilec.h and the
// helpers every C ABI function uses to turn exceptions into a tilec_status
// plus the calling thread's message (tilec_last_error()). Private to
// lib/JIT/CApi*.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_JIT_CAPIHANDLES_H
#define TILEC_LIB_JIT_CAPIHANDLES_H

#include "tilec-c/tilec.h"

#include "tilec/tilec.h"

#include <exception>
#include <new>
#include <string>
#include <vector>

struct tilec_request {
  tilec::CompileRequest request;
  std::string cacheDir = tilec::defaultCacheDir();
  std::string specialization;
  /// What tilec_request_kernel_names() returned last.
  std::string kernelNames;
};

struct tilec_program {
  tilec::CompiledKernel compiled;
  std::string metadataJson;
  std::vector<std::string> paramTypes;
};

struct tilec_kernel {
  tilec::Kernel kernel;
};

namespace tilec::capi {

/// Records \p message as the calling thread's last error; returns \p status.
tilec_status fail(tilec_status status, const std::string &message);

/// Fails with TILEC_ERROR_INVALID_ARGUMENT: "\p function: \p what is null".
tilec_status nullArgument(const char *function, const char *what);

/// Runs \p body, turning exceptions into \p errorStatus (std::bad_alloc
/// into TILEC_ERROR_INTERNAL) with their message.
template <typename Fn> tilec_status guarded(tilec_status errorStatus, Fn body) {
  try {
    body();
    return TILEC_SUCCESS;
  } catch (const std::bad_alloc &) {
    return fail(TILEC_ERROR_INTERNAL, "tilec: out of memory");
  } catch (const std::exception &e) {
    return fail(errorStatus, e.what());
  } catch (...) {
    return fail(TILEC_ERROR_INTERNAL, "tilec: unknown error");
  }
}

} // namespace tilec::capi

#endif // TILEC_LIB_JIT_CAPIHANDLES_H
