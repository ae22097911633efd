//===- Sema.cpp - Semantic analysis driver --------------------------------===//
//
// Entry points (kernel selection, constexpr bindings), the elaboration of a
// kernel's signature (a `@triton.jit` kernel's types from the bindings, its
// autotune config), name binding with per-invocation unique names,
// module-level constexprs, and inlining of helper functions.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "tilec/Support/CompileOptions.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

//===----------------------------------------------------------------------===//
// Value
//===----------------------------------------------------------------------===//

const ConstexprValue *Value::getConst() const {
  if (!isExpr() || !expr)
    return nullptr;
  auto *c = llvm::dyn_cast<ck::ConstantExpr>(expr.get());
  return c && c->getType().isScalar() ? &c->value : nullptr;
}

std::optional<bool> Value::getConstTruth() const {
  if (isNone())
    return false;
  if (const ConstexprValue *c = getConst())
    return c->asBool();
  return std::nullopt;
}

Value Value::clone() const {
  Value v;
  v.kind = kind;
  v.expr = expr ? ck::cloneExpr(*expr) : nullptr;
  v.weak = weak;
  v.dtype = dtype;
  v.dtypeIsPointer = dtypeIsPointer;
  v.dtypeShape = dtypeShape;
  v.dtypePointsToBlock = dtypePointsToBlock;
  v.str = str;
  v.function = function;
  for (const Value &el : elements)
    v.elements.push_back(el.clone());
  return v;
}

std::string Value::describe() const {
  switch (kind) {
  case Kind::Invalid:
    return "invalid value";
  case Kind::Expr:
    return type().str();
  case Kind::DType: {
    std::string name =
        std::string(dtypeIsPointer ? "*" : "") + scalarTypeName(dtype);
    if (dtypeShape && dtypePointsToBlock)
      return "pointer type to the block type " +
             TType(dtype, dtypeIsPointer, *dtypeShape).str();
    if (dtypeShape)
      return "block type " + TType(dtype, dtypeIsPointer, *dtypeShape).str();
    return (dtypeIsPointer ? "pointer type " : "dtype ") + name;
  }
  case Kind::String:
    return "string";
  case Kind::None:
    return "None";
  case Kind::Tuple:
    return "tuple of " + std::to_string(elements.size());
  case Kind::Function:
    return "function '" + str + "'";
  case Kind::TensorDesc:
    return "tensor descriptor of " +
           TType(dtype, false, dtypeShape.value_or(std::vector<int64_t>{}))
               .str() +
           " blocks";
  case Kind::BlockPtr:
    return "block pointer to " +
           TType(dtype, false, dtypeShape.value_or(std::vector<int64_t>{}))
               .str();
  }
  return "value";
}

void Value::collectExprLeaves(std::vector<Value *> &leaves) {
  if (kind == Kind::Expr)
    leaves.push_back(this);
  else if (isAggregate())
    for (Value &el : elements)
      el.collectExprLeaves(leaves);
}

