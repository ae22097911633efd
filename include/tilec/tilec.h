//===- tilec.h - The tilec C++ host API (SPEC section 4) --------*- C++ -*-===//
//
// Everything a host program needs to compile and run `.tile` kernels: open a
// GPU (Device), allocate memory on it (Buffer), load a compiled kernel or
// compile one (Kernel, Compiler), launch it with arguments checked against
// its signature, and time it (Stream, Event, Timer). The CUDA driver is
// loaded with dlopen on first use, so programs build without the CUDA
// toolkit and fail with a clear tilec::Error only when they touch the GPU.
// This header includes no LLVM, MLIR or CUDA headers. See docs/host-api.md.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TILEC_H
#define TILEC_TILEC_H

#include "tilec/Runtime/Arguments.h"
#include "tilec/Runtime/CompilerBackend.h"
#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/KernelCache.h"
#include "tilec/Runtime/KernelMetadata.h"
#include "tilec/Support/CompileOptions.h"
#include "tilec/Support/Types.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilec {

class Device;
class Stream;
template <typename T> class Buffer;

namespace detail {
struct DeviceState;
struct StreamState;
struct EventState;
struct KernelState;

// Untyped device-memory operations behind Buffer<T>; they throw tilec::Error.
std::uint64_t deviceAlloc(DeviceState &device, std::size_t bytes);
void deviceFree(DeviceState &device, std::uint64_t address) noexcept;
void copyToDevice(DeviceState &device, std::uint64_t dst, const void *src,
                  std::size_t bytes);
void copyToHost(DeviceState &device, void *dst, std::uint64_t src,
                std::size_t bytes);
void copyOnDevice(DeviceState &device, std::uint64_t dst, std::uint64_t src,
                  std::size_t bytes);
void fillDevice(DeviceState &device, std::uint64_t dst, const void *pattern,
                unsigned patternBytes, std::size_t count);
} // namespace detail

/// One GPU and its primary CUDA context. A cheap, copyable handle: copies
/// share the context, which is released when the last handle (or the last
/// Buffer, Stream, Event or Kernel made from it) goes away.
class Device {
public:
  /// Loads the CUDA driver (once per process), initializes it and retains
  /// the primary context of GPU \p ordinal. Throws tilec::Error when the
  /// driver cannot be loaded ("cannot load the CUDA driver (libcuda.so.1):
  /// ..."), cuInit fails, or there is no such GPU.
  static Device open(int ordinal = 0);
  /// The number of CUDA GPUs; throws tilec::Error when there is no driver.
  static int count();
  /// Whether the CUDA driver can be loaded and initialized; when not and
  /// \p why is given, sets it to the reason. Never throws.
  static bool driverAvailable(std::string *why = nullptr);

  /// An unopened device; every operation on it throws tilec::Error.
  Device() = default;

  /// The ordinal passed to open().
  int ordinal() const;
  /// The GPU's name, "NVIDIA H100 80GB HBM3".
  const std::string &name() const;
  /// (major, minor): (9, 0) on an H100.
  std::pair<int, int> computeCapability() const;
  /// The PTX target of the GPU: "sm_90" on an H100, "sm_80" on an A100.
  std::string arch() const;
  /// The number of streaming multiprocessors.
  int multiprocessorCount() const;
  /// The most dynamic shared memory one block may opt in to, in bytes.
  std::size_t maxSharedMemoryPerBlockOptin() const;
  /// The largest grid: {x, y, z}.
  std::array<std::int64_t, 3> maxGridSize() const;

  /// Allocates \p n elements of T (uninitialized; see Buffer::poison).
  template <typename T> Buffer<T> alloc(std::size_t n);
  /// Waits for all work on the device (cuCtxSynchronize).
  void synchronize();

  /// The shared state; for the runtime's own use.
  detail::DeviceState &state() const;
  const std::shared_ptr<detail::DeviceState> &statePtr() const {
    return state_;
  }

private:
  std::shared_ptr<detail::DeviceState> state_;
};

