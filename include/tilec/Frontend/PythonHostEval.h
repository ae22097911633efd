//===- PythonHostEval.h - Module-level values of a Python file --*- C++ -*-===//
//
// A Python file may choose its `@triton.jit` helpers with module-level code
// that Python runs when it imports the file:
//
//   TRITON3 = int(triton.__version__.split(".")[0]) >= 3
//   if os.environ.get("FLA_USE_FAST_OPS", "0") == "1":
//       @triton.jit
//       def exp(x): ...
//
// tilec does not run Python. HostScope evaluates the small part of Python
// such choices are written in: literals, tuples and lists, names bound by
// earlier module-level assignments, arithmetic, comparisons, `and`/`or`/
// `not`, conditional expressions, subscripts and slices, the string
// methods and built-in functions that version and flag checks use,
// `os.environ` / `os.getenv` (the compiler's environment, as Python would
// read it at import) and `triton.__version__` (the version of Triton whose
// language tilec implements). Anything else is "not evaluable", with the
// reason, and the caller treats the statement as host code.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_PYTHONHOSTEVAL_H
#define TILEC_FRONTEND_PYTHONHOSTEVAL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// The value of `triton.__version__` in a Python source's host code: the
/// Triton release whose language tilec follows (docs/porting-triton.md).
inline constexpr const char *kTritonLanguageVersion = "3.6.0";

/// A value of module-level Python code.
struct HostValue {
  enum class Kind { None, Bool, Int, Float, String, Sequence };
  Kind kind = Kind::None;
  bool boolean = false;
  int64_t integer = 0;
  double real = 0;
  std::string text;
  std::vector<HostValue> items;

  static HostValue none() { return {}; }
  static HostValue ofBool(bool b);
  static HostValue ofInt(int64_t i);
  static HostValue ofFloat(double f);
  static HostValue ofString(std::string s);
  static HostValue ofSequence(std::vector<HostValue> items);

  /// Python's truth value (`bool(v)`).
  bool isTruthy() const;
  /// Python's `repr`, for messages and tests.
  std::string repr() const;
};

/// The module-level names bound so far, and the environment variables that
/// evaluation has read.
class HostScope {
public:
  /// Evaluates the Python expression \p text. On failure: std::nullopt, and
  /// \p why says what tilec cannot evaluate ("calls 'is_hip'").
  std::optional<HostValue> evaluate(llvm::StringRef text, std::string &why);

  /// `NAME = value` at the module level; std::nullopt forgets NAME (an
  /// assignment tilec could not evaluate).
  void assign(llvm::StringRef name, std::optional<HostValue> value);

  /// The environment variables read, in order of first reading, each as
  /// "NAME=value" or "NAME unset".
  const std::vector<std::string> &getEnvironmentReads() const {
    return environmentReads;
  }

  /// Records a read of the environment variable \p name (internal).
  std::optional<std::string> readEnvironment(const std::string &name);

  /// The value of module-level \p name, or null.
  const HostValue *lookup(const std::string &name) const;

private:
  std::map<std::string, HostValue> names;
  std::vector<std::string> environmentReads;
};

} // namespace tilec

#endif // TILEC_FRONTEND_PYTHONHOSTEVAL_H