bool Value::sameStructure(const Value &other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::Invalid:
  case Kind::None:
    return true;
  case Kind::Expr:
    return type() == other.type();
  case Kind::DType:
    return sameDType(other);
  case Kind::String:
    return str == other.str;
  case Kind::Function:
    return function == other.function && str == other.str;
  case Kind::Tuple:
  case Kind::TensorDesc:
  case Kind::BlockPtr:
    if (elements.size() != other.elements.size() || dtype != other.dtype ||
        dtypeShape != other.dtypeShape || str != other.str)
      return false;
    for (size_t i = 0; i < elements.size(); ++i)
      if (!elements[i].sameStructure(other.elements[i]))
        return false;
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool tilec::parseConstexprDefine(llvm::StringRef define,
                                 ConstexprBindings &bindings,
                                 std::string &error) {
  auto [name, value] = define.split('=');
  name = name.trim();
  if (name.empty() || !define.contains('=')) {
    error = "expected NAME=VALUE in '-D " + define.str() + "'";
    return false;
  }
  if (!llvm::all_of(name,
                    [](char c) { return llvm::isAlnum(c) || c == '_'; }) ||
      llvm::isDigit(name[0])) {
    error = "'" + name.str() + "' is not a valid constexpr name";
    return false;
  }
  std::optional<ConstexprValue> parsed = parseConstexprValue(value);
  if (!parsed) {
    error = "invalid value '" + value.str() + "' for constexpr '" + name.str() +
            "'; expected an integer (of i64's range), a float, True or False";
    return false;
  }
  bindings.values[name.str()] = *parsed;
  return true;
}

std::vector<std::string> tilec::listKernels(const ast::Module &module) {
  std::vector<std::string> names;
  for (const ast::Function *fn : module.getKernels())
    names.push_back(fn->name);
  return names;
}

std::optional<ck::CheckedKernel>
tilec::checkKernel(const ast::Module &module, llvm::StringRef kernelName,
                   const ConstexprBindings &bindings, DiagnosticEngine &diags) {
  const ast::Function *fn = module.lookup(kernelName);
  if (!fn || !(fn->isKernel || fn->isTritonJit)) {
    std::vector<std::string> kernels = listKernels(module);
    std::string msg;
    if (fn)
      msg = "'" + kernelName.str() + "' is a helper, not a '@kernel'";
    else
      msg = "no kernel named '" + kernelName.str() + "' in " + module.filename;
    if (kernels.empty())
      msg += "; the file defines no '@kernel' functions";
    else
      msg += "; available kernels: " + llvm::join(kernels, ", ");
    diags.error(SourceLoc(), msg);
    return std::nullopt;
  }
  Sema sema(module, diags);
  return sema.run(*fn, bindings);
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

/// Evaluates a parameter default: a constant expression with no names
/// other than builtin constants.
ExprPtr Sema::evalConstDefault(const ast::Expr &e) {
  Value v = elabExpr(e);
  if (v.isInvalid())
    return nullptr;
  if (!v.getConst()) {
    error(e.getLoc(), "the default of a constexpr parameter must be a "
                      "compile-time constant");
    return nullptr;
  }
  return std::move(v.expr);
}

/// The type of kernel parameter `p`: its annotation, else (a `@triton.jit`
/// kernel's) the signature's type, or constexpr when it is given a value.
static ast::TypeAnnotation
getKernelParamType(const ast::Param &p, const ConstexprBindings &bindings) {
  ast::TypeAnnotation type = p.type;
  if (type.kind != ast::TypeAnnotation::Kind::None)
    return type;
  auto it = bindings.paramTypes.find(p.name);
  if (it != bindings.paramTypes.end()) {
    type.kind = it->second.isPointer ? ast::TypeAnnotation::Kind::Pointer
                                     : ast::TypeAnnotation::Kind::Scalar;
    type.elem = it->second.elem;
  } else if (bindings.hasValue(p.name)) {
    type.kind = ast::TypeAnnotation::Kind::Constexpr;
  }
  return type;
}

/// The autotune config of `deco` that the constexpr values of `bindings`
/// select: the first one whose every value they give; null if none.
static const ast::AutotuneConfig *
selectAutotuneConfig(const ast::TritonDecorator &deco,
                     const ConstexprBindings &bindings) {
  if (!deco.configs)
    return nullptr;
  for (const ast::AutotuneConfig &config : *deco.configs) {
    bool matches = llvm::all_of(config.values, [&](const auto &entry) {
      auto it = bindings.values.find(entry.first);
      return it != bindings.values.end() && it->second == entry.second;
    });
    if (matches)
      return &config;
  }
  return nullptr;
}

void Sema::applyTritonDecorators(const ast::Function &kernel,
                                 const ConstexprBindings &bindings,
                                 ck::CheckedKernel &result) {
  for (const ast::TritonDecorator &deco : kernel.tritonDecorators) {
    // An autotune config that the constexpr values select gives its
    // num_warps and num_stages, unless the command line sets them.
    if (const ast::AutotuneConfig *config =
            selectAutotuneConfig(deco, bindings)) {
      if (!bindings.numWarps && config->numWarps)
        result.numWarps = *config->numWarps;
      if (!bindings.numStages && config->numStages)
        result.numStages = *config->numStages;
      continue;
    }
    std::string why = !llvm::StringRef(deco.name).ends_with("autotune")
                          ? "tilec compiles one configuration"
                      : deco.configs
                          ? "no config of it has the constexpr values given"
                          : "its configs are not a list of triton.Config "
                            "literals";
    diags.warning(deco.loc, "'@" + deco.name + "' is ignored (" + why +
                                "): give the constexpr values with "
                                "--signature or -D, and --num-warps / "
                                "--num-stages");
  }
}

/// A kernel parameter that is a host tensor descriptor: its run-time
/// parameters (TensorDescParam: `NAME_base`, `NAME_shape0`, ...,
/// `NAME_stride0`, ...; an underscore more while one is the name of another
/// parameter) and the descriptor value the kernel body sees, as
/// `tl.make_tensor_descriptor` of them would give.
Value Sema::declareDescriptorParam(const ast::Function &kernel,
                                   const ast::Param &p,
                                   const DescriptorParamType &type,
                                   ck::CheckedKernel &result) {
  TensorDescParam &record = result.descriptors.emplace_back();
  record.name = p.name;
  record.elem = type.elem;
  record.blockShape = type.blockShape;
  record.firstParam = result.params.size();
  Value desc;
  desc.kind = Value::Kind::TensorDesc;
  desc.dtype = type.elem;
  desc.dtypeShape = type.blockShape;
  desc.str = "zero";
  auto addParam = [&](const std::string &suffix, TType paramType) {
    std::string name = p.name + "_" + suffix;
    while (usedNames.count(name) ||
           llvm::any_of(kernel.params,
                        [&](const ast::Param &q) { return q.name == name; }))
      name += "_";
    usedNames.insert(name);
    result.params.push_back({name, paramType, p.loc});
    desc.elements.push_back(Value::ofExpr(
        std::make_unique<ck::VarRefExpr>(paramType, p.loc, name)));
  };
  size_t rank = type.blockShape.size();
  addParam("base", TType(type.elem, /*isPointer=*/true));
  for (size_t d = 0; d < rank; ++d)
    addParam("shape" + std::to_string(d), TType(ScalarType::I32, false));
  for (size_t d = 0; d + 1 < rank; ++d)
    addParam("stride" + std::to_string(d), TType(ScalarType::I64, false));
  desc.elements.push_back(
      Value::ofExpr(castTo(makeConst(ConstexprValue::ofInt(1), p.loc).expr,
                           ScalarType::I64, p.loc)));
  assumeDescriptorAlignment(desc, p.loc);
  return desc;
}

std::optional<ck::CheckedKernel> Sema::run(const ast::Function &kernel,
                                           const ConstexprBindings &bindings) {
  unsigned errorsBefore = diags.getNumErrors();
  ck::CheckedKernel result;
  result.name = kernel.name;
  result.filename = module.filename;
  result.loc = kernel.loc;
  result.numWarps = bindings.numWarps.value_or(
      kernel.numWarps.value_or(CompileOptions::kDefaultNumWarps));
  result.numStages = bindings.numStages.value_or(
      kernel.numStages.value_or(CompileOptions::kDefaultNumStages));
  applyTritonDecorators(kernel, bindings, result);
  if (!CompileOptions::isValidNumWarps(result.numWarps))
    error(kernel.loc, "num_warps must be a power of two between 1 and " +
                          llvm::Twine(CompileOptions::kMaxNumWarps) + "; got " +
                          llvm::Twine(result.numWarps));
  if (!CompileOptions::isValidNumStages(result.numStages))
    error(kernel.loc, "num_stages must be between 1 and " +
                          llvm::Twine(CompileOptions::kMaxNumStages) +
                          "; got " + llvm::Twine(result.numStages));

  Frame kernelFrame;
  kernelFrame.fn = &kernel;
  kernelFrame.isKernel = true;
  frame = &kernelFrame;
  curBlock = &result.body;
  callStack.push_back(&kernel);

  for (const auto &[name, value] : bindings.values) {
    const std::string &boundName = name;
    auto it = llvm::find_if(kernel.params, [&](const ast::Param &p) {
      return p.name == boundName;
    });
    if (it == kernel.params.end()) {
      std::string message = bindings.origin + " " + name +
                            " does not name a parameter of kernel '" +
                            kernel.name + "'";
      if (bindings.unknownNamesAreErrors)
        error(SourceLoc(), message);
      else
        diags.warning(SourceLoc(), message);
    } else if (getKernelParamType(*it, bindings).kind !=
               ast::TypeAnnotation::Kind::Constexpr)
      // (A `@triton.jit` kernel's parameter is run-time when --signature
      // gives it a type.)
      error(it->loc, "'" + name + "' is a run-time parameter of '" +
                         kernel.name +
                         "', not a constexpr; it cannot be set "
                         "with -D");
  }

  // A `@triton.jit` kernel's untyped parameters are reported together.
  std::vector<std::string> untyped;
  for (const ast::Param &p : kernel.params)
    if (getKernelParamType(p, bindings).kind ==
            ast::TypeAnnotation::Kind::None &&
        !bindings.descriptorTypes.count(p.name))
      untyped.push_back(p.name);
  if (kernel.isTritonJit && !untyped.empty())
    error(kernel.loc, "the parameters of '@triton.jit' kernel '" + kernel.name +
                          "' have no types (" + llvm::join(untyped, ", ") +
                          "); give them with --signature, one entry per "
                          "parameter (such as \"*fp32:16, i32, 1024\")");
  for (const ast::Param &p : kernel.params) {
    usedNames.insert(p.name);
    kernelFrame.checkedNames[p.name] = p.name;
    auto descriptor = bindings.descriptorTypes.find(p.name);
    if (descriptor != bindings.descriptorTypes.end()) {
      kernelFrame.env[p.name].value =
          declareDescriptorParam(kernel, p, descriptor->second, result);
      continue;
    }
    ast::TypeAnnotation type = getKernelParamType(p, bindings);
    switch (type.kind) {
    case ast::TypeAnnotation::Kind::None:
      if (!kernel.isTritonJit)
        error(p.loc, "kernel parameter '" + p.name +
                         "' needs a type: a "
                         "pointer (*f32), a scalar (i32, f32) or constexpr");
      kernelFrame.env[p.name].value = Value::invalid();
      continue;
    case ast::TypeAnnotation::Kind::Constexpr: {
      auto it = bindings.values.find(p.name);
      auto str = bindings.strings.find(p.name);
      auto dtype = bindings.dtypes.find(p.name);
      Value v;
      if (it != bindings.values.end()) {
        v = makeConst(it->second, p.loc);
      } else if (str != bindings.strings.end()) {
        v = Value::ofString(str->second);
      } else if (dtype != bindings.dtypes.end()) {
        v = Value::ofDType(dtype->second);
      } else if (bindings.nones.count(p.name)) {
        v = Value::none();
      } else if (p.defaultValue) {
        if (ExprPtr def = evalConstDefault(*p.defaultValue))
          v = Value::ofExpr(std::move(def), /*weak=*/true);
      } else if (kernel.isTritonJit) {
        error(p.loc, "constexpr '" + p.name +
                         "' has no value; give it in --signature or set it "
                         "with -D " +
                         p.name + "=...");
      } else {
        error(p.loc, "constexpr '" + p.name +
                         "' has no value; give it a "
                         "default or set it with -D " +
                         p.name + "=...");
      }
      if (const ConstexprValue *c = v.getConst())
        result.constexprs.push_back({p.name, *c});
      kernelFrame.env[p.name].value = std::move(v);
      continue;
    }
    case ast::TypeAnnotation::Kind::Scalar:
    case ast::TypeAnnotation::Kind::Pointer: {
      // A Python kernel's defaults are the launcher's business.
      if (p.defaultValue && !kernel.isTritonJit)
        error(p.defaultValue->getLoc(),
              "run-time parameter '" + p.name +
                  "' cannot have a default; "
                  "make it constexpr or drop the default");
      TType paramType(type.elem,
                      type.kind == ast::TypeAnnotation::Kind::Pointer);
      if (!paramType.isPointer && isFP8Type(paramType.elem))
        error(p.loc, "parameter '" + p.name + "': a scalar " +
                         scalarTypeName(paramType.elem) +
                         " parameter is not supported; pass f32 (or a "
                         "pointer to " +
                         scalarTypeName(paramType.elem) + ")");
      result.params.push_back({p.name, paramType, p.loc});
      kernelFrame.env[p.name].value = Value::ofExpr(
          std::make_unique<ck::VarRefExpr>(paramType, p.loc, p.name));
      continue;
    }
    }
  }
  if (diags.getNumErrors() == errorsBefore)
    elabBlock(kernel.body);
  callStack.pop_back();
  frame = nullptr;
  curBlock = nullptr;
  if (diags.getNumErrors() != errorsBefore)
    return std::nullopt;
  return result;
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

std::string Sema::freshName(llvm::StringRef hint) {
  while (true) {
    std::string name = (hint + "." + llvm::Twine(++nameCounter)).str();
    if (usedNames.insert(name).second)
      return name;
  }
}

std::string Sema::getCheckedName(llvm::StringRef name) {
  auto it = frame->checkedNames.find(name.str());
  if (it != frame->checkedNames.end())
    return it->second;
  std::string checkedName = name.str();
  if (!frame->isKernel || !usedNames.insert(checkedName).second)
    checkedName = freshName(name);
  frame->checkedNames[name.str()] = checkedName;
  return checkedName;
}

bool Sema::isLanguageModuleName(llvm::StringRef name) const {
  return name == "tl" || name == "triton" ||
         llvm::is_contained(module.languageAliases, name);
}

std::vector<std::string> Sema::visibleNames() const {
  std::vector<std::string> names;
  for (const auto &[name, binding] : frame->env)
    if (binding.hiddenReason.empty())
      names.push_back(name);
  for (const auto &fn : module.functions)
    names.push_back(fn->name);
  for (const ast::ConstexprGlobal &global : module.globals)
    names.push_back(global.name);
  for (std::string &b : builtinNames())
    names.push_back(std::move(b));
  return names;
}

Value Sema::lookupName(const std::string &name, SourceLoc loc) {
  auto it = frame->env.find(name);
  if (it == frame->env.end())
    return Value::invalid();
  if (!it->second.hiddenReason.empty()) {
    error(loc, "unknown name '" + name + "' (" + it->second.hiddenReason + ")");
    return Value::invalid();
  }
  Value v = it->second.value.clone();
  // Uses of a constant or variable point at the use.
  if (v.isExpr()) {
    if (auto *c = llvm::dyn_cast<ck::ConstantExpr>(v.expr.get()))
      v.expr = std::make_unique<ck::ConstantExpr>(c->getType(), loc, c->value);
    else if (auto *r = llvm::dyn_cast<ck::VarRefExpr>(v.expr.get()))
      v.expr = std::make_unique<ck::VarRefExpr>(r->getType(), loc, r->name);
  }
  return v;
}

Value Sema::elabGlobal(const ast::ConstexprGlobal &global, SourceLoc loc) {
  if (llvm::is_contained(globalsInProgress, &global)) {
    error(loc, "module-level constexpr '" + global.name +
                   "' is defined in terms of itself");
    return Value::invalid();
  }
  // The value sees builtins and the other globals, not the names of the
  // function that uses it.
  globalsInProgress.push_back(&global);
  Frame globalFrame;
  globalFrame.fn = frame->fn;
  Frame *user = frame;
  frame = &globalFrame;
  Value v = elabExpr(*global.value);
  frame = user;
  globalsInProgress.pop_back();
  if (v.isInvalid())
    return v;
  if (const ConstexprValue *c = v.getConst())
    return makeConst(*c, loc);
  if (v.isExpr()) {
    error(global.value->getLoc(), "module-level constexpr '" + global.name +
                                      "' must be a compile-time constant");
    return Value::invalid();
  }
  return v;
}

Value Sema::materializeTrivial(Value v, SourceLoc loc, llvm::StringRef hint) {
  if (v.isAggregate()) {
    for (Value &el : v.elements)
      el = materializeTrivial(std::move(el), loc, hint);
    return v;
  }
  if (!v.isExpr() || v.getConst() || llvm::isa<ck::VarRefExpr>(*v.expr))
    return v;
  std::string name = freshName(hint);
  TType type = v.type();
  emit(std::make_unique<ck::AssignStmt>(loc, name, std::move(v.expr)));
  return Value::ofExpr(std::make_unique<ck::VarRefExpr>(type, loc, name));
}

void Sema::bind(const std::string &name, Value value, SourceLoc loc) {
  Binding &b = frame->env[name];
  b.hiddenReason.clear();
  if (value.isAggregate()) {
    b.value = materializeTrivial(std::move(value), loc, name);
    return;
  }
  if (!value.isExpr() || value.getConst()) {
    b.value = std::move(value);
    return;
  }
  std::string checkedName = getCheckedName(name);
  TType type = value.type();
  if (auto *ref = llvm::dyn_cast<ck::VarRefExpr>(value.expr.get()))
    if (ref->name == checkedName) {
      b.value = std::move(value);
      return;
    }
  emit(std::make_unique<ck::AssignStmt>(loc, checkedName,
                                        std::move(value.expr)));
  b.value =
      Value::ofExpr(std::make_unique<ck::VarRefExpr>(type, loc, checkedName));
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value Sema::callHelper(const ast::Function &fn, CallArgs &args, SourceLoc loc) {
  if (llvm::is_contained(callStack, &fn)) {
    error(loc, "recursive call to '" + fn.name +
                   "' is not supported "
                   "(helpers are inlined)");
    return Value::invalid();
  }
  if (callStack.size() > 64) {
    error(loc, "helper calls are nested too deeply");
    return Value::invalid();
  }
  // Match arguments to parameters.
  std::vector<Value> slots(fn.params.size());
  std::vector<bool> given(fn.params.size(), false);
  if (args.args.size() > fn.params.size()) {
    error(args.argLocs[fn.params.size()],
          "'" + fn.name + "' takes " + llvm::Twine(fn.params.size()) +
              " argument" + (fn.params.size() == 1 ? "" : "s") + " but " +
              llvm::Twine(args.args.size()) + " were given");
    return Value::invalid();
  }
  for (size_t i = 0; i < args.args.size(); ++i) {
    slots[i] = std::move(args.args[i]);
    given[i] = true;
  }
  for (size_t k = 0; k < args.kwargs.size(); ++k) {
    auto &[kwName, kwValue] = args.kwargs[k];
    const std::string &keyword = kwName;
    auto it = llvm::find_if(
        fn.params, [&](const ast::Param &p) { return p.name == keyword; });
    if (it == fn.params.end()) {
      std::vector<std::string> names;
      for (const ast::Param &p : fn.params)
        names.push_back(p.name);
      std::string hint = findClosestName(kwName, names);
      error(args.kwargLocs[k],
            "'" + fn.name + "' has no parameter named '" + kwName + "'" +
                (hint.empty() ? std::string()
                              : "; did you mean '" + hint + "'?"));
      return Value::invalid();
    }
    size_t idx = it - fn.params.begin();
    if (given[idx]) {
      error(args.kwargLocs[k], "argument '" + kwName + "' of '" + fn.name +
                                   "' given more than once");
      return Value::invalid();
    }
    slots[idx] = std::move(kwValue);
    given[idx] = true;
  }

  Frame helperFrame;
  helperFrame.fn = &fn;
  Frame *callerFrame = frame;
  frame = &helperFrame;
  std::vector<std::string> assigned;
  collectAssignedNames(fn.body, assigned);
  bool ok = true;
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const ast::Param &p = fn.params[i];
    if (!given[i]) {
      if (!p.defaultValue) {
        error(loc,
              "missing argument '" + p.name + "' in call to '" + fn.name + "'");
        ok = false;
        continue;
      }
      slots[i] = elabExpr(*p.defaultValue);
    }
    Value &v = slots[i];
    if (v.isInvalid()) {
      ok = false;
      continue;
    }
    // Triton specializes a `@triton.jit` helper only on the arguments that
    // are compile-time values; its `tl.constexpr` annotations are not
    // checked (tutorial 06 passes a run-time `offs_m` to one).
    if (p.type.kind == ast::TypeAnnotation::Kind::Constexpr && !v.getConst() &&
        v.kind == Value::Kind::Expr && !fn.isTritonJit) {
      error(given[i] ? loc : p.loc,
            "argument '" + p.name + "' of '" + fn.name +
                "' is constexpr but the value passed is not a compile-time "
                "constant");
      ok = false;
      continue;
    }
    // A run-time argument that the helper never reassigns is aliased.
    if (v.isExpr() && llvm::isa<ck::VarRefExpr>(*v.expr) &&
        !llvm::is_contained(assigned, p.name)) {
      helperFrame.env[p.name].value = std::move(v);
      continue;
    }
    bind(p.name, std::move(v), p.loc);
  }
  Value result = Value::none();
  if (ok) {
    callStack.push_back(&fn);
    elabBlock(fn.body);
    callStack.pop_back();
    if (helperFrame.returned)
      result = std::move(helperFrame.returnValue);
  } else {
    result = Value::invalid();
  }
  frame = callerFrame;
  return result;
}
