//===- SharedExchangeLayout.h - Scratch layouts of block exchanges -*- C++ -*-//
//
// A block that changes register layout (convert_layout, trans, reshape) and
// cannot do so in registers goes through its op's shared-memory scratch:
// every thread stores its source registers, a barrier, every thread loads
// its result registers. The scratch's layout is a linear map (element
// offset -> block index) chosen from both register layouts:
//  - its lowest offset bits are register bits of both layouts (each access
//    then moves a vector of up to 16 bytes), possibly more register bits of
//    one side (that side's accesses are wider), then, for elements narrower
//    than 4 bytes, bits that keep a 4-byte word's elements together;
//  - the next bits, up to 128 bytes, are bank bits; the bits above are
//    segment bits, chosen (an XOR swizzle) so that no two lanes of one
//    access differ by a segment vector alone, i.e. fall in one bank.
// Among the vector widths, the layout with the fewest wavefronts, then the
// fewest instructions, wins.
//
// The model of shared memory: 32 banks of 4 bytes, a 128-byte wavefront
// serves one 4-byte word per bank. An access of B bytes per lane runs in
// phases: for B >= 4, 128 / B consecutive lanes at a time (8 lanes of 16
// bytes, 16 of 8, 32 of 4), for B < 4 all 32 lanes at once; a phase takes as
// many wavefronts as the largest number of distinct words it touches in one
// bank (lanes reading one word share it).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_SHAREDEXCHANGELAYOUT_H
#define TILEC_DIALECT_TILEGPU_IR_SHAREDEXCHANGELAYOUT_H

#include "tilec/Dialect/TileGPU/IR/LinearLayout.h"

#include "mlir/IR/Operation.h"

#include <optional>
#include <utility>

namespace mlir::tilegpu {

/// The scratch of one exchange and how it is accessed.
struct SharedExchangeLayout {
  /// Element offset in the scratch (input `offset`) -> block index: a
  /// bijection onto the block.
  LinearLayout scratch;
  /// log2 of the elements one store (of the source's registers) and one
  /// load (of the result's) moves: consecutive offsets, naturally aligned.
  unsigned storeVectorLog2 = 0, loadVectorLog2 = 0;
  /// Bytes of one element in the scratch (an i1 takes a byte, a pointer 8).
  unsigned elementBytes = 1;
  /// Wavefronts (the model above) of all the stores (loads) of one warp.
  int64_t storeWavefronts = 0, loadWavefronts = 0;

  int64_t getScratchBytes() const;
};

/// The scratch layout for moving a block from register layout `src` to
/// register layout `dst` (the same outputs), elements of `elementBytes`
/// (1, 2, 4 or 8); std::nullopt if the layouts' outputs differ.
std::optional<SharedExchangeLayout>
getSharedExchangeLayout(const LinearLayout &src, const LinearLayout &dst,
                        unsigned elementBytes);

/// The two register layouts an exchange op (convert_layout, trans,
/// reshape) moves its block between: its source's, and its result's seen
/// through the source's indices (getTransposedView, getReshapedView).
/// std::nullopt for other ops and blocks without linear layouts.
std::optional<std::pair<LinearLayout, LinearLayout>>
getExchangeLayouts(Operation *op);

/// Bytes of scratch an exchange op needs: 0 when registers suffice
/// (canExchangeInRegisters), else its shared exchange layout's.
int64_t getExchangeScratchBytes(Operation *op);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_SHAREDEXCHANGELAYOUT_H
