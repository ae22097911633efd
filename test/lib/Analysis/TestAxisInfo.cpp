//===- TestAxisInfo.cpp - tilegpu-test-print-axis-info --------------------===//
//
// A test aid: for every op carrying a `test.name` string attribute, prints
// `NAME: contiguity = [...], divisibility = [...], constancy = [...]`, the
// axis analysis (tilec/Analysis/AxisInfo.h) of its first result.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "tilec/Analysis/AxisInfo.h"

#include "llvm/Support/raw_ostream.h"

namespace tilec::test {
#define GEN_PASS_DEF_TILEGPUTESTPRINTAXISINFO
#include "TestPasses.h.inc"
} // namespace tilec::test

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct TestAxisInfoPass
    : tilec::test::impl::TileGPUTestPrintAxisInfoBase<TestAxisInfoPass> {
  void runOnOperation() override {
    AxisInfoAnalysis analysis(getOperation());
    llvm::raw_ostream &os = llvm::outs();
    getOperation().walk([&](Operation *op) {
      auto name = op->getAttrOfType<StringAttr>("test.name");
      if (!name || op->getNumResults() == 0)
        return;
      AxisInfo info = analysis.getAxisInfo(op->getResult(0));
      os << name.getValue() << ": contiguity = [";
      llvm::interleaveComma(info.contiguity, os);
      os << "], divisibility = [";
      llvm::interleaveComma(info.divisibility, os);
      os << "], constancy = [";
      llvm::interleaveComma(info.constancy, os);
      os << "]\n";
    });
  }
};
} // namespace
