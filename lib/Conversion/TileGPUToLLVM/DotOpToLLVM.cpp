//===- DotOpToLLVM.cpp - tile.dot to FMAs ---------------------------------===//
//
// On tensor cores (operands in dot-operand layouts, the accumulator in an
// mma layout): one mma.sync per 16 x 8 tile and k-step. Otherwise, the FMA
// path: both operands are staged row-major in scratch
// shared memory; each thread then computes its accumulator registers
// `acc[m, n] += a[m, k] * b[k, n]` over k, loading each row element of `a`
// and column element of `b` it needs once per k. f16/bf16 inputs are
// widened to f32; f32 inputs are rounded to tf32 (cvt.rna.tf32.f32) unless
// the precision is ieee.
//
//===----------------------------------------------------------------------===//

#include "InlineAsm.h"
#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "Patterns.h"
#include "RegisterPacking.h"
#include "SharedMemoryAccess.h"
#include "TF32Rounding.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// `dot` on tensor cores: one `mma.sync.aligned.m16n8k{16,8}` per 16 x 8
/// accumulator tile and k-step, operands in dot-operand layouts.
LogicalResult lowerMmaDot(tile::DotOp op, Value a, Value b, Value acc,
                          const TypeConverter &converter,
                          ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  auto aLayout = tilegpu::getDotOperandLayout(op.getA().getType());
  auto bLayout = tilegpu::getDotOperandLayout(op.getB().getType());
  auto cLayout = tilegpu::getMmaLayout(op.getType());
  if (!aLayout || !bLayout || !cLayout)
    return rewriter.notifyMatchFailure(op, "expected mma operand layouts");
  Type element = op.getA().getType().getElementType();
  std::string inType, shape;
  if (element.isF16())
    inType = "f16", shape = "m16n8k16";
  else if (element.isBF16())
    inType = "bf16", shape = "m16n8k16";
  else if (element.isF32())
    inType = "tf32", shape = "m16n8k8";
  else
    return rewriter.notifyMatchFailure(op, "unsupported mma input type");
  SmallVector<Value> aRegs = unpackRegisters(rewriter, loc, a);
  SmallVector<Value> bRegs = unpackRegisters(rewriter, loc, b);
  SmallVector<Value> cRegs = unpackRegisters(rewriter, loc, acc);
  unsigned kWidth = aLayout->kWidth;
  unsigned aPerStep = aLayout->getRegistersPerStep();
  unsigned bPerStep = bLayout->getRegistersPerStep();
  int64_t kSteps = aLayout->kSteps;
  std::string text = "mma.sync.aligned." + shape + ".row.col.f32." + inType +
                     "." + inType +
                     ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
                     "{$10, $11, $12, $13};";
  std::string constraints = "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
  Type f32 = rewriter.getF32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(rewriter.getContext(),
                                                     SmallVector<Type>(4, f32));
  for (int64_t m = 0; m < cLayout->repM; ++m)
    for (int64_t n = 0; n < cLayout->repN; ++n) {
      unsigned base = (m * cLayout->repN + n) * 4;
      SmallVector<Value> c(cRegs.begin() + base, cRegs.begin() + base + 4);
      for (int64_t k = 0; k < kSteps; ++k) {
        SmallVector<Value> operands;
        unsigned aBase = (m * kSteps + k) * aPerStep;
        for (unsigned r = 0; r < 4; ++r)
          operands.push_back(packDotOperand(
              rewriter, loc,
              ArrayRef(aRegs).slice(aBase + r * kWidth, kWidth)));
        unsigned bBase = (n * kSteps + k) * bPerStep;
        for (unsigned r = 0; r < 2; ++r)
          operands.push_back(packDotOperand(
              rewriter, loc,
              ArrayRef(bRegs).slice(bBase + r * kWidth, kWidth)));
        operands.append(c.begin(), c.end());
        auto mma = createInlineAsm(rewriter, loc, resultType, operands, text,
                                   constraints, /*hasSideEffects=*/false);
        for (unsigned j = 0; j < 4; ++j)
          c[j] =
              LLVM::ExtractValueOp::create(rewriter, loc, mma.getResult(0), j);
      }
      std::copy(c.begin(), c.end(), cRegs.begin() + base);
    }
  rewriter.replaceOp(op, packRegisters(rewriter, loc, cRegs,
                                       converter.convertType(op.getType())));
  return success();
}

