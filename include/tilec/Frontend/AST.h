//===- AST.h - Syntax tree of the .tile language ----------------*- C++ -*-===//
//
// The untyped syntax tree produced by the parser: a Module of Functions
// (kernels and helpers), statements and expressions close to Python's `ast`.
// Every node carries the SourceLoc of its first token. Nodes use LLVM-style
// RTTI (`llvm::isa`/`llvm::dyn_cast` on their Kind). `dumpAST` prints the
// tree as stable indented text (`tilec --emit=ast`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Types.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

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

/// Base class of all expressions.
class Expr {
public:
  enum class Kind {
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
  Expr(Kind kind, SourceLoc loc) : kind(kind), loc(loc) {}
  virtual ~Expr() = default;
  Kind getKind() const { return kind; }
  SourceLoc getLoc() const { return loc; }

private:
  Kind kind;
  SourceLoc loc;
};
using ExprPtr = std::unique_ptr<Expr>;

/// An integer literal (non-negative; `-1` is a unary minus).
class IntLiteral : public Expr {
public:
  IntLiteral(SourceLoc loc, uint64_t value)
      : Expr(Kind::Int, loc), value(value) {}
  uint64_t value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Int; }
};

/// A float literal.
class FloatLiteral : public Expr {
public:
  FloatLiteral(SourceLoc loc, double value)
      : Expr(Kind::Float, loc), value(value) {}
  double value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Float; }
};

/// `True` / `False`.
class BoolLiteral : public Expr {
public:
  BoolLiteral(SourceLoc loc, bool value)
      : Expr(Kind::Bool, loc), value(value) {}
  bool value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Bool; }
};

/// `None`.
class NoneLiteral : public Expr {
public:
  explicit NoneLiteral(SourceLoc loc) : Expr(Kind::None, loc) {}
  static bool classof(const Expr *e) { return e->getKind() == Kind::None; }
};

/// A string literal (adjacent literals are concatenated).
class StringLiteral : public Expr {
public:
  StringLiteral(SourceLoc loc, std::string value)
      : Expr(Kind::String, loc), value(std::move(value)) {}
  std::string value;
  static bool classof(const Expr *e) { return e->getKind() == Kind::String; }
};

/// A name: a variable, parameter, builtin, helper or dtype.
class NameExpr : public Expr {
public:
  NameExpr(SourceLoc loc, std::string name)
      : Expr(Kind::Name, loc), name(std::move(name)) {}
  std::string name;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }
};

/// `base.attr` (`tl.float32`, `x.dtype`, `x.to`).
class AttributeExpr : public Expr {
public:
  AttributeExpr(SourceLoc loc, ExprPtr base, std::string attr,
                SourceLoc attrLoc)
      : Expr(Kind::Attribute, loc), base(std::move(base)),
        attr(std::move(attr)), attrLoc(attrLoc) {}
  ExprPtr base;
  std::string attr;
  SourceLoc attrLoc;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }
};

/// A keyword argument `name=value` of a call.
struct KeywordArg {
  std::string name;
  SourceLoc loc;
  ExprPtr value;
};

/// `callee(args..., name=value...)`.
class CallExpr : public Expr {
public:
  CallExpr(SourceLoc loc, ExprPtr callee)
      : Expr(Kind::Call, loc), callee(std::move(callee)) {}
  ExprPtr callee;
  std::vector<ExprPtr> args;
  std::vector<KeywordArg> kwargs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }
};

/// `base[i, j, ...]`; indices may be SliceExpr or NoneLiteral.
class SubscriptExpr : public Expr {
public:
  SubscriptExpr(SourceLoc loc, ExprPtr base)
      : Expr(Kind::Subscript, loc), base(std::move(base)) {}
  ExprPtr base;
  std::vector<ExprPtr> indices;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }
};

/// `lower:upper:step` inside a subscript; each part may be null.
class SliceExpr : public Expr {
public:
  explicit SliceExpr(SourceLoc loc) : Expr(Kind::Slice, loc) {}
  ExprPtr lower, upper, step;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }
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
class UnaryExpr : public Expr {
public:
  UnaryExpr(SourceLoc loc, UnaryOp op, ExprPtr operand)
      : Expr(Kind::Unary, loc), op(op), operand(std::move(operand)) {}
  UnaryOp op;
  ExprPtr operand;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }
};

/// `lhs op rhs`; the location is the operator's.
class BinaryExpr : public Expr {
public:
  BinaryExpr(SourceLoc loc, BinaryOp op, ExprPtr lhs, ExprPtr rhs)
      : Expr(Kind::Binary, loc), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  BinaryOp op;
  ExprPtr lhs, rhs;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }
};

