//===- Compiler.cpp - The JIT host API: compile, cache and load kernels --===//
//
// tilec::Compiler (declared in tilec.h) on top of the runtime: a request is
// looked up first among the kernels this process has already loaded (a
// hash of the source and a map lookup), then in the KernelCache (memory,
// then disk), and only then compiled with compileTileKernel(). Kernel
// caches are shared by every Compiler of the process that uses the same
// directory; loaded kernels are shared per device. Both live for the life
// of the process (they are deliberately never destroyed, so no CUDA module
// is unloaded during static destruction, after the driver may be gone).
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Pipeline.h"
#include "tilec/Frontend/PythonSource.h"
#include "tilec/Runtime/Files.h"
#include "tilec/tilec.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

using namespace tilec;

namespace {

/// The process-wide caches of every Compiler.
struct JITState {
  std::mutex mutex;
  /// One KernelCache per directory ("" is the memory-only one).
  std::unordered_map<std::string, std::shared_ptr<KernelCache>> caches;
  /// Loaded kernels by "<device ordinal>:<cache key>".
  std::unordered_map<std::string, Kernel> loaded;
};

JITState &jitState() {
  static JITState *state = new JITState(); // Never destroyed: see above.
  return *state;
}

std::shared_ptr<KernelCache> cacheFor(std::string directory) {
  while (directory.size() > 1 && directory.back() == '/')
    directory.pop_back();
  JITState &state = jitState();
  std::lock_guard<std::mutex> lock(state.mutex);
  std::shared_ptr<KernelCache> &cache = state.caches[directory];
  if (!cache)
    cache = std::make_shared<KernelCache>(directory);
  return cache;
}

/// The compiler version that takes part in every cache key.
const std::string &compilerVersion() {
  static const std::string version = getVersionString();
  return version;
}

void checkOptions(const CompilerOptions &options) {
  std::string error = options.validate();
  if (!error.empty())
    throw Error("tilec: Compiler option " + error);
}

std::string readSourceFile(const std::string &path) {
  try {
    return detail::readWholeFile(path, "", detail::kMaxSourceBytes);
  } catch (const Error &error) {
    throw Error(std::string("tilec: ") + error.what());
  }
}

} // namespace

struct Compiler::Impl {
  Device device;
  bool hasDevice = false;
  /// The options as given.
  Options options;
  /// The target kernels are compiled for: options.arch, or when that is
  /// empty the device's (or the default one).
  std::string arch;
  std::shared_ptr<KernelCache> cache;

