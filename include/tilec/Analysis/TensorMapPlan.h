//===- TensorMapPlan.h - Loads that bulk tensor copies can make -*- C++ -*-===//
//
// A 2-D load in a loop whose addresses are `base + row * stride + col` for
// a run of rows and columns starting at scalar coordinates, and whose mask
// says exactly "row < R and col < C" (either part optional), reads what a
// TMA copy of a box at those coordinates reads from a tensor map of
// extent R x C: the copy engine zero-fills the rest, as a masked load with
// `other = 0` does. planTensorMapLoad() proves this symbolically: it
// writes every index expression the load depends on as a polynomial over
// SSA values (the loop's induction variable among them) and the tile's
// element indices, then reads off the coordinates, extents and stride.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_TENSORMAPPLAN_H
#define TILEC_ANALYSIS_TENSORMAPPLAN_H

#include "tilec/Analysis/AxisInfo.h"
#include "tilec/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>
#include <optional>

namespace mlir::tilegpu {

/// A polynomial with integer coefficients over atoms: integer SSA values
/// (through sign extensions) and the element indices of a tile's
/// dimensions.
class IndexPolynomial {
public:
  /// A product of atoms, sorted (an atom repeats for a power).
  using Monomial = SmallVector<uintptr_t, 2>;

  static IndexPolynomial constant(int64_t value);
  static IndexPolynomial atom(Value value);
  /// The element index along dimension `dim` of the tile.
  static IndexPolynomial index(unsigned dim);

  IndexPolynomial operator+(const IndexPolynomial &other) const;
  IndexPolynomial operator-(const IndexPolynomial &other) const;
  /// Fails (std::nullopt) when a coefficient overflows.
  std::optional<IndexPolynomial> operator*(const IndexPolynomial &other) const;
  bool operator==(const IndexPolynomial &other) const {
    return terms == other.terms;
  }

  bool isZero() const { return terms.empty(); }
  std::optional<int64_t> getConstant() const;
  /// The element-index dimensions the polynomial mentions.
  SmallVector<unsigned> getIndexDims() const;
  /// Renames element-index dimension d to map[d].
  IndexPolynomial renameDims(ArrayRef<unsigned> map) const;
  /// The SSA values it mentions.
  SmallVector<Value> getValues() const;
  const std::map<Monomial, int64_t> &getTerms() const { return terms; }
  void addTerm(const Monomial &monomial, int64_t coefficient);

  /// Emits it as an i64 value, with `substitutions` replacing atoms.
  Value materialize(OpBuilder &builder, Location loc,
                    const DenseMap<Value, Value> &substitutions) const;

  static bool isIndexKey(uintptr_t key) { return key < kMaxDims; }
  static constexpr uintptr_t kMaxDims = 8;

private:
  std::map<Monomial, int64_t> terms;
};

/// How a load becomes bulk tensor copies.
struct TensorMapPlan {
  /// The scalar pointer the map is based at (defined outside the loop).
  Value base;
  /// Per tile dimension: the tensor's extent (unbounded without a mask
  /// bound) and the first element's coordinate, a polynomial in the loop's
  /// induction variable and loop-invariant values.
  std::optional<IndexPolynomial> extent[2];
  IndexPolynomial coord[2];
  /// Elements between consecutive indices of the non-contiguous dimension.
  IndexPolynomial stride;
  /// The box: the shape of one copy (the contiguous dimension one swizzle
  /// width wide).
  SmallVector<int64_t> boxShape;
};

/// Proves that `load` (in `loop`'s body, staged into shared memory of type
/// `tile`) can be replaced by bulk tensor copies, or returns std::nullopt.
std::optional<TensorMapPlan> planTensorMapLoad(tile::LoadOp load,
                                               scf::ForOp loop,
                                               MemDescType tile,
                                               const AxisInfoAnalysis &info);

} // namespace mlir::tilegpu

#endif // TILEC_ANALYSIS_TENSORMAPPLAN_H
