//===- InlineAsmOpToLLVM.cpp - inline_asm_elementwise to llvm.inline_asm --===//
//
// `tile.elementwise_inline_asm` runs its asm once per `packed_element`
// registers of each thread (the last run padded with undefined values,
// whose results are dropped): each operand's elements of the run are
// passed in registers of up to 32 bits (narrow elements packed in a vector,
// the first in the low bits), and the results come back the same way, in
// one struct when there are several registers.
//
//===----------------------------------------------------------------------===//

#include "InlineAsm.h"
#include "Patterns.h"
#include "RegisterPacking.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Support/InlineAsm.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct ElementwiseInlineAsmOpConversion
    : OpConversionPattern<tile::ElementwiseInlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tile::ElementwiseInlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto block = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (block && !hasRegisterLayout(block.getEncoding()))
      return rewriter.notifyMatchFailure(op, "expected a register layout");
    unsigned numRegisters = block ? getNumRegisters(block) : 1;
    unsigned pack = op.getPackedElement();
    unsigned padded = llvm::alignTo(numRegisters, pack);

    // Each operand's registers, padded to whole runs.
    SmallVector<SmallVector<Value>> operands;
    for (Value operand : adaptor.getArgs()) {
      SmallVector<Value> registers = unpackRegisters(rewriter, loc, operand);
      if (registers.size() != numRegisters)
        return rewriter.notifyMatchFailure(op, "operand layouts differ");
      Type type = registers.front().getType();
      while (registers.size() < padded)
        registers.push_back(LLVM::UndefOp::create(rewriter, loc, type));
      operands.push_back(std::move(registers));
    }
    SmallVector<Type> elementTypes;
    for (Type type : op.getResultTypes())
      elementTypes.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(type)));

    // The asm's registers of one run: `perRegister` elements each.
    auto registerType = [&](Type element, unsigned perRegister) -> Type {
      return perRegister == 1 ? element : VectorType::get(perRegister, element);
    };
    SmallVector<Type> asmResultTypes;
    for (auto [type, element] : llvm::zip(op.getResultTypes(), elementTypes)) {
      unsigned perRegister = op.getElementsPerRegister(type);
      asmResultTypes.append(pack / perRegister,
                            registerType(element, perRegister));
    }
    Type asmResultType =
        asmResultTypes.size() == 1
            ? asmResultTypes.front()
            : LLVM::LLVMStructType::getLiteral(getContext(), asmResultTypes);

    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (unsigned start = 0; start < padded; start += pack) {
      SmallVector<Value> asmOperands;
      for (auto [original, registers] :
           llvm::zip(op.getArgs().getTypes(), operands)) {
        unsigned perRegister = op.getElementsPerRegister(original);
        for (unsigned i = 0; i < pack; i += perRegister) {
          if (perRegister == 1) {
            asmOperands.push_back(registers[start + i]);
            continue;
          }
          Type vectorType =
              registerType(registers.front().getType(), perRegister);
          Value vector = LLVM::UndefOp::create(rewriter, loc, vectorType);
          for (unsigned k = 0; k < perRegister; ++k)
            vector = LLVM::InsertElementOp::create(
                rewriter, loc, vector, registers[start + i + k],
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         rewriter.getI32IntegerAttr(k)));
          asmOperands.push_back(vector);
        }
      }
      Value asmResult =
          createInlineAsm(
              rewriter, loc, asmResultType, asmOperands, op.getAsmString(),
              tilec::removeAsmConstraintSpaces(op.getConstraints().str()),
              /*hasSideEffects=*/!op.getPure())
              .getResult(0);
      unsigned member = 0;
      for (unsigned r = 0; r < op.getNumResults(); ++r) {
        for (unsigned i = 0; i < pack;) {
          Value value = asmResultTypes.size() == 1
                            ? asmResult
                            : LLVM::ExtractValueOp::create(rewriter, loc,
                                                           asmResult, member);
          ++member;
          auto vectorType = dyn_cast<VectorType>(value.getType());
          if (!vectorType) {
            results[r].push_back(value);
            ++i;
            continue;
          }
          for (int64_t k = 0; k < vectorType.getNumElements(); ++k)
            results[r].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, value,
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         rewriter.getI32IntegerAttr(k))));
          i += vectorType.getNumElements();
        }
      }
    }

    SmallVector<Value> replacements;
    for (auto [registers, type] : llvm::zip(results, op.getResultTypes())) {
      registers.resize(numRegisters);
      replacements.push_back(packRegisters(
          rewriter, loc, registers, getTypeConverter()->convertType(type)));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateInlineAsmOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ElementwiseInlineAsmOpConversion>(converter,
                                                 patterns.getContext());
}
