//===- CudaToolkit.cpp - The CUDA toolkit's files and tools ---------------===//
//
// Toolkit roots, in search order: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda.
// libdevice and ptxas each have an environment variable of their own that
// comes first ($TILEC_LIBDEVICE, $TILEC_PTXAS); ptxas is also looked up on
// PATH before the roots.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/CudaToolkit.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tilec {

namespace {
constexpr const char *kLibdeviceFile = "libdevice.10.bc";

/// A place to look: how to name it in messages ("$CUDA_HOME", or empty for
/// a fixed path) and the folder.
struct Candidate {
  std::string what;
  std::string path;
};

/// The toolkit roots with `suffix` appended, in search order.
SmallVector<Candidate> toolkitFolders(StringRef suffix) {
  SmallVector<Candidate> candidates;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::optional<std::string> value = sys::Process::GetEnv(var);
    if (!value || value->empty())
      continue;
    SmallString<256> path(*value);
    sys::path::append(path, suffix);
    candidates.push_back({"$" + std::string(var), std::string(path)});
  }
  SmallString<256> fixed("/usr/local/cuda");
  sys::path::append(fixed, suffix);
  candidates.push_back({"", std::string(fixed)});
  return candidates;
}

/// The places of libdevice: $TILEC_LIBDEVICE, then the toolkit's. A path may
/// name the file or a folder holding it.
SmallVector<Candidate> libdeviceCandidates() {
  SmallVector<Candidate> candidates;
  std::optional<std::string> env = sys::Process::GetEnv("TILEC_LIBDEVICE");
  if (env && !env->empty())
    candidates.push_back({"$TILEC_LIBDEVICE", *env});
  candidates.append(toolkitFolders("nvvm/libdevice"));
  return candidates;
}

} // namespace

std::string resolveLibdevice(StringRef path) {
  if (sys::fs::is_directory(path)) {
    SmallString<256> file(path);
    sys::path::append(file, kLibdeviceFile);
    return sys::fs::is_regular_file(file) ? std::string(file) : "";
  }
  return sys::fs::is_regular_file(path) ? std::string(path) : "";
}
std::string findLibdevice() {
  for (const Candidate &candidate : libdeviceCandidates())
    if (std::string file = resolveLibdevice(candidate.path); !file.empty())
      return file;
  return "";
}

std::string describeLibdeviceSearchPath() {
  std::string text;
  for (const Candidate &candidate : libdeviceCandidates()) {
    if (!text.empty())
      text += ", ";
    text += candidate.what.empty()
                ? candidate.path
                : candidate.what + " (" + candidate.path + ")";
  }
  return text;
}

namespace {
/// A toolkit program: `$envVar` when it names an executable (`none`: act as
/// if there were none), else the first of `names` found on PATH or under a
/// toolkit root's bin/ (each name in both places before the next). Empty if
/// none is found.
std::string findToolkitProgram(const char *envVar,
                               std::initializer_list<StringRef> names) {
  if (std::optional<std::string> env = sys::Process::GetEnv(envVar)) {
    if (*env == "none")
      return "";
    if (sys::fs::can_execute(*env))
      return *env;
  }
  for (StringRef name : names) {
    if (ErrorOr<std::string> found = sys::findProgramByName(name))
      return *found;
    for (const Candidate &candidate : toolkitFolders("bin")) {
      SmallString<256> path(candidate.path);
      sys::path::append(path, name);
      if (sys::fs::can_execute(path))
        return std::string(path);
    }
  }
  return "";
}

/// The temporary files of one run of a toolkit program: `input` holding
/// the data it reads, `output` for what it writes; both removed when this
/// goes away.
struct ToolFiles {
  SmallString<128> input, output;
  ~ToolFiles() {
    if (!input.empty())
      sys::fs::remove(input);
    if (!output.empty())
      sys::fs::remove(output);
  }
};

/// Creates `files` (suffixes `inSuffix`, `outSuffix`) and writes `contents`
/// to its input.
Error createToolFiles(ToolFiles &files, StringRef contents, StringRef inSuffix,
                      StringRef outSuffix) {
  for (auto [suffix, path] : {std::pair{inSuffix, &files.input},
                              std::pair{outSuffix, &files.output}}) {
    if (std::error_code ec =
            sys::fs::createTemporaryFile("tilec", suffix, *path)) {
      path->clear();
      return createStringError("cannot create a temporary file: " +
                               ec.message());
    }
  }
  std::error_code ec;
  raw_fd_ostream os(files.input, ec, sys::fs::OF_None);
  if (!ec) {
    os << contents;
    os.close();
    ec = os.error();
    os.clear_error(); // Reported below, not by the stream's destructor.
  }
  if (ec)
    return createStringError("cannot write '" + files.input.str().str() +
                             "': " + ec.message());
  return Error::success();
}
} // namespace

int parsePtxasRegisters(StringRef log) {
  // "ptxas info    : Used 143 registers, used 1 barriers, ..."
  size_t at = log.find("Used ");
  if (at == StringRef::npos)
    return -1;
  StringRef rest = log.drop_front(at + 5);
  unsigned registers = 0;
  if (rest.consumeInteger(10, registers) || !rest.starts_with(" register") ||
      registers > 255)
    return -1;
  return static_cast<int>(registers);
}

std::string findPtxas() { return findToolkitProgram("TILEC_PTXAS", {"ptxas"}); }

