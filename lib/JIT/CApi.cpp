//===- CApi.cpp - The C ABI of tilec-c/tilec.h ----------------------------===//
//
// The C functions of include/tilec-c/tilec.h over the C++ host API: a
// tilec_request holds a CompileRequest (plus the cache directory and the
// specialization key), tilec_compile() compiles it with a tilec::Compiler
// (compileRequestToPTX: the same caches as every Compiler of the process),
// tilec_kernel_load() is Kernel::load on Device::open(ordinal), and
// tilec_kernel_launch() is Kernel::launchPacked on the caller's stream. No
// exception leaves these functions: each is turned into a tilec_status and
// the message kept per thread for tilec_last_error() (CApiHandles.h). The
// interpreter's entry is in CApiInterpret.cpp.
//
//===----------------------------------------------------------------------===//

#include "CApiHandles.h"

#include "tilec/Driver/KernelCompiler.h"
#include "tilec/Driver/Pipeline.h"
#include "tilec/JIT/TileBackend.h"
#include "tilec/Runtime/Files.h"
#include "tilec/tilec.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::capi;

namespace {
thread_local std::string lastError;
} // namespace

tilec_status tilec::capi::fail(tilec_status status,
                               const std::string &message) {
  try {
    lastError = message;
  } catch (...) {
  }
  return status;
}

tilec_status tilec::capi::nullArgument(const char *function, const char *what) {
  return fail(TILEC_ERROR_INVALID_ARGUMENT,
              std::string("tilec: ") + function + ": " + what + " is null");
}

namespace {

/// Parses a whole decimal integer.
bool parseInt(const char *text, long long &value) {
  char *end = nullptr;
  errno = 0;
  value = std::strtoll(text, &end, 10);
  return *text && end && *end == '\0' && errno == 0;
}

bool endsWith(const std::string &text, const char *suffix) {
  std::size_t n = std::strlen(suffix);
  return text.size() >= n && text.compare(text.size() - n, n, suffix) == 0;
}

/// Checks a specialization key against the generic variant's parameters.
std::string checkSpecialization(const std::string &key,
                                const KernelMetadata &meta) {
  if (key.size() != meta.params.size())
    return "tilec: specialization key '" + key + "' has " +
           std::to_string(key.size()) + " characters; kernel '" + meta.kernel +
           "' has " + std::to_string(meta.params.size()) +
           " runtime parameters (" + meta.signature() + ")";
  for (std::size_t i = 0; i < key.size(); ++i) {
    bool pointer = meta.params[i].type.isPointer;
    char c = key[i];
    bool ok = c == '-' || (pointer ? c == 'A' : (c == 'D' || c == 'U'));
    if (!ok)
      return "tilec: specialization key '" + key + "': '" + std::string(1, c) +
             "' does not fit parameter " + meta.params[i].name + ": " +
             meta.params[i].type.str() +
             " (pointers take A or -, integers D, U or -)";
  }
  return "";
}

} // namespace

