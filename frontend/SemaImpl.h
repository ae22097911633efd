//===- SemaImpl.h - Internals of semantic analysis --------------*- C++ -*-===//
//
// Private to frontend/: the elaboration state shared by Sema.cpp (driver,
// names, helper inlining), SemaStmt.cpp (statements and control flow),
// SemaExpr.cpp (operators, promotion, broadcasting, constant folding) and
// SemaBuiltins.cpp (the built-in functions of SPEC §1.6).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_SEMAIMPL_H
#define TILEC_FRONTEND_SEMAIMPL_H

#include "tilec/Frontend/Sema.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <set>

namespace tilec {
namespace sema {

using checked::ExprPtr;

/// A value during elaboration: a typed expression (possibly a compile-time
/// constant), a dtype, a string, None, a tuple of values, a tensor
/// descriptor or a block pointer (SemaDescriptors.cpp). A dtype is a
/// scalar type (`tl.float32`, `x.dtype`), a pointer type (`p.dtype`, whose
/// `element_ty` is the pointee) or a block type (`x.type` of a block, whose
/// `element_ty` is its element dtype).
struct Value {
  enum class Kind {
    Invalid,
    Expr,
    DType,
    String,
    None,
    Tuple,
    Function,
    /// `tl.make_tensor_descriptor(base, shape, strides, block_shape)`:
    /// elements are the base pointer, the i32 shape and the i64 strides;
    /// dtypeShape the block shape, dtype the element type, str the padding
    /// ("zero" or "nan").
    TensorDesc,
    /// `tl.make_block_ptr(base, shape, strides, offsets, block_shape,
    /// order)`: elements are the base pointer, the i64 shape, the i64
    /// strides and the i32 offsets; dtypeShape the block shape, dtype the
    /// element type.
    BlockPtr
  };
  Kind kind = Kind::Invalid;
  ExprPtr expr;
  /// A Python-number-like constant (literal, constexpr, folded from those):
  /// it does not take part in type promotion against a block of the same or
  /// a higher kind (Triton's rule).
  bool weak = false;
  ScalarType dtype = ScalarType::I32;
  /// A DType that is a pointer to `dtype`.
  bool dtypeIsPointer = false;
  /// A DType that is a block type: its shape (its element is `dtype`, a
  /// pointer when dtypeIsPointer).
  std::optional<std::vector<int64_t>> dtypeShape;
  /// A DType that is a pointer to the block type (dtype, dtypeShape): a
  /// block pointer's `.dtype`, as Triton's `pointer_type(block_type(...))`.
  bool dtypePointsToBlock = false;
  std::string str;
  std::vector<Value> elements;
  /// A Function: the helper named `str` (null for a function of the file's
  /// host code, which is not compiled), passed as an argument
  /// (`combine_fn` of `tl.reduce` / `tl.associative_scan`).
  const ast::Function *function = nullptr;