/// A device allocation of size() elements of T. Move-only; freed on
/// destruction. Copies to and from the host are synchronous.
template <typename T> class Buffer {
  static_assert(std::is_trivially_copyable_v<T>,
                "tilec::Buffer<T> needs a trivially copyable T");

public:
  /// An empty buffer (no allocation, null address).
  Buffer() = default;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer(Buffer &&other) noexcept { *this = std::move(other); }
  Buffer &operator=(Buffer &&other) noexcept {
    if (this != &other) {
      reset();
      device_ = std::move(other.device_);
      address_ = std::exchange(other.address_, 0);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~Buffer() { reset(); }

  /// Number of elements.
  std::size_t size() const { return size_; }
  /// Number of bytes.
  std::size_t bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }
  /// The device address, typed; `data() + k` is element k.
  DevicePtr<T> data() const { return DevicePtr<T>(address_); }
  /// A buffer converts to its address, so it can be passed where a
  /// DevicePtr<T> is expected (the typed launch functions of AOT headers).
  operator DevicePtr<T>() const { return data(); }

  /// Copies size() elements from host memory at \p host.
  void copyFrom(const T *host) {
    if (size_)
      detail::copyToDevice(dev(), address_, host, bytes());
  }
  /// Copies \p host, which must hold exactly size() elements.
  void copyFrom(const std::vector<T> &host) {
    checkSize(host.size(), "copyFrom");
    copyFrom(host.data());
  }
  /// Copies another buffer of the same size, on the device.
  void copyFrom(const Buffer &other) {
    checkSize(other.size(), "copyFrom");
    if (size_)
      detail::copyOnDevice(dev(), address_, other.address_, bytes());
  }
  /// Copies size() elements to host memory at \p host.
  void copyTo(T *host) const {
    if (size_)
      detail::copyToHost(dev(), host, address_, bytes());
  }
  /// The contents as a std::vector.
  std::vector<T> toVector() const {
    std::vector<T> host(size_);
    copyTo(host.data());
    return host;
  }
  /// Sets every element to \p value.
  void fill(const T &value) {
    if (size_)
      detail::fillDevice(dev(), address_, &value, sizeof(T), size_);
  }
  /// Sets every byte to \p byte.
  void fillBytes(std::uint8_t byte) {
    if (size_)
      detail::fillDevice(dev(), address_, &byte, 1, bytes());
  }
  /// Fills with 0xFF bytes (NaN for floats, -1 for integers), so reads of
  /// memory a kernel forgot to write stand out.
  void poison() { fillBytes(0xFF); }

private:
  friend class Device;
  Buffer(std::shared_ptr<detail::DeviceState> device, std::size_t n)
      : device_(std::move(device)), size_(n) {
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T))
      throw Error("tilec: Buffer of " + std::to_string(n) +
                  " elements is too large");
    if (n)
      address_ = detail::deviceAlloc(*device_, n * sizeof(T));
  }
  detail::DeviceState &dev() const {
    if (!device_)
      throw Error("tilec: use of an empty or moved-from Buffer");
    return *device_;
  }
  void checkSize(std::size_t n, const char *what) const {
    if (n != size_)
      throw Error(std::string("tilec: Buffer::") + what + ": the source has " +
                  std::to_string(n) + " elements, the buffer " +
                  std::to_string(size_));
  }
  void reset() noexcept {
    if (device_ && address_)
      detail::deviceFree(*device_, address_);
    device_.reset();
    address_ = 0;
    size_ = 0;
  }

  std::shared_ptr<detail::DeviceState> device_;
  std::uint64_t address_ = 0;
  std::size_t size_ = 0;
};

template <typename T> Buffer<T> Device::alloc(std::size_t n) {
  state(); // Throws on an unopened device.
  return Buffer<T>(state_, n);
}

/// A CUDA stream. A default-constructed Stream is the device's default
/// (null) stream. Copies share the stream.
class Stream {
public:
  /// The default stream.
  Stream() = default;
  /// Creates a new stream on \p device.
  explicit Stream(Device &device);
  /// Waits for the work queued on this stream (the default stream: for the
  /// whole device of the calling thread's current context).
  void synchronize() const;
  /// The CUstream handle (nullptr for the default stream).
  void *handle() const;

private:
  std::shared_ptr<detail::StreamState> state_;
};

/// A CUDA event, for timing work on a stream.
class Event {
public:
  /// Creates an event on \p device.
  explicit Event(Device &device);
  /// Records the event on \p stream (default: the default stream).
  void record(const Stream &stream = Stream());
  /// Waits until the event has happened.
  void synchronize() const;
  /// Milliseconds between two recorded events (waits for \p end).
  static float elapsedMs(const Event &start, const Event &end);

private:
  std::shared_ptr<detail::EventState> state_;
};

