//===- Interpreter.cpp - Run tile IR on the CPU ---------------------------===//
//
// The entry of the reference interpreter: checks the launch arguments of a
// tile-IR kernel, lays the buffers out in the interpreter's address space
// and runs every program of the grid in turn (KernelInterpreter, in the
// driver, compiles a `.tile` kernel to the tile IR this runs). Each program
// walks the function's ops in order; `scf.for`, `scf.while` and `scf.if` run
// their regions here, every other op goes to its family (ArithOps.cpp,
// TileOps.cpp, MemoryOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

//===----------------------------------------------------------------------===//
// Values and element types
//===----------------------------------------------------------------------===//

std::int64_t TileValue::size() const {
  std::int64_t count = 1;
  for (std::int64_t dim : shape)
    count *= dim;
  return count;
}

TileValue TileValue::zeros(Type type) {
  TileValue value;
  value.shape = getShape(type);
  if (getElemKind(type) == ElemKind::Float)
    value.floats.assign(value.size(), 0.0);
  else
    value.ints.assign(value.size(), 0);
  return value;
}

ElemKind tilec::interp::getElemKind(Type type) {
  Type elem = getElementTypeOrSelf(type);
  if (isa<FloatType>(elem))
    return ElemKind::Float;
  if (isa<tile::PointerType>(elem))
    return ElemKind::Pointer;
  return ElemKind::Int;
}

unsigned tilec::interp::getIntWidth(Type elem) {
  if (auto integer = dyn_cast<IntegerType>(elem))
    return integer.getWidth();
  return 64; // index, pointers
}

unsigned tilec::interp::getMemoryBytes(Type elem) {
  if (isa<tile::PointerType>(elem))
    return 8;
  return std::max(1u, elem.getIntOrFloatBitWidth() / 8);
}

llvm::SmallVector<std::int64_t, 2> tilec::interp::getShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return llvm::SmallVector<std::int64_t, 2>(tensor.getShape());
  return {};
}

//===----------------------------------------------------------------------===//
// Executor
//===----------------------------------------------------------------------===//

Executor::Executor(Memory &memory, const InterpreterOptions &options,
                   llvm::raw_ostream &printOS)
    : memory(memory), grid(options.grid), printOS(printOS),
      maxOps(options.maxOps) {}

const TileValue &Executor::get(Value value) const {
  auto it = values.find(value);
  assert(it != values.end() && "values are defined before their uses");
  return it->second;
}

void Executor::set(Value value, TileValue tileValue) {
  values[value] = std::move(tileValue);
}

InFlightDiagnostic Executor::error(Operation *op) const {
  return emitError(op->getLoc());
}

std::string Executor::where(llvm::ArrayRef<std::int64_t> shape,
                            std::int64_t linear) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (linear >= 0 && !shape.empty()) {
    llvm::SmallVector<std::int64_t, 4> index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      index[d] = linear % shape[d];
      linear /= shape[d];
    }
    os << "at index [";
    llvm::interleaveComma(index, os);
    os << "] ";
  }
  os << "in program (" << programId[0] << ", " << programId[1] << ", "
     << programId[2] << ")";
  return text;
}

LogicalResult Executor::runProgram(func::FuncOp func,
                                   llvm::ArrayRef<TileValue> args,
                                   std::array<std::int64_t, 3> id) {
  programId = id;
  values.clear();
  llvm::SmallVector<TileValue> results;
  return runRegion(func.getBody(), args, results);
}

LogicalResult Executor::runRegion(Region &region,
                                  llvm::ArrayRef<TileValue> args,
                                  llvm::SmallVectorImpl<TileValue> &results) {
  Block &block = region.front();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    set(arg, value);
  for (Operation &op : block.without_terminator())
    if (failed(runOp(&op)))
      return failure();
  Operation *terminator = block.getTerminator();
  // Terminators count too: an empty loop body or program is bounded.
  if (failed(countOp(terminator)))
    return failure();
  if (!isa<scf::YieldOp, scf::ConditionOp, func::ReturnOp,
           tile::CombineYieldOp>(terminator))
    return error(terminator) << "the interpreter does not support '"
                             << terminator->getName() << "'";
  // Values leaving a region (yielded, loop-carried) are taken as computed.
  results.clear();
  for (Value operand : terminator->getOperands())
    results.push_back(get(operand).asComputed());
  return success();
}

LogicalResult Executor::countOp(Operation *op) {
  if (!maxOps)
    return success();
  // An operation on a block counts once per kElementsPerOp elements of its
  // largest block, so that the limit bounds time: a loop over 2^20-element
  // blocks costs milliseconds per operation.
  std::uint64_t weight = 1;
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto tensor = dyn_cast<RankedTensorType>(type);
        tensor && tensor.hasStaticShape())
      weight = std::max<std::uint64_t>(
          weight,
          (tensor.getNumElements() + kElementsPerOp - 1) / kElementsPerOp);
  numOps += weight;
  if (numOps > maxOps)
    return error(op) << "stopped after " << maxOps << " operations (one per "
                     << kElementsPerOp
                     << " elements of a block; does the kernel terminate?)";
  return success();
}