  CompileRequest request(std::string text, std::string sourceName,
                         const std::string &kernel,
                         const Constexprs &constexprs) const {
    CompileRequest request;
    request.source = std::move(text);
    request.sourceName = std::move(sourceName);
    request.kernel = kernel;
    request.constexprs = constexprs;
    request.options = options;
    request.options.arch = arch;
    // A Python file's `@triton.jit` kernels, as `tilec FILE.py` reads them.
    const std::string &name = request.sourceName;
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".py") == 0)
      request.language = CompileRequest::Language::Python;
    return request;
  }

  /// A Python source's kernel has no types before a launch gives them
  /// (compileAndLoadSpecializing); compiling it without one is an error.
  static void requireTypes(const CompileRequest &request, const char *api) {
    if (request.language == CompileRequest::Language::Python &&
        request.signature.empty())
      throw Error("tilec: kernel '" + request.kernel +
                  "' of the Python source '" + request.sourceName +
                  "' takes its parameter types from its launch arguments, "
                  "which " +
                  api +
                  " does not have: compile it with compileFile (its launches "
                  "type it) or give CompileRequest::signature to "
                  "compileRequestToPTX");
  }

  /// A Python source's kernel, typed at each launch as Triton's JIT types
  /// it: the variant for the launch's inferred signature (with the integer
  /// hints and pointer alignment of argument specialization, unless the
  /// options turn that off), compiled on first use. Errors in the source
  /// surface at the first launch, as in Triton.
  Kernel typedAtLaunch(const CompileRequest &request,
                       const std::shared_ptr<Impl> &self) {
    if (!hasDevice)
      compileAndLoad(request); // throws: no device
    bool hints = options.specialize;
    std::string name = request.kernel;
    auto keyOf = [name, hints](const std::vector<HostArg> &args) {
      std::string key = launchSignature(args, name, hints);
      if (hints)
        key += pointersAligned(args) ? " @16" : " @1";
      return key;
    };
    auto compileFor = [impl = self, request,
                       hints](const std::vector<HostArg> &args) {
      return impl->compileAndLoad(
          launchVariant(request, launchSignature(args, request.kernel, hints),
                        hints, pointersAligned(args)));
    };
    return Kernel::typedAtLaunch(name, keyOf, compileFor);
  }

  /// The request of a Python kernel's variant for a launch whose inferred
  /// signature is \p signature (with its hints when \p hints, argument
  /// specialization being on; then \p alignedPointers says whether every
  /// pointer is 16-byte aligned).
  static CompileRequest launchVariant(const CompileRequest &request,
                                      std::string signature, bool hints,
                                      bool alignedPointers) {
    CompileRequest variant = request;
    variant.signature = std::move(signature);
    variant.signatureOfRuntimeParams = true;
    if (hints)
      variant.options.pointerAlignment = alignedPointers ? 16 : 1;
    return variant;
  }

  /// compileAndLoad(), then, unless the options say not to, a kernel that
  /// specializes itself on its launch arguments. The generic variant (compiled
  /// now, so that errors in the source surface here) assumes 16-byte aligned
  /// pointers and nothing of integers.
  Kernel compileAndLoadSpecializing(const CompileRequest &request,
                                    const std::shared_ptr<Impl> &self) {
    if (request.language == CompileRequest::Language::Python)
      return typedAtLaunch(request, self);
    Kernel generic = compileAndLoad(request);
    if (!options.specialize)
      return generic;
    const std::vector<KernelParam> &params = generic.info().params;
    std::string genericKey;
    for (const KernelParam &param : params)
      genericKey += param.type.isPointer ? 'A' : '-';
    // The kernel keeps the compiler state it needs (the device, the cache)
    // alive; that state holds no kernel, so there is no cycle.
    return Kernel::specializing(
        generic, genericKey,
        [impl = self, request, params](const std::string &key) {
          return impl->compileAndLoad(specializeRequest(request, params, key));
        });
  }

  /// One warm-up entry: its generic variant and the specializations it
  /// lists, compiled (and loaded, with a device) into the caches.
  void warmUp(const WarmUpKernel &entry) {
    CompileRequest generic = request(readSourceFile(entry.path), entry.path,
                                     entry.kernel, entry.constexprs);
    if (generic.language == CompileRequest::Language::Python &&
        !entry.signatures.empty()) {
      // The variants its launches will look up (typedAtLaunch).
      for (const std::string &signature : entry.signatures) {
        CompileRequest variant = launchVariant(
            generic, signature, options.specialize, /*alignedPointers=*/true);
        if (hasDevice)
          compileAndLoad(variant);
        else
          compile(variant);
      }
      return;
    }
    requireTypes(generic, "a warm-up entry without signatures");
    std::vector<KernelParam> params =
        hasDevice ? compileAndLoad(generic).info().params
                  : compile(generic).meta.params;
    for (const std::string &key : entry.specializations) {
      CompileRequest variant = specializeRequest(generic, params, key);
      if (hasDevice)
        compileAndLoad(variant);
      else
        compile(variant);
    }
  }

  /// \p request with what else decides its code: for a Python source, the
  /// environment variables its module-level code reads.
  static CompileRequest withHostEnvironment(CompileRequest request) {
    if (request.language == CompileRequest::Language::Python)
      request.hostEnvironment = describeHostEnvironment(request.source);
    return request;
  }

  CompiledKernel compile(const CompileRequest &request) {
    return compileWithEnvironment(withHostEnvironment(request));
  }

  /// compile() of a request withHostEnvironment() has filled in.
  CompiledKernel compileWithEnvironment(const CompileRequest &request) {
    return compileCached(*cache, request, compilerVersion(), compileTileKernel);
  }

  Kernel compileAndLoad(const CompileRequest &request) {
    if (!hasDevice)
      throw Error("tilec: cannot load kernel '" + request.kernel +
                  "': this Compiler has no device (it was made with "
                  "Compiler(Options)); use compileFileToPTX or "
                  "compileSourceToPTX, or make it with Device::open()");
    CompileRequest keyed = withHostEnvironment(request);
    std::string key = std::to_string(device.ordinal()) + ":" +
                      cacheKey(keyed, compilerVersion());
    JITState &state = jitState();
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      auto it = state.loaded.find(key);
      if (it != state.loaded.end())
        return it->second;
    }
    CompiledKernel compiled = compileWithEnvironment(keyed);
    Kernel kernel = Kernel::load(device, compiled.binary, compiled.meta);
    std::lock_guard<std::mutex> lock(state.mutex);
    // Another thread may have loaded it meanwhile; keep the first.
    return state.loaded.emplace(key, kernel).first->second;
  }
};

