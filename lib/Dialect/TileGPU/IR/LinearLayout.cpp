//===- LinearLayout.cpp - Layouts as linear maps over F2 ------------------===//
//
// The algebra of LinearLayout: evaluation, products, composition, the
// inversions conversions are chosen with, and the registers that hold
// elements of one run (getRunRepresentatives). Inversion solves linear systems
// over F2 by Gaussian elimination on bit vectors: every basis is flattened
// into one 64-bit word over all output bits (tilegpu's blocks have at most
// 2^20 elements and layouts at most 2^30 places, so both fit).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <map>

using namespace mlir::tilegpu;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

std::string layout_dims::getBlockDimName(unsigned d) {
  return "dim" + std::to_string(d);
}

LinearLayout::LinearLayout(SmallVector<InputDim> inputs,
                           SmallVector<OutputDim> outputs)
    : inputs(std::move(inputs)), outputs(std::move(outputs)) {
#ifndef NDEBUG
  for (const InputDim &in : this->inputs)
    for (const Basis &basis : in.bases) {
      assert(basis.size() == this->outputs.size() && "one value per output");
      for (auto [value, out] : llvm::zip(basis, this->outputs))
        assert(value >= 0 && value < (int64_t(1) << out.log2Size) &&
               "basis value outside its output");
    }
#endif
}

LinearLayout LinearLayout::identity1D(int32_t size, StringRef in,
                                      StringRef out) {
  unsigned bits = llvm::Log2_32(size);
  InputDim input{in.str(), {}};
  for (unsigned i = 0; i < bits; ++i)
    input.bases.push_back({int32_t(1) << i});
  return LinearLayout({std::move(input)}, {{out.str(), bits}});
}

LinearLayout LinearLayout::zeros1D(int32_t size, StringRef in, StringRef out) {
  InputDim input{in.str(), {}};
  for (unsigned i = 0, e = llvm::Log2_32(size); i < e; ++i)
    input.bases.push_back({0});
  return LinearLayout({std::move(input)}, {{out.str(), 0}});
}

int LinearLayout::findInput(StringRef name) const {
  for (auto [i, in] : llvm::enumerate(inputs))
    if (in.name == name)
      return i;
  return -1;
}

int LinearLayout::findOutput(StringRef name) const {
  for (auto [i, out] : llvm::enumerate(outputs))
    if (out.name == name)
      return i;
  return -1;
}

bool LinearLayout::hasInput(StringRef name) const {
  return findInput(name) >= 0;
}

bool LinearLayout::hasOutput(StringRef name) const {
  return findOutput(name) >= 0;
}

unsigned LinearLayout::getInputLog2Size(StringRef name) const {
  int i = findInput(name);
  return i < 0 ? 0 : inputs[i].bases.size();
}

unsigned LinearLayout::getOutputLog2Size(StringRef name) const {
  int i = findOutput(name);
  return i < 0 ? 0 : outputs[i].log2Size;
}

ArrayRef<LinearLayout::Basis> LinearLayout::getBases(StringRef name) const {
  int i = findInput(name);
  if (i < 0)
    return {};
  return inputs[i].bases;
}

unsigned LinearLayout::getTotalInputBits() const {
  unsigned bits = 0;
  for (const InputDim &in : inputs)
    bits += in.bases.size();
  return bits;
}

unsigned LinearLayout::getTotalOutputBits() const {
  unsigned bits = 0;
  for (const OutputDim &out : outputs)
    bits += out.log2Size;
  return bits;
}

SmallVector<int32_t> LinearLayout::apply(ArrayRef<int32_t> inputValues) const {
  assert(inputValues.size() == inputs.size() && "one value per input");
  SmallVector<int32_t> result(outputs.size(), 0);
  for (auto [in, value] : llvm::zip(inputs, inputValues))
    for (auto [bit, basis] : llvm::enumerate(in.bases))
      if ((value >> bit) & 1)
        for (auto [r, b] : llvm::zip(result, basis))
          r ^= b;
  return result;
}

