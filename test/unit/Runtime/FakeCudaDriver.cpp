//===- FakeCudaDriver.cpp - A stand-in libcuda for the runtime tests ------===//
//
// The fake CUDA driver described in FakeCudaDriver.h: every entry point the
// runtime resolves, with the real driver's error codes for the misuses the
// runtime must never commit (no current context, copies outside an
// allocation, a launch whose grid, block or shared memory the device would
// refuse), so the runtime's own checks can be tested without a GPU.
//
//===----------------------------------------------------------------------===//

#include "FakeCudaDriver.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

using tilec::fake::FakeCudaState;

struct CUctx_st {
  int unused;
};
struct CUfunc_st;
struct CUmod_st {
  std::string image;
  std::vector<std::unique_ptr<CUfunc_st>> functions;
};
struct CUfunc_st {
  std::string name;
  std::vector<int> paramBytes;
  unsigned reqntid[3] = {0, 0, 0};
  int maxDynamicShared = 0;
  /// What NUM_REGS reports: "// fake num_regs N" in the PTX, else 40.
  int numRegisters = 40;
};
struct CUstream_st {
  int unused;
};
struct CUevent_st {
  bool recorded = false;
};

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

constexpr CUresult kSuccess = 0, kInvalidValue = 1, kOutOfMemory = 2,
                   kNotInitialized = 3, kNoDevice = 100, kInvalidDevice = 101,
                   kInvalidImage = 200, kInvalidContext = 201,
                   kInvalidPtx = 218, kInvalidHandle = 400, kNotFound = 500;

constexpr int kMaxThreads = 1024;
constexpr int kDefaultShared = 48 * 1024;
constexpr int kOptinShared = 227 * 1024;
constexpr unsigned kMaxGrid[3] = {2147483647u, 65535u, 65535u};
/// Allocations above this fail with CUDA_ERROR_OUT_OF_MEMORY.
constexpr std::size_t kMemoryBytes = std::size_t(1) << 36;

FakeCudaState gState;
std::mutex gMutex;
bool gInitialized = false;
CUctx_st gContext;
thread_local CUcontext tCurrent = nullptr;
std::map<CUdeviceptr, std::size_t> gAllocations;
std::set<CUmodule> gModules;
std::set<CUstream> gStreams;
std::set<CUevent> gEvents;

enum class Mode { Ok, InitFails, NoDevices };

Mode mode() {
  const char *m = std::getenv("TILEC_FAKE_CUDA");
  if (m && std::strcmp(m, "init-fails") == 0)
    return Mode::InitFails;
  if (m && std::strcmp(m, "no-devices") == 0)
    return Mode::NoDevices;
  return Mode::Ok;
}

CUresult fail(CUresult r) {
  ++gState.failedCalls;
  return r;
}

/// CUDA_SUCCESS when the driver is initialized and the primary context is
/// current on the calling thread.
CUresult needContext() {
  if (!gInitialized)
    return fail(kNotInitialized);
  if (tCurrent != &gContext || gState.primaryContextRefs == 0)
    return fail(kInvalidContext);
  return kSuccess;
}

/// Whether [address, address + bytes) lies inside one allocation.
bool inAllocation(CUdeviceptr address, std::size_t bytes) {
  auto it = gAllocations.upper_bound(address);
  if (it == gAllocations.begin())
    return false;
  --it;
  return address - it->first <= it->second &&
         bytes <= it->second - (address - it->first);
}

int ptxTypeBytes(const std::string &type) {
  std::size_t digits = type.find_first_of("0123456789");
  if (digits == std::string::npos)
    return 0;
  return std::atoi(type.c_str() + digits) / 8;
}

