//===- TileOps.cpp - tile dialect ops of the interpreter ------------------===//
//
// Program indexing, index ranges, shape ops (splat, broadcast, expand_dims,
// reshape, trans, which carry exact integer values), hints, `dot` (exact
// products summed in float64, no tf32 rounding), reductions (in order along the
// axis; argmax/argmin keep the first extreme, a NaN the most extreme), scans
// and reductions with a combine region (in axis order, the region run per
// pair of elements) and
// `device_print`, which prints what the GPU prints, one line per element,
// once.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;
using namespace tilec::interp;

namespace {
/// Copies element `from` of `src` to element `to` of `dst` (same kind),
/// with its exact value when `dst` keeps them.
void copyElement(const TileValue &src, std::int64_t from, TileValue &dst,
                 std::int64_t to) {
  if (!src.floats.empty())
    dst.floats[to] = src.floats[from];
  else
    dst.ints[to] = src.ints[from];
  if (!dst.exact.empty())
    dst.exact[to] = src.exactAt(from);
}

/// A zeroed value of `type` that keeps exact values when `src` has them
/// (the shape ops carry them).
TileValue zerosLike(mlir::Type type, const TileValue &src) {
  TileValue result = TileValue::zeros(type);
  if (!src.exact.empty())
    result.exact.resize(result.size());
  return result;
}

/// Sets `op`'s result to `src`'s elements with the result's shape.
LogicalResult reshapeTo(Executor &exec, Operation *op, Value src) {
  TileValue result = exec.get(src);
  result.shape = getShape(op->getResult(0).getType());
  exec.set(op->getResult(0), std::move(result));
  return success();
}

LogicalResult runGridIndex(Executor &exec, Operation *op, std::int32_t axis,
                           bool isCount) {
  TileValue result;
  result.ints = {isCount ? exec.grid[axis] : exec.programId[axis]};
  exec.set(op->getResult(0), std::move(result));
  return success();
}

LogicalResult runMakeRange(Executor &exec, MakeRangeOp op) {
  TileValue result = TileValue::zeros(op.getType());
  for (std::int64_t i = 0, e = result.size(); i < e; ++i)
    result.ints[i] = op.getStart() + i;
  exec.set(op.getResult(), std::move(result));
  return success();
}

LogicalResult runSplat(Executor &exec, SplatOp op) {
  const TileValue &src = exec.get(op.getSrc());
  TileValue result = zerosLike(op.getType(), src);
  for (std::int64_t i = 0, e = result.size(); i < e; ++i)
    copyElement(src, 0, result, i);
  exec.set(op.getResult(), std::move(result));
  return success();
}

LogicalResult runBroadcast(Executor &exec, BroadcastOp op) {
  const TileValue &src = exec.get(op.getSrc());
  TileValue result = zerosLike(op.getType(), src);
  size_t rank = result.shape.size();
  // Row-major strides of the source, 0 along its unit dimensions.
  llvm::SmallVector<std::int64_t, 4> strides(rank, 0);
  for (std::int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    strides[d] = src.shape[d] == 1 ? 0 : stride;
    stride *= src.shape[d];
  }
  for (std::int64_t i = 0, e = result.size(); i < e; ++i) {
    std::int64_t rest = i, from = 0;
    for (std::int64_t d = rank - 1; d >= 0; --d) {
      from += (rest % result.shape[d]) * strides[d];
      rest /= result.shape[d];
    }
    copyElement(src, from, result, i);
  }
  exec.set(op.getResult(), std::move(result));
  return success();
}

LogicalResult runTrans(Executor &exec, TransOp op) {
  const TileValue &src = exec.get(op.getSrc());
  TileValue result = zerosLike(op.getType(), src);
  SmallVector<int32_t> order = op.getPermutation();
  size_t rank = order.size();
  // The source's row-major strides, read in the result's dimension order.
  SmallVector<std::int64_t> srcStrides(rank, 1);
  for (int d = int(rank) - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * src.shape[d + 1];
  std::int64_t count = 1;
  for (std::int64_t n : result.shape)
    count *= n;
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t rest = i, from = 0;
    for (int d = int(rank) - 1; d >= 0; --d) {
      from += (rest % result.shape[d]) * srcStrides[order[d]];
      rest /= result.shape[d];
    }
    copyElement(src, from, result, i);
  }
  exec.set(op.getResult(), std::move(result));
  return success();
}

/// result = a * b + acc with every product exact and the sums in float64.
LogicalResult runDot(Executor &exec, DotOp op) {
  const TileValue &a = exec.get(op.getA());
  const TileValue &b = exec.get(op.getB());
  TileValue result = exec.get(op.getAcc());
  std::int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = result.floats[i * n + j];
      for (std::int64_t l = 0; l < k; ++l)
        sum += a.floats[i * k + l] * b.floats[l * n + j];
      result.floats[i * n + j] = sum;
    }
  exec.set(op.getResult(), std::move(result));
  return success();
}