/// Times GPU work with a pair of events:
/// `Timer t(dev); t.start(); k.launch(...); float ms = t.stop();`
class Timer {
public:
  /// A timer on \p stream (default: the default stream) of \p device.
  explicit Timer(Device &device, Stream stream = Stream());
  /// Records the start event.
  void start();
  /// Records the end event, waits for it, and returns the elapsed ms.
  float stop();

private:
  Stream stream_;
  Event start_, end_;
};

/// The launch grid: the number of programs along x, y and z (each >= 1).
/// `{rows}`, `{m, n}`, `Grid(x, y, z)`.
struct Grid {
  std::int64_t x = 1, y = 1, z = 1;

  Grid() = default;
  template <typename X, typename Y = int, typename Z = int>
  Grid(X gx, Y gy = 1, Z gz = 1) : x(dim(gx)), y(dim(gy)), z(dim(gz)) {}

private:
  template <typename T> static std::int64_t dim(T v) {
    static_assert(std::is_integral_v<T>, "tilec::Grid dimensions are integers");
    if constexpr (std::is_unsigned_v<T>)
      if (static_cast<std::uint64_t>(v) >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return std::numeric_limits<std::int64_t>::max();
    return static_cast<std::int64_t>(v);
  }
};

/// How a launch is made, beyond its grid, arguments and stream: a trailing
/// launch argument (after the Stream, if any).
struct LaunchOptions {
  /// Programmatic dependent launch (CUDA's programmatic stream
  /// serialization, Triton's `launch_pdl=True`): the kernel may start while
  /// the previous kernel on its stream is still running, from when every
  /// program of that one has passed `gdc_launch_dependents()` (or ended);
  /// it must `gdc_wait()` before reading what that kernel writes. On GPUs
  /// before sm_90, which have none, the launch is an ordinary one.
  bool dependentLaunch = false;
};

namespace detail {
/// Turns Kernel::launch's arguments into HostArgs and finds the stream and
/// the launch options.
struct ArgCollector {
  std::vector<HostArg> args;
  const Stream *stream = nullptr;
  const LaunchOptions *options = nullptr;
  bool optionsNotLast = false;
  bool streamNotLast = false;

  template <typename T> void add(const Buffer<T> &buffer) {
    noteValue();
    args.push_back(
        HostArg::pointer(buffer.data().address(), scalarTypeOf<T>(), "Buffer"));
  }
  template <typename T> void add(const DevicePtr<T> &ptr) {
    noteValue();
    if constexpr (std::is_void_v<T>)
      args.push_back(HostArg::untypedPointer(ptr.address()));
    else
      args.push_back(
          HostArg::pointer(ptr.address(), scalarTypeOf<T>(), "DevicePtr"));
  }
  void add(const Stream &s) {
    noteValue();
    stream = &s;
  }
  void add(const LaunchOptions &o) {
    if (options)
      optionsNotLast = true;
    options = &o;
  }
  template <typename T> void add(const T &value) {
    noteValue();
    args.push_back(HostArg::value(value));
  }

private:
  void noteValue() {
    if (stream)
      streamNotLast = true;
    if (options)
      optionsNotLast = true;
  }
};

struct KernelSpecializer;
} // namespace detail

/// A loaded kernel: a CUDA module and function plus its metadata. A cheap,
/// copyable handle; the module is unloaded with the last copy.
class Kernel {
public:
  /// An empty kernel; launching it throws.
  Kernel() = default;

  /// Loads \p binary -- PTX text or a cubin -- on \p device and finds the
  /// entry meta.kernel. PTX JIT errors carry the driver's JIT log. Checks
  /// the metadata against the device (arch, threads per block, shared
  /// memory; above 48 KB it opts the function in to more).
  static Kernel load(Device &device, std::string_view binary,
                     KernelMetadata meta);
  /// Loads "k.ptx" (or "k.cubin") and the metadata "k.json" beside it.
  static Kernel loadFiles(Device &device, const std::string &binaryPath);

  /// A kernel that specializes itself on its arguments, as Triton does:
  /// each launch computes what its arguments allow (specializationKey():
  /// pointers aligned to 16 bytes, integers that are multiples of 16 or
  /// equal to 1) and runs the variant compiled for exactly that, compiling
  /// it with \p compileVariant on first use. \p generic is the variant for
  /// \p genericKey; info() and numRegisters() describe it.
  /// Compiler::compileFile and compileSource return such kernels.
  static Kernel
  specializing(Kernel generic, std::string genericKey,
               std::function<Kernel(const std::string &key)> compileVariant);

