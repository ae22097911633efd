//===- TritonSignature.cpp - Triton's AOT kernel signatures ---------------===//
//
// Parsing of `--signature` strings and their application to a kernel's
// parameters (TritonSignature.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/TritonSignature.h"

#include "tilec/Frontend/Types.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace tilec;

namespace {
/// Parses the rest of a `tensordesc<` entry, `fp16[64, 64]>`, into
/// `entry.descriptor`; false with `error` set.
bool parseDescriptor(llvm::StringRef text, llvm::StringRef body,
                     SignatureEntry &entry, std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "'" + text.str() + "': " + why;
    return false;
  };
  if (!body.consume_back(">"))
    return fail("expected 'tensordesc<TYPE[BLOCK, ...]>'");
  size_t open = body.find('['), close = body.find(']');
  if (open == llvm::StringRef::npos || close == llvm::StringRef::npos ||
      close < open)
    return fail("expected 'tensordesc<TYPE[BLOCK, ...]>'");
  if (!body.drop_front(close + 1).trim().empty())
    return fail("a tensor descriptor with a layout (Gluon's) is not "
                "supported; write 'tensordesc<TYPE[BLOCK, ...]>'");
  llvm::StringRef elemName = body.take_front(open).trim();
  std::optional<ScalarType> elem = parseDTypeName(elemName.str());
  if (!elem)
    return fail("unknown element type '" + elemName.str() + "'");
  DescriptorParamType type;
  type.elem = *elem;
  llvm::SmallVector<llvm::StringRef> dims;
  body.slice(open + 1, close).split(dims, ',');
  for (llvm::StringRef dim : dims) {
    int64_t size = 0;
    if (dim.trim().getAsInteger(10, size) || size < 1)
      return fail("the block shape holds positive integers; got '" +
                  dim.trim().str() + "'");
    type.blockShape.push_back(size);
  }
  if (type.blockShape.size() > 5)
    return fail("a tensor descriptor has 1 to 5 dimensions");
  entry.descriptor = std::move(type);
  return true;
}

/// The entries of a signature: split at the commas outside brackets and
/// quotes (`tensordesc<fp16[64, 64]>` is one entry).
llvm::SmallVector<llvm::StringRef> splitEntries(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '<' || c == '(') {
      ++depth;
    } else if ((c == ']' || c == '>' || c == ')') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push_back(text.drop_front(start));
  return parts;
}