/// Whether `candidate` beats `best` for argmax (`isMax`) or argmin
/// (docs/spec.md section 1.4): a NaN beats every number, as `max` and `min`
/// propagate NaN, so the first NaN's index is the answer when there is one;
/// integers compare signed. Equal values (and two NaNs) never beat: the
/// first index wins.
bool isBetter(const TileValue &src, std::int64_t candidate, std::int64_t best,
              bool isMax) {
  if (!src.floats.empty()) {
    double x = src.floats[candidate], y = src.floats[best];
    if (std::isnan(x) || std::isnan(y))
      return std::isnan(x) && !std::isnan(y);
    return isMax ? x > y : x < y;
  }
  std::int64_t x = src.ints[candidate], y = src.ints[best];
  return isMax ? x > y : x < y;
}

LogicalResult runReduce(Executor &exec, ReduceOp op) {
  const TileValue &src = exec.get(op.getSrc());
  TileValue result = TileValue::zeros(op.getType());
  std::int64_t axis = op.getAxis();
  std::int64_t length = src.shape[axis], inner = 1;
  for (std::int64_t d = axis + 1, e = src.shape.size(); d < e; ++d)
    inner *= src.shape[d];
  ReduceKind kind = op.getKind();
  bool isFloat = !src.floats.empty();
  unsigned width =
      isFloat ? 0 : getIntWidth(getElementTypeOrSelf(op.getSrc().getType()));
  for (std::int64_t out = 0, e = result.size(); out < e; ++out) {
    std::int64_t first = (out / inner) * length * inner + out % inner;
    auto at = [&](std::int64_t k) { return first + k * inner; };
    if (kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin) {
      std::int64_t best = 0;
      for (std::int64_t k = 1; k < length; ++k)
        if (isBetter(src, at(k), at(best), kind == ReduceKind::ArgMax))
          best = k;
      result.ints[out] = best;
      continue;
    }
    copyElement(src, first, result, out);
    for (std::int64_t k = 1; k < length; ++k) {
      std::int64_t from = at(k);
      if (isFloat) {
        double &acc = result.floats[out];
        double x = src.floats[from];
        acc = kind == ReduceKind::Sum
                  ? acc + x
                  : floatMaximum(acc, x, kind == ReduceKind::Max);
        continue;
      }
      std::int64_t &acc = result.ints[out];
      std::int64_t x = src.ints[from];
      if (kind == ReduceKind::Sum)
        acc =
            wrapInt(static_cast<std::int64_t>(static_cast<std::uint64_t>(acc) +
                                              static_cast<std::uint64_t>(x)),
                    width);
      else
        acc = kind == ReduceKind::Max ? std::max(acc, x) : std::min(acc, x);
    }
  }
  exec.set(op.getResult(), std::move(result));
  return success();
}

/// The scalar element `i` of `value` (a float or an integer).
TileValue elementOf(const TileValue &value, std::int64_t i) {
  TileValue scalar;
  if (!value.floats.empty())
    scalar.floats = {value.floats[i]};
  else
    scalar.ints = {value.ints[i]};
  return scalar;
}

/// Stores the scalar `scalar` as element `i` of `value`.
void setElement(TileValue &value, std::int64_t i, const TileValue &scalar) {
  if (!value.floats.empty())
    value.floats[i] = scalar.floats[0];
  else
    value.ints[i] = scalar.ints[0];
}

