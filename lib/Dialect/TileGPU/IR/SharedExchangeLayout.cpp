//===- SharedExchangeLayout.cpp - Scratch layouts of block exchanges ------===//
//
// The choice SharedExchangeLayout.h describes, over F2: every basis becomes
// a bit vector of the block's row-major element index, subspaces are kept
// in echelon form. Each candidate fixes the low offset bits (the vectors,
// then the bits within a 4-byte word); the segment bases are then taken,
// among the vectors with no low bit, as a common complement of what one
// store phase and one load phase reach (their lanes, and the offsets
// within their vector or word): unit vectors neither reaches, then sums
// a ^ b of a vector only stores reach and one only loads reach. Where the
// dimensions leave too few of those, vectors one side reaches follow, each
// doubling that side's wavefronts. The bank bases are the unit vectors
// that complete the basis.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/IR/SharedExchangeLayout.h"
#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"
#include "tilec/Dialect/TileGPU/IR/LinearLayoutConversions.h"

#include "llvm/Support/MathExtras.h"

#include <tuple>

using namespace mlir;
using namespace mlir::tilegpu;
namespace dims = mlir::tilegpu::layout_dims;

namespace {
using Bits = uint64_t;

Bits unit(unsigned i) { return Bits(1) << i; }

/// A subspace of F2^n in echelon form: rows with distinct highest bits,
/// sorted by them, highest first.
class Subspace {
public:
  /// `x` minus its part in the subspace's pivots (0 iff `x` is inside).
  Bits reduce(Bits x) const {
    for (Bits row : rows)
      if (x & highestBit(row))
        x ^= row;
    return x;
  }
  bool contains(Bits x) const { return reduce(x) == 0; }
  /// Adds `x`; false if it was already inside.
  bool insert(Bits x) {
    x = reduce(x);
    if (!x)
      return false;
    rows.insert(llvm::upper_bound(rows, x, std::greater<Bits>()), x);
    return true;
  }
  unsigned dim() const { return rows.size(); }
  ArrayRef<Bits> basis() const { return rows; }

private:
  static Bits highestBit(Bits x) { return unit(llvm::Log2_64(x)); }
  SmallVector<Bits> rows;
};

Subspace span(ArrayRef<Bits> vectors) {
  Subspace result;
  for (Bits x : vectors)
    result.insert(x);
  return result;
}

/// The intersection of span(a) and span(b) in F2^n (Zassenhaus: rows
/// (x, x) for x in a and (y, 0) for y in b; the echelon rows with no high
/// half span the intersection).
Subspace intersect(ArrayRef<Bits> a, ArrayRef<Bits> b, unsigned n) {
  Subspace joint;
  for (Bits x : a)
    joint.insert((x << n) | x);
  for (Bits y : b)
    joint.insert(y << n);
  Subspace result;
  for (Bits row : joint.basis())
    if ((row >> n) == 0)
      result.insert(row);
  return result;
}

/// Block indices as bit vectors of their row-major element index.
class IndexBits {
public:
  explicit IndexBits(ArrayRef<LinearLayout::OutputDim> outputs)
      : sizes(outputs.size()), shifts(outputs.size()) {
    for (int d = int(outputs.size()) - 1; d >= 0; --d) {
      sizes[d] = outputs[d].log2Size;
      shifts[d] = total;
      total += sizes[d];
    }
  }
  Bits flatten(const LinearLayout::Basis &basis) const {
    Bits x = 0;
    for (auto [value, shift] : llvm::zip(basis, shifts))
      x |= Bits(value) << shift;
    return x;
  }
  LinearLayout::Basis unflatten(Bits x) const {
    LinearLayout::Basis basis;
    for (auto [size, shift] : llvm::zip(sizes, shifts))
      basis.push_back(int32_t((x >> shift) & (unit(size) - 1)));
    return basis;
  }
  unsigned getNumBits() const { return total; }

private:
  SmallVector<unsigned> sizes, shifts;
  unsigned total = 0;
};

/// What the choice needs to know of one register layout.
struct Side {
  /// The images of the lane bits, in order.
  SmallVector<Bits> lanes;
  /// log2 of the distinct elements one thread holds.
  unsigned distinctLog2 = 0;
  /// The index bits a register bit moves alone and no other input bit
  /// touches, in register order: vectors of this side may span them.
  SmallVector<unsigned> vectorBits;
  /// For each index bit, the register bit that moves it alone.
  llvm::DenseMap<unsigned, unsigned> registerOf;
};

Side describe(const LinearLayout &layout, const IndexBits &index) {
  Side side;
  SmallVector<Bits> registers, threads;
  for (const LinearLayout::InputDim &in : layout.getInputs())
    for (const LinearLayout::Basis &basis : in.bases) {
      Bits x = index.flatten(basis);
      if (in.name == dims::kRegister)
        registers.push_back(x);
      else
        threads.push_back(x);
      if (in.name == dims::kLane)
        side.lanes.push_back(x);
    }
  side.distinctLog2 = span(registers).dim();
  for (auto [reg, image] : llvm::enumerate(registers)) {
    Bits x = image; // (lambdas cannot capture structured bindings in C++17)
    if (!llvm::isPowerOf2_64(x))
      continue;
    // Registers with the same image are copies; a lane or warp with it
    // would put a thread's vector off its alignment.
    unsigned b = llvm::Log2_64(x);
    bool alone =
        llvm::none_of(registers, [&](Bits y) { return y != x && (y & x); }) &&
        llvm::none_of(threads, [&](Bits y) { return y & x; });
    if (alone && !llvm::is_contained(side.vectorBits, b)) {
      side.vectorBits.push_back(b);
      side.registerOf[b] = reg;
    }
  }
  return side;
}

/// The sizes the bank model works with, as offset bits (at most the
/// block's).
struct Model {
  unsigned numBits;
  unsigned elementBytes;
  /// Offset bits within 128 bytes (a wavefront), within a 4-byte word.
  unsigned wavefrontLog2, wordLog2;
};

/// One side's accesses in a candidate layout whose lowest offset bases are
/// `low`.
struct Access {
  int64_t instructions = 0, phases = 1;
  /// What one phase reaches: its lanes, and the offsets within its vector
  /// or 4-byte word.
  Subspace reach;
};

Access describeAccess(const Side &side, ArrayRef<Bits> low, unsigned vectorLog2,
                      const Model &model) {
  unsigned bytes = model.elementBytes << vectorLog2;
  unsigned laneBits = bytes >= 4 ? std::min(5u, llvm::Log2_32(128 / bytes)) : 5;
  Access access;
  access.phases = int64_t(1) << (5 - laneBits);
  access.instructions = int64_t(1) << (side.distinctLog2 - vectorLog2);
  for (unsigned i = 0; i < laneBits && i < side.lanes.size(); ++i)
    access.reach.insert(side.lanes[i]);
  unsigned within = std::max(vectorLog2, model.wordLog2);
  for (unsigned i = 0; i < within && i < low.size(); ++i)
    access.reach.insert(low[i]);
  return access;
}

/// `count` independent vectors with no bit of `lowMask` that meet `a` and
/// `b` as little as the dimensions allow (the file header).
SmallVector<Bits> chooseSegment(const Subspace &a, const Subspace &b,
                                Bits lowMask, unsigned count, unsigned n) {
  SmallVector<Bits> free;
  for (unsigned i = 0; i < n; ++i)
    if (!(lowMask & unit(i)))
      free.push_back(unit(i));
  // Only the part of a reach without low bits can meet the segment.
  Subspace freeA = intersect(a.basis(), free, n);
  Subspace freeB = intersect(b.basis(), free, n);
  Subspace both = intersect(freeA.basis(), freeB.basis(), n);
  SmallVector<Bits> onlyA, onlyB;
  auto extend = [&](const Subspace &from, SmallVector<Bits> &only) {
    Subspace grown = both;
    for (Bits x : from.basis())
      if (grown.insert(x))
        only.push_back(x);
  };
  extend(freeA, onlyA);
  extend(freeB, onlyB);
  SmallVector<Bits> candidates;
  // Conflict-free: unit vectors neither reaches (the highest first, so the
  // banks keep the low bits), then sums across the two sides.
  Subspace reached = span(freeA.basis());
  for (Bits x : freeB.basis())
    reached.insert(x);
  for (Bits x : llvm::reverse(free))
    if (reached.insert(x))
      candidates.push_back(x);
  size_t pairs = std::min(onlyA.size(), onlyB.size());
  for (size_t i = 0; i < pairs; ++i)
    candidates.push_back(onlyA[i] ^ onlyB[i]);
  // Conflicts: one side's, then both sides'.
  candidates.append(onlyA.begin() + pairs, onlyA.end());
  candidates.append(onlyB.begin() + pairs, onlyB.end());
  llvm::append_range(candidates, both.basis());
  candidates.append(onlyA.begin(), onlyA.begin() + pairs);
  Subspace chosen;
  SmallVector<Bits> segment;
  for (Bits x : candidates)
    if (segment.size() < count && chosen.insert(x))
      segment.push_back(x);
  return segment;
}

/// A candidate layout, evaluated.
struct Choice {
  SmallVector<Bits> low, segment;
  unsigned storeLog2 = 0, loadLog2 = 0;
  int64_t storeWavefronts = 0, loadWavefronts = 0, instructions = 0;
  /// How far the registers of a loaded vector are apart: 0 when they are
  /// consecutive (its register bits the result's lowest). Values loaded
  /// together but used far apart wait in registers (the result's users
  /// take its registers in order; the source's are all live anyway).
  int64_t loadSpread = 0;

