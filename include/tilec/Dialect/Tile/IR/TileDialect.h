//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares the tile dialect, its pointer type, enums and operations. Include
// this header to use any of them.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_H
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h.inc"
#include "tilec/Dialect/Tile/IR/TileEnums.h"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileTypes.h.inc"

namespace mlir::tile {
/// The type a load through `ptrLike` yields: the pointee type of a pointer,
/// or a tensor of the pointee type of the same shape for a block of pointers.
Type getPointeeTypeLike(Type ptrLike);
/// `i1` for a scalar, or a tensor of `i1` of the same shape.
Type getI1TypeLike(Type type);
/// The element count of a ranked tensor type, or 1 for a scalar.
int64_t getNumElements(Type type);
/// Whether `attr` is an integer or float constant (scalar or splat) of
/// value zero.
bool isZeroConstant(Attribute attr);

/// Names of the attributes on a kernel's `func.func`.
inline constexpr llvm::StringLiteral kKernelAttrName = "tile.kernel";
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "tile.num_warps";
inline constexpr llvm::StringLiteral kNumStagesAttrName = "tile.num_stages";

/// On an `arith.divf` of f32: the quotient rounded to nearest as IEEE 754
/// asks (`div_rn`, `div.rn.f32`), where a plain `/` may be within 2 ulp
/// (`div.full.f32`, as Triton's). Passes that rewrite divisions keep it.
inline constexpr llvm::StringLiteral kIeeeRoundingAttrName =
    "tile.ieee_rounding";

/// On a scalar f32 `arith.divf 1.0, s` whose `s` and `1 / s` are known to be
/// normal floats (tile-divide-by-scalar checks): lower it to
/// `rcp.approx.ftz.f32` (1 ulp, one MUFU operation), not `div.full.f32`.
inline constexpr llvm::StringLiteral kNormalReciprocalAttrName =
    "tile.normal_reciprocal";

/// Checks that `type`, when it is a tensor (a block), is static, of rank at
/// least 1, with every dimension a power of two (at least 1) and at most
/// tilec::kMaxBlockElements elements (counted without overflow). `what`
/// names the value in the diagnostic, emitted at `op`.
LogicalResult verifyBlockType(Operation *op, Type type, llvm::StringRef what);

/// verifyBlockType on every operand and result of `op`.
LogicalResult verifyBlockTypes(Operation *op);

/// verifyBlockType on every value in `root` (results and block arguments
/// of every nested op, whatever its dialect): what `tile.kernel` functions
/// are verified with, and what passes that lay out blocks check first.
LogicalResult verifyBlocksIn(Operation *root);

/// The trait of every tile op (Tile_BoundedBlocks): its blocks are bounded.
template <typename ConcreteType>
class BoundedBlocks : public OpTrait::TraitBase<ConcreteType, BoundedBlocks> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyBlockTypes(op);
  }
};
} // namespace mlir::tile

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {
/// The fold of an op whose result is its operand `src` in another type
/// (reshape, convert_layout): the operand when the types agree; a chain of
/// two becomes one (`op(op(x))` -> `op(x)`); null otherwise.
template <typename OpT> OpFoldResult foldRetypeChain(OpT op) {
  if (op.getSrc().getType() == op.getType())
    return op.getSrc();
  if (auto inner = op.getSrc().template getDefiningOp<OpT>()) {
    op.getSrcMutable().assign(inner.getSrc());
    return op.getResult();
  }
  return {};
}
} // namespace mlir::tile

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_H