LogicalResult Executor::runOp(Operation *op) {
  if (failed(countOp(op)))
    return failure();
  if (isa<scf::ForOp>(op))
    return runFor(op);
  if (isa<scf::WhileOp>(op))
    return runWhile(op);
  if (isa<scf::IfOp>(op))
    return runIf(op);
  for (auto family : {runArithOp, runMathOp, runTileOp, runMemoryOp}) {
    std::optional<LogicalResult> result = family(*this, op);
    if (!result)
      continue;
    if (failed(*result))
      return failure();
    for (Value value : op->getResults())
      if (!values.count(value))
        return error(op) << "internal error: the interpreter gave '"
                         << op->getName() << "' no result";
    return success();
  }
  return error(op) << "the interpreter does not support '" << op->getName()
                   << "'";
}

LogicalResult Executor::runFor(Operation *op) {
  auto forOp = cast<scf::ForOp>(op);
  unsigned width = getIntWidth(forOp.getInductionVar().getType());
  bool isUnsigned = forOp.getUnsignedCmp();
  std::int64_t lower = get(forOp.getLowerBound()).ints[0];
  std::int64_t upper = get(forOp.getUpperBound()).ints[0];
  std::int64_t step = get(forOp.getStep()).ints[0];
  if (isUnsigned ? step == 0 : step <= 0)
    return error(op) << "the loop step is " << step << " " << where()
                     << "; a for loop needs a positive step";
  auto less = [&](std::int64_t a, std::int64_t b) {
    return isUnsigned ? zextInt(a, width) < zextInt(b, width) : a < b;
  };
  llvm::SmallVector<TileValue> carried;
  for (Value init : forOp.getInitArgs())
    carried.push_back(get(init).asComputed());
  llvm::SmallVector<TileValue> args;
  for (std::int64_t iv = lower; less(iv, upper);) {
    TileValue ivValue;
    ivValue.ints = {iv};
    args.assign(1, std::move(ivValue));
    args.append(carried.begin(), carried.end());
    if (failed(runRegion(forOp.getRegion(), args, carried)))
      return failure();
    // Stop rather than wrap around when the next value leaves the type.
    std::int64_t next =
        wrapInt(static_cast<std::int64_t>(static_cast<std::uint64_t>(iv) +
                                          static_cast<std::uint64_t>(step)),
                width);
    if (!less(iv, next))
      break;
    iv = next;
  }
  for (auto [result, value] : llvm::zip(forOp.getResults(), carried))
    set(result, std::move(value));
  return success();
}

LogicalResult Executor::runWhile(Operation *op) {
  auto whileOp = cast<scf::WhileOp>(op);
  llvm::SmallVector<TileValue> args, condition;
  for (Value init : whileOp.getInits())
    args.push_back(get(init).asComputed());
  while (true) {
    if (failed(runRegion(whileOp.getBefore(), args, condition)))
      return failure();
    bool proceed = condition.front().ints[0] != 0;
    args.assign(std::next(condition.begin()), condition.end());
    if (!proceed)
      break;
    if (failed(runRegion(whileOp.getAfter(), llvm::SmallVector<TileValue>(args),
                         args)))
      return failure();
  }
  for (auto [result, value] : llvm::zip(whileOp.getResults(), args))
    set(result, std::move(value));
  return success();
}

