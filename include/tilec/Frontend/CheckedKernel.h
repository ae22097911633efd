//===- CheckedKernel.h - Typed, elaborated kernel for MLIRGen ---*- C++ -*-===//
//
// The output of semantic analysis: one kernel with constexprs substituted,
// helpers inlined, static_range loops unrolled, static_assert/static_print
// removed, and every implicit conversion made explicit (casts, splats,
// expand_dims + broadcasts, `other` of masked loads, `acc` of dots). Each
// expression carries its TType and SourceLoc, so MLIRGen can translate the
// tree one node at a time.
//
// Variables have mutable-variable semantics: AssignStmt (re)binds a name;
// names are unique per kernel (helper locals are renamed `x.1`, ...). Regions
// (if branches, loop bodies) see the names bound before them; a name bound
// inside a region is visible after it only if it is listed in the region's
// `yields` (IfStmt) or `carried` (ForStmt, WhileStmt).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_CHECKEDKERNEL_H
#define TILEC_FRONTEND_CHECKEDKERNEL_H

#include "tilec/Dialect/Tile/IR/TileEnums.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/NodeOf.h"
#include "tilec/Frontend/Types.h"
#include "tilec/Support/CompileOptions.h"

#include "llvm/Support/Casting.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {
namespace checked {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

enum class ExprKind {
  Constant,
  VarRef,
  Unary,
  Binary,
  Select,
  Fma,
  Cast,
  Bitcast,
  Splat,
  Broadcast,
  ExpandDims,
  Reshape,
  Trans,
  AddPtr,
  MakeRange,
  ProgramId,
  NumPrograms,
  Load,
  AtomicRMW,
  AtomicCAS,
  Dot,
  Reduce,
  Math,
  Hint,
};

/// Base of all typed expressions: a kind, a result type and a location.
class Expr {
public:
  Expr(ExprKind kind, TType type, SourceLoc loc)
      : kind(kind), type(std::move(type)), loc(loc) {}
  virtual ~Expr() = default;
  ExprKind getKind() const { return kind; }
  const TType &getType() const { return type; }
  SourceLoc getLoc() const { return loc; }

private:
  ExprKind kind;
  TType type;
  SourceLoc loc;
};
using ExprPtr = std::unique_ptr<Expr>;

/// A constant scalar, or a block with every element equal to `value`
/// (`zeros`, `full`, splatted literals). `value` is Int for integer element
/// types, Bool for i1, Float for float element types.
class ConstantExpr : public NodeOf<Expr, ExprKind::Constant> {
public:
  ConstantExpr(TType type, SourceLoc loc, ConstexprValue value)
      : NodeOf(std::move(type), loc), value(value) {}
  ConstexprValue value;
};

/// The current value of a variable or kernel parameter.
class VarRefExpr : public NodeOf<Expr, ExprKind::VarRef> {
public:
  VarRefExpr(TType type, SourceLoc loc, std::string name)
      : NodeOf(std::move(type), loc), name(std::move(name)) {}
  std::string name;
};

/// Neg: arithmetic negation (int or float). Not: logical not on i1, bitwise
/// not on other integers. Result type = operand type.
enum class UnaryOp { Neg, Not };
class UnaryExpr : public NodeOf<Expr, ExprKind::Unary> {
public:
  UnaryExpr(TType type, SourceLoc loc, UnaryOp op, ExprPtr operand)
      : NodeOf(std::move(type), loc), op(op), operand(std::move(operand)) {}
  UnaryOp op;
  ExprPtr operand;
};

/// Binary operators. Both operands always have the same type (same element,
/// same shape). Signedness comes from that element type (u* = unsigned).
/// - FDiv: float division (float operands only).
/// - IDiv, Rem: integer division / remainder truncating toward zero (C);
///   Rem on floats is fmod.
/// - And/Or/Xor: bitwise on integers, logical on i1.
/// - Shr: arithmetic for signed, logical for unsigned types.
/// - Max/Min: maximum/minimum (floats: like arith.maximumf/minimumf).
/// - Eq..Ge: comparisons; the result type is i1 with the operands' shape.
enum class BinaryOp {
  Add,
  Sub,
  Mul,
  FDiv,
  IDiv,
  Rem,
  And,
  Or,
  Xor,
  Shl,
  Shr,
  Max,
  Min,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Pow,    // floats: math.powf
  Atan2,  // floats: math.atan2
  UMulHi, // i32/u32: the high 32 bits of the unsigned 64-bit product
  FDivRN, // f32/f64: division rounded to nearest (IEEE), div_rn
};
/// True for Eq..Ge.
bool isComparison(BinaryOp op);
class BinaryExpr : public NodeOf<Expr, ExprKind::Binary> {
public:
  BinaryExpr(TType type, SourceLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : NodeOf(std::move(type), loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  BinaryOp op;
  ExprPtr lhs, rhs;
};

/// `where(cond, a, b)`: cond is i1 with the result's shape; a and b have the
/// result type.
class SelectExpr : public NodeOf<Expr, ExprKind::Select> {
public:
  SelectExpr(TType type, SourceLoc loc, ExprPtr cond, ExprPtr trueValue,
             ExprPtr falseValue)
      : NodeOf(std::move(type), loc), cond(std::move(cond)),
        trueValue(std::move(trueValue)), falseValue(std::move(falseValue)) {}
  ExprPtr cond, trueValue, falseValue;
};

/// `a * b + c` fused; all three have the (float) result type.
class FmaExpr : public NodeOf<Expr, ExprKind::Fma> {
public:
  FmaExpr(TType type, SourceLoc loc, ExprPtr a, ExprPtr b, ExprPtr c)
      : NodeOf(std::move(type), loc), a(std::move(a)), b(std::move(b)),
        c(std::move(c)) {}
  ExprPtr a, b, c;
};

/// The base of an expression of kind K on one operand.
template <ExprKind K> class OperandExpr : public NodeOf<Expr, K> {
public:
  OperandExpr(TType type, SourceLoc loc, ExprPtr operand)
      : NodeOf<Expr, K>(std::move(type), loc), operand(std::move(operand)) {}
  ExprPtr operand;
};

/// Element-type conversion to getType() (same shape): int<->int (sign- or
/// zero-extension from the source's signedness, truncation), int<->float,
/// float<->float, and to/from i1 (x != 0 when converting to i1).
class CastExpr : public OperandExpr<ExprKind::Cast> {
public:
  using OperandExpr::OperandExpr;
};

/// The bits of the operand read as getType()'s element type (same shape,
/// same element width): `x.to(tl.int32, bitcast=True)`.
class BitcastExpr : public OperandExpr<ExprKind::Bitcast> {
public:
  using OperandExpr::OperandExpr;
};

/// A scalar (value or pointer) splatted to the block type getType().
class SplatExpr : public OperandExpr<ExprKind::Splat> {
public:
  using OperandExpr::OperandExpr;
};

/// Broadcast of a block to getType().shape: same rank, each operand
/// dimension is either equal to the result's or 1.
class BroadcastExpr : public OperandExpr<ExprKind::Broadcast> {
public:
  using OperandExpr::OperandExpr;
};

/// Inserts a unit dimension at `axis` (0 <= axis <= operand rank).
class ExpandDimsExpr : public NodeOf<Expr, ExprKind::ExpandDims> {
public:
  ExpandDimsExpr(TType type, SourceLoc loc, ExprPtr operand, int64_t axis)
      : NodeOf(std::move(type), loc), operand(std::move(operand)), axis(axis) {}
  ExprPtr operand;
  int64_t axis;
};

/// Row-major reshape to getType().shape (same number of elements).
class ReshapeExpr : public OperandExpr<ExprKind::Reshape> {
public:
  using OperandExpr::OperandExpr;
};

/// A permutation of the dimensions of a block: result dim i is operand dim
/// order[i] (a 2-D transpose is [1, 0]).
class TransExpr : public NodeOf<Expr, ExprKind::Trans> {
public:
  TransExpr(TType type, SourceLoc loc, ExprPtr operand,
            std::vector<int32_t> order)
      : NodeOf(std::move(type), loc), operand(std::move(operand)),
        order(std::move(order)) {}
  ExprPtr operand;
  std::vector<int32_t> order;
};

/// Pointer arithmetic: `ptr + offset` in elements. `ptr` and `offset` have
/// the same shape as the result; `offset` is an integer of any width and
/// signedness.
class AddPtrExpr : public NodeOf<Expr, ExprKind::AddPtr> {
public:
  AddPtrExpr(TType type, SourceLoc loc, ExprPtr ptr, ExprPtr offset)
      : NodeOf(std::move(type), loc), ptr(std::move(ptr)),
        offset(std::move(offset)) {}
  ExprPtr ptr, offset;
};

/// `arange(start, end)`: an i32[end - start] block start, start+1, ...
class MakeRangeExpr : public NodeOf<Expr, ExprKind::MakeRange> {
public:
  MakeRangeExpr(TType type, SourceLoc loc, int64_t start, int64_t end)
      : NodeOf(std::move(type), loc), start(start), end(end) {}
  int64_t start, end;
};

/// `program_id(axis)`, i32, axis in 0..2.
class ProgramIdExpr : public NodeOf<Expr, ExprKind::ProgramId> {
public:
  ProgramIdExpr(TType type, SourceLoc loc, int axis)
      : NodeOf(std::move(type), loc), axis(axis) {}
  int axis;
};

/// `num_programs(axis)`, i32, axis in 0..2.
class NumProgramsExpr : public NodeOf<Expr, ExprKind::NumPrograms> {
public:
  NumProgramsExpr(TType type, SourceLoc loc, int axis)
      : NodeOf(std::move(type), loc), axis(axis) {}
  int axis;
};

/// `load(ptr, mask, other)`. The result has ptr's shape and pointee type.
/// `mask` (i1, ptr's shape) may be null; when it is not, `other` is
/// non-null and has the result type (zero when the user gave none).
class LoadExpr : public NodeOf<Expr, ExprKind::Load> {
public:
  LoadExpr(TType type, SourceLoc loc, ExprPtr ptr, ExprPtr mask, ExprPtr other)
      : NodeOf(std::move(type), loc), ptr(std::move(ptr)),
        mask(std::move(mask)), other(std::move(other)) {}
  ExprPtr ptr, mask, other;
};

/// The operation, memory ordering and scope of atomics: the tile
/// dialect's enums (TileEnums.td).
using AtomicRMWKind = ::mlir::tile::AtomicRMWKind;
using MemSemantic = ::mlir::tile::MemSemantic;
using MemSyncScope = ::mlir::tile::MemSyncScope;

/// `atomic_add/max/min/and/or/xor/xchg(ptr, value, mask, sem, scope)`:
/// returns the old values. `value` has the result type (ptr's shape,
/// pointee element); `mask` (i1) may be null.
class AtomicRMWExpr : public NodeOf<Expr, ExprKind::AtomicRMW> {
public:
  AtomicRMWExpr(TType type, SourceLoc loc, AtomicRMWKind kind, MemSemantic sem,
                MemSyncScope scope, ExprPtr ptr, ExprPtr value, ExprPtr mask)
      : NodeOf(std::move(type), loc), kind(kind), sem(sem), scope(scope),
        ptr(std::move(ptr)), value(std::move(value)), mask(std::move(mask)) {}
  AtomicRMWKind kind;
  MemSemantic sem;
  MemSyncScope scope;
  ExprPtr ptr, value, mask;
};

/// `atomic_cas(ptr, cmp, value, sem, scope)`: returns the old values. `cmp`
/// and `value` have the result type (ptr's shape, pointee element).
class AtomicCASExpr : public NodeOf<Expr, ExprKind::AtomicCAS> {
public:
  AtomicCASExpr(TType type, SourceLoc loc, MemSemantic sem, MemSyncScope scope,
                ExprPtr ptr, ExprPtr cmp, ExprPtr value)
      : NodeOf(std::move(type), loc), sem(sem), scope(scope),
        ptr(std::move(ptr)), cmp(std::move(cmp)), value(std::move(value)) {}
  MemSemantic sem;
  MemSyncScope scope;
  ExprPtr ptr, cmp, value;
};

/// Precision of f32 dots: the tile dialect's enum (TileEnums.td).
using InputPrecision = ::mlir::tile::InputPrecision;

/// `dot(a, b, acc)`: a is [M, K], b is [K, N] of the same element type; acc
/// (never null; zeros when not given) and the result are [M, N] of f32
/// (f16/bf16/f32 inputs) or i32 (i8 inputs).
class DotExpr : public NodeOf<Expr, ExprKind::Dot> {
public:
  DotExpr(TType type, SourceLoc loc, ExprPtr a, ExprPtr b, ExprPtr acc,
          InputPrecision precision)
      : NodeOf(std::move(type), loc), a(std::move(a)), b(std::move(b)),
        acc(std::move(acc)), precision(precision) {}
  ExprPtr a, b, acc;
  InputPrecision precision;
};

/// Reductions. Sum/Max/Min keep the operand's element type (sums of
/// integers narrower than 32 bits are cast to i32 or u32 first, as Triton's
/// _pick_sum_dtype); ArgMax/ArgMin
/// return i32 indices (the first index on ties).
/// The tile dialect's enum (TileEnums.td); printed by stringifyReduceKind().
using ReduceKind = ::mlir::tile::ReduceKind;
/// Reduction along one `axis` (0 <= axis < rank); the result drops that
/// dimension (a scalar when the operand is 1-D). `axis=None` is expressed
/// as a Reshape to 1-D followed by a reduction along axis 0.
class ReduceExpr : public NodeOf<Expr, ExprKind::Reduce> {
public:
  ReduceExpr(TType type, SourceLoc loc, ReduceKind reduceKind, int64_t axis,
             ExprPtr operand)
      : NodeOf(std::move(type), loc), reduceKind(reduceKind), axis(axis),
        operand(std::move(operand)) {}
  ReduceKind reduceKind;
  int64_t axis;
  ExprPtr operand;
};

/// Elementwise math functions.
enum class MathFn {
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Abs,
  Sin,
  Cos,
  Tanh,
  Erf,
  Sigmoid,
  Floor,
  Ceil,
  Log1p,
  Expm1,
  Log10,
  Exp10,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tan,
  Cbrt,
  Trunc,
  Round,
  Rint
};
/// A math function; operand type = result type, f32 or f64 (f16/bf16 and
/// integer inputs are cast to f32 explicitly, and the result cast back for
/// f16/bf16). Abs also accepts integers.
class MathExpr : public NodeOf<Expr, ExprKind::Math> {
public:
  MathExpr(TType type, SourceLoc loc, MathFn fn, ExprPtr operand)
      : NodeOf(std::move(type), loc), fn(fn), operand(std::move(operand)) {}
  MathFn fn;
  ExprPtr operand;
};

/// Compiler hints; the value is the operand unchanged.
enum class HintKind { MultipleOf, MaxContiguous };
/// `multiple_of(x, values)` / `max_contiguous(x, values)`: one value per
/// dimension (or a single value for every dimension).
class HintExpr : public NodeOf<Expr, ExprKind::Hint> {
public:
  HintExpr(TType type, SourceLoc loc, HintKind hintKind,
           std::vector<int64_t> values, ExprPtr operand)
      : NodeOf(std::move(type), loc), hintKind(hintKind),
        values(std::move(values)), operand(std::move(operand)) {}
  HintKind hintKind;
  std::vector<int64_t> values;
  ExprPtr operand;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

enum class StmtKind {
  Assign,
  Store,
  Expr,
  If,
  For,
  While,
  DevicePrint,
  DebugBarrier,
  GridDepControl,
  Combine,
  InlineAsm
};

/// Base of all statements.
class Stmt : public KindedNode<StmtKind> {
public:
  using KindedNode::KindedNode;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

/// A name with its type (if yields, loop-carried variables).
struct NamedType {
  std::string name;
  TType type;
};

/// `name = value`: binds (or rebinds) a variable.
class AssignStmt : public NodeOf<Stmt, StmtKind::Assign> {
public:
  AssignStmt(SourceLoc loc, std::string name, ExprPtr value)
      : NodeOf(loc), name(std::move(name)), value(std::move(value)) {}
  std::string name;
  ExprPtr value;
};

/// `store(ptr, value, mask)`: value has ptr's shape and pointee element
/// type; mask (i1, same shape) may be null.
class StoreStmt : public NodeOf<Stmt, StmtKind::Store> {
public:
  StoreStmt(SourceLoc loc, ExprPtr ptr, ExprPtr value, ExprPtr mask)
      : NodeOf(loc), ptr(std::move(ptr)), value(std::move(value)),
        mask(std::move(mask)) {}
  ExprPtr ptr, value, mask;
};

/// An expression evaluated for its side effect (an unused atomic).
class ExprStmt : public NodeOf<Stmt, StmtKind::Expr> {
public:
  ExprStmt(SourceLoc loc, ExprPtr expr) : NodeOf(loc), expr(std::move(expr)) {}
  ExprPtr expr;
};

/// A run-time `if` (compile-time conditions are resolved by Sema). `cond` is
/// a scalar i1. Each name of `yields` is bound at the end of both branches
/// (by an assignment in the branch, or from before the `if`) with the given
/// type, and is rebound to the branch's value after the `if`.
class IfStmt : public NodeOf<Stmt, StmtKind::If> {
public:
  IfStmt(SourceLoc loc, ExprPtr cond) : NodeOf(loc), cond(std::move(cond)) {}
  ExprPtr cond;
  Block thenBody, elseBody;
  std::vector<NamedType> yields;
};

/// `for inductionVar in range(lo, hi, step)`: lo, hi, step are scalars of
/// `inductionVarType` (i32 or i64); the step is positive. `carried` names
/// are bound before the loop, rebound in the body with the same type, and
/// hold the last iteration's values after the loop. `numStages` is the
/// `tl.range(..., num_stages=N)` override, or -1.
class ForStmt : public NodeOf<Stmt, StmtKind::For> {
public:
  ForStmt(SourceLoc loc) : NodeOf(loc) {}
  std::string inductionVar;
  TType inductionVarType;
  ExprPtr lo, hi, step;
  Block body;
  std::vector<NamedType> carried;
  int64_t numStages = -1;
};

/// `while cond: body`: `cond` (scalar i1) is evaluated before each
/// iteration on the current values of the `carried` names.
class WhileStmt : public NodeOf<Stmt, StmtKind::While> {
public:
  WhileStmt(SourceLoc loc) : NodeOf(loc) {}
  ExprPtr cond;
  Block body;
  std::vector<NamedType> carried;
};

/// `device_print(prefix, args...)`.
class DevicePrintStmt : public NodeOf<Stmt, StmtKind::DevicePrint> {
public:
  DevicePrintStmt(SourceLoc loc, std::string prefix)
      : NodeOf(loc), prefix(std::move(prefix)) {}
  std::string prefix;
  std::vector<ExprPtr> args;
};

/// `debug_barrier()`.
class DebugBarrierStmt : public NodeOf<Stmt, StmtKind::DebugBarrier> {
public:
  explicit DebugBarrierStmt(SourceLoc loc) : NodeOf(loc) {}
};

/// `tl.extra.cuda.gdc_wait()` / `gdc_launch_dependents()` (programmatic
/// dependent launch).
class GridDepControlStmt : public NodeOf<Stmt, StmtKind::GridDepControl> {
public:
  GridDepControlStmt(SourceLoc loc, bool launchDependents)
      : NodeOf(loc), launchDependents(launchDependents) {}
  bool launchDependents;
};

/// `tl.associative_scan` (Scan) or `tl.reduce` (Reduce) with a combine
/// function, and the built-ins made of them (`cumsum`, `cumprod`,
/// `xor_sum`). The `operands` are blocks of one shape; `params` are the
/// combine function's 2n scalar parameters (the operands' element types,
/// twice: the earlier values, then the later ones), bound in `body`, after
/// which `yields` (n scalars of the element types) are its results. Each
/// name of `results` is then bound to one result: the operand's type for a
/// scan, the operand's shape without `axis` (a scalar for 1-D) for a
/// reduction.
enum class CombineKind { Scan, Reduce };
class CombineStmt : public NodeOf<Stmt, StmtKind::Combine> {
public:
  CombineStmt(SourceLoc loc, CombineKind combineKind, int64_t axis,
              bool reverse)
      : NodeOf(loc), combineKind(combineKind), axis(axis), reverse(reverse) {}
  CombineKind combineKind;
  int64_t axis;
  bool reverse;
  std::vector<ExprPtr> operands;
  std::vector<NamedType> params;
  Block body;
  std::vector<ExprPtr> yields;
  std::vector<NamedType> results;
};

/// `tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure,
/// pack)`: `args` are blocks of one shape (or all scalars); each name of
/// `results` (one per dtype) is bound to a value of that shape.
class InlineAsmStmt : public NodeOf<Stmt, StmtKind::InlineAsm> {
public:
  InlineAsmStmt(SourceLoc loc, std::string asmString, std::string constraints,
                bool pure, int64_t pack)
      : NodeOf(loc), asmString(std::move(asmString)),
        constraints(std::move(constraints)), pure(pure), pack(pack) {}
  std::string asmString, constraints;
  bool pure;
  int64_t pack;
  std::vector<ExprPtr> args;
  std::vector<NamedType> results;
};

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

/// A run-time kernel parameter (PTX entry parameter), in source order.
struct KernelParam {
  std::string name;
  TType type; ///< A scalar: pointer, integer or float.
  SourceLoc loc;
};

/// A resolved constexpr parameter (for the metadata JSON).
struct ConstexprParam {
  std::string name;
  ConstexprValue value;
};

/// The fully checked and elaborated kernel.
class CheckedKernel {
public:
  std::string name;
  /// The source file name (for FileLineColLoc).
  std::string filename;
  SourceLoc loc;
  std::vector<KernelParam> params;
  std::vector<ConstexprParam> constexprs;
  /// Parameters that are host tensor descriptors, each passed as several
  /// of `params` (TensorDescParam).
  std::vector<TensorDescParam> descriptors;
  int64_t numWarps = CompileOptions::kDefaultNumWarps;
  int64_t numStages = CompileOptions::kDefaultNumStages;
  Block body;
};

/// Deep copy of an expression tree.
ExprPtr cloneExpr(const Expr &expr);

/// Prints the checked kernel as indented text, every expression with its
/// type (for tests and `--emit=checked` style debugging).
void dumpCheckedKernel(const CheckedKernel &kernel, llvm::raw_ostream &os);

/// Names for printing: "add", "fdiv", "exp", ...
llvm::StringRef getBinaryOpName(BinaryOp op);
llvm::StringRef getMathFnName(MathFn fn);
/// The MathFn named \p name ("exp", "sigmoid", ...); std::nullopt if none.
std::optional<MathFn> parseMathFnName(llvm::StringRef name);

} // namespace checked
} // namespace tilec

#endif // TILEC_FRONTEND_CHECKEDKERNEL_H
