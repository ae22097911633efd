//===- Kernel.cpp - Loading and launching kernels -------------------------===//
//
// Kernel::load turns PTX or a cubin plus its metadata into a launchable CUDA
// function: it checks the metadata against the device (arch, threads per
// block, shared memory) and against the PTX's .entry, loads the module with the
// JIT's error log captured, and opts the function in to more than 48 KB of
// dynamic shared memory when the kernel needs it. Kernel::launchArgs checks the
// arguments and the grid and calls cuLaunchKernel; Kernel::launchPacked
// launches arguments the caller packed on the caller's CUstream (the C ABI's
// launch). compilePtxToCubin links PTX through the driver.
//
//===----------------------------------------------------------------------===//

#include "DeviceState.h"
#include "tilec/Runtime/Files.h"
#include "tilec/Runtime/PtxEntry.h"
#include "tilec/Runtime/SpareRegisters.h"
#include "tilec/Support/Target.h"

#include "tilec/tilec.h"

#include <cctype>
#include <cstring>
#include <mutex>

using namespace tilec;
using namespace tilec::cuda;
using tilec::detail::DeviceState;
using tilec::detail::KernelState;

namespace {

constexpr int kDefaultSharedLimit = 48 * 1024;
constexpr CUresult kCudaErrorNotFound = 500;

/// The binary formats the driver loads.
enum class BinaryKind { Ptx, Cubin, Fatbin };

BinaryKind classify(std::string_view binary) {
  if (binary.size() >= 4 && binary.substr(0, 4) == "\x7f"
                                                   "ELF")
    return BinaryKind::Cubin;
  if (binary.size() >= 4 && static_cast<unsigned char>(binary[0]) == 0x50 &&
      static_cast<unsigned char>(binary[1]) == 0xED &&
      static_cast<unsigned char>(binary[2]) == 0x55 &&
      static_cast<unsigned char>(binary[3]) == 0xBA)
    return BinaryKind::Fatbin;
  return BinaryKind::Ptx;
}

/// Throws when the metadata cannot run on \p device.
void checkAgainstDevice(const KernelMetadata &meta, const DeviceState &device) {
  std::string who = "kernel '" + meta.kernel + "'";
  if (meta.kernel.empty())
    throw Error("tilec: kernel metadata without a kernel name");
  if (meta.numWarps < 1 || 32 * meta.numWarps > device.maxThreadsPerBlock)
    throw Error(who + ": num_warps = " + std::to_string(meta.numWarps) +
                " is outside [1, " +
                std::to_string(device.maxThreadsPerBlock / 32) + "] on " +
                device.describe());
  std::optional<Target> target = Target::parseAny(meta.arch);
  if (target && !target->canRunOn(device.ccMajor, device.ccMinor))
    throw Error(who + " was compiled for " + meta.arch + ", which " +
                device.describe() + " cannot run; recompile with --arch=sm_" +
                std::to_string(device.ccMajor * 10 + device.ccMinor) +
                " (or --arch=native)");
  if (meta.sharedBytes >
      static_cast<std::uint64_t>(device.maxSharedPerBlockOptin))
    throw Error(who + " needs " + std::to_string(meta.sharedBytes) +
                " bytes of shared memory per block, but " + device.describe() +
                " allows at most " +
                std::to_string(device.maxSharedPerBlockOptin) +
                "; use smaller blocks or fewer stages (num_stages)");
}

/// Loads \p binary with the JIT's logs captured into the error message.
CUmodule loadModule(const DeviceState &device, const std::string &binary,
                    BinaryKind kind, const std::string &kernel) {
  constexpr unsigned kLogBytes = 16 * 1024;
  std::string errorLog(kLogBytes, '\0'), infoLog(kLogBytes, '\0');
  // PTX with source lines (`--line-info`) keeps them in the JIT's code.
  bool lineInfo =
      kind == BinaryKind::Ptx && binary.find("\t.loc\t") != std::string::npos;
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_GENERATE_LINE_INFO};
  void *values[] = {
      errorLog.data(), reinterpret_cast<void *>(std::uintptr_t(kLogBytes - 1)),
      infoLog.data(), reinterpret_cast<void *>(std::uintptr_t(kLogBytes - 1)),
      reinterpret_cast<void *>(std::uintptr_t(1))};
  CUmodule module = nullptr;
  CUresult result = driver().cuModuleLoadDataEx(
      &module, binary.c_str(), lineInfo ? 5 : 4, options, values);
  if (result == CUDA_SUCCESS)
    return module;
  errorLog.resize(std::strlen(errorLog.c_str()));
  while (!errorLog.empty() &&
         (errorLog.back() == '\n' || errorLog.back() == ' '))
    errorLog.pop_back();
  const char *what = kind == BinaryKind::Ptx     ? "PTX"
                     : kind == BinaryKind::Cubin ? "cubin"
                                                 : "fatbin";
  std::string detail = " while loading kernel '" + kernel + "' (" + what +
                       ", " + std::to_string(binary.size()) + " bytes) on " +
                       device.describe();
  if (!errorLog.empty())
    detail += "\nJIT error log:\n" + errorLog;
  check(result, "cuModuleLoadDataEx", detail);
  return nullptr; // Not reached.
}

} // namespace

