//===- AST.cpp - Syntax tree of the .tile language ------------------------===//
//
// Operator spellings, module lookups and the AST dumper used by
// `tilec --emit=ast` and the lit tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/AST.h"
#include "tilec/Support/CompileOptions.h"

#include "TreeDumper.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::ast;

llvm::StringRef ast::getUnaryOpSpelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Pos:
    return "+";
  case UnaryOp::Invert:
    return "~";
  case UnaryOp::Not:
    return "not";
  }
  return "?";
}

llvm::StringRef ast::getBinaryOpSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::MatMul:
    return "@";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::And:
    return "and";
  case BinaryOp::Or:
    return "or";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::Is:
    return "is";
  case BinaryOp::IsNot:
    return "is not";
  }
  return "?";
}

std::string TypeAnnotation::str() const {
  switch (kind) {
  case Kind::None:
    return "";
  case Kind::Constexpr:
    return "constexpr";
  case Kind::Pointer:
    return "*" + std::string(scalarTypeName(elem));
  case Kind::Scalar:
    return scalarTypeName(elem);
  }
  return "";
}

const Function *Module::lookup(llvm::StringRef name) const {
  for (const auto &fn : functions)
    if (fn->name == name)
      return fn.get();
  return nullptr;
}

const ConstexprGlobal *Module::lookupGlobal(llvm::StringRef name) const {
  for (const ConstexprGlobal &global : globals)
    if (global.name == name)
      return &global;
  return nullptr;
}

std::vector<const Function *> Module::getKernels() const {
  auto isCalled = [&](const Function &callee) {
    return llvm::any_of(functions, [&](const auto &fn) {
      return fn.get() != &callee &&
             llvm::is_contained(fn->calledNames, callee.name);
    });
  };
  std::vector<const Function *> kernels;
  for (const auto &fn : functions)
    if (fn->isKernel || (fn->isTritonJit && !isCalled(*fn)))
      kernels.push_back(fn.get());
  return kernels;
}

namespace {
/// Recursive printer with two spaces of indentation per level.
class ASTDumper : TreeDumper {
public:
  explicit ASTDumper(llvm::raw_ostream &os) : TreeDumper(os) {}

  void dump(const Module &module) {
    os << "Module \"" << module.filename << "\"\n";
    for (const ConstexprGlobal &global : module.globals) {
      indent(1) << "ConstexprGlobal " << global.name;
      loc(global.loc);
      dump(*global.value, 2);
    }
    for (const auto &fn : module.functions)
      dump(*fn, 1);
  }

private:
  void dump(const Function &fn, int level) {
    indent(level) << (fn.isKernel ? "Kernel " : "Function ") << fn.name;
    if (fn.isTritonJit)
      os << " triton.jit";
    for (const TritonDecorator &deco : fn.tritonDecorators) {
      os << " @" << deco.name;
      if (deco.configs)
        os << "(" << deco.configs->size() << " configs)";
    }
    if (fn.isKernel)
      os << " num_warps="
         << fn.numWarps.value_or(CompileOptions::kDefaultNumWarps)
         << " num_stages="
         << fn.numStages.value_or(CompileOptions::kDefaultNumStages);
    loc(fn.loc);
    for (const Param &p : fn.params) {
      indent(level + 1) << "Param " << p.name;
      if (p.type.kind != TypeAnnotation::Kind::None)
        os << ": " << p.type.str();
      loc(p.loc);
      if (p.defaultValue) {
        indent(level + 2) << "Default\n";
        dump(*p.defaultValue, level + 3);
      }
    }
    dump(fn.body, level + 1);
  }

  void dump(const Block &block, int level) {
    for (const auto &stmt : block)
      dump(*stmt, level);
  }

  static bool isNameTuple(const Expr &e, std::string &text) {
    if (auto *n = llvm::dyn_cast<NameExpr>(&e)) {
      text = n->name;
      return true;
    }
    auto *t = llvm::dyn_cast<TupleExpr>(&e);
    if (!t)
      return false;
    text = "(";
    for (size_t i = 0; i < t->elements.size(); ++i) {
      auto *n = llvm::dyn_cast<NameExpr>(t->elements[i].get());
      if (!n)
        return false;
      text += (i ? ", " : "") + n->name;
    }
    text += ")";
    return true;
  }

  /// A titled block ("Then", "Else", "Body") of the statement at \p level.
  void dumpTitled(llvm::StringRef title, const Block &block, int level) {
    indent(level) << title << "\n";
    dump(block, level + 1);
  }

