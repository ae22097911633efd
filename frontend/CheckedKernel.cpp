//===- CheckedKernel.cpp - Printing and copying checked kernels -----------===//
//
// Deep copy of checked expressions and the textual dump of a checked kernel
// (one node per line with its type and `@LINE:COL`), used by tests.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/CheckedKernel.h"

#include "TreeDumper.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::checked;

bool checked::isComparison(BinaryOp op) {
  return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt ||
         op == BinaryOp::Le || op == BinaryOp::Gt || op == BinaryOp::Ge;
}

llvm::StringRef checked::getBinaryOpName(BinaryOp op) {
  static const char *names[] = {"add", "sub", "mul",   "fdiv",  "idiv", "rem",
                                "and", "or",  "xor",   "shl",   "shr",  "max",
                                "min", "eq",  "ne",    "lt",    "le",   "gt",
                                "ge",  "pow", "atan2", "umulhi"};
  return names[static_cast<int>(op)];
}

static const char *const kMathFnNames[] = {
    "exp",   "exp2",  "log",   "log2",  "sqrt",    "rsqrt", "abs",
    "sin",   "cos",   "tanh",  "erf",   "sigmoid", "floor", "ceil",
    "log1p", "expm1", "log10", "exp10", "asin",    "acos",  "atan",
    "sinh",  "cosh",  "tan",   "cbrt",  "trunc",   "round", "rint"};

llvm::StringRef checked::getMathFnName(MathFn fn) {
  return kMathFnNames[static_cast<int>(fn)];
}

std::optional<MathFn> checked::parseMathFnName(llvm::StringRef name) {
  for (const auto &[index, fnName] : llvm::enumerate(kMathFnNames))
    if (name == fnName)
      return static_cast<MathFn>(index);
  return std::nullopt;
}

static ExprPtr cloneOrNull(const ExprPtr &e) {
  return e ? cloneExpr(*e) : nullptr;
}

ExprPtr checked::cloneExpr(const Expr &expr) {
  const TType &t = expr.getType();
  SourceLoc loc = expr.getLoc();
  switch (expr.getKind()) {
  case ExprKind::Constant:
    return std::make_unique<ConstantExpr>(t, loc,
                                          llvm::cast<ConstantExpr>(expr).value);
  case ExprKind::VarRef:
    return std::make_unique<VarRefExpr>(t, loc,
                                        llvm::cast<VarRefExpr>(expr).name);
  case ExprKind::Unary: {
    auto &e = llvm::cast<UnaryExpr>(expr);
    return std::make_unique<UnaryExpr>(t, loc, e.op, cloneExpr(*e.operand));
  }
  case ExprKind::Binary: {
    auto &e = llvm::cast<BinaryExpr>(expr);
    return std::make_unique<BinaryExpr>(t, loc, e.op, cloneExpr(*e.lhs),
                                        cloneExpr(*e.rhs));
  }
  case ExprKind::Select: {
    auto &e = llvm::cast<SelectExpr>(expr);
    return std::make_unique<SelectExpr>(t, loc, cloneExpr(*e.cond),
                                        cloneExpr(*e.trueValue),
                                        cloneExpr(*e.falseValue));
  }
  case ExprKind::Fma: {
    auto &e = llvm::cast<FmaExpr>(expr);
    return std::make_unique<FmaExpr>(t, loc, cloneExpr(*e.a), cloneExpr(*e.b),
                                     cloneExpr(*e.c));
  }
  case ExprKind::Cast:
    return std::make_unique<CastExpr>(
        t, loc, cloneExpr(*llvm::cast<CastExpr>(expr).operand));
  case ExprKind::Bitcast:
    return std::make_unique<BitcastExpr>(
        t, loc, cloneExpr(*llvm::cast<BitcastExpr>(expr).operand));
  case ExprKind::Splat:
    return std::make_unique<SplatExpr>(
        t, loc, cloneExpr(*llvm::cast<SplatExpr>(expr).operand));
  case ExprKind::Broadcast:
    return std::make_unique<BroadcastExpr>(
        t, loc, cloneExpr(*llvm::cast<BroadcastExpr>(expr).operand));
  case ExprKind::ExpandDims: {
    auto &e = llvm::cast<ExpandDimsExpr>(expr);
    return std::make_unique<ExpandDimsExpr>(t, loc, cloneExpr(*e.operand),
                                            e.axis);
  }
  case ExprKind::Reshape:
    return std::make_unique<ReshapeExpr>(
        t, loc, cloneExpr(*llvm::cast<ReshapeExpr>(expr).operand));
  case ExprKind::Trans: {
    auto &e = llvm::cast<TransExpr>(expr);
    return std::make_unique<TransExpr>(t, loc, cloneExpr(*e.operand), e.order);
  }
  case ExprKind::AddPtr: {
    auto &e = llvm::cast<AddPtrExpr>(expr);
    return std::make_unique<AddPtrExpr>(t, loc, cloneExpr(*e.ptr),
                                        cloneExpr(*e.offset));
  }
  case ExprKind::MakeRange: {
    auto &e = llvm::cast<MakeRangeExpr>(expr);
    return std::make_unique<MakeRangeExpr>(t, loc, e.start, e.end);
  }
  case ExprKind::ProgramId:
    return std::make_unique<ProgramIdExpr>(
        t, loc, llvm::cast<ProgramIdExpr>(expr).axis);
  case ExprKind::NumPrograms:
    return std::make_unique<NumProgramsExpr>(
        t, loc, llvm::cast<NumProgramsExpr>(expr).axis);
  case ExprKind::Load: {
    auto &e = llvm::cast<LoadExpr>(expr);
    return std::make_unique<LoadExpr>(
        t, loc, cloneExpr(*e.ptr), cloneOrNull(e.mask), cloneOrNull(e.other));
  }
  case ExprKind::AtomicRMW: {
    auto &e = llvm::cast<AtomicRMWExpr>(expr);
    return std::make_unique<AtomicRMWExpr>(
        t, loc, e.kind, e.sem, e.scope, cloneExpr(*e.ptr), cloneExpr(*e.value),
        cloneOrNull(e.mask));
  }
  case ExprKind::AtomicCAS: {
    auto &e = llvm::cast<AtomicCASExpr>(expr);
    return std::make_unique<AtomicCASExpr>(t, loc, e.sem, e.scope,
                                           cloneExpr(*e.ptr), cloneExpr(*e.cmp),
                                           cloneExpr(*e.value));
  }
  case ExprKind::Dot: {
    auto &e = llvm::cast<DotExpr>(expr);
    return std::make_unique<DotExpr>(t, loc, cloneExpr(*e.a), cloneExpr(*e.b),
                                     cloneExpr(*e.acc), e.precision);
  }
  case ExprKind::Reduce: {
    auto &e = llvm::cast<ReduceExpr>(expr);
    return std::make_unique<ReduceExpr>(t, loc, e.reduceKind, e.axis,
                                        cloneExpr(*e.operand));
  }
  case ExprKind::Math: {
    auto &e = llvm::cast<MathExpr>(expr);
    return std::make_unique<MathExpr>(t, loc, e.fn, cloneExpr(*e.operand));
  }
  case ExprKind::Hint: {
    auto &e = llvm::cast<HintExpr>(expr);
    return std::make_unique<HintExpr>(t, loc, e.hintKind, e.values,
                                      cloneExpr(*e.operand));
  }
  }
  return nullptr;
}