/// Parses the parameters and `.reqntid` of `.entry name(` in \p ptx.
std::unique_ptr<CUfunc_st> findEntry(const std::string &ptx,
                                     const std::string &name) {
  std::string needle = ".entry " + name;
  std::size_t pos = 0;
  while ((pos = ptx.find(needle, pos)) != std::string::npos) {
    std::size_t after = pos + needle.size();
    while (after < ptx.size() && (ptx[after] == ' ' || ptx[after] == '\t'))
      ++after;
    if (after < ptx.size() && ptx[after] == '(')
      break;
    pos = after;
  }
  if (pos == std::string::npos)
    return nullptr;
  std::size_t open = ptx.find('(', pos), close = ptx.find(')', open);
  if (close == std::string::npos)
    return nullptr;
  auto fn = std::make_unique<CUfunc_st>();
  fn->name = name;
  std::string params = ptx.substr(open + 1, close - open - 1);
  std::size_t start = 0;
  while ((start = params.find(".param", start)) != std::string::npos) {
    start += 6;
    while (start < params.size() && std::isspace((unsigned char)params[start]))
      ++start;
    std::size_t end = start;
    while (end < params.size() && !std::isspace((unsigned char)params[end]))
      ++end;
    fn->paramBytes.push_back(ptxTypeBytes(params.substr(start, end - start)));
  }
  std::size_t body = ptx.find('{', close);
  std::size_t req = ptx.find(".reqntid", close);
  if (req != std::string::npos && req < body) {
    unsigned x = 0, y = 1, z = 1;
    if (std::sscanf(ptx.c_str() + req, ".reqntid %u, %u, %u", &x, &y, &z) >=
        1) {
      fn->reqntid[0] = x;
      fn->reqntid[1] = y;
      fn->reqntid[2] = z;
    }
  }
  return fn;
}

bool validFunction(CUfunction f) {
  for (CUmodule m : gModules)
    for (const auto &fn : m->functions)
      if (fn.get() == f)
        return true;
  return false;
}

CUresult copyCheck(CUdeviceptr address, std::size_t bytes) {
  if (CUresult r = needContext())
    return r;
  if (bytes && !inAllocation(address, bytes))
    return fail(kInvalidValue);
  return kSuccess;
}

/// Where device address \p address is on the host (the fake's device memory
/// is host memory).
void *hostAddress(CUdeviceptr address) {
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(address));
}

/// A copy of \p bytes between the host memory \p host and the device memory
/// \p device (from \p src to \p dst, one of them each): the device side must
/// lie in one allocation, the host side must not be null.
CUresult hostCopy(void *dst, const void *src, CUdeviceptr device,
                  const void *host, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = copyCheck(device, bytes))
    return r;
  if (bytes && !host)
    return fail(kInvalidValue);
  if (bytes)
    std::memcpy(dst, src, bytes);
  return kSuccess;
}

template <typename T>
CUresult memset(CUdeviceptr dst, T value, std::size_t count) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (count > kMemoryBytes / sizeof(T))
    return fail(kInvalidValue);
  if (CUresult r = copyCheck(dst, count * sizeof(T)))
    return r;
  T *p = reinterpret_cast<T *>(static_cast<std::uintptr_t>(dst));
  for (std::size_t i = 0; i < count; ++i)
    std::memcpy(p + i, &value, sizeof(T));
  return kSuccess;
}