Compiler::Compiler(Device device, Options options) : impl_(new Impl) {
  checkOptions(options);
  if (!device.statePtr())
    throw Error("tilec: Compiler(Device): the device is not open (call "
                "Device::open first; to compile to PTX without a GPU, use "
                "Compiler(Options))");
  // The device's own target, with Hopper's wgmma (sm_90a) on sm_90, as
  // tilec --arch=native.
  impl_->arch = options.arch;
  if (impl_->arch.empty()) {
    auto [major, minor] = device.computeCapability();
    impl_->arch = Target::forDevice(major, minor).str();
  }
  impl_->device = std::move(device);
  impl_->hasDevice = true;
  impl_->cache = cacheFor(options.cacheDir);
  impl_->options = std::move(options);
}

Compiler::Compiler(Options options) : impl_(new Impl) {
  checkOptions(options);
  impl_->arch =
      options.arch.empty() ? Target::getDefault().str() : options.arch;
  impl_->cache = cacheFor(options.cacheDir);
  impl_->options = std::move(options);
}

Kernel Compiler::compileFile(const std::string &path, const std::string &kernel,
                             const Constexprs &constexprs) {
  return reportAllocationFailure("compiling kernel '" + kernel + "'", [&] {
    return impl_->compileAndLoadSpecializing(
        impl_->request(readSourceFile(path), path, kernel, constexprs), impl_);
  });
}

Kernel Compiler::compileSource(const std::string &text,
                               const std::string &sourceName,
                               const std::string &kernel,
                               const Constexprs &constexprs) {
  return reportAllocationFailure("compiling kernel '" + kernel + "'", [&] {
    return impl_->compileAndLoadSpecializing(
        impl_->request(text, sourceName, kernel, constexprs), impl_);
  });
}

CompiledKernel Compiler::compileFileToPTX(const std::string &path,
                                          const std::string &kernel,
                                          const Constexprs &constexprs) {
  return reportAllocationFailure("compiling kernel '" + kernel + "'", [&] {
    CompileRequest request =
        impl_->request(readSourceFile(path), path, kernel, constexprs);
    Impl::requireTypes(request, "compileFileToPTX");
    return impl_->compile(request);
  });
}

CompiledKernel Compiler::compileSourceToPTX(const std::string &text,
                                            const std::string &sourceName,
                                            const std::string &kernel,
                                            const Constexprs &constexprs) {
  return reportAllocationFailure("compiling kernel '" + kernel + "'", [&] {
    CompileRequest request =
        impl_->request(text, sourceName, kernel, constexprs);
    Impl::requireTypes(request, "compileSourceToPTX");
    return impl_->compile(request);
  });
}

CompiledKernel Compiler::compileRequestToPTX(CompileRequest request) {
  return reportAllocationFailure("compiling kernel '" + request.kernel + "'",
                                 [&] {
                                   if (request.options.arch.empty())
                                     request.options.arch = impl_->arch;
                                   return impl_->compile(request);
                                 });
}

std::future<void> Compiler::warmUp(std::vector<WarmUpKernel> kernels,
                                   unsigned threads) const {
  return std::async(
      std::launch::async,
      [impl = impl_, kernels = std::move(kernels), threads] {
        std::size_t workers =
            threads ? threads : std::thread::hardware_concurrency();
        workers = std::max<std::size_t>(1, std::min(workers, kernels.size()));
        std::atomic<std::size_t> next{0};
        std::mutex mutex;
        std::exception_ptr firstFailure;
        auto work = [&] {
          for (std::size_t i; (i = next++) < kernels.size();) {
            try {
              reportAllocationFailure(
                  "warming up kernel '" + kernels[i].kernel + "'", [&] {
                    impl->warmUp(kernels[i]);
                    return 0;
                  });
            } catch (...) {
              std::lock_guard<std::mutex> lock(mutex);
              if (!firstFailure)
                firstFailure = std::current_exception();
            }
          }
        };
        std::vector<std::thread> pool;
        for (std::size_t t = 1; t < workers; ++t)
          pool.emplace_back(work);
        work();
        for (std::thread &thread : pool)
          thread.join();
        if (firstFailure)
          std::rethrow_exception(firstFailure);
      });
}

const Compiler::Options &Compiler::options() const { return impl_->options; }

const std::string &Compiler::arch() const { return impl_->arch; }

Device &Compiler::device() { return impl_->device; }

void Compiler::clearMemoryCaches() {
  JITState &state = jitState();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.loaded.clear();
  for (auto &[directory, cache] : state.caches)
    cache->clearMemory();
}
