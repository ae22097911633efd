//===- ExactIntegers.h - Where narrow integer arithmetic may wrap -*- C++ -*-=//
//
// For every integer value of a kernel, the range of its exact value (the
// value an infinitely wide computation of the same expression gives) and
// whether the program's computation in the declared width may differ from
// it (may wrap somewhere on the way). tile-promote-offsets uses it to compute
// addresses and comparisons in i64 only where i32 may not suffice (SPEC 1.4).
//
// Exact values propagate through add, sub, mul, shifts by constants, signed
// min/max, bitwise ops, select, sign extension and the shape ops: the
// arithmetic that combines indices and strides into addresses. A bitwise op
// of an operand that may have wrapped is taken as computed (it works on the
// bits: hashes, Philox rounds, whose wrap-around is meant). Other
// producers are taken as the program computes them: loads, arguments,
// loop-carried values, truncation, unsigned ops, and division and remainder
// (they decompose an index of the program's own type, as `offs // (P * Q)`;
// recomputing them in i64 would cost a 64-bit division per element).
//
// Inside the body of an `scf.for`, the loop ran, so its upper bound exceeds
// its lower bound: that fact is pushed back through the upper bound's
// producers (division or ceiling division by a positive constant, adding a
// constant, sign extension) and narrows the ranges of the values it reaches
// for the uses in that body. `for k in range(0, cdiv(K, 32))` knows K >= 1
// inside, so `K - k * 32` cannot leave i32 there.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_EXACTINTEGERS_H
#define TILEC_DIALECT_TILE_TRANSFORMS_EXACTINTEGERS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>

namespace mlir::tile {

/// A closed range [lo, hi] of exact integer values, saturated at the i64
/// limits.
struct IntegerBounds {
  int64_t lo = INT64_MIN;
  int64_t hi = INT64_MAX;

  /// Whether every value of the range fits a signed integer of `width` bits.
  bool fitsSigned(unsigned width) const;
  /// The range of a signed integer type of `width` bits.
  static IntegerBounds ofWidth(unsigned width);
};

/// Integer facts of one kernel, computed once at construction.
class ExactIntegerAnalysis {
public:
  explicit ExactIntegerAnalysis(Operation *root);

  /// Whether `value` is an integer (or integer block) wider than i1 that the
  /// analysis knows.
  bool isTracked(Value value) const { return facts.count(value); }
  /// The range of the exact value of `value` (the type's range if unknown).
  IntegerBounds getBounds(Value value) const;
  /// The range of `value` as the program computes it (the type's range where
  /// it may wrap).
  IntegerBounds asComputed(Value value) const;
  /// Whether the program's computation of `value` may differ from its exact
  /// value.
  bool mayWrap(Value value) const;
  /// Whether the exact value of `value` is defined by its producer's operands
  /// (the producer is one of the ops listed above), so that the producer can
  /// be recomputed in i64.
  static bool propagatesExactValue(Operation *op);

private:
  struct Fact {
    IntegerBounds bounds;
    bool mayWrap = false;
  };
  void visit(Operation *op);
  Fact compute(Operation *op, unsigned width);
  Fact lookup(Value value) const;
  /// The fact of `value` for its uses inside `scope` (an op whose regions
  /// hold the uses): narrowed by the loops from `scope` outwards.
  Fact lookupIn(Value value, Operation *scope) const;
  IntegerBounds asComputedIn(Value value, Operation *scope) const;
  /// Records, for uses inside `loop`'s body, that `value` as computed lies
  /// in `computed`, and pushes that back through its producer.
  void narrowInside(scf::ForOp loop, Value value, IntegerBounds computed,
                    unsigned depth);

  llvm::DenseMap<Value, Fact> facts;
  /// Per loop: values whose exact range is narrower inside its body.
  llvm::DenseMap<Operation *,
                 llvm::SmallVector<std::pair<Value, IntegerBounds>>>
      loopFacts;
};

} // namespace mlir::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_EXACTINTEGERS_H
