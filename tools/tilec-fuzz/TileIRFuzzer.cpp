//===- TileIRFuzzer.cpp - libFuzzer entry for the tile-dialect passes -----===//
//
// Parses the input as MLIR (tile dialect with func, arith, math, scf and
// cf), and runs the tile, tilegpu and LLVM pipelines (buildTilePipeline,
// buildTileGPUPipeline, buildLLVMPipeline) on each module that verifies and
// is tile-level IR (no tilegpu, LLVM or NVVM ops, no layouts). The passes
// assume verified input, so inputs that fail to parse or verify stop
// there. The PassManager's own verifier is replaced by one that aborts:
// a pass that succeeds but leaves invalid IR is a bug, like a crash, an
// assertion or a sanitizer report. A pass that fails with a diagnostic is
// fine (the IR may be valid but unsupported). The target is sm_90a, or
// sm_80 for a third of the inputs (by a hash of the bytes). Built with
// -fsanitize=fuzzer when TILEC_BUILD_FUZZERS is on and the compiler is
// clang; seeds: `tilec --emit=tile` output and test/**/*.mlir
// (scripts/fuzz.sh).
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace mlir;

namespace {
/// True for IR the tile pipeline starts from: ops of the dialects MLIRGen
/// emits, tensors without layouts, no tilegpu attributes. (Ops outside
/// functions are kept: the passes must reject them with a diagnostic, see
/// test/tools/fuzz-regressions.)
bool isTileLevel(ModuleOp module) {
  auto isTileType = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return !tensor || !tensor.getEncoding();
  };
  WalkResult result = module->walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (!llvm::is_contained(
            {"builtin", "func", "arith", "math", "scf", "cf", "tile"}, dialect))
      return WalkResult::interrupt();
    if (!llvm::all_of(op->getResultTypes(), isTileType))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!llvm::all_of(block.getArgumentTypes(), isTileType))
          return WalkResult::interrupt();
    for (NamedAttribute attr : op->getAttrs())
      if (attr.getName().getValue().starts_with("tilegpu."))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Verifies the IR after every pass that succeeded; aborts with the
/// verifier's diagnostics when it is invalid.
class AbortOnInvalidIR : public PassInstrumentation {
public:
  explicit AbortOnInvalidIR(std::string &diagnostics)
      : diagnostics(diagnostics) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    diagnostics.clear();
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "tilec-tileir-fuzzer: pass '" << pass->getArgument()
                 << "' succeeded but left invalid IR:\n"
                 << diagnostics << "\n";
    std::abort();
  }

private:
  std::string &diagnostics;
};
/// Deepest bracket nesting of the inputs parsed (far beyond any real IR).
constexpr int kMaxNesting = 1000;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context for many inputs, made anew now and then: it keeps every
  // type and attribute it has seen.
  static std::unique_ptr<MLIRContext> context;
  static unsigned uses = 0;
  if (!context || ++uses % 2000 == 0) {
    DialectRegistry registry;
    tilec::registerTilecDialects(registry);
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
  }
  std::string diagnostics;
  ScopedDiagnosticHandler handler(context.get(), [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": " << diag << "\n";
    return success();
  });
  // MLIR's parser recurses once per nesting level of types and attributes
  // (upstream code): tens of thousands of nested parentheses overflow the
  // stack under ASan before any of our code runs. Such inputs are skipped.
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '(' || data[i] == '[' || data[i] == '{' || data[i] == '<')
      deepest = std::max(deepest, ++depth);
    else if (data[i] == ')' || data[i] == ']' || data[i] == '}' ||
             data[i] == '>')
      --depth;
  }
  if (deepest > kMaxNesting)
    return -1;
  // The MLIR lexer needs a null-terminated buffer: copy the input.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context.get()));
  if (!module || failed(verify(*module)) || !isTileLevel(*module))
    return -1; // Not worth keeping in the corpus.

  uint32_t hash = 2166136261u;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 16777619u;
  tilec::Target arch =
      *tilec::Target::parse(hash % 3 == 0 ? "sm_80" : "sm_90a");
  PassManager pm(context.get(), ModuleOp::getOperationName());
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<AbortOnInvalidIR>(diagnostics));
  tilec::buildTilePipeline(pm);
  tilec::buildTileGPUPipeline(pm, /*numWarps=*/0, arch);
  tilec::buildLLVMPipeline(pm);
  (void)pm.run(*module);
  return 0;
}