/// Parses one entry; false with `error` set.
bool parseEntry(llvm::StringRef text, SignatureEntry &entry,
                std::string &error) {
  entry.text = text.str();
  auto [body, hintText] = text.split(':');
  body = body.trim();
  if (text.contains(':')) {
    hintText = hintText.trim();
    if (hintText.getAsInteger(10, entry.hint) ||
        (entry.hint != 16 && entry.hint != 1)) {
      error = "'" + text.str() +
              "': the hint after ':' is 16 (divisible by 16, or a "
              "16-byte aligned pointer) or 1 (equal to 1)";
      return false;
    }
  }
  if (body.empty()) {
    error = "an empty entry; each parameter takes a type (*fp16, i32, ...) "
            "or a constexpr value (1024)";
    return false;
  }
  // A constexpr value of any kind takes no hint.
  auto takeValue = [&]() -> bool {
    if (entry.hint) {
      error = "'" + text.str() + "': a constexpr value takes no ':' hint";
      return false;
    }
    entry.isValue = true;
    return true;
  };
  // `None`: what Triton's JIT makes of a None argument (an optional
  // pointer such as a bias): a constexpr `is None` tests fold on.
  if (body == "None") {
    if (!takeValue())
      return false;
    entry.isNone = true;
    return true;
  }
  // A string constexpr, `"leaky_relu"` or `''`, or a dtype, `tl.bfloat16`.
  if (body.size() >= 2 && (body.front() == '"' || body.front() == '\'') &&
      body.back() == body.front()) {
    if (!takeValue())
      return false;
    entry.stringValue = body.drop_front().drop_back().str();
    return true;
  }
  for (llvm::StringRef prefix : {"tl.", "triton.language."})
    if (body.starts_with(prefix))
      if (std::optional<ScalarType> dtype =
              parseDTypeName(body.drop_front(prefix.size()).str())) {
        if (!takeValue())
          return false;
        entry.dtypeValue = *dtype;
        return true;
      }
  if (std::optional<ConstexprValue> value = parseConstexprValue(body)) {
    if (!takeValue())
      return false;
    entry.value = *value;
    return true;
  }
  // A host tensor descriptor: `tensordesc<fp16[64, 64]>`.
  if (body.consume_front("tensordesc<")) {
    if (entry.hint) {
      error = "'" + text.str() + "': a tensor descriptor takes no ':' hint";
      return false;
    }
    return parseDescriptor(text, body, entry, error);
  }
  entry.type.isPointer = body.consume_front("*");
  body = body.ltrim();
  if (isUnsupportedFP8Name(body.str())) {
    error = "'" + text.str() +
            "': this fp8 type is not supported; tilec has fp8e4nv (f8e4m3) "
            "and fp8e5 (f8e5m2)";
    return false;
  }
  std::optional<ScalarType> elem = parseDTypeName(body.str());
  if (!elem) {
    error = "unknown type '" + body.str() +
            "'; expected a type (i32, fp32, bf16, *fp16, ...) or a "
            "constexpr value (1024)";
    return false;
  }
  entry.type.elem = *elem;
  if (entry.hint && !entry.type.isPointer && !isIntegerType(*elem)) {
    error = "'" + text.str() +
            "': a ':' hint applies to integers and "
            "pointers, not to " +
            scalarTypeName(*elem);
    return false;
  }
  if (entry.hint == 1 && entry.type.isPointer) {
    error = "'" + text.str() +
            "': a pointer takes the hint ':16' (16-byte "
            "aligned), not ':1'";
    return false;
  }
  return true;
}

void addName(std::vector<std::string> &names, const std::string &name) {
  if (!llvm::is_contained(names, name))
    names.push_back(name);
}
} // namespace

