//===- MemoryOps.cpp - Buffers, pointers and memory access ----------------===//
//
// The interpreter's memory: buffers at far-apart base addresses, the
// encoding of elements in memory (floats rounded to their type when
// stored, fp8 saturating as PTX's `cvt.rn.satfinite` does, i1 as one byte), and
// the pointer and memory ops (`tile.addptr`, `load`, `store`, `atomic_rmw`,
// `atomic_cas`, `ptr_to_int`, `int_to_ptr`). `addptr` adds the exact value of
// its offset (SPEC 1.4). Every access of an active lane is checked: inside a
// buffer, naturally aligned.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Support/Types.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cstring>
#include <optional>

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

//===----------------------------------------------------------------------===//
// Float encoding
//===----------------------------------------------------------------------===//

namespace {
const llvm::fltSemantics &getSemantics(Type type) {
  return cast<FloatType>(type).getFloatSemantics();
}

llvm::APFloat toAPFloat(double value, Type type) {
  llvm::APFloat result(value);
  bool losesInfo = false;
  result.convert(getSemantics(type), llvm::APFloat::rmNearestTiesToEven,
                 &losesInfo);
  return result;
}

double toDouble(llvm::APFloat value) {
  bool losesInfo = false;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}
} // namespace

/// The fp8 bits of \p value, rounded as the GPU code does: to f32 first,
/// then to nearest even with saturation (PTX `cvt.rn.satfinite`); nullopt
/// when \p type is not an fp8 type.
static std::optional<std::uint8_t> toFP8Bits(double value, Type type) {
  float narrow = static_cast<float>(value);
  if (isa<Float8E4M3FNType>(type))
    return tilec::f8e4m3::fromFloat(narrow).bits;
  if (isa<Float8E5M2Type>(type))
    return tilec::f8e5m2::fromFloat(narrow).bits;
  return std::nullopt;
}

double tilec::interp::roundToFloat(double value, Type type) {
  if (type.isF64())
    return value;
  if (type.isF32())
    return static_cast<float>(value);
  if (std::optional<std::uint8_t> bits = toFP8Bits(value, type))
    return bitsToFloat(*bits, type);
  return toDouble(toAPFloat(value, type));
}

std::uint64_t tilec::interp::floatToBits(double value, Type type) {
  if (type.isF64()) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
  }
  if (type.isF32()) {
    float narrow = static_cast<float>(value);
    std::uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof(bits));
    return bits;
  }
  if (std::optional<std::uint8_t> bits = toFP8Bits(value, type))
    return *bits;
  return toAPFloat(value, type).bitcastToAPInt().getZExtValue();
}

