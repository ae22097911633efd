//===- Arguments.h - Checking launch arguments against a kernel -*- C++ -*-===//
//
// Kernel::launch turns its C++ arguments into HostArg descriptions, then
// packArguments() checks them against the kernel's metadata -- count, kind,
// pointer element type, integer range -- and lays them out as the
// `void **kernelParams` array cuLaunchKernel wants. The check is separate
// from the launch so that it is testable on a machine without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ARGUMENTS_H
#define TILEC_RUNTIME_ARGUMENTS_H

#include "tilec/Runtime/KernelMetadata.h"
#include "tilec/Support/Types.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tilec {

/// A typed device address: what Buffer<T>::data() returns. Adding an integer
/// offsets it by whole elements, so `buf.data() + 128` passes a sub-range.
/// DevicePtr<void> is an untyped address accepted by any pointer parameter.
template <typename T> class DevicePtr {
public:
  DevicePtr() = default;
  explicit DevicePtr(std::uint64_t address) : address_(address) {}

  /// The raw device address (a CUdeviceptr).
  std::uint64_t address() const { return address_; }

  /// Offsets by \p n elements.
  DevicePtr operator+(std::int64_t n) const {
    return DevicePtr(address_ + static_cast<std::uint64_t>(n) * elemBytes());
  }
  /// DevicePtr<void> converts implicitly from any typed pointer.
  template <typename U, typename V = T,
            std::enable_if_t<std::is_void_v<V> && !std::is_void_v<U>, int> = 0>
  DevicePtr(const DevicePtr<U> &typed) : address_(typed.address()) {}

private:
  static constexpr std::uint64_t elemBytes() {
    if constexpr (std::is_void_v<T>)
      return 1;
    else
      return sizeof(T);
  }
  std::uint64_t address_ = 0;
};

/// One launch argument as the checker sees it: its kind, its value, and the
/// C++ spelling for messages.
struct HostArg {
  enum class Kind {
    Pointer,  ///< A device address; elem says what it points to.
    Signed,   ///< A signed C++ integer (value in i).
    Unsigned, ///< An unsigned C++ integer (value in u).
    Float,    ///< float or double (value in f).
    Half,     ///< tilec::f16 or tilec::bf16 (elem, raw bits in u).
    Bool,     ///< bool (value in u: 0 or 1).
  };
  Kind kind = Kind::Signed;
  /// For Pointer and Half: the element type; untyped pointers set isUntyped.
  ScalarType elem = ScalarType::I32;
  bool isUntyped = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double f = 0;
  /// For messages: "Buffer" or "DevicePtr" for pointers (describe() adds
  /// the element type), else "int32_t", "double", ...
  std::string cppType;

  /// Describes a device pointer to elements of type \p elem.
  static HostArg pointer(std::uint64_t address, ScalarType elem,
                         std::string cppType = "DevicePtr");
  /// Describes an untyped device pointer (accepted by any pointer parameter).
  static HostArg untypedPointer(std::uint64_t address);

  /// Describes any C++ arithmetic value or tilec::f16 / tilec::bf16.
  template <typename T> static HostArg value(T v) {
    HostArg a;
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (std::is_same_v<U, bool>) {
      a.kind = Kind::Bool;
      a.u = v ? 1 : 0;
      a.cppType = "bool";
    } else if constexpr (std::is_same_v<U, f16> || std::is_same_v<U, bf16>) {
      a.kind = Kind::Half;
      a.elem = scalarTypeOf<U>();
      a.u = v.bits;
      a.cppType = std::is_same_v<U, f16> ? "tilec::f16" : "tilec::bf16";
    } else if constexpr (std::is_floating_point_v<U>) {
      a.kind = Kind::Float;
      a.f = static_cast<double>(v);
      a.cppType = std::is_same_v<U, float> ? "float" : "double";
    } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
      a.kind = Kind::Signed;
      a.i = static_cast<std::int64_t>(v);
      a.cppType = "int" + std::to_string(8 * sizeof(U)) + "_t";
    } else if constexpr (std::is_integral_v<U>) {
      a.kind = Kind::Unsigned;
      a.u = static_cast<std::uint64_t>(v);
      a.cppType = "uint" + std::to_string(8 * sizeof(U)) + "_t";
    } else {
      static_assert(sizeof(U) == 0,
                    "tilec: a kernel argument must be a Buffer<T>, a "
                    "DevicePtr<T>, an arithmetic value, tilec::f16/bf16 or a "
                    "trailing tilec::Stream");
    }
    return a;
  }

  /// A short description for messages: "Buffer<float>", "int32_t 7", "double
  /// 0.5".
  std::string describe() const;
};

