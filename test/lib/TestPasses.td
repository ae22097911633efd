//===- TestPasses.td - Passes that only tests use ----------*- tablegen -*-===//
//
// Test aids linked into tile-opt only: they print what an analysis or a
// layout function computed, for lit tests to FileCheck.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_LIB_TESTPASSES_TD
#define TILEC_TEST_LIB_TESTPASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUTestPrintLayout
    : Pass<"tilegpu-test-print-layout", "::mlir::ModuleOp"> {
  let summary = "Print which (register, lane, warp) holds each element";
  let description = [{
    A test aid: for every block-typed argument of every function, prints the
    layout function, element by element, in row-major order:
    `[i, j]: r0 l3 w0, r0 l19 w0` lists every (register, lane, warp) holding
    element (i, j). Lowering tests FileCheck it to pin down layouts.
  }];
}

def TileGPUTestPrintAxisInfo
    : Pass<"tilegpu-test-print-axis-info", "::mlir::ModuleOp"> {
  let summary = "Print the axis analysis of every value named by `test.name`";
  let description = [{
    A test aid: for every op carrying a `test.name` string attribute, prints
    `NAME: contiguity = [...], divisibility = [...], constancy = [...]` for
    its first result.
  }];
}

#endif // TILEC_TEST_LIB_TESTPASSES_TD
