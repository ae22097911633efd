//===- Executor.h - Internals of the tile IR interpreter --------*- C++ -*-===//
//
// What the op families of the interpreter share: the run-time value of an
// SSA value (TileValue), the element representation (floats as doubles,
// integers sign-extended to 64 bits, pointers as addresses), the buffers
// and their address space (Memory), and the Executor that runs one program
// and reports errors with its program id.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_EXECUTOR_H
#define TILEC_LIB_INTERPRETER_EXECUTOR_H

#include "tilec/Interpreter/Interpreter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tilec::interp {

/// The run-time value of one SSA value: a scalar (empty shape) or a block
/// in row-major order. Float elements are held in `floats` as doubles;
/// integers in `ints`, sign-extended from their width (i1 true is -1);
/// pointers in `ints` as 64-bit addresses.
///
/// An integer also has an exact value (SPEC 1.4, docs/language.md "Exact
/// addresses"): what the arithmetic that combines indices (add, sub, mul,
/// shifts by constants, signed min/max, bitwise ops, select, sign extension
/// and the shape ops) gives in i64, from the values as computed of every
/// other producer. `ptr + offset` and comparisons use it. `exact` holds it
/// when some element's differs from `ints`, and is empty otherwise.
struct TileValue {
  llvm::SmallVector<std::int64_t, 2> shape;
  std::vector<double> floats;
  std::vector<std::int64_t> ints;
  std::vector<std::int64_t> exact;

  /// The number of elements (1 for a scalar).
  std::int64_t size() const;
  /// The exact value of integer element `i`.
  std::int64_t exactAt(std::int64_t i) const {
    return exact.empty() ? ints[i] : exact[i];
  }
  /// This value as computed, without its exact values.
  TileValue asComputed() const {
    TileValue copy{shape, floats, ints, {}};
    return copy;
  }
  /// A value of `type`'s shape with zeroed elements of its kind.
  static TileValue zeros(mlir::Type type);
};

/// How the elements of a type are held.
enum class ElemKind { Float, Int, Pointer };

/// The kind of the elements of `type` (a scalar or a tensor type).
ElemKind getElemKind(mlir::Type type);
/// The width in bits of an integer element type (index: 64), or 64 for a
/// pointer.
unsigned getIntWidth(mlir::Type elem);
/// The bytes one element of `elem` takes in memory (i1: 1, pointers: 8).
unsigned getMemoryBytes(mlir::Type elem);
/// The shape of `type` (empty for a scalar).
llvm::SmallVector<std::int64_t, 2> getShape(mlir::Type type);

/// The low `bits` bits of `value`, sign-extended: two's-complement wrap.
inline std::int64_t wrapInt(std::int64_t value, unsigned bits) {
  if (bits >= 64)
    return value;
  std::uint64_t shift = 64 - bits;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(value)
                                   << shift) >>
         shift;
}
/// The low `bits` bits of `value`, zero-extended (the unsigned view).
inline std::uint64_t zextInt(std::int64_t value, unsigned bits) {
  std::uint64_t v = static_cast<std::uint64_t>(value);
  return bits >= 64 ? v : v & ((std::uint64_t(1) << bits) - 1);
}

/// IEEE 754-2019 maximum (`isMax`) or minimum: NaN wins, -0 < +0.
inline double floatMaximum(double a, double b, bool isMax) {
  if (a != a || b != b)
    return a != a ? a : b;
  if (a == b)
    return (a < 0 || (a == 0 && 1 / a < 0)) == isMax ? b : a;
  return (a < b) == isMax ? b : a;
}

/// `value` rounded (to nearest even) to the float type `type`.
double roundToFloat(double value, mlir::Type type);
/// The bits of `value` rounded to the float type `type`.
std::uint64_t floatToBits(double value, mlir::Type type);
/// The value of the bits of a float of type `type`.
double bitsToFloat(std::uint64_t bits, mlir::Type type);

/// Why an access is invalid.
enum class AccessFault { None, OutOfBounds, Misaligned, NoBuffer };

/// The buffers of a launch and their addresses. Each buffer gets a base
/// address far from the others (as separate device allocations), so a
/// pointer that leaves one is out of bounds rather than in the next.
class Memory {
public:
  struct Buffer {
    std::string name;
    ScalarType elem;
    llvm::MutableArrayRef<std::uint8_t> bytes;
    std::uint64_t base;
  };

  /// Adds a buffer; returns its base address.
  std::uint64_t add(std::string name, ScalarType elem,
                    llvm::MutableArrayRef<std::uint8_t> bytes);
  /// The host bytes of an access of `size` bytes at `address`, or null
  /// after setting `fault` and describing in `why` where the address is
  /// instead ("x[1000] is past the end of 'x' (1000 x f32)").
  std::uint8_t *resolve(std::uint64_t address, unsigned size,
                        AccessFault &fault, std::string &why) const;

private:
  std::vector<Buffer> buffers;
};

/// Runs the programs of a kernel and holds the values of the running one.
class Executor {
public:
  Executor(Memory &memory, const InterpreterOptions &options,
           llvm::raw_ostream &printOS);

  /// Runs program `programId` of `func` with the block arguments `args`.
  mlir::LogicalResult runProgram(mlir::func::FuncOp func,
                                 llvm::ArrayRef<TileValue> args,
                                 std::array<std::int64_t, 3> programId);

  /// The value of `value` (defined earlier in this program).
  const TileValue &get(mlir::Value value) const;
  void set(mlir::Value value, TileValue tileValue);

  /// Starts an error at `op`'s location.
  mlir::InFlightDiagnostic error(mlir::Operation *op) const;
  /// "in program (x, y, z)", or "at index [i, j] in program (x, y, z)" for
  /// element `linear` of a block of `shape`.
  std::string where(llvm::ArrayRef<std::int64_t> shape = {},
                    std::int64_t linear = -1) const;

  Memory &memory;
  std::array<std::int64_t, 3> grid;
  std::array<std::int64_t, 3> programId = {0, 0, 0};
  llvm::raw_ostream &printOS;

  /// Runs the single block of `region` with `args`; `results` gets the
  /// operands of its terminator (a combine region's too).
  mlir::LogicalResult runRegion(mlir::Region &region,
                                llvm::ArrayRef<TileValue> args,
                                llvm::SmallVectorImpl<TileValue> &results);

private:
  mlir::LogicalResult runOp(mlir::Operation *op);
  /// Counts `op` against maxOps; an error (at `op`) past the limit.
  mlir::LogicalResult countOp(mlir::Operation *op);
  mlir::LogicalResult runFor(mlir::Operation *op);
  mlir::LogicalResult runWhile(mlir::Operation *op);
  mlir::LogicalResult runIf(mlir::Operation *op);

  llvm::DenseMap<mlir::Value, TileValue> values;
  std::uint64_t maxOps;
  std::uint64_t numOps = 0;
};

/// The op families. Each evaluates `op` when it is one of its ops and
/// returns the outcome, or std::nullopt when `op` is not one of them.
std::optional<mlir::LogicalResult> runArithOp(Executor &exec,
                                              mlir::Operation *op);
std::optional<mlir::LogicalResult> runMathOp(Executor &exec,
                                             mlir::Operation *op);
std::optional<mlir::LogicalResult> runTileOp(Executor &exec,
                                             mlir::Operation *op);
std::optional<mlir::LogicalResult> runMemoryOp(Executor &exec,
                                               mlir::Operation *op);

} // namespace tilec::interp

#endif // TILEC_LIB_INTERPRETER_EXECUTOR_H
