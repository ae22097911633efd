// Found by tilec-tileir-fuzzer: a tile.print directly in the module (not in
// a function) verifies, but --tilec-llvm segfaults in PrintOpToLLVM.cpp
// (LLVM::createGlobalString finds no module above the insertion block).
// Now: a diagnostic, no crash.
// RUN: not tile-opt %s --tilec-llvm 2>&1 | FileCheck %s
// CHECK: error: 'tile.print' op must be inside a kernel function

tile.print "hello"
