//===- TestPrintLayout.cpp - tilegpu-test-print-layout --------------------===//
//
// Test aids: the layout function of block-typed function arguments (for
// each element, every (register, lane, warp) that holds it), and the axis
// analysis of named values. Used by lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUTESTPRINTLAYOUT
#define GEN_PASS_DEF_TILEGPUTESTPRINTAXISINFO
#include "tilec/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct TestPrintLayoutPass
    : mlir::tilegpu::impl::TileGPUTestPrintLayoutBase<TestPrintLayoutPass> {
  void runOnOperation() override {
    llvm::raw_ostream &os = llvm::outs();
    getOperation().walk([&](func::FuncOp func) {
      for (BlockArgument arg : func.getArguments()) {
        auto type = dyn_cast<RankedTensorType>(arg.getType());
        if (!type)
          continue;
        os << "layout of @" << func.getName() << " argument "
           << arg.getArgNumber() << ": " << type << "\n";
        if (!hasRegisterLayout(type.getEncoding())) {
          os << "  (not a register layout)\n";
          continue;
        }
        unsigned registers = getNumRegisters(type);
        os << "  registers per thread: " << registers << "\n";
        std::map<SmallVector<int64_t>, SmallVector<std::string>> holders;
        for (unsigned warp = 0; warp < getLayoutNumWarps(type.getEncoding());
             ++warp)
          for (unsigned lane = 0; lane < 32; ++lane)
            for (unsigned reg = 0; reg < registers; ++reg)
              holders[*getElementIndex(type, reg, lane, warp)].push_back(
                  "r" + std::to_string(reg) + " l" + std::to_string(lane) +
                  " w" + std::to_string(warp));
        for (auto &[index, who] : holders) {
          os << "  [";
          llvm::interleaveComma(index, os);
          os << "]: ";
          llvm::interleaveComma(who, os);
          os << "\n";
        }
      }
    });
  }
};
struct TestPrintAxisInfoPass
    : mlir::tilegpu::impl::TileGPUTestPrintAxisInfoBase<
          TestPrintAxisInfoPass> {
  void runOnOperation() override {
    mlir::tilegpu::AxisInfoAnalysis analysis(getOperation());
    llvm::raw_ostream &os = llvm::outs();
    getOperation().walk([&](Operation *op) {
      auto name = op->getAttrOfType<StringAttr>("test.name");
      if (!name || op->getNumResults() == 0)
        return;
      mlir::tilegpu::AxisInfo info = analysis.getAxisInfo(op->getResult(0));
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
