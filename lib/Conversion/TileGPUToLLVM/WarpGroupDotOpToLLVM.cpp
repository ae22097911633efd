//===- WarpGroupDotOpToLLVM.cpp - wgmma and its swizzled operands ---------===//
//
// Hopper's warp-group MMA (sm_90a): `tilegpu.local_alloc` of a block into an
// `#tilegpu.nvmma_shared` tile (16-byte vector stores at swizzled offsets,
// then a proxy fence so the tensor cores see the writes), and
// `tilegpu.warpgroup_dot` (one `wgmma.mma_async` m64nNk16, or m64nNk8 for
// tf32, per 64 rows of a warp group and k-step, the k-steps of 64 rows in
// one asm statement, reading both operands through shared-memory matrix
// descriptors, then a wait for all of them;
// f32 staged for tf32 is rounded to nearest on the way to shared memory).
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

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Unit attributes marking a staging alloc whose neighbour (the previous
/// or next op, also a staging alloc) provides the barrier instead.
constexpr llvm::StringLiteral kNoLeadingBarrier = "tilegpu.no_leading_barrier";
constexpr llvm::StringLiteral kNoTrailingBarrier =
    "tilegpu.no_trailing_barrier";

bool isSwizzledStaging(Operation *op) {
  auto alloc = dyn_cast_or_null<LocalAllocOp>(op);
  return alloc && alloc.getSrc() &&
         isa<NVMMASharedEncodingAttr>(alloc.getType().getEncoding());
}

/// Stores a block into a swizzled tile: runs of registers contiguous along
/// the tile's contiguous dimension become one vector store of up to 16
/// bytes (a run never crosses a 16-byte chunk, which the swizzle keeps
/// whole).
LogicalResult storeSwizzled(OpBuilder &builder, Location loc,
                            RankedTensorType type, Value packed, Value base,
                            const NVMMASharedLayout &layout, bool tf32) {
  auto distributed = getDistributedLayout(type);
  if (!distributed || type.getRank() != 2)
    return failure();
  SmallVector<Value> registers = unpackRegisters(builder, loc, packed);
  if (tf32)
    for (Value &reg : registers)
      reg = roundToTF32(builder, loc, reg);
  auto indices = emitIndices(builder, loc, type, getThreadIds(builder, loc));
  // Registers are numbered along the root's fastest dimension first.
  unsigned width = 1;
  unsigned fastest = distributed->root.getOrder()[0];
  if (fastest < distributed->blockDims.size() &&
      distributed->blockDims[layout.contigDim] == fastest) {
    unsigned run = distributed->root.getSizePerThread()[fastest];
    width = std::min<unsigned>(run, 16 / layout.elementBytes);
    if (distributed->elemsPerThread[fastest] % width != 0)
      width = 1;
  }
  // A layout that does not tile the shape (registers and indices disagree)
  // is not lowered here: the caller reports it.
  if (registers.empty() || indices.size() != registers.size() ||
      registers.size() % width != 0)
    return failure();
  Type element = registers.front().getType();
  for (size_t reg = 0; reg < registers.size(); reg += width) {
    Value row = indices[reg][1 - layout.contigDim];
    Value col = indices[reg][layout.contigDim];
    Value offset = emitSwizzledOffset(builder, loc, layout, row, col);
    Value ptr = gep(builder, loc, builder.getI8Type(), base, offset);
    if (width == 1) {
      storeShared(builder, loc, ptr, registers[reg]);
      continue;
    }
    auto vectorType = VectorType::get({(int64_t)width}, element);
    Value vector = LLVM::UndefOp::create(builder, loc, vectorType);
    for (unsigned i = 0; i < width; ++i)
      vector = LLVM::InsertElementOp::create(
          builder, loc, vector, registers[reg + i], createI32(builder, loc, i));
    LLVM::StoreOp::create(builder, loc, vector, ptr,
                          /*alignment=*/width * layout.elementBytes);
  }
  return success();
}

struct SwizzledLocalAllocOpConversion
    : OpConversionPattern<tilegpu::LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<NVMMASharedEncodingAttr>(op.getType().getEncoding()))
      return rewriter.notifyMatchFailure(op, "not an nvmma_shared tile");
    auto layout = getNVMMASharedLayout(op.getType());
    if (adaptor.getSrc() && !layout)
      return rewriter.notifyMatchFailure(op, "not a 2-D tile");
    Location loc = op.getLoc();
    Value base = getScratchBase(rewriter, loc, op);
    if (auto attr = op.getOffsetAttr(); attr && attr.getInt() != 0)
      base = gep(rewriter, loc, rewriter.getI8Type(), base,
                 createI32(rewriter, loc, attr.getInt()));
    if (Value src = adaptor.getSrc()) {
      // Readers of the old contents (earlier wgmmas) first.
      if (!op->hasAttr(kNoLeadingBarrier))
        createBarrier(rewriter, loc);
      if (failed(storeSwizzled(
              rewriter, loc, cast<RankedTensorType>(op.getSrc().getType()), src,
              base, *layout, op->hasAttr(kRoundToTF32AttrName))))
        return rewriter.notifyMatchFailure(op, "source is not distributed");
      createAsyncProxyFence(rewriter, loc);
      if (!op->hasAttr(kNoTrailingBarrier))
        createBarrier(rewriter, loc);
    }
    rewriter.replaceOp(op, base);
    return success();
  }
};