extern "C" {

int tilec_abi_version(void) { return TILEC_C_ABI_VERSION; }

const char *tilec_version(void) {
  static const std::string version = getVersionString();
  return version.c_str();
}

const char *tilec_last_error(void) { return lastError.c_str(); }

tilec_status tilec_request_create(tilec_request **out) {
  if (!out)
    return nullArgument("tilec_request_create", "out");
  *out = nullptr;
  return guarded(TILEC_ERROR_INTERNAL, [&] { *out = new tilec_request(); });
}

void tilec_request_destroy(tilec_request *request) { delete request; }

tilec_status tilec_request_set_source(tilec_request *request, const char *text,
                                      const char *name) {
  if (!request || !text)
    return nullArgument("tilec_request_set_source",
                        !request ? "request" : "text");
  return guarded(TILEC_ERROR_INTERNAL, [&] {
    request->request.source = text;
    request->request.sourceName = name ? name : "<source>";
  });
}

tilec_status tilec_request_set_file(tilec_request *request, const char *path) {
  if (!request || !path)
    return nullArgument("tilec_request_set_file",
                        !request ? "request" : "path");
  return guarded(TILEC_ERROR_INVALID_ARGUMENT, [&] {
    std::string text;
    try {
      text = detail::readWholeFile(path, "", detail::kMaxSourceBytes);
    } catch (const Error &error) {
      throw Error(std::string("tilec: ") + error.what());
    }
    request->request.source = std::move(text);
    request->request.sourceName = path;
    if (endsWith(path, ".py"))
      request->request.language = CompileRequest::Language::Python;
  });
}

tilec_status tilec_request_set_language(tilec_request *request,
                                        const char *language) {
  if (!request || !language)
    return nullArgument("tilec_request_set_language",
                        !request ? "request" : "language");
  std::string name = language;
  if (name == "tile")
    request->request.language = CompileRequest::Language::Tile;
  else if (name == "python")
    request->request.language = CompileRequest::Language::Python;
  else
    return fail(TILEC_ERROR_INVALID_ARGUMENT,
                "tilec: unknown language '" + name + "' (tile, python)");
  return TILEC_SUCCESS;
}

tilec_status tilec_request_set_kernel(tilec_request *request,
                                      const char *kernel) {
  if (!request || !kernel)
    return nullArgument("tilec_request_set_kernel",
                        !request ? "request" : "kernel");
  return guarded(TILEC_ERROR_INTERNAL,
                 [&] { request->request.kernel = kernel; });
}

tilec_status tilec_request_set_signature(tilec_request *request,
                                         const char *signature) {
  if (!request || !signature)
    return nullArgument("tilec_request_set_signature",
                        !request ? "request" : "signature");
  return guarded(TILEC_ERROR_INTERNAL,
                 [&] { request->request.signature = signature; });
}

namespace {
tilec_status setConstexpr(tilec_request *request, const char *name,
                          ConstexprValue value) {
  if (!request || !name || !*name)
    return nullArgument("tilec_request_set_constexpr",
                        !request ? "request" : "name");
  return guarded(TILEC_ERROR_INTERNAL, [&] {
    request->request.constexprs.insert_or_assign(name, value);
  });
}
} // namespace

tilec_status tilec_request_set_constexpr_int(tilec_request *request,
                                             const char *name, int64_t value) {
  return setConstexpr(request, name, ConstexprValue::ofInt(value));
}

tilec_status tilec_request_set_constexpr_float(tilec_request *request,
                                               const char *name, double value) {
  return setConstexpr(request, name, ConstexprValue::ofFloat(value));
}

tilec_status tilec_request_set_constexpr_bool(tilec_request *request,
                                              const char *name, int value) {
  return setConstexpr(request, name, ConstexprValue::ofBool(value != 0));
}

tilec_status tilec_request_set_option(tilec_request *request, const char *name,
                                      const char *value) {
  if (!request || !name || !value)
    return nullArgument("tilec_request_set_option", !request ? "request"
                                                    : !name  ? "name"
                                                             : "value");
  std::string option = name;
  CompileOptions &options = request->request.options;
  return guarded(TILEC_ERROR_INVALID_ARGUMENT, [&] {
    long long number = 0;
    auto integer = [&] {
      if (!parseInt(value, number) || number < INT32_MIN || number > INT32_MAX)
        throw Error("tilec: option " + option + " = '" + value +
                    "' is not an integer");
      return static_cast<int>(number);
    };
    if (option == "arch")
      options.arch = value;
    else if (option == "num_warps")
      options.numWarps = integer();
    else if (option == "num_stages")
      options.numStages = integer();
    else if (option == "opt_level")
      options.optLevel = integer();
    else if (option == "fp_fusion")
      options.fpFusion = integer() != 0;
    else if (option == "line_info")
      options.lineInfo = integer() != 0;
    else if (option == "cache_dir")
      request->cacheDir = value;
    else if (option == "specialize")
      request->specialization = value;
    else if (option == "signature_of" &&
             (std::string(value) == "all" || std::string(value) == "runtime"))
      request->request.signatureOfRuntimeParams =
          std::string(value) == "runtime";
    else if (option == "signature_of")
      throw Error("tilec: option signature_of = '" + std::string(value) +
                  "' is not 'all' or 'runtime'");
    else
      throw Error(
          "tilec: unknown option '" + option +
          "' (arch, num_warps, num_stages, opt_level, fp_fusion, line_info, "
          "cache_dir, specialize, signature_of)");
  });
}

const char *tilec_request_kernel_names(tilec_request *request) {
  if (!request) {
    nullArgument("tilec_request_kernel_names", "request");
    return nullptr;
  }
  const CompileRequest &req = request->request;
  tilec_status status = guarded(TILEC_ERROR_COMPILE, [&] {
    std::string diagnostics;
    llvm::raw_string_ostream diagOS(diagnostics);
    std::unique_ptr<TileSource> source = TileSource::parse(
        llvm::MemoryBuffer::getMemBufferCopy(
            req.source, req.sourceName.empty() ? "<source>" : req.sourceName),
        diagOS,
        req.language == CompileRequest::Language::Python
            ? SourceLanguage::Python
            : SourceLanguage::Tile);
    if (!source)
      throw Error(describeFailure(diagnostics, req));
    request->kernelNames.clear();
    for (const std::string &name : source->getKernelNames())
      request->kernelNames += (request->kernelNames.empty() ? "" : ",") + name;
  });
  return status == TILEC_SUCCESS ? request->kernelNames.c_str() : nullptr;
}

tilec_status tilec_compile(const tilec_request *request, tilec_program **out) {
  if (!request || !out)
    return nullArgument("tilec_compile", !request ? "request" : "out");
  *out = nullptr;
  CompilerOptions options;
  static_cast<CompileOptions &>(options) = request->request.options;
  options.cacheDir = request->cacheDir;
  options.specialize = false;
  if (std::string invalid = options.validate(); !invalid.empty())
    return fail(TILEC_ERROR_INVALID_ARGUMENT,
                "tilec: compile option " + invalid);
  if (request->request.kernel.empty())
    return fail(TILEC_ERROR_INVALID_ARGUMENT,
                "tilec: no kernel name given for '" +
                    request->request.sourceName + "'");
  tilec_program *program = nullptr;
  bool badKey = false;
  tilec_status status = guarded(TILEC_ERROR_COMPILE, [&] {
    Compiler compiler(options);
    CompiledKernel compiled = compiler.compileRequestToPTX(request->request);
    if (!request->specialization.empty()) {
      std::string bad =
          checkSpecialization(request->specialization, compiled.meta);
      if (!bad.empty()) {
        badKey = true;
        throw Error(bad);
      }
      compiled = compiler.compileRequestToPTX(specializeRequest(
          request->request, compiled.meta.params, request->specialization));
    }
    auto made = std::make_unique<tilec_program>();
    made->metadataJson = compiled.meta.toJson();
    for (const KernelParam &param : compiled.meta.params)
      made->paramTypes.push_back(param.type.str());
    made->compiled = std::move(compiled);
    program = made.release();
  });
  if (badKey)
    status = TILEC_ERROR_INVALID_ARGUMENT;
  *out = program;
  return status;
}

void tilec_program_destroy(tilec_program *program) { delete program; }

const char *tilec_program_binary(const tilec_program *program, size_t *size) {
  if (!program)
    return nullptr;
  if (size)
    *size = program->compiled.binary.size();
  return program->compiled.binary.c_str();
}

const char *tilec_program_metadata(const tilec_program *program) {
  return program ? program->metadataJson.c_str() : nullptr;
}

const char *tilec_program_kernel_name(const tilec_program *program) {
  return program ? program->compiled.meta.kernel.c_str() : nullptr;
}

int tilec_program_num_params(const tilec_program *program) {
  return program ? static_cast<int>(program->compiled.meta.params.size()) : -1;
}

const char *tilec_program_param_name(const tilec_program *program, int index) {
  if (!program || index < 0 ||
      static_cast<std::size_t>(index) >= program->paramTypes.size())
    return nullptr;
  return program->compiled.meta.params[index].name.c_str();
}

const char *tilec_program_param_type(const tilec_program *program, int index) {
  if (!program || index < 0 ||
      static_cast<std::size_t>(index) >= program->paramTypes.size())
    return nullptr;
  return program->paramTypes[index].c_str();
}

int tilec_program_num_warps(const tilec_program *program) {
  return program ? program->compiled.meta.numWarps : -1;
}

uint64_t tilec_program_shared_bytes(const tilec_program *program) {
  return program ? program->compiled.meta.sharedBytes : 0;
}

int tilec_cuda_available(void) {
  try {
    return Device::driverAvailable() ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

tilec_status tilec_device_arch(int ordinal, char *buf, size_t size) {
  if (!buf || size == 0)
    return nullArgument("tilec_device_arch", "buf");
  buf[0] = '\0';
  return guarded(TILEC_ERROR_CUDA, [&] {
    auto [major, minor] = Device::open(ordinal).computeCapability();
    std::string arch = Target::forDevice(major, minor).str();
    if (arch.size() + 1 > size)
      throw Error("tilec_device_arch: the buffer is too small");
    std::memcpy(buf, arch.c_str(), arch.size() + 1);
  });
}

tilec_status tilec_kernel_load(const tilec_program *program, int ordinal,
                               tilec_kernel **out) {
  if (!program || !out)
    return nullArgument("tilec_kernel_load", !program ? "program" : "out");
  *out = nullptr;
  return guarded(TILEC_ERROR_CUDA, [&] {
    Device device = Device::open(ordinal);
    auto made = std::make_unique<tilec_kernel>();
    made->kernel =
        Kernel::load(device, program->compiled.binary, program->compiled.meta);
    *out = made.release();
  });
}

void tilec_kernel_destroy(tilec_kernel *kernel) { delete kernel; }

tilec_status tilec_kernel_launch(const tilec_kernel *kernel, uint32_t gx,
                                 uint32_t gy, uint32_t gz, void *stream,
                                 const void *args, size_t args_size) {
  return tilec_kernel_launch_flags(kernel, gx, gy, gz, stream, args, args_size,
                                   0);
}

tilec_status tilec_kernel_launch_flags(const tilec_kernel *kernel, uint32_t gx,
                                       uint32_t gy, uint32_t gz, void *stream,
                                       const void *args, size_t args_size,
                                       unsigned flags) {
  if (!kernel)
    return nullArgument("tilec_kernel_launch", "kernel");
  LaunchOptions options;
  options.dependentLaunch = (flags & TILEC_LAUNCH_DEPENDENT) != 0;
  auto launch = [&] {
    if (flags & ~TILEC_LAUNCH_DEPENDENT)
      throw Error("tilec_kernel_launch_flags: unknown flags " +
                  std::to_string(flags & ~TILEC_LAUNCH_DEPENDENT));
    kernel->kernel.launchPacked(Grid(gx, gy, gz), args, args_size, stream,
                                options);
  };
  if (!kernel->kernel || args_size != 8 * kernel->kernel.info().params.size() ||
      (args_size && !args) || (flags & ~TILEC_LAUNCH_DEPENDENT))
    return guarded(TILEC_ERROR_INVALID_ARGUMENT, launch);
  return guarded(TILEC_ERROR_CUDA, launch);
}

int tilec_kernel_num_registers(const tilec_kernel *kernel) {
  if (!kernel)
    return -1;
  try {
    return kernel->kernel.numRegisters();
  } catch (...) {
    return -1;
  }
}

} // extern "C"
