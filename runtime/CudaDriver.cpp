//===- CudaDriver.cpp - Loading the CUDA driver with dlopen ---------------===//
//
// Opens libcuda.so.1 (or the library named by $TILEC_CUDA_DRIVER) once per
// process, resolves every entry point of CudaDriverFunctions.def with dlsym
// (preferring the `_v2` symbols), and runs cuInit. The outcome -- the driver
// or the reason it is unusable -- is computed once under the C++ static
// initialization lock and shared by all threads.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "tilec/Runtime/Error.h"

#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>

using namespace tilec;
using namespace tilec::cuda;

namespace {

/// The driver, or why there is none.
struct LoadedDriver {
  Driver driver;
  bool ok = false;
  std::string error;
};

/// Resolves \p slot from the first of \p names that \p library exports.
template <typename Fn>
bool resolve(void *library, Fn &slot,
             std::initializer_list<const char *> names) {
  for (const char *name : names) {
    if (void *symbol = dlsym(library, name)) {
      slot = reinterpret_cast<Fn>(symbol);
      return true;
    }
  }
  return false;
}

LoadedDriver loadDriver() {
  LoadedDriver result;
  const char *path = "libcuda.so.1";
  if (const char *env = std::getenv("TILEC_CUDA_DRIVER"); env && *env)
    path = env;
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    result.error = std::string("cannot load the CUDA driver (") + path +
                   "): " + (why ? why : "unknown error") +
                   "; is an NVIDIA GPU driver installed?";
    return result;
  }

  Driver &d = result.driver;
  std::string missing;
  auto need = [&](bool found, const char *name) {
    if (!found)
      missing += std::string(missing.empty() ? "" : ", ") + name;
  };
#define REQUIRE(member, ...)                                                   \
  need(resolve(library, d.member, {__VA_ARGS__}), #member)
  REQUIRE(cuInit, "cuInit");
  REQUIRE(cuDriverGetVersion, "cuDriverGetVersion");
  REQUIRE(cuGetErrorName, "cuGetErrorName");
  REQUIRE(cuGetErrorString, "cuGetErrorString");
  REQUIRE(cuDeviceGet, "cuDeviceGet");
  REQUIRE(cuDeviceGetCount, "cuDeviceGetCount");
  REQUIRE(cuDeviceGetName, "cuDeviceGetName");
  REQUIRE(cuDeviceGetAttribute, "cuDeviceGetAttribute");
  REQUIRE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  REQUIRE(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
          "cuDevicePrimaryCtxRelease");
  REQUIRE(cuCtxSetCurrent, "cuCtxSetCurrent");
  REQUIRE(cuCtxGetCurrent, "cuCtxGetCurrent");
  REQUIRE(cuCtxSynchronize, "cuCtxSynchronize");
  REQUIRE(cuMemAlloc, "cuMemAlloc_v2");
  REQUIRE(cuMemFree, "cuMemFree_v2");
  REQUIRE(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  REQUIRE(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  REQUIRE(cuMemcpyDtoD, "cuMemcpyDtoD_v2");
  REQUIRE(cuMemsetD8, "cuMemsetD8_v2");
  REQUIRE(cuMemsetD16, "cuMemsetD16_v2");
  REQUIRE(cuMemsetD32, "cuMemsetD32_v2");
  REQUIRE(cuModuleLoadData, "cuModuleLoadData");
  REQUIRE(cuModuleLoadDataEx, "cuModuleLoadDataEx");
  REQUIRE(cuModuleUnload, "cuModuleUnload");
  REQUIRE(cuModuleGetFunction, "cuModuleGetFunction");
  REQUIRE(cuFuncSetAttribute, "cuFuncSetAttribute");
  REQUIRE(cuFuncGetAttribute, "cuFuncGetAttribute");
  REQUIRE(cuLaunchKernel, "cuLaunchKernel");
  REQUIRE(cuStreamCreate, "cuStreamCreate");
  REQUIRE(cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy");
  REQUIRE(cuStreamSynchronize, "cuStreamSynchronize");
  REQUIRE(cuEventCreate, "cuEventCreate");
  REQUIRE(cuEventRecord, "cuEventRecord");
  REQUIRE(cuEventSynchronize, "cuEventSynchronize");
  REQUIRE(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
  REQUIRE(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy");
#undef REQUIRE
  // Optional: only programmatic dependent launches (CUDA 11.8+) need it.
  resolve(library, d.cuLaunchKernelEx, {"cuLaunchKernelEx"});
  // The link API is optional: only linkPtxToCubin needs it.
  resolve(library, d.cuLinkCreate, {"cuLinkCreate_v2"});
  resolve(library, d.cuLinkAddData, {"cuLinkAddData_v2"});
  resolve(library, d.cuLinkComplete, {"cuLinkComplete"});
  resolve(library, d.cuLinkDestroy, {"cuLinkDestroy"});

  if (!missing.empty()) {
    result.error = std::string("the CUDA driver (") + path +
                   ") lacks the entry points " + missing +
                   "; it is too old for tilec";
    return result;
  }
  if (CUresult r = d.cuInit(0); r != CUDA_SUCCESS) {
    const char *name = nullptr, *text = nullptr;
    d.cuGetErrorName(r, &name);
    d.cuGetErrorString(r, &text);
    result.error = std::string("cuInit failed: ") +
                   (name ? name : "CUDA error " + std::to_string(r)) + " (" +
                   (text ? text : "no description") + ")";
    return result;
  }
  d.cuDriverGetVersion(&d.version);
  result.ok = true;
  return result;
}

const LoadedDriver &loadedDriver() {
  // C++11 guarantees this runs once, even with concurrent first calls.
  static const LoadedDriver loaded = loadDriver();
  return loaded;
}

} // namespace

const Driver &tilec::cuda::driver() {
  const LoadedDriver &loaded = loadedDriver();
  if (!loaded.ok)
    throw Error(loaded.error);
  return loaded.driver;
}

bool tilec::cuda::driverAvailable(std::string *why) {
  const LoadedDriver &loaded = loadedDriver();
  if (!loaded.ok && why)
    *why = loaded.error;
  return loaded.ok;
}

std::string tilec::cuda::describeError(CUresult result) {
  const LoadedDriver &loaded = loadedDriver();
  const char *name = nullptr, *text = nullptr;
  if (loaded.ok) {
    if (loaded.driver.cuGetErrorName(result, &name) != CUDA_SUCCESS)
      name = nullptr;
    if (loaded.driver.cuGetErrorString(result, &text) != CUDA_SUCCESS)
      text = nullptr;
  }
  std::string out = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

void tilec::cuda::check(CUresult result, const char *call,
                        const std::string &detail) {
  if (result == CUDA_SUCCESS)
    return;
  throw Error(std::string(call) + " failed: " + describeError(result) + detail);
}

void tilec::cuda::makeCurrent(CUcontext context) {
  check(driver().cuCtxSetCurrent(context), "cuCtxSetCurrent");
}