struct ErrorText {
  CUresult code;
  const char *name, *text;
};
const ErrorText kErrors[] = {
    {kSuccess, "CUDA_SUCCESS", "no error"},
    {kInvalidValue, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {kOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {kNotInitialized, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {kNoDevice, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {kInvalidDevice, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {kInvalidImage, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {kInvalidContext, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {kInvalidPtx, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {kInvalidHandle, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {kNotFound, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
};

const ErrorText *errorText(CUresult r) {
  for (const ErrorText &e : kErrors)
    if (e.code == r)
      return &e;
  return nullptr;
}

/// Makes a stream or event in the current context: tracked in \p live,
/// counted in \p count.
template <typename T>
CUresult createHandle(T **handle, std::set<T *> &live, long &count) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  *handle = new T;
  live.insert(*handle);
  ++count;
  return kSuccess;
}

/// Destroys a module, stream or event of \p live (CUDA_ERROR_INVALID_HANDLE
/// for one that is not there).
template <typename T>
CUresult destroyHandle(T *handle, std::set<T *> &live, long &count) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  if (!live.erase(handle))
    return fail(kInvalidHandle);
  delete handle;
  --count;
  return kSuccess;
}

/// Waits for a stream or event: CUDA_SUCCESS if \p handle is in \p live
/// (or may be null, the default stream, when \p nullOk).
template <typename T>
CUresult synchronizeHandle(T *handle, const std::set<T *> &live, bool nullOk) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  if (!(nullOk && !handle) && !live.count(handle))
    return fail(kInvalidHandle);
  return kSuccess;
}

} // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

FAKE_API FakeCudaState *tilec_fake_cuda_state() { return &gState; }

FAKE_API CUresult cuInit(unsigned flags) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (flags != 0)
    return fail(kInvalidValue);
  if (mode() == Mode::InitFails)
    return fail(kNoDevice);
  gInitialized = true;
  return kSuccess;
}

FAKE_API CUresult cuDriverGetVersion(int *version) {
  if (!version)
    return fail(kInvalidValue);
  *version = 13000;
  return kSuccess;
}

FAKE_API CUresult cuGetErrorName(CUresult r, const char **name) {
  const ErrorText *e = errorText(r);
  *name = e ? e->name : nullptr;
  return e ? kSuccess : kInvalidValue;
}

FAKE_API CUresult cuGetErrorString(CUresult r, const char **text) {
  const ErrorText *e = errorText(r);
  *text = e ? e->text : nullptr;
  return e ? kSuccess : kInvalidValue;
}

FAKE_API CUresult cuDeviceGetCount(int *count) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!gInitialized)
    return fail(kNotInitialized);
  *count = mode() == Mode::NoDevices ? 0 : 1;
  return kSuccess;
}

FAKE_API CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!gInitialized)
    return fail(kNotInitialized);
  if (mode() == Mode::NoDevices || ordinal != 0)
    return fail(kInvalidDevice);
  *device = 0;
  return kSuccess;
}

FAKE_API CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  if (device != 0 || !name || length <= 0)
    return fail(kInvalidValue);
  std::snprintf(name, length, "Fake GPU (tilec tests)");
  return kSuccess;
}

FAKE_API CUresult cuDeviceGetAttribute(int *value, int attribute,
                                       CUdevice device) {
  if (device != 0)
    return fail(kInvalidDevice);
  switch (attribute) {
  case 1: // MAX_THREADS_PER_BLOCK
    *value = kMaxThreads;
    return kSuccess;
  case 5: // MAX_GRID_DIM_X
  case 6:
  case 7:
    *value = static_cast<int>(kMaxGrid[attribute - 5]);
    return kSuccess;
  case 8: // MAX_SHARED_MEMORY_PER_BLOCK
    *value = kDefaultShared;
    return kSuccess;
  case 16: // MULTIPROCESSOR_COUNT
    *value = 132;
    return kSuccess;
  case 75: // COMPUTE_CAPABILITY_MAJOR
    *value = 9;
    return kSuccess;
  case 76:
    *value = 0;
    return kSuccess;
  case 97: // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
    *value = kOptinShared;
    return kSuccess;
  default:
    return fail(kInvalidValue);
  }
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(CUcontext *context,
                                           CUdevice device) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!gInitialized)
    return fail(kNotInitialized);
  if (device != 0)
    return fail(kInvalidDevice);
  ++gState.primaryContextRefs;
  *context = &gContext;
  return kSuccess;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (device != 0 || gState.primaryContextRefs == 0)
    return fail(kInvalidValue);
  --gState.primaryContextRefs;
  return kSuccess;
}