KernelState::~KernelState() {
  if (module) {
    device->makeCurrentNoThrow();
    driver().cuModuleUnload(module);
  }
}

Kernel Kernel::load(Device &device, std::string_view binary,
                    KernelMetadata meta) {
  DeviceState &dev = device.state();
  checkAgainstDevice(meta, dev);
  BinaryKind kind = classify(binary);
  if (kind == BinaryKind::Ptx && binary.find(".entry") == std::string::npos)
    throw Error("kernel '" + meta.kernel + "': the binary (" +
                std::to_string(binary.size()) +
                " bytes) is neither PTX with an .entry nor a cubin/fatbin");
  // The metadata against the PTX's entry, before the driver sees either.
  if (kind == BinaryKind::Ptx) {
    std::string mismatch = detail::describePtxEntryMismatch(binary, meta);
    if (!mismatch.empty())
      throw Error(mismatch);
  }
  dev.makeCurrent();
  const Driver &d = driver();

  auto state = std::make_shared<KernelState>();
  state->device = device.statePtr();
  state->module = loadModule(dev, std::string(binary), kind, meta.kernel);
  CUresult found = d.cuModuleGetFunction(&state->function, state->module,
                                         meta.kernel.c_str());
  if (found == kCudaErrorNotFound)
    throw Error("kernel '" + meta.kernel +
                "' is not in the loaded module: the metadata's \"kernel\" "
                "must name a .visible .entry of the PTX");
  check(found, "cuModuleGetFunction", " for kernel '" + meta.kernel + "'");

  int maxThreads = 0, staticShared = 0;
  auto readAttributes = [&] {
    check(d.cuFuncGetAttribute(&maxThreads,
                               CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                               state->function),
          "cuFuncGetAttribute");
    check(d.cuFuncGetAttribute(&state->numRegisters, CU_FUNC_ATTRIBUTE_NUM_REGS,
                               state->function),
          "cuFuncGetAttribute");
    check(d.cuFuncGetAttribute(&staticShared,
                               CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                               state->function),
          "cuFuncGetAttribute");
  };
  readAttributes();
  int threads = 32 * meta.numWarps;
  // PTX: where the JIT left registers spare at the kernel's occupancy, JIT
  // it again asking for that occupancy (SpareRegisters.h).
  if (kind == BinaryKind::Ptx) {
    std::optional<std::string> spent = spendSpareRegisters(
        binary, meta.kernel, Target::forDevice(dev.ccMajor, dev.ccMinor),
        state->numRegisters, threads,
        std::int64_t(meta.sharedBytes) + staticShared);
    // A JIT that rejects the edited PTX leaves the kernel as it loaded.
    CUmodule module = nullptr;
    if (spent) {
      try {
        module = loadModule(dev, *spent, kind, meta.kernel);
      } catch (const Error &) {
        module = nullptr;
      }
    }
    if (module) {
      CUfunction function = nullptr;
      if (d.cuModuleGetFunction(&function, module, meta.kernel.c_str()) ==
          CUDA_SUCCESS) {
        d.cuModuleUnload(state->module);
        state->module = module;
        state->function = function;
        readAttributes();
      } else {
        d.cuModuleUnload(module);
      }
    }
  }
  if (maxThreads < threads)
    throw Error("kernel '" + meta.kernel + "' is launched with " +
                std::to_string(threads) + " threads per block (num_warps = " +
                std::to_string(meta.numWarps) + ") but uses " +
                std::to_string(state->numRegisters) +
                " registers per thread, which allows at most " +
                std::to_string(maxThreads) + " on " + dev.describe());

  std::uint64_t totalShared = meta.sharedBytes + std::uint64_t(staticShared);
  if (totalShared > static_cast<std::uint64_t>(dev.maxSharedPerBlockOptin))
    throw Error("kernel '" + meta.kernel + "' needs " +
                std::to_string(totalShared) + " bytes of shared memory (" +
                std::to_string(meta.sharedBytes) + " dynamic + " +
                std::to_string(staticShared) + " static), but " +
                dev.describe() + " allows at most " +
                std::to_string(dev.maxSharedPerBlockOptin) + " per block");
  if (totalShared > kDefaultSharedLimit)
    check(d.cuFuncSetAttribute(state->function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(meta.sharedBytes)),
          "cuFuncSetAttribute",
          " (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = " +
              std::to_string(meta.sharedBytes) + " for kernel '" + meta.kernel +
              "')");

  meta.threadsPerBlock = threads;
  state->meta = std::move(meta);
  Kernel kernel;
  kernel.state_ = std::move(state);
  return kernel;
}

