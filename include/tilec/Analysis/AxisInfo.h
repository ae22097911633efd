//===- AxisInfo.h - Contiguity, divisibility, constancy ---------*- C++ -*-===//
//
// What is known about the values of a block along each dimension, as
// Triton's axis analysis: runs of consecutive integers (contiguity), the
// largest power of two dividing every element (divisibility; bytes for
// pointers), and runs of equal elements (constancy). Coalescing and the
// vectorization of memory accesses are decided from it (AccessWidth.h).
//
// Sources of knowledge: ranges, constants, splats, `tile.hint` (the
// language's multiple_of / max_contiguous) and the `tile.divisibility`
// attribute of kernel arguments (argument specialization: pointers known
// to be 16-byte aligned, integers known to be multiples of 16).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_AXISINFO_H
#define TILEC_ANALYSIS_AXISINFO_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tilegpu {

/// Per-dimension facts about a value (one dimension for a scalar).
struct AxisInfo {
  SmallVector<int64_t> contiguity;
  SmallVector<int64_t> divisibility;
  SmallVector<int64_t> constancy;

  /// Nothing known: every entry 1.
  static AxisInfo unknown(unsigned rank);
  unsigned getRank() const { return contiguity.size(); }
  bool operator==(const AxisInfo &other) const {
    return contiguity == other.contiguity &&
           divisibility == other.divisibility && constancy == other.constancy;
  }
};

/// The largest divisibility tracked (also the divisibility of zero).
constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

/// Name of the argument attribute carrying a kernel argument's divisibility
/// (bytes for pointers).
inline constexpr llvm::StringLiteral kDivisibilityArgAttrName =
    "tile.divisibility";

/// Computes and caches AxisInfo for the values of one function (or any op
/// with regions). Loop-carried values are solved to a fixed point.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(Operation *root);
  /// The facts about `value` (unknown for values outside the root).
  AxisInfo getAxisInfo(Value value) const;

private:
  void visit(Operation *op);
  AxisInfo compute(Operation *op, unsigned resultIndex);
  AxisInfo lookup(Value value) const;
  void set(Value value, AxisInfo info);

  llvm::DenseMap<Value, AxisInfo> infos;
  bool changed = false;
};

} // namespace mlir::tilegpu

#endif // TILEC_ANALYSIS_AXISINFO_H
