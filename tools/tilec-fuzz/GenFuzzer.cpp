//===- GenFuzzer.cpp - libFuzzer entry: generated programs to PTX ---------===//
//
// Decodes the input into a valid .tile kernel with the program generator
// (tools/tile-gen: every byte is a decision) and compiles it to PTX for
// sm_90a and for sm_80. The program is valid by construction, so any
// error diagnostic is a compiler bug (or a generator bug), like a crash:
// the target prints the program and the diagnostics and aborts. It also
// checks that the compiled kernel's parameters are the ones the run
// description lists. `tile-gen --bytes=CRASH_FILE` writes the program of a
// crashing input. Built with -fsanitize=fuzzer when TILEC_BUILD_FUZZERS is
// on and the compiler is clang.
//
//===----------------------------------------------------------------------===//

#include "ProgramGenerator.h"

#include "tilec/Driver/KernelCompiler.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {
[[noreturn]] void fail(const tilec::gen::GeneratedProgram &program,
                       llvm::StringRef arch, llvm::StringRef what,
                       llvm::StringRef diagnostics) {
  llvm::errs() << "tilec-gen-fuzzer: " << what << " (" << arch
               << ")\n--- program ---\n"
               << program.source << "--- diagnostics ---\n"
               << diagnostics
               << "\n(tile-gen --bytes=CRASH_FILE -o DIR/ writes the program "
                  "and its run description)\n";
  std::abort();
}

/// Checks the compiled kernel's ABI against the run description.
void checkMetadata(const tilec::gen::GeneratedProgram &program,
                   const tilec::KernelMetadata &meta, llvm::StringRef arch) {
  std::vector<std::string> expected;
  for (const tilec::gen::ParamSpec &param : program.run.params)
    if (param.kind != tilec::gen::ParamSpec::Kind::Constexpr)
      expected.push_back(param.name);
  bool same =
      meta.params.size() == expected.size() &&
      meta.threadsPerBlock == static_cast<int>(32 * program.run.numWarps);
  for (size_t i = 0; same && i < expected.size(); ++i)
    same = meta.params[i].name == expected[i];
  if (!same)
    fail(program, arch,
         "the compiled kernel's parameters or threads per block differ from "
         "the run description",
         "");
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One compiler for many inputs, made anew now and then (an MLIR context
  // keeps every type and attribute it has seen).
  static const char *const archs[] = {"sm_90a", "sm_80"};
  static std::unique_ptr<tilec::KernelCompiler> compiler;
  static unsigned uses = 0;
  if (!compiler || ++uses % 1000 == 0)
    compiler = std::make_unique<tilec::KernelCompiler>();
  tilec::gen::ByteChoices choices(data, size);
  tilec::gen::GeneratedProgram program =
      tilec::gen::generateProgram(choices, tilec::gen::GenOptions());
  for (int i = 0; i < 2; ++i) {
    std::string diagnostics;
    llvm::raw_string_ostream os(diagnostics);
    std::unique_ptr<tilec::TileSource> source = tilec::TileSource::parse(
        llvm::MemoryBuffer::getMemBufferCopy(program.source, "gen.tile"), os);
    if (!source)
      fail(program, archs[i], "a generated program does not parse",
           diagnostics);
    tilec::CompileOptions options;
    options.arch = archs[i];
    std::optional<tilec::CompileResult> result = compiler->compile(
        *source, program.run.kernel, {}, options, tilec::Stage::PTX, os);
    if (!result)
      fail(program, archs[i], "a generated program does not compile",
           diagnostics);
    checkMetadata(program, result->metadata, archs[i]);
  }
  return 0;
}
