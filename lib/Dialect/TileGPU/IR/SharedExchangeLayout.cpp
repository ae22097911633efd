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
// Matrix accesses (16-bit elements) fix the 3 low bits to one side's
// lanes and pair register (getMatrixTiles); the other side reads or writes
// them as the longest vector its registers allow, or as matrices of the
// same row. One phase of a matrix access is one 8x8 matrix: its 8 rows
// (the row bases) and the offsets within a row.
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
  /// The images of the register and lane bits, in order.
  SmallVector<Bits> registers, lanes;
  /// The images of every input bit: registers, lanes, warps.
  SmallVector<Bits> inputs;
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
      side.inputs.push_back(x);
    }
  side.registers = registers;
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

/// Whether input `position` of `side` moves one index bit that no other
/// input touches.
bool movesAlone(const Side &side, size_t position) {
  Bits x = side.inputs[position];
  if (!llvm::isPowerOf2_64(x))
    return false;
  for (auto [i, y] : llvm::enumerate(side.inputs))
    if (i != position && (y & x))
      return false;
  return true;
}

/// A matrix access of one side: its access and the images of the 3
/// offsets of a row (the scratch's low bits).
struct MatrixTile {
  SharedAccess access;
  SmallVector<Bits> low;
};

/// The matrix accesses of `side` that getMatrixAccessPlan will accept
/// (16-bit elements): the row's inputs each move an index bit alone.
SmallVector<MatrixTile> getMatrixTiles(const Side &side, const Model &model) {
  SmallVector<MatrixTile> tiles;
  if (model.elementBytes != 2 || side.lanes.size() != 5 || model.numBits < 3)
    return tiles;
  size_t lane0 = side.registers.size();
  auto laneAlone = [&](unsigned i) { return movesAlone(side, lane0 + i); };
  const SmallVector<Bits> &lanes = side.lanes;
  if (laneAlone(0) && laneAlone(1))
    for (auto [reg, image] : llvm::enumerate(side.registers))
      if (movesAlone(side, reg))
        tiles.push_back({{SharedAccessKind::Matrix, 3, int(reg)},
                         {image, lanes[0], lanes[1]}});
  if (laneAlone(2) && laneAlone(3) && laneAlone(4)) {
    SmallVector<Bits> seen;
    for (auto [reg, image] : llvm::enumerate(side.registers)) {
      if (!image || llvm::is_contained(seen, image))
        continue;
      seen.push_back(image);
      tiles.push_back({{SharedAccessKind::TransposedMatrix, 3, int(reg)},
                       {lanes[2], lanes[3], lanes[4]}});
    }
  }
  return tiles;
}

/// The matrix registers getMatrixAccessPlan picks: after the pair
/// register, up to two more whose images are independent.
unsigned countMatrixRegisters(ArrayRef<Bits> registers, int pair) {
  Subspace taken;
  taken.insert(registers[pair]);
  unsigned count = 0;
  for (auto [reg, image] : llvm::enumerate(registers))
    if (count < 2 && int(reg) != pair && image && taken.insert(image))
      ++count;
  return count;
}

