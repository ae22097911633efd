//===- AccessWidth.h - How wide a global access may be ----------*- C++ -*-===//
//
// The one rule for vectorizing global memory accesses, from the axis
// analysis (AxisInfo.h): how many consecutive elements one thread may
// access with a single aligned instruction of at most 16 bytes, and how the
// mask's constancy limits it. Coalescing chooses layouts by it, the
// pipeliner decides by it whether cp.async can copy a load, and the
// lowering to LLVM annotates every access with it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_ACCESSWIDTH_H
#define TILEC_ANALYSIS_ACCESSWIDTH_H

#include "tilec/Analysis/AxisInfo.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::tilegpu {

/// For a block of pointers with the facts `ptr`: how many elements (a power
/// of two, at least 1) one thread can access with a single aligned vector
/// instruction of at most 16 bytes along `dim`, given `elementsPerThread`
/// consecutive elements it holds there. The addresses must be contiguous
/// over the run and its first one aligned to the whole access. An access
/// that is all or nothing (cp.async) also needs one mask value over the
/// run: pass the mask's facts as `allOrNothingMask` and the width halves
/// until the mask is uniform over each run.
unsigned getAccessVectorWidth(const AxisInfo &ptr, unsigned dim,
                              unsigned elementBytes, unsigned elementsPerThread,
                              const AxisInfo *allOrNothingMask = nullptr);

/// Whether a mask with the facts `mask` has one value over each run of
/// `width` elements along `dim` (one predicate per vector access).
bool isUniformOverRuns(const AxisInfo &mask, unsigned dim, unsigned width);

/// The bytes of one element that the block of pointers `ptrType` points to.
unsigned getPointeeBytes(RankedTensorType ptrType);

/// The vector accesses through a block of pointers in a blocked layout.
struct AccessVectorWidth {
  /// The layout's fastest dimension, along which the accesses run.
  unsigned dim;
  /// Elements per access (getAccessVectorWidth).
  unsigned width;
};

/// getAccessVectorWidth for the accesses through `ptr`, a block of pointers
/// in a blocked layout: along its fastest dimension, with the layout's
/// elements per thread there (at most the dimension's size); `mask`, if
/// given, is that of an all-or-nothing access. std::nullopt for other
/// types and layouts.
std::optional<AccessVectorWidth>
getAccessVectorWidth(const AxisInfoAnalysis &analysis, Value ptr,
                     Value allOrNothingMask = {});

} // namespace mlir::tilegpu

#endif // TILEC_ANALYSIS_ACCESSWIDTH_H
