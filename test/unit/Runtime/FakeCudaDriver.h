//===- FakeCudaDriver.h - A stand-in libcuda for the runtime tests -*- C++
//-*-===//
//
// libtilec_fake_cuda.so exports the CUDA driver entry points the runtime
// loads (runtime/CudaDriverFunctions.def), so that the runtime's whole path
// from Device::open to cuLaunchKernel runs -- under ASan/UBSan too -- on a
// machine without a GPU. Point TILEC_CUDA_DRIVER at it; TILEC_FAKE_CUDA
// picks what it pretends:
//
//   (unset)       one "Fake GPU" of compute capability 9.0 (an H100's limits)
//   init-fails    cuInit returns CUDA_ERROR_NO_DEVICE
//   no-devices    cuInit succeeds, cuDeviceGetCount reports 0
//
// "Device memory" is host memory from malloc; copies and memsets are checked
// against the allocations like the real driver does (CUDA_ERROR_INVALID_VALUE
// outside them). A PTX module is the text itself: cuModuleGetFunction finds
// `.entry NAME(`, and cuLaunchKernel reads exactly the parameters the entry
// declares (at their PTX widths) from kernelParams, checks the grid, the block
// against `.reqntid` and the dynamic shared memory against the opt-in, and
// records the launch instead of running it. PTX containing "bogus" fails to
// load with CUDA_ERROR_INVALID_PTX and a JIT log. There is no cuLink API.
//
// Tests read what happened through tilec_fake_cuda_state(), found with
// dlopen(path, RTLD_NOLOAD) + dlsym.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_RUNTIME_FAKECUDADRIVER_H
#define TILEC_TEST_UNIT_RUNTIME_FAKECUDADRIVER_H

#include <cstdint>

namespace tilec::fake {

/// What the fake driver has seen; one instance per process.
struct FakeCudaState {
  /// Objects created and not yet destroyed.
  long liveAllocations = 0;
  long liveModules = 0;
  long liveStreams = 0;
  long liveEvents = 0;
  long primaryContextRefs = 0;
  /// Calls that failed (returned anything but CUDA_SUCCESS).
  long failedCalls = 0;
  /// Successful launches and the last one.
  long launches = 0;
  unsigned grid[3] = {0, 0, 0};
  unsigned block[3] = {0, 0, 0};
  unsigned sharedBytes = 0;
  int numParams = 0;
  /// The parameters as read at their PTX widths (zero-extended).
  std::uint64_t params[32] = {};
  char kernel[64] = {0};
  /// Modules loaded, and the `.minnctapersm` of the last one (0: none).
  long moduleLoads = 0;
  int lastMinCtasPerSM = 0;
  /// Launches through cuLaunchKernelEx with programmatic stream
  /// serialization (dependent launches), and whether the last launch was one.
  long dependentLaunches = 0;
  int lastLaunchDependent = 0;
};

/// The signature of the exported `tilec_fake_cuda_state`.
using StateFn = FakeCudaState *(*)();

} // namespace tilec::fake

#endif // TILEC_TEST_UNIT_RUNTIME_FAKECUDADRIVER_H
