//===- MLIRGen.cpp - Checked kernel to the tile dialect -------------------===//
//
// A mechanical translation: every checked expression becomes one op (or a
// few, for sigmoid and integer negation), variables are an environment from
// names to SSA values, and structured statements become scf.if / scf.for /
// scf.while whose results are the yielded or loop-carried names.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/MLIRGen.h"
#include "MLIRGenParts.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::checked;

namespace {
class MLIRGenImpl {
public:
  MLIRGenImpl(MLIRContext &context, const CheckedKernel &kernel)
      : context(context), builder(&context), kernel(kernel) {}

  OwningOpRef<ModuleOp> generate() {
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc(kernel.loc));
    builder.setInsertionPointToEnd(module->getBody());
    SmallVector<Type> argTypes;
    for (const checked::KernelParam &param : kernel.params)
      argTypes.push_back(convertType(param.type));
    auto func = func::FuncOp::create(builder, loc(kernel.loc), kernel.name,
                                     builder.getFunctionType(argTypes, {}));
    func->setAttr(tile::kKernelAttrName, builder.getUnitAttr());
    func->setAttr(tile::kNumWarpsAttrName,
                  builder.getI32IntegerAttr(kernel.numWarps));
    func->setAttr(tile::kNumStagesAttrName,
                  builder.getI32IntegerAttr(kernel.numStages));
    mlir::Block *entry = func.addEntryBlock();
    for (auto [param, arg] : llvm::zip(kernel.params, entry->getArguments())) {
      arg.setLoc(loc(param.loc));
      env[param.name] = arg;
    }
    builder.setInsertionPointToEnd(entry);
    if (failed(genBlock(kernel.body)))
      return nullptr;
    func::ReturnOp::create(builder, loc(kernel.loc));
    anchorHintsAtDefinitions(func);
    if (failed(verify(*module)))
      return nullptr;
    return module;
  }

private:
  using Env = llvm::StringMap<Value>;

  /// `multiple_of` / `max_contiguous` annotate the value itself, as in
  /// Triton (which sets the attribute on the defining op, or on the loop for
  /// a loop-carried value): the promise holds for every use of the value,
  /// before the call or after it, also when the call's result is discarded.
  /// Each hint moves right after its operand's definition (to the start of
  /// the block for a block argument) and every other use reads it.
  static void anchorHintsAtDefinitions(func::FuncOp func) {
    SmallVector<tile::HintOp> hints;
    func.walk([&](tile::HintOp hint) { hints.push_back(hint); });
    for (tile::HintOp hint : hints) {
      Value src = hint.getSrc();
      if (auto arg = dyn_cast<BlockArgument>(src)) {
        Operation *first = &arg.getOwner()->front();
        if (first != hint.getOperation())
          hint->moveBefore(first);
      } else {
        hint->moveAfter(src.getDefiningOp());
      }
      src.replaceAllUsesExcept(hint.getResult(), hint);
    }
  }

  Location loc(SourceLoc sourceLoc) {
    return FileLineColLoc::get(&context, kernel.filename, sourceLoc.line,
                               sourceLoc.col);
  }

