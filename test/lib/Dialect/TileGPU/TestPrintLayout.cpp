//===- TestPrintLayout.cpp - tilegpu-test-print-layout --------------------===//
//
// A test aid: for every block-typed argument of every function, prints the
// layout's linear layout (`bases: register: [[0, 1], ...], lane: ...`) and
// the layout function element by element, in row-major order:
// `[i, j]: r0 l3 w0, r0 l19 w0` lists every (register, lane, warp) holding
// element (i, j); for a shared-memory tile argument, its offset -> index
// bases. Lowering tests FileCheck it to pin down layouts.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace tilec::test {
#define GEN_PASS_DEF_TILEGPUTESTPRINTLAYOUT
#include "TestPasses.h.inc"
} // namespace tilec::test

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Prints which (register, lane, warp) holds each element of `arg`.
void printLayout(func::FuncOp func, BlockArgument arg, llvm::raw_ostream &os) {
  if (auto tile = dyn_cast<MemDescType>(arg.getType())) {
    os << "layout of @" << func.getName() << " argument " << arg.getArgNumber()
       << ": " << tile << "\n";
    if (std::optional<LinearLayout> layout = toLinearLayout(tile))
      os << "  bases: " << layout->str() << "\n";
    return;
  }
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type)
    return;
  os << "layout of @" << func.getName() << " argument " << arg.getArgNumber()
     << ": " << type << "\n";
  if (!hasRegisterLayout(type.getEncoding())) {
    os << "  (not a register layout)\n";
    return;
  }
  if (std::optional<LinearLayout> layout = toLinearLayout(type))
    os << "  bases: " << layout->str() << "\n";
  unsigned registers = getNumRegisters(type);
  os << "  registers per thread: " << registers << "\n";
  std::map<SmallVector<int64_t>, SmallVector<std::string>> holders;
  for (unsigned warp = 0; warp < getLayoutNumWarps(type.getEncoding()); ++warp)
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned reg = 0; reg < registers; ++reg) {
        std::optional<SmallVector<int64_t>> index =
            getElementIndex(type, reg, lane, warp);
        // A layout that does not tile the shape has registers without an
        // element (issue 25's cross-pass sweep: dereferencing them crashed).
        if (!index) {
          os << "  (r" << reg << " l" << lane << " w" << warp
             << " holds no element: the layout does not tile the shape)\n";
          return;
        }
        holders[*index].push_back("r" + std::to_string(reg) + " l" +
                                  std::to_string(lane) + " w" +
                                  std::to_string(warp));
      }
  for (auto &[index, who] : holders) {
    os << "  [";
    llvm::interleaveComma(index, os);
    os << "]: ";
    llvm::interleaveComma(who, os);
    os << "\n";
  }
}

struct TestPrintLayoutPass
    : tilec::test::impl::TileGPUTestPrintLayoutBase<TestPrintLayoutPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      for (BlockArgument arg : func.getArguments())
        printLayout(func, arg, llvm::outs());
    });
  }
};
} // namespace