  static Value invalid() { return Value(); }
  static Value none() {
    Value v;
    v.kind = Kind::None;
    return v;
  }
  static Value ofExpr(ExprPtr e, bool weak = false) {
    Value v;
    v.kind = e ? Kind::Expr : Kind::Invalid;
    v.expr = std::move(e);
    v.weak = weak;
    return v;
  }
  static Value ofDType(ScalarType k, bool isPointer = false) {
    Value v;
    v.kind = Kind::DType;
    v.dtype = k;
    v.dtypeIsPointer = isPointer;
    return v;
  }
  /// The dtype of the elements of \p type (`x.dtype`).
  static Value ofElementDType(const TType &type) {
    return ofDType(type.elem, type.isPointer);
  }
  /// The type of \p type (`x.type`): a block type for a block, else its
  /// dtype.
  static Value ofTypeOf(const TType &type) {
    Value v = ofElementDType(type);
    if (!type.isScalar())
      v.dtypeShape = type.shape;
    return v;
  }
  /// Whether two DType values name the same type.
  bool sameDType(const Value &other) const {
    return dtype == other.dtype && dtypeIsPointer == other.dtypeIsPointer &&
           dtypeShape == other.dtypeShape &&
           dtypePointsToBlock == other.dtypePointsToBlock;
  }
  /// A DType that is a plain scalar type (neither pointer nor block).
  bool isScalarDType() const {
    return kind == Kind::DType && !dtypeIsPointer && !dtypeShape;
  }
  static Value ofTuple(std::vector<Value> elements) {
    Value v;
    v.kind = Kind::Tuple;
    v.elements = std::move(elements);
    return v;
  }
  static Value ofString(std::string s) {
    Value v;
    v.kind = Kind::String;
    v.str = std::move(s);
    return v;
  }
  static Value ofFunction(const ast::Function *fn, std::string name) {
    Value v;
    v.kind = Kind::Function;
    v.function = fn;
    v.str = std::move(name);
    return v;
  }
  /// A tuple, tensor descriptor or block pointer: its run-time parts are
  /// the Expr leaves of `elements`.
  bool isAggregate() const {
    return kind == Kind::Tuple || kind == Kind::TensorDesc ||
           kind == Kind::BlockPtr;
  }
  /// The Expr values of this value, depth-first: itself when it is an
  /// Expr, the leaves of its elements when it is an aggregate.
  void collectExprLeaves(std::vector<Value *> &leaves);
  /// Whether \p other is the same but for its Expr leaves, which have the
  /// same types (a value before a loop and after its body, or in the two
  /// branches of an `if`).
  bool sameStructure(const Value &other) const;
  bool isInvalid() const { return kind == Kind::Invalid; }
  bool isExpr() const { return kind == Kind::Expr; }
  bool isNone() const { return kind == Kind::None; }
  const TType &type() const { return expr->getType(); }
  /// The constant of a scalar ConstantExpr, or null.
  const ConstexprValue *getConst() const;
  /// The truth of a value known at compile time (None is false), if any.
  std::optional<bool> getConstTruth() const;
  Value clone() const;
  /// "f32[64]", "tuple", "dtype", "string", "None" for messages.
  std::string describe() const;
};

/// What a source name is bound to in a function invocation.
struct Binding {
  Binding() = default;
  Binding(const Binding &o)
      : value(o.value.clone()), hiddenReason(o.hiddenReason) {}
  Binding &operator=(const Binding &o) {
    value = o.value.clone();
    hiddenReason = o.hiddenReason;
    return *this;
  }
  Binding(Binding &&) = default;
  Binding &operator=(Binding &&) = default;

  Value value;
  /// Non-empty when the name is not visible here; the reason for messages.
  std::string hiddenReason;
};

/// One function invocation being elaborated (the kernel or an inlined
/// helper).
struct Frame {
  const ast::Function *fn = nullptr;
  bool isKernel = false;
  std::map<std::string, Binding> env;
  /// Source name -> unique checked name, per invocation.
  std::map<std::string, std::string> checkedNames;
  /// Set once a `return` was elaborated; the rest is dead code.
  bool returned = false;
  Value returnValue;
  /// Number of enclosing run-time regions (if/for/while) in this frame.
  int runtimeDepth = 0;
  /// Number of enclosing loops (run-time or unrolled) in this frame: a
  /// `return` in one has no continuation to drop.
  int loopDepth = 0;
  /// Set by a bare `return` in a branch of an `if` elaborated with the
  /// rest of the function (elabIfThenRest): the branch ends there.
  bool branchReturned = false;
  /// Statements elabIfThenRest has copied into branches so far (bounded:
  /// nested early exits copy the rest of the function repeatedly).
  size_t copiedStatements = 0;
};

/// A run-time value carried by a loop: the source name it is bound to and,
/// when that holds an aggregate (a tuple, a tensor descriptor, a block
/// pointer), the index of the Expr leaf (Value::collectExprLeaves).
struct CarriedValue {
  std::string name;
  int leaf = -1;
  checked::NamedType named;
};

/// The condition of an `if`, elaborated (Sema::startIf): a compile-time
/// truth (only the taken branch exists), or the run-time `if` to fill;
/// neither after an error.
struct IfStart {
  std::optional<bool> taken;
  std::unique_ptr<checked::IfStmt> runtime;
};

/// Evaluated arguments of a call.
struct CallArgs {
  SourceLoc loc;
  std::vector<Value> args;
  std::vector<SourceLoc> argLocs;
  std::vector<std::pair<std::string, Value>> kwargs;
  std::vector<SourceLoc> kwargLocs;

  /// Where positional argument `i` is; the call's location when the
  /// argument was passed by keyword (or not at all).
  SourceLoc argLoc(size_t i) const {
    return i < argLocs.size() ? argLocs[i] : loc;
  }
};

/// The elaborator.
class Sema {
public:
  Sema(const ast::Module &module, DiagnosticEngine &diags)
      : module(module), diags(diags) {}