/// The 64-bit shared-memory matrix descriptor of a tile at `address` (i64):
/// start address, leading and stride byte offsets, swizzle mode.
Value createDescriptor(OpBuilder &builder, Location loc, Value address,
                       int64_t leadingBytes, int64_t strideBytes,
                       unsigned swizzle) {
  uint64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  uint64_t fields = ((uint64_t)(leadingBytes >> 4) & 0x3FFF) << 16 |
                    ((uint64_t)(strideBytes >> 4) & 0x3FFF) << 32 | mode << 62;
  Value start = LLVM::LShrOp::create(
      builder, loc,
      LLVM::AndOp::create(builder, loc, address,
                          createI64(builder, loc, 0x3FFFF)),
      createI64(builder, loc, 4));
  return LLVM::OrOp::create(builder, loc, start,
                            createI64(builder, loc, (int64_t)fields));
}

/// Byte offset (unswizzled) of tile element (i0, i1) of a [dim0, dim1] tile.
int64_t tileOffset(const NVMMASharedLayout &layout, int64_t i0, int64_t i1) {
  return layout.contigDim == 1 ? layout.getOffset(i0, i1)
                               : layout.getOffset(i1, i0);
}

/// Descriptor strides of an operand: a K-major tile (contiguous along K)
/// ignores the leading offset; an MN-major one steps between its
/// swizzle-wide columns with it. Both step between groups of 8 rows with
/// the stride offset.
std::pair<int64_t, int64_t>
getDescriptorStrides(const NVMMASharedLayout &layout, bool kMajor) {
  int64_t stride = 8 * layout.swizzle;
  int64_t leading = kMajor ? 16 : layout.getColumnStride();
  return {leading, stride};
}

/// `wgmma.wait_group pendings`, passing the accumulators through so that
/// nothing reads them before the instructions writing them complete.
void emitWarpGroupWait(OpBuilder &builder, Location loc,
                       SmallVector<Value> &acc, unsigned pendings) {
  std::string constraints;
  for (size_t i = 0; i < acc.size(); ++i)
    constraints += "=f,";
  for (size_t i = 0; i < acc.size(); ++i)
    constraints += (i ? "," : "") + std::to_string(i);
  Type type = LLVM::LLVMStructType::getLiteral(
      builder.getContext(),
      SmallVector<Type>(acc.size(), builder.getF32Type()));
  auto wait = createInlineAsm(builder, loc, type, acc,
                              "wgmma.wait_group.sync.aligned " +
                                  std::to_string(pendings) + ";",
                              constraints);
  for (size_t i = 0; i < acc.size(); ++i)
    acc[i] = LLVM::ExtractValueOp::create(builder, loc, wait.getResult(0), i);
}

struct WarpGroupDotWaitOpConversion
    : OpConversionPattern<tilegpu::WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> acc = unpackRegisters(rewriter, loc, adaptor.getInput());
    emitWarpGroupWait(rewriter, loc, acc, op.getPendings());
    rewriter.replaceOp(
        op, packRegisters(rewriter, loc, acc, adaptor.getInput().getType()));
    return success();
  }
};

