//===- DotOpToLLVM.cpp - tile.dot to FMAs ---------------------------------===//
//
// The FMA path of `dot`: both operands are staged row-major in scratch
// shared memory; each thread then computes its accumulator registers
// `acc[m, n] += a[m, k] * b[k, n]` over k, loading each row element of `a`
// and column element of `b` it needs once per k. f16/bf16 inputs are
// widened to f32; f32 inputs are rounded to tf32 (cvt.rna.tf32.f32) unless
// the precision is ieee.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Rounds an f32 to tf32 (10 mantissa bits, round to nearest, ties away).
Value roundToTF32(OpBuilder &builder, Location loc, Value value) {
  Type i32 = builder.getI32Type();
  auto asmOp = LLVM::InlineAsmOp::create(
      builder, loc, i32, ValueRange{value}, "cvt.rna.tf32.f32 $0, $1;", "=r,f",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
  return LLVM::BitcastOp::create(builder, loc, builder.getF32Type(),
                                 asmOp.getResult(0));
}

struct DotOpConversion : OpConversionPattern<tile::DotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
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
    bool roundTF32 = inType.isF32() &&
                     op.getInputPrecision() == tile::InputPrecision::TF32;
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value aBase = getScratchBase(rewriter, loc, op);
    Value bBase = gep(rewriter, loc, inType, aBase,
                      createI32(rewriter, loc, m * k));

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
      rowOffsets[coord] = LLVM::MulOp::create(rewriter, loc, row,
                                              createI32(rewriter, loc, k));
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
    rewriter.replaceOp(op, packRegisters(rewriter, loc, acc,
                                         getTypeConverter()->convertType(
                                             cType)));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateDotOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotOpConversion>(converter, patterns.getContext());
}
