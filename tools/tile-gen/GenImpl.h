//===- GenImpl.h - Internals of the .tile program generator -----*- C++ -*-===//
//
// The state of one generated kernel: its index space (the domain), the
// parameters made so far, the variables in scope and the body's lines. Each
// generated value carries what the generator knows about it: the interval
// of its float64 value, a bound on how far the GPU's value may lie from it
// (err), and whether both are always equal (exact). Comparisons, argmax,
// floor/ceil and float-to-int conversions only take exact values, so the
// GPU and a float64 interpreter always take the same branch; every other
// operation keeps intervals bounded and away from the singular points of
// log, sqrt and division.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILE_GEN_GENIMPL_H
#define TILEC_TOOLS_TILE_GEN_GENIMPL_H

#include "ProgramGenerator.h"

#include "tilec/Support/Types.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilec::gen::detail {

/// Element types the generator uses.
enum class DType { I1, I32, F16, F32 };
/// The scalar type of the language that `type` stands for.
ScalarType scalarType(DType type);
/// The type's name in .tile source and in the run description.
const char *typeName(DType type);
inline bool isFloat(DType type) {
  return type == DType::F16 || type == DType::F32;
}
/// Unit roundoff of arithmetic in `type` (0 for integers).
double unitRoundoff(DType type);
/// The largest magnitude a float value of `type` may reach.
double maxMagnitude(DType type);
/// Integers stay within +-2^20 (exact in f32 and float64).
constexpr double kMaxInt = 1 << 20;

/// A call prefix for a built-in: none, `tl.` or (math) `tl.math.`.
std::string callPrefix(ChoiceSource &c, bool math);
/// One of the spellings of `type` as a dtype argument.
std::string typeSpelling(ChoiceSource &c, DType type);

/// Block shapes of the domain: Row is [BM] (the 1-D domain's [BLOCK]),
/// Col is [BN], Tile is [BM, BN].
enum class Shape { Scalar, Row, Col, Tile };
/// True when a value of shape `a` broadcasts to shape `b`.
bool fitsIn(Shape a, Shape b);
/// The shape of an elementwise operation on `a` and `b`.
Shape join(Shape a, Shape b);

/// A generated expression and what is known about its value.
struct Value {
  std::string text;
  DType type = DType::F32;
  Shape shape = Shape::Scalar;
  /// Every element's float64 value lies in [lo, hi].
  double lo = 0, hi = 0;
  /// The GPU's value lies within err of the float64 value.
  double err = 0;
  /// The GPU's value equals the float64 value.
  bool exact = true;
  /// A literal or compile-time constant (weakly typed).
  bool isConst = false;
  /// The text needs no parentheses as an operand.
  bool atom = true;
  /// (Variables) read by a later statement.
  bool used = false;

  double mag() const { return std::max(std::fabs(lo), std::fabs(hi)); }
  /// The interval the GPU's value lies in.
  double gpuLo() const { return lo - err; }
  double gpuHi() const { return hi + err; }
};

/// Sets v's interval to the smallest one holding `values`.
inline void hull(Value &v, std::initializer_list<double> values) {
  v.lo = std::min(values);
  v.hi = std::max(values);
}

/// One axis of the index space: its index block, mask and size parameter.
struct Axis {
  std::string index, mask, size, pid, blockName;
  int64_t block = 1;
  int64_t extent = 1;
  uint64_t programs = 1;
};

/// The index space of the kernel.
struct Domain {
  bool twoD = false;
  bool dot = false;
  Axis rows, cols;
  /// dot: the reduction dimension.
  int64_t blockK = 16, extentK = 1;
  /// dot: f16 or f32 inputs.
  DType dotType = DType::F16;
};

/// The kernel being generated.
class KernelGen {
public:
  KernelGen(ChoiceSource &choices, const GenOptions &options);
  GeneratedProgram run();

  //===--------------------------------------------------------------------===//
  // Expressions (ExprGen.cpp)
  //===--------------------------------------------------------------------===//

  /// A value of `type` whose shape fits in `shape`; never a constant.
  Value gen(DType type, Shape shape, int depth);
  /// An exact value of `type` (a float must be exact) fitting in `shape`.
  Value genExact(DType type, Shape shape, int depth);
  /// A float value whose GPU value is at least 0.5.
  Value genPositive(DType type, Shape shape, int depth);
  /// A run-time i1 condition fitting in `shape`.
  Value genCond(Shape shape, int depth);
  /// `value` broadcast to exactly `shape`.
  Value broadcastTo(const Value &value, Shape shape);
  /// `value` converted to `type` (float to int only for exact values).
  std::optional<Value> convert(const Value &value, DType type);
  /// `value` as an operand of an operation whose result has `shape`.
  std::string operand(const Value &value, Shape shape) const;

