//===- PrintOpToLLVM.cpp - device_print to vprintf ------------------------===//
//
// `tile.print` becomes one `vprintf` call per register of each argument:
// the program id, the element's index and its value, after the prefix.
// Values are promoted as C varargs are (floats to double, small integers
// to i32) and passed in a stack buffer, as vprintf expects.
//
//===----------------------------------------------------------------------===//

#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// A printable value: promoted for varargs, with its format specifier.
std::pair<Value, StringRef> promote(OpBuilder &builder, Location loc,
                                    Value value) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return {value, "%p"};
  if (isa<FloatType>(type)) {
    if (!type.isF64())
      value = LLVM::FPExtOp::create(builder, loc, builder.getF64Type(), value);
    return {value, "%f"};
  }
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits == 64)
    return {value, "%lld"};
  if (bits < 32)
    value = LLVM::SExtOp::create(builder, loc, builder.getI32Type(), value);
  return {value, "%d"};
}

struct PrintOpConversion : OpConversionPattern<tile::PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A print runs in a kernel; outside a function there is nothing to run
    // it (and nowhere above to put its format string).
    if (!op->getParentOfType<FunctionOpInterface>())
      return op.emitOpError("must be inside a kernel function");
    auto module = op->getParentOfType<ModuleOp>();
    MLIRContext *context = rewriter.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    FailureOr<LLVM::LLVMFuncOp> vprintf = LLVM::lookupOrCreateFn(
        rewriter, module, "vprintf", {ptrType, ptrType}, rewriter.getI32Type());
    if (failed(vprintf))
      return rewriter.notifyMatchFailure(op, "vprintf has another signature");
    Type i32 = rewriter.getI32Type();
    SmallVector<Value> pids{NVVM::BlockIdXOp::create(rewriter, loc, i32),
                            NVVM::BlockIdYOp::create(rewriter, loc, i32),
                            NVVM::BlockIdZOp::create(rewriter, loc, i32)};
    ThreadIds ids = getThreadIds(rewriter, loc);

    auto print = [&](ArrayRef<Value> index, Value value) {
      std::string format = "pid (%d, %d, %d)";
      SmallVector<Value> args(pids);
      if (!index.empty()) {
        format += " idx (";
        for (auto [i, component] : llvm::enumerate(index)) {
          format += i ? ", %d" : "%d";
          args.push_back(component);
        }
        format += ")";
      }
      auto [promoted, spec] = promote(rewriter, loc, value);
      format += " " + op.getPrefix().str() + spec.str() + "\n";
      args.push_back(promoted);
      SmallVector<Type> types;
      for (Value arg : args)
        types.push_back(arg.getType());
      auto structType = LLVM::LLVMStructType::getLiteral(context, types);
      Value buffer = LLVM::AllocaOp::create(rewriter, loc, ptrType, structType,
                                            createI32(rewriter, loc, 1));
      for (auto [i, arg] : llvm::enumerate(args)) {
        Value field = LLVM::GEPOp::create(
            rewriter, loc, ptrType, structType, buffer,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
        LLVM::StoreOp::create(rewriter, loc, arg, field);
      }
      std::string name = "printf_format_" + std::to_string(counter++);
      Value formatPtr = LLVM::createGlobalString(loc, rewriter, name, format,
                                                 LLVM::Linkage::Internal);
      LLVM::CallOp::create(rewriter, loc, *vprintf,
                           ValueRange{formatPtr, buffer});
    };

    if (op.getArgs().empty()) {
      std::string name = "printf_format_" + std::to_string(counter++);
      Value formatPtr = LLVM::createGlobalString(loc, rewriter, name,
                                                 op.getPrefix().str() + "\n",
                                                 LLVM::Linkage::Internal);
      Value null = LLVM::ZeroOp::create(rewriter, loc, ptrType);
      LLVM::CallOp::create(rewriter, loc, *vprintf,
                           ValueRange{formatPtr, null});
    }
    for (auto [original, converted] :
         llvm::zip(op.getArgs(), adaptor.getArgs())) {
      SmallVector<Value> registers = unpackRegisters(rewriter, loc, converted);
      auto tensor = dyn_cast<RankedTensorType>(original.getType());
      if (!tensor) {
        print({}, registers.front());
        continue;
      }
      auto indices = emitIndices(rewriter, loc, tensor, ids);
      for (auto [value, index] : llvm::zip(registers, indices))
        print(index, value);
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// Numbers the format strings of a module (one pattern per conversion).
  mutable unsigned counter = 0;
};
} // namespace

void mlir::tilegpu::populatePrintOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<PrintOpConversion>(converter, patterns.getContext());
}