  /// A kernel whose parameter types come from its launch arguments, as a
  /// `@triton.jit` kernel's do under Triton's JIT: each launch computes
  /// \p keyOf(args) (its inferred signature: launchSignature(), Arguments.h)
  /// and runs the variant compiled for that key, compiling it with
  /// \p compileFor(args) on first use. It has no metadata before its first
  /// launch: info() throws until then, and describes the first variant
  /// after. Compiler::compileFile returns such kernels for Python sources.
  static Kernel
  typedAtLaunch(std::string kernelName,
                std::function<std::string(const std::vector<HostArg> &)> keyOf,
                std::function<Kernel(const std::vector<HostArg> &)> compileFor);

  /// The kernel that a launch with \p args runs: for a specializing kernel
  /// its variant for these arguments (compiled on first use; throws
  /// tilec::Error if that compile fails), else this kernel.
  template <typename... Args> Kernel specializedFor(Args &&...args) const {
    detail::ArgCollector collector;
    (collector.add(args), ...);
    return specializedForArgs(collector.args);
  }
  Kernel specializedForArgs(const std::vector<HostArg> &args) const;
  /// How many variants a specializing kernel has compiled so far (1 for
  /// any other kernel; 0 for a kernel typed at launch before its first).
  std::size_t numVariants() const;

  /// The metadata the kernel was loaded with.
  const KernelMetadata &info() const;
  /// Registers per thread, as the driver reports them.
  int numRegisters() const;
  explicit operator bool() const { return state_ || specializer_; }

  /// Launches on \p grid with blockDim = 32 * num_warps and shared_bytes of
  /// dynamic shared memory. \p args are the kernel's runtime parameters in
  /// order -- Buffer<T> / DevicePtr<T> for `*T`, integers for integer
  /// parameters (range-checked), floats for float parameters -- optionally
  /// followed by a Stream, then by LaunchOptions. Throws tilec::Error naming
  /// the parameter on a mismatch, and on a grid of 0 or beyond the device's
  /// limits.
  template <typename... Args> void launch(Grid grid, Args &&...args) const {
    detail::ArgCollector collector;
    collector.args.reserve(sizeof...(Args));
    (collector.add(args), ...);
    if (collector.streamNotLast || collector.optionsNotLast)
      throw Error("tilec: kernel '" + info().kernel +
                  "': a Stream, then LaunchOptions, must be the last launch "
                  "arguments");
    launchArgs(grid, collector.args,
               collector.stream ? *collector.stream : Stream(),
               collector.options ? *collector.options : LaunchOptions());
  }

  /// The non-template launch behind launch(): picks the variant
  /// (specializedForArgs), checks \p args with packArguments() and calls
  /// cuLaunchKernel (cuLaunchKernelEx for a dependent launch) on \p stream.
  void launchArgs(const Grid &grid, const std::vector<HostArg> &args,
                  const Stream &stream,
                  const LaunchOptions &options = LaunchOptions()) const;

  /// Launches with arguments packed by the caller, on the CUDA stream
  /// \p cuStream (a CUstream; nullptr: the default stream), for callers
  /// that bring their own stream and do their own argument handling (the C
  /// ABI of tilec-c/tilec.h, the Python package). \p packed holds one
  /// 8-byte slot per runtime parameter, in order, each value little-endian
  /// at the start of its slot at the parameter's width; \p packedBytes must
  /// be 8 * info().params.size(). The values are not checked (the grid is),
  /// and a specializing kernel launches its generic variant: pick the
  /// variant first (specializedForArgs). Allocates nothing and never
  /// synchronizes, so it may be captured into a CUDA graph.
  void launchPacked(const Grid &grid, const void *packed,
                    std::size_t packedBytes, void *cuStream,
                    const LaunchOptions &options = LaunchOptions()) const;

private:
  /// Checks \p grid and calls cuLaunchKernel (cuLaunchKernelEx for a
  /// dependent launch).
  void launchKernelParams(const Grid &grid, void **kernelParams, void *cuStream,
                          const LaunchOptions &options) const;

