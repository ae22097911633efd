//===- Device.cpp - Devices, device memory, streams, events ---------------===//
//
// The host API's Device (primary context per GPU), the untyped memory
// operations behind Buffer<T>, Stream, Event, Timer and the benchmark loop
// used by autotune(). Every driver call goes through cuda::check, so a
// failure names the call and the driver's error; destructors release their
// CUDA objects and never throw.
//
//===----------------------------------------------------------------------===//

#include "DeviceState.h"

#include "tilec/tilec.h"

#include <algorithm>
#include <cstring>

using namespace tilec;
using namespace tilec::cuda;
using tilec::detail::DeviceState;

//===----------------------------------------------------------------------===//
// DeviceState and Device
//===----------------------------------------------------------------------===//

std::string DeviceState::describe() const {
  return "device " + std::to_string(ordinal) + " (" + name + ", sm_" +
         std::to_string(ccMajor * 10 + ccMinor) + ")";
}

DeviceState::~DeviceState() {
  if (context)
    driver().cuDevicePrimaryCtxRelease(device);
}

detail::StreamState::~StreamState() {
  if (stream) {
    device->makeCurrentNoThrow();
    driver().cuStreamDestroy(stream);
  }
}

detail::EventState::~EventState() {
  if (event) {
    device->makeCurrentNoThrow();
    driver().cuEventDestroy(event);
  }
}