  /// Fewest wavefronts, then the least spread, then fewest instructions.
  bool isBetterThan(const Choice &other) const {
    return std::tuple(storeWavefronts + loadWavefronts, loadSpread,
                      instructions) <
           std::tuple(other.storeWavefronts + other.loadWavefronts,
                      other.loadSpread, other.instructions);
  }
};

Choice evaluate(const Side &src, const Side &dst, ArrayRef<Bits> low,
                unsigned storeLog2, unsigned loadLog2, const Model &model) {
  Access store = describeAccess(src, low, storeLog2, model);
  Access load = describeAccess(dst, low, loadLog2, model);
  Bits lowMask = 0;
  for (Bits x : low)
    lowMask |= x;
  Choice choice;
  choice.low.assign(low.begin(), low.end());
  choice.segment =
      chooseSegment(store.reach, load.reach, lowMask,
                    model.numBits - model.wavefrontLog2, model.numBits);
  choice.storeLog2 = storeLog2;
  choice.loadLog2 = loadLog2;
  auto wavefronts = [&](const Access &access) {
    unsigned conflicts =
        intersect(access.reach.basis(), choice.segment, model.numBits).dim();
    return (access.instructions * access.phases) << conflicts;
  };
  choice.storeWavefronts = wavefronts(store);
  choice.loadWavefronts = wavefronts(load);
  choice.instructions = store.instructions + load.instructions;
  for (unsigned i = 0; i < loadLog2; ++i)
    choice.loadSpread +=
        int64_t(dst.registerOf.lookup(llvm::Log2_64(low[i]))) - int64_t(i);
  return choice;
}

/// The best choice whose low bits start with `low`: elements narrower
/// than 4 bytes get low bits up to a word, tried among the lanes' unit
/// vectors and the lowest free bit.
Choice completeAndEvaluate(const Side &src, const Side &dst,
                           SmallVector<Bits> low, unsigned storeLog2,
                           unsigned loadLog2, const Model &model) {
  if (low.size() >= model.wordLog2)
    return evaluate(src, dst, low, storeLog2, loadLog2, model);
  Subspace taken = span(low);
  SmallVector<Bits> candidates;
  for (const SmallVector<Bits> *lanes : {&src.lanes, &dst.lanes})
    for (Bits x : *lanes)
      if (llvm::isPowerOf2_64(x) && !taken.contains(x) &&
          !llvm::is_contained(candidates, x))
        candidates.push_back(x);
  for (unsigned i = 0; i < model.numBits; ++i)
    if (!taken.contains(unit(i))) {
      if (!llvm::is_contained(candidates, unit(i)))
        candidates.push_back(unit(i));
      break;
    }
  std::optional<Choice> best;
  for (Bits x : candidates) {
    SmallVector<Bits> grown = low;
    grown.push_back(x);
    Choice choice =
        completeAndEvaluate(src, dst, grown, storeLog2, loadLog2, model);
    if (!best || choice.isBetterThan(*best))
      best = std::move(choice);
  }
  return *best;
}
} // namespace

