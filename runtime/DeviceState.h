//===- DeviceState.h - What the host API's handles hold ---------*- C++ -*-===//
//
// The shared state behind the host API's handle classes (Device, Stream,
// Event, Kernel): the CUDA objects they own and release in their destructors,
// and what was queried about the device once at open time. Private to the
// runtime library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICESTATE_H
#define TILEC_RUNTIME_DEVICESTATE_H

#include "CudaDriver.h"

#include "tilec/Runtime/KernelMetadata.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace tilec::detail {

/// One opened GPU: its retained primary context and its properties.
struct DeviceState {
  int ordinal = 0;
  cuda::CUdevice device = 0;
  cuda::CUcontext context = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0;
  int multiprocessors = 0;
  int maxThreadsPerBlock = 1024;
  int maxSharedPerBlock = 48 * 1024;
  int maxSharedPerBlockOptin = 48 * 1024;
  std::array<std::int64_t, 3> maxGrid = {2147483647, 65535, 65535};

  /// Makes the context current on the calling thread.
  void makeCurrent() const { cuda::makeCurrent(context); }
  /// The same for destructors: errors are ignored.
  void makeCurrentNoThrow() const noexcept {
    cuda::driver().cuCtxSetCurrent(context);
  }
  /// "device 0 (NVIDIA H100 80GB HBM3, sm_90)" for messages.
  std::string describe() const;

  DeviceState() = default;
  DeviceState(const DeviceState &) = delete;
  DeviceState &operator=(const DeviceState &) = delete;
  /// Releases the primary context.
  ~DeviceState();
};

/// A created stream.
struct StreamState {
  std::shared_ptr<DeviceState> device;
  cuda::CUstream stream = nullptr;
  ~StreamState();
};

/// A created event.
struct EventState {
  std::shared_ptr<DeviceState> device;
  cuda::CUevent event = nullptr;
  ~EventState();
};

/// A loaded module and its kernel function.
struct KernelState {
  std::shared_ptr<DeviceState> device;
  cuda::CUmodule module = nullptr;
  cuda::CUfunction function = nullptr;
  KernelMetadata meta;
  int numRegisters = 0;
  ~KernelState();
};

} // namespace tilec::detail

#endif // TILEC_RUNTIME_DEVICESTATE_H
