//===- ProgramGenerator.cpp - Random valid .tile kernels ------------------===//
//
// The kernel-level half of the generator: the index space (a 1-D block of
// a ragged vector, a 2-D tile of a ragged matrix, or a 2-D tile that is the
// product of two matrices), the statements of the body (assignments, if/
// elif/else, run-time loops with loop-carried values, static_range, dot
// with or without a K loop), the stores that write every element of every
// output exactly once, the signature and the run description.
//
//===----------------------------------------------------------------------===//

#include "GenImpl.h"

#include <cstdio>
#include <sstream>

using namespace tilec::gen;
using namespace tilec::gen::detail;

//===----------------------------------------------------------------------===//
// Choice sources
//===----------------------------------------------------------------------===//

uint64_t SeededChoices::below(uint64_t bound) {
  if (bound <= 1)
    return 0;
  return random.next() % bound;
}

uint64_t ByteChoices::below(uint64_t bound) {
  if (bound <= 1)
    return 0;
  uint64_t value = 0;
  for (uint64_t range = 1; range < bound && range != 0; range <<= 8) {
    value = (value << 8) | (size ? *data : 0);
    if (size) {
      ++data;
      --size;
    }
  }
  return value % bound;
}

//===----------------------------------------------------------------------===//
// Kernel state
//===----------------------------------------------------------------------===//

KernelGen::KernelGen(ChoiceSource &choices, const GenOptions &options)
    : c(choices), options(options) {}

std::string KernelGen::freshName(const char *prefix) {
  return prefix + std::to_string(nameCounter++);
}

void KernelGen::emit(const std::string &line) {
  lines.push_back(std::string(4 * indent, ' ') + line);
}

std::string KernelGen::addInput(DType type, uint64_t count) {
  ParamSpec p;
  p.name = freshName("x");
  p.kind = ParamSpec::Kind::Input;
  p.dtype = typeName(type);
  p.count = std::max<uint64_t>(count, 1);
  static const double floatRanges[][2] = {
      {-1, 1}, {-1, 1}, {-1, 1}, {0.5, 2}, {-4, 4}};
  static const double intRanges[][2] = {{-8, 8}, {0, 16}, {-100, 100}};
  const double *range =
      type == DType::I32 ? intRanges[c.below(3)] : floatRanges[c.below(5)];
  p.lo = range[0];
  p.hi = range[1];
  params.push_back(p);
  return p.name;
}

std::string KernelGen::addScalar(DType type, double value, std::string name) {
  ParamSpec p;
  p.name = name.empty() ? freshName("s") : name;
  p.kind = ParamSpec::Kind::Scalar;
  p.dtype = typeName(type);
  p.value = value;
  params.push_back(p);
  return p.name;
}

const ParamSpec &KernelGen::param(const std::string &name) const {
  for (const ParamSpec &p : params)
    if (p.name == name)
      return p;
  return params.front();
}

void KernelGen::loadAddress(Shape shape, std::string &offsets,
                            std::string &mask, uint64_t &count) const {
  const Axis &rows = dom.rows, &cols = dom.cols;
  switch (shape) {
  case Shape::Scalar:
    offsets = "prog";
    mask.clear();
    count = rows.programs * (dom.twoD ? cols.programs : 1);
    return;
  case Shape::Row:
  case Shape::Col: {
    const Axis &axis = shape == Shape::Row ? rows : cols;
    offsets = axis.index;
    mask = axis.mask;
    count = static_cast<uint64_t>(axis.extent);
    return;
  }
  case Shape::Tile:
    offsets = "toffs";
    mask = "tmask";
    count = static_cast<uint64_t>(rows.extent * cols.extent);
    return;
  }
}

int64_t KernelGen::reducedLength(Shape shape, int axis) const {
  switch (shape) {
  case Shape::Row:
    return dom.rows.block;
  case Shape::Col:
    return dom.cols.block;
  case Shape::Tile:
    return axis == 0   ? dom.rows.block
           : axis == 1 ? dom.cols.block
                       : dom.rows.block * dom.cols.block;
  default:
    return 1;
  }
}

void KernelGen::defineVar(const std::string &name, DType type, Shape shape,
                          double lo, double hi) {
  Value v;
  v.text = name;
  v.type = type;
  v.shape = shape;
  v.lo = lo;
  v.hi = hi;
  vars.push_back(v);
}

//===----------------------------------------------------------------------===//
// The domain
//===----------------------------------------------------------------------===//