double tilec::interp::bitsToFloat(std::uint64_t bits, Type type) {
  if (isa<Float8E4M3FNType>(type))
    return tilec::f8e4m3{static_cast<std::uint8_t>(bits)}.toFloat();
  if (isa<Float8E5M2Type>(type))
    return tilec::f8e5m2{static_cast<std::uint8_t>(bits)}.toFloat();
  unsigned width = type.getIntOrFloatBitWidth();
  return toDouble(llvm::APFloat(getSemantics(type), llvm::APInt(width, bits)));
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

namespace {
/// Buffer i lies at (i + 1) * kSpacing: far enough apart that a pointer
/// that leaves a buffer is closest to it.
constexpr std::uint64_t kSpacing = std::uint64_t(1) << 40;
} // namespace

std::uint64_t Memory::add(std::string name, ScalarType elem,
                          llvm::MutableArrayRef<std::uint8_t> bytes) {
  std::uint64_t base = (buffers.size() + 1) * kSpacing;
  buffers.push_back({std::move(name), elem, bytes, base});
  return base;
}

namespace {
/// "x[1000]", or "byte 4001 of 'x'" when the offset is not a whole element.
std::string describeOffset(const Memory::Buffer &buffer, std::int64_t offset) {
  std::int64_t elemBytes = scalarTypeBytes(buffer.elem);
  if (offset % elemBytes == 0)
    return buffer.name + "[" + std::to_string(offset / elemBytes) + "]";
  return "byte " + std::to_string(offset) + " of '" + buffer.name + "'";
}

std::string describeBuffer(const Memory::Buffer &buffer) {
  std::uint64_t count = buffer.bytes.size() / scalarTypeBytes(buffer.elem);
  return "'" + buffer.name + "' (" + std::to_string(count) + " x " +
         scalarTypeName(buffer.elem) + ")";
}

} // namespace

std::uint8_t *Memory::resolve(std::uint64_t address, unsigned size,
                              AccessFault &fault, std::string &why) const {
  for (const Memory::Buffer &buffer : buffers) {
    auto offset = static_cast<std::int64_t>(address - buffer.base);
    if (offset < -static_cast<std::int64_t>(kSpacing / 2) ||
        offset >= static_cast<std::int64_t>(kSpacing / 2))
      continue;
    auto length = static_cast<std::int64_t>(buffer.bytes.size());
    if (offset < 0 || offset + size > length) {
      fault = AccessFault::OutOfBounds;
      why = describeOffset(buffer, offset) +
            (offset < 0 ? " is before the start of " : " is past the end of ") +
            describeBuffer(buffer);
      return nullptr;
    }
    if (offset % size != 0) {
      fault = AccessFault::Misaligned;
      why = describeOffset(buffer, offset) + " is not aligned to " +
            std::to_string(size) + " bytes";
      return nullptr;
    }
    fault = AccessFault::None;
    return buffer.bytes.data() + offset;
  }
  fault = AccessFault::NoBuffer;
  std::string hex;
  llvm::raw_string_ostream(hex) << llvm::format_hex(address, 2);
  why = "address " + hex + " is in no buffer argument";
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Elements in memory
//===----------------------------------------------------------------------===//

namespace {
std::uint64_t readBytes(const std::uint8_t *p, unsigned size) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, p, size); // little-endian host
  return bits;
}

/// Reads element `lane` of `out` from `p`.
void readElement(const std::uint8_t *p, Type elem, TileValue &out,
                 std::int64_t lane) {
  unsigned size = getMemoryBytes(elem);
  std::uint64_t bits = readBytes(p, size);
  if (isa<FloatType>(elem)) {
    out.floats[lane] = bitsToFloat(bits, elem);
    return;
  }
  unsigned width = getIntWidth(elem);
  out.ints[lane] = wrapInt(static_cast<std::int64_t>(bits), width);
}

/// Writes element `lane` of `value` to `p`.
void writeElement(std::uint8_t *p, Type elem, const TileValue &value,
                  std::int64_t lane) {
  unsigned size = getMemoryBytes(elem);
  std::uint64_t bits;
  if (isa<FloatType>(elem))
    bits = floatToBits(value.floats[lane], elem);
  else if (elem.isInteger(1))
    bits = value.ints[lane] != 0;
  else
    bits = static_cast<std::uint64_t>(value.ints[lane]);
  std::memcpy(p, &bits, size);
}

Type getPointee(Value ptr) {
  return cast<tile::PointerType>(getElementTypeOrSelf(ptr.getType()))
      .getPointeeType();
}

/// Whether lane `lane` is active under the optional `mask`.
bool isActive(const TileValue *mask, std::int64_t lane) {
  return !mask || mask->ints[lane] != 0;
}

/// The host bytes lane `lane` of `op` accesses at `address`, or null after
/// reporting why the access is invalid.
std::uint8_t *access(Executor &exec, Operation *op, llvm::StringRef what,
                     std::uint64_t address, unsigned size,
                     const TileValue &ptrs, std::int64_t lane) {
  AccessFault fault;
  std::string why;
  if (std::uint8_t *p = exec.memory.resolve(address, size, fault, why))
    return p;
  const char *kind = fault == AccessFault::NoBuffer     ? "invalid"
                     : fault == AccessFault::Misaligned ? "misaligned"
                                                        : "out-of-bounds";
  std::string index =
      ptrs.shape.empty() ? exec.where() : exec.where(ptrs.shape, lane);
  exec.error(op) << kind << " " << what << " " << index << ": " << why;
  return nullptr;
}

/// Calls `fn(p, lane)` for every lane of the memory op `op` that `mask`
/// leaves active, with the host bytes it accesses through `ptrs` (elements
/// of `elem`); fails at the first invalid access, after reporting it.
template <typename Fn>
LogicalResult forEachAccess(Executor &exec, Operation *op, llvm::StringRef what,
                            const TileValue &ptrs, const TileValue *mask,
                            Type elem, Fn fn) {
  unsigned size = getMemoryBytes(elem);
  for (std::int64_t i = 0, e = ptrs.size(); i < e; ++i) {
    if (!isActive(mask, i))
      continue;
    std::uint8_t *p = access(exec, op, what, ptrs.ints[i], size, ptrs, i);
    if (!p)
      return failure();
    fn(p, i);
  }
  return success();
}

/// The mask operand's value, or null for an op without one.
const TileValue *getMask(Executor &exec, Value mask) {
  return mask ? &exec.get(mask) : nullptr;
}

LogicalResult runAddPtr(Executor &exec, tile::AddPtrOp op) {
  TileValue result = exec.get(op.getPtr());
  const TileValue &offsets = exec.get(op.getOffset());
  std::uint64_t scale = getMemoryBytes(getPointee(op.getPtr()));
  for (std::int64_t i = 0, e = result.size(); i < e; ++i)
    result.ints[i] = static_cast<std::int64_t>(
        static_cast<std::uint64_t>(result.ints[i]) +
        static_cast<std::uint64_t>(offsets.exactAt(i)) * scale);
  exec.set(op.getResult(), std::move(result));
  return success();
}

LogicalResult runLoad(Executor &exec, tile::LoadOp op) {
  const TileValue *other = op.getOther() ? &exec.get(op.getOther()) : nullptr;
  Type elem = getPointee(op.getPtr());
  TileValue result =
      other ? other->asComputed() : TileValue::zeros(op.getResult().getType());
  if (failed(forEachAccess(exec, op, "load", exec.get(op.getPtr()),
                           getMask(exec, op.getMask()), elem,
                           [&](std::uint8_t *p, std::int64_t i) {
                             readElement(p, elem, result, i);
                           })))
    return failure();
  exec.set(op.getResult(), std::move(result));
  return success();
}

LogicalResult runStore(Executor &exec, tile::StoreOp op) {
  const TileValue &value = exec.get(op.getValue());
  Type elem = getPointee(op.getPtr());
  return forEachAccess(exec, op, "store", exec.get(op.getPtr()),
                       getMask(exec, op.getMask()), elem,
                       [&](std::uint8_t *p, std::int64_t i) {
                         writeElement(p, elem, value, i);
                       });
}

/// The bits an integer-like atomic leaves where memory held `old` and a
/// lane brings `value` (both the low `width` bits, zero-extended).
std::uint64_t combineBits(tile::AtomicRMWKind kind, std::uint64_t old,
                          std::uint64_t value, unsigned width) {
  std::int64_t a = wrapInt(static_cast<std::int64_t>(old), width);
  std::int64_t b = wrapInt(static_cast<std::int64_t>(value), width);
  switch (kind) {
  case tile::AtomicRMWKind::Add:
    return zextInt(static_cast<std::int64_t>(old + value), width);
  case tile::AtomicRMWKind::Max:
    return a < b ? value : old;
  case tile::AtomicRMWKind::Min:
    return b < a ? value : old;
  case tile::AtomicRMWKind::UMax:
    return old < value ? value : old;
  case tile::AtomicRMWKind::UMin:
    return value < old ? value : old;
  case tile::AtomicRMWKind::And:
    return old & value;
  case tile::AtomicRMWKind::Or:
    return old | value;
  case tile::AtomicRMWKind::Xor:
    return old ^ value;
  case tile::AtomicRMWKind::Xchg:
    return value;
  }
  return old;
}

/// The bits of lane `lane` of `value` as an element of `elem` in memory
/// (a float rounded to `elem`).
std::uint64_t elementBits(Type elem, const TileValue &value,
                          std::int64_t lane) {
  if (isa<FloatType>(elem))
    return floatToBits(value.floats[lane], elem);
  return zextInt(value.ints[lane], getIntWidth(elem));
}

/// The Triton name of an atomic_rmw kind (umax is atomic_max on unsigned).
std::string getAtomicName(tile::AtomicRMWKind kind) {
  if (kind == tile::AtomicRMWKind::UMax)
    return "atomic_max";
  if (kind == tile::AtomicRMWKind::UMin)
    return "atomic_min";
  return "atomic_" + tile::stringifyAtomicRMWKind(kind).str();
}

/// Lanes run one after the other, in order; each gets the element as it
/// was before its own operation. Integers wrap; float adds are rounded to
/// the element type once, when written; float max/min are Triton's integer
/// operations on the bits (TileOps.td), and a NaN value changes nothing and
/// gets zero, as on the GPU.
LogicalResult runAtomicRMW(Executor &exec, tile::AtomicRMWOp op) {
  const TileValue &value = exec.get(op.getValue());
  Type elem = getPointee(op.getPtr());
  TileValue old = TileValue::zeros(op.getResult().getType());
  unsigned size = getMemoryBytes(elem);
  unsigned width = elem.getIntOrFloatBitWidth();
  bool isFloat = isa<FloatType>(elem);
  tile::AtomicRMWKind kind = op.getKind();
  auto apply = [&](std::uint8_t *p, std::int64_t i) {
    readElement(p, elem, old, i);
    std::uint64_t oldBits = readBytes(p, size), newBits;
    if (isFloat && kind == tile::AtomicRMWKind::Add) {
      newBits = floatToBits(old.floats[i] + value.floats[i], elem);
    } else if (isFloat && kind != tile::AtomicRMWKind::Xchg) {
      double v = roundToFloat(value.floats[i], elem);
      if (v != v) {
        old.floats[i] = 0;
        return;
      }
      bool isMax = kind == tile::AtomicRMWKind::Max;
      tile::AtomicRMWKind onBits = v >= 0 ? kind
                                          : (isMax ? tile::AtomicRMWKind::UMin
                                                   : tile::AtomicRMWKind::UMax);
      newBits =
          combineBits(onBits, oldBits, elementBits(elem, value, i), width);
    } else {
      newBits = combineBits(kind, oldBits, elementBits(elem, value, i), width);
    }
    std::memcpy(p, &newBits, size); // little-endian host
  };
  if (failed(forEachAccess(exec, op, getAtomicName(kind), exec.get(op.getPtr()),
                           getMask(exec, op.getMask()), elem, apply)))
    return failure();
  exec.set(op.getResult(), std::move(old));
  return success();
}

/// Lanes run in order; each compares the element's bits with its `cmp`
/// (rounded to the element type) and, where equal, writes its value.
LogicalResult runAtomicCAS(Executor &exec, tile::AtomicCASOp op) {
  const TileValue &cmp = exec.get(op.getCmp());
  const TileValue &value = exec.get(op.getValue());
  Type elem = getPointee(op.getPtr());
  TileValue old = TileValue::zeros(op.getResult().getType());
  unsigned size = getMemoryBytes(elem);
  auto apply = [&](std::uint8_t *p, std::int64_t i) {
    readElement(p, elem, old, i);
    if (readBytes(p, size) == elementBits(elem, cmp, i)) {
      std::uint64_t newBits = elementBits(elem, value, i);
      std::memcpy(p, &newBits, size); // little-endian host
    }
  };
  if (failed(forEachAccess(exec, op, "atomic_cas", exec.get(op.getPtr()),
                           nullptr, elem, apply)))
    return failure();
  exec.set(op.getResult(), std::move(old));
  return success();
}

LogicalResult runPtrToInt(Executor &exec, tile::PtrToIntOp op) {
  TileValue result = exec.get(op.getSrc()).asComputed();
  unsigned width = getIntWidth(getElementTypeOrSelf(op.getType()));
  for (std::int64_t &address : result.ints)
    address = wrapInt(address, width);
  exec.set(op.getResult(), std::move(result));
  return success();
}

LogicalResult runIntToPtr(Executor &exec, tile::IntToPtrOp op) {
  TileValue result = exec.get(op.getSrc()).asComputed();
  unsigned width = getIntWidth(getElementTypeOrSelf(op.getSrc().getType()));
  for (std::int64_t &value : result.ints)
    value = static_cast<std::int64_t>(zextInt(value, width));
  exec.set(op.getResult(), std::move(result));
  return success();
}
} // namespace

std::optional<LogicalResult> tilec::interp::runMemoryOp(Executor &exec,
                                                        Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](tile::AddPtrOp op) { return runAddPtr(exec, op); })
      .Case([&](tile::LoadOp op) { return runLoad(exec, op); })
      .Case([&](tile::StoreOp op) { return runStore(exec, op); })
      .Case([&](tile::AtomicRMWOp op) { return runAtomicRMW(exec, op); })
      .Case([&](tile::AtomicCASOp op) { return runAtomicCAS(exec, op); })
      .Case([&](tile::PtrToIntOp op) { return runPtrToInt(exec, op); })
      .Case([&](tile::IntToPtrOp op) { return runIntToPtr(exec, op); })
      .Default([](Operation *) { return std::nullopt; });
}