  std::shared_ptr<detail::KernelState> state_;
  /// Set for a specializing kernel: its variants by key.
  std::shared_ptr<detail::KernelSpecializer> specializer_;
};

/// Links \p ptx into a cubin for \p device with the driver's JIT (cuLink*),
/// so that later loads skip the JIT. Throws tilec::Error with the JIT log.
std::string compilePtxToCubin(Device &device, std::string_view ptx);

/// The options of a Compiler: the compile options of every kernel it
/// compiles (CompileOptions: arch, numWarps, numStages, optLevel, fpFusion,
/// ...; validated by the Compiler's constructor) and how it caches and
/// specializes them. An empty arch means the device's best target
/// (Target::forDevice: sm_90a on an H100, as `tilec --arch=native`) for a
/// Compiler made with a device, or the default target (sm_90) for one made
/// without.
struct CompilerOptions : CompileOptions {
  /// The disk cache; default `$TILEC_CACHE_DIR`, else `~/.cache/tilec`;
  /// empty: memory only.
  std::string cacheDir = defaultCacheDir();
  /// Argument specialization, as Triton's: compiled kernels pick at each
  /// launch the variant for what the arguments allow (pointers aligned to
  /// 16 bytes, integers that are multiples of 16 or equal to 1), compiled
  /// on first use; the variants override pointerAlignment, divisibleParams
  /// and unitParams. false: one variant, with the options as given (by
  /// default 16-byte aligned pointers and nothing assumed of integers; a
  /// launch with a less aligned pointer throws).
  bool specialize = true;
};

/// A kernel to compile ahead of its first use (Compiler::warmUp).
struct WarmUpKernel {
  std::string path;
  std::string kernel;
  Constexprs constexprs;
  /// Argument specializations to compile besides the generic variant
  /// (specializationKey(), Arguments.h: one character per runtime
  /// parameter, 'A' a 16-byte aligned pointer, 'D' an integer that is a
  /// multiple of 16, 'U' an integer equal to 1, '-' nothing), such as the
  /// keys of the launches a service makes.
  std::vector<std::string> specializations;
  /// For a Python source's kernel, which has no types before a launch gives
  /// them: the signatures of the launches to prepare, as
  /// launchSignature() spells them with its hints ("*f32, *f32, i32:16";
  /// pointers 16-byte aligned). Such an entry compiles nothing else.
  std::vector<std::string> signatures;
};

/// Compiles `.tile` kernels, through an in-memory and an on-disk cache, and
/// loads them on a device. Implemented by the JIT library (TilecJIT, CMake
/// target tilec::tilec), which links the compiler; the runtime only declares
/// it. A cheap, copyable handle; safe to use from several threads.
///
/// Loaded kernels are remembered for the life of the process (per device and
/// cache key), so compiling the same kernel again, from any Compiler, costs
/// a hash of the source and a map lookup: a few microseconds.
class Compiler {
public:
  using Options = CompilerOptions;

  /// A compiler for \p device; an empty options.arch means the device's
  /// target (Target::forDevice: sm_90a on an H100).
  /// Throws tilec::Error on invalid options or an unopened device.
  explicit Compiler(Device device, Options options = Options());
  /// A compiler without a GPU: it compiles to PTX (compileFileToPTX,
  /// compileSourceToPTX) but cannot load kernels. An empty options.arch
  /// means "sm_90". Throws tilec::Error on invalid options.
  explicit Compiler(Options options);

  /// Compiles kernel \p kernel of the file \p path with \p constexprs and
  /// loads it. Throws tilec::Error with the diagnostics on bad input.
  Kernel compileFile(const std::string &path, const std::string &kernel,
                     const Constexprs &constexprs = {});
  /// Like compileFile for source text; \p sourceName names it in
  /// diagnostics.
  Kernel compileSource(const std::string &text, const std::string &sourceName,
                       const std::string &kernel,
                       const Constexprs &constexprs = {});

  /// Compiles without loading: the PTX and its metadata, through the same
  /// caches. Needs no GPU and no CUDA driver.
  CompiledKernel compileFileToPTX(const std::string &path,
                                  const std::string &kernel,
                                  const Constexprs &constexprs = {});
  /// Like compileFileToPTX for source text.
  CompiledKernel compileSourceToPTX(const std::string &text,
                                    const std::string &sourceName,
                                    const std::string &kernel,
                                    const Constexprs &constexprs = {});
  /// Compiles \p request as it stands (its own options, language and
  /// signature; the Compiler's options do not apply), through the same
  /// caches, with an empty options.arch meaning the Compiler's target. For
  /// callers that fill a CompileRequest themselves (the C ABI).
  CompiledKernel compileRequestToPTX(CompileRequest request);