namespace {
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace

std::string KernelGen::indexLine(const char *name, const char *pid,
                                 const char *block) {
  std::string start = std::string(pid) + " * " + block;
  std::string line = std::string(name) + " = ";
  // Hints whose promises hold: the start is a multiple of the block, and
  // the indices are runs of `block` consecutive values.
  if (c.chance(25)) {
    feature("hints");
    start = "multiple_of(" + start + ", " + block + ")";
  }
  std::string index = start + " + arange(0, " + block + ")";
  if (c.chance(25)) {
    feature("hints");
    index = "max_contiguous(" + index + ", " + block + ")";
  }
  return line + index;
}

void KernelGen::setUpAxis(Axis &axis, int64_t block, const char *blockName,
                          const char *size) {
  axis.block = block;
  axis.blockName = blockName;
  axis.size = size;
  // Ragged sizes, now and then an exact multiple of the block.
  axis.extent =
      c.chance(15) ? block * c.inRange(1, 3) : c.inRange(1, 3 * block);
  if (block * 3 > 4096)
    axis.extent = std::min<int64_t>(axis.extent, 4096);
  axis.programs =
      static_cast<uint64_t>(cdiv(axis.extent, block) + (c.chance(15) ? 1 : 0));
  addScalar(DType::I32, static_cast<double>(axis.extent), size);
  ParamSpec p;
  p.name = blockName;
  p.kind = ParamSpec::Kind::Constexpr;
  p.dtype = "i32";
  p.value = static_cast<double>(block);
  constexprs.push_back(p);
}

void KernelGen::setUpDomain() {
  static const unsigned warps[] = {4, 4, 4, 1, 2, 8};
  numWarps = warps[c.below(6)];
  unsigned mode = c.below(10);
  dom.dot = options.allowDot && mode >= 7;
  dom.twoD = dom.dot || mode >= 3;
  if (!dom.twoD) {
    int64_t block = int64_t(1)
                    << (c.chance(10) ? c.inRange(0, 3) : c.inRange(4, 10));
    setUpAxis(dom.rows, block, "BLOCK", "n");
    dom.rows.index = "offs";
    dom.rows.mask = "mask";
    dom.rows.pid = "pid";
    dom.cols = dom.rows;
    emit(std::string("pid = ") +
         (c.chance(30) ? "tl.program_id(axis=0)" : "program_id(0)"));
    emit(indexLine("offs", "pid", "BLOCK"));
    emit("mask = offs < n");
    emit("prog = pid");
    double programs = static_cast<double>(dom.rows.programs);
    defineVar("pid", DType::I32, Shape::Scalar, 0, programs - 1);
    defineVar("offs", DType::I32, Shape::Row, 0,
              programs * static_cast<double>(block) - 1);
    defineVar("mask", DType::I1, Shape::Row, 0, 1);
    return;
  }
  int64_t bm, bn;
  if (dom.dot) {
    bm = int64_t(16) << c.below(4);
    bn = int64_t(16) << c.below(4);
    if (bm * bn > 8192)
      bn = 8192 / bm;
    dom.dotType = options.allowF16 && c.chance(60) ? DType::F16 : DType::F32;
    dom.blockK = int64_t(16) << c.below(3);
    // Shared memory of the pipelined operands stays under 96 KiB (sm_80
    // has 163 KiB per block).
    numStages = static_cast<unsigned>(c.inRange(1, 4));
    int64_t bytes = dom.dotType == DType::F16 ? 2 : 4;
    while (numStages * (bm + bn) * dom.blockK * bytes > 96 * 1024)
      dom.blockK > 16 ? dom.blockK /= 2 : --numStages;
  } else {
    int64_t logM = c.inRange(0, 7), logN = c.inRange(0, 7);
    while (logM + logN > 12)
      logM > logN ? --logM : --logN;
    bm = int64_t(1) << logM;
    bn = int64_t(1) << logN;
  }
  setUpAxis(dom.rows, bm, "BM", "m");
  setUpAxis(dom.cols, bn, "BN", "n");
  dom.rows.index = "rows";
  dom.rows.mask = "rmask";
  dom.rows.pid = "pid_m";
  dom.cols.index = "cols";
  dom.cols.mask = "cmask";
  dom.cols.pid = "pid_n";
  emit("pid_m = program_id(0)");
  emit(std::string("pid_n = ") +
       (c.chance(30) ? "tl.program_id(axis=1)" : "program_id(1)"));
  emit(indexLine("rows", "pid_m", "BM"));
  emit(indexLine("cols", "pid_n", "BN"));
  emit("rmask = rows < m");
  emit("cmask = cols < n");
  emit("toffs = rows[:, None] * n + cols[None, :]");
  emit("tmask = rmask[:, None] & cmask[None, :]");
  emit("prog = pid_m * num_programs(1) + pid_n");
  double gm = static_cast<double>(dom.rows.programs);
  double gn = static_cast<double>(dom.cols.programs);
  double maxRow = gm * static_cast<double>(bm) - 1;
  double maxCol = gn * static_cast<double>(bn) - 1;
  defineVar("pid_m", DType::I32, Shape::Scalar, 0, gm - 1);
  defineVar("pid_n", DType::I32, Shape::Scalar, 0, gn - 1);
  defineVar("rows", DType::I32, Shape::Row, 0, maxRow);
  defineVar("cols", DType::I32, Shape::Col, 0, maxCol);
  defineVar("rmask", DType::I1, Shape::Row, 0, 1);
  defineVar("cmask", DType::I1, Shape::Col, 0, 1);
  defineVar("tmask", DType::I1, Shape::Tile, 0, 1);
  if (maxRow * static_cast<double>(dom.cols.extent) + maxCol < kMaxInt)
    defineVar("toffs", DType::I32, Shape::Tile, 0,
              maxRow * static_cast<double>(dom.cols.extent) + maxCol);
  if (dom.dot) {
    dom.extentK =
        c.chance(40) ? c.inRange(1, dom.blockK) : c.inRange(1, 4 * dom.blockK);
    addScalar(DType::I32, static_cast<double>(dom.extentK), "k");
    ParamSpec p;
    p.name = "BK";
    p.kind = ParamSpec::Kind::Constexpr;
    p.dtype = "i32";
    p.value = static_cast<double>(dom.blockK);
    constexprs.push_back(p);
  }
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

std::string KernelGen::signature() const {
  std::string text = "def " + options.kernelName + "(";
  bool first = true;
  for (const ParamSpec &p : params) {
    text += (first ? "" : ", ") + p.name + ": " +
            (p.kind == ParamSpec::Kind::Scalar ? "" : "*") + p.dtype;
    first = false;
  }
  for (const ParamSpec &p : constexprs)
    text += ", " + p.name +
            ": constexpr = " + std::to_string(static_cast<int64_t>(p.value));
  return text + "):";
}

GeneratedProgram KernelGen::run() {
  setUpDomain();
  firstUserVar = vars.size();
  if (dom.dot)
    dotStmt();
  int statements = static_cast<int>(c.inRange(1, options.maxStatements));
  for (int i = 0; i < statements; ++i)
    statement(0);
  storeOutputs();

  GeneratedProgram program;
  std::ostringstream os;
  os << "# Generated by tile-gen; run description in the .run.json.\n";
  if (c.chance(20))
    os << "import triton.language as tl\n";
  os << "\n@kernel";
  if (numWarps != 4 || numStages != 3 || c.chance(50)) {
    os << "(num_warps=" << numWarps;
    if (numStages != 3 || c.chance(30))
      os << ", num_stages=" << numStages;
    os << ")";
  }
  os << "\n" << signature() << "\n";
  for (const std::string &line : lines)
    os << line << "\n";
  program.source = os.str();

  RunSpec &run = program.run;
  run.kernel = options.kernelName;
  run.numWarps = numWarps;
  run.numStages = numStages;
  run.grid = {dom.rows.programs, dom.twoD ? dom.cols.programs : 1, 1};
  run.params = params;
  run.params.insert(run.params.end(), constexprs.begin(), constexprs.end());
  run.features.assign(features.begin(), features.end());
  return program;
}

GeneratedProgram tilec::gen::generateProgram(ChoiceSource &choices,
                                             const GenOptions &options) {
  KernelGen gen(choices, options);
  return gen.run();
}

//===----------------------------------------------------------------------===//
// The run description
//===----------------------------------------------------------------------===//

namespace {
std::string jsonNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

const char *kindName(ParamSpec::Kind kind) {
  switch (kind) {
  case ParamSpec::Kind::Input:
    return "input";
  case ParamSpec::Kind::Output:
    return "output";
  case ParamSpec::Kind::Scalar:
    return "scalar";
  default:
    return "constexpr";
  }
}
} // namespace

std::string RunSpec::toJSON() const {
  std::ostringstream os;
  os << "{\n  \"kernel\": \"" << kernel << "\",\n"
     << "  \"num_warps\": " << numWarps << ",\n"
     << "  \"num_stages\": " << numStages << ",\n"
     << "  \"grid\": [" << grid[0] << ", " << grid[1] << ", " << grid[2]
     << "],\n  \"params\": [";
  for (size_t i = 0; i < params.size(); ++i) {
    const ParamSpec &p = params[i];
    os << (i ? ",\n" : "\n") << "    {\"name\": \"" << p.name
       << "\", \"kind\": \"" << kindName(p.kind) << "\", \"dtype\": \""
       << p.dtype << "\"";
    switch (p.kind) {
    case ParamSpec::Kind::Input:
      os << ", \"count\": " << p.count << ", \"lo\": " << jsonNumber(p.lo)
         << ", \"hi\": " << jsonNumber(p.hi);
      break;
    case ParamSpec::Kind::Output:
      os << ", \"count\": " << p.count << ", \"atol\": " << jsonNumber(p.atol);
      break;
    default:
      os << ", \"value\": " << jsonNumber(p.value);
      break;
    }
    os << "}";
  }
  os << "\n  ],\n  \"features\": [";
  for (size_t i = 0; i < features.size(); ++i)
    os << (i ? ", " : "") << "\"" << features[i] << "\"";
  os << "]\n}\n";
  return os.str();
}
