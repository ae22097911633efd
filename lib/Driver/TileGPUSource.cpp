//===- TileGPUSource.cpp - A tilegpu-level .mlir input --------------------===//
//
// Parses a .mlir file of laid-out tilegpu IR (diagnostics against the file),
// lists its kernels and describes their parameters for the metadata: the
// names come from the SSA names of the kernel's arguments as written (argN
// for a numbered one), which the parser's AsmParserState remembers.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/TileGPUSource.h"
#include "tilec/Frontend/Diagnostics.h"

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilec;

TileGPUSource::TileGPUSource() = default;
TileGPUSource::~TileGPUSource() = default;

namespace {
/// How deep brackets may nest in a .mlir input: MLIR's parser recurses once
/// per region (and per nested attribute), and a few thousand levels
/// overflow the stack; the frontend's languages stop at 100 statements.
constexpr unsigned kMaxMlirNesting = 1000;

/// The first bracket of \p text nested deeper than kMaxMlirNesting (outside
/// strings and `//` comments), or null.
const char *findTooDeepBracket(llvm::StringRef text) {
  unsigned depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && text.substr(i, 2) == "//") {
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '{' || c == '(' || c == '[') {
      if (++depth > kMaxMlirNesting)
        return text.data() + i;
    } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return nullptr;
}
} // namespace

std::unique_ptr<TileGPUSource>
TileGPUSource::parse(std::unique_ptr<llvm::MemoryBuffer> buffer,
                     MLIRContext &context, llvm::raw_ostream &diagOS) {
  std::unique_ptr<TileGPUSource> source(new TileGPUSource());
  source->srcMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  source->state = std::make_unique<AsmParserState>();
  ControlEscapingOstream escaped(diagOS);
  SourceMgrDiagnosticHandler handler(source->srcMgr, &context, escaped);
  if (const char *deep = findTooDeepBracket(source->getText())) {
    source->srcMgr.PrintMessage(
        escaped, llvm::SMLoc::getFromPointer(deep), llvm::SourceMgr::DK_Error,
        "brackets nested more than " + llvm::Twine(kMaxMlirNesting) +
            " levels deep (regions, attributes); tilec reads no deeper");
    return nullptr;
  }
  // parseAsmSourceFile keeps the state (the SSA names); it neither wraps
  // the ops in a module nor verifies them, as parseSourceFile does.
  ParserConfig config(&context);
  Block block;
  if (failed(parseAsmSourceFile(source->srcMgr, &block, config,
                                source->state.get())))
    return nullptr;
  llvm::StringRef name =
      source->srcMgr.getMemoryBuffer(source->srcMgr.getMainFileID())
          ->getBufferIdentifier();
  source->module =
      mlir::detail::constructContainerOpForParserIfNecessary<ModuleOp>(
          &block, &context, FileLineColLoc::get(&context, name, 0, 0));
  if (!source->module || failed(verify(*source->module)))
    return nullptr;
  return source;
}

std::vector<std::string> TileGPUSource::getKernelNames() {
  std::vector<std::string> names;
  for (auto func : module->getOps<func::FuncOp>())
    if (func->hasAttr(mlir::tile::kKernelAttrName))
      names.push_back(func.getName().str());
  return names;
}

llvm::StringRef TileGPUSource::getText() const {
  return srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBuffer();
}

namespace {
/// The metadata spelling of a scalar type ("i32", "bf16"), or "" for a
/// type no kernel parameter can have.
std::string getScalarName(Type type) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (auto integer = dyn_cast<IntegerType>(type))
    if (integer.isSignless())
      return "i" + std::to_string(integer.getWidth());
  return "";
}

/// The metadata spelling of an argument's type ("*f16", "*f8e4m3", "i32"),
/// or "". fp8 is a pointee only: as in the language, no scalar parameter is
/// fp8.
std::string getParamTypeName(Type type) {
  if (auto pointer = dyn_cast<mlir::tile::PointerType>(type)) {
    Type pointeeType = pointer.getPointeeType();
    std::string pointee = isa<Float8E4M3FNType>(pointeeType) ? "f8e4m3"
                          : isa<Float8E5M2Type>(pointeeType)
                              ? "f8e5m2"
                              : getScalarName(pointeeType);
    return pointee.empty() ? "" : "*" + pointee;
  }
  return getScalarName(type);
}
} // namespace

LogicalResult
TileGPUSource::describeParams(func::FuncOp kernel,
                              std::vector<KernelParam> &params) const {
  const AsmParserState::BlockDefinition *def =
      kernel.isExternal() ? nullptr : state->getBlockDef(&kernel.front());
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    KernelParam &param = params.emplace_back();
    param.name = "arg" + std::to_string(index);
    if (def && index < def->arguments.size()) {
      llvm::SMRange range = def->arguments[index].loc;
      llvm::StringRef text(range.Start.getPointer(),
                           range.End.getPointer() - range.Start.getPointer());
      // A numbered value (%0) keeps the name argN.
      if (text.consume_front("%") && !text.empty() &&
          !llvm::isDigit(text.front()))
        param.name = text.str();
    }
    std::optional<ParamType> paramType =
        ParamType::parse(getParamTypeName(type));
    if (!paramType)
      return kernel.emitError()
             << "argument " << index << " ('" << param.name << "') of kernel '"
             << kernel.getName() << "' has type " << type
             << "; a kernel parameter is a scalar or a !tile.ptr";
    param.type = *paramType;
    if (auto divisibility = kernel.getArgAttrOfType<IntegerAttr>(
            index, mlir::tilegpu::kDivisibilityArgAttrName))
      param.divisibility = static_cast<uint32_t>(divisibility.getInt());
  }
  return success();
}