SmallVector<int32_t> LinearLayout::applyOne(StringRef name,
                                            int32_t value) const {
  SmallVector<int32_t> values(inputs.size(), 0);
  int i = findInput(name);
  if (i >= 0)
    values[i] = value;
  return apply(values);
}

LinearLayout LinearLayout::operator*(const LinearLayout &high) const {
  // Outputs: ours, then those only `high` has; a shared one is as wide as
  // both together, ours the low bits.
  SmallVector<OutputDim> outs(outputs);
  SmallVector<unsigned> highShift, highIndex;
  for (const OutputDim &out : high.outputs) {
    int mine = findOutput(out.name);
    if (mine < 0) {
      highShift.push_back(0);
      highIndex.push_back(outs.size());
      outs.push_back(out);
      continue;
    }
    highShift.push_back(outputs[mine].log2Size);
    highIndex.push_back(mine);
    outs[mine].log2Size += out.log2Size;
  }
  auto widen = [&](const Basis &basis) {
    Basis wide(basis);
    wide.resize(outs.size(), 0);
    return wide;
  };
  auto lift = [&](const Basis &basis) {
    Basis wide(outs.size(), 0);
    for (auto [i, value] : llvm::enumerate(basis))
      wide[highIndex[i]] = value << highShift[i];
    return wide;
  };
  SmallVector<InputDim> ins;
  for (const InputDim &in : inputs) {
    InputDim &merged = ins.emplace_back(InputDim{in.name, {}});
    for (const Basis &basis : in.bases)
      merged.bases.push_back(widen(basis));
    if (int h = high.findInput(in.name); h >= 0)
      for (const Basis &basis : high.inputs[h].bases)
        merged.bases.push_back(lift(basis));
  }
  for (const InputDim &in : high.inputs) {
    if (hasInput(in.name))
      continue;
    InputDim &added = ins.emplace_back(InputDim{in.name, {}});
    for (const Basis &basis : in.bases)
      added.bases.push_back(lift(basis));
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

LinearLayout LinearLayout::compose(const LinearLayout &outer) const {
  SmallVector<InputDim> ins;
  for (const InputDim &in : inputs) {
    InputDim &composed = ins.emplace_back(InputDim{in.name, {}});
    for (const Basis &basis : in.bases) {
      SmallVector<int32_t> values(outer.inputs.size(), 0);
      for (auto [i, out] : llvm::enumerate(outputs)) {
        int o = outer.findInput(out.name);
        assert((o >= 0 || basis[i] == 0) && "outer lacks an input");
        if (o >= 0)
          values[o] = basis[i];
      }
      composed.bases.push_back(Basis(outer.apply(values)));
    }
  }
  return LinearLayout(std::move(ins), outer.outputs);
}

uint64_t LinearLayout::flatten(const Basis &basis) const {
  uint64_t bits = 0;
  unsigned shift = 0;
  for (auto [value, out] : llvm::zip(basis, outputs)) {
    bits |= uint64_t(value) << shift;
    shift += out.log2Size;
  }
  return bits;
}

LinearLayout::Basis LinearLayout::unflatten(uint64_t bits) const {
  Basis basis;
  for (const OutputDim &out : outputs) {
    basis.push_back(int32_t(bits & ((uint64_t(1) << out.log2Size) - 1)));
    bits >>= out.log2Size;
  }
  return basis;
}

SmallVector<uint64_t> LinearLayout::getColumns() const {
  SmallVector<uint64_t> columns;
  for (const InputDim &in : inputs)
    for (const Basis &basis : in.bases)
      columns.push_back(flatten(basis));
  return columns;
}

namespace {
/// Vectors over F2 (64-bit words) kept in echelon form by their highest
/// bit, each with the combination of original columns it is (`mask`):
/// solves "which columns XOR to b".
class XorBasis {
public:
  /// Adds a column (bit `index` of the masks); false if it depends on the
  /// columns added before.
  bool add(uint64_t column, unsigned index) {
    uint64_t mask = uint64_t(1) << index;
    for (int bit = 63; bit >= 0 && column; --bit) {
      if (!((column >> bit) & 1))
        continue;
      if (!pivots[bit].vector) {
        pivots[bit] = {column, mask};
        return true;
      }
      column ^= pivots[bit].vector;
      mask ^= pivots[bit].mask;
    }
    return false;
  }
  /// The columns whose XOR is `target`, or std::nullopt.
  std::optional<uint64_t> solve(uint64_t target) const {
    uint64_t mask = 0;
    for (int bit = 63; bit >= 0 && target; --bit) {
      if (!((target >> bit) & 1))
        continue;
      if (!pivots[bit].vector)
        return std::nullopt;
      target ^= pivots[bit].vector;
      mask ^= pivots[bit].mask;
    }
    return mask;
  }
  unsigned getRank() const {
    return llvm::count_if(pivots, [](const Pivot &p) { return p.vector; });
  }

private:
  struct Pivot {
    uint64_t vector = 0, mask = 0;
  };
  Pivot pivots[64];
};
} // namespace

bool LinearLayout::isSurjective() const {
  XorBasis basis;
  for (auto [i, column] : llvm::enumerate(getColumns()))
    basis.add(column, i);
  return basis.getRank() == getTotalOutputBits();
}

bool LinearLayout::isInjective() const {
  XorBasis basis;
  for (auto [i, column] : llvm::enumerate(getColumns()))
    if (!basis.add(column, i))
      return false;
  return true;
}

std::optional<LinearLayout>
LinearLayout::invertAndCompose(const LinearLayout &other) const {
  SmallVector<uint64_t> columns = getColumns();
  XorBasis basis;
  for (auto [i, column] : llvm::enumerate(columns))
    basis.add(column, i);
  // Where each of this layout's inputs starts among the flattened bits.
  SmallVector<unsigned> inputStart;
  unsigned start = 0;
  for (const InputDim &in : inputs) {
    inputStart.push_back(start);
    start += in.bases.size();
  }

  SmallVector<InputDim> ins;
  for (const InputDim &in : other.inputs) {
    InputDim &result = ins.emplace_back(InputDim{in.name, {}});
    int same = findInput(in.name);
    for (auto [bit, otherBasis] : llvm::enumerate(in.bases)) {
      // `other`'s basis in terms of this layout's outputs.
      Basis values(outputs.size(), 0);
      for (auto [o, out] : llvm::enumerate(other.outputs)) {
        int mine = findOutput(out.name);
        if (mine < 0) {
          if (otherBasis[o] != 0)
            return std::nullopt;
          continue;
        }
        if (otherBasis[o] >= (int64_t(1) << outputs[mine].log2Size))
          return std::nullopt;
        values[mine] = otherBasis[o];
      }
      uint64_t target = flatten(values);
      std::optional<uint64_t> mask;
      if (same >= 0 && bit < inputs[same].bases.size() &&
          columns[inputStart[same] + bit] == target)
        mask = uint64_t(1) << (inputStart[same] + bit);
      else
        mask = basis.solve(target);
      if (!mask)
        return std::nullopt;
      Basis image;
      for (auto [k, myIn] : llvm::enumerate(inputs))
        image.push_back(int32_t((*mask >> inputStart[k]) &
                                ((uint64_t(1) << myIn.bases.size()) - 1)));
      result.bases.push_back(std::move(image));
    }
  }
  SmallVector<OutputDim> outs;
  for (const InputDim &in : inputs)
    outs.push_back({in.name, unsigned(in.bases.size())});
  return LinearLayout(std::move(ins), std::move(outs));
}

std::optional<LinearLayout> LinearLayout::invert() const {
  if (getTotalInputBits() != getTotalOutputBits() || !isInjective())
    return std::nullopt;
  LinearLayout identity;
  for (const OutputDim &out : outputs)
    identity =
        identity * identity1D(int32_t(1) << out.log2Size, out.name, out.name);
  return invertAndCompose(identity);
}

LinearLayout LinearLayout::sublayout(ArrayRef<StringRef> inputNames,
                                     ArrayRef<StringRef> outputNames) const {
  SmallVector<int> outIndex;
  SmallVector<OutputDim> outs;
  for (StringRef name : outputNames) {
    int o = findOutput(name);
    if (o < 0)
      continue;
    outIndex.push_back(o);
    outs.push_back(outputs[o]);
  }
  SmallVector<InputDim> ins;
  for (StringRef name : inputNames) {
    int i = findInput(name);
    if (i < 0)
      continue;
    InputDim &kept = ins.emplace_back(InputDim{inputs[i].name, {}});
    for (const Basis &basis : inputs[i].bases) {
      Basis restricted;
      for (int o : outIndex)
        restricted.push_back(basis[o]);
      kept.bases.push_back(std::move(restricted));
    }
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

bool LinearLayout::isZero(StringRef in) const {
  return llvm::all_of(getBases(in), [](const Basis &basis) {
    return llvm::all_of(basis, [](int32_t v) { return v == 0; });
  });
}

bool LinearLayout::isIdentity(StringRef in, StringRef out) const {
  int o = findOutput(out);
  ArrayRef<Basis> bases = getBases(in);
  if (o < 0 || bases.size() != outputs[o].log2Size)
    return false;
  for (auto [bit, basis] : llvm::enumerate(bases))
    for (auto [k, value] : llvm::enumerate(basis))
      if (value != (int(k) == o ? int32_t(1) << bit : 0))
        return false;
  return true;
}

LinearLayout LinearLayout::withOutputSize(StringRef name,
                                          unsigned log2Size) const {
  LinearLayout result = *this;
  int o = findOutput(name);
  if (o < 0)
    return result;
  result.outputs[o].log2Size = log2Size;
  for (InputDim &in : result.inputs)
    for (Basis &basis : in.bases)
      basis[o] &= (int32_t(1) << log2Size) - 1;
  return result;
}

LinearLayout LinearLayout::withoutOutput(StringRef name) const {
  LinearLayout result = *this;
  int o = findOutput(name);
  if (o < 0)
    return result;
  result.outputs.erase(result.outputs.begin() + o);
  for (InputDim &in : result.inputs)
    for (Basis &basis : in.bases)
      basis.erase(basis.begin() + o);
  return result;
}

LinearLayout LinearLayout::withInputBases(StringRef name,
                                          ArrayRef<bool> keep) const {
  LinearLayout result = *this;
  int i = findInput(name);
  if (i < 0)
    return result;
  SmallVector<Basis> kept;
  for (auto [bit, basis] : llvm::enumerate(inputs[i].bases))
    if (bit < keep.size() && keep[bit])
      kept.push_back(basis);
  result.inputs[i].bases = std::move(kept);
  return result;
}

LinearLayout LinearLayout::withOutputs(ArrayRef<unsigned> order,
                                       ArrayRef<std::string> names) const {
  SmallVector<OutputDim> outs;
  for (auto [j, o] : llvm::enumerate(order))
    outs.push_back({names[j], outputs[o].log2Size});
  SmallVector<InputDim> ins;
  for (const InputDim &in : inputs) {
    InputDim &moved = ins.emplace_back(InputDim{in.name, {}});
    for (const Basis &basis : in.bases) {
      Basis permuted;
      for (unsigned o : order)
        permuted.push_back(basis[o]);
      moved.bases.push_back(std::move(permuted));
    }
  }
  return LinearLayout(std::move(ins), std::move(outs));
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  if (inputs.size() != other.inputs.size() ||
      outputs.size() != other.outputs.size())
    return false;
  for (auto [a, b] : llvm::zip(outputs, other.outputs))
    if (a.name != b.name || a.log2Size != b.log2Size)
      return false;
  for (auto [a, b] : llvm::zip(inputs, other.inputs))
    if (a.name != b.name || a.bases != b.bases)
      return false;
  return true;
}

std::string LinearLayout::str() const {
  std::string text;
  for (const InputDim &in : inputs) {
    text += in.name + ":";
    for (const Basis &basis : in.bases) {
      text += " (";
      for (auto [k, value] : llvm::enumerate(basis))
        text += (k ? ", " : "") + std::to_string(value);
      text += ")";
    }
    text += "; ";
  }
  text += "outputs";
  for (const OutputDim &out : outputs)
    text += " " + out.name + "=" + std::to_string(int64_t(1) << out.log2Size);
  return text;
}

std::optional<SmallVector<int32_t>>
mlir::tilegpu::getThreadLocalRegisterMap(const LinearLayout &src,
                                         const LinearLayout &dst) {
  namespace dims = layout_dims;
  std::optional<LinearLayout> holder = src.invertAndCompose(dst);
  if (!holder)
    return std::nullopt;
  // Lanes and warps map onto themselves; registers onto registers.
  for (StringRef thread : {dims::kLane, dims::kWarp}) {
    if (src.getInputLog2Size(thread) != dst.getInputLog2Size(thread) ||
        !holder->sublayout({thread}, {thread}).isIdentity(thread, thread) ||
        !holder->sublayout({thread}, {dims::kRegister}).isZero(thread) ||
        !holder->sublayout({dims::kRegister}, {thread}).isZero(dims::kRegister))
      return std::nullopt;
  }
  SmallVector<int32_t> map;
  for (int32_t reg = 0, e = dst.getInputSize(dims::kRegister); reg < e; ++reg)
    map.push_back(holder->applyOne(dims::kRegister, reg).front());
  return map;
}

std::optional<LinearLayout>
mlir::tilegpu::getWarpLocalHolder(const LinearLayout &src,
                                  const LinearLayout &dst) {
  namespace dims = layout_dims;
  std::optional<LinearLayout> holder = src.invertAndCompose(dst);
  if (!holder ||
      src.getInputLog2Size(dims::kWarp) != dst.getInputLog2Size(dims::kWarp) ||
      !holder->sublayout({dims::kWarp}, {dims::kWarp})
           .isIdentity(dims::kWarp, dims::kWarp) ||
      !holder->sublayout({dims::kWarp}, {dims::kRegister, dims::kLane})
           .isZero(dims::kWarp) ||
      !holder->sublayout({dims::kRegister}, {dims::kWarp})
           .isZero(dims::kRegister) ||
      !holder->sublayout({dims::kLane}, {dims::kWarp, dims::kRegister})
           .isZero(dims::kLane))
    return std::nullopt;
  return holder;
}

bool mlir::tilegpu::canExchangeInRegisters(const LinearLayout &src,
                                           const LinearLayout &dst) {
  return getThreadLocalRegisterMap(src, dst) || getWarpLocalHolder(src, dst);
}

SmallVector<int32_t>
mlir::tilegpu::getRunRepresentatives(const LinearLayout &layout,
                                     ArrayRef<int64_t> runs) {
  namespace dims = layout_dims;
  int32_t numRegisters = layout.getInputSize(dims::kRegister);
  // The bits of an element's index above its run, per output.
  auto runIndex = [&](int32_t reg) {
    SmallVector<int32_t> index = layout.applyOne(dims::kRegister, reg);
    for (size_t d = 0; d < index.size() && d < runs.size(); ++d)
      if (runs[d] > 1)
        index[d] &= ~int32_t(runs[d] - 1);
    return index;
  };
  SmallVector<int32_t> representatives;
  std::map<SmallVector<int32_t>, int32_t> firstOfRun;
  for (int32_t reg = 0; reg < numRegisters; ++reg)
    representatives.push_back(
        firstOfRun.emplace(runIndex(reg), reg).first->second);
  return representatives;
}