int64_t SharedExchangeLayout::getScratchBytes() const {
  return int64_t(elementBytes) << scratch.getTotalInputBits();
}

std::optional<SharedExchangeLayout> mlir::tilegpu::getSharedExchangeLayout(
    const LinearLayout &src, const LinearLayout &dst, unsigned elementBytes) {
  ArrayRef<LinearLayout::OutputDim> outputs = src.getOutputs();
  if (outputs.size() != dst.getOutputs().size() ||
      !llvm::isPowerOf2_32(elementBytes) || elementBytes > 16)
    return std::nullopt;
  for (auto [a, b] : llvm::zip(outputs, dst.getOutputs()))
    if (a.name != b.name || a.log2Size != b.log2Size)
      return std::nullopt;
  IndexBits index(outputs);
  unsigned n = index.getNumBits();
  if (n > 30)
    return std::nullopt;
  Model model{n, elementBytes,
              std::min(n, llvm::Log2_32(std::max(1u, 128 / elementBytes))),
              std::min(n, llvm::Log2_32(std::max(1u, 4 / elementBytes)))};
  Side from = describe(src, index), to = describe(dst, index);

  // Vectors: bits both sides hold in registers, then possibly bits of one
  // side only (its accesses wider than the other's); at most 16 bytes.
  unsigned maxVectorLog2 =
      std::min(n, llvm::Log2_32(std::max(1u, 16 / elementBytes)));
  // In the result's register order (Choice::loadSpread).
  SmallVector<unsigned> common;
  for (unsigned b : to.vectorBits)
    if (llvm::is_contained(from.vectorBits, b))
      common.push_back(b);
  std::optional<Choice> best;
  auto consider = [&](SmallVector<Bits> low, unsigned storeLog2,
                      unsigned loadLog2) {
    Choice choice =
        completeAndEvaluate(from, to, low, storeLog2, loadLog2, model);
    if (!best || choice.isBetterThan(*best))
      best = std::move(choice);
  };
  for (unsigned c = 0; c <= std::min<unsigned>(common.size(), maxVectorLog2);
       ++c) {
    SmallVector<Bits> low;
    for (unsigned i = 0; i < c; ++i)
      low.push_back(unit(common[i]));
    consider(low, c, c);
    for (bool wideStores : {true, false}) {
      SmallVector<Bits> wide = low;
      for (unsigned b : wideStores ? from.vectorBits : to.vectorBits) {
        if (wide.size() == maxVectorLog2)
          break;
        if (llvm::is_contained(common, b))
          continue;
        wide.push_back(unit(b));
        unsigned w = wide.size();
        consider(wide, wideStores ? w : c, wideStores ? c : w);
      }
    }
  }

  // Offsets: the low bits, the bank bits (unit vectors completing the
  // basis, lowest first), the segment bits.
  Subspace taken = span(best->low);
  for (Bits x : best->segment)
    taken.insert(x);
  SmallVector<Bits> offsets = best->low;
  for (unsigned i = 0; i < n; ++i)
    if (taken.insert(unit(i)))
      offsets.push_back(unit(i));
  offsets.append(best->segment.begin(), best->segment.end());
  LinearLayout::InputDim offset{dims::kOffset.str(), {}};
  for (Bits x : offsets)
    offset.bases.push_back(index.unflatten(x));
  SharedExchangeLayout result;
  result.scratch = LinearLayout({std::move(offset)},
                                SmallVector<LinearLayout::OutputDim>(outputs));
  result.storeVectorLog2 = best->storeLog2;
  result.loadVectorLog2 = best->loadLog2;
  result.elementBytes = elementBytes;
  result.storeWavefronts = best->storeWavefronts;
  result.loadWavefronts = best->loadWavefronts;
  return result;
}

