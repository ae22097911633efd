//===- Statements.cpp - Random statements of the .tile generator ----------===//
//
// Assignments (plain and augmented), if/elif/else merging values, run-time
// `for` loops and `static_range` loops with loop-carried values, dot with
// and without a K loop, and the stores of the outputs. The intervals of
// loop-carried values are bounded over the largest trip count; variables
// of an enclosing loop are never assigned in a nested statement, so every
// bound stays valid.
//
//===----------------------------------------------------------------------===//

#include "GenImpl.h"

using namespace tilec::gen;
using namespace tilec::gen::detail;

namespace {
/// The value types of assignments, loop-carried values and branches.
DType pickType(ChoiceSource &c, bool allowF16, bool allowI1) {
  static const DType types[] = {DType::F32, DType::F32, DType::F32, DType::I32,
                                DType::I32, DType::F16, DType::F16, DType::I1};
  DType type = types[c.below(allowI1 ? 8 : 7)];
  return type == DType::F16 && !allowF16 ? DType::F32 : type;
}

/// Widens `into` to hold the values of `other` too.
void mergeInto(Value &into, const Value &other) {
  into.lo = std::min(into.lo, other.lo);
  into.hi = std::max(into.hi, other.hi);
  into.err = std::max(into.err, other.err);
  into.exact = into.exact && other.exact;
  into.used = into.used || other.used;
}
} // namespace

std::vector<size_t> KernelGen::assignableVars() const {
  std::vector<size_t> result;
  for (size_t i = std::max(firstUserVar, protectedVars); i < vars.size(); ++i)
    if (vars[i].type != DType::I1 && !vars[i].isConst &&
        !hidden.count(vars[i].text))
      result.push_back(i);
  return result;
}

void KernelGen::statement(int depth) {
  bool control = options.allowControlFlow && depth < 2;
  unsigned pick = c.below(10);
  if (!control || pick < 5)
    assignStmt();
  else if (pick < 7)
    ifStmt(depth);
  else if (pick < 9)
    forStmt(depth);
  else if (dom.dot && c.chance(30))
    dotStmt();
  else
    staticRangeStmt();
}

void KernelGen::assignStmt() {
  int depth = static_cast<int>(c.inRange(1, 3));
  std::vector<size_t> assignable = assignableVars();
  if (!assignable.empty() && c.chance(20)) {
    Value &var = vars[assignable[c.below(assignable.size())]];
    static const char *const ops[] = {"+", "-", "*", "/"};
    std::string op = ops[c.below(isFloat(var.type) ? 4 : 3)];
    Value e = op == "/" ? genPositive(var.type, var.shape, depth)
                        : gen(var.type, var.shape, depth);
    std::optional<Value> result = binary(op, var, e);
    if (result && result->shape == var.shape && result->type == var.type) {
      emit(var.text + " " + op + "= " + operand(e, var.shape));
      result->text = var.text;
      result->atom = true;
      var = *result;
      feature("augmented_assign");
      return;
    }
  }
  DType type = pickType(c, options.allowF16, /*allowI1=*/true);
  Value v = gen(type, pickShape(dom.twoD ? Shape::Tile : Shape::Row), depth);
  std::string name = freshName("v");
  emit(name + " = " + v.text);
  v.text = name;
  v.atom = true;
  vars.push_back(v);
}