/// Launch arguments checked against a signature and laid out for
/// cuLaunchKernel: each argument in its own 8-byte aligned slot, stored at the
/// parameter's width (i1 as one byte, f16 as two, pointers as eight).
class PackedArgs {
public:
  /// The `void **kernelParams` array; valid while this object lives.
  void **kernelParams();
  /// Bytes of parameter storage (the sum of the parameter widths).
  std::size_t paramBytes() const { return paramBytes_; }
  /// The slot of argument \p index, for tests.
  std::uint64_t slot(std::size_t index) const { return slots_.at(index); }
  std::size_t size() const { return slots_.size(); }

private:
  friend PackedArgs packArguments(const KernelMetadata &,
                                  const std::vector<HostArg> &);
  std::vector<std::uint64_t> slots_;
  std::vector<void *> pointers_;
  std::size_t paramBytes_ = 0;
};

/// Checks \p args against \p meta's parameters and packs them. Throws
/// tilec::Error naming the kernel, the parameter (position, name, type) and
/// what was passed when the count differs, a Buffer's element type differs
/// from the pointer's, a non-pointer goes to a pointer parameter (or the
/// reverse), a float goes to an integer parameter (or the reverse), or an
/// integer does not fit the parameter's range.
PackedArgs packArguments(const KernelMetadata &meta,
                         const std::vector<HostArg> &args);

/// The argument specialization a launch with \p args allows, as Triton
/// specializes: one character per parameter of \p meta -- 'A' a pointer
/// aligned to 16 bytes, 'D' an integer that is a multiple of 16 (0
/// included), 'U' an integer equal to 1, '-' none of these (floats, bools,
/// and arguments that do not fit their parameter). Never throws for
/// mismatched arguments: packArguments reports those.
std::string specializationKey(const KernelMetadata &meta,
                              const std::vector<HostArg> &args);

/// The variant to run for a launch whose specializationKey() is \p launchKey,
/// among variants compiled for \p variantKeys (an AOT header's): the index
/// of the one that assumes the most of what the launch allows (every 'A',
/// 'D' or 'U' of its key is the launch's; pointers all aligned or none, as
/// the variants assume), or -1 when none fits.
int pickSpecialization(const std::vector<std::string> &variantKeys,
                       const std::string &launchKey);

/// The parameter types Triton's JIT gives launch arguments: a typed
/// pointer `*T`; an integer i32 when it fits 32 signed bits, else u64 when
/// it needs 64 unsigned ones, else i64 (by value, not by C++ type, as
/// Triton types a Python int); a float or double f32; f16/bf16 themselves;
/// bool i1. Throws tilec::Error naming kernel \p kernel and the argument for
/// an untyped pointer (DevicePtr<void>), whose element type is unknown.
std::vector<ParamType> inferParamTypes(const std::vector<HostArg> &args,
                                       const std::string &kernel);

/// The Triton signature of the runtime parameters of a launch with \p args
/// ("*f32, *f32, i32:16"): inferParamTypes(), and with \p hints the
/// integer hints of specializationKey() (`:16` a multiple of 16, `:1`
/// equal to 1). Pointer alignment is not in it: pointersAligned().
std::string launchSignature(const std::vector<HostArg> &args,
                            const std::string &kernel, bool hints);

/// Whether every pointer of \p args is 16-byte aligned.
bool pointersAligned(const std::vector<HostArg> &args);

} // namespace tilec

#endif // TILEC_RUNTIME_ARGUMENTS_H
