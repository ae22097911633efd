//===- Interpret.cpp - tilec --interpret ----------------------------------===//
//
// The command-line side of the reference interpreter: `--grid X[,Y[,Z]]`
// and one `--arg NAME=SPEC` per run-time parameter (the syntax of
// tilec/Support/LaunchArgs.h, shared with tile-run), and the outputs
// `--dump=NAME` (the first elements on stdout), `--dump=NAME=PATH` and
// `--dump-all=DIR` (raw little-endian bytes).
//
//===----------------------------------------------------------------------===//

#include "Interpret.h"
#include "OutputWriter.h"

#include "tilec/Driver/KernelInterpreter.h"
#include "tilec/Support/LaunchArgs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <new>

using namespace tilec;

namespace {
/// The interpreter's arguments over the buffers of `launch`.
std::vector<InterpreterArg> toInterpreterArgs(LaunchArgs &launch) {
  std::vector<InterpreterArg> args;
  for (const LaunchArg &arg : launch.args) {
    switch (arg.kind) {
    case LaunchArg::Kind::Buffer: {
      HostBuffer &buffer = launch.buffers[arg.buffer];
      args.push_back(InterpreterArg::buffer(buffer.elem, buffer.bytes));
      break;
    }
    case LaunchArg::Kind::Int:
      args.push_back(InterpreterArg::integer(arg.intValue));
      break;
    case LaunchArg::Kind::Float:
      args.push_back(InterpreterArg::real(arg.floatValue));
      break;
    }
  }
  return args;
}

//===----------------------------------------------------------------------===//
// --dump
//===----------------------------------------------------------------------===//

void printBuffer(const HostBuffer &buffer, unsigned maxCount,
                 llvm::raw_ostream &os) {
  std::size_t count = buffer.size();
  std::size_t shown =
      maxCount == 0 ? count : std::min<std::size_t>(count, maxCount);
  os << buffer.name << ": " << scalarTypeName(buffer.elem) << "[" << count
     << "] = [";
  for (std::size_t i = 0; i < shown; ++i)
    os << (i ? ", " : "") << formatElement(buffer, i);
  if (shown < count)
    os << (shown ? ", ...]" : "...]");
  else
    os << "]";
  os << "\n";
}

/// Writes the raw bytes of `buffer` to `path`; false after an error.
bool writeBuffer(const HostBuffer &buffer, llvm::StringRef path) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(buffer.bytes.data()),
                        buffer.bytes.size());
  return writeOutputFile(path, bytes) == kSuccess;
}

/// Checks the `--dump` names before running; returns (name, path) pairs.
std::vector<std::pair<std::string, std::string>>
parseDumps(llvm::ArrayRef<std::string> dumps, LaunchArgs &launch) {
  std::vector<std::pair<std::string, std::string>> result;
  for (const std::string &dump : dumps) {
    auto [name, path] = llvm::StringRef(dump).split('=');
    if (!launch.findBuffer(name))
      throw LaunchArgError("--dump=" + dump + ": '" + name.str() +
                           "' is not a buffer argument of the kernel");
    result.emplace_back(name.str(), path.str());
  }
  return result;
}

/// Prints and writes the dumps after a run; returns an exit code.
int writeDumps(const InterpretRequest &request,
               llvm::ArrayRef<std::pair<std::string, std::string>> dumps,
               LaunchArgs &launch) {
  for (const auto &[name, path] : dumps) {
    HostBuffer &buffer = *launch.findBuffer(name);
    if (path.empty()) {
      printBuffer(buffer, request.dumpCount, llvm::outs());
      if (int code = checkStandardOutput())
        return code;
    } else if (!writeBuffer(buffer, path))
      return kEnvError;
  }
  if (request.dumpAll.empty())
    return kSuccess;
  if (std::error_code error =
          llvm::sys::fs::create_directories(request.dumpAll)) {
    llvm::errs() << "error: cannot create '" << request.dumpAll
                 << "': " << error.message() << "\n";
    return kEnvError;
  }
  for (const HostBuffer &buffer : launch.buffers) {
    llvm::SmallString<128> path(request.dumpAll);
    llvm::sys::path::append(path, buffer.name + ".bin");
    if (!writeBuffer(buffer, path))
      return kEnvError;
  }
  return kSuccess;
}
} // namespace

int tilec::runInterpret(TileSource &source, llvm::StringRef kernel,
                        const ConstexprBindings &bindings,
                        const InterpretRequest &request) {
  InterpreterOptions options;
  options.maxOps = request.maxOps;
  try {
    options.grid = parseGrid(request.grid);
  } catch (const LaunchArgError &error) {
    llvm::errs() << "error: " << error.what() << "\n";
    return kUsageError;
  }
  std::unique_ptr<KernelInterpreter> interpreter =
      KernelInterpreter::create(source, kernel, bindings, llvm::errs());
  if (!interpreter)
    return kInputError;
  LaunchArgs launch;
  std::vector<std::pair<std::string, std::string>> dumps;
  {
    // InitLLVM's out-of-memory handler aborts; while the buffers are made, an
    // allocation that fails throws, and is reported below.
    struct ThrowingNewHandler {
      std::new_handler saved = std::set_new_handler(nullptr);
      ~ThrowingNewHandler() { std::set_new_handler(saved); }
    } throwingNewHandler;
    try {
      launch = makeLaunchArgs(interpreter->getParams().vec(), request.args);
      dumps = parseDumps(request.dumps, launch);
    } catch (const LaunchArgError &error) {
      llvm::errs() << "error: " << error.what() << "\n";
      return kUsageError;
    } catch (const std::bad_alloc &) {
      llvm::errs() << "error: not enough memory for the --arg buffers\n";
      return kEnvError;
    }
  }
  std::vector<InterpreterArg> args = toInterpreterArgs(launch);
  if (!interpreter->run(args, options, llvm::errs()))
    return kInputError;
  if (int code = checkStandardOutput()) // device_print's output.
    return code;
  return writeDumps(request, dumps, launch);
}
