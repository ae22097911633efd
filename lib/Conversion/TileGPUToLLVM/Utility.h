//===- Utility.h - Helpers of the tilegpu to LLVM lowering ------*- C++ -*-===//
//
// The type converter (a block becomes an LLVM struct of the registers a
// thread holds) and the helpers every lowering pattern shares: packing and
// unpacking registers, thread ids, the index of each register's element,
// shared-memory addresses and predicated inline-PTX memory accesses.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTOLLVM_UTILITY_H
#define TILEC_LIB_CONVERSION_TILEGPUTOLLVM_UTILITY_H

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::tilegpu {

/// Address space of global and shared memory in NVPTX.
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;
/// Name of the module's dynamic shared-memory array.
constexpr llvm::StringLiteral kSharedMemoryName = "global_smem";

/// LLVM types of laid-out programs: a block with a distributed layout
/// becomes `!llvm.struct<(T, T, ...)>` with one member per register,
/// `!tile.ptr<T>` becomes `!llvm.ptr<1>`.
class TileGPUToLLVMTypeConverter : public LLVMTypeConverter {
public:
  TileGPUToLLVMTypeConverter(MLIRContext *context,
                             const LowerToLLVMOptions &options);
  /// The LLVM type of one element of a block of element type `type`.
  Type convertElementType(Type type) const;
};

/// The registers of a converted value: the members of a struct, or the
/// value itself for a scalar.
SmallVector<Value> unpackRegisters(OpBuilder &builder, Location loc,
                                   Value packed);
/// Packs registers into a value of `type` (a struct, or a scalar type
/// when there is one register and `type` is not a struct).
Value packRegisters(OpBuilder &builder, Location loc, ValueRange registers,
                    Type type);

/// Integer constants.
Value createI32(OpBuilder &builder, Location loc, int64_t value);
Value createI64(OpBuilder &builder, Location loc, int64_t value);

/// The lane (0..31) and warp ids of the running thread.
struct ThreadIds {
  Value lane;
  Value warp;
};
ThreadIds getThreadIds(OpBuilder &builder, Location loc);

/// For each register of a block of type `type` (its layout distributed),
/// the index of the element it holds, one i32 per block dimension.
SmallVector<SmallVector<Value>> emitIndices(OpBuilder &builder, Location loc,
                                            RankedTensorType type,
                                            const ThreadIds &ids);

/// The address of the scratch shared memory of `op` (its
/// `tilegpu.scratch_offset`) as `!llvm.ptr<3>`; declares the module's
/// dynamic shared-memory array on first use.
Value getScratchBase(OpBuilder &builder, Location loc, Operation *op);

/// `base + index * sizeof(elementType)` in address space of `base`.
Value gep(OpBuilder &builder, Location loc, Type elementType, Value base,
          Value index);

/// Inline PTX (AT&T dialect) with at most one result (null `result`: none;
/// a struct for several outputs).
LLVM::InlineAsmOp createInlineAsm(OpBuilder &builder, Location loc, Type result,
                                  ValueRange operands, StringRef text,
                                  StringRef constraints,
                                  bool hasSideEffects = true);

/// `(value >> shift) & mask` on i32: a coordinate packed in a thread id.
Value shiftAnd(OpBuilder &builder, Location loc, Value value, unsigned shift,
               unsigned mask);

/// Rounds an f32 to tf32 (10 mantissa bits, round to nearest, ties away).
Value roundToTF32(OpBuilder &builder, Location loc, Value value);

/// A block-wide barrier (`bar.sync 0`).
void createBarrier(OpBuilder &builder, Location loc);

/// Loads one element of `elementType` (an LLVM scalar type) from global
/// `ptr`; where `mask` (i1, may be null) is false nothing is read and the
/// result is `other` (may be null: zero).
Value emitGlobalLoad(OpBuilder &builder, Location loc, Type elementType,
                     Value ptr, Value mask, Value other);
/// Loads `masks.size()` consecutive elements starting at `ptr` with one
/// vector access (its alignment known). Masks (empty: none) and others
/// (empty: zero) are per element; `uniformMask` says all masks are equal.
/// Where masks differ within the vector, the elements are loaded one by one.
SmallVector<Value> emitGlobalVectorLoad(OpBuilder &builder, Location loc,
                                        Type elementType, unsigned width,
                                        ArrayRef<Value> ptrs,
                                        ArrayRef<Value> masks,
                                        ArrayRef<Value> others,
                                        bool uniformMask);
/// Stores consecutive elements with one vector access; see the load.
void emitGlobalVectorStore(OpBuilder &builder, Location loc,
                           ArrayRef<Value> ptrs, ArrayRef<Value> values,
                           ArrayRef<Value> masks, bool uniformMask);

/// Names of the attributes the lowering pass puts on memory ops from the
/// axis analysis: elements per vector access, and whether the mask is
/// constant over each vector.
inline constexpr llvm::StringLiteral kVectorWidthAttrName =
    "tilegpu.vector_width";
inline constexpr llvm::StringLiteral kUniformMaskAttrName =
    "tilegpu.uniform_mask";

/// Stores `value` to global `ptr` where `mask` (may be null) is true.
void emitGlobalStore(OpBuilder &builder, Location loc, Value ptr, Value value,
                     Value mask);
/// Atomically adds `value` at global `ptr` where `mask` is true; returns the
/// old value (zero in masked-off lanes).
FailureOr<Value> emitGlobalAtomicAdd(OpBuilder &builder, Location loc,
                                     Value ptr, Value value, Value mask);

/// Stores `value` (an LLVM scalar) to / loads it from shared memory.
void storeShared(OpBuilder &builder, Location loc, Value ptr, Value value);
Value loadShared(OpBuilder &builder, Location loc, Type type, Value ptr);

/// Byte offset (i32) of element (row, col) of a swizzled tile: `row` along
/// the tile's other dimension, `col` along its contiguous one.
Value emitSwizzledOffset(OpBuilder &builder, Location loc,
                         const NVMMASharedLayout &layout, Value row, Value col);

/// The shared address of element (row, col) of rows `stride` elements apart
/// from `base`.
Value rowElementAddress(OpBuilder &builder, Location loc, Type element,
                        Value base, Value row, Value col, int64_t stride);

/// Stores the registers of a 2-D block of `type` at their rows of `stride`
/// elements from shared `base`; loads a block of `type` from there. Each
/// aligned run of registers holding consecutive elements of a row is one
/// vector access of up to 16 bytes (getContiguousRegisterRun).
void storeSharedRows(OpBuilder &builder, Location loc, RankedTensorType type,
                     ArrayRef<Value> registers, Value base, int64_t stride);
SmallVector<Value> loadSharedRows(OpBuilder &builder, Location loc,
                                  RankedTensorType type, Type element,
                                  Value base, int64_t stride);

/// The lowering of an op that is its only operand once lowered (hints,
/// shared-memory views).
template <typename Op>
struct ForwardOperandConversion : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getOperands().front());
    return success();
  }
};

/// Row-major linear index of a block index with the given shape.
Value linearizeIndex(OpBuilder &builder, Location loc, ArrayRef<Value> index,
                     ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// Pattern population, one function per op family.
//===----------------------------------------------------------------------===//

void populateElementwiseOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateMemoryOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateShapeOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateSharedMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateLocalMemoryOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populateLdmatrixConversionPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
void populatePrintOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateAsyncCopyOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// Numbers each function's tensor-map creations (their pool slots
/// depend on it); before the conversion.
void numberTensorMaps(ModuleOp module);
void populateTMAOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateWarpGroupDotOpToLLVMPatterns(
    const TileGPUToLLVMTypeConverter &converter, RewritePatternSet &patterns);
/// Marks runs of adjacent swizzled staging allocs so that one barrier
/// before and one after the run serve all of them (run before lowering).
void markStagingBarriers(Operation *root);
void populateDotOpToLLVMPatterns(const TileGPUToLLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

} // namespace mlir::tilegpu

#endif // TILEC_LIB_CONVERSION_TILEGPUTOLLVM_UTILITY_H
