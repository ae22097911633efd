//===- LinearLayout.h - Layouts as linear maps over F2 ----------*- C++ -*-===//
//
// A layout says which hardware place holds which element of a block. Every
// layout tilegpu has (blocked, slice, mma accumulators, dot operands,
// swizzled shared tiles) is, for power-of-two shapes, a linear map over F2
// (the integers mod 2, where addition is XOR): from named input
// dimensions (`register`, `lane`, `warp` for registers; `offset` for shared
// memory) to named output dimensions (`dim0`, `dim1`, ... of the block).
// Linear means L(a ^ b) = L(a) ^ L(b), so the map is fully given by the
// image of each input bit: its basis. A basis of 0 is a broadcast (several
// places hold the same element).
//
// Input and output sizes are powers of two; an input dimension of 2^k has k
// bases, each with one value per output dimension (below that dimension's
// size). LinearLayoutConversions.h derives the map of each encoding; the
// same map is evaluated here (apply) and emitted as index IR by the
// lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_LINEARLAYOUT_H
#define TILEC_DIALECT_TILEGPU_IR_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tilegpu {

/// The input dimensions of the layouts tilegpu uses.
namespace layout_dims {
constexpr llvm::StringLiteral kRegister = "register";
constexpr llvm::StringLiteral kLane = "lane";
constexpr llvm::StringLiteral kWarp = "warp";
constexpr llvm::StringLiteral kOffset = "offset";
/// The name of output dimension `d` of a block: "dim<d>".
std::string getBlockDimName(unsigned d);
} // namespace layout_dims

class LinearLayout {
public:
  /// The image of one input bit: one value per output dimension.
  using Basis = llvm::SmallVector<int32_t, 4>;
  struct InputDim {
    std::string name;
    /// bases[i] is the image of bit i; the dimension has 2^bases.size()
    /// values.
    llvm::SmallVector<Basis> bases;
  };
  struct OutputDim {
    std::string name;
    /// log2 of the dimension's size.
    unsigned log2Size;
  };

  /// The map from nothing to nothing (the unit of operator*).
  LinearLayout() = default;
  /// A map with the given bases; each basis has one value per output
  /// dimension, below its size (asserted: layouts are built by the
  /// compiler from verified encodings).
  LinearLayout(llvm::SmallVector<InputDim> inputs,
               llvm::SmallVector<OutputDim> outputs);

  /// `in` (of `size` values) onto `out` (of the same size) unchanged.
  static LinearLayout identity1D(int32_t size, llvm::StringRef in,
                                 llvm::StringRef out);
  /// `in` (of `size` values) all onto 0 of `out` (of size 1): `size`
  /// places holding the same element.
  static LinearLayout zeros1D(int32_t size, llvm::StringRef in,
                              llvm::StringRef out);

  llvm::ArrayRef<InputDim> getInputs() const { return inputs; }
  llvm::ArrayRef<OutputDim> getOutputs() const { return outputs; }
  bool hasInput(llvm::StringRef name) const;
  bool hasOutput(llvm::StringRef name) const;
  /// log2 of an input's (output's) size; 0 for a dimension the layout does
  /// not have.
  unsigned getInputLog2Size(llvm::StringRef name) const;
  unsigned getOutputLog2Size(llvm::StringRef name) const;
  int32_t getInputSize(llvm::StringRef name) const {
    return int32_t(1) << getInputLog2Size(name);
  }
  int32_t getOutputSize(llvm::StringRef name) const {
    return int32_t(1) << getOutputLog2Size(name);
  }
  /// The bases of input `name` (empty if the layout does not have it).
  llvm::ArrayRef<Basis> getBases(llvm::StringRef name) const;
  unsigned getTotalInputBits() const;
  unsigned getTotalOutputBits() const;

  /// The output (one value per output dimension) of the given input values
  /// (one per input dimension, in the order of getInputs()).
  llvm::SmallVector<int32_t> apply(llvm::ArrayRef<int32_t> inputValues) const;
  /// The output of `value` of input `name`, all other inputs 0.
  llvm::SmallVector<int32_t> applyOne(llvm::StringRef name,
                                      int32_t value) const;

  /// The product of two layouts on (possibly) shared dimensions: an input
  /// both have gets this layout's bases as its low bits and `high`'s above
  /// them; an output both have gets this layout's values as its low bits
  /// and `high`'s shifted above them. Building a layout as
  /// `identity1D(4, reg, dim1) * identity1D(8, lane, dim1)` reads as
  /// "4 registers, then 8 lanes, along dim1".
  LinearLayout operator*(const LinearLayout &high) const;

  /// `outer` after this layout: this layout's outputs must be `outer`'s
  /// inputs (same names, in the same order, sizes no larger).
  LinearLayout compose(const LinearLayout &outer) const;