FAKE_API CUresult cuCtxSetCurrent(CUcontext context) {
  if (context && context != &gContext)
    return fail(kInvalidContext);
  tCurrent = context;
  return kSuccess;
}

FAKE_API CUresult cuCtxGetCurrent(CUcontext *context) {
  *context = tCurrent;
  return kSuccess;
}

FAKE_API CUresult cuCtxSynchronize() {
  std::lock_guard<std::mutex> lock(gMutex);
  return needContext();
}

FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *address, std::size_t bytes) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  if (bytes == 0)
    return fail(kInvalidValue);
  if (bytes > kMemoryBytes)
    return fail(kOutOfMemory);
  void *p = std::malloc(bytes);
  if (!p)
    return fail(kOutOfMemory);
  *address = reinterpret_cast<std::uintptr_t>(p);
  gAllocations[*address] = bytes;
  ++gState.liveAllocations;
  return kSuccess;
}

FAKE_API CUresult cuMemFree_v2(CUdeviceptr address) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  auto it = gAllocations.find(address);
  if (it == gAllocations.end())
    return fail(kInvalidValue);
  std::free(reinterpret_cast<void *>(static_cast<std::uintptr_t>(address)));
  gAllocations.erase(it);
  --gState.liveAllocations;
  return kSuccess;
}

FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src,
                                  std::size_t bytes) {
  return hostCopy(hostAddress(dst), src, dst, src, bytes);
}

FAKE_API CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src,
                                  std::size_t bytes) {
  return hostCopy(dst, hostAddress(src), src, dst, bytes);
}

FAKE_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src,
                                  std::size_t bytes) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = copyCheck(dst, bytes))
    return r;
  if (CUresult r = copyCheck(src, bytes))
    return r;
  if (bytes)
    std::memmove(
        reinterpret_cast<void *>(static_cast<std::uintptr_t>(dst)),
        reinterpret_cast<const void *>(static_cast<std::uintptr_t>(src)),
        bytes);
  return kSuccess;
}

FAKE_API CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char value,
                                std::size_t count) {
  return memset(dst, value, count);
}

FAKE_API CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short value,
                                 std::size_t count) {
  return memset(dst, value, count);
}

FAKE_API CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value,
                                 std::size_t count) {
  return memset(dst, value, count);
}

FAKE_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                     unsigned numOptions, int *options,
                                     void **values) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  if (!module || !image || (numOptions && (!options || !values)))
    return fail(kInvalidValue);
  std::string text(static_cast<const char *>(image));
  if (text.find(".entry") == std::string::npos)
    return fail(kInvalidImage);
  if (text.find("bogus") != std::string::npos) {
    char *log = nullptr;
    std::size_t logBytes = 0;
    for (unsigned i = 0; i < numOptions; ++i) {
      if (options[i] == 5) // CU_JIT_ERROR_LOG_BUFFER
        log = static_cast<char *>(values[i]);
      if (options[i] == 6) // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES
        logBytes = reinterpret_cast<std::uintptr_t>(values[i]);
    }
    if (log && logBytes)
      std::snprintf(log, logBytes,
                    "ptxas application ptx input, line 4; error   : Unknown "
                    "modifier 'bogus'\nptxas fatal   : Ptx assembly aborted "
                    "due to errors\n");
    return fail(kInvalidPtx);
  }
  // A JIT that rejects the occupancy directive, for the runtime's fallback.
  if (text.find("// fake reject_minnctapersm") != std::string::npos &&
      text.find(".minnctapersm") != std::string::npos)
    return fail(kInvalidPtx);
  ++gState.moduleLoads;
  std::size_t directive = text.find(".minnctapersm ");
  gState.lastMinCtasPerSM =
      directive == std::string::npos
          ? 0
          : std::atoi(text.c_str() + directive + std::strlen(".minnctapersm "));
  auto m = new CUmod_st;
  m->image = std::move(text);
  gModules.insert(m);
  ++gState.liveModules;
  *module = m;
  return kSuccess;
}

