//===- CompileLayoutProgram.cpp - Compile a generated tilegpu module ------===//
//
// Parses the module anew for each target (a compile runs its passes on the
// parsed module) and compiles its kernel to PTX or a cubin.
//
//===----------------------------------------------------------------------===//

#include "CompileLayoutProgram.h"

#include "tilec/Driver/KernelCompiler.h"
#include "tilec/Driver/TileGPUSource.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

bool tilec::gen::compileLayoutProgram(KernelCompiler &compiler,
                                      const LayoutProgram &program,
                                      bool assemble, std::string &failedArch,
                                      std::string &diagnostics) {
  static const char *const archs[] = {"sm_80", "sm_90a"};
  for (const char *arch : archs) {
    llvm::raw_string_ostream os(diagnostics);
    std::unique_ptr<TileGPUSource> source = TileGPUSource::parse(
        llvm::MemoryBuffer::getMemBufferCopy(program.text, "lgen.mlir"),
        compiler.getContext(), os);
    CompileOptions options;
    options.arch = arch;
    options.numWarps = static_cast<int>(program.numWarps);
    if (!source ||
        !compiler.compile(*source, program.kernel, options,
                          assemble ? Stage::Cubin : Stage::PTX, os)) {
      failedArch = arch;
      return false;
    }
  }
  return true;
}
