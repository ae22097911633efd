//===- tilegpu-gen.cpp - Write or compile random valid tilegpu modules ----===//
//
// tilegpu-gen [--seed=N] [--count=K] [--compile [--cubin]] [--bytes=FILE]
// writes the generated laid-out modules of seeds N, N+1, ...
// (LayoutProgramGenerator.h), separated by `// -----`, or with --compile
// compiles each to PTX (--cubin: and through ptxas) for sm_80 and sm_90a
// in process and reports the
// first that fails (its module and diagnostics; exit 1). --bytes decodes a
// tilec-tilegpu-fuzzer input into the module the fuzzer compiled.
//
//===----------------------------------------------------------------------===//

#include "CompileLayoutProgram.h"

#include "tilec/Driver/KernelCompiler.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec::gen;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("tilegpu-gen options");
cl::opt<bool> compile("compile",
                      cl::desc("Compile each module to PTX for sm_80 and "
                               "sm_90a instead of printing it"),
                      cl::cat(category));
cl::opt<bool> cubin("cubin",
                    cl::desc("With --compile, go on to cubins (ptxas checks "
                             "the PTX)"),
                    cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("The seed of the first module"),
                       cl::init(1), cl::cat(category));
cl::opt<unsigned> count("count", cl::desc("Modules (seeds SEED, SEED+1, ...)"),
                        cl::init(1), cl::cat(category));
cl::opt<std::string>
    bytesFile("bytes",
              cl::desc("Decode the module from this file's bytes (a "
                       "tilec-tilegpu-fuzzer input) instead of a seed"),
              cl::value_desc("FILE"), cl::cat(category));
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tilegpu-gen: random valid tilegpu modules\n");
  std::string bytes;
  if (!bytesFile.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(bytesFile);
    if (!buffer) {
      llvm::errs() << "tilegpu-gen: cannot read " << bytesFile << "\n";
      return 2;
    }
    bytes = (*buffer)->getBuffer().str();
  }
  std::unique_ptr<tilec::KernelCompiler> compiler;
  unsigned total = bytesFile.empty() ? count : 1;
  for (unsigned i = 0; i < total; ++i) {
    // Where the module comes from, for its header and messages.
    std::string origin = bytesFile.empty() ? "seed " + std::to_string(seed + i)
                                           : "bytes of " + bytesFile;
    LayoutProgram program;
    if (bytesFile.empty()) {
      SeededChoices choices(seed + i);
      program = generateLayoutProgram(choices, LayoutGenOptions());
    } else {
      ByteChoices choices(reinterpret_cast<const uint8_t *>(bytes.data()),
                          bytes.size());
      program = generateLayoutProgram(choices, LayoutGenOptions());
    }
    if (!compile) {
      if (i)
        llvm::outs() << "\n// -----\n\n";
      llvm::outs() << "// " << origin << "\n" << program.text;
      continue;
    }
    // A fresh context now and then: one keeps every type it has seen.
    if (!compiler || i % 200 == 0)
      compiler = std::make_unique<tilec::KernelCompiler>();
    std::string arch, diagnostics;
    if (!compileLayoutProgram(*compiler, program, cubin, arch, diagnostics)) {
      llvm::errs() << "tilegpu-gen: the module of " << origin
                   << " does not compile for " << arch << "\n--- module ---\n"
                   << program.text << "--- diagnostics ---\n"
                   << diagnostics << "\n";
      return 1;
    }
  }
  if (compile)
    llvm::outs() << "tilegpu-gen: " << total << " modules compiled to "
                 << (cubin ? "cubins" : "PTX") << " for sm_80 and sm_90a\n";
  return 0;
}
