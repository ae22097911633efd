//===- OutputWriter.cpp - Where tilec writes its results ------------------===//
//
// Output naming (SPEC section 3) and the output formats: PTX text, the cubin
// (made by the compile's Cubin stage), and an ahead-of-time C++ header
// embedding the image with a typed launch function. Every write is checked:
// files go to a temporary file renamed into place (a failed write leaves
// nothing behind), and a write error is exit code 3 with a message.
//
//===----------------------------------------------------------------------===//

#include "OutputWriter.h"
#include "tilec/Driver/Pipeline.h"
#include "tilec/Target/CudaToolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

namespace {
bool isDirectoryOutput(llvm::StringRef output) {
  return output.ends_with("/") || llvm::sys::fs::is_directory(output);
}

std::string extensionOf(BinaryKind kind) {
  switch (kind) {
  case BinaryKind::PTX:
    return ".ptx";
  case BinaryKind::Cubin:
    return ".cubin";
  case BinaryKind::Header:
    return ".h";
  case BinaryKind::Sass:
    return ".sass";
  }
  return ".ptx";
}

/// One output file being written: its final path and, for a regular file,
/// the temporary file beside it that is renamed into place.
struct StagedFile {
  std::string path;
  std::string temp;
};

/// Writes `contents` to `fd` (closing it); the error, if any.
std::error_code writeAndClose(int fd, llvm::StringRef contents) {
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << contents;
  os.close();
  std::error_code ec = os.error();
  os.clear_error(); // Reported by the caller, not by the destructor.
  return ec;
}

int reportWriteError(llvm::StringRef path, std::error_code ec) {
  llvm::errs() << "error: cannot write '" << path << "': " << ec.message()
               << "\n";
  return kEnvError;
}

/// Writes `contents` for `path`: straight into a device or pipe (/dev/null,
/// /dev/stdout), else into a temporary file beside `path` to be renamed by
/// publish(). On an error nothing is left behind.
int stage(const std::string &path, llvm::StringRef contents,
          StagedFile &staged) {
  staged.path = path;
  llvm::sys::fs::file_status status;
  bool special = !llvm::sys::fs::status(path, status) &&
                 llvm::sys::fs::exists(status) &&
                 !llvm::sys::fs::is_regular_file(status);
  int fd;
  std::error_code ec;
  if (special) {
    ec = llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenAlways,
                                         llvm::sys::fs::OF_None);
    if (!ec)
      ec = writeAndClose(fd, contents);
    return ec ? reportWriteError(path, ec) : kSuccess;
  }
  llvm::SmallString<256> temp;
  ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temp);
  if (ec)
    return reportWriteError(path, ec);
  ec = writeAndClose(fd, contents);
  if (ec) {
    llvm::sys::fs::remove(temp);
    return reportWriteError(path, ec);
  }
  staged.temp = temp.str().str();
  return kSuccess;
}

void discard(llvm::ArrayRef<StagedFile> files) {
  for (const StagedFile &file : files)
    if (!file.temp.empty())
      llvm::sys::fs::remove(file.temp);
}

/// Renames the staged temporary files into place.
int publish(llvm::ArrayRef<StagedFile> files) {
  for (size_t i = 0; i < files.size(); ++i) {
    if (files[i].temp.empty())
      continue;
    if (std::error_code ec =
            llvm::sys::fs::rename(files[i].temp, files[i].path)) {
      discard(files.drop_front(i));
      return reportWriteError(files[i].path, ec);
    }
  }
  return kSuccess;
}

/// Writes every (path, contents) pair, or none of the regular files.
int writeFiles(
    llvm::ArrayRef<std::pair<std::string, llvm::StringRef>> outputs) {
  std::vector<StagedFile> staged;
  for (const auto &[path, contents] : outputs) {
    StagedFile file;
    if (int code = stage(path, contents, file)) {
      discard(staged);
      return code;
    }
    staged.push_back(std::move(file));
  }
  return publish(staged);
}

/// The C++ type of a kernel parameter in the AOT launch function.
std::string cppParamType(const ParamType &type) {
  std::string element = cppTypeName(type.elem);
  if (type.isPointer)
    return "tilec::DevicePtr<" + element + ">";
  return element;
}