namespace {
/// Indented printer of checked kernels.
class CheckedDumper : TreeDumper {
public:
  explicit CheckedDumper(llvm::raw_ostream &os) : TreeDumper(os) {}

  void dump(const CheckedKernel &k) {
    os << "CheckedKernel " << k.name << " num_warps=" << k.numWarps
       << " num_stages=" << k.numStages << "\n";
    for (const checked::KernelParam &p : k.params)
      os << "  Param " << p.name << ": " << p.type.str() << "\n";
    for (const ConstexprParam &c : k.constexprs)
      os << "  Constexpr " << c.name << " = " << c.value.pythonStr() << "\n";
    dump(k.body, 1);
  }

private:
  void names(llvm::StringRef what, const std::vector<NamedType> &list) {
    if (list.empty())
      return;
    os << " " << what << "(";
    for (size_t i = 0; i < list.size(); ++i)
      os << (i ? ", " : "") << list[i].name << ": " << list[i].type.str();
    os << ")";
  }

  void dump(const Block &block, int level) {
    for (const auto &s : block)
      dump(*s, level);
  }

  /// A titled block ("Then", "Else", "Body") of the statement at \p level.
  void dumpTitled(llvm::StringRef title, const Block &block, int level) {
    indent(level) << title << "\n";
    dump(block, level + 1);
  }