FAKE_API CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return cuModuleLoadDataEx(module, image, 0, nullptr, nullptr);
}

FAKE_API CUresult cuModuleUnload(CUmodule module) {
  return destroyHandle(module, gModules, gState.liveModules);
}

FAKE_API CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                                      const char *name) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  if (!gModules.count(module))
    return fail(kInvalidHandle);
  for (const auto &fn : module->functions)
    if (fn->name == name) {
      *function = fn.get();
      return kSuccess;
    }
  std::unique_ptr<CUfunc_st> fn = findEntry(module->image, name);
  if (!fn)
    return fail(kNotFound);
  // The registers the test's PTX says its JIT uses: "// fake num_regs N",
  // and once it has .minnctapersm, "// fake num_regs_spent N".
  const std::string &image = module->image;
  for (const char *key : {"// fake num_regs ", "// fake num_regs_spent "}) {
    std::size_t at = image.find(key);
    if (at == std::string::npos ||
        (std::string(key).find("spent") != std::string::npos &&
         image.find(".minnctapersm") == std::string::npos))
      continue;
    fn->numRegisters = std::atoi(image.c_str() + at + std::strlen(key));
  }
  *function = fn.get();
  module->functions.push_back(std::move(fn));
  return kSuccess;
}

FAKE_API CUresult cuFuncGetAttribute(int *value, int attribute,
                                     CUfunction function) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!validFunction(function))
    return fail(kInvalidHandle);
  switch (attribute) {
  case 0: // MAX_THREADS_PER_BLOCK
    *value = kMaxThreads;
    return kSuccess;
  case 1: // SHARED_SIZE_BYTES (static)
    *value = 0;
    return kSuccess;
  case 4: // NUM_REGS
    *value = function->numRegisters;
    return kSuccess;
  case 8: // MAX_DYNAMIC_SHARED_SIZE_BYTES
    *value = function->maxDynamicShared;
    return kSuccess;
  default:
    return fail(kInvalidValue);
  }
}

FAKE_API CUresult cuFuncSetAttribute(CUfunction function, int attribute,
                                     int value) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!validFunction(function))
    return fail(kInvalidHandle);
  if (attribute != 8 || value < 0 || value > kOptinShared)
    return fail(kInvalidValue);
  function->maxDynamicShared = value;
  return kSuccess;
}

namespace {
CUresult launchLocked(CUfunction function, unsigned gx, unsigned gy,
                      unsigned gz, unsigned bx, unsigned by, unsigned bz,
                      unsigned sharedBytes, CUstream stream, void **params,
                      void **extra, bool dependent);
} // namespace

FAKE_API CUresult cuLaunchKernel(CUfunction function, unsigned gx, unsigned gy,
                                 unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned sharedBytes,
                                 CUstream stream, void **params, void **extra) {
  std::lock_guard<std::mutex> lock(gMutex);
  return launchLocked(function, gx, gy, gz, bx, by, bz, sharedBytes, stream,
                      params, extra, /*dependent=*/false);
}

/// cuda.h's CUlaunchAttribute and CUlaunchConfig (cuLaunchKernelEx), named
/// as the runtime names them (runtime/CudaDriver.h): UBSan's function check
/// compares the callee's type with the pointer's by name.
namespace tilec::cuda {
struct CUlaunchAttribute {
  int id;
  char pad[4];
  union {
    alignas(8) char bytes[64];
    int value;
  } value;
};
struct CUlaunchConfig {
  unsigned grid[3], block[3], sharedBytes;
  CUstream stream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};
} // namespace tilec::cuda
using FakeLaunchConfig = tilec::cuda::CUlaunchConfig;