  std::optional<checked::CheckedKernel> run(const ast::Function &kernel,
                                            const ConstexprBindings &bindings);

  // --- Sema.cpp: names, binding, helpers ---------------------------------
  void error(SourceLoc loc, const llvm::Twine &msg) { diags.error(loc, msg); }
  std::string getCheckedName(llvm::StringRef name);
  std::string freshName(llvm::StringRef hint);
  void emit(checked::StmtPtr stmt) { curBlock->push_back(std::move(stmt)); }
  /// Binds source name `name` to `value`, emitting an AssignStmt for
  /// run-time values.
  void bind(const std::string &name, Value value, SourceLoc loc);
  /// Makes `v` trivial (constant, VarRef, non-expr) by assigning run-time
  /// expressions to fresh names.
  Value materializeTrivial(Value v, SourceLoc loc, llvm::StringRef hint);
  Value lookupName(const std::string &name, SourceLoc loc);
  /// The value of a module-level constexpr, used at `loc`.
  Value elabGlobal(const ast::ConstexprGlobal &global, SourceLoc loc);
  std::vector<std::string> visibleNames() const;
  /// Whether `name` is Triton's language module: `tl`, `triton`, or a name
  /// an import gave `triton.language` (ast::Module::languageAliases).
  bool isLanguageModuleName(llvm::StringRef name) const;
  Value callHelper(const ast::Function &fn, CallArgs &args, SourceLoc loc);
  ExprPtr evalConstDefault(const ast::Expr &e);
  /// The `@triton.autotune` / `@triton.heuristics` decorators of a Python
  /// source's kernel: the launch options of the autotune config that the
  /// constexpr values select, else a warning that the decorator is ignored.
  void applyTritonDecorators(const ast::Function &kernel,
                             const ConstexprBindings &bindings,
                             checked::CheckedKernel &result);

  // --- SemaStmt.cpp: statements --------------------------------------------
  void elabBlock(const ast::Block &block);
  /// Elaborates statements in order; an `if` holding a bare `return` (not
  /// in a loop) takes the statements after it along (elabIfThenRest).
  void elabSequence(llvm::ArrayRef<const ast::Stmt *> stmts);
  /// `if c: ... return ...` followed by `rest` (the statements after the
  /// `if`, to the end of the function): each branch is elaborated followed
  /// by `rest`, up to a `return` in it, as Triton's early exits behave.
  void elabIfThenRest(const ast::IfStmt &s,
                      llvm::ArrayRef<const ast::Stmt *> rest);
  /// Elaborates and checks the condition of `s` (elabIf, elabIfThenRest).
  IfStart startIf(const ast::IfStmt &s);
  void elabStmt(const ast::Stmt &stmt);
  void elabAssign(const ast::AssignStmt &s);
  void elabAugAssign(const ast::AugAssignStmt &s);
  void elabIf(const ast::IfStmt &s);
  void elabFor(const ast::ForStmt &s);
  void elabStaticFor(const ast::ForStmt &s, CallArgs &args);
  void elabWhile(const ast::WhileStmt &s);
  void elabReturn(const ast::ReturnStmt &s);
  /// Prepares loop-carried names before a run-time loop; returns them.
  std::vector<CarriedValue> prepareCarried(const ast::Block &body,
                                           SourceLoc loc,
                                           const std::string &skipName);
  void finishCarried(std::vector<CarriedValue> &carried,
                     std::map<std::string, Binding> &bodyEnv,
                     checked::Block &body, SourceLoc loc, llvm::StringRef what);
  /// Elaborates the body of a run-time loop into `body`, then restores the
  /// environment `before` and finishes the `carried` names. Names first
  /// bound in the body (except `loopVar`) are hidden after the loop.
  /// Returns the carried names in order.
  std::vector<checked::NamedType>
  elabLoopBody(const ast::Block &astBody, checked::Block &body,
               std::map<std::string, Binding> before,
               std::vector<CarriedValue> &carried, SourceLoc loc,
               llvm::StringRef loopVar);