  //===--------------------------------------------------------------------===//
  // Kernel state (ProgramGenerator.cpp)
  //===--------------------------------------------------------------------===//

  /// A new input buffer of `type` and `count` elements; returns its name.
  std::string addInput(DType type, uint64_t count);
  /// A new scalar parameter (named `name`, or a fresh name); returns its
  /// name.
  std::string addScalar(DType type, double value, std::string name = "");
  /// The parameter named `name`.
  const ParamSpec &param(const std::string &name) const;
  /// Brings an exact variable into scope.
  void defineVar(const std::string &name, DType type, Shape shape, double lo,
                 double hi);
  /// A new variable name.
  std::string freshName(const char *prefix = "v");
  /// Appends a body line at the current indentation.
  void emit(const std::string &line);
  void feature(const std::string &name) { features.insert(name); }
  /// The index block, mask and element count of a load of `shape`
  /// (a scalar load reads one element per program).
  void loadAddress(Shape shape, std::string &offsets, std::string &mask,
                   uint64_t &count) const;
  /// The length of a shape's dimension that `axis` reduces (axis -1: all).
  int64_t reducedLength(Shape shape, int axis) const;

  ChoiceSource &c;
  const GenOptions &options;
  Domain dom;
  /// The variables in scope (name and value; text is the name).
  std::vector<Value> vars;
  /// Variables the expression generator must not read (loop-carried
  /// values while their update is generated).
  std::set<std::string> hidden;

private:
  // Expression helpers (ExprGen.cpp).
  std::optional<Value> leaf(DType type, Shape shape, bool exactOnly);
  std::optional<Value> load(DType type, Shape shape);
  Value literal(DType type);
  Value literalValue(DType type, double value);
  std::optional<Value> minMax(const std::string &fn, const Value &a,
                              const Value &b);
  std::optional<Value> select(const Value &cond, const Value &a,
                              const Value &b);
  std::optional<Value> floatOp(DType type, Shape shape, int depth);
  /// `a + b`, `a - b` or `a * b` of two subexpressions of `type`, one of
  /// them a literal 30 % of the time (floatOp's and intOp's first case).
  std::optional<Value> arithmetic(DType type, Shape shape, int depth);
  std::optional<Value> exactFloatOp(DType type, Shape shape, int depth);
  std::optional<Value> intOp(Shape shape, int depth);
  std::optional<Value> reduction(DType type, Shape shape, int depth,
                                 bool exactOnly);
  std::optional<Value> binary(const std::string &op, const Value &a,
                              const Value &b);
  std::optional<Value> unary(const std::string &fn, const Value &x);
  Value genNonZero(Shape shape, int depth);
  Shape pickShape(Shape max);

  // The domain and the program (ProgramGenerator.cpp).
  void setUpAxis(Axis &axis, int64_t block, const char *blockName,
                 const char *size);
  void setUpDomain();
  /// `name = pid * block + arange(0, block)`, now and then with hints.
  std::string indexLine(const char *name, const char *pid, const char *block);
  std::string signature() const;

  // Statements (Statements.cpp).
  void statement(int depth);
  void assignStmt();
  void ifStmt(int depth);
  void forStmt(int depth);
  void staticRangeStmt();
  void dotStmt();
  void storeOutputs();
  void storeValue(const Value &value);
  /// Variables a statement may assign to (not the domain's, not those of
  /// an enclosing loop).
  std::vector<size_t> assignableVars() const;
  /// A loop-carried value: an assignable variable or a new one (assigned
  /// before the loop).
  size_t carriedVar();
  /// Updates vars[index] once per iteration (at most `trips`) with a
  /// value independent of it; emits the update.
  void carryUpdate(size_t index, double trips, int depth);

  std::vector<ParamSpec> params;
  std::vector<ParamSpec> constexprs;
  /// vars[0, firstUserVar) are the domain's (never assigned); statements
  /// in a loop body only assign vars[protectedVars, ...).
  size_t firstUserVar = 0;
  size_t protectedVars = 0;
  std::vector<std::string> lines;
  std::set<std::string> features;
  unsigned indent = 1;
  unsigned nameCounter = 0;
  unsigned numWarps = 4, numStages = 3;
  int statementsLeft = 0;
};

} // namespace tilec::gen::detail

#endif // TILEC_TOOLS_TILE_GEN_GENIMPL_H
