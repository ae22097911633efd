//===- PipelineFuzzer.cpp - libFuzzer entry for the whole compiler --------===//
//
// Compiles every kernel of the input (.tile text; default constexprs) all
// the way to PTX for sm_90a, through the tile and tilegpu passes, the LLVM
// lowering and NVPTX: the inputs that reach the passes are the valid
// programs libFuzzer derives from the seed corpus (the examples and the
// test kernels). Errors in the input are fine; a crash, an assertion or a
// sanitizer report is a bug. Built with -fsanitize=fuzzer when
// TILEC_BUILD_FUZZERS is on and the compiler is clang.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/KernelCompiler.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One compiler for many inputs (its MLIR context stays warm), made anew
  // now and then: the context keeps every type and attribute it has seen.
  static std::unique_ptr<tilec::KernelCompiler> compiler;
  static unsigned uses = 0;
  if (!compiler || ++uses % 2000 == 0)
    compiler = std::make_unique<tilec::KernelCompiler>();
  tilec::CompileOptions options;
  options.arch = "sm_90a";
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  std::string sink;
  llvm::raw_string_ostream os(sink);
  std::unique_ptr<tilec::TileSource> source = tilec::TileSource::parse(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), os);
  if (!source)
    return 0;
  // At most two kernels per input keep each run short.
  std::vector<std::string> kernels = source->getKernelNames();
  if (kernels.size() > 2)
    kernels.resize(2);
  for (const std::string &kernel : kernels)
    (void)compiler->compile(*source, kernel, {}, options, tilec::Stage::PTX,
                            os);
  return 0;
}