  // --- SemaExpr.cpp: expressions ---------------------------------------
  Value elabExpr(const ast::Expr &e);
  Value elabName(const ast::NameExpr &e);
  Value elabAttribute(const ast::AttributeExpr &e);
  Value elabUnary(const ast::UnaryExpr &e);
  Value elabSubscript(const ast::SubscriptExpr &e);
  Value elabTernary(const ast::TernaryExpr &e);
  Value unaryOp(ast::UnaryOp op, Value v, SourceLoc loc);
  Value binaryOp(ast::BinaryOp op, Value lhs, Value rhs, SourceLoc loc);
  Value pointerArith(ast::BinaryOp op, Value lhs, Value rhs, SourceLoc loc);
  Value foldBinary(ast::BinaryOp op, const ConstexprValue &a,
                   const ConstexprValue &b, SourceLoc loc);
  /// Makes a constant expression of the natural type of `v` (weak).
  Value makeConst(const ConstexprValue &v, SourceLoc loc);
  ExprPtr makeConstExpr(const ConstexprValue &v, TType type, SourceLoc loc);
  /// Result element type of a binary arithmetic op (Triton's rules).
  std::optional<ScalarType> computationType(const Value &a, const Value &b,
                                            bool divOrMod, SourceLoc loc,
                                            llvm::StringRef op);
  ExprPtr castTo(ExprPtr e, ScalarType kind, SourceLoc loc);
  ExprPtr toBool(ExprPtr e, SourceLoc loc);
  ExprPtr broadcastTo(ExprPtr e, llvm::ArrayRef<int64_t> shape, SourceLoc loc);
  std::optional<std::vector<int64_t>> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                                      llvm::ArrayRef<int64_t> b,
                                                      SourceLoc loc,
                                                      llvm::StringRef what);
  /// Broadcasts both expressions to their common shape.
  bool broadcastPair(ExprPtr &a, ExprPtr &b, SourceLoc loc,
                     llvm::StringRef what);
  /// Checks power-of-two dimensions and the element limit.
  bool checkShape(llvm::ArrayRef<int64_t> shape, SourceLoc loc);
  /// Requires an expression value; reports "expected a value" otherwise.
  bool requireExpr(const Value &v, SourceLoc loc, llvm::StringRef what);
  /// requireExpr of each of \p values, up to the first that is not one.
  bool requireExprs(llvm::ArrayRef<Value> values, SourceLoc loc,
                    llvm::StringRef what);
  std::optional<int64_t> requireConstInt(const Value &v, SourceLoc loc,
                                         llvm::StringRef what);
  std::optional<std::vector<int64_t>>
  requireShape(const Value &v, SourceLoc loc, llvm::StringRef what);
  /// `T.element_ty`, `T.scalar`, `T.shape`, `T.primitive_bitwidth` of a
  /// dtype value \p type.
  Value dtypeAttribute(const Value &type, llvm::StringRef attr, SourceLoc loc);
  /// The answer of the predicate method \p name (`is_fp16`, `is_floating`,
  /// `is_ptr`, ...) of a dtype value; nullopt when it is not one.
  std::optional<bool> dtypePredicate(const Value &type, llvm::StringRef name);
  /// Errors (and returns false) when \p type holds fp8 elements, which
  /// tilec stores and converts but does not compute on: \p what names the
  /// operation ("'+'", "'sum'").
  bool rejectFP8(const TType &type, SourceLoc loc, llvm::StringRef what);
  std::optional<ScalarType> requireDType(const Value &v, SourceLoc loc,
                                         llvm::StringRef what);