Kernel Kernel::loadFiles(Device &device, const std::string &binaryPath) {
  return reportAllocationFailure("loading '" + binaryPath + "'", [&] {
    std::string binary = detail::readWholeFile(binaryPath, "kernel");
    KernelMetadata meta = KernelMetadata::readFile(metadataPathFor(binaryPath));
    return load(device, binary, std::move(meta));
  });
}

namespace tilec::detail {
/// The variants of a specializing kernel.
struct KernelSpecializer {
  std::function<Kernel(const std::string &key)> compile;
  /// For a kernel typed at launch (typedAtLaunch): the key of a launch and
  /// the compile of its variant; `compile` is then unset.
  std::function<std::string(const std::vector<HostArg> &)> keyOf;
  std::function<Kernel(const std::vector<HostArg> &)> compileFor;
  /// The kernel's name, for messages before it has a variant.
  std::string kernelName;
  std::mutex mutex;
  /// (key, variant), the generic one first. Few: one per kind of launch.
  std::vector<std::pair<std::string, Kernel>> variants;

  /// The variant for \p key, or null; the caller holds the mutex.
  const Kernel *lookup(const std::string &key) const {
    for (const auto &[k, variant] : variants)
      if (k == key)
        return &variant;
    return nullptr;
  }
};
} // namespace tilec::detail

const KernelMetadata &Kernel::info() const {
  if (state_)
    return state_->meta;
  if (specializer_) {
    // Typed at launch: the first variant, once there is one.
    std::lock_guard<std::mutex> lock(specializer_->mutex);
    if (!specializer_->variants.empty())
      return specializer_->variants.front().second.info();
    throw Error("tilec: kernel '" + specializer_->kernelName +
                "' takes its parameter types from its launch arguments and "
                "has no metadata before its first launch (specializedFor(" +
                "args...) compiles the variant for them)");
  }
  throw Error("tilec: use of an empty Kernel (load or compile one first)");
}

int Kernel::numRegisters() const {
  info();
  if (!state_) { // typed at launch: its first variant, as info()
    std::lock_guard<std::mutex> lock(specializer_->mutex);
    return specializer_->variants.front().second.numRegisters();
  }
  return state_->numRegisters;
}

Kernel Kernel::specializing(
    Kernel generic, std::string genericKey,
    std::function<Kernel(const std::string &key)> compileVariant) {
  generic.info();
  if (generic.specializer_)
    throw Error("tilec: Kernel::specializing: kernel '" +
                generic.info().kernel + "' already specializes itself");
  Kernel kernel;
  kernel.state_ = generic.state_;
  kernel.specializer_ = std::make_shared<detail::KernelSpecializer>();
  kernel.specializer_->compile = std::move(compileVariant);
  kernel.specializer_->variants.emplace_back(std::move(genericKey), generic);
  return kernel;
}