unsigned getPtxasTimeout() {
  if (std::optional<std::string> env =
          sys::Process::GetEnv("TILEC_PTXAS_TIMEOUT")) {
    unsigned seconds;
    if (!StringRef(*env).getAsInteger(10, seconds) && seconds > 0)
      return seconds;
  }
  return kDefaultPtxasTimeoutSeconds;
}

Expected<std::string> assembleCubin(StringRef ptx, Target target,
                                    StringRef kernelName, int *registersUsed) {
  std::string ptxas = findPtxas();
  if (ptxas.empty())
    return createStringError("--emit=cubin and --spare-registers need ptxas "
                             "(CUDA toolkit); set $TILEC_PTXAS or add it to "
                             "PATH");
  ToolFiles files;
  if (Error error = createToolFiles(files, ptx, "ptx", "cubin"))
    return std::move(error);
  std::string arch = "-arch=" + target.str();
  std::string output = files.output.str().str();
  SmallVector<StringRef> args{ptxas, arch, files.input, "-o", output};
  // PTX with source lines (`--line-info`) keeps them in the cubin.
  if (ptx.contains("\t.loc\t"))
    args.push_back("-lineinfo");
  // `-v` reports the resources ("Used 143 registers, ...") on stderr, with
  // the messages, which then go into the error of a failed run.
  SmallString<128> usageLog;
  std::optional<StringRef> redirects[] = {std::nullopt, std::nullopt,
                                          std::nullopt};
  if (registersUsed) {
    if (std::error_code ec =
            sys::fs::createTemporaryFile("tilec", "ptxas-v", usageLog))
      return createStringError("cannot create a temporary file: " +
                               ec.message());
    args.push_back("-v");
    redirects[2] = StringRef(usageLog);
  }
  llvm::scope_exit removeLog([&] {
    if (!usageLog.empty())
      sys::fs::remove(usageLog);
  });
  std::string message;
  unsigned timeout = getPtxasTimeout();
  int rc = sys::ExecuteAndWait(
      ptxas, args, std::nullopt,
      registersUsed ? ArrayRef<std::optional<StringRef>>(redirects)
                    : ArrayRef<std::optional<StringRef>>(),
      timeout, 0, &message);
  // After `timeout` seconds ExecuteAndWait kills the child and says so.
  bool timedOut = rc == -2 && StringRef(message).starts_with("Child timed out");
  if (rc != 0) {
    if (timedOut)
      return createStringError(
          "ptxas did not finish kernel '" + kernelName.str() + "' within " +
          std::to_string(timeout) + " s (" + ptxas +
          "); set $TILEC_PTXAS_TIMEOUT (seconds) to wait longer");
    {
      std::string detail = message;
      if (registersUsed)
        if (ErrorOr<std::unique_ptr<MemoryBuffer>> log =
                MemoryBuffer::getFile(usageLog))
          detail +=
              (detail.empty() ? "" : "\n") + (*log)->getBuffer().trim().str();
      return createStringError("ptxas failed on kernel '" + kernelName.str() +
                               "'" + (detail.empty() ? "" : ": " + detail));
    }
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(files.output);
  if (!buffer)
    return createStringError("cannot read ptxas output");
  StringRef image = (*buffer)->getBuffer();
  if (!image.starts_with("\x7f"
                         "ELF"))
    return createStringError(
        "ptxas (" + ptxas + ") exited with success but wrote " +
        (image.empty() ? std::string("nothing")
                       : "no cubin (" + std::to_string(image.size()) +
                             " bytes, not ELF)") +
        " for kernel '" + kernelName.str() + "'");
  if (registersUsed) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> log =
        MemoryBuffer::getFile(usageLog);
    *registersUsed = log ? parsePtxasRegisters((*log)->getBuffer()) : -1;
    if (*registersUsed < 0)
      return createStringError("ptxas -v (" + ptxas +
                               ") reported no register count for kernel '" +
                               kernelName.str() + "'");
  }
  return image.str();
}

std::string findDisassembler() {
  return findToolkitProgram("TILEC_NVDISASM", {"nvdisasm", "cuobjdump"});
}

Expected<std::string> disassembleCubin(StringRef cubin, StringRef kernelName) {
  std::string tool = findDisassembler();
  if (tool.empty())
    return createStringError(
        "--emit=sass needs nvdisasm or cuobjdump (CUDA toolkit); set "
        "$TILEC_NVDISASM or add one to PATH");
  ToolFiles files;
  if (Error error = createToolFiles(files, cubin, "cubin", "sass"))
    return std::move(error);
  bool cuobjdump = sys::path::filename(tool).starts_with("cuobjdump");
  SmallVector<StringRef> args{tool};
  if (cuobjdump)
    args.push_back("-sass");
  else
    args.push_back("-c");
  args.push_back(files.input);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(files.output),
                                          std::nullopt};
  std::string message;
  int rc = sys::ExecuteAndWait(tool, args, std::nullopt, redirects,
                               getPtxasTimeout(), 0, &message);
  ErrorOr<std::unique_ptr<MemoryBuffer>> text =
      MemoryBuffer::getFile(files.output);
  if (rc != 0 || !text)
    return createStringError(tool + " failed on kernel '" + kernelName.str() +
                             "'" + (message.empty() ? "" : ": " + message));
  return (*text)->getBuffer().str();
}

} // namespace tilec