struct DotOpConversion : OpConversionPattern<tile::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa_and_nonnull<tilegpu::MmaEncodingAttr>(op.getType().getEncoding()))
      return lowerMmaDot(op, adaptor.getA(), adaptor.getB(), adaptor.getAcc(),
                         *getTypeConverter(), rewriter);
    Location loc = op.getLoc();
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType();
    RankedTensorType cType = op.getType();
    auto cLayout = tilegpu::getDistributedLayout(cType);
    if (!cLayout || !tilegpu::getDistributedLayout(aType) ||
        !tilegpu::getDistributedLayout(bType))
      return rewriter.notifyMatchFailure(op, "layouts must be distributed");
    int64_t m = aType.getDimSize(0), k = aType.getDimSize(1);
    int64_t n = bType.getDimSize(1);
    Type inType = unpackRegisters(rewriter, loc, adaptor.getA())[0].getType();
    Type f32 = rewriter.getF32Type();
    bool roundTF32 =
        inType.isF32() && op.getInputPrecision() == tile::InputPrecision::TF32;
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value aBase = getScratchBase(rewriter, loc, op);
    Value bBase =
        gep(rewriter, loc, inType, aBase, createI32(rewriter, loc, m * k));

    // Stage both operands.
    createBarrier(rewriter, loc);
    for (auto [operand, adapted, base] :
         {std::tuple{op.getA(), adaptor.getA(), aBase},
          std::tuple{op.getB(), adaptor.getB(), bBase}}) {
      auto type = cast<RankedTensorType>(operand.getType());
      SmallVector<Value> registers = unpackRegisters(rewriter, loc, adapted);
      auto indices = emitIndices(rewriter, loc, type, ids);
      for (auto [value, index] : llvm::zip(registers, indices))
        storeShared(rewriter, loc,
                    gep(rewriter, loc, inType, base,
                        linearizeIndex(rewriter, loc, index, type.getShape())),
                    value);
    }
    createBarrier(rewriter, loc);

    // Rows and columns this thread's accumulator registers cover.
    SmallVector<Value> acc = unpackRegisters(rewriter, loc, adaptor.getAcc());
    auto cIndices = emitIndices(rewriter, loc, cType, ids);
    unsigned rowDim = cLayout->blockDims[0], colDim = cLayout->blockDims[1];
    llvm::MapVector<unsigned, Value> rows, cols; // register coord -> index
    for (unsigned reg = 0; reg < acc.size(); ++reg) {
      SmallVector<unsigned> coords = cLayout->getRegisterCoords(reg);
      rows.insert({coords[rowDim], cIndices[reg][0]});
      cols.insert({coords[colDim], cIndices[reg][1]});
    }
    auto loadInput = [&](Value base, Value position) {
      Value value = loadShared(rewriter, loc, inType,
                               gep(rewriter, loc, inType, base, position));
      if (!inType.isF32())
        value = LLVM::FPExtOp::create(rewriter, loc, f32, value);
      else if (roundTF32)
        value = roundToTF32(rewriter, loc, value);
      return value;
    };
    // Row offsets into a (m * K) and column indices into b.
    llvm::DenseMap<unsigned, Value> rowOffsets;
    for (auto &[coord, row] : rows)
      rowOffsets[coord] =
          LLVM::MulOp::create(rewriter, loc, row, createI32(rewriter, loc, k));
    for (int64_t kk = 0; kk < k; ++kk) {
      Value kValue = createI32(rewriter, loc, kk);
      llvm::DenseMap<unsigned, Value> aValues, bValues;
      for (auto &[coord, offset] : rowOffsets)
        aValues[coord] = loadInput(
            aBase, LLVM::AddOp::create(rewriter, loc, offset, kValue));
      Value bRow = createI32(rewriter, loc, kk * n);
      for (auto &[coord, col] : cols)
        bValues[coord] =
            loadInput(bBase, LLVM::AddOp::create(rewriter, loc, bRow, col));
      for (unsigned reg = 0; reg < acc.size(); ++reg) {
        SmallVector<unsigned> coords = cLayout->getRegisterCoords(reg);
        acc[reg] = LLVM::FMAOp::create(rewriter, loc, aValues[coords[rowDim]],
                                       bValues[coords[colDim]], acc[reg]);
      }
    }
    rewriter.replaceOp(op,
                       packRegisters(rewriter, loc, acc,
                                     getTypeConverter()->convertType(cType)));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateDotOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotOpConversion>(converter, patterns.getContext());
}