std::optional<std::pair<LinearLayout, LinearLayout>>
mlir::tilegpu::getExchangeLayouts(Operation *op) {
  if (!isa<ConvertLayoutOp, tile::TransOp, tile::ReshapeOp>(op))
    return std::nullopt;
  auto srcType = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!srcType || !resultType || !hasRegisterLayout(srcType.getEncoding()) ||
      !hasRegisterLayout(resultType.getEncoding()))
    return std::nullopt;
  std::optional<LinearLayout> src = toLinearLayout(srcType);
  std::optional<LinearLayout> dst = toLinearLayout(resultType);
  if (!src || !dst)
    return std::nullopt;
  if (isa<tile::TransOp>(op)) {
    if (resultType.getRank() != 2)
      return std::nullopt;
    dst = getTransposedView(*dst);
  } else if (isa<tile::ReshapeOp>(op)) {
    dst = getReshapedView(*dst, srcType.getShape());
  }
  return std::make_pair(std::move(*src), std::move(*dst));
}

int64_t mlir::tilegpu::getExchangeScratchBytes(Operation *op) {
  std::optional<std::pair<LinearLayout, LinearLayout>> layouts =
      getExchangeLayouts(op);
  if (!layouts || canExchangeInRegisters(layouts->first, layouts->second))
    return 0;
  Type element =
      cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  std::optional<SharedExchangeLayout> exchange = getSharedExchangeLayout(
      layouts->first, layouts->second, getSharedElementBytes(element));
  return exchange ? exchange->getScratchBytes() : 0;
}
