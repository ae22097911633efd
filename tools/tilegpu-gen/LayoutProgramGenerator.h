//===- LayoutProgramGenerator.h - Random valid tilegpu modules --*- C++ -*-===//
//
// A structure-aware generator of laid-out tilegpu modules (the IR that
// `tilec FILE.mlir` compiles), for fuzzing the layout machinery and the
// lowering to LLVM: one kernel that loads a 2-D block of random power-of-two
// shape, computes on it in random layouts (blocked layouts of random
// sizePerThread / threadsPerWarp / warpsPerCTA / order, mma accumulators and
// dot operands, slices of blocked layouts) with elementwise ops,
// convert_layout, reductions, expand_dims and broadcast, and stores the
// result. Every module verifies and should compile: an error diagnostic is a
// bug of the compiler (or of this generator), like a crash.
//
// Decisions come from tile-gen's ChoiceSource (tools/tile-gen), so a seed
// gives the same module everywhere and a libFuzzer input decodes into one
// (tools/tilec-fuzz/TileGPUFuzzer.cpp). Plain C++: no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEGPU_GEN_LAYOUTPROGRAMGENERATOR_H
#define TILEC_TOOLS_TILEGPU_GEN_LAYOUTPROGRAMGENERATOR_H

#include "ProgramGenerator.h"

#include <string>

namespace tilec::gen {

/// One generated module.
struct LayoutProgram {
  /// The module's MLIR text.
  std::string text;
  /// Its kernel's name and the module's warps.
  std::string kernel;
  unsigned numWarps = 4;
};

/// What the layout generator may use.
struct LayoutGenOptions {
  /// The most ops computed on the loaded block (besides indexing, the
  /// load and the store).
  unsigned maxSteps = 8;
  /// The most elements of the block.
  unsigned maxElements = 4096;
  /// mma accumulator and dot-operand layouts as conversion targets (on any
  /// shape: a block smaller than the layout's tile is masked).
  bool allowMma = true;
};

/// Generates one module from `choices`.
LayoutProgram generateLayoutProgram(ChoiceSource &choices,
                                    const LayoutGenOptions &options);

} // namespace tilec::gen

#endif // TILEC_TOOLS_TILEGPU_GEN_LAYOUTPROGRAMGENERATOR_H
