//===- LayoutProgramGenerator.cpp - Random valid tilegpu modules ----------===//
//
// Writes the module as MLIR text: the layouts first (as attribute aliases),
// then one kernel `@lgen` that indexes a row-major M x N block, loads it in
// its first blocked layout, applies random steps to a pool of 2-D values
// (each in some layout) and stores the last value where it loaded.
//
//===----------------------------------------------------------------------===//

#include "LayoutProgramGenerator.h"

#include <map>
#include <sstream>
#include <utility>
#include <vector>

using namespace tilec::gen;

namespace {
enum class LayoutKind { Blocked, Mma, DotOperand };

struct Layout {
  std::string name;
  LayoutKind kind;
};

/// A 2-D value of the block's element type in layout `layout`.
struct PoolValue {
  std::string name;
  unsigned layout;
};

unsigned log2Of(uint64_t value) {
  unsigned bits = 0;
  while (value > 1) {
    value >>= 1;
    ++bits;
  }
  return bits;
}

class Generator {
public:
  Generator(ChoiceSource &choices, const LayoutGenOptions &options)
      : choices(choices), options(options) {}

  LayoutProgram run();

private:
  int64_t pow2Below(unsigned maxLog2) {
    return int64_t(1) << choices.below(maxLog2 + 1);
  }
  std::string fresh() { return "%v" + std::to_string(nextValue++); }
  std::string shape2() const {
    return std::to_string(rows) + "x" + std::to_string(cols);
  }
  std::string tensor(const std::string &shape, const std::string &element,
                     const std::string &layout) const {
    return "tensor<" + shape + "x" + element + ", #" + layout + ">";
  }
  std::string tensor2(unsigned layout) const {
    return tensor(shape2(), element, layouts[layout].name);
  }

  unsigned addLayout(const std::string &prefix, LayoutKind kind,
                     const std::string &definition);
  unsigned newBlocked();
  unsigned newMma();
  unsigned dotOperand(unsigned opIdx);
  std::string slice(unsigned blocked, unsigned dim);
  unsigned pickBlocked();

  std::string convert(const PoolValue &value, unsigned layout);
  std::string expandAndBroadcast(const std::string &value, unsigned blocked,
                                 unsigned axis, const std::string &element);
  void emitIndexing();
  void step();