struct WarpGroupDotOpConversion : OpConversionPattern<tilegpu::WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tilegpu::WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A comes from shared memory (a descriptor per k-step) or from
    // registers (four 32-bit registers per k-step, the mma.sync A fragment
    // of each warp's 16 rows).
    auto aTile = dyn_cast<MemDescType>(op.getA().getType());
    std::optional<NVMMASharedLayout> aLayout;
    if (aTile)
      aLayout = getNVMMASharedLayout(aTile);
    auto bLayout = getNVMMASharedLayout(op.getB().getType());
    auto cLayout = getMmaLayout(op.getType());
    if ((aTile && !aLayout) || !bLayout || !cLayout ||
        cLayout->mma.getVersionMajor() != 3)
      return rewriter.notifyMatchFailure(op, "expected wgmma layouts");
    RankedTensorType cType = op.getType();
    auto aBlock = dyn_cast<RankedTensorType>(op.getA().getType());
    int64_t n = cType.getDimSize(1);
    int64_t k = aTile ? aTile.getShape()[1] : aBlock.getDimSize(1);
    Type element = aTile ? aTile.getElementType() : aBlock.getElementType();
    // tf32 takes k-steps of 8 and has no transposed (MN-major) forms.
    bool tf32 = element.isF32();
    std::string inType = tf32 ? "tf32" : element.isBF16() ? "bf16" : "f16";
    int64_t kStep = tf32 ? 8 : 16;
    // A is K-major when contiguous along K (dim 1), B when along dim 0.
    bool aKMajor = !aLayout || aLayout->contigDim == 1;
    bool bKMajor = bLayout->contigDim == 0;

    Type i64 = rewriter.getI64Type();
    auto addressOf = [&](Value ptr) -> Value {
      return LLVM::PtrToIntOp::create(rewriter, loc, i64, ptr);
    };
    auto [bLeading, bStride] = getDescriptorStrides(*bLayout, bKMajor);
    Value bDesc = createDescriptor(rewriter, loc, addressOf(adaptor.getB()),
                                   bLeading, bStride, bLayout->swizzle);
    Value aDesc;
    SmallVector<Value> aRegisters;
    if (aLayout) {
      auto [aLeading, aStride] = getDescriptorStrides(*aLayout, aKMajor);
      // This warp group's first row (64 rows per group), added to the
      // address before it becomes the descriptor's start field: the
      // descriptor is then one start field OR constant fields, as B's.
      // (Added to the finished descriptor, LLVM folds the fields into a
      // 64-bit add of a per-warp product, and offline ptxas (12.8, 13.0)
      // dropped the fields' high word from that: wrong results from
      // cubins, right ones from the driver's JIT.)
      ThreadIds ids = getThreadIds(rewriter, loc);
      Value group = LLVM::ZExtOp::create(
          rewriter, loc, i64,
          LLVM::LShrOp::create(rewriter, loc, ids.warp,
                               createI32(rewriter, loc, 2)));
      int64_t groupBytes =
          tileOffset(*aLayout, 64, 0) - tileOffset(*aLayout, 0, 0);
      // (Operands built one statement each: the order of the ops does not
      // depend on the compiler's order of evaluating arguments.)
      Value rows = LLVM::MulOp::create(rewriter, loc, group,
                                       createI64(rewriter, loc, groupBytes));
      Value base = addressOf(adaptor.getA());
      Value address = LLVM::AddOp::create(rewriter, loc, base, rows);
      aDesc = createDescriptor(rewriter, loc, address, aLeading, aStride,
                               aLayout->swizzle);
    } else {
      SmallVector<Value> halves =
          unpackRegisters(rewriter, loc, adaptor.getA());
      for (size_t i = 0; i + 1 < halves.size(); i += 2)
        aRegisters.push_back(
            packDotOperand(rewriter, loc, ArrayRef(halves).slice(i, 2)));
    }
    auto advance = [&](Value desc, int64_t bytes) -> Value {
      if (bytes == 0)
        return desc;
      return LLVM::AddOp::create(rewriter, loc, desc,
                                 createI64(rewriter, loc, bytes >> 4));
    };

    SmallVector<Value> acc = unpackRegisters(rewriter, loc, adaptor.getAcc());
    // A zero accumulator is not read: the first k-step's scale-d is 0
    // (D = A B), so no register is set to zero first.
    Attribute accValue;
    bool zeroAcc = matchPattern(op.getAcc(), m_Constant(&accValue)) &&
                   tile::isZeroConstant(accValue);
    if (zeroAcc)
      for (Value &value : acc)
        value = LLVM::UndefOp::create(rewriter, loc, value.getType());
    int64_t perInstr = n / 2; // f32 accumulators per thread per m64nN.
    int64_t kSteps = k / kStep;
    Type f32 = rewriter.getF32Type();
    Type resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(perInstr, f32));
    // One asm statement per 64-row repetition holds all its k-steps: the
    // accumulators are its outputs once, not once per k-step (the 128-wide
    // asm operand lists are most of the code generator's time on large
    // tiles). Operands: accumulators $0..$N-1 (outputs, tied to the inputs
    // after the A and B operands), then per k-step A (a descriptor or four
    // registers) and B's descriptor, then the scale-d flag (with a zero
    // accumulator: that of the first k-step, 0, and of the others, 1).
    int64_t aOperands = aLayout ? 1 : 4;
    int64_t perStep = aOperands + 1;
    int64_t flagOperand = perInstr + perStep * kSteps;
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" +
                       std::to_string(flagOperand) + ", 0;\n";
    if (zeroAcc)
      text = "{\n.reg .pred p, p0;\nsetp.ne.b32 p, $" +
             std::to_string(flagOperand) + ", 0;\nsetp.ne.b32 p0, $" +
             std::to_string(flagOperand + 1) + ", 0;\n";
    std::string registers;
    for (int64_t i = 0; i < perInstr; ++i)
      registers += (i ? ", $" : "$") + std::to_string(i);
    for (int64_t step = 0; step < kSteps; ++step) {
      int64_t first = perInstr + perStep * step;
      std::string a = "$" + std::to_string(first);
      if (!aLayout)
        a = "{$" + std::to_string(first) + ", $" + std::to_string(first + 1) +
            ", $" + std::to_string(first + 2) + ", $" +
            std::to_string(first + 3) + "}";
      text += "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k" +
              std::to_string(kStep) + ".f32." + inType + "." + inType + " {" +
              registers + "}, " + a + ", $" +
              std::to_string(first + aOperands) +
              (zeroAcc && step == 0 ? ", p0, 1, 1" : ", p, 1, 1");
      if (!tf32 && aLayout)
        text += std::string(", ") + (aKMajor ? "0" : "1");
      if (!tf32)
        text += std::string(", ") + (bKMajor ? "0" : "1");
      text += ";\n";
    }
    text += "}";
    std::string constraints;
    for (int64_t i = 0; i < perInstr; ++i)
      constraints += "=f,";
    for (int64_t step = 0; step < kSteps; ++step)
      constraints += aLayout ? "l,l," : "r,r,r,r,l,";
    constraints += zeroAcc ? "r,r" : "r";
    for (int64_t i = 0; i < perInstr; ++i)
      constraints += "," + std::to_string(i);

    createInlineAsm(rewriter, loc, Type(), ValueRange(),
                    "wgmma.fence.sync.aligned;", "");
    Value one = createI32(rewriter, loc, 1);
    int64_t rowsPerRep = 16 * cLayout->wm;
    for (int64_t m = 0; m < cLayout->repM; ++m) {
      int64_t base = m * perInstr;
      SmallVector<Value> operands;
      for (int64_t step = 0; step < kSteps; ++step) {
        int64_t kk = step * kStep;
        if (aLayout)
          operands.push_back(
              advance(aDesc, tileOffset(*aLayout, m * rowsPerRep, kk)));
        else
          // The A fragment registers of repetition m, k-step `step`.
          llvm::append_range(
              operands, ArrayRef(aRegisters).slice((m * kSteps + step) * 4, 4));
        operands.push_back(advance(bDesc, tileOffset(*bLayout, kk, 0)));
      }
      operands.push_back(one);
      if (zeroAcc)
        operands.push_back(createI32(rewriter, loc, 0));
      operands.append(acc.begin() + base, acc.begin() + base + perInstr);
      auto mma = createInlineAsm(rewriter, loc, resultType, operands, text,
                                 constraints);
      for (int64_t i = 0; i < perInstr; ++i)
        acc[base + i] =
            LLVM::ExtractValueOp::create(rewriter, loc, mma.getResult(0), i);
    }
    createInlineAsm(rewriter, loc, Type(), ValueRange(),
                    "wgmma.commit_group.sync.aligned;", "");
    // An asynchronous dot reading A from registers leaves keeping them
    // unchanged until its wait to ptxas, which tracks the registers in use
    // by wgmma (and serializes, with warning C7515, where it cannot).
    if (!op.getIsAsync())
      emitWarpGroupWait(rewriter, loc, acc, 0);
    rewriter.replaceOp(op,
                       packRegisters(rewriter, loc, acc,
                                     getTypeConverter()->convertType(cType)));
    return success();
  }
};
} // namespace

void mlir::tilegpu::markStagingBarriers(Operation *root) {
  root->walk([](Block *block) {
    for (Operation &op : *block) {
      if (!isSwizzledStaging(&op))
        continue;
      if (isSwizzledStaging(op.getPrevNode()))
        op.setAttr(kNoLeadingBarrier, UnitAttr::get(op.getContext()));
      if (isSwizzledStaging(op.getNextNode()))
        op.setAttr(kNoTrailingBarrier, UnitAttr::get(op.getContext()));
    }
  });
}

void mlir::tilegpu::populateWarpGroupDotOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<SwizzledLocalAllocOpConversion, WarpGroupDotOpConversion,
               WarpGroupDotWaitOpConversion>(converter, patterns.getContext());
}
