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
// 16-bit elements may also move with ldmatrix (sm_75 on) and stmatrix
// (sm_90 on), plain or .trans, where a side's lanes fit them (a
// MatrixAccessPlan): such an access moves 16-byte rows of the scratch like
// a 16-byte vector access, but the rows' elements are spread over lanes.
// That is what a transpose of 16-bit elements needs: the source's
// consecutive registers run along one dimension and the result's along the
// other, so no 4-byte word of the scratch is one register pair of both and
// vector accesses of one side stay 2 bytes wide. With ldmatrix.trans the
// result's lanes 2-4 read the source's 16-byte vectors (or, with
// stmatrix.trans, the source's lanes write the result's): 16 bytes on both
// sides. (A shuffle pairing two lanes' 16-bit elements before the store
// would also widen the accesses, but costs a shuffle and a byte permute
// per word, where the matrix instructions cost nothing extra; they are
// what Triton uses too.) Matrix accesses are tried after the vector ones
// and are taken only where the order above ranks them strictly first.
//
// The model of shared memory: 32 banks of 4 bytes, a 128-byte wavefront
// serves one 4-byte word per bank. An access of B bytes per lane runs in
// phases: for B >= 4, 128 / B consecutive lanes at a time (8 lanes of 16
// bytes, 16 of 8, 32 of 4), for B < 4 all 32 lanes at once; a phase takes as
// many wavefronts as the largest number of distinct words it touches in one
// bank (lanes reading one word share it). A matrix access runs one phase per
// 8x8 matrix (its 8 rows of 16 bytes).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_SHAREDEXCHANGELAYOUT_H
#define TILEC_DIALECT_TILEGPU_IR_SHAREDEXCHANGELAYOUT_H

#include "tilec/Dialect/TileGPU/IR/LinearLayout.h"

#include "mlir/IR/Operation.h"

#include <optional>
#include <utility>

namespace mlir::tilegpu {

/// How one side of an exchange moves its registers to or from the scratch.
enum class SharedAccessKind {
  /// st.shared / ld.shared of 2^vectorLog2 consecutive elements.
  Vector,
  /// stmatrix / ldmatrix .m8n8 of 16-bit elements: each 16-byte row of a
  /// matrix is 8 consecutive offsets (the pair register's two halves, then
  /// lanes 0 and 1), lanes 2-4 pick its row.
  Matrix,
  /// The .trans forms: lanes 2-4 run along a row, the pair register's two
  /// halves and lanes 0 and 1 pick its row.
  TransposedMatrix,
};

/// Which matrix instructions an exchange may use.
struct MatrixInstructions {
  bool ldmatrix = false, stmatrix = false;
  /// ldmatrix from sm_75, stmatrix from sm_90 (`capability` 75, 80, 90;
  /// 0: neither).
  static MatrixInstructions forCapability(unsigned capability) {
    return {capability >= 75, capability >= 90};
  }
};

/// One side's access of the scratch.
struct SharedAccess {
  SharedAccessKind kind = SharedAccessKind::Vector;
  /// log2 of the consecutive offsets one access moves per thread (a matrix
  /// access: 3, a row).
  unsigned vectorLog2 = 0;
  /// A matrix access: the register bit whose two values share a 32-bit
  /// register.
  int pairRegister = -1;
  bool isMatrix() const { return kind != SharedAccessKind::Vector; }
};

/// The scratch of one exchange and how it is accessed.
struct SharedExchangeLayout {
  /// Element offset in the scratch (input `offset`) -> block index: a
  /// bijection onto the block.
  LinearLayout scratch;
  /// How the source's registers are stored and the result's loaded.
  SharedAccess store, load;
  /// Bytes of one element in the scratch (an i1 takes a byte, a pointer 8).
  unsigned elementBytes = 1;
  /// Wavefronts (the model above) of all the stores (loads) of one warp.
  int64_t storeWavefronts = 0, loadWavefronts = 0;

  int64_t getScratchBytes() const;
};

/// The scratch layout for moving a block from register layout `src` to
/// register layout `dst` (the same outputs), elements of `elementBytes`
/// (1, 2, 4 or 8), the matrix instructions `matrix` allows for 2-byte
/// elements; std::nullopt if the layouts' outputs differ.
std::optional<SharedExchangeLayout>
getSharedExchangeLayout(const LinearLayout &src, const LinearLayout &dst,
                        unsigned elementBytes,
                        MatrixInstructions matrix = MatrixInstructions());

/// How the ldmatrix / stmatrix instructions of one side cover its
/// registers. An instruction moves `2^matrixRegisters.size()` matrices
/// (.x1, .x2, .x4); 32-bit register i of a lane holds matrix i's two values
/// of the pair register (register bit `pairRegister` 0, then 1), matrix i
/// being the registers with bits `matrixRegisters` spelling i. The other
/// register bits and the warp pick the instruction. Lane a gives the
/// address of row (a & 7) of matrix (a >> 3): the XOR of
/// `laneAddressBases[b]` over its set bits b, and of the offsets of the
/// warp and of the instruction's registers.
struct MatrixAccessPlan {
  SharedAccessKind kind = SharedAccessKind::Matrix;
  int pairRegister = -1;
  SmallVector<int> matrixRegisters;
  SmallVector<int64_t, 5> laneAddressBases;
};

/// The plan for an access of `kind` of a side whose (register, lane,
/// warp) -> element offset map is `offsets`, register pair `pairRegister`;
/// std::nullopt unless the offsets fit the instruction: the 8 offsets of a
/// row are the pair register's and lanes 0 and 1 (Matrix) or lanes 2-4
/// (TransposedMatrix), and no other basis has any of the lowest 3 offset
/// bits.
std::optional<MatrixAccessPlan> getMatrixAccessPlan(const LinearLayout &offsets,
                                                    SharedAccessKind kind,
                                                    int pairRegister);

/// The two register layouts an exchange op (convert_layout, trans,
/// reshape) moves its block between: its source's, and its result's seen
/// through the source's indices (getPermutedView, getReshapedView).
/// std::nullopt for other ops and blocks without linear layouts.
std::optional<std::pair<LinearLayout, LinearLayout>>
getExchangeLayouts(Operation *op);

/// Bytes of scratch an exchange op needs: 0 when registers suffice
/// (canExchangeInRegisters), else its shared exchange layout's.
int64_t getExchangeScratchBytes(Operation *op);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_SHAREDEXCHANGELAYOUT_H