/// A C++ identifier for a `.tile` name: the name itself, with a '_'
/// appended when it is a C++ keyword (`.tile` names are Python identifiers,
/// so `new` or `int` are legal there) or starts with "tilec_" (reserved
/// for the generated code's own names).
std::string cppIdentifier(llvm::StringRef name) {
  static const char *const kKeywords[] = {
      "alignas",       "alignof",     "and",
      "and_eq",        "asm",         "auto",
      "bitand",        "bitor",       "bool",
      "break",         "case",        "catch",
      "char",          "char16_t",    "char32_t",
      "char8_t",       "class",       "compl",
      "concept",       "const",       "consteval",
      "constexpr",     "constinit",   "const_cast",
      "continue",      "co_await",    "co_return",
      "co_yield",      "decltype",    "default",
      "delete",        "do",          "double",
      "dynamic_cast",  "else",        "enum",
      "explicit",      "export",      "extern",
      "false",         "float",       "for",
      "friend",        "goto",        "if",
      "inline",        "int",         "long",
      "mutable",       "namespace",   "new",
      "noexcept",      "not",         "not_eq",
      "nullptr",       "operator",    "or",
      "or_eq",         "private",     "protected",
      "public",        "register",    "reinterpret_cast",
      "requires",      "return",      "short",
      "signed",        "sizeof",      "static",
      "static_assert", "static_cast", "struct",
      "switch",        "template",    "this",
      "thread_local",  "throw",       "true",
      "try",           "typedef",     "typeid",
      "typename",      "union",       "unsigned",
      "using",         "virtual",     "void",
      "volatile",      "wchar_t",     "while",
      "xor",           "xor_eq"};
  for (const char *keyword : kKeywords)
    if (name == keyword)
      return name.str() + "_";
  if (name.starts_with("tilec_"))
    return name.str() + "_";
  return name.str();
}

/// Writes `image` as the lines of a C++ byte array's initializer.
void writeBytes(llvm::raw_ostream &os, llvm::StringRef image, bool nul) {
  for (size_t i = 0; i < image.size(); ++i) {
    if (i % 16 == 0)
      os << "\n  ";
    os << static_cast<unsigned>(static_cast<unsigned char>(image[i])) << ",";
  }
  if (nul)
    os << " 0,"; // PTX is loaded as a NUL-terminated string.
}

/// The end of an AOT header: the typed launch function of kernel `meta`
/// (C++ name `name`), the namespace's and the include guard's ends.
void writeLaunchAndEnd(llvm::raw_ostream &os, const KernelMetadata &meta,
                       llvm::StringRef name, llvm::StringRef guard) {
  os << "/// Launches '" << meta.kernel
     << "' on \\p tilec_grid programs with typed arguments, on\n"
     << "/// \\p tilec_stream (default: the default stream).\n"
     << "inline void launch_" << name
     << "(const tilec::Kernel &tilec_kernel, tilec::Grid tilec_grid";
  for (const KernelParam &param : meta.params)
    os << ",\n    " << cppParamType(param.type) << " "
       << cppIdentifier(param.name);
  os << ",\n    const tilec::Stream &tilec_stream = tilec::Stream()) {\n"
     << "  tilec_kernel.launch(tilec_grid";
  for (const KernelParam &param : meta.params)
    os << ", " << cppIdentifier(param.name);
  os << ", tilec_stream);\n}\n} // namespace tilec_aot\n\n#endif // " << guard
     << "\n";
}