/// `(a, b)` or `[a, b]`.
class TupleExpr : public Expr {
public:
  TupleExpr(SourceLoc loc, bool isList)
      : Expr(Kind::Tuple, loc), isList(isList) {}
  std::vector<ExprPtr> elements;
  bool isList;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }
};

/// `a if cond else b`.
class TernaryExpr : public Expr {
public:
  TernaryExpr(SourceLoc loc, ExprPtr trueValue, ExprPtr cond,
              ExprPtr falseValue)
      : Expr(Kind::Ternary, loc), trueValue(std::move(trueValue)),
        cond(std::move(cond)), falseValue(std::move(falseValue)) {}
  ExprPtr trueValue, cond, falseValue;
  static bool classof(const Expr *e) { return e->getKind() == Kind::Ternary; }
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Base class of all statements.
class Stmt {
public:
  enum class Kind { Expr, Assign, AugAssign, If, For, While, Return, Pass };
  Stmt(Kind kind, SourceLoc loc) : kind(kind), loc(loc) {}
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  SourceLoc getLoc() const { return loc; }

private:
  Kind kind;
  SourceLoc loc;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

/// An expression evaluated for its effect (`store(...)`, docstrings).
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceLoc loc, ExprPtr expr)
      : Stmt(Kind::Expr, loc), expr(std::move(expr)) {}
  ExprPtr expr;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }
};

/// `target = value`; the target is a NameExpr or a TupleExpr of names.
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceLoc loc, ExprPtr target, ExprPtr value)
      : Stmt(Kind::Assign, loc), target(std::move(target)),
        value(std::move(value)) {}
  ExprPtr target, value;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }
};

/// `target op= value`.
class AugAssignStmt : public Stmt {
public:
  AugAssignStmt(SourceLoc loc, BinaryOp op, ExprPtr target, ExprPtr value)
      : Stmt(Kind::AugAssign, loc), op(op), target(std::move(target)),
        value(std::move(value)) {}
  BinaryOp op;
  ExprPtr target, value;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }
};

/// `if cond: ... else: ...`; `elif` is an IfStmt alone in `elseBody` with
/// `isElif` set.
class IfStmt : public Stmt {
public:
  IfStmt(SourceLoc loc, ExprPtr cond)
      : Stmt(Kind::If, loc), cond(std::move(cond)) {}
  ExprPtr cond;
  Block thenBody, elseBody;
  bool isElif = false;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }
};

/// `for var in iter: body`.
class ForStmt : public Stmt {
public:
  ForStmt(SourceLoc loc, std::string var, SourceLoc varLoc, ExprPtr iter)
      : Stmt(Kind::For, loc), var(std::move(var)), varLoc(varLoc),
        iter(std::move(iter)) {}
  std::string var;
  SourceLoc varLoc;
  ExprPtr iter;
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }
};

/// `while cond: body`.
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceLoc loc, ExprPtr cond)
      : Stmt(Kind::While, loc), cond(std::move(cond)) {}
  ExprPtr cond;
  Block body;
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }
};

/// `return [value]`.
class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceLoc loc, ExprPtr value)
      : Stmt(Kind::Return, loc), value(std::move(value)) {}
  ExprPtr value; ///< May be null.
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }
};

/// `pass`.
class PassStmt : public Stmt {
public:
  explicit PassStmt(SourceLoc loc) : Stmt(Kind::Pass, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Pass; }
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

/// A `def`: a kernel (decorated with `@kernel`) or a device helper.
class Function {
public:
  std::string name;
  SourceLoc loc;
  bool isKernel = false;
  /// Launch options from `@kernel(num_warps=N, num_stages=S)`.
  std::optional<int64_t> numWarps, numStages;
  std::vector<Param> params;
  Block body;
};

/// A parsed .tile file.
class Module {
public:
  /// The buffer's name (file path or "<stdin>").
  std::string filename;
  std::vector<std::unique_ptr<Function>> functions;

  /// The function named `name`, or null.
  const Function *lookup(llvm::StringRef name) const;
  /// The `@kernel` functions in source order.
  std::vector<const Function *> getKernels() const;
};

/// Prints the tree as indented text, one node per line with `@LINE:COL`.
void dumpAST(const Module &module, llvm::raw_ostream &os);

} // namespace ast
} // namespace tilec

#endif // TILEC_FRONTEND_AST_H