LogicalResult Executor::runIf(Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  bool condition = get(ifOp.getCondition()).ints[0] != 0;
  Region &region = condition ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return success();
  llvm::SmallVector<TileValue> results;
  if (failed(runRegion(region, {}, results)))
    return failure();
  for (auto [result, value] : llvm::zip(ifOp.getResults(), results))
    set(result, std::move(value));
  return success();
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

InterpreterArg
InterpreterArg::buffer(ScalarType elem,
                       llvm::MutableArrayRef<std::uint8_t> bytes) {
  InterpreterArg arg;
  arg.kind = Kind::Buffer;
  arg.elem = elem;
  arg.bytes = bytes;
  return arg;
}

InterpreterArg InterpreterArg::integer(std::int64_t value) {
  InterpreterArg arg;
  arg.kind = Kind::Int;
  arg.intValue = value;
  return arg;
}

InterpreterArg InterpreterArg::real(double value) {
  InterpreterArg arg;
  arg.kind = Kind::Float;
  arg.floatValue = value;
  return arg;
}

namespace {
/// The run-time value of argument `arg` for a parameter of type `type`, or
/// std::nullopt after reporting why it does not fit.
std::optional<TileValue> bindArgument(func::FuncOp func, Memory &memory,
                                      const InterpreterArg &arg, Type type,
                                      const std::string &name,
                                      const std::string &typeName) {
  auto fail = [&]() {
    return emitError(func.getLoc())
           << "argument '" << name << "' (" << typeName << "): ";
  };
  TileValue value;
  if (auto pointer = dyn_cast<tile::PointerType>(type)) {
    Type pointee = pointer.getPointeeType();
    unsigned bytes = scalarTypeBytes(arg.elem);
    if (arg.kind != InterpreterArg::Kind::Buffer) {
      fail() << "expected a buffer";
      return std::nullopt;
    }
    if (bytes != getMemoryBytes(pointee) ||
        isFloatType(arg.elem) != isa<FloatType>(pointee)) {
      fail() << "a buffer of " << scalarTypeName(arg.elem)
             << " does not match the pointee type";
      return std::nullopt;
    }
    if (arg.bytes.size() % bytes != 0) {
      fail() << "the buffer holds " << arg.bytes.size()
             << " bytes, not a whole number of elements";
      return std::nullopt;
    }
    value.ints = {
        static_cast<std::int64_t>(memory.add(name, arg.elem, arg.bytes))};
    return value;
  }
  if (arg.kind == InterpreterArg::Kind::Buffer) {
    fail() << "expected a scalar, not a buffer";
    return std::nullopt;
  }
  if (isa<FloatType>(type)) {
    double number = arg.kind == InterpreterArg::Kind::Float
                        ? arg.floatValue
                        : static_cast<double>(arg.intValue);
    value.floats = {roundToFloat(number, type)};
    return value;
  }
  unsigned width = getIntWidth(type);
  if (arg.kind == InterpreterArg::Kind::Float) {
    fail() << "expected an integer, not " << arg.floatValue;
    return std::nullopt;
  }
  // Either the signed or the unsigned reading of the width must hold it.
  if (width < 64 && wrapInt(arg.intValue, width) != arg.intValue &&
      zextInt(arg.intValue, width) !=
          static_cast<std::uint64_t>(arg.intValue)) {
    fail() << arg.intValue << " does not fit in " << width << " bits";
    return std::nullopt;
  }
  value.ints = {wrapInt(arg.intValue, width)};
  return value;
}
} // namespace

LogicalResult tilec::interpretFunction(func::FuncOp func,
                                       llvm::ArrayRef<InterpreterArg> args,
                                       llvm::ArrayRef<KernelParam> params,
                                       const InterpreterOptions &options) {
  if (func.isExternal())
    return emitError(func.getLoc())
           << "'" << func.getName() << "' has no body to interpret";
  llvm::ArrayRef<Type> types = func.getArgumentTypes();
  if (args.size() != types.size())
    return emitError(func.getLoc())
           << "kernel '" << func.getName() << "' takes " << types.size()
           << " arguments, got " << args.size();
  // CUDA's limits, which the compiler's range analysis assumes too.
  for (auto [axis, size] : llvm::enumerate(options.grid)) {
    std::int64_t limit = axis == 0 ? INT32_MAX : 65535;
    if (size < 1 || size > limit)
      return emitError(func.getLoc())
             << "grid dimension " << axis << " is " << size
             << "; it must be from 1 to " << limit;
  }
  // The interpreter runs the programs one after the other.
  std::int64_t programs = options.grid[0] * options.grid[1];
  if (programs > kMaxInterpretedPrograms ||
      programs * options.grid[2] > kMaxInterpretedPrograms)
    return emitError(func.getLoc())
           << "a grid of " << options.grid[0] << " x " << options.grid[1]
           << " x " << options.grid[2] << " programs; the interpreter runs at "
           << "most " << kMaxInterpretedPrograms << " (2^24)";
  Memory memory;
  llvm::SmallVector<TileValue> values;
  for (auto [i, arg] : llvm::enumerate(args)) {
    std::string name, typeName;
    if (i < params.size()) {
      name = params[i].name;
      typeName = params[i].type.str();
    } else {
      name = "#" + std::to_string(i);
      llvm::raw_string_ostream(typeName) << types[i];
    }
    std::optional<TileValue> value =
        bindArgument(func, memory, arg, types[i], name, typeName);
    if (!value)
      return failure();
    values.push_back(std::move(*value));
  }
  Executor exec(memory, options,
                options.printOS ? *options.printOS : llvm::outs());
  for (std::int64_t z = 0; z < options.grid[2]; ++z)
    for (std::int64_t y = 0; y < options.grid[1]; ++y)
      for (std::int64_t x = 0; x < options.grid[0]; ++x)
        if (failed(exec.runProgram(func, values, {x, y, z})))
          return failure();
  return success();
}
