//===- Interpreter.h - The float64 reference interpreter --------*- C++ -*-===//
//
// Runs one kernel in the tile dialect (+ arith, math, scf) on the CPU over a
// whole grid, one program after the other, with host memory as its buffers:
// the reference that `tilec --interpret` and differential GPU checks use.
//
// Semantics (docs/debugging.md, "--interpret"): floating-point arithmetic is
// evaluated in float64, whatever the element type; a value is rounded to its
// element type only when it is stored (store, atomics), narrowed by an
// explicit float conversion (`arith.truncf`), converted to an integer
// (`fptosi`/`fptoui`, which saturate as the GPU's `cvt.rzi`) or bitcast.
// Integers wrap in their declared width as on the GPU, except that pointer
// offsets and comparisons use exact values (SPEC 1.4: the index arithmetic
// that made them, as if computed in i64). Out-of-bounds and misaligned
// accesses, pointers into no buffer and integer division by zero stop the
// run with an error at the `.tile` line of the operation.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_INTERPRETER_INTERPRETER_H
#define TILEC_INTERPRETER_INTERPRETER_H

#include "tilec/Support/Types.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// One argument of an interpreted launch: a buffer of raw bytes (for a
/// pointer parameter) or a scalar. Buffers are read and written in place;
/// the caller owns their memory.
struct InterpreterArg {
  enum class Kind { Buffer, Int, Float };

  Kind kind = Kind::Int;
  /// The element type of a buffer.
  ScalarType elem = ScalarType::I32;
  /// The memory of a buffer (little-endian elements, i1 as one byte).
  llvm::MutableArrayRef<std::uint8_t> bytes;
  std::int64_t intValue = 0;
  double floatValue = 0;

  /// A buffer of `elem` elements held in `bytes`.
  static InterpreterArg buffer(ScalarType elem,
                               llvm::MutableArrayRef<std::uint8_t> bytes);
  /// A buffer over host elements (`float`, `int32_t`, `tilec::f16`, ...).
  template <typename T>
  static InterpreterArg buffer(llvm::MutableArrayRef<T> elements) {
    return buffer(scalarTypeOf<T>(),
                  {reinterpret_cast<std::uint8_t *>(elements.data()),
                   elements.size() * sizeof(T)});
  }
  /// A buffer over a host vector's elements.
  template <typename T> static InterpreterArg buffer(std::vector<T> &elements) {
    return buffer(llvm::MutableArrayRef<T>(elements));
  }
  /// An integer scalar (also accepted by float parameters).
  static InterpreterArg integer(std::int64_t value);
  /// A float scalar.
  static InterpreterArg real(double value);
};

/// The most programs (grid x * y * z) one interpretation runs.
constexpr std::int64_t kMaxInterpretedPrograms = std::int64_t(1) << 24;

/// How to run a kernel.
struct InterpreterOptions {
  /// The program grid (x, y, z); every entry at least 1 (and CUDA's
  /// limits), at most kMaxInterpretedPrograms programs in all.
  std::array<std::int64_t, 3> grid = {1, 1, 1};
  /// Where `device_print` writes; null: standard output.
  llvm::raw_ostream *printOS = nullptr;
  /// Stop with an error after this many operations (0: no limit), for
  /// generated programs that might not terminate. Every executed operation
  /// counts, terminators (each loop iteration, each program) included; an
  /// operation on a block counts once per kElementsPerOp elements of its
  /// largest block (operand or result), so that the limit bounds time.
  std::uint64_t maxOps = 0;
};

/// How many elements of a block count as one operation of
/// InterpreterOptions::maxOps.
constexpr std::uint64_t kElementsPerOp = 1024;

/// Interprets `func` (tile IR after the tile pipeline, as `tilec
/// --emit=tile` prints it) over `options.grid` with `args` in parameter
/// order. `params`, when given, name and type the parameters in messages
/// (`.tile` spellings: `*f32`). Errors are emitted through the context's
/// diagnostic handlers at the location of the failing operation; the run
/// stops at the first one.
mlir::LogicalResult interpretFunction(mlir::func::FuncOp func,
                                      llvm::ArrayRef<InterpreterArg> args,
                                      llvm::ArrayRef<KernelParam> params,
                                      const InterpreterOptions &options);

} // namespace tilec

#endif // TILEC_INTERPRETER_INTERPRETER_H
