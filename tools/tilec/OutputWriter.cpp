//===- OutputWriter.cpp - Where tilec writes its results ------------------===//
//
// Output naming (SPEC section 3) and the binary formats: PTX text, cubin
// through ptxas, and an ahead-of-time C++ header embedding the image with a
// typed launch function.
//
//===----------------------------------------------------------------------===//

#include "OutputWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
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
  }
  return ".ptx";
}

int writeFile(llvm::StringRef path, llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    llvm::errs() << "error: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return kEnvError;
  }
  os << contents;
  return kSuccess;
}

/// Runs ptxas on `ptx`; the cubin bytes, or an error message.
int runPtxas(const CompileResult &kernel, std::string &cubin) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    llvm::errs() << "error: --emit=cubin needs ptxas (CUDA toolkit); set "
                    "$TILEC_PTXAS or add it to PATH\n";
    return kEnvError;
  }
  llvm::SmallString<128> ptxPath, cubinPath;
  llvm::sys::fs::createTemporaryFile("tilec", "ptx", ptxPath);
  llvm::sys::fs::createTemporaryFile("tilec", "cubin", cubinPath);
  if (int code = writeFile(ptxPath, kernel.text))
    return code;
  std::string arch = "-arch=" + kernel.metadata.arch;
  std::string output = cubinPath.str().str();
  llvm::SmallVector<llvm::StringRef> args{ptxas, arch, ptxPath, "-o", output};
  std::string message;
  int rc =
      llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, {}, 0, 0, &message);
  llvm::sys::fs::remove(ptxPath);
  if (rc != 0) {
    llvm::errs() << "error: ptxas failed on kernel '" << kernel.metadata.kernel
                 << "'" << (message.empty() ? "" : ": " + message) << "\n";
    llvm::sys::fs::remove(cubinPath);
    return kEnvError;
  }
  auto buffer = llvm::MemoryBuffer::getFile(cubinPath);
  llvm::sys::fs::remove(cubinPath);
  if (!buffer) {
    llvm::errs() << "error: cannot read ptxas output\n";
    return kEnvError;
  }
  cubin = (*buffer)->getBuffer().str();
  return kSuccess;
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
  for (size_t i = 0; i < image.size(); ++i) {
    if (i % 16 == 0)
      os << "\n  ";
    os << static_cast<unsigned>(static_cast<unsigned char>(image[i])) << ",";
  }
  if (!isCubin)
    os << " 0,"; // PTX is loaded as a NUL-terminated string.
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
     << " (AOT header)\"));\n}\n\n"
     << "/// Launches '" << meta.kernel
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
  return out;
}
} // namespace

std::string tilec::findPtxas() {
  if (const char *env = std::getenv("TILEC_PTXAS")) {
    // TILEC_PTXAS=none: act as if there were no ptxas (headers embed PTX).
    if (llvm::StringRef(env) == "none")
      return "";
    if (llvm::sys::fs::can_execute(env))
      return env;
  }
  if (auto found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(var)) {
      std::string candidate = std::string(root) + "/bin/ptxas";
      if (llvm::sys::fs::can_execute(candidate))
        return candidate;
    }
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  return "";
}

int tilec::writeTextOutput(llvm::StringRef text, llvm::StringRef output) {
  if (output.empty() || output == "-") {
    llvm::outs() << text;
    return kSuccess;
  }
  return writeFile(output, text);
}

int tilec::writeKernelOutput(const CompileResult &kernel, BinaryKind kind,
                             llvm::StringRef output, bool multiple) {
  std::string contents = kernel.text;
  if (kind != BinaryKind::PTX) {
    std::string cubin;
    bool haveCubin = false;
    if (kind == BinaryKind::Cubin || !findPtxas().empty()) {
      if (int code = runPtxas(kernel, cubin))
        return code;
      haveCubin = true;
    }
    contents =
        kind == BinaryKind::Cubin
            ? cubin
            : makeHeader(kernel, haveCubin ? cubin : kernel.text, haveCubin);
  }
  if (output == "-") {
    llvm::outs() << contents;
    return kSuccess;
  }
  std::string path;
  std::string name = kernel.metadata.kernel + extensionOf(kind);
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
  if (int code = writeFile(path, contents))
    return code;
  llvm::SmallString<256> json(path);
  llvm::sys::path::replace_extension(json, ".json");
  return writeFile(json, kernel.metadata.toJson());
}