  void dump(const Stmt &stmt, int level) {
    switch (stmt.getKind()) {
    case StmtKind::Assign: {
      auto &s = llvm::cast<AssignStmt>(stmt);
      indent(level) << "Assign " << s.name;
      loc(s.getLoc());
      dump(*s.value, level + 1);
      return;
    }
    case StmtKind::Store: {
      auto &s = llvm::cast<StoreStmt>(stmt);
      indent(level) << "Store";
      loc(s.getLoc());
      dump(*s.ptr, level + 1);
      dump(*s.value, level + 1);
      if (s.mask)
        dump(*s.mask, level + 1);
      return;
    }
    case StmtKind::Expr:
      indent(level) << "ExprStmt";
      loc(stmt.getLoc());
      dump(*llvm::cast<ExprStmt>(stmt).expr, level + 1);
      return;
    case StmtKind::If: {
      auto &s = llvm::cast<IfStmt>(stmt);
      indent(level) << "If";
      names("yields", s.yields);
      loc(s.getLoc());
      dump(*s.cond, level + 1);
      dumpTitled("Then", s.thenBody, level);
      dumpTitled("Else", s.elseBody, level);
      return;
    }
    case StmtKind::For: {
      auto &s = llvm::cast<ForStmt>(stmt);
      indent(level) << "For " << s.inductionVar << ": "
                    << s.inductionVarType.str();
      if (s.numStages >= 0)
        os << " num_stages=" << s.numStages;
      names("carried", s.carried);
      loc(s.getLoc());
      dump(*s.lo, level + 1);
      dump(*s.hi, level + 1);
      dump(*s.step, level + 1);
      dumpTitled("Body", s.body, level);
      return;
    }
    case StmtKind::While: {
      auto &s = llvm::cast<WhileStmt>(stmt);
      indent(level) << "While";
      names("carried", s.carried);
      loc(s.getLoc());
      dump(*s.cond, level + 1);
      dumpTitled("Body", s.body, level);
      return;
    }
    case StmtKind::DevicePrint: {
      auto &s = llvm::cast<DevicePrintStmt>(stmt);
      indent(level) << "DevicePrint \"";
      os.write_escaped(s.prefix);
      os << "\"";
      loc(s.getLoc());
      for (const auto &a : s.args)
        dump(*a, level + 1);
      return;
    }
    case StmtKind::GridDepControl:
      indent(level) << (llvm::cast<GridDepControlStmt>(stmt).launchDependents
                            ? "GridDepLaunchDependents"
                            : "GridDepWait");
      break;
    case StmtKind::DebugBarrier:
      indent(level) << "DebugBarrier";
      loc(stmt.getLoc());
      return;
    case StmtKind::Combine: {
      auto &s = llvm::cast<CombineStmt>(stmt);
      indent(level) << (s.combineKind == CombineKind::Scan ? "Scan" : "Reduce")
                    << " axis=" << s.axis << (s.reverse ? " reverse" : "");
      names("results", s.results);
      names("params", s.params);
      loc(s.getLoc());
      for (const auto &operand : s.operands)
        dump(*operand, level + 1);
      dumpTitled("Combine", s.body, level);
      for (const auto &yield : s.yields)
        dump(*yield, level + 1);
      return;
    }
    case StmtKind::InlineAsm: {
      auto &s = llvm::cast<InlineAsmStmt>(stmt);
      indent(level) << "InlineAsm \"";
      os.write_escaped(s.asmString);
      os << "\" \"";
      os.write_escaped(s.constraints);
      os << "\" pack=" << s.pack << (s.pure ? " pure" : "");
      names("results", s.results);
      loc(s.getLoc());
      for (const auto &arg : s.args)
        dump(*arg, level + 1);
      return;
    }
    }
  }

  void head(const Expr &e, int level, llvm::StringRef name,
            const std::string &detail = "") {
    indent(level) << name;
    if (!detail.empty())
      os << " " << detail;
    os << " : " << e.getType().str();
    loc(e.getLoc());
  }

  /// An expression of one operand (an OperandExpr): its head, then the
  /// operand.
  template <typename OperandExprT>
  void dumpOperandExpr(const Expr &expr, int level, llvm::StringRef name) {
    head(expr, level, name);
    dump(*llvm::cast<OperandExprT>(expr).operand, level + 1);
  }