  // --- SemaBuiltins.cpp: calls ------------------------------------------
  Value elabCall(const ast::CallExpr &e);
  Value elabArg(const ast::Expr &e, bool hostFunctions);
  bool evalArgs(const ast::CallExpr &e, CallArgs &args,
                bool hostFunctions = false);
  bool bindArgs(CallArgs &args, llvm::StringRef fnName,
                llvm::ArrayRef<const char *> params, unsigned numRequired,
                std::vector<Value> &slots,
                llvm::ArrayRef<const char *> ignoredKeywords = {});
  Value callBuiltin(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  /// callBuiltin of positional \p values, all located at \p argLoc (the
  /// built-ins that elaborate into others: tl.rand, tl.dot_scaled).
  template <typename... Values>
  Value callBuiltinOn(llvm::StringRef name, SourceLoc argLoc, SourceLoc loc,
                      Values... values) {
    CallArgs inner;
    inner.loc = argLoc;
    (inner.args.push_back(std::move(values)), ...);
    inner.argLocs.assign(inner.args.size(), argLoc);
    return callBuiltin(name, inner, loc);
  }
  Value callMethod(Value self, llvm::StringRef name, CallArgs &args,
                   SourceLoc loc);
  Value builtinLoad(CallArgs &args, SourceLoc loc);
  Value builtinStore(CallArgs &args, SourceLoc loc);
  /// `atomic_add/max/min/and/or/xor/xchg` (`name`) and `atomic_cas`.
  Value builtinAtomicRMW(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  Value builtinAtomicCAS(CallArgs &args, SourceLoc loc);
  /// The `sem` and `scope` of an atomic, in slots `semSlot` and
  /// `semSlot + 1` (None: "acq_rel" and "gpu"). False after an error.
  bool elabAtomicOrdering(CallArgs &args, std::vector<Value> &slots,
                          size_t semSlot, llvm::StringRef fnName,
                          checked::MemSemantic &sem,
                          checked::MemSyncScope &scope);
  Value builtinDot(CallArgs &args, SourceLoc loc);
  /// tl.dot_scaled: operands upcast and scaled, then a dot
  /// (SemaDotScaled.cpp).
  Value builtinDotScaled(CallArgs &args, SourceLoc loc);
  /// tl.rand and its family (SemaRandom.cpp).
  Value builtinRandom(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  Value builtinReduce(llvm::StringRef name, CallArgs &args, SourceLoc loc);

  // --- SemaDescriptors.cpp: tensor descriptors and block pointers -------
  /// A kernel parameter given a `tensordesc<...>` type by the signature.
  Value declareDescriptorParam(const ast::Function &kernel, const ast::Param &p,
                               const DescriptorParamType &type,
                               checked::CheckedKernel &result);
  /// Marks what every tensor descriptor promises (TMA needs it, Triton's
  /// TensorDescriptor checks it on the host): a 16-byte aligned base and
  /// strides but the last that are multiples of 16 bytes.
  void assumeDescriptorAlignment(Value &desc, SourceLoc loc);
  /// `make_tensor_descriptor`, `make_block_ptr`, `advance`.
  Value builtinDescriptor(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  /// `desc.load(offsets)`, `desc.store(offsets, value)`.
  Value descriptorMethod(Value self, llvm::StringRef name, CallArgs &args,
                         SourceLoc loc);
  /// `desc.block_shape`, `.dtype`, `.shape`, `.strides`, `.base`.
  Value descriptorAttribute(const Value &self, llvm::StringRef attr,
                            SourceLoc loc);
  /// `tl.load` / `tl.store` (`name`) of a block pointer (argument 0).
  Value blockPointerAccess(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  /// The pointers of the block of `target` (a TensorDesc or BlockPtr) at
  /// `offsets` (i32 scalars), and the mask of the elements inside the
  /// tensor over the dimensions `checkDims` (null when none is checked).
  bool blockAccess(const Value &target, llvm::ArrayRef<Value> offsets,
                   llvm::ArrayRef<bool> checkDims, SourceLoc loc, ExprPtr &ptr,
                   ExprPtr &mask);
  /// `tl.swizzle2d(i, j, size_i, size_j, size_g)`: Triton's grouped
  /// reordering of a 2-D grid, as (new_i, new_j).
  Value builtinSwizzle2d(CallArgs &args, SourceLoc loc);
  /// `isinstance(x, cls)`: a compile-time bool.
  Value elabIsInstance(const ast::CallExpr &e);
  /// A compile-time integer or a tuple of them (`order=`,
  /// `boundary_check=`), without the shape checks of requireShape.
  std::optional<std::vector<int64_t>>
  requireShapeLike(const Value &v, SourceLoc loc, llvm::StringRef what);

  // --- SemaJoinSplit.cpp --------------------------------------------------
  /// `join(a, b)`, `split(x)`, `interleave(a, b)`.
  Value builtinJoinSplit(llvm::StringRef name, CallArgs &args, SourceLoc loc);

  // --- SemaCombine.cpp: scans and reductions with a combine function ----
  /// `associative_scan`, `reduce` (with a `combine_fn`), `cumsum`,
  /// `cumprod`, `xor_sum`.
  Value builtinCombine(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  // --- SemaInlineAsm.cpp -------------------------------------------------
  /// `inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)`.
  Value builtinInlineAsm(CallArgs &args, SourceLoc loc);
  /// Fills the current block with a combine function's body for the
  /// parameter values `params` and returns its results (one Value, or a
  /// Tuple), or an invalid Value after an error.
  using CombineBodyFn = llvm::function_ref<Value(std::vector<Value> &params)>;
  /// A CombineStmt of `kind` over `input` (a block or a tuple of blocks)
  /// along `axis` (None: every dimension, for reductions), whose combine
  /// function `body` builds; `what` names the built-in in messages. Returns
  /// the result (a tuple when `input` is one).
  Value combine(checked::CombineKind kind, Value input,
                std::optional<int64_t> axis, bool reverse, bool keepDims,
                CombineBodyFn body, llvm::StringRef what, SourceLoc loc);
  /// The body of the user's combine function `fn` (a Function value at
  /// `fnLoc`) called with `params`.
  Value callCombineFunction(const Value &fn, SourceLoc fnLoc,
                            std::vector<Value> &params, llvm::StringRef what);
  Value builtinMath(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  /// `pow`, `atan2`, `fmod` (libdevice's): floats, computed in f32 for
  /// f16/bf16 and integer operands; `fdiv(x, y, ieee_rounding=False)` (`/`);
  /// `umulhi` on 32-bit integers; `div_rn` (an error: not lowered yet).
  Value builtinMathBinary(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  Value builtinShape(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  /// libdevice's `isnan`, `isinf`, `signbit` of floats: an i32 block of 1
  /// (true) and 0.
  Value builtinFloatClass(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  /// libdevice's `erfinv(x)` and `hypot(x, y)`, from the elementwise ops.
  Value builtinErfinvHypot(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  Value builtinCreation(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  Value builtinMisc(llvm::StringRef name, CallArgs &args, SourceLoc loc);
  Value castValue(Value v, ScalarType kind, SourceLoc loc);
  /// `v.to(dtype, bitcast=True)`: the bits of `v` as `dtype` (same element
  /// width; a pointer as an int64, an int64 as a pointer).
  Value bitcastValue(Value v, const Value &dtype, SourceLoc dtypeLoc,
                     SourceLoc loc);
  /// `v.to(tl.pointer_type(pointee))`: an int64 (or a pointer) as a pointer.
  Value castToPointer(Value v, ScalarType pointee, SourceLoc loc);
  Value reduce(checked::ReduceKind kind, Value x, std::optional<int64_t> axis,
               bool keepDims, SourceLoc loc);
  /// Builds a pointer/mask/value triple broadcast to a common shape.
  bool prepareMemoryOperands(llvm::StringRef fnName, ExprPtr &ptr,
                             ExprPtr *value, ExprPtr &mask, SourceLoc loc);
  /// The pointer, value and mask of `store`/atomics (slots 0 to 2):
  /// `checkElem` may reject the pointee type (it reports why); the value is
  /// converted to it and all three are broadcast to one shape. False after
  /// an error.
  bool elabStoreOperands(llvm::StringRef fnName, std::vector<Value> &slots,
                         SourceLoc argsLoc, SourceLoc loc,
                         llvm::function_ref<bool(ScalarType)> checkElem,
                         ExprPtr &ptr, ExprPtr &value, ExprPtr &mask);
  static bool isBuiltinName(llvm::StringRef name);
  static std::vector<std::string> builtinNames();

  const ast::Module &module;
  DiagnosticEngine &diags;
  checked::Block *curBlock = nullptr;
  Frame *frame = nullptr;
  std::vector<const ast::Function *> callStack;
  /// The module-level constexprs being evaluated (to report cycles).
  std::vector<const ast::ConstexprGlobal *> globalsInProgress;
  /// Number of enclosing run-time regions (if/for/while) across inlined
  /// helpers: the region nesting of the IR.
  unsigned regionDepth = 0;
  /// Reports (at `loc`) and returns false when one more run-time region
  /// would nest deeper than Parser::kMaxStatementNesting.
  bool checkRegionDepth(SourceLoc loc);
  std::set<std::string> usedNames;
  unsigned nameCounter = 0;
};

/// The element type `sum`/`cumsum` accumulate `elem` in (Triton's
/// `_pick_sum_dtype`): integers narrower than 32 bits in 32 bits of their
/// signedness (i1 as unsigned), anything else in itself.
ScalarType pickSumType(ScalarType elem);

/// Names assigned anywhere in `block` (targets, augmented targets, loop
/// variables), in first-appearance order.
void collectAssignedNames(const ast::Block &block,
                          std::vector<std::string> &names);

/// A name of triton.language that tilec does not support (SemaBuiltins.cpp).
bool isUnsupportedTritonName(llvm::StringRef name);

/// tl.rand and the other names of Triton's random module (SemaRandom.cpp).
bool isRandomName(llvm::StringRef name);

} // namespace sema
} // namespace tilec

#endif // TILEC_FRONTEND_SEMAIMPL_H