  Type convertType(const TType &type) {
    return tilec::convertType(context, type);
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  LogicalResult genBlock(const checked::Block &block) {
    for (const StmtPtr &stmt : block)
      if (failed(genStmt(*stmt)))
        return failure();
    return success();
  }

  LogicalResult genStmt(const Stmt &stmt) {
    switch (stmt.getKind()) {
    case StmtKind::Assign: {
      auto &assign = llvm::cast<AssignStmt>(stmt);
      Value value = genExpr(*assign.value);
      if (!value)
        return failure();
      env[assign.name] = value;
      return success();
    }
    case StmtKind::Store: {
      auto &store = llvm::cast<StoreStmt>(stmt);
      Value ptr = genExpr(*store.ptr), value = genExpr(*store.value);
      Value mask = store.mask ? genExpr(*store.mask) : Value();
      if (!ptr || !value || (store.mask && !mask))
        return failure();
      tile::StoreOp::create(builder, loc(store.getLoc()), ptr, value, mask);
      return success();
    }
    case StmtKind::Expr:
      return success(genExpr(*llvm::cast<ExprStmt>(stmt).expr) != nullptr);
    case StmtKind::If:
      return genIf(llvm::cast<IfStmt>(stmt));
    case StmtKind::For:
      return genFor(llvm::cast<ForStmt>(stmt));
    case StmtKind::While:
      return genWhile(llvm::cast<WhileStmt>(stmt));
    case StmtKind::DevicePrint: {
      auto &print = llvm::cast<DevicePrintStmt>(stmt);
      SmallVector<Value> args;
      for (const ExprPtr &arg : print.args) {
        Value value = genExpr(*arg);
        if (!value)
          return failure();
        args.push_back(value);
      }
      tile::PrintOp::create(builder, loc(print.getLoc()), print.prefix, args);
      return success();
    }
    case StmtKind::GridDepControl:
      if (llvm::cast<GridDepControlStmt>(stmt).launchDependents)
        tile::GridDepLaunchDependentsOp::create(builder, loc(stmt.getLoc()));
      else
        tile::GridDepWaitOp::create(builder, loc(stmt.getLoc()));
      return success();
    case StmtKind::DebugBarrier:
      tile::DebugBarrierOp::create(builder, loc(stmt.getLoc()));
      return success();
    case StmtKind::Combine:
      return genCombine(llvm::cast<CombineStmt>(stmt));
    case StmtKind::InlineAsm:
      return genInlineAsm(llvm::cast<InlineAsmStmt>(stmt));
    }
    return failure();
  }

  /// The values of `names` in the current environment.
  FailureOr<SmallVector<Value>> lookup(ArrayRef<NamedType> names,
                                       SourceLoc where) {
    SmallVector<Value> values;
    for (const NamedType &named : names) {
      auto it = env.find(named.name);
      if (it == env.end()) {
        emitError(loc(where))
            << "internal error: '" << named.name << "' has no value here";
        return failure();
      }
      values.push_back(it->second);
    }
    return values;
  }

  /// Generates `body` at the builder's insertion point and ends it with an
  /// scf.yield of the current values of `yields`.
  LogicalResult genYieldingBody(const checked::Block &body,
                                ArrayRef<NamedType> yields, SourceLoc where,
                                Location location) {
    if (failed(genBlock(body)))
      return failure();
    FailureOr<SmallVector<Value>> yielded = lookup(yields, where);
    if (failed(yielded))
      return failure();
    scf::YieldOp::create(builder, location, *yielded);
    return success();
  }

  /// Binds each of `names` to the value at the same position of `values`.
  void bind(ArrayRef<NamedType> names, ValueRange values) {
    for (auto [named, value] : llvm::zip(names, values))
      env[named.name] = value;
  }

  SmallVector<Type> typesOf(ArrayRef<NamedType> names) {
    SmallVector<Type> types;
    for (const NamedType &named : names)
      types.push_back(convertType(named.type));
    return types;
  }

  LogicalResult genIf(const IfStmt &stmt) {
    Location location = loc(stmt.getLoc());
    Value cond = genExpr(*stmt.cond);
    if (!cond)
      return failure();
    auto ifOp = scf::IfOp::create(builder, location, typesOf(stmt.yields), cond,
                                  /*withElseRegion=*/true);
    Env saved = env;
    for (auto [body, region] :
         {std::pair{&stmt.thenBody, &ifOp.getThenRegion()},
          std::pair{&stmt.elseBody, &ifOp.getElseRegion()}}) {
      env = saved;
      mlir::Block &block = region->front();
      // scf.if builds a terminator when there are no results.
      if (!block.empty())
        block.back().erase();
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(&block);
      if (failed(genYieldingBody(*body, stmt.yields, stmt.getLoc(), location)))
        return failure();
    }
    env = saved;
    bind(stmt.yields, ifOp.getResults());
    return success();
  }

  LogicalResult genFor(const ForStmt &stmt) {
    Location location = loc(stmt.getLoc());
    Value lo = genExpr(*stmt.lo), hi = genExpr(*stmt.hi),
          step = genExpr(*stmt.step);
    if (!lo || !hi || !step)
      return failure();
    FailureOr<SmallVector<Value>> inits = lookup(stmt.carried, stmt.getLoc());
    if (failed(inits))
      return failure();
    auto forOp = scf::ForOp::create(builder, location, lo, hi, step, *inits);
    // `range(..., num_stages=N)`: the per-loop pipelining depth.
    if (stmt.numStages >= 0)
      forOp->setAttr(tile::kNumStagesAttrName,
                     builder.getI32IntegerAttr(stmt.numStages));
    Env saved = env;
    mlir::Block *body = forOp.getBody();
    env[stmt.inductionVar] = forOp.getInductionVar();
    bind(stmt.carried, forOp.getRegionIterArgs());
    {
      OpBuilder::InsertionGuard guard(builder);
      if (!body->empty() && isa<scf::YieldOp>(body->back()))
        body->back().erase();
      builder.setInsertionPointToEnd(body);
      if (failed(genYieldingBody(stmt.body, stmt.carried, stmt.getLoc(),
                                 location)))
        return failure();
    }
    env = saved;
    bind(stmt.carried, forOp.getResults());
    return success();
  }

  /// tile.scan / tile.combine_reduce (MLIRGenCombine.cpp), the combine
  /// function's parameters bound to its region's arguments.
  LogicalResult genCombine(const CombineStmt &stmt) {
    SmallVector<Value> operands;
    for (const ExprPtr &operand : stmt.operands)
      if (!operands.emplace_back(genExpr(*operand)))
        return failure();
    Env saved = env;
    FailureOr<Operation *> op = createCombineOp(
        builder, loc(stmt.getLoc()), stmt, typesOf(stmt.results), operands,
        typesOf(stmt.params), [&](ValueRange params) {
          bind(stmt.params, params);
          return genCombineBody(stmt);
        });
    env = saved;
    if (failed(op))
      return failure();
    bind(stmt.results, (*op)->getResults());
    return success();
  }

  LogicalResult genInlineAsm(const InlineAsmStmt &stmt) {
    SmallVector<Value> args;
    for (const ExprPtr &arg : stmt.args)
      if (!args.emplace_back(genExpr(*arg)))
        return failure();
    auto op = tile::ElementwiseInlineAsmOp::create(
        builder, loc(stmt.getLoc()), typesOf(stmt.results), stmt.asmString,
        stmt.constraints, stmt.pure, static_cast<uint32_t>(stmt.pack), args);
    bind(stmt.results, op.getResults());
    return success();
  }

  FailureOr<SmallVector<Value>> genCombineBody(const CombineStmt &stmt) {
    if (failed(genBlock(stmt.body)))
      return failure();
    SmallVector<Value> yields;
    for (const ExprPtr &yield : stmt.yields)
      if (!yields.emplace_back(genExpr(*yield)))
        return failure();
    return yields;
  }

  LogicalResult genWhile(const WhileStmt &stmt) {
    Location location = loc(stmt.getLoc());
    FailureOr<SmallVector<Value>> inits = lookup(stmt.carried, stmt.getLoc());
    if (failed(inits))
      return failure();
    SmallVector<Type> types = typesOf(stmt.carried);
    auto whileOp = scf::WhileOp::create(builder, location, types, *inits);
    SmallVector<Location> locs(types.size(), location);
    Env saved = env;
    {
      OpBuilder::InsertionGuard guard(builder);
      mlir::Block *before =
          builder.createBlock(&whileOp.getBefore(), {}, types, locs);
      bind(stmt.carried, before->getArguments());
      Value cond = genExpr(*stmt.cond);
      if (!cond)
        return failure();
      scf::ConditionOp::create(builder, location, cond, before->getArguments());
      env = saved;
      mlir::Block *after =
          builder.createBlock(&whileOp.getAfter(), {}, types, locs);
      bind(stmt.carried, after->getArguments());
      if (failed(genYieldingBody(stmt.body, stmt.carried, stmt.getLoc(),
                                 location)))
        return failure();
    }
    env = saved;
    bind(stmt.carried, whileOp.getResults());
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Value genExpr(const Expr &expr);

  Value constant(const TType &type, ConstexprValue value, Location location) {
    Type mlirType = convertType(type);
    Type element = getElementTypeOrSelf(mlirType);
    TypedAttr scalar;
    if (isa<FloatType>(element))
      scalar = builder.getFloatAttr(element, value.asFloat());
    else
      scalar = builder.getIntegerAttr(element, value.asInt());
    if (type.isScalar())
      return arith::ConstantOp::create(builder, location, scalar);
    return arith::ConstantOp::create(
        builder, location,
        SplatElementsAttr::get(cast<ShapedType>(mlirType), scalar));
  }

  Value genBinary(const BinaryExpr &expr, Location location);
  Value genCast(Value value, const TType &from, const TType &to,
                Location location);
  Value genMath(const MathExpr &expr, Value operand, Location location);

  /// An OpTy of `type` on the value of `operand`; null when that fails.
  template <typename OpTy>
  Value genUnaryOp(const ExprPtr &operand, Type type, Location location) {
    Value value = genExpr(*operand);
    return value ? OpTy::create(builder, location, type, value) : Value();
  }

  MLIRContext &context;
  OpBuilder builder;
  const CheckedKernel &kernel;
  Env env;
};

Value MLIRGenImpl::genExpr(const Expr &expr) {
  Location location = loc(expr.getLoc());
  Type type = convertType(expr.getType());
  auto gen = [&](const ExprPtr &sub) -> Value {
    return sub ? genExpr(*sub) : Value();
  };
  switch (expr.getKind()) {
  case ExprKind::Constant:
    return constant(expr.getType(), llvm::cast<ConstantExpr>(expr).value,
                    location);
  case ExprKind::VarRef: {
    auto &ref = llvm::cast<VarRefExpr>(expr);
    auto it = env.find(ref.name);
    if (it == env.end()) {
      emitError(location) << "internal error: unknown variable '" << ref.name
                          << "'";
      return Value();
    }
    return it->second;
  }
  case ExprKind::Unary: {
    auto &unary = llvm::cast<UnaryExpr>(expr);
    Value operand = gen(unary.operand);
    if (!operand)
      return Value();
    if (unary.op == UnaryOp::Neg) {
      if (expr.getType().isFloat())
        return arith::NegFOp::create(builder, location, operand);
      Value zero = constant(expr.getType(), ConstexprValue::ofInt(0), location);
      return arith::SubIOp::create(builder, location, zero, operand);
    }
    Value ones = constant(expr.getType(),
                          expr.getType().isBool() ? ConstexprValue::ofBool(true)
                                                  : ConstexprValue::ofInt(-1),
                          location);
    return arith::XOrIOp::create(builder, location, operand, ones);
  }
  case ExprKind::Binary:
    return genBinary(llvm::cast<BinaryExpr>(expr), location);
  case ExprKind::Select: {
    auto &select = llvm::cast<SelectExpr>(expr);
    Value cond = gen(select.cond), a = gen(select.trueValue),
          b = gen(select.falseValue);
    if (!cond || !a || !b)
      return Value();
    return arith::SelectOp::create(builder, location, cond, a, b);
  }
  case ExprKind::Fma: {
    auto &fma = llvm::cast<FmaExpr>(expr);
    Value a = gen(fma.a), b = gen(fma.b), c = gen(fma.c);
    if (!a || !b || !c)
      return Value();
    return math::FmaOp::create(builder, location, a, b, c);
  }
  case ExprKind::Cast: {
    auto &cast = llvm::cast<CastExpr>(expr);
    Value operand = gen(cast.operand);
    if (!operand)
      return Value();
    return genCast(operand, cast.operand->getType(), expr.getType(), location);
  }
  case ExprKind::Bitcast: {
    Value operand = gen(llvm::cast<BitcastExpr>(expr).operand);
    if (!operand)
      return Value();
    return tile::BitcastOp::create(builder, location, type, operand);
  }
  case ExprKind::Splat:
    return genUnaryOp<tile::SplatOp>(llvm::cast<SplatExpr>(expr).operand, type,
                                     location);
  case ExprKind::Broadcast:
    return genUnaryOp<tile::BroadcastOp>(
        llvm::cast<BroadcastExpr>(expr).operand, type, location);
  case ExprKind::ExpandDims: {
    auto &expand = llvm::cast<ExpandDimsExpr>(expr);
    Value operand = gen(expand.operand);
    if (!operand)
      return Value();
    return tile::ExpandDimsOp::create(builder, location, type, operand,
                                      expand.axis);
  }
  case ExprKind::Reshape:
    return genUnaryOp<tile::ReshapeOp>(llvm::cast<ReshapeExpr>(expr).operand,
                                       type, location);
  case ExprKind::Trans: {
    auto &trans = llvm::cast<TransExpr>(expr);
    Value operand = gen(trans.operand);
    if (!operand)
      return Value();
    // A 2-D transpose keeps the short form (no order attribute).
    DenseI32ArrayAttr order;
    if (trans.order != std::vector<int32_t>{1, 0})
      order = builder.getDenseI32ArrayAttr(trans.order);
    return tile::TransOp::create(builder, location, type, operand, order);
  }
  case ExprKind::AddPtr: {
    auto &addptr = llvm::cast<AddPtrExpr>(expr);
    Value ptr = gen(addptr.ptr), offset = gen(addptr.offset);
    if (!ptr || !offset)
      return Value();
    return tile::AddPtrOp::create(builder, location, type, ptr, offset);
  }
  case ExprKind::MakeRange: {
    auto &range = llvm::cast<MakeRangeExpr>(expr);
    return tile::MakeRangeOp::create(builder, location, type, range.start,
                                     range.end);
  }
  case ExprKind::ProgramId:
    return tile::ProgramIdOp::create(builder, location, type,
                                     llvm::cast<ProgramIdExpr>(expr).axis);
  case ExprKind::NumPrograms:
    return tile::NumProgramsOp::create(builder, location, type,
                                       llvm::cast<NumProgramsExpr>(expr).axis);
  case ExprKind::Load: {
    auto &load = llvm::cast<LoadExpr>(expr);
    Value ptr = gen(load.ptr);
    Value mask = gen(load.mask), other = load.mask ? gen(load.other) : Value();
    if (!ptr || (load.mask && !mask) || (load.mask && load.other && !other))
      return Value();
    return tile::LoadOp::create(builder, location, ptr, mask, other);
  }
  case ExprKind::AtomicRMW: {
    auto &atomic = llvm::cast<AtomicRMWExpr>(expr);
    Value ptr = gen(atomic.ptr), value = gen(atomic.value);
    Value mask = gen(atomic.mask);
    if (!ptr || !value || (atomic.mask && !mask))
      return Value();
    return tile::AtomicRMWOp::create(builder, location, type, atomic.kind,
                                     atomic.sem, atomic.scope, ptr, value,
                                     mask);
  }
  case ExprKind::AtomicCAS: {
    auto &cas = llvm::cast<AtomicCASExpr>(expr);
    Value ptr = gen(cas.ptr), cmp = gen(cas.cmp), value = gen(cas.value);
    if (!ptr || !cmp || !value)
      return Value();
    return tile::AtomicCASOp::create(builder, location, type, cas.sem,
                                     cas.scope, ptr, cmp, value);
  }
  case ExprKind::Dot: {
    auto &dot = llvm::cast<DotExpr>(expr);
    if (dot.a->getType().isInteger()) {
      emitError(location) << "dot of integer blocks is not supported yet";
      return Value();
    }
    Value a = gen(dot.a), b = gen(dot.b), acc = gen(dot.acc);
    if (!a || !b || !acc)
      return Value();
    return tile::DotOp::create(builder, location, type, a, b, acc,
                               dot.precision);
  }
  case ExprKind::Reduce: {
    auto &reduce = llvm::cast<ReduceExpr>(expr);
    Value operand = gen(reduce.operand);
    if (!operand)
      return Value();
    return tile::ReduceOp::create(builder, location, type, reduce.reduceKind,
                                  operand, reduce.axis);
  }
  case ExprKind::Math: {
    auto &math = llvm::cast<MathExpr>(expr);
    Value operand = gen(math.operand);
    if (!operand)
      return Value();
    return genMath(math, operand, location);
  }
  case ExprKind::Hint: {
    auto &hint = llvm::cast<HintExpr>(expr);
    Value operand = gen(hint.operand);
    if (!operand)
      return Value();
    size_t rank = std::max<size_t>(1, expr.getType().shape.size());
    SmallVector<int64_t> values(hint.values.begin(), hint.values.end());
    if (values.size() == 1 && rank > 1)
      values.assign(rank, values.front());
    auto op = tile::HintOp::create(builder, location, type, operand,
                                   DenseI64ArrayAttr(), DenseI64ArrayAttr());
    auto attr = builder.getDenseI64ArrayAttr(values);
    if (hint.hintKind == HintKind::MultipleOf)
      op.setDivisibilityAttr(attr);
    else
      op.setContiguityAttr(attr);
    return op;
  }
  }
  return Value();
}

namespace {
/// The operands of a binary arithmetic operator, and their kind.
struct ArithOperands {
  OpBuilder &builder;
  Location location;
  Value lhs, rhs;
  bool isFloat, isUnsigned;

  /// FOp on floats, UOp on unsigned and SOp on signed integers.
  template <typename FOp, typename UOp, typename SOp = UOp>
  Value create() const {
    if (isFloat)
      return FOp::create(builder, location, lhs, rhs);
    if (isUnsigned)
      return UOp::create(builder, location, lhs, rhs);
    return SOp::create(builder, location, lhs, rhs);
  }
};
} // namespace

Value MLIRGenImpl::genBinary(const BinaryExpr &expr, Location location) {
  Value lhs = genExpr(*expr.lhs), rhs = genExpr(*expr.rhs);
  if (!lhs || !rhs)
    return Value();
  const TType &operandType = expr.lhs->getType();
  bool isFloat = operandType.isFloat();
  bool isUnsigned = !isFloat && isUnsignedType(operandType.elem);
  if (operandType.isPointer && !isComparison(expr.op)) {
    emitError(location) << "arithmetic on pointers other than 'pointer + "
                           "integer' is not supported";
    return Value();
  }
  if (operandType.isPointer) {
    // Compare pointers by address.
    Type i64 = builder.getI64Type();
    Type intType = operandType.isScalar()
                       ? i64
                       : Type(RankedTensorType::get(operandType.shape, i64));
    lhs = tile::PtrToIntOp::create(builder, location, intType, lhs);
    rhs = tile::PtrToIntOp::create(builder, location, intType, rhs);
    isUnsigned = true;
  }
  using arith::CmpFPredicate;
  using arith::CmpIPredicate;
  auto cmp = [&](CmpFPredicate f, CmpIPredicate s, CmpIPredicate u) -> Value {
    if (isFloat)
      return arith::CmpFOp::create(builder, location, f, lhs, rhs);
    return arith::CmpIOp::create(builder, location, isUnsigned ? u : s, lhs,
                                 rhs);
  };
  ArithOperands operands{builder, location, lhs, rhs, isFloat, isUnsigned};
  switch (expr.op) {
  case BinaryOp::Add:
    return operands.create<arith::AddFOp, arith::AddIOp>();
  case BinaryOp::Sub:
    return operands.create<arith::SubFOp, arith::SubIOp>();
  case BinaryOp::Mul:
    return operands.create<arith::MulFOp, arith::MulIOp>();
  case BinaryOp::FDiv:
    return arith::DivFOp::create(builder, location, lhs, rhs);
  case BinaryOp::FDivRN: {
    auto div = arith::DivFOp::create(builder, location, lhs, rhs);
    div->setAttr(tile::kIeeeRoundingAttrName, builder.getUnitAttr());
    return div;
  }
  case BinaryOp::IDiv:
    if (isFloat) {
      Value quotient = arith::DivFOp::create(builder, location, lhs, rhs);
      return math::FloorOp::create(builder, location, quotient);
    }
    return isUnsigned
               ? Value(arith::DivUIOp::create(builder, location, lhs, rhs))
               : Value(arith::DivSIOp::create(builder, location, lhs, rhs));
  case BinaryOp::Rem:
    return operands.create<arith::RemFOp, arith::RemUIOp, arith::RemSIOp>();
  case BinaryOp::And:
    return arith::AndIOp::create(builder, location, lhs, rhs);
  case BinaryOp::Or:
    return arith::OrIOp::create(builder, location, lhs, rhs);
  case BinaryOp::Xor:
    return arith::XOrIOp::create(builder, location, lhs, rhs);
  case BinaryOp::Shl:
    return arith::ShLIOp::create(builder, location, lhs, rhs);
  case BinaryOp::Shr:
    return isUnsigned
               ? Value(arith::ShRUIOp::create(builder, location, lhs, rhs))
               : Value(arith::ShRSIOp::create(builder, location, lhs, rhs));
  case BinaryOp::Max:
    return operands.create<arith::MaximumFOp, arith::MaxUIOp, arith::MaxSIOp>();
  case BinaryOp::Pow:
    return math::PowFOp::create(builder, location, lhs, rhs);
  case BinaryOp::Atan2:
    return math::Atan2Op::create(builder, location, lhs, rhs);
  case BinaryOp::UMulHi: {
    // (zext(a) * zext(b)) >> 32, which NVPTX selects as mul.hi.u32.
    Type wide = builder.getI64Type();
    if (auto shaped = dyn_cast<RankedTensorType>(lhs.getType()))
      wide = RankedTensorType::get(shaped.getShape(), wide);
    Value a = arith::ExtUIOp::create(builder, location, wide, lhs);
    Value b = arith::ExtUIOp::create(builder, location, wide, rhs);
    Value product = arith::MulIOp::create(builder, location, a, b);
    TypedAttr bits = builder.getI64IntegerAttr(32);
    if (auto shaped = dyn_cast<RankedTensorType>(wide))
      bits = DenseElementsAttr::get(shaped, bits);
    Value shift = arith::ConstantOp::create(builder, location, bits);
    Value high = arith::ShRUIOp::create(builder, location, product, shift);
    return arith::TruncIOp::create(builder, location, lhs.getType(), high);
  }
  case BinaryOp::Min:
    return operands.create<arith::MinimumFOp, arith::MinUIOp, arith::MinSIOp>();
  case BinaryOp::Eq:
    return cmp(CmpFPredicate::OEQ, CmpIPredicate::eq, CmpIPredicate::eq);
  case BinaryOp::Ne:
    return cmp(CmpFPredicate::UNE, CmpIPredicate::ne, CmpIPredicate::ne);
  case BinaryOp::Lt:
    return cmp(CmpFPredicate::OLT, CmpIPredicate::slt, CmpIPredicate::ult);
  case BinaryOp::Le:
    return cmp(CmpFPredicate::OLE, CmpIPredicate::sle, CmpIPredicate::ule);
  case BinaryOp::Gt:
    return cmp(CmpFPredicate::OGT, CmpIPredicate::sgt, CmpIPredicate::ugt);
  case BinaryOp::Ge:
    return cmp(CmpFPredicate::OGE, CmpIPredicate::sge, CmpIPredicate::uge);
  }
  return Value();
}

Value MLIRGenImpl::genCast(Value value, const TType &from, const TType &to,
                           Location location) {
  Type target = convertType(to);
  if (value.getType() == target && from.isPointer == to.isPointer)
    return value;
  if (from.isPointer && to.isPointer)
    return tile::BitcastOp::create(builder, location, target, value);
  // An address as an i64 and back (Sema allows only i64).
  if (to.isPointer && from.elem == ScalarType::I64)
    return tile::IntToPtrOp::create(builder, location, target, value);
  if (from.isPointer && to.elem == ScalarType::I64)
    return tile::PtrToIntOp::create(builder, location, target, value);
  if (from.isPointer || to.isPointer) {
    emitError(location) << "cannot convert " << from.str() << " to "
                        << to.str();
    return Value();
  }
  Type fromElem = getElementTypeOrSelf(value.getType());
  Type toElem = getElementTypeOrSelf(target);
  bool fromFloat = isa<FloatType>(fromElem), toFloat = isa<FloatType>(toElem);
  bool fromUnsigned = isUnsignedType(from.elem) || from.elem == ScalarType::I1;
  // Integers and fp8 convert through f32 (there is no direct conversion).
  if (fromFloat != toFloat && (isFP8Type(from.elem) || isFP8Type(to.elem))) {
    TType f32 = (fromFloat ? from : to).withElem(ScalarType::F32);
    Value wide = genCast(value, from, f32, location);
    return wide ? genCast(wide, f32, to, location) : Value();
  }
  if (!toFloat && toElem.isInteger(1)) {
    // x != 0
    TType zeroType = from;
    Value zero = constant(zeroType,
                          fromFloat ? ConstexprValue::ofFloat(0.0)
                                    : ConstexprValue::ofInt(0),
                          location);
    if (fromFloat)
      return arith::CmpFOp::create(builder, location, arith::CmpFPredicate::UNE,
                                   value, zero);
    return arith::CmpIOp::create(builder, location, arith::CmpIPredicate::ne,
                                 value, zero);
  }
  if (fromFloat && toFloat) {
    unsigned fromBits = fromElem.getIntOrFloatBitWidth();
    unsigned toBits = toElem.getIntOrFloatBitWidth();
    if (fromBits == toBits) { // f16 <-> bf16 through f32.
      Type f32 = builder.getF32Type();
      Type wide = isa<RankedTensorType>(target)
                      ? Type(RankedTensorType::get(to.shape, f32))
                      : f32;
      value = arith::ExtFOp::create(builder, location, wide, value);
      return arith::TruncFOp::create(builder, location, target, value);
    }
    if (fromBits < toBits)
      return arith::ExtFOp::create(builder, location, target, value);
    return arith::TruncFOp::create(builder, location, target, value);
  }
  if (!fromFloat && toFloat)
    return fromUnsigned ? Value(arith::UIToFPOp::create(builder, location,
                                                        target, value))
                        : Value(arith::SIToFPOp::create(builder, location,
                                                        target, value));
  if (fromFloat && !toFloat)
    return isUnsignedType(to.elem)
               ? Value(
                     arith::FPToUIOp::create(builder, location, target, value))
               : Value(
                     arith::FPToSIOp::create(builder, location, target, value));
  unsigned fromBits = fromElem.getIntOrFloatBitWidth();
  unsigned toBits = toElem.getIntOrFloatBitWidth();
  if (fromBits == toBits)
    return value; // Signedness only.
  if (fromBits > toBits)
    return arith::TruncIOp::create(builder, location, target, value);
  return fromUnsigned
             ? Value(arith::ExtUIOp::create(builder, location, target, value))
             : Value(arith::ExtSIOp::create(builder, location, target, value));
}

/// Builds the math-dialect op `Op` of one operand.
template <typename Op>
Value createMathOp(OpBuilder &builder, Location location, Value x) {
  return Op::create(builder, location, x);
}

/// The libdevice functions that are one math-dialect op each.
const std::pair<MathFn, Value (*)(OpBuilder &, Location, Value)>
    kOneOpMathFns[] = {
        {MathFn::Log1p, createMathOp<math::Log1pOp>},
        {MathFn::Expm1, createMathOp<math::ExpM1Op>},
        {MathFn::Log10, createMathOp<math::Log10Op>},
        {MathFn::Asin, createMathOp<math::AsinOp>},
        {MathFn::Acos, createMathOp<math::AcosOp>},
        {MathFn::Atan, createMathOp<math::AtanOp>},
        {MathFn::Sinh, createMathOp<math::SinhOp>},
        {MathFn::Cosh, createMathOp<math::CoshOp>},
        {MathFn::Tan, createMathOp<math::TanOp>},
        {MathFn::Cbrt, createMathOp<math::CbrtOp>},
        {MathFn::Trunc, createMathOp<math::TruncOp>},
        {MathFn::Round, createMathOp<math::RoundOp>},
        {MathFn::Rint, createMathOp<math::RoundEvenOp>},
};

Value MLIRGenImpl::genMath(const MathExpr &expr, Value x, Location location) {
  for (const auto &[fn, create] : kOneOpMathFns)
    if (fn == expr.fn)
      return create(builder, location, x);
  switch (expr.fn) {
  case MathFn::Exp:
    return math::ExpOp::create(builder, location, x);
  case MathFn::Exp2:
    return math::Exp2Op::create(builder, location, x);
  case MathFn::Log:
    return math::LogOp::create(builder, location, x);
  case MathFn::Log2:
    return math::Log2Op::create(builder, location, x);
  case MathFn::Sqrt:
    return math::SqrtOp::create(builder, location, x);
  case MathFn::Rsqrt:
    return math::RsqrtOp::create(builder, location, x);
  case MathFn::Abs:
    if (expr.getType().isFloat())
      return math::AbsFOp::create(builder, location, x);
    return math::AbsIOp::create(builder, location, x);
  case MathFn::Sin:
    return math::SinOp::create(builder, location, x);
  case MathFn::Cos:
    return math::CosOp::create(builder, location, x);
  case MathFn::Tanh:
    return math::TanhOp::create(builder, location, x);
  case MathFn::Erf:
    return math::ErfOp::create(builder, location, x);
  case MathFn::Sigmoid: {
    // 1 / (1 + exp(-x))
    Value one =
        constant(expr.getType(), ConstexprValue::ofFloat(1.0), location);
    Value negated = arith::NegFOp::create(builder, location, x);
    Value exp = math::ExpOp::create(builder, location, negated);
    Value denominator = arith::AddFOp::create(builder, location, one, exp);
    return arith::DivFOp::create(builder, location, one, denominator);
  }
  case MathFn::Floor:
    return math::FloorOp::create(builder, location, x);
  case MathFn::Ceil:
    return math::CeilOp::create(builder, location, x);
  case MathFn::Log1p:
  case MathFn::Expm1:
  case MathFn::Log10:
  case MathFn::Asin:
  case MathFn::Acos:
  case MathFn::Atan:
  case MathFn::Sinh:
  case MathFn::Cosh:
  case MathFn::Tan:
  case MathFn::Cbrt:
  case MathFn::Trunc:
  case MathFn::Round:
  case MathFn::Rint:
    break; // kOneOpMathFns
  case MathFn::Exp10: {
    // 10^x as libdevice's powf (4 ulp); exp2(x * log2(10)) would lose
    // the rounding error of the product times |x|.
    Value ten =
        constant(expr.getType(), ConstexprValue::ofFloat(10.0), location);
    return math::PowFOp::create(builder, location, ten, x);
  }
  }
  return Value();
}
} // namespace

OwningOpRef<ModuleOp> tilec::mlirGen(MLIRContext &context,
                                     const CheckedKernel &kernel) {
  return MLIRGenImpl(context, kernel).generate();
}