/// An AOT header: the image as a byte array, the metadata, and a loader and
/// a typed launch function in namespace tilec_aot. It needs only the
/// runtime (tilec::runtime) at run time: no compiler, no CUDA toolkit.
std::string makeHeader(const CompileResult &kernel, llvm::StringRef image,
                       bool isCubin) {
  const KernelMetadata &meta = kernel.metadata;
  std::string name = cppIdentifier(meta.kernel);
  std::string guard = "TILEC_AOT_" + llvm::StringRef(name).upper() + "_H";
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "// Generated by " << getVersionString() << ": kernel '" << meta.kernel
     << "' for " << meta.arch << " (" << (isCubin ? "cubin" : "PTX") << ", "
     << image.size() << " bytes). Do not edit.\n"
     << "//\n"
     << "//   " << meta.signature() << "\n"
     << "//   " << meta.threadsPerBlock << " threads per program, "
     << meta.sharedBytes << " bytes of dynamic shared memory\n"
     << "//\n"
     << "//   tilec::Kernel k = tilec_aot::load_" << name << "(device);\n"
     << "//   tilec_aot::launch_" << name << "(k, grid";
  for (const KernelParam &param : meta.params)
    os << ", " << cppIdentifier(param.name);
  os << ");\n"
     << "//\n"
     << "// Needs only the tilec runtime: link tilec::runtime (or "
        "tilec::tilec).\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"tilec/tilec.h\"\n\n#include <cstdint>\n#include "
        "<string_view>\n\n"
     << "namespace tilec_aot {\n"
     << "namespace " << name << "_detail {\n"
     << "/// The " << (isCubin ? "cubin" : "PTX") << " image.\n"
     << "inline const unsigned char image[] = {";
  writeBytes(os, image, !isCubin);
  os << "\n};\n"
     << "/// The image's size in bytes (without the PTX's NUL).\n"
     << "inline constexpr std::size_t imageSize = " << image.size() << ";\n"
     << "/// The SPEC section 2 metadata.\n"
     << "inline const char metadata[] = R\"TILEC_JSON(" << meta.toJson()
     << ")TILEC_JSON\";\n"
     << "} // namespace " << name << "_detail\n\n"
     << "/// The target the kernel was compiled for.\n"
     << "inline constexpr const char *" << name << "_arch = \"" << meta.arch
     << "\";\n"
     << "/// Threads per program (32 * num_warps).\n"
     << "inline constexpr int " << name
     << "_threads_per_block = " << meta.threadsPerBlock << ";\n\n"
     << "/// Loads kernel '" << meta.kernel
     << "' on \\p device. Each call loads the module again: keep the "
        "result.\n"
     << "inline tilec::Kernel load_" << name << "(tilec::Device &device) {\n"
     << "  namespace d = " << name << "_detail;\n"
     << "  return tilec::Kernel::load(\n"
     << "      device,\n"
     << "      std::string_view(reinterpret_cast<const char *>(d::image), "
        "d::imageSize),\n"
     << "      tilec::KernelMetadata::fromJson(d::metadata, \"" << meta.kernel
     << " (AOT header)\"));\n}\n\n";
  writeLaunchAndEnd(os, meta, name, guard);
  return out;
}
} // namespace

int tilec::writeStandardOutput(llvm::StringRef text) {
  llvm::raw_fd_ostream &os = llvm::outs();
  os << text;
  os.flush();
  return checkStandardOutput();
}

int tilec::checkStandardOutput() {
  llvm::raw_fd_ostream &os = llvm::outs();
  os.flush();
  if (!os.has_error())
    return kSuccess;
  std::error_code ec = os.error();
  os.clear_error(); // Reported here, not by LLVM's exit handler.
  llvm::errs() << "error: cannot write to standard output: " << ec.message()
               << "\n";
  return kEnvError;
}

int tilec::writeOutputFile(llvm::StringRef path, llvm::StringRef contents) {
  return writeFiles({{path.str(), contents}});
}

int tilec::writeTextOutput(llvm::StringRef text, llvm::StringRef output) {
  if (output.empty() || output == "-")
    return writeStandardOutput(text);
  return writeOutputFile(output, text);
}