  /// Compiles \p kernels on up to \p threads background threads (0: the
  /// hardware's concurrency) into the caches, and loads them when the
  /// Compiler has a device, so that the compileFile calls that ask for them
  /// later return at once: a service pays the cold compiles at start-up, not
  /// in its first requests. The future is ready when every kernel is done;
  /// get() rethrows the first failure (the other kernels still compile).
  std::future<void> warmUp(std::vector<WarmUpKernel> kernels,
                           unsigned threads = 0) const;

  const Options &options() const;
  /// The target kernels are compiled for (options().arch or the device's).
  const std::string &arch() const;
  /// The device; an unopened Device for a Compiler made without one.
  Device &device();

  /// Forgets every loaded kernel and every compiled kernel kept in memory
  /// (by all Compilers of the process); the disk caches stay. For tests and
  /// long-running programs that want the memory back.
  static void clearMemoryCaches();

private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

/// One candidate of autotune(): constexpr values and launch options.
struct TuneConfig {
  Constexprs constexprs;
  /// 0 keeps the kernel's (or the Compiler's) value.
  int numWarps = 0;
  int numStages = 0;
  /// "BLOCK=128,num_warps=4" -- for messages.
  std::string str() const;
};

namespace detail {
/// The file remembering the best config of one tuning problem.
std::string tuneRecordPath(const CompilerOptions &options,
                           const std::string &arch, const std::string &file,
                           const std::string &kernel,
                           const std::vector<TuneConfig> &configs,
                           const std::string &key);
/// The remembered choice, if any and valid for \p numConfigs configs.
std::optional<std::size_t> loadTuneChoice(const std::string &path,
                                          std::size_t numConfigs);
/// Remembers \p index (best effort: failures are ignored).
void saveTuneChoice(const std::string &path, std::size_t index, float ms);
/// Median milliseconds of \p run over \p reps timed runs after \p warmup.
float benchmark(Device &device, const std::function<void()> &run,
                int warmup = 2, int reps = 10);
} // namespace detail

/// Compiles \p kernel of \p file once per config, times each on \p args with
/// the grid \p grid gives for it, and returns the fastest. The choice is
/// remembered on disk (under the Compiler's cacheDir) per \p key, so a later
/// call with the same file, kernel, configs, arch and key compiles only the
/// winner. Configs that fail to compile or launch are skipped; if all fail,
/// throws tilec::Error listing why. Launches run on the given arguments, so
/// kernels that accumulate into an output see it several times.
template <typename... Args>
Kernel
autotune(Compiler &cc, const std::string &file, const std::string &kernel,
         const std::vector<TuneConfig> &configs, const std::string &key,
         const std::function<Grid(const TuneConfig &)> &grid, Args &&...args) {
  if (configs.empty())
    throw Error("tilec: autotune of '" + kernel + "': no configs given");
  Device device = cc.device();
  if (!device.statePtr())
    throw Error("tilec: autotune of '" + kernel +
                "' needs a Compiler made with a Device (it launches each "
                "config)");
  std::string arch = cc.arch();
  auto compileConfig = [&](const TuneConfig &config) {
    CompilerOptions options = cc.options();
    if (config.numWarps)
      options.numWarps = config.numWarps;
    if (config.numStages)
      options.numStages = config.numStages;
    Compiler sub(device, options);
    return sub.compileFile(file, kernel, config.constexprs);
  };
  std::string path =
      detail::tuneRecordPath(cc.options(), arch, file, kernel, configs, key);
  if (std::optional<std::size_t> known =
          detail::loadTuneChoice(path, configs.size()))
    return compileConfig(configs[*known]);

  Kernel best;
  std::size_t bestIndex = 0;
  float bestMs = std::numeric_limits<float>::infinity();
  std::string failures;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    try {
      Kernel k = compileConfig(configs[i]);
      Grid g = grid(configs[i]);
      float ms = detail::benchmark(device, [&] { k.launch(g, args...); });
      if (ms < bestMs) {
        bestMs = ms;
        bestIndex = i;
        best = k;
      }
    } catch (const Error &e) {
      failures += "\n  " + configs[i].str() + ": " + e.what();
    }
  }
  if (!best)
    throw Error("tilec: autotune of '" + kernel +
                "': every config failed:" + failures);
  detail::saveTuneChoice(path, bestIndex, bestMs);
  return best;
}

} // namespace tilec

#endif // TILEC_TILEC_H