Kernel Kernel::typedAtLaunch(
    std::string kernelName,
    std::function<std::string(const std::vector<HostArg> &)> keyOf,
    std::function<Kernel(const std::vector<HostArg> &)> compileFor) {
  Kernel kernel;
  kernel.specializer_ = std::make_shared<detail::KernelSpecializer>();
  kernel.specializer_->keyOf = std::move(keyOf);
  kernel.specializer_->compileFor = std::move(compileFor);
  kernel.specializer_->kernelName = std::move(kernelName);
  return kernel;
}

Kernel Kernel::specializedForArgs(const std::vector<HostArg> &args) const {
  if (!specializer_) {
    info();
    return *this;
  }
  detail::KernelSpecializer &spec = *specializer_;
  std::string key;
  if (spec.keyOf) {
    key = spec.keyOf(args);
  } else {
    const KernelMetadata &meta = info();
    // Arguments that do not match the signature: the generic variant's
    // launch reports them.
    if (args.size() != meta.params.size()) {
      std::lock_guard<std::mutex> lock(spec.mutex);
      return spec.variants.front().second;
    }
    key = specializationKey(meta, args);
  }
  {
    std::lock_guard<std::mutex> lock(spec.mutex);
    if (const Kernel *found = spec.lookup(key))
      return *found;
  }
  // Compiled without the lock: another thread may compile the same key
  // meanwhile; the first one stored is kept.
  Kernel variant = spec.keyOf ? spec.compileFor(args) : spec.compile(key);
  std::lock_guard<std::mutex> lock(spec.mutex);
  if (const Kernel *found = spec.lookup(key))
    return *found;
  spec.variants.emplace_back(key, variant);
  return variant;
}

std::size_t Kernel::numVariants() const {
  if (!specializer_) {
    info();
    return 1;
  }
  std::lock_guard<std::mutex> lock(specializer_->mutex);
  return specializer_->variants.size();
}

void Kernel::launchArgs(const Grid &grid, const std::vector<HostArg> &args,
                        const Stream &stream,
                        const LaunchOptions &options) const {
  if (specializer_)
    return specializedForArgs(args).launchArgs(grid, args, stream, options);
  PackedArgs packed = packArguments(info(), args);
  launchKernelParams(grid, packed.kernelParams(), stream.handle(), options);
}

void Kernel::launchPacked(const Grid &grid, const void *packed,
                          std::size_t packedBytes, void *cuStream,
                          const LaunchOptions &options) const {
  const KernelMetadata &meta = info();
  if (!state_)
    throw Error("tilec: kernel '" + meta.kernel +
                "' takes its parameter types from its launch arguments: "
                "pick the variant for them (specializedForArgs) and launch "
                "that with packed arguments");
  std::size_t count = meta.params.size();
  if (packedBytes != 8 * count || (count && !packed))
    throw Error("kernel '" + meta.kernel + "' takes " + std::to_string(count) +
                " arguments (" + std::to_string(8 * count) +
                " packed bytes), got " + std::to_string(packedBytes) +
                " bytes; its signature is " + meta.signature());
  // The parameter pointers live on the stack: the launch allocates nothing.
  constexpr std::size_t kInline = 64;
  void *inlinePointers[kInline];
  std::vector<void *> heapPointers;
  void **pointers = inlinePointers;
  if (count > kInline) {
    heapPointers.resize(count);
    pointers = heapPointers.data();
  }
  const char *bytes = static_cast<const char *>(packed);
  for (std::size_t i = 0; i < count; ++i)
    pointers[i] = const_cast<char *>(bytes + 8 * i);
  launchKernelParams(grid, count ? pointers : nullptr, cuStream, options);
}