void KernelGen::ifStmt(int depth) {
  feature("if");
  Value cond = genCond(Shape::Scalar, 2);
  // Targets: new variables (assigned in every branch) or assignable ones.
  struct Target {
    size_t index; // into vars; npos for a new variable
    std::string name;
    DType type;
    Shape shape;
    std::vector<Value> values; // of a new variable, per branch
  };
  std::vector<Target> targets;
  std::vector<size_t> assignable = assignableVars();
  for (int i = 0, n = static_cast<int>(c.inRange(1, 2)); i < n; ++i) {
    if (!assignable.empty() && c.chance(30)) {
      size_t index = assignable[c.below(assignable.size())];
      bool taken = false;
      for (const Target &t : targets)
        taken |= t.index == index;
      if (!taken)
        targets.push_back(
            {index, vars[index].text, vars[index].type, vars[index].shape, {}});
      continue;
    }
    Shape shape = pickShape(dom.twoD ? Shape::Tile : Shape::Row);
    targets.push_back({std::string::npos,
                       freshName("v"),
                       pickType(c, options.allowF16, false),
                       shape,
                       {}});
  }
  bool allExisting = true;
  for (const Target &t : targets)
    allExisting &= t.index != std::string::npos;
  int branches = static_cast<int>(c.inRange(allExisting ? 1 : 2, 3));

  // Each branch starts from the variables as they were; afterwards every
  // variable holds the hull of its values at the ends of the branches (and
  // its old value when no branch may run).
  std::vector<Value> before(vars.begin(), vars.end());
  std::vector<std::vector<Value>> ends;
  for (int b = 0; b < branches; ++b) {
    if (b == 0)
      emit("if " + cond.text + ":");
    else if (b + 1 < branches)
      emit("elif " + genCond(Shape::Scalar, 1).text + ":");
    else
      emit("else:");
    ++indent;
    if (c.chance(30))
      statement(depth + 1);
    for (Target &t : targets) {
      int valueDepth = static_cast<int>(c.inRange(0, 2));
      if (t.index != std::string::npos) {
        // An update that reads the old value.
        carryUpdate(t.index, 1, valueDepth);
        continue;
      }
      Value v = broadcastTo(gen(t.type, t.shape, valueDepth), t.shape);
      emit(t.name + " = " + v.text);
      v.text = t.name;
      v.atom = true;
      t.values.push_back(v);
    }
    --indent;
    vars.erase(vars.begin() + static_cast<std::ptrdiff_t>(before.size()),
               vars.end());
    ends.emplace_back(vars.begin(), vars.end());
    std::copy(before.begin(), before.end(), vars.begin());
  }
  if (branches == 1)
    ends.push_back(before);
  for (size_t i = 0; i < vars.size(); ++i) {
    vars[i] = ends.front()[i];
    for (const std::vector<Value> &end : ends)
      mergeInto(vars[i], end[i]);
  }
  for (Target &t : targets) {
    if (t.index != std::string::npos)
      continue;
    Value merged = t.values.front();
    for (const Value &v : t.values)
      mergeInto(merged, v);
    vars.push_back(merged);
  }
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

size_t KernelGen::carriedVar() {
  std::vector<size_t> assignable = assignableVars();
  if (!assignable.empty() && c.chance(40))
    return assignable[c.below(assignable.size())];
  DType type = pickType(c, options.allowF16, /*allowI1=*/false);
  Shape shape = pickShape(dom.twoD ? Shape::Tile : Shape::Row);
  Value init = c.chance(40) ? broadcastTo(literalValue(type, 0), shape)
                            : broadcastTo(gen(type, shape, 1), shape);
  std::string name = freshName("acc");
  emit(name + " = " + init.text);
  init.text = name;
  init.atom = true;
  vars.push_back(init);
  return vars.size() - 1;
}

void KernelGen::carryUpdate(size_t index, double trips, int depth) {
  Value acc = vars[index];
  Value delta = gen(acc.type, acc.shape, depth);
  std::string d = operand(delta, acc.shape);
  double u = unitRoundoff(acc.type);
  Value after = acc;
  after.exact = acc.exact && delta.exact;
  unsigned kind = c.below(3);
  if (kind == 0) {
    after.lo = std::min(acc.lo, acc.lo + trips * delta.lo);
    after.hi = std::max(acc.hi, acc.hi + trips * delta.hi);
    after.err = acc.err + trips * (delta.err + u * after.mag());
    after.exact = !isFloat(acc.type) && after.exact;
    double cap = isFloat(acc.type) ? maxMagnitude(acc.type) : kMaxInt;
    if (after.mag() + after.err <= cap) {
      emit(acc.text +
           (c.chance(50) ? " += " + d : " = " + acc.text + " + " + d));
      vars[index] = after;
      return;
    }
    kind = 1;
  }
  if (kind == 2 && isFloat(acc.type)) {
    // acc_k = acc_k-1 / 2 + d: |acc| <= max(|acc_0|, 2 |d|).
    double bound = std::max(acc.mag(), 2 * delta.mag());
    after.lo = -bound;
    after.hi = bound;
    after.err = acc.err + 2 * (delta.err + 2 * u * bound);
    after.exact = false;
    if (after.mag() + after.err <= maxMagnitude(acc.type)) {
      emit(acc.text + " = " + acc.text + " * 0.5 + " + d);
      vars[index] = after;
      return;
    }
  }
  bool isMax = c.chance(50);
  emit(acc.text + " = " + (isMax ? "maximum(" : "minimum(") + acc.text + ", " +
       d + ")");
  after.lo = isMax ? acc.lo : std::min(acc.lo, delta.lo);
  after.hi = isMax ? std::max(acc.hi, delta.hi) : acc.hi;
  after.err = std::max(acc.err, delta.err);
  vars[index] = after;
}

void KernelGen::forStmt(int depth) {
  feature("for");
  int64_t start = 0, trips = 0, step = 1;
  std::string range;
  switch (c.below(4)) {
  case 0:
    trips = c.inRange(0, 4);
    range = "range(" + addScalar(DType::I32, static_cast<double>(trips)) + ")";
    break;
  case 1: {
    start = c.inRange(0, 2);
    int64_t end = c.inRange(0, 5);
    trips = std::max<int64_t>(0, end - start);
    range = "range(" + std::to_string(start) + ", " +
            addScalar(DType::I32, static_cast<double>(end)) + ")";
    break;
  }
  case 2: {
    step = c.inRange(1, 3);
    start = c.inRange(0, 2);
    int64_t end = c.inRange(0, 8);
    trips = std::max<int64_t>(0, (end - start + step - 1) / step);
    std::string stepText =
        c.chance(50) ? std::to_string(step)
                     : addScalar(DType::I32, static_cast<double>(step));
    range = "range(" + addScalar(DType::I32, static_cast<double>(start)) +
            ", " + addScalar(DType::I32, static_cast<double>(end)) + ", " +
            stepText + ")";
    break;
  }
  default: {
    // A trip count that differs between programs.
    const std::string &pid = dom.rows.pid;
    trips = std::min<int64_t>(2, static_cast<int64_t>(dom.rows.programs) - 1);
    range = "range(0, " + pid + " % 3)";
    feature("for_varying_trips");
    break;
  }
  }
  if (c.chance(20))
    range = "tl." + range;
  int64_t last = trips > 0 ? start + (trips - 1) * step : start;

  std::vector<size_t> carried;
  for (int i = 0, n = static_cast<int>(c.inRange(1, 2)); i < n; ++i) {
    size_t index = carriedVar();
    if (std::find(carried.begin(), carried.end(), index) == carried.end())
      carried.push_back(index);
  }
  std::string iv = freshName("it");
  emit("for " + iv + " in " + range + ":");
  ++indent;
  for (size_t index : carried)
    hidden.insert(vars[index].text);
  size_t saved = vars.size(), savedProtected = protectedVars;
  defineVar(iv, DType::I32, Shape::Scalar, static_cast<double>(start),
            static_cast<double>(last));
  protectedVars = vars.size();
  if (c.chance(50)) {
    // This iteration's slice of a stacked input.
    Shape shape = pickShape(dom.twoD ? Shape::Tile : Shape::Row);
    if (shape == Shape::Scalar)
      shape = Shape::Row;
    std::string offsets, mask;
    uint64_t count;
    loadAddress(shape, offsets, mask, count);
    std::string sliceSize = shape == Shape::Tile  ? "(m * n)"
                            : shape == Shape::Row ? dom.rows.size
                                                  : dom.cols.size;
    DType type = pickType(c, options.allowF16, false);
    std::string x = addInput(type, count * static_cast<uint64_t>(last + 1));
    std::string t = freshName("t");
    emit(t + " = load(" + x + " + " + iv + " * " + sliceSize + " + " + offsets +
         ", mask=" + mask + ", other=0)");
    const ParamSpec &input = param(x);
    defineVar(t, type, shape, std::min(input.lo, 0.0), std::max(input.hi, 0.0));
    feature("for_slice_load");
  }
  if (c.chance(30))
    statement(depth + 1);
  for (size_t index : carried)
    carryUpdate(index, static_cast<double>(trips),
                static_cast<int>(c.inRange(0, 2)));
  --indent;
  vars.erase(vars.begin() + static_cast<std::ptrdiff_t>(saved), vars.end());
  protectedVars = savedProtected;
  for (size_t index : carried)
    hidden.erase(vars[index].text);
}

void KernelGen::staticRangeStmt() {
  feature("static_range");
  int64_t count = c.inRange(1, 4), step = c.chance(25) ? 2 : 1;
  std::string jv = freshName("jt");
  std::string range =
      step == 2      ? "static_range(0, " + std::to_string(2 * count) + ", 2)"
      : c.chance(50) ? "static_range(" + std::to_string(count) + ")"
                     : "tl.static_range(0, " + std::to_string(count) + ")";
  size_t index = carriedVar();
  emit("for " + jv + " in " + range + ":");
  ++indent;
  hidden.insert(vars[index].text);
  size_t saved = vars.size(), savedProtected = protectedVars;
  protectedVars = saved;
  double last = static_cast<double>((count - 1) * step);
  Shape shape = vars[index].shape;
  DType accType = vars[index].type;
  if (shape == Shape::Row || shape == Shape::Col) {
    // A load shifted by the (constant) index.
    const Axis &axis = shape == Shape::Row ? dom.rows : dom.cols;
    DType type = pickType(c, options.allowF16, false);
    std::string x = addInput(type, static_cast<uint64_t>(axis.extent));
    std::string t = freshName("t");
    std::string shifted = "(" + axis.index + " + " + jv + ")";
    emit(t + " = load(" + x + " + " + shifted + ", mask=" + shifted + " < " +
         axis.size + ", other=0)");
    const ParamSpec &input = param(x);
    defineVar(t, type, shape, std::min(input.lo, 0.0), std::max(input.hi, 0.0));
  }
  if (c.chance(50)) {
    // A value scaled by the (constant) index.
    Value scale = literalValue(accType, 1);
    scale.text = "(" + jv + " + 1)";
    scale.hi = last + 1;
    if (std::optional<Value> v = binary("*", gen(accType, shape, 1), scale)) {
      std::string t = freshName("t");
      emit(t + " = " + v->text);
      v->text = t;
      v->atom = true;
      vars.push_back(*v);
    }
  }
  carryUpdate(index, static_cast<double>(count),
              static_cast<int>(c.inRange(0, 2)));
  --indent;
  vars.erase(vars.begin() + static_cast<std::ptrdiff_t>(saved), vars.end());
  protectedVars = savedProtected;
  hidden.erase(vars[index].text);
}

//===----------------------------------------------------------------------===//
// dot
//===----------------------------------------------------------------------===//

void KernelGen::dotStmt() {
  DType type = dom.dotType;
  bool loop = dom.extentK > dom.blockK || c.chance(40);
  bool transB = c.chance(25);
  uint64_t m = static_cast<uint64_t>(dom.rows.extent);
  uint64_t n = static_cast<uint64_t>(dom.cols.extent);
  uint64_t k = static_cast<uint64_t>(dom.extentK);
  std::string a = addInput(type, m * k), b = addInput(type, k * n);
  std::string acc = freshName("acc"), kv = freshName("k"), ks = freshName("ks"),
              ta = freshName("a"), tb = freshName("b");
  std::string other = c.chance(50) ? ", other=0.0" : "";
  std::string aLoad = "load(" + a + " + rows[:, None] * k + " + ks +
                      "[None, :], mask=rmask[:, None] & (" + ks +
                      "[None, :] < k)" + other + ")";
  std::string bLoad =
      transB
          ? "load(" + b + " + cols[:, None] * k + " + ks +
                "[None, :], mask=cmask[:, None] & (" + ks + "[None, :] < k)" +
                other + ")"
          : "load(" + b + " + " + ks + "[:, None] * n + cols[None, :], " +
                "mask=(" + ks + "[:, None] < k) & cmask[None, :]" + other + ")";
  std::string precision;
  double inputRoundoff = 0;
  if (type == DType::F32) {
    static const char *const precisions[] = {"", ", input_precision=\"ieee\"",
                                             ", input_precision=\"tf32\"",
                                             ", allow_tf32=False"};
    unsigned pick = c.below(4);
    precision = precisions[pick];
    // tf32 keeps 10 mantissa bits (rounded or truncated).
    inputRoundoff = pick == 1 || pick == 3 ? 0 : std::ldexp(1.0, -10);
    feature(inputRoundoff ? "dot_tf32" : "dot_ieee");
  } else {
    feature("dot_f16");
  }
  const ParamSpec &pa = param(a), &pb = param(b);
  double ma = std::max(std::fabs(pa.lo), std::fabs(pa.hi));
  double mb = std::max(std::fabs(pb.lo), std::fabs(pb.hi));
  double kd = static_cast<double>(dom.extentK);
  // Scale A down (exactly, by a power of two) to keep |acc| <= 512.
  double scale = 1;
  while (kd * ma * mb * scale > 512)
    scale /= 2;

  auto loads = [&] {
    emit(ta + " = " + aLoad);
    emit(tb + " = " + bLoad);
    if (scale != 1)
      emit(ta + " = " + ta + " * " + literalValue(type, scale).text);
    if (transB)
      emit(tb + " = trans(" + tb + ")");
  };
  if (loop) {
    feature("dot_k_loop");
    emit(acc + " = " +
         (c.chance(50) ? "zeros((BM, BN), dtype=float32)"
                       : "tl.full((BM, BN), 0.0, tl.float32)"));
    emit("for " + kv + " in " +
         (c.chance(20) ? "tl.range(0, k, BK, num_stages=2)"
                       : "range(0, k, BK)") +
         ":");
    ++indent;
    emit(ks + " = " + kv + " + arange(0, BK)");
    loads();
    switch (c.below(3)) {
    case 0:
      emit(acc + " = dot(" + ta + ", " + tb + ", " + acc + precision + ")");
      break;
    case 1:
      emit(acc + " += tl.dot(" + ta + ", " + tb + precision + ")");
      break;
    default:
      emit(acc + " = dot(" + ta + ", " + tb + ", acc=" + acc + precision + ")");
      break;
    }
    --indent;
  } else {
    emit(ks + " = arange(0, BK)");
    loads();
    if (precision.empty() && c.chance(30))
      emit(acc + " = " + ta + " @ " + tb);
    else
      emit(acc + " = dot(" + ta + ", " + tb + precision + ")");
  }
  double mag = kd * ma * mb * scale;
  Value v;
  v.text = acc;
  v.type = DType::F32;
  v.shape = Shape::Tile;
  v.lo = pa.lo >= 0 && pb.lo >= 0 ? 0 : -mag;
  v.hi = mag;
  // Tensor cores may truncate while accumulating: 2 units per addition.
  v.err = mag * (2 * inputRoundoff + 2 * kd * unitRoundoff(DType::F32));
  // Scaling f16 inputs rounds those that become subnormal.
  if (scale != 1 && type == DType::F16)
    v.err += kd * mb * std::ldexp(1.0, -25);
  v.exact = false;
  vars.push_back(v);
}

//===----------------------------------------------------------------------===//
// Stores
//===----------------------------------------------------------------------===//

void KernelGen::storeValue(const Value &value) {
  const Axis &rows = dom.rows, &cols = dom.cols;
  std::string offsets, mask;
  uint64_t count;
  bool full = false;
  switch (value.shape) {
  case Shape::Tile:
    offsets = "toffs";
    mask = "tmask";
    count = static_cast<uint64_t>(rows.extent * cols.extent);
    full = rows.extent == rows.block * static_cast<int64_t>(rows.programs) &&
           cols.extent == cols.block * static_cast<int64_t>(cols.programs);
    break;
  case Shape::Row:
  case Shape::Col: {
    // A row (column) of a 2-D program goes to the slot of its column
    // (row) of programs.
    bool row = value.shape == Shape::Row;
    const Axis &axis = row ? rows : cols;
    const Axis &across = row ? cols : rows;
    offsets = axis.index;
    count = static_cast<uint64_t>(axis.extent);
    if (dom.twoD) {
      offsets = across.pid + " * " + axis.size + " + " + axis.index;
      count *= across.programs;
    }
    mask = axis.mask;
    full = axis.extent == axis.block * static_cast<int64_t>(axis.programs);
    break;
  }
  default:
    offsets = "prog";
    count = rows.programs * (dom.twoD ? cols.programs : 1);
    break;
  }
  ParamSpec out;
  out.name = freshName("y");
  out.kind = ParamSpec::Kind::Output;
  out.dtype = typeName(value.type);
  out.count = count;
  out.atol = isFloat(value.type) ? 4 * value.err : 0;
  params.push_back(out);
  std::string text = callPrefix(c, false) + "store(" + out.name + " + " +
                     offsets + ", " + value.text;
  if (!mask.empty() && !(full && c.chance(50)))
    text += (c.chance(30) ? ", " : ", mask=") + mask;
  emit(text + ")");
}

void KernelGen::storeOutputs() {
  std::vector<size_t> unused, used;
  for (size_t i = firstUserVar; i < vars.size(); ++i)
    if (vars[i].type != DType::I1 && !vars[i].isConst)
      (vars[i].used ? used : unused).push_back(i);
  if (unused.empty() && used.empty()) {
    storeValue(gen(DType::F32, dom.twoD ? Shape::Tile : Shape::Row, 2));
    return;
  }
  // The values nothing reads (the latest four), and now and then another.
  size_t stored = 0;
  for (size_t i = unused.size(); i-- > 0 && stored < 4; ++stored)
    storeValue(vars[unused[i]]);
  if (!used.empty() && (stored == 0 || c.chance(30)))
    storeValue(vars[used[c.below(used.size())]]);
}