/// One side's matrix accesses: an instruction moves 2^k matrices of 8
/// elements per lane pair (k matrix registers), a phase is one matrix.
Access describeMatrixAccess(const Side &side, const SharedAccess &shared,
                            ArrayRef<Bits> low) {
  unsigned k = countMatrixRegisters(side.registers, shared.pairRegister);
  Access access;
  access.phases = int64_t(1) << k;
  access.instructions =
      std::max<int64_t>(1, (int64_t(1) << side.distinctLog2) >> (k + 1));
  Bits pair = side.registers[shared.pairRegister];
  SmallVector<Bits> rows =
      shared.kind == SharedAccessKind::Matrix
          ? SmallVector<Bits>{side.lanes[2], side.lanes[3], side.lanes[4]}
          : SmallVector<Bits>{pair, side.lanes[0], side.lanes[1]};
  for (Bits x : llvm::concat<const Bits>(low.take_front(3), rows))
    access.reach.insert(x);
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
  SharedAccess store, load;
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

SharedAccess vectorAccess(unsigned vectorLog2) {
  return {SharedAccessKind::Vector, vectorLog2, -1};
}

Choice evaluate(const Side &src, const Side &dst, ArrayRef<Bits> low,
                const SharedAccess &storeAccess, const SharedAccess &loadAccess,
                const Model &model) {
  auto describeSide = [&](const Side &side, const SharedAccess &shared) {
    return shared.isMatrix()
               ? describeMatrixAccess(side, shared, low)
               : describeAccess(side, low, shared.vectorLog2, model);
  };
  Access store = describeSide(src, storeAccess);
  Access load = describeSide(dst, loadAccess);
  Bits lowMask = 0;
  for (Bits x : low)
    lowMask |= x;
  Choice choice;
  choice.low.assign(low.begin(), low.end());
  choice.segment =
      chooseSegment(store.reach, load.reach, lowMask,
                    model.numBits - model.wavefrontLog2, model.numBits);
  choice.store = storeAccess;
  choice.load = loadAccess;
  auto wavefronts = [&](const Access &access) {
    unsigned conflicts =
        intersect(access.reach.basis(), choice.segment, model.numBits).dim();
    return (access.instructions * access.phases) << conflicts;
  };
  choice.storeWavefronts = wavefronts(store);
  choice.loadWavefronts = wavefronts(load);
  choice.instructions = store.instructions + load.instructions;
  for (unsigned i = 0; !loadAccess.isMatrix() && i < loadAccess.vectorLog2; ++i)
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
    return evaluate(src, dst, low, vectorAccess(storeLog2),
                    vectorAccess(loadLog2), model);
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
    const LinearLayout &src, const LinearLayout &dst, unsigned elementBytes,
    MatrixInstructions matrix) {
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

  // Matrix accesses: one side's tile, the other side's longest vector of
  // it, or its matrices of the same tile.
  Choice bestVectors = *best;
  auto vectorOf = [&](const Side &side, ArrayRef<Bits> low) {
    unsigned k = 0;
    while (k < low.size() && llvm::isPowerOf2_64(low[k]) &&
           llvm::is_contained(side.vectorBits, llvm::Log2_64(low[k])))
      ++k;
    return vectorAccess(k);
  };
  auto considerMatrix = [&](ArrayRef<Bits> low, const SharedAccess &store,
                            const SharedAccess &load) {
    Choice choice = evaluate(from, to, low, store, load, model);
    if (choice.isBetterThan(*best))
      best = std::move(choice);
  };
  SmallVector<MatrixTile> storeTiles, loadTiles;
  if (matrix.stmatrix)
    storeTiles = getMatrixTiles(from, model);
  if (matrix.ldmatrix)
    loadTiles = getMatrixTiles(to, model);
  for (const MatrixTile &tile : storeTiles)
    considerMatrix(tile.low, tile.access, vectorOf(to, tile.low));
  for (const MatrixTile &tile : loadTiles)
    considerMatrix(tile.low, vectorOf(from, tile.low), tile.access);
  for (const MatrixTile &store : storeTiles)
    for (const MatrixTile &load : loadTiles)
      if (store.low == load.low)
        considerMatrix(store.low, store.access, load.access);

  // Offsets: the low bits, the bank bits (unit vectors completing the
  // basis, lowest first), the segment bits.
  auto build = [&](const Choice &choice) {
    Subspace taken = span(choice.low);
    for (Bits x : choice.segment)
      taken.insert(x);
    SmallVector<Bits> offsets = choice.low;
    for (unsigned i = 0; i < n; ++i)
      if (taken.insert(unit(i)))
        offsets.push_back(unit(i));
    offsets.append(choice.segment.begin(), choice.segment.end());
    LinearLayout::InputDim offset{dims::kOffset.str(), {}};
    for (Bits x : offsets)
      offset.bases.push_back(index.unflatten(x));
    SharedExchangeLayout result;
    result.scratch = LinearLayout(
        {std::move(offset)}, SmallVector<LinearLayout::OutputDim>(outputs));
    result.store = choice.store;
    result.load = choice.load;
    result.elementBytes = elementBytes;
    result.storeWavefronts = choice.storeWavefronts;
    result.loadWavefronts = choice.loadWavefronts;
    return result;
  };
  SharedExchangeLayout result = build(*best);
  // The lowering needs a plan for each matrix access; getMatrixTiles only
  // offers those that have one, and this keeps it so.
  auto hasPlan = [&](const LinearLayout &layout, const SharedAccess &access) {
    return !access.isMatrix() ||
           getMatrixAccessPlan(layout.compose(*result.scratch.invert()),
                               access.kind, access.pairRegister);
  };
  if (!hasPlan(src, result.store) || !hasPlan(dst, result.load))
    return build(bestVectors);
  return result;
}

std::optional<MatrixAccessPlan>
mlir::tilegpu::getMatrixAccessPlan(const LinearLayout &offsets,
                                   SharedAccessKind kind, int pairRegister) {
  if (kind == SharedAccessKind::Vector || offsets.getOutputs().size() != 1)
    return std::nullopt;
  auto offsetsOf = [&](StringRef input) {
    SmallVector<Bits> result;
    for (const LinearLayout::Basis &basis : offsets.getBases(input))
      result.push_back(Bits(basis[0]));
    return result;
  };
  SmallVector<Bits> registers = offsetsOf(dims::kRegister);
  SmallVector<Bits> lanes = offsetsOf(dims::kLane);
  SmallVector<Bits> warps = offsetsOf(dims::kWarp);
  if (lanes.size() != 5 || pairRegister < 0 ||
      pairRegister >= int(registers.size()))
    return std::nullopt;
  Bits pair = registers[pairRegister];
  bool plain = kind == SharedAccessKind::Matrix;
  // The row's offsets 1, 2, 4 and the row-address bases.
  SmallVector<Bits> row = plain
                              ? SmallVector<Bits>{pair, lanes[0], lanes[1]}
                              : SmallVector<Bits>{lanes[2], lanes[3], lanes[4]};
  SmallVector<Bits> rowAddresses =
      plain ? SmallVector<Bits>{lanes[2], lanes[3], lanes[4]}
            : SmallVector<Bits>{pair, lanes[0], lanes[1]};
  if (row != SmallVector<Bits>{1, 2, 4})
    return std::nullopt;
  // Every other basis keeps to whole rows.
  unsigned rowInputs = 0;
  for (Bits x : llvm::concat<Bits>(registers, lanes, warps))
    if (x & 7)
      ++rowInputs;
  if (rowInputs != 3)
    return std::nullopt;
  MatrixAccessPlan plan;
  plan.kind = kind;
  plan.pairRegister = pairRegister;
  Subspace taken;
  taken.insert(pair);
  for (auto [reg, x] : llvm::enumerate(registers))
    if (plan.matrixRegisters.size() < 2 && int(reg) != pairRegister && x &&
        taken.insert(x))
      plan.matrixRegisters.push_back(int(reg));
  for (Bits x : rowAddresses)
    plan.laneAddressBases.push_back(int64_t(x));
  for (unsigned i = 0; i < 2; ++i)
    plan.laneAddressBases.push_back(
        i < plan.matrixRegisters.size()
            ? int64_t(registers[plan.matrixRegisters[i]])
            : 0);
  return plan;
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
  if (auto trans = dyn_cast<tile::TransOp>(op)) {
    dst = getPermutedView(*dst, trans.getPermutation());
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