namespace {
/// The file a kernel's output goes to: `name` in the current directory (no
/// -o), in the -o directory, or the -o file (one kernel only).
int getOutputPath(const std::string &name, llvm::StringRef output,
                  bool multiple, std::string &path) {
  if (output.empty()) {
    path = name;
  } else if (isDirectoryOutput(output)) {
    llvm::sys::fs::create_directories(output);
    llvm::SmallString<256> joined(output);
    llvm::sys::path::append(joined, name);
    path = joined.str().str();
  } else if (multiple) {
    llvm::errs() << "error: several kernels need -o DIR/ (or -k KERNEL)\n";
    return kUsageError;
  } else {
    path = output.str();
  }
  return kSuccess;
}

/// One AOT header for one kernel compiled for several targets: an image
/// and metadata per target, and a loader that picks, for the device it is
/// given, the image of the highest capability that runs there (an
/// architecture-specific one only on its own capability, a cubin on its
/// major version, PTX on any newer GPU), preferring the arch-specific one
/// at equal capability.
std::string makeMultiVariantHeader(llvm::ArrayRef<HeaderVariant> variants) {
  const KernelMetadata &meta = variants.front().result.metadata;
  std::string name = cppIdentifier(meta.kernel);
  std::string guard = "TILEC_AOT_" + llvm::StringRef(name).upper() + "_H";
  std::string archs, keys;
  for (const HeaderVariant &variant : variants) {
    if (variant.key.empty())
      archs += (archs.empty() ? "" : ",") + variant.result.metadata.arch;
    else if (variant.result.metadata.arch == meta.arch)
      keys += (keys.empty() ? "" : ",") + variant.key;
  }
  // The generic variant's key: aligned pointers, nothing of integers.
  std::string genericKey;
  for (const KernelParam &param : meta.params)
    genericKey += param.type.isPointer ? 'A' : '-';
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "// Generated by " << getVersionString() << ": kernel '" << meta.kernel
     << "' for " << archs;
  if (!keys.empty())
    os << ", specialized for " << keys;
  os << ". Do not edit.\n"
     << "//\n"
     << "//   " << meta.signature() << "\n"
     << "//\n"
     << "//   tilec::Kernel k = tilec_aot::load_" << name
     << "(device);  // the device's image\n"
     << "//   tilec_aot::launch_" << name << "(k, grid";
  for (const KernelParam &param : meta.params)
    os << ", " << cppIdentifier(param.name);
  os << ");\n"
     << "//\n"
     << "// Needs only the tilec runtime: link tilec::runtime (or "
        "tilec::tilec).\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"tilec/tilec.h\"\n\n#include <cstdint>\n#include "
        "<memory>\n#include <mutex>\n#include <string>\n#include "
        "<string_view>\n#include <vector>\n\n"
     << "namespace tilec_aot {\n"
     << "namespace " << name << "_detail {\n";
  for (size_t v = 0; v < variants.size(); ++v) {
    const CompileResult &kernel = variants[v].result;
    bool isCubin = !kernel.cubin.empty();
    llvm::StringRef image = isCubin ? kernel.cubin : kernel.text;
    os << "/// " << kernel.metadata.arch << " "
       << (variants[v].key.empty() ? "generic" : variants[v].key) << ": the "
       << (isCubin ? "cubin" : "PTX") << " image and its metadata.\n"
       << "inline const unsigned char image_" << v << "[] = {";
    writeBytes(os, image, !isCubin);
    os << "\n};\n"
       << "inline const char metadata_" << v << "[] = R\"TILEC_JSON("
       << kernel.metadata.toJson() << ")TILEC_JSON\";\n";
  }
  os << "/// One image per target and specialization (key \"\": as compiled).\n"
     << "struct Image {\n  const char *arch;\n  int capability;\n"
     << "  bool archSpecific;\n  bool cubin;\n  const char *key;\n"
     << "  const unsigned char *bytes;\n  std::size_t size;\n"
     << "  const char *metadata;\n};\n"
     << "inline const Image images[] = {\n";
  for (size_t v = 0; v < variants.size(); ++v) {
    const CompileResult &kernel = variants[v].result;
    std::string arch = kernel.metadata.arch;
    std::optional<Target> target = Target::parseAny(arch);
    bool isCubin = !kernel.cubin.empty();
    os << "    {\"" << arch << "\", " << (target ? target->getCapability() : 0)
       << ", " << (target && target->isArchSpecific() ? "true" : "false")
       << ", " << (isCubin ? "true" : "false") << ", \"" << variants[v].key
       << "\", image_" << v << ", "
       << (isCubin ? kernel.cubin.size() : kernel.text.size()) << ", metadata_"
       << v << "},\n";
  }
  os << "};\n"
     << "inline tilec::Kernel loadImage(tilec::Device &device, const Image "
        "&image) {\n"
     << "  return tilec::Kernel::load(\n"
     << "      device,\n"
     << "      std::string_view(reinterpret_cast<const char *>(image.bytes), "
        "image.size),\n"
     << "      tilec::KernelMetadata::fromJson(image.metadata, \""
     << meta.kernel << " (AOT header)\"));\n}\n"
     << "} // namespace " << name << "_detail\n\n"
     << "/// The targets the kernel was compiled for.\n"
     << "inline constexpr const char *" << name << "_archs = \"" << archs
     << "\";\n"
     << "/// The argument specializations compiled besides the generic "
        "variant.\n"
     << "inline constexpr const char *" << name << "_specializations = \""
     << keys << "\";\n\n"
     << "/// Loads kernel '" << meta.kernel
     << "' on \\p device from the image for it (each call loads\n"
     << "/// the module again: keep the result). Throws tilec::Error when no "
        "image runs there.\n"
     << "/// The kernel runs, at each launch, the specialization that fits "
        "the arguments\n"
     << "/// best (tilec::pickSpecialization), loaded on first use.\n"
     << "inline tilec::Kernel load_" << name << "(tilec::Device &device) {\n"
     << "  namespace d = " << name << "_detail;\n"
     << "  auto [major, minor] = device.computeCapability();\n"
     << "  int capability = major * 10 + minor;\n"
     << "  const d::Image *best = nullptr;\n"
     << "  for (const d::Image &image : d::images) {\n"
     << "    bool runs = image.archSpecific ? image.capability == capability\n"
     << "                : image.cubin ? image.capability / 10 == major &&\n"
     << "                                    image.capability <= capability\n"
     << "                              : image.capability <= capability;\n"
     << "    if (*image.key == 0 && runs &&\n"
     << "        (!best || image.capability > best->capability ||\n"
     << "         (image.capability == best->capability && "
        "image.archSpecific)))\n"
     << "      best = &image;\n"
     << "  }\n"
     << "  if (!best)\n"
     << "    throw tilec::Error(\"tilec_aot: kernel '" << meta.kernel
     << "' has no image for sm_\" +\n"
     << "                       std::to_string(capability) + \" (it has "
     << archs << ")\");\n"
     << "  tilec::Kernel generic = d::loadImage(device, *best);\n";
  if (keys.empty()) {
    os << "  return generic;\n}\n\n";
  } else {
    os << "  // The generic variant and this target's specializations.\n"
       << "  auto variants = std::make_shared<std::vector<const d::Image "
          "*>>();\n"
       << "  std::vector<std::string> keys{\"" << genericKey << "\"};\n"
       << "  variants->push_back(best);\n"
       << "  for (const d::Image &image : d::images)\n"
       << "    if (*image.key && std::string_view(image.arch) == best->arch) "
          "{\n"
       << "      variants->push_back(&image);\n"
       << "      keys.emplace_back(image.key);\n"
       << "    }\n"
       << "  // Each image is loaded once, whichever launch keys pick it.\n"
       << "  auto loaded = std::make_shared<std::vector<tilec::Kernel>>(\n"
       << "      variants->size());\n"
       << "  (*loaded)[0] = generic;\n"
       << "  auto mutex = std::make_shared<std::mutex>();\n"
       << "  return tilec::Kernel::specializing(\n"
       << "      generic, keys[0],\n"
       << "      [device, variants, keys, loaded, mutex](const std::string "
          "&key) mutable {\n"
       << "        int pick = tilec::pickSpecialization(keys, key);\n"
       << "        std::size_t v = pick < 0 ? 0 : "
          "static_cast<std::size_t>(pick);\n"
       << "        std::lock_guard<std::mutex> lock(*mutex);\n"
       << "        if (!(*loaded)[v])\n"
       << "          (*loaded)[v] = d::loadImage(device, *(*variants)[v]);\n"
       << "        return (*loaded)[v];\n"
       << "      });\n}\n\n";
  }
  writeLaunchAndEnd(os, meta, name, guard);
  return out;
}
} // namespace

