//===- AST.h - Syntax tree of the .tile language ----------------*- C++ -*-===//
//
// The untyped syntax tree produced by the parser: a Module of Functions
// (kernels and helpers; in a Python source, `@triton.jit` functions and
// module-level constexprs), statements and expressions close to Python's
// `ast`.
// Every node carries the SourceLoc of its first token. Nodes use LLVM-style
// RTTI (`llvm::isa`/`llvm::dyn_cast` on their Kind). `dumpAST` prints the
// tree as stable indented text (`tilec --emit=ast`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/NodeOf.h"
#include "tilec/Frontend/Types.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {
namespace ast {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The kinds of expressions.
enum class ExprKind {
  Int,
  Float,
  Bool,
  None,
  String,
  Name,
  Attribute,
  Call,
  Subscript,
  Slice,
  Unary,
  Binary,
  Tuple,
  Ternary,
};

/// Base class of all expressions.
class Expr : public KindedNode<ExprKind> {
public:
  using KindedNode::KindedNode;
};
using ExprPtr = std::unique_ptr<Expr>;

/// An integer literal (non-negative; `-1` is a unary minus).
class IntLiteral : public NodeOf<Expr, Expr::Kind::Int> {
public:
  IntLiteral(SourceLoc loc, uint64_t value) : NodeOf(loc), value(value) {}
  uint64_t value;
};

/// A float literal.
class FloatLiteral : public NodeOf<Expr, Expr::Kind::Float> {
public:
  FloatLiteral(SourceLoc loc, double value) : NodeOf(loc), value(value) {}
  double value;
};

/// `True` / `False`.
class BoolLiteral : public NodeOf<Expr, Expr::Kind::Bool> {
public:
  BoolLiteral(SourceLoc loc, bool value) : NodeOf(loc), value(value) {}
  bool value;
};

/// `None`.
class NoneLiteral : public NodeOf<Expr, Expr::Kind::None> {
public:
  explicit NoneLiteral(SourceLoc loc) : NodeOf(loc) {}
};

/// A string literal (adjacent literals are concatenated).
class StringLiteral : public NodeOf<Expr, Expr::Kind::String> {
public:
  StringLiteral(SourceLoc loc, std::string value)
      : NodeOf(loc), value(std::move(value)) {}
  std::string value;
};

/// A name: a variable, parameter, builtin, helper or dtype.
class NameExpr : public NodeOf<Expr, Expr::Kind::Name> {
public:
  NameExpr(SourceLoc loc, std::string name)
      : NodeOf(loc), name(std::move(name)) {}
  std::string name;
};

/// `base.attr` (`tl.float32`, `x.dtype`, `x.to`).
class AttributeExpr : public NodeOf<Expr, Expr::Kind::Attribute> {
public:
  AttributeExpr(SourceLoc loc, ExprPtr base, std::string attr,
                SourceLoc attrLoc)
      : NodeOf(loc), base(std::move(base)), attr(std::move(attr)),
        attrLoc(attrLoc) {}
  ExprPtr base;
  std::string attr;
  SourceLoc attrLoc;
};

/// A keyword argument `name=value` of a call.
struct KeywordArg {
  std::string name;
  SourceLoc loc;
  ExprPtr value;
};

/// `callee(args..., name=value...)`.
class CallExpr : public NodeOf<Expr, Expr::Kind::Call> {
public:
  CallExpr(SourceLoc loc, ExprPtr callee)
      : NodeOf(loc), callee(std::move(callee)) {}
  ExprPtr callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> kwargs;
};

/// `base[i, j, ...]`; indices may be SliceExpr or NoneLiteral.
class SubscriptExpr : public NodeOf<Expr, Expr::Kind::Subscript> {
public:
  SubscriptExpr(SourceLoc loc, ExprPtr base)
      : NodeOf(loc), base(std::move(base)) {}
  ExprPtr base;
  std::vector<ExprPtr> indices;
};

/// `lower:upper:step` inside a subscript; each part may be null.
class SliceExpr : public NodeOf<Expr, Expr::Kind::Slice> {
public:
  explicit SliceExpr(SourceLoc loc) : NodeOf(loc) {}
  ExprPtr lower, upper, step;
};

/// Unary operators.
enum class UnaryOp { Neg, Pos, Invert, Not };
/// Binary operators, including `and`/`or` and comparisons.
enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  MatMul,
  Shl,
  Shr,
  BitAnd,
  BitOr,
  BitXor,
  And,
  Or,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Is,
  IsNot,
};
/// The operator as written: "+", "//", "and", "<=", "is not".
llvm::StringRef getUnaryOpSpelling(UnaryOp op);
llvm::StringRef getBinaryOpSpelling(BinaryOp op);

