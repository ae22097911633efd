//===- SemaInlineAsm.cpp - inline_asm_elementwise -------------------------===//
//
// `tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)`
// becomes one checked::InlineAsmStmt (tile.elementwise_inline_asm): the
// arguments are broadcast to their common shape, as Triton does, and the
// result is one value per dtype (a tuple when `dtype` is a tuple). The
// constraint string and the asm's `$` operands are checked against the
// registers the asm will be given (tilec/Support/InlineAsm.h, the rules the
// verifier applies too), here, where the error can point at the call.
//
//===----------------------------------------------------------------------===//

#include "SemaImpl.h"

#include "tilec/Support/InlineAsm.h"

#include "llvm/Support/MathExtras.h"

using namespace tilec;
using namespace tilec::sema;
namespace ck = tilec::checked;

/// The bit width of an element of `type` as the asm sees it (pointers are
/// 64-bit registers).
static unsigned asmBits(const TType &type) {
  return type.isPointer ? 64 : scalarTypeBits(type.elem);
}

Value Sema::builtinInlineAsm(CallArgs &args, SourceLoc loc) {
  std::vector<Value> slots;
  if (!bindArgs(args, "inline_asm_elementwise",
                {"asm", "constraints", "args", "dtype", "is_pure", "pack"}, 6,
                slots))
    return Value::invalid();
  for (int i : {0, 1})
    if (slots[i].kind != Value::Kind::String) {
      error(args.argLoc(i), std::string("the ") +
                                (i == 0 ? "asm" : "constraints") +
                                " of 'inline_asm_elementwise' must be a "
                                "string; got " +
                                slots[i].describe());
      return Value::invalid();
    }
  const ConstexprValue *pure = slots[4].getConst();
  if (!pure) {
    error(args.argLoc(4),
          "is_pure of 'inline_asm_elementwise' must be a constant bool");
    return Value::invalid();
  }
  auto pack = requireConstInt(slots[5], args.argLoc(5),
                              "the pack of 'inline_asm_elementwise'");
  if (!pack)
    return Value::invalid();
  if (*pack < 1 || *pack > 32) {
    error(args.argLoc(5), "pack of 'inline_asm_elementwise' must be in [1, "
                          "32]; got " +
                              llvm::Twine(*pack));
    return Value::invalid();
  }

  // The arguments: a list or tuple of values (or one value), broadcast to
  // one shape.
  std::vector<Value> values;
  if (slots[2].kind == Value::Kind::Tuple)
    values = std::move(slots[2].elements);
  else
    values.push_back(std::move(slots[2]));
  std::vector<ExprPtr> operands;
  std::vector<int64_t> shape;
  for (Value &v : values) {
    if (!requireExpr(v, args.argLoc(2),
                     "an argument of 'inline_asm_elementwise'"))
      return Value::invalid();
    auto common =
        broadcastShapes(shape, v.type().shape, loc, "'inline_asm_elementwise'");
    if (!common)
      return Value::invalid();
    shape = *common;
    operands.push_back(std::move(v.expr));
  }

  // The result types: one dtype or a tuple of them.
  std::vector<Value> dtypes;
  if (slots[3].kind == Value::Kind::Tuple)
    dtypes = std::move(slots[3].elements);
  else
    dtypes.push_back(std::move(slots[3]));
  if (dtypes.empty()) {
    error(args.argLoc(3), "'inline_asm_elementwise' needs at least one dtype");
    return Value::invalid();
  }
  std::vector<TType> resultTypes;
  for (const Value &d : dtypes) {
    if (d.kind != Value::Kind::DType || d.dtypeShape) {
      error(args.argLoc(3), "the dtype of 'inline_asm_elementwise' must be a "
                            "scalar dtype or a tuple of them; got " +
                                d.describe());
      return Value::invalid();
    }
    resultTypes.push_back(TType(d.dtype, d.dtypeIsPointer, shape));
  }

  // Registers per run of `pack` elements, as the asm will get them, results
  // first: (element type, elements per register) each.
  std::vector<std::pair<std::string, unsigned>> registers;
  auto countRegisters = [&](const TType &type, llvm::StringRef what) {
    if (type.isBool()) {
      error(loc, what + " of 'inline_asm_elementwise' is " + type.str() +
                     ": inline asm takes no i1 values; convert to int8 or "
                     "int32 first");
      return false;
    }
    unsigned perRegister = getAsmElementsPerRegister(asmBits(type), *pack);
    if (!llvm::isPowerOf2_32(perRegister) || *pack % perRegister != 0) {
      error(args.argLoc(5), "pack " + llvm::Twine(*pack) +
                                " does not fill whole registers of " +
                                scalarTypeName(type.elem) +
                                " elements: use a power of two");
      return false;
    }
    std::string elem = type.isPointer ? "pointer" : scalarTypeName(type.elem);
    registers.insert(registers.end(), *pack / perRegister, {elem, perRegister});
    return true;
  };
  for (const TType &type : resultTypes)
    if (!countRegisters(type, "a result"))
      return Value::invalid();
  int64_t outputs = registers.size();
  for (const ExprPtr &operand : operands)
    if (!countRegisters(operand->getType(), "an argument"))
      return Value::invalid();
  int64_t inputs = registers.size() - outputs;

  AsmConstraints constraints;
  std::string why = parseAsmConstraints(slots[1].str, constraints);
  if (!why.empty()) {
    error(args.argLoc(1), "the constraints \"" + slots[1].str +
                              "\" of 'inline_asm_elementwise': " + why);
    return Value::invalid();
  }
  int64_t namedInputs = constraints.operands() - constraints.outputs;
  if (constraints.outputs != outputs || namedInputs != inputs) {
    auto plural = [](int64_t n, const char *what) {
      return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    error(args.argLoc(1),
          "the constraints \"" + slots[1].str + "\" name " +
              plural(constraints.outputs, "output") + " and " +
              plural(namedInputs, "input") + "; the asm takes " +
              llvm::Twine(outputs) + " and " + llvm::Twine(inputs) +
              " (results, then arguments, " + llvm::Twine(*pack) +
              " elements of each: one register per element of 32 bits or "
              "more, one per 32 bits of narrower elements)");
    return Value::invalid();
  }
  for (auto [input, tied] : llvm::enumerate(constraints.inputTies))
    if (tied >= 0 && registers[tied] != registers[outputs + input]) {
      error(args.argLoc(1), "the constraints \"" + slots[1].str +
                                "\" tie input " + llvm::Twine(input) +
                                " to output " + llvm::Twine(tied) +
                                ", a register of another type");
      return Value::invalid();
    }
  why = checkAsmTemplate(slots[0].str, outputs + inputs);
  if (!why.empty()) {
    error(args.argLoc(0), "the asm of 'inline_asm_elementwise': " + why);
    return Value::invalid();
  }

  auto stmt = std::make_unique<ck::InlineAsmStmt>(
      loc, slots[0].str, slots[1].str, pure->asBool(), *pack);
  for (ExprPtr &operand : operands)
    stmt->args.push_back(broadcastTo(std::move(operand), shape, loc));
  std::vector<Value> results;
  for (const TType &type : resultTypes) {
    std::string name = freshName("asm");
    stmt->results.push_back({name, type});
    results.push_back(
        Value::ofExpr(std::make_unique<ck::VarRefExpr>(type, loc, name)));
  }
  emit(std::move(stmt));
  if (slots[3].kind != Value::Kind::Tuple)
    return std::move(results.front());
  Value tuple;
  tuple.kind = Value::Kind::Tuple;
  tuple.elements = std::move(results);
  return tuple;
}