  ChoiceSource &choices;
  const LayoutGenOptions &options;
  unsigned warps = 4;
  int64_t rows = 1, cols = 1;
  std::string element = "f32";
  std::vector<Layout> layouts;
  std::vector<std::string> definitions;
  std::map<std::pair<unsigned, unsigned>, std::string> slices;
  std::ostringstream body;
  unsigned nextValue = 0;
  std::vector<PoolValue> pool;
  std::string offsets;
};

unsigned Generator::addLayout(const std::string &prefix, LayoutKind kind,
                              const std::string &definition) {
  std::string name = prefix + std::to_string(layouts.size());
  definitions.push_back("#" + name + " = " + definition);
  layouts.push_back({name, kind});
  return layouts.size() - 1;
}

unsigned Generator::newBlocked() {
  int64_t perThread0 = pow2Below(3), perThread1 = pow2Below(3);
  int64_t lanes0 = pow2Below(5);
  int64_t warps0 = pow2Below(log2Of(warps));
  bool rowMajor = choices.below(10) < 7;
  std::ostringstream os;
  os << "#tilegpu.blocked<{sizePerThread = [" << perThread0 << ", "
     << perThread1 << "], threadsPerWarp = [" << lanes0 << ", " << 32 / lanes0
     << "], warpsPerCTA = [" << warps0 << ", " << warps / warps0
     << "], order = " << (rowMajor ? "[1, 0]" : "[0, 1]") << "}>";
  return addLayout("b", LayoutKind::Blocked, os.str());
}

unsigned Generator::newMma() {
  int64_t warps0 = pow2Below(log2Of(warps));
  std::ostringstream os;
  os << "#tilegpu.mma<{versionMajor = 2, warpsPerCTA = [" << warps0 << ", "
     << warps / warps0 << "], instrShape = [16, 8]}>";
  return addLayout("m", LayoutKind::Mma, os.str());
}

unsigned Generator::dotOperand(unsigned opIdx) {
  unsigned parent = 0;
  std::vector<unsigned> mmas;
  for (unsigned i = 0; i < layouts.size(); ++i)
    if (layouts[i].kind == LayoutKind::Mma)
      mmas.push_back(i);
  parent = mmas.empty() ? newMma() : mmas[choices.below(mmas.size())];
  std::ostringstream os;
  os << "#tilegpu.dot_op<{opIdx = " << opIdx << ", parent = #"
     << layouts[parent].name << ", kWidth = " << (element == "f16" ? 2 : 1)
     << "}>";
  return addLayout("d", LayoutKind::DotOperand, os.str());
}

std::string Generator::slice(unsigned blocked, unsigned dim) {
  auto [it, inserted] = slices.try_emplace({blocked, dim});
  if (inserted) {
    it->second = "s" + std::to_string(blocked) + "_" + std::to_string(dim);
    definitions.push_back("#" + it->second +
                          " = #tilegpu.slice<{dim = " + std::to_string(dim) +
                          ", parent = #" + layouts[blocked].name + "}>");
  }
  return it->second;
}

unsigned Generator::pickBlocked() {
  std::vector<unsigned> blocked;
  for (unsigned i = 0; i < layouts.size(); ++i)
    if (layouts[i].kind == LayoutKind::Blocked)
      blocked.push_back(i);
  if (blocked.empty() || choices.below(4) == 0)
    return newBlocked();
  return blocked[choices.below(blocked.size())];
}

std::string Generator::convert(const PoolValue &value, unsigned layout) {
  if (value.layout == layout)
    return value.name;
  std::string result = fresh();
  body << "    " << result << " = tilegpu.convert_layout " << value.name
       << " : " << tensor2(value.layout) << " -> " << tensor2(layout) << "\n";
  return result;
}

/// `value`, a 1-D block in the slice of `blocked` along `axis`, as a 2-D
/// M x N block of `blocked`.
std::string Generator::expandAndBroadcast(const std::string &value,
                                          unsigned blocked, unsigned axis,
                                          const std::string &elementType) {
  int64_t length = axis == 0 ? cols : rows;
  std::string unit =
      axis == 0 ? "1x" + std::to_string(cols) : std::to_string(rows) + "x1";
  std::string expanded = fresh();
  body << "    " << expanded << " = tile.expand_dims " << value
       << " {axis = " << axis << " : i32} : "
       << tensor(std::to_string(length), elementType, slice(blocked, axis))
       << " -> " << tensor(unit, elementType, layouts[blocked].name) << "\n";
  if (unit == shape2())
    return expanded;
  std::string broadcast = fresh();
  body << "    " << broadcast << " = tile.broadcast " << expanded << " : "
       << tensor(unit, elementType, layouts[blocked].name) << " -> "
       << tensor(shape2(), elementType, layouts[blocked].name) << "\n";
  return broadcast;
}

/// Row-major offsets of the block in its first layout, and the load.
void Generator::emitIndexing() {
  const std::string &first = layouts[0].name;
  std::string rowRange = fresh(), colRange = fresh();
  body << "    " << rowRange << " = tile.make_range {end = " << rows
       << " : i32, start = 0 : i32} : "
       << tensor(std::to_string(rows), "i32", slice(0, 1)) << "\n";
  std::string rowIndex = expandAndBroadcast(rowRange, 0, 1, "i32");
  body << "    " << colRange << " = tile.make_range {end = " << cols
       << " : i32, start = 0 : i32} : "
       << tensor(std::to_string(cols), "i32", slice(0, 0)) << "\n";
  std::string colIndex = expandAndBroadcast(colRange, 0, 0, "i32");
  std::string stride = fresh(), rowOffset = fresh();
  std::string indexType = tensor(shape2(), "i32", first);
  body << "    " << stride << " = arith.constant dense<" << cols
       << "> : " << indexType << "\n";
  body << "    " << rowOffset << " = arith.muli " << rowIndex << ", " << stride
       << " : " << indexType << "\n";
  offsets = fresh();
  body << "    " << offsets << " = arith.addi " << rowOffset << ", " << colIndex
       << " : " << indexType << "\n";
  std::string pointers = fresh(), addresses = fresh(), loaded = fresh();
  std::string pointerType =
      tensor(shape2(), "!tile.ptr<" + element + ">", first);
  body << "    " << pointers << " = tile.splat %in : " << pointerType << "\n";
  body << "    " << addresses << " = tile.addptr " << pointers << ", "
       << offsets << " : " << pointerType << ", " << indexType << "\n";
  body << "    " << loaded << " = tile.load " << addresses << " : "
       << pointerType << "\n";
  pool.push_back({loaded, 0});
}

void Generator::step() {
  const PoolValue value = pool[choices.below(pool.size())];
  switch (choices.below(6)) {
  case 0: { // unary
    static const char *const ops[] = {"arith.negf", "math.absf", "math.exp"};
    unsigned op = choices.below(element == "f32" ? 3 : 2);
    std::string result = fresh();
    body << "    " << result << " = " << ops[op] << " " << value.name << " : "
         << tensor2(value.layout) << "\n";
    pool.push_back({result, value.layout});
    return;
  }
  case 1: { // binary, the second operand converted to the first's layout
    static const char *const ops[] = {"arith.addf", "arith.mulf",
                                      "arith.maximumf", "arith.subf"};
    const PoolValue other = pool[choices.below(pool.size())];
    std::string rhs = convert(other, value.layout);
    std::string result = fresh();
    body << "    " << result << " = " << ops[choices.below(4)] << " "
         << value.name << ", " << rhs << " : " << tensor2(value.layout) << "\n";
    pool.push_back({result, value.layout});
    return;
  }
  case 2:
  case 3: { // a conversion to another blocked or mma layout
    unsigned target = options.allowMma && choices.below(4) == 0
                          ? (choices.below(2) ? newMma() : pickBlocked())
                          : pickBlocked();
    std::string result = convert(value, target);
    pool.push_back({result, target});
    return;
  }
  case 4: { // a round trip through a dot-operand layout
    if (!options.allowMma)
      return;
    unsigned operand = dotOperand(choices.below(2));
    std::string there = convert(value, operand);
    unsigned back = pickBlocked();
    std::string result = convert({there, operand}, back);
    pool.push_back({result, back});
    return;
  }
  default: { // a reduction along one axis, broadcast back
    unsigned blocked = layouts[value.layout].kind == LayoutKind::Blocked
                           ? value.layout
                           : pickBlocked();
    std::string source = convert(value, blocked);
    unsigned axis = choices.below(2);
    static const char *const kinds[] = {"sum", "max", "min"};
    std::string reduced = fresh();
    int64_t length = axis == 0 ? cols : rows;
    body << "    " << reduced << " = tile.reduce " << kinds[choices.below(3)]
         << " " << source << " axis = " << axis << " : " << tensor2(blocked)
         << " -> "
         << tensor(std::to_string(length), element, slice(blocked, axis))
         << "\n";
    std::string result = expandAndBroadcast(reduced, blocked, axis, element);
    pool.push_back({result, blocked});
    return;
  }
  }
}

LayoutProgram Generator::run() {
  warps = unsigned(1) << choices.below(4);
  element = choices.below(3) == 0 ? "f16" : "f32";
  unsigned maxLog2 = log2Of(options.maxElements);
  unsigned rowBits = choices.below(std::min(7u, maxLog2) + 1);
  unsigned colBits = choices.below(std::min(7u, maxLog2 - rowBits) + 1);
  rows = int64_t(1) << rowBits;
  cols = int64_t(1) << colBits;
  newBlocked();
  emitIndexing();
  unsigned steps = 1 + choices.below(options.maxSteps);
  for (unsigned i = 0; i < steps; ++i)
    step();
  std::string result = convert(pool.back(), 0);
  std::string pointers = fresh(), addresses = fresh();
  std::string pointerType =
      tensor(shape2(), "!tile.ptr<" + element + ">", layouts[0].name);
  body << "    " << pointers << " = tile.splat %out : " << pointerType << "\n";
  body << "    " << addresses << " = tile.addptr " << pointers << ", "
       << offsets << " : " << pointerType << ", "
       << tensor(shape2(), "i32", layouts[0].name) << "\n";
  body << "    tile.store " << addresses << ", " << result << " : "
       << pointerType << "\n";

  LayoutProgram program;
  program.kernel = "lgen";
  program.numWarps = warps;
  std::ostringstream os;
  for (const std::string &definition : definitions)
    os << definition << "\n";
  std::string pointer = "!tile.ptr<" + element + ">";
  os << "module attributes {tilegpu.num_warps = " << warps << " : i32} {\n"
     << "  func.func @" << program.kernel << "(%out: " << pointer
     << " {tile.divisibility = 16 : i32}, %in: " << pointer
     << " {tile.divisibility = 16 : i32}) attributes {tile.kernel} {\n"
     << body.str() << "    return\n  }\n}\n";
  program.text = os.str();
  return program;
}
} // namespace

LayoutProgram
tilec::gen::generateLayoutProgram(ChoiceSource &choices,
                                  const LayoutGenOptions &options) {
  return Generator(choices, options).run();
}