FAKE_API CUresult cuLaunchKernelEx(const FakeLaunchConfig *config,
                                   CUfunction function, void **params,
                                   void **extra) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (!config || (config->numAttrs && !config->attrs))
    return fail(kInvalidValue);
  bool dependent = false;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    // Only programmatic stream serialization (6) is expected.
    if (config->attrs[i].id != 6 || config->attrs[i].value.value > 1)
      return fail(kInvalidValue);
    dependent = config->attrs[i].value.value == 1;
  }
  return launchLocked(function, config->grid[0], config->grid[1],
                      config->grid[2], config->block[0], config->block[1],
                      config->block[2], config->sharedBytes, config->stream,
                      params, extra, dependent);
}

namespace {
CUresult launchLocked(CUfunction function, unsigned gx, unsigned gy,
                      unsigned gz, unsigned bx, unsigned by, unsigned bz,
                      unsigned sharedBytes, CUstream stream, void **params,
                      void **extra, bool dependent) {
  if (CUresult r = needContext())
    return r;
  if (!validFunction(function))
    return fail(kInvalidHandle);
  if (stream && !gStreams.count(stream))
    return fail(kInvalidHandle);
  unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  for (int i = 0; i < 3; ++i)
    if (grid[i] == 0 || grid[i] > kMaxGrid[i] || block[i] == 0)
      return fail(kInvalidValue);
  if (std::uint64_t(bx) * by * bz > kMaxThreads)
    return fail(kInvalidValue);
  if (function->reqntid[0] &&
      (bx != function->reqntid[0] || by != function->reqntid[1] ||
       bz != function->reqntid[2]))
    return fail(kInvalidValue);
  int sharedLimit =
      function->maxDynamicShared ? function->maxDynamicShared : kDefaultShared;
  if (sharedBytes > static_cast<unsigned>(sharedLimit))
    return fail(kInvalidValue);
  std::size_t n = function->paramBytes.size();
  if (extra || n > 32 || (n && !params))
    return fail(kInvalidValue);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t v = 0;
    if (!params[i])
      return fail(kInvalidValue);
    std::memcpy(&v, params[i], function->paramBytes[i]);
    gState.params[i] = v;
  }
  gState.numParams = static_cast<int>(n);
  for (int i = 0; i < 3; ++i) {
    gState.grid[i] = grid[i];
    gState.block[i] = block[i];
  }
  gState.sharedBytes = sharedBytes;
  std::snprintf(gState.kernel, sizeof(gState.kernel), "%s",
                function->name.c_str());
  ++gState.launches;
  gState.lastLaunchDependent = dependent;
  gState.dependentLaunches += dependent;
  return kSuccess;
}
} // namespace

FAKE_API CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  return createHandle(stream, gStreams, gState.liveStreams);
}

FAKE_API CUresult cuStreamDestroy_v2(CUstream stream) {
  return destroyHandle(stream, gStreams, gState.liveStreams);
}

FAKE_API CUresult cuStreamSynchronize(CUstream stream) {
  return synchronizeHandle(stream, gStreams, /*nullOk=*/true);
}

FAKE_API CUresult cuEventCreate(CUevent *event, unsigned flags) {
  return createHandle(event, gEvents, gState.liveEvents);
}

FAKE_API CUresult cuEventRecord(CUevent event, CUstream stream) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  if (!gEvents.count(event) || (stream && !gStreams.count(stream)))
    return fail(kInvalidHandle);
  event->recorded = true;
  return kSuccess;
}

FAKE_API CUresult cuEventSynchronize(CUevent event) {
  return synchronizeHandle(event, gEvents, /*nullOk=*/false);
}

FAKE_API CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  std::lock_guard<std::mutex> lock(gMutex);
  if (CUresult r = needContext())
    return r;
  if (!gEvents.count(start) || !gEvents.count(end) || !start->recorded ||
      !end->recorded)
    return fail(kInvalidHandle);
  *ms = 0.25f;
  return kSuccess;
}

FAKE_API CUresult cuEventDestroy_v2(CUevent event) {
  return destroyHandle(event, gEvents, gState.liveEvents);
}