Device Device::open(int ordinal) {
  const Driver &d = driver();
  int count = 0;
  check(d.cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (ordinal < 0 || ordinal >= count)
    throw Error("no CUDA device with ordinal " + std::to_string(ordinal) +
                (count == 0 ? std::string("; this machine has no CUDA GPU")
                            : "; this machine has " + std::to_string(count) +
                                  " (ordinals 0 to " +
                                  std::to_string(count - 1) + ")"));
  auto state = std::make_shared<DeviceState>();
  state->ordinal = ordinal;
  check(d.cuDeviceGet(&state->device, ordinal), "cuDeviceGet");
  char name[256] = {0};
  check(d.cuDeviceGetName(name, sizeof(name) - 1, state->device),
        "cuDeviceGetName");
  state->name = name;
  auto attribute = [&](int which) {
    int value = 0;
    check(d.cuDeviceGetAttribute(&value, which, state->device),
          "cuDeviceGetAttribute");
    return value;
  };
  state->ccMajor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  state->ccMinor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  state->multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  state->maxThreadsPerBlock =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  state->maxSharedPerBlock =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  state->maxSharedPerBlockOptin =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  state->maxGrid = {attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                    attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                    attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
  check(d.cuDevicePrimaryCtxRetain(&state->context, state->device),
        "cuDevicePrimaryCtxRetain");
  Device device;
  device.state_ = std::move(state);
  return device;
}

int Device::count() {
  int count = 0;
  check(driver().cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

bool Device::driverAvailable(std::string *why) {
  return cuda::driverAvailable(why);
}

detail::DeviceState &Device::state() const {
  if (!state_)
    throw Error("tilec: use of an unopened Device (call Device::open first)");
  return *state_;
}

int Device::ordinal() const { return state().ordinal; }
const std::string &Device::name() const { return state().name; }

std::pair<int, int> Device::computeCapability() const {
  return {state().ccMajor, state().ccMinor};
}

std::string Device::arch() const {
  return "sm_" + std::to_string(state().ccMajor * 10 + state().ccMinor);
}

int Device::multiprocessorCount() const { return state().multiprocessors; }

std::size_t Device::maxSharedMemoryPerBlockOptin() const {
  return static_cast<std::size_t>(state().maxSharedPerBlockOptin);
}

std::array<std::int64_t, 3> Device::maxGridSize() const {
  return state().maxGrid;
}

void Device::synchronize() {
  state().makeCurrent();
  check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

std::uint64_t detail::deviceAlloc(DeviceState &device, std::size_t bytes) {
  device.makeCurrent();
  CUdeviceptr address = 0;
  check(driver().cuMemAlloc(&address, bytes), "cuMemAlloc",
        " while allocating " + std::to_string(bytes) + " bytes on " +
            device.describe());
  return address;
}

void detail::deviceFree(DeviceState &device, std::uint64_t address) noexcept {
  device.makeCurrentNoThrow();
  driver().cuMemFree(address); // Nothing useful to do with an error here.
}

void detail::copyToDevice(DeviceState &device, std::uint64_t dst,
                          const void *src, std::size_t bytes) {
  if (!src)
    throw Error("tilec: Buffer::copyFrom: the host pointer is null (" +
                std::to_string(bytes) + " bytes to copy)");
  device.makeCurrent();
  check(driver().cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
}

void detail::copyToHost(DeviceState &device, void *dst, std::uint64_t src,
                        std::size_t bytes) {
  if (!dst)
    throw Error("tilec: Buffer::copyTo: the host pointer is null (" +
                std::to_string(bytes) + " bytes to copy)");
  device.makeCurrent();
  check(driver().cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

void detail::copyOnDevice(DeviceState &device, std::uint64_t dst,
                          std::uint64_t src, std::size_t bytes) {
  device.makeCurrent();
  check(driver().cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
}

void detail::fillDevice(DeviceState &device, std::uint64_t dst,
                        const void *pattern, unsigned patternBytes,
                        std::size_t count) {
  device.makeCurrent();
  const Driver &d = driver();
  switch (patternBytes) {
  case 1: {
    unsigned char v;
    std::memcpy(&v, pattern, 1);
    check(d.cuMemsetD8(dst, v, count), "cuMemsetD8");
    return;
  }
  case 2: {
    unsigned short v;
    std::memcpy(&v, pattern, 2);
    check(d.cuMemsetD16(dst, v, count), "cuMemsetD16");
    return;
  }
  case 4: {
    unsigned v;
    std::memcpy(&v, pattern, 4);
    check(d.cuMemsetD32(dst, v, count), "cuMemsetD32");
    return;
  }
  default:
    break;
  }
  // Other element sizes: replicate the pattern on the host and copy it in
  // chunks of at most 1 MiB.
  std::size_t perChunk = std::max<std::size_t>(1, (1u << 20) / patternBytes);
  std::vector<unsigned char> chunk(std::min(perChunk, count) * patternBytes);
  for (std::size_t i = 0; i < chunk.size(); i += patternBytes)
    std::memcpy(chunk.data() + i, pattern, patternBytes);
  for (std::size_t done = 0; done < count;) {
    std::size_t n = std::min(perChunk, count - done);
    check(d.cuMemcpyHtoD(dst + done * patternBytes, chunk.data(),
                         n * patternBytes),
          "cuMemcpyHtoD");
    done += n;
  }
}

//===----------------------------------------------------------------------===//
// Stream, Event, Timer
//===----------------------------------------------------------------------===//

namespace {
/// A new \p State (a stream's or an event's) of \p device, whose handle
/// \p create makes while the device is current.
template <typename State, typename Create>
std::shared_ptr<State> createDeviceObject(Device &device, Create create) {
  auto state = std::make_shared<State>();
  state->device = device.statePtr();
  device.state().makeCurrent();
  create(*state);
  return state;
}
} // namespace

Stream::Stream(Device &device)
    : state_(createDeviceObject<detail::StreamState>(
          device, [](detail::StreamState &state) {
            check(driver().cuStreamCreate(&state.stream, 0), "cuStreamCreate");
          })) {}

void *Stream::handle() const { return state_ ? state_->stream : nullptr; }

void Stream::synchronize() const {
  if (state_)
    state_->device->makeCurrent();
  check(driver().cuStreamSynchronize(state_ ? state_->stream : nullptr),
        "cuStreamSynchronize");
}

Event::Event(Device &device)
    : state_(createDeviceObject<detail::EventState>(
          device, [](detail::EventState &state) {
            check(driver().cuEventCreate(&state.event, 0), "cuEventCreate");
          })) {}

void Event::record(const Stream &stream) {
  state_->device->makeCurrent();
  check(driver().cuEventRecord(state_->event,
                               static_cast<CUstream>(stream.handle())),
        "cuEventRecord");
}

void Event::synchronize() const {
  state_->device->makeCurrent();
  check(driver().cuEventSynchronize(state_->event), "cuEventSynchronize");
}

float Event::elapsedMs(const Event &start, const Event &end) {
  end.synchronize();
  float ms = 0;
  check(
      driver().cuEventElapsedTime(&ms, start.state_->event, end.state_->event),
      "cuEventElapsedTime");
  return ms;
}

Timer::Timer(Device &device, Stream stream)
    : stream_(std::move(stream)), start_(device), end_(device) {}

void Timer::start() { start_.record(stream_); }

float Timer::stop() {
  end_.record(stream_);
  return Event::elapsedMs(start_, end_);
}

float detail::benchmark(Device &device, const std::function<void()> &run,
                        int warmup, int reps) {
  for (int i = 0; i < warmup; ++i)
    run();
  device.synchronize();
  std::vector<float> times;
  Timer timer(device);
  for (int i = 0; i < std::max(reps, 1); ++i) {
    timer.start();
    run();
    times.push_back(timer.stop());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
