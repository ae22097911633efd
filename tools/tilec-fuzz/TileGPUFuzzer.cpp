//===- TileGPUFuzzer.cpp - libFuzzer entry: generated tilegpu modules -----===//
//
// Decodes the input into a valid laid-out tilegpu module with the layout
// generator (tools/tilegpu-gen: every byte is a decision: shapes, layouts,
// ops) and compiles it to PTX for sm_80 and sm_90a as `tilec FILE.mlir`
// does. The module is valid by construction, so any error diagnostic is a
// compiler bug (or a generator bug), like a crash: the target prints the
// module and the diagnostics and aborts. `tilegpu-gen --bytes=CRASH_FILE`
// prints the module of a crashing input. Built with -fsanitize=fuzzer when
// TILEC_BUILD_FUZZERS is on and the compiler is clang.
//
//===----------------------------------------------------------------------===//

#include "CompileLayoutProgram.h"

#include "tilec/Driver/KernelCompiler.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One compiler for many inputs, made anew now and then (an MLIR context
  // keeps every type and attribute it has seen).
  static std::unique_ptr<tilec::KernelCompiler> compiler;
  static unsigned uses = 0;
  if (!compiler || ++uses % 1000 == 0)
    compiler = std::make_unique<tilec::KernelCompiler>();
  tilec::gen::ByteChoices choices(data, size);
  tilec::gen::LayoutProgram program = tilec::gen::generateLayoutProgram(
      choices, tilec::gen::LayoutGenOptions());
  std::string arch, diagnostics;
  if (!tilec::gen::compileLayoutProgram(*compiler, program, /*assemble=*/false,
                                        arch, diagnostics)) {
    llvm::errs() << "tilec-tilegpu-fuzzer: a generated module does not "
                    "compile ("
                 << arch << ")\n--- module ---\n"
                 << program.text << "--- diagnostics ---\n"
                 << diagnostics
                 << "\n(tilegpu-gen --bytes=CRASH_FILE prints the module)\n";
    std::abort();
  }
  return 0;
}