  void dump(const Stmt &stmt, int level) {
    switch (stmt.getKind()) {
    case Stmt::Kind::Expr:
      indent(level) << "ExprStmt";
      loc(stmt.getLoc());
      dump(*llvm::cast<ExprStmt>(stmt).expr, level + 1);
      return;
    case Stmt::Kind::Assign: {
      auto &s = llvm::cast<AssignStmt>(stmt);
      std::string text;
      indent(level) << "Assign";
      if (isNameTuple(*s.target, text)) {
        os << " " << text;
        loc(stmt.getLoc());
      } else {
        loc(stmt.getLoc());
        dump(*s.target, level + 1);
      }
      dump(*s.value, level + 1);
      return;
    }
    case Stmt::Kind::AugAssign: {
      auto &s = llvm::cast<AugAssignStmt>(stmt);
      indent(level) << "AugAssign " << getBinaryOpSpelling(s.op) << "=";
      loc(stmt.getLoc());
      dump(*s.target, level + 1);
      dump(*s.value, level + 1);
      return;
    }
    case Stmt::Kind::If: {
      auto &s = llvm::cast<IfStmt>(stmt);
      indent(level) << (s.isElif ? "Elif" : "If");
      loc(stmt.getLoc());
      dump(*s.cond, level + 1);
      dumpTitled("Then", s.thenBody, level);
      if (!s.elseBody.empty())
        dumpTitled("Else", s.elseBody, level);
      return;
    }
    case Stmt::Kind::For: {
      auto &s = llvm::cast<ForStmt>(stmt);
      indent(level) << "For " << s.var;
      loc(stmt.getLoc());
      dump(*s.iter, level + 1);
      dumpTitled("Body", s.body, level);
      return;
    }
    case Stmt::Kind::While: {
      auto &s = llvm::cast<WhileStmt>(stmt);
      indent(level) << "While";
      loc(stmt.getLoc());
      dump(*s.cond, level + 1);
      dumpTitled("Body", s.body, level);
      return;
    }
    case Stmt::Kind::Return: {
      auto &s = llvm::cast<ReturnStmt>(stmt);
      indent(level) << "Return";
      loc(stmt.getLoc());
      if (s.value)
        dump(*s.value, level + 1);
      return;
    }
    case Stmt::Kind::Pass:
      indent(level) << "Pass";
      loc(stmt.getLoc());
      return;
    }
  }

  void dump(const Expr &expr, int level) {
    indent(level);
    switch (expr.getKind()) {
    case Expr::Kind::Int:
      os << "Int " << llvm::cast<IntLiteral>(expr).value;
      break;
    case Expr::Kind::Float:
      os << "Float "
         << ConstexprValue::ofFloat(llvm::cast<FloatLiteral>(expr).value)
                .pythonStr();
      break;
    case Expr::Kind::Bool:
      os << "Bool " << (llvm::cast<BoolLiteral>(expr).value ? "True" : "False");
      break;
    case Expr::Kind::None:
      os << "None";
      break;
    case Expr::Kind::String:
      os << "String \"";
      os.write_escaped(llvm::cast<StringLiteral>(expr).value);
      os << "\"";
      break;
    case Expr::Kind::Name:
      os << "Name " << llvm::cast<NameExpr>(expr).name;
      break;
    case Expr::Kind::Attribute: {
      auto &e = llvm::cast<AttributeExpr>(expr);
      os << "Attribute " << e.attr;
      loc(expr.getLoc());
      dump(*e.base, level + 1);
      return;
    }
    case Expr::Kind::Call: {
      auto &e = llvm::cast<CallExpr>(expr);
      os << "Call";
      loc(expr.getLoc());
      dump(*e.callee, level + 1);
      for (const auto &a : e.args)
        dump(*a, level + 1);
      for (const auto &kw : e.kwargs) {
        indent(level + 1) << "Keyword " << kw.name;
        loc(kw.loc);
        dump(*kw.value, level + 2);
      }
      return;
    }
    case Expr::Kind::Subscript: {
      auto &e = llvm::cast<SubscriptExpr>(expr);
      os << "Subscript";
      loc(expr.getLoc());
      dump(*e.base, level + 1);
      for (const auto &i : e.indices)
        dump(*i, level + 1);
      return;
    }
    case Expr::Kind::Slice: {
      auto &e = llvm::cast<SliceExpr>(expr);
      os << "Slice";
      loc(expr.getLoc());
      for (const ExprPtr *part : {&e.lower, &e.upper, &e.step})
        if (*part)
          dump(**part, level + 1);
      return;
    }
    case Expr::Kind::Unary: {
      auto &e = llvm::cast<UnaryExpr>(expr);
      os << "Unary " << getUnaryOpSpelling(e.op);
      loc(expr.getLoc());
      dump(*e.operand, level + 1);
      return;
    }
    case Expr::Kind::Binary: {
      auto &e = llvm::cast<BinaryExpr>(expr);
      os << "Binary " << getBinaryOpSpelling(e.op);
      loc(expr.getLoc());
      dump(*e.lhs, level + 1);
      dump(*e.rhs, level + 1);
      return;
    }
    case Expr::Kind::Tuple: {
      auto &e = llvm::cast<TupleExpr>(expr);
      os << (e.isList ? "List" : "Tuple");
      loc(expr.getLoc());
      for (const auto &el : e.elements)
        dump(*el, level + 1);
      return;
    }
    case Expr::Kind::Ternary: {
      auto &e = llvm::cast<TernaryExpr>(expr);
      os << "Ternary";
      loc(expr.getLoc());
      dump(*e.cond, level + 1);
      dump(*e.trueValue, level + 1);
      dump(*e.falseValue, level + 1);
      return;
    }
    }
    loc(expr.getLoc());
  }
};
} // namespace

void ast::dumpAST(const Module &module, llvm::raw_ostream &os) {
  ASTDumper(os).dump(module);
}

std::string Module::describeHostName(const std::string &name) const {
  std::string text = "'" + name +
                     "' is defined by the file's host code, which tilec does "
                     "not compile";
  auto note = hostNameNotes.find(name);
  if (note != hostNameNotes.end())
    text += " (" + note->second + ")";
  return text;
}