int tilec::writeMultiVariantHeader(llvm::ArrayRef<HeaderVariant> variants,
                                   llvm::StringRef output, bool multiple) {
  std::string contents = makeMultiVariantHeader(variants);
  if (output == "-")
    return writeStandardOutput(contents);
  std::string path;
  if (int code = getOutputPath(variants.front().result.metadata.kernel + ".h",
                               output, multiple, path))
    return code;
  return writeOutputFile(path, contents);
}

int tilec::writeKernelOutput(const CompileResult &kernel, BinaryKind kind,
                             llvm::StringRef output, bool multiple) {
  std::string contents = kernel.text;
  bool haveCubin = !kernel.cubin.empty();
  if (kind == BinaryKind::Cubin)
    contents = kernel.cubin;
  else if (kind == BinaryKind::Header)
    contents =
        makeHeader(kernel, haveCubin ? kernel.cubin : kernel.text, haveCubin);
  else if (kind == BinaryKind::Sass) {
    llvm::Expected<std::string> sass =
        disassembleCubin(kernel.cubin, kernel.metadata.kernel);
    if (!sass) {
      llvm::errs() << "error: " << llvm::toString(sass.takeError()) << "\n";
      return kEnvError;
    }
    contents = std::move(*sass);
  }
  if (output == "-")
    return writeStandardOutput(contents);
  std::string path;
  if (int code = getOutputPath(kernel.metadata.kernel + extensionOf(kind),
                               output, multiple, path))
    return code;
  llvm::SmallString<256> json(path);
  llvm::sys::path::replace_extension(json, ".json");
  std::string metadata = kernel.metadata.toJson();
  // Both files or neither.
  return writeFiles({{path, contents}, {json.str().str(), metadata}});
}