  /// For each input of `other` (a layout onto the same outputs), an input
  /// of this layout that maps to the same output: a map C from `other`'s
  /// inputs to this layout's inputs with this(C(x)) = other(x). Where
  /// several inputs of this layout hold the same output, the one with the
  /// same name and bit as `other`'s input is preferred, then the one with
  /// free bits 0. std::nullopt if some output of `other` is not an output
  /// of this layout.
  std::optional<LinearLayout> invertAndCompose(const LinearLayout &other) const;

  /// The inverse of a bijective layout (outputs become inputs and back),
  /// or std::nullopt.
  std::optional<LinearLayout> invert() const;

  /// Whether every output is the image of some input.
  bool isSurjective() const;
  /// Whether no two inputs have the same output.
  bool isInjective() const;

  /// The layout restricted to the given inputs and outputs (others
  /// dropped), in the order given.
  LinearLayout sublayout(llvm::ArrayRef<llvm::StringRef> inputNames,
                         llvm::ArrayRef<llvm::StringRef> outputNames) const;
  /// Whether every basis of input `in` is 0 on every output.
  bool isZero(llvm::StringRef in) const;
  /// Whether input `in` maps onto output `out` unchanged and onto nothing
  /// else (same size, basis i is 2^i on `out` and 0 elsewhere).
  bool isIdentity(llvm::StringRef in, llvm::StringRef out) const;

  /// The layout with output `name` reduced to `log2Size` bits: values wrap
  /// around (the bits above are dropped), as for a block smaller than the
  /// layout's tile.
  LinearLayout withOutputSize(llvm::StringRef name, unsigned log2Size) const;
  /// The layout without output `name` (a slice): bases lose that value.
  LinearLayout withoutOutput(llvm::StringRef name) const;
  /// The layout with input `name` keeping only the bases `keep` says.
  LinearLayout withInputBases(llvm::StringRef name,
                              llvm::ArrayRef<bool> keep) const;
  /// The layout with outputs renamed (output i gets `names[i]`) and
  /// reordered as `order` says (result output j is input output order[j]).
  LinearLayout withOutputs(llvm::ArrayRef<unsigned> order,
                           llvm::ArrayRef<std::string> names) const;

  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  /// "register: (0, 1) (0, 2); lane: ...; warp: ...; outputs dim0=16
  /// dim1=64": each input's bases in bit order.
  std::string str() const;

private:
  int findInput(llvm::StringRef name) const;
  int findOutput(llvm::StringRef name) const;
  /// Basis `basis` as one bit vector over all outputs (output 0 lowest).
  uint64_t flatten(const Basis &basis) const;
  /// The inverse of flatten.
  Basis unflatten(uint64_t bits) const;
  /// Every basis flattened, inputs in order, bit 0 first.
  llvm::SmallVector<uint64_t> getColumns() const;

  llvm::SmallVector<InputDim> inputs;
  llvm::SmallVector<OutputDim> outputs;
};

/// When every thread holds, in layout `dst`, only elements it also holds in
/// `src` (two register layouts onto the same outputs): for each register of
/// `dst`, a register of `src` holding the same element in the same thread.
/// std::nullopt when some element would have to come from another lane or
/// warp.
std::optional<llvm::SmallVector<int32_t>>
getThreadLocalRegisterMap(const LinearLayout &src, const LinearLayout &dst);

/// When no element of `dst` leaves its warp and the register of `src` each
/// register of `dst` reads does not depend on the lane: the holder map
/// (`src.invertAndCompose(dst)`), which then sends lanes to lanes and
/// registers to (register, lane) pairs. std::nullopt otherwise.
std::optional<LinearLayout> getWarpLocalHolder(const LinearLayout &src,
                                               const LinearLayout &dst);

/// For each register of `layout` (a register layout), the first register
/// that holds, in every thread, an element of the same aligned run: runs of
/// `runs[d]` elements along output d (a power of two; 1 for none), starting
/// at multiples of it. Registers r and r' hold elements of one run in every
/// lane and warp when L(r) and L(r') agree above the run bits of every
/// output: the lane and warp XOR the same bits into both. Where a value is
/// constant over such runs, each register may take its representative's
/// value.
llvm::SmallVector<int32_t> getRunRepresentatives(const LinearLayout &layout,
                                                 llvm::ArrayRef<int64_t> runs);

/// Whether a block can go from layout `src` to layout `dst` (onto the same
/// indices) in registers: a permutation or warp shuffles.
bool canExchangeInRegisters(const LinearLayout &src, const LinearLayout &dst);

} // namespace mlir::tilegpu

#endif // TILEC_DIALECT_TILEGPU_IR_LINEARLAYOUT_H