void Kernel::launchKernelParams(const Grid &grid, void **kernelParams,
                                void *cuStream,
                                const LaunchOptions &options) const {
  const KernelMetadata &meta = info();
  const DeviceState &dev = *state_->device;
  std::int64_t dims[3] = {grid.x, grid.y, grid.z};
  static const char *kAxis[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 1 || dims[i] > dev.maxGrid[i])
      throw Error("kernel '" + meta.kernel + "': invalid grid (" +
                  std::to_string(grid.x) + ", " + std::to_string(grid.y) +
                  ", " + std::to_string(grid.z) + "): grid." + kAxis[i] +
                  " must be in [1, " + std::to_string(dev.maxGrid[i]) +
                  "] on " + dev.describe());
  }
  dev.makeCurrent();
  unsigned threads = static_cast<unsigned>(32 * meta.numWarps);
  // A dependent launch needs sm_90 (before, it is an ordinary launch: the
  // kernel's gdc_* compiled to nothing) and cuLaunchKernelEx.
  bool dependent = options.dependentLaunch && dev.ccMajor >= 9;
  if (dependent && !driver().cuLaunchKernelEx)
    throw Error("kernel '" + meta.kernel +
                "': a dependent launch needs cuLaunchKernelEx, which this "
                "CUDA driver lacks (CUDA 11.8 or later has it)");
  CUresult launched;
  if (dependent) {
    CUlaunchAttribute attribute;
    attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config = {static_cast<unsigned>(grid.x),
                             static_cast<unsigned>(grid.y),
                             static_cast<unsigned>(grid.z),
                             threads,
                             1,
                             1,
                             static_cast<unsigned>(meta.sharedBytes),
                             static_cast<CUstream>(cuStream),
                             &attribute,
                             1};
    launched = driver().cuLaunchKernelEx(&config, state_->function,
                                         kernelParams, nullptr);
  } else {
    launched = driver().cuLaunchKernel(
        state_->function, static_cast<unsigned>(grid.x),
        static_cast<unsigned>(grid.y), static_cast<unsigned>(grid.z), threads,
        1, 1, static_cast<unsigned>(meta.sharedBytes),
        static_cast<CUstream>(cuStream), kernelParams, nullptr);
  }
  // The message is built only on failure (this is the launch hot path).
  if (launched != CUDA_SUCCESS)
    check(launched, dependent ? "cuLaunchKernelEx" : "cuLaunchKernel",
          " for kernel '" + meta.kernel + "' (grid (" + std::to_string(grid.x) +
              ", " + std::to_string(grid.y) + ", " + std::to_string(grid.z) +
              "), " + std::to_string(threads) + " threads, " +
              std::to_string(meta.sharedBytes) + " bytes of shared memory)");
}

std::string tilec::compilePtxToCubin(Device &device, std::string_view ptx) {
  const Driver &d = driver();
  if (!d.cuLinkCreate || !d.cuLinkAddData || !d.cuLinkComplete ||
      !d.cuLinkDestroy)
    throw Error("the CUDA driver has no cuLink API (cuLinkCreate_v2); "
                "cannot turn PTX into a cubin with it");
  device.state().makeCurrent();
  constexpr unsigned kLogBytes = 16 * 1024;
  std::string errorLog(kLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_GENERATE_LINE_INFO};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>(std::uintptr_t(kLogBytes - 1)),
                    reinterpret_cast<void *>(std::uintptr_t(1))};
  // PTX with source lines (`--line-info`) keeps them in the cubin.
  bool lineInfo = ptx.find("\t.loc\t") != std::string_view::npos;
  CUlinkState link = nullptr;
  check(d.cuLinkCreate(lineInfo ? 3 : 2, options, values, &link),
        "cuLinkCreate");
  std::string text(ptx);
  auto logDetail = [&] {
    std::string log(errorLog.c_str());
    return log.empty() ? std::string() : "\nJIT error log:\n" + log;
  };
  CUresult r =
      d.cuLinkAddData(link, CU_JIT_INPUT_PTX, text.data(), text.size() + 1,
                      "kernel.ptx", 0, nullptr, nullptr);
  if (r != CUDA_SUCCESS) {
    std::string detail = logDetail();
    d.cuLinkDestroy(link);
    check(r, "cuLinkAddData", detail);
  }
  void *cubin = nullptr;
  std::size_t size = 0;
  r = d.cuLinkComplete(link, &cubin, &size);
  if (r != CUDA_SUCCESS) {
    std::string detail = logDetail();
    d.cuLinkDestroy(link);
    check(r, "cuLinkComplete", detail);
  }
  std::string out(static_cast<const char *>(cubin), size);
  d.cuLinkDestroy(link);
  return out;
}