/// `-x`, `+x`, `~x`, `not x`.
class UnaryExpr : public NodeOf<Expr, Expr::Kind::Unary> {
public:
  UnaryExpr(SourceLoc loc, UnaryOp op, ExprPtr operand)
      : NodeOf(loc), op(op), operand(std::move(operand)) {}
  UnaryOp op;
  ExprPtr operand;
};

/// `lhs op rhs`; the location is the operator's.
class BinaryExpr : public NodeOf<Expr, Expr::Kind::Binary> {
public:
  BinaryExpr(SourceLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : NodeOf(loc), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  BinaryOp op;
  ExprPtr lhs, rhs;
};

/// `(a, b)` or `[a, b]`.
class TupleExpr : public NodeOf<Expr, Expr::Kind::Tuple> {
public:
  TupleExpr(SourceLoc loc, bool isList) : NodeOf(loc), isList(isList) {}
  std::vector<ExprPtr> elements;
  bool isList;
};

/// `a if cond else b`.
class TernaryExpr : public NodeOf<Expr, Expr::Kind::Ternary> {
public:
  TernaryExpr(SourceLoc loc, ExprPtr trueValue, ExprPtr cond,
              ExprPtr falseValue)
      : NodeOf(loc), trueValue(std::move(trueValue)), cond(std::move(cond)),
        falseValue(std::move(falseValue)) {}
  ExprPtr trueValue, cond, falseValue;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// The kinds of statements.
enum class StmtKind { Expr, Assign, AugAssign, If, For, While, Return, Pass };

/// Base class of all statements.
class Stmt : public KindedNode<StmtKind> {
public:
  using KindedNode::KindedNode;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

/// An expression evaluated for its effect (`store(...)`, docstrings).
class ExprStmt : public NodeOf<Stmt, Stmt::Kind::Expr> {
public:
  ExprStmt(SourceLoc loc, ExprPtr expr) : NodeOf(loc), expr(std::move(expr)) {}
  ExprPtr expr;
};

/// `target = value`; the target is a NameExpr or a TupleExpr of names.
class AssignStmt : public NodeOf<Stmt, Stmt::Kind::Assign> {
public:
  AssignStmt(SourceLoc loc, ExprPtr target, ExprPtr value,
             bool isConstexpr = false)
      : NodeOf(loc), target(std::move(target)), value(std::move(value)),
        isConstexpr(isConstexpr) {}
  ExprPtr target, value;
  /// `target: tl.constexpr = value` (other annotations are not kept).
  bool isConstexpr;
};

/// `target op= value`.
class AugAssignStmt : public NodeOf<Stmt, Stmt::Kind::AugAssign> {
public:
  AugAssignStmt(SourceLoc loc, BinaryOp op, ExprPtr target, ExprPtr value)
      : NodeOf(loc), op(op), target(std::move(target)),
        value(std::move(value)) {}
  BinaryOp op;
  ExprPtr target, value;
};

/// `if cond: ... else: ...`; `elif` is an IfStmt alone in `elseBody` with
/// `isElif` set.
class IfStmt : public NodeOf<Stmt, Stmt::Kind::If> {
public:
  IfStmt(SourceLoc loc, ExprPtr cond) : NodeOf(loc), cond(std::move(cond)) {}
  ExprPtr cond;
  Block thenBody, elseBody;
  bool isElif = false;
  /// An early exit was lifted into this `if` (liftEarlyReturns moved the
  /// rest of the function into a branch): the function ends after it, as
  /// after Triton's top-level early return, so the names its branches
  /// assign are not merged.
  bool endsFunction = false;
};

/// `for var in iter: body`.
class ForStmt : public NodeOf<Stmt, Stmt::Kind::For> {
public:
  ForStmt(SourceLoc loc, std::string var, SourceLoc varLoc, ExprPtr iter)
      : NodeOf(loc), var(std::move(var)), varLoc(varLoc),
        iter(std::move(iter)) {}
  std::string var;
  SourceLoc varLoc;
  ExprPtr iter;
  Block body;
};

/// `while cond: body`.
class WhileStmt : public NodeOf<Stmt, Stmt::Kind::While> {
public:
  WhileStmt(SourceLoc loc, ExprPtr cond) : NodeOf(loc), cond(std::move(cond)) {}
  ExprPtr cond;
  Block body;
};

/// `return [value]`.
class ReturnStmt : public NodeOf<Stmt, Stmt::Kind::Return> {
public:
  ReturnStmt(SourceLoc loc, ExprPtr value)
      : NodeOf(loc), value(std::move(value)) {}
  ExprPtr value; ///< May be null.
};

/// `pass`.
class PassStmt : public NodeOf<Stmt, Stmt::Kind::Pass> {
public:
  explicit PassStmt(SourceLoc loc) : NodeOf(loc) {}
};

//===----------------------------------------------------------------------===//
// Functions and modules
//===----------------------------------------------------------------------===//

/// A parameter annotation: none, a scalar dtype, a pointer, or constexpr.
struct TypeAnnotation {
  enum class Kind { None, Scalar, Pointer, Constexpr };
  Kind kind = Kind::None;
  ScalarType elem = ScalarType::I32;
  SourceLoc loc;
  /// "*f16", "i32", "constexpr", "" for none.
  std::string str() const;
};

/// One parameter of a function.
struct Param {
  std::string name;
  SourceLoc loc;
  TypeAnnotation type;
  ExprPtr defaultValue; ///< May be null.
};

/// One `triton.Config({'NAME': value, ...}, num_warps=W, num_stages=S)`
/// of a `@triton.autotune` decorator.
struct AutotuneConfig {
  std::vector<std::pair<std::string, ConstexprValue>> values;
  std::optional<int64_t> numWarps, numStages;
  SourceLoc loc;
};

/// A decorator above `@triton.jit` in a Python source:
/// `@triton.autotune(...)` or `@triton.heuristics(...)`. Neither runs: the
/// configs of an autotune decorator are recorded when they are written out
/// (a list of `triton.Config`s of literals), so that the constexpr values
/// of a compile select one and its num_warps / num_stages.
struct TritonDecorator {
  /// As written: "triton.autotune".
  std::string name;
  SourceLoc loc;
  /// The autotune configs, when they could be read.
  std::optional<std::vector<AutotuneConfig>> configs;
};

/// A `def`: a kernel (decorated with `@kernel`) or a device helper.
class Function {
public:
  std::string name;
  SourceLoc loc;
  bool isKernel = false;
  /// Decorated with `@triton.jit` in a Python source: a kernel when it is
  /// compiled (its untyped parameters typed by the signature), a helper when
  /// called.
  bool isTritonJit = false;
  /// Launch options from `@kernel(num_warps=N, num_stages=S)`.
  std::optional<int64_t> numWarps, numStages;
  std::vector<Param> params;
  Block body;
  /// The names the body calls as functions (`f(...)`), which tell a Python
  /// source's kernels from its helpers.
  std::vector<std::string> calledNames;
  /// `@triton.autotune` / `@triton.heuristics` above `@triton.jit`.
  std::vector<TritonDecorator> tritonDecorators;
};

/// A module-level compile-time constant of a Python source:
/// `NAME = tl.constexpr(value)` or `NAME: tl.constexpr = value`.
struct ConstexprGlobal {
  std::string name;
  SourceLoc loc;
  /// The value (inside `tl.constexpr(...)`).
  ExprPtr value;
};

/// Rewrites `if c: ...; return` followed by more statements, where the `if`
/// is in tail position, into `if c: ... else: <the rest>` (EarlyReturns.cpp).
/// The parser applies it to every function body.
void liftEarlyReturns(Block &block);

/// A parsed .tile file (or the Triton functions of a Python source).
class Module {
public:
  /// The buffer's name (file path or "<stdin>").
  std::string filename;
  std::vector<std::unique_ptr<Function>> functions;
  /// Module-level constexprs (Python sources only).
  std::vector<ConstexprGlobal> globals;
  /// The names that a Python source's skipped host code defines at the top
  /// level (variables, plain functions, classes), for messages.
  std::vector<std::string> hostNames;
  /// Why some of hostNames are the host code's: a module-level `if` tilec
  /// could not decide (HostCode::whyUndecided).
  std::map<std::string, std::string> hostNameNotes;
  /// Names a Python source's imports give Triton's function modules
  /// (HostCode::moduleAliases).
  std::vector<std::string> moduleAliases;
  /// Names a Python source's imports give `triton.language` besides `tl`
  /// (HostCode::languageAliases).
  std::vector<std::string> languageAliases;

  /// "'NAME' is defined by the file's host code, which tilec does not
  /// compile", with the note of hostNameNotes when there is one.
  std::string describeHostName(const std::string &name) const;

  /// The function named `name`, or null.
  const Function *lookup(llvm::StringRef name) const;
  /// The module-level constexpr named `name`, or null.
  const ConstexprGlobal *lookupGlobal(llvm::StringRef name) const;
  /// The kernels in source order: the `@kernel` functions, and the
  /// `@triton.jit` functions that no function of the file calls.
  std::vector<const Function *> getKernels() const;
};

/// Prints the tree as indented text, one node per line with `@LINE:COL`.
void dumpAST(const Module &module, llvm::raw_ostream &os);

} // namespace ast
} // namespace tilec

#endif // TILEC_FRONTEND_AST_H
