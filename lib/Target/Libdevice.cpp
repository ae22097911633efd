//===- Libdevice.cpp - Finding and linking NVIDIA's libdevice -------------===//
//
// libdevice.10.bc is the CUDA toolkit's bitcode library of math functions
// (`__nv_expf`, `__nv_erff`, ...) that upstream `convert-gpu-to-nvvm` calls
// for `math` ops. It is ~470 KB of bitcode with ~350 functions; a kernel
// needs a handful. The file's bytes are read once per process and kept; each
// link opens them as a lazy module, so only the called functions (and what
// they call) are materialized, then LinkOnlyNeeded moves those into the
// kernel's module.
//
//===----------------------------------------------------------------------===//

#include "Libdevice.h"

#include "tilec/Target/CudaToolkit.h"
#include "tilec/Target/PTX.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <mutex>

using namespace llvm;

namespace tilec {

namespace detail {

/// The bytes of each libdevice file read so far, by path. Entries live for
/// the process; lookups and inserts hold the mutex, readers share the
/// immutable buffers.
static std::mutex libdeviceCacheMutex;
static StringMap<std::unique_ptr<MemoryBuffer>> &libdeviceCache() {
  static StringMap<std::unique_ptr<MemoryBuffer>> cache;
  return cache;
}

/// Returns the cached bytes of the file at `path`, reading it on first use.
static Expected<MemoryBufferRef> getLibdeviceBytes(StringRef path) {
  std::lock_guard<std::mutex> lock(libdeviceCacheMutex);
  auto &cache = libdeviceCache();
  auto it = cache.find(path);
  if (it != cache.end())
    return it->second->getMemBufferRef();
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return createStringError(buffer.getError(),
                             "cannot read libdevice '" + path +
                                 "': " + buffer.getError().message());
  MemoryBufferRef ref = (*buffer)->getMemBufferRef();
  cache[path] = std::move(*buffer);
  return ref;
}

StringRef findLibdeviceCall(const Module &module) {
  for (const Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_") &&
        !function.use_empty())
      return function.getName();
  return "";
}

Error linkLibdeviceIfNeeded(Module &module, StringRef libdevicePath) {
  StringRef needed = findLibdeviceCall(module);
  if (needed.empty())
    return Error::success();

  std::string path;
  if (!libdevicePath.empty()) {
    path = resolveLibdevice(libdevicePath);
    if (path.empty())
      return createStringError(
          inconvertibleErrorCode(),
          "the kernel calls libdevice function '" + needed +
              "' but libdevice was not found at '" + libdevicePath + "'");
  } else {
    path = findLibdevice();
    if (path.empty())
      return createStringError(
          inconvertibleErrorCode(),
          "the kernel calls libdevice function '" + needed +
              "' but libdevice.10.bc was not found; looked in " +
              describeLibdeviceSearchPath() +
              " (set TILEC_LIBDEVICE to the file)");
  }

  Expected<MemoryBufferRef> bytes = getLibdeviceBytes(path);
  if (!bytes)
    return bytes.takeError();
  Expected<std::unique_ptr<Module>> library =
      getLazyBitcodeModule(*bytes, module.getContext());
  if (!library)
    return createStringError(inconvertibleErrorCode(),
                             "cannot parse libdevice '" + path +
                                 "': " + toString(library.takeError()));
  // libdevice says "nvptx64-nvidia-gpulibs" and an older data layout; adopt
  // the kernel's so the linker does not warn about the mismatch.
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  if (Linker::linkModules(module, std::move(*library), Linker::LinkOnlyNeeded))
    return createStringError(inconvertibleErrorCode(),
                             "cannot link libdevice '" + path + "'");

  // A `__nv_` name that libdevice does not define stays a declaration.
  std::string missing;
  for (const Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_") &&
        !function.use_empty())
      missing +=
          (missing.empty() ? "'" : ", '") + function.getName().str() + "'";
  if (!missing.empty())
    return createStringError(inconvertibleErrorCode(),
                             "libdevice '" + path + "' does not define " +
                                 missing);
  return Error::success();
}

void internalizeNonKernels(Module &module) {
  for (Function &function : module) {
    if (function.isDeclaration() ||
        function.getCallingConv() == CallingConv::PTX_Kernel ||
        function.hasLocalLinkage())
      continue;
    function.setLinkage(GlobalValue::InternalLinkage);
    function.setVisibility(GlobalValue::DefaultVisibility);
    function.setComdat(nullptr);
  }
}

/// Returns the string a `__nvvm_reflect` call asks about, or "".
static StringRef getReflectQuery(const CallInst &call) {
  if (call.arg_size() != 1)
    return "";
  const auto *global =
      dyn_cast<GlobalVariable>(call.getArgOperand(0)->stripPointerCasts());
  if (!global || !global->hasInitializer())
    return "";
  const auto *data = dyn_cast<ConstantDataSequential>(global->getInitializer());
  if (!data || !data->isCString())
    return "";
  return data->getAsCString();
}

void setReflectParameters(Module &module) {
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(Module::Override, "nvvm-reflect-ftz", uint32_t(0));

  Function *reflect = module.getFunction("__nvvm_reflect");
  if (!reflect)
    return;
  SmallVector<CallInst *> precSqrtCalls;
  for (User *user : reflect->users())
    if (auto *call = dyn_cast<CallInst>(user))
      if (call->getCalledFunction() == reflect &&
          getReflectQuery(*call) == "__CUDA_PREC_SQRT")
        precSqrtCalls.push_back(call);
  for (CallInst *call : precSqrtCalls) {
    call->replaceAllUsesWith(ConstantInt::get(call->getType(), 1));
    call->eraseFromParent();
  }
}

} // namespace detail
} // namespace tilec
