//===- CudaDriver.h - The CUDA driver API, loaded with dlopen ---*- C++ -*-===//
//
// The runtime talks to the GPU only through the CUDA driver API, which it
// loads from libcuda.so.1 at run time: building needs no CUDA toolkit, and a
// machine without a driver fails with a clear tilec::Error only when it tries
// to use the GPU. This header declares the few driver types and entry points
// the runtime uses (with the ABI of cuda.h, versioned `_v2` names where the
// driver versioned them) and a checked-call helper that names the failing
// call, the error and the driver's description of it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_CUDADRIVER_H
#define TILEC_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <string>

// The driver's opaque handle types, declared where cuda.h declares them (the
// global namespace), so the function types we call through match the
// driver's exactly (clang's -fsanitize=function compares them).
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUlinkState_st;

namespace tilec::cuda {

// Driver types, ABI-compatible with cuda.h.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = ::CUctx_st *;
using CUmodule = ::CUmod_st *;
using CUfunction = ::CUfunc_st *;
using CUstream = ::CUstream_st *;
using CUevent = ::CUevent_st *;
using CUlinkState = ::CUlinkState_st *;
using CUjit_option = int;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;

// CUdevice_attribute values.
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute values.
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUjit_option and CUjitInputType values.
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_LOG_VERBOSE = 12;
constexpr CUjit_option CU_JIT_GENERATE_LINE_INFO = 13;
constexpr int CU_JIT_INPUT_CUBIN = 0;
constexpr int CU_JIT_INPUT_PTX = 1;

/// cuLaunchKernelEx's attribute and configuration (cuda.h's
/// CUlaunchAttribute: an id padded to 8 bytes, then a 64-byte value union;
/// CUlaunchConfig).
struct CUlaunchAttribute {
  int id = 0;
  char pad[4] = {};
  union Value {
    alignas(8) char bytes[64];
    int programmaticStreamSerializationAllowed;
  } value = {};
};
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};
constexpr int CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6;

/// The loaded driver: one function pointer per entry point. Pointers of
/// entry points the driver lacks are null (only the link API and
/// cuLaunchKernelEx are optional).
struct Driver {
#define TILEC_CUDA_FN(name, ...) CUresult (*name)(__VA_ARGS__) = nullptr;
#include "CudaDriverFunctions.def"
#undef TILEC_CUDA_FN
  int version = 0; ///< cuDriverGetVersion: 13000 for CUDA 13.0.
};

/// The driver, loaded and cuInit'ed on the first call (thread-safe, once per
/// process). Throws tilec::Error when libcuda.so.1 cannot be loaded, lacks a
/// required entry point, or cuInit fails; later calls throw the same error.
const Driver &driver();

/// Whether driver() succeeds; otherwise sets \p why (when given).
bool driverAvailable(std::string *why);

/// "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)".
std::string describeError(CUresult result);

/// Throws tilec::Error("<call> failed: <name> (<description>)<detail>") when
/// \p result is not CUDA_SUCCESS.
void check(CUresult result, const char *call, const std::string &detail = "");

/// Makes \p context current on the calling thread (the runtime's objects may
/// be used from any thread).
void makeCurrent(CUcontext context);

} // namespace tilec::cuda

#endif // TILEC_RUNTIME_CUDADRIVER_H