/// The lines along `axis` of blocks of `shape`: `lines` of `length`
/// elements, element k of line `l` at `first(l) + k * inner`.
struct AxisLines {
  AxisLines(llvm::ArrayRef<std::int64_t> shape, std::int64_t axis) {
    length = shape[axis];
    for (std::int64_t d = axis + 1, e = shape.size(); d < e; ++d)
      inner *= shape[d];
    for (std::int64_t d : shape)
      lines *= d;
    lines /= length;
  }
  std::int64_t first(std::int64_t line) const {
    return (line / inner) * length * inner + line % inner;
  }
  std::int64_t length = 1, inner = 1, lines = 1;
};

/// Combines the scalars `acc` (earlier along the axis) and `next` with the
/// region of `op`; `acc` gets the result.
LogicalResult combine(Executor &exec, Region &region,
                      llvm::SmallVectorImpl<TileValue> &acc,
                      llvm::ArrayRef<TileValue> next) {
  llvm::SmallVector<TileValue> args(acc.begin(), acc.end());
  args.append(next.begin(), next.end());
  return exec.runRegion(region, args, acc);
}

/// The sources of a scan or combine reduction and its zeroed results.
struct CombineValues {
  CombineValues(Executor &exec, ValueRange srcValues, ValueRange resultValues)
      : results(resultValues) {
    for (auto [src, result] : llvm::zip(srcValues, resultValues)) {
      srcs.push_back(exec.get(src));
      values.push_back(TileValue::zeros(result.getType()));
    }
  }
  /// Element `i` of each source.
  llvm::SmallVector<TileValue> elementsAt(std::int64_t i) const {
    llvm::SmallVector<TileValue> elements;
    for (const TileValue &src : srcs)
      elements.push_back(elementOf(src, i));
    return elements;
  }
  /// Sets element `i` of each result.
  void set(std::int64_t i, llvm::ArrayRef<TileValue> scalars) {
    for (auto [value, scalar] : llvm::zip(values, scalars))
      setElement(value, i, scalar);
  }
  /// Gives the op its results.
  LogicalResult finish(Executor &exec) {
    for (auto [result, value] : llvm::zip(results, values))
      exec.set(result, std::move(value));
    return success();
  }

  ValueRange results;
  /// Copies: running the region adds values to the executor's map, which
  /// may move the ones it holds.
  llvm::SmallVector<TileValue> srcs;
  llvm::SmallVector<TileValue> values;
};

/// Folds each line of `io`'s sources along `axis` with `region`, in axis
/// order (from the line's end when `reverse`); `visit(line, at, acc)` sees
/// the values accumulated up to element `at`.
LogicalResult foldLines(Executor &exec, Region &region, const CombineValues &io,
                        std::int64_t axis, bool reverse,
                        llvm::function_ref<void(std::int64_t, std::int64_t,
                                                llvm::ArrayRef<TileValue>)>
                            visit) {
  AxisLines lines(io.srcs.front().shape, axis);
  for (std::int64_t line = 0; line < lines.lines; ++line) {
    llvm::SmallVector<TileValue> acc;
    for (std::int64_t step = 0; step < lines.length; ++step) {
      std::int64_t k = reverse ? lines.length - 1 - step : step;
      std::int64_t at = lines.first(line) + k * lines.inner;
      if (step == 0)
        acc = io.elementsAt(at);
      else if (failed(combine(exec, region, acc, io.elementsAt(at))))
        return failure();
      visit(line, at, acc);
    }
  }
  return success();
}

/// tile.scan: every prefix of each line.
LogicalResult runScan(Executor &exec, ScanOp op) {
  CombineValues io(exec, op.getSrcs(), op.getResults());
  if (failed(
          foldLines(exec, op.getCombine(), io, op.getAxis(), op.getReverse(),
                    [&](std::int64_t, std::int64_t at,
                        llvm::ArrayRef<TileValue> acc) { io.set(at, acc); })))
    return failure();
  return io.finish(exec);
}