std::optional<std::vector<SignatureEntry>>
tilec::parseTritonSignature(llvm::StringRef text, std::string &error) {
  llvm::SmallVector<llvm::StringRef> parts = splitEntries(text);
  std::vector<SignatureEntry> entries;
  if (text.trim().empty())
    return entries;
  for (size_t i = 0; i < parts.size(); ++i) {
    SignatureEntry entry;
    if (!parseEntry(parts[i].trim(), entry, error)) {
      error = "entry " + std::to_string(i + 1) + ": " + error;
      return std::nullopt;
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

bool tilec::applyTritonSignature(const ast::Function &kernel,
                                 llvm::ArrayRef<SignatureEntry> signature,
                                 ConstexprBindings &bindings,
                                 CompileOptions &options,
                                 bool keepPointerAlignment,
                                 DiagnosticEngine &diags) {
  if (signature.size() != kernel.params.size()) {
    std::vector<std::string> names;
    for (const ast::Param &p : kernel.params)
      names.push_back(p.name);
    diags.error(kernel.loc,
                "--signature gives " + llvm::Twine(signature.size()) + " entr" +
                    (signature.size() == 1 ? "y" : "ies") + " for the " +
                    llvm::Twine(kernel.params.size()) + " parameter" +
                    (kernel.params.size() == 1 ? "" : "s") + " of '" +
                    kernel.name + "' (" + llvm::join(names, ", ") +
                    "); give one type or constexpr value per parameter");
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < signature.size(); ++i) {
    const SignatureEntry &entry = signature[i];
    const ast::Param &param = kernel.params[i];
    if (entry.fromBindings)
      continue;
    using Kind = ast::TypeAnnotation::Kind;
    Kind declared = param.type.kind;
    if (entry.isValue) {
      if (declared == Kind::Scalar || declared == Kind::Pointer) {
        diags.error(param.loc,
                    "'" + param.name + "' is a run-time " + param.type.str() +
                        " parameter; --signature entry " + llvm::Twine(i + 1) +
                        " gives it the value " + entry.text);
        ok = false;
        continue;
      }
      if (entry.stringValue || entry.dtypeValue || entry.isNone) {
        if (bindings.values.count(param.name)) {
          diags.error(param.loc, "-D " + param.name + " and --signature (" +
                                     entry.text + ") give '" + param.name +
                                     "' different values");
          ok = false;
        } else if (entry.isNone) {
          bindings.nones.insert(param.name);
        } else if (entry.stringValue) {
          bindings.strings[param.name] = *entry.stringValue;
        } else {
          bindings.dtypes[param.name] = *entry.dtypeValue;
        }
        continue;
      }
      auto it = bindings.values.find(param.name);
      if (it != bindings.values.end() && !(it->second == entry.value)) {
        diags.error(param.loc,
                    "-D " + param.name + "=" + it->second.pythonStr() +
                        " and --signature (" + entry.text + ") give '" +
                        param.name + "' different values");
        ok = false;
        continue;
      }
      bindings.values[param.name] = entry.value;
      continue;
    }
    if (declared == Kind::Constexpr) {
      diags.error(param.loc, "'" + param.name +
                                 "' is a constexpr parameter; --signature "
                                 "entry " +
                                 llvm::Twine(i + 1) +
                                 " must be its value (such as 1024), not "
                                 "the type '" +
                                 entry.text + "'");
      ok = false;
      continue;
    }
    // A declared type must be the signature's (a tensor descriptor has no
    // annotation that could declare it).
    if (declared != Kind::None &&
        (entry.descriptor || param.type.elem != entry.type.elem ||
         (declared == Kind::Pointer) != entry.type.isPointer)) {
      diags.error(param.loc,
                  "'" + param.name + "' is declared '" + param.type.str() +
                      "' but --signature entry " + llvm::Twine(i + 1) +
                      " says '" +
                      (entry.descriptor ? entry.text : entry.type.str()) + "'");
      ok = false;
      continue;
    }
    if (entry.descriptor) {
      bindings.descriptorTypes[param.name] = *entry.descriptor;
      continue;
    }
    bindings.paramTypes[param.name] = entry.type;
    if (entry.type.isPointer) {
      if (entry.hint != 16 && !keepPointerAlignment)
        addName(options.unalignedParams, param.name);
    } else if (entry.hint == 16)
      addName(options.divisibleParams, param.name);
    else if (entry.hint == 1)
      addName(options.unitParams, param.name);
  }
  return ok;
}

std::optional<std::vector<SignatureEntry>> tilec::withConstexprParams(
    const ast::Function &kernel, llvm::ArrayRef<SignatureEntry> runtimeEntries,
    const ConstexprBindings &bindings, DiagnosticEngine &diags) {
  std::vector<SignatureEntry> entries;
  std::vector<std::string> runtimeNames;
  for (const ast::Param &param : kernel.params) {
    if (param.type.kind == ast::TypeAnnotation::Kind::Constexpr ||
        bindings.values.count(param.name)) {
      SignatureEntry constant;
      constant.isValue = true;
      constant.fromBindings = true;
      entries.push_back(constant);
      continue;
    }
    if (runtimeNames.size() < runtimeEntries.size())
      entries.push_back(runtimeEntries[runtimeNames.size()]);
    runtimeNames.push_back(param.name);
  }
  if (runtimeNames.size() != runtimeEntries.size()) {
    diags.error(
        kernel.loc,
        "'" + kernel.name + "' takes " + llvm::Twine(runtimeNames.size()) +
            " run-time argument" + (runtimeNames.size() == 1 ? "" : "s") +
            " (" + llvm::join(runtimeNames, ", ") + "), the launch passed " +
            llvm::Twine(runtimeEntries.size()) + " (" +
            llvm::join(
                llvm::map_range(runtimeEntries,
                                [](const SignatureEntry &e) { return e.text; }),
                ", ") +
            ")");
    return std::nullopt;
  }
  return entries;
}