  void dump(const Expr &expr, int level) {
    switch (expr.getKind()) {
    case ExprKind::Constant:
      return head(expr, level, "Constant",
                  llvm::cast<ConstantExpr>(expr).value.pythonStr());
    case ExprKind::VarRef:
      return head(expr, level, "VarRef", llvm::cast<VarRefExpr>(expr).name);
    case ExprKind::Unary: {
      auto &e = llvm::cast<UnaryExpr>(expr);
      head(expr, level, "Unary", e.op == UnaryOp::Neg ? "neg" : "not");
      return dump(*e.operand, level + 1);
    }
    case ExprKind::Binary: {
      auto &e = llvm::cast<BinaryExpr>(expr);
      head(expr, level, "Binary", getBinaryOpName(e.op).str());
      dump(*e.lhs, level + 1);
      return dump(*e.rhs, level + 1);
    }
    case ExprKind::Select: {
      auto &e = llvm::cast<SelectExpr>(expr);
      head(expr, level, "Select");
      dump(*e.cond, level + 1);
      dump(*e.trueValue, level + 1);
      return dump(*e.falseValue, level + 1);
    }
    case ExprKind::Fma: {
      auto &e = llvm::cast<FmaExpr>(expr);
      head(expr, level, "Fma");
      dump(*e.a, level + 1);
      dump(*e.b, level + 1);
      return dump(*e.c, level + 1);
    }
    case ExprKind::Cast:
      return dumpOperandExpr<CastExpr>(expr, level, "Cast");
    case ExprKind::Bitcast:
      return dumpOperandExpr<BitcastExpr>(expr, level, "Bitcast");
    case ExprKind::Splat:
      return dumpOperandExpr<SplatExpr>(expr, level, "Splat");
    case ExprKind::Broadcast:
      return dumpOperandExpr<BroadcastExpr>(expr, level, "Broadcast");
    case ExprKind::ExpandDims: {
      auto &e = llvm::cast<ExpandDimsExpr>(expr);
      head(expr, level, "ExpandDims", "axis=" + std::to_string(e.axis));
      return dump(*e.operand, level + 1);
    }
    case ExprKind::Reshape:
      return dumpOperandExpr<ReshapeExpr>(expr, level, "Reshape");
    case ExprKind::Trans:
      return dumpOperandExpr<TransExpr>(expr, level, "Trans");
    case ExprKind::AddPtr: {
      auto &e = llvm::cast<AddPtrExpr>(expr);
      head(expr, level, "AddPtr");
      dump(*e.ptr, level + 1);
      return dump(*e.offset, level + 1);
    }
    case ExprKind::MakeRange: {
      auto &e = llvm::cast<MakeRangeExpr>(expr);
      return head(expr, level, "MakeRange",
                  std::to_string(e.start) + ", " + std::to_string(e.end));
    }
    case ExprKind::ProgramId:
      return head(expr, level, "ProgramId",
                  std::to_string(llvm::cast<ProgramIdExpr>(expr).axis));
    case ExprKind::NumPrograms:
      return head(expr, level, "NumPrograms",
                  std::to_string(llvm::cast<NumProgramsExpr>(expr).axis));
    case ExprKind::Load: {
      auto &e = llvm::cast<LoadExpr>(expr);
      head(expr, level, "Load");
      dump(*e.ptr, level + 1);
      if (e.mask)
        dump(*e.mask, level + 1);
      if (e.other)
        dump(*e.other, level + 1);
      return;
    }
    case ExprKind::AtomicRMW: {
      auto &e = llvm::cast<AtomicRMWExpr>(expr);
      head(expr, level, "AtomicRMW",
           mlir::tile::stringifyAtomicRMWKind(e.kind).str() + " " +
               mlir::tile::stringifyMemSemantic(e.sem).str() + " " +
               mlir::tile::stringifyMemSyncScope(e.scope).str());
      dump(*e.ptr, level + 1);
      dump(*e.value, level + 1);
      if (e.mask)
        dump(*e.mask, level + 1);
      return;
    }
    case ExprKind::AtomicCAS: {
      auto &e = llvm::cast<AtomicCASExpr>(expr);
      head(expr, level, "AtomicCAS",
           mlir::tile::stringifyMemSemantic(e.sem).str() + " " +
               mlir::tile::stringifyMemSyncScope(e.scope).str());
      dump(*e.ptr, level + 1);
      dump(*e.cmp, level + 1);
      dump(*e.value, level + 1);
      return;
    }
    case ExprKind::Dot: {
      auto &e = llvm::cast<DotExpr>(expr);
      head(expr, level, "Dot",
           mlir::tile::stringifyInputPrecision(e.precision).str());
      dump(*e.a, level + 1);
      dump(*e.b, level + 1);
      return dump(*e.acc, level + 1);
    }
    case ExprKind::Reduce: {
      auto &e = llvm::cast<ReduceExpr>(expr);
      head(expr, level, "Reduce",
           mlir::tile::stringifyReduceKind(e.reduceKind).str() +
               " axis=" + std::to_string(e.axis));
      return dump(*e.operand, level + 1);
    }
    case ExprKind::Math: {
      auto &e = llvm::cast<MathExpr>(expr);
      head(expr, level, "Math", getMathFnName(e.fn).str());
      return dump(*e.operand, level + 1);
    }
    case ExprKind::Hint: {
      auto &e = llvm::cast<HintExpr>(expr);
      std::string detail =
          e.hintKind == HintKind::MultipleOf ? "multiple_of" : "max_contiguous";
      detail += formatShape(e.values);
      head(expr, level, "Hint", detail);
      return dump(*e.operand, level + 1);
    }
    }
  }
};
} // namespace

void checked::dumpCheckedKernel(const CheckedKernel &kernel,
                                llvm::raw_ostream &os) {
  CheckedDumper(os).dump(kernel);
}