/// tile.combine_reduce: each line folded from its first element on.
LogicalResult runCombineReduce(Executor &exec, CombineReduceOp op) {
  CombineValues io(exec, op.getSrcs(), op.getResults());
  if (failed(
          foldLines(exec, op.getCombine(), io, op.getAxis(), /*reverse=*/false,
                    [&](std::int64_t line, std::int64_t,
                        llvm::ArrayRef<TileValue> acc) { io.set(line, acc); })))
    return failure();
  return io.finish(exec);
}

/// Element `i` of `value` as the GPU's vprintf shows it: floats with "%f",
/// integers sign-extended ("%d", "%lld" for 64 bits), pointers as "%p".
void printElement(llvm::raw_ostream &os, const TileValue &value, Type elem,
                  std::int64_t i) {
  if (isa<FloatType>(elem))
    os << llvm::format("%f", value.floats[i]);
  else if (isa<PointerType>(elem))
    os << llvm::format_hex(static_cast<std::uint64_t>(value.ints[i]), 2);
  else
    os << value.ints[i];
}

LogicalResult runPrint(Executor &exec, PrintOp op) {
  llvm::raw_ostream &os = exec.printOS;
  std::string pid = "pid (" + std::to_string(exec.programId[0]) + ", " +
                    std::to_string(exec.programId[1]) + ", " +
                    std::to_string(exec.programId[2]) + ")";
  if (op.getArgs().empty())
    os << op.getPrefix() << "\n";
  for (Value arg : op.getArgs()) {
    const TileValue &value = exec.get(arg);
    Type elem = getElementTypeOrSelf(arg.getType());
    for (std::int64_t i = 0, e = value.size(); i < e; ++i) {
      os << pid;
      if (!value.shape.empty()) {
        llvm::SmallVector<std::int64_t, 4> index(value.shape.size());
        for (std::int64_t d = index.size() - 1, rest = i; d >= 0; --d) {
          index[d] = rest % value.shape[d];
          rest /= value.shape[d];
        }
        os << " idx (";
        llvm::interleaveComma(index, os);
        os << ")";
      }
      os << " " << op.getPrefix();
      printElement(os, value, elem, i);
      os << "\n";
    }
  }
  os.flush();
  return success();
}
} // namespace

std::optional<LogicalResult> tilec::interp::runTileOp(Executor &exec,
                                                      Operation *op) {
  using Result = std::optional<LogicalResult>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([&](ProgramIdOp op) -> Result {
        return runGridIndex(exec, op, op.getAxis(), /*isCount=*/false);
      })
      .Case([&](NumProgramsOp op) -> Result {
        return runGridIndex(exec, op, op.getAxis(), /*isCount=*/true);
      })
      .Case([&](MakeRangeOp op) { return runMakeRange(exec, op); })
      .Case([&](SplatOp op) { return runSplat(exec, op); })
      .Case([&](BroadcastOp op) { return runBroadcast(exec, op); })
      .Case([&](ExpandDimsOp op) { return reshapeTo(exec, op, op.getSrc()); })
      .Case([&](ReshapeOp op) { return reshapeTo(exec, op, op.getSrc()); })
      .Case([&](HintOp op) { return reshapeTo(exec, op, op.getSrc()); })
      .Case([&](TransOp op) { return runTrans(exec, op); })
      .Case([&](DotOp op) { return runDot(exec, op); })
      .Case([&](ReduceOp op) { return runReduce(exec, op); })
      .Case([&](ScanOp op) { return runScan(exec, op); })
      .Case([&](CombineReduceOp op) { return runCombineReduce(exec, op); })
      .Case([&](PrintOp op) { return runPrint(exec, op); })
      // A program runs its block operations whole, in order: every access
      // before a barrier is already done.
      .Case([&](DebugBarrierOp) -> Result { return success(); })
      // One program at a time, in launch order: nothing to wait for.
      .Case<GridDepWaitOp, GridDepLaunchDependentsOp>(
          [&](Operation *) -> Result { return success(); })
      .Case([&](ElementwiseInlineAsmOp op) -> Result {
        return exec.error(op) << "inline_asm_elementwise runs PTX, which the "
                                 "interpreter cannot execute; run the kernel "
                                 "on a GPU";
      })
      .Default([](Operation *) -> Result { return std::nullopt; });
}
