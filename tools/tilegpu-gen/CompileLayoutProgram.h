//===- CompileLayoutProgram.h - Compile a generated module ------*- C++ -*-===//
//
// What tilegpu-gen --compile and tilec-tilegpu-fuzzer check of a generated
// module: it parses and verifies as tilegpu input and its kernel compiles
// to PTX for sm_80 and sm_90a (the laid-out pipeline: pipelining, shared
// memory, convert-tilegpu-to-llvm, NVPTX), as `tilec FILE.mlir` does, and
// optionally on to a cubin (the toolkit's ptxas checks the PTX).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEGPU_GEN_COMPILELAYOUTPROGRAM_H
#define TILEC_TOOLS_TILEGPU_GEN_COMPILELAYOUTPROGRAM_H

#include "LayoutProgramGenerator.h"

#include <string>

namespace tilec {
class KernelCompiler;

namespace gen {

/// Compiles `program` with `compiler` for each target, to a cubin when
/// `assemble`, else to PTX; false after the first error, with the target in
/// `failedArch` and the diagnostics in `diagnostics`.
bool compileLayoutProgram(KernelCompiler &compiler,
                          const LayoutProgram &program, bool assemble,
                          std::string &failedArch, std::string &diagnostics);

} // namespace gen
} // namespace tilec

#endif // TILEC_TOOLS_TILEGPU_GEN_COMPILELAYOUTPROGRAM_H
