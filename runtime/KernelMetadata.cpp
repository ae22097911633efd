//===- KernelMetadata.cpp - Reading and writing kernel metadata -----------===//
//
// The writer and the validating reader of the SPEC section 2 metadata JSON.
// The reader checks every field it uses (presence, JSON type, range, and
// consistency such as threads_per_block == 32 * num_warps) and reports the
// first problem as a tilec::Error naming the file and the field.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/KernelMetadata.h"
#include "tilec/Runtime/Files.h"
#include "tilec/Support/Target.h"

#include "Json.h"
#include "tilec/Runtime/Error.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

using namespace tilec;

namespace {

bool isIdentifier(std::string_view name) {
  if (name.empty() ||
      !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

std::string constexprJson(const ConstexprValue &value) {
  if (value.isFloat() && !std::isfinite(value.asFloat()))
    return json::quote(value.str()); // "inf", "-inf", "nan"
  return value.str();
}

/// Validates the fields of one metadata object, throwing on the first error.
class MetadataReader {
public:
  MetadataReader(const json::Value &root, std::string_view origin)
      : root_(root), origin_(origin) {}

  KernelMetadata read() {
    if (root_.kind != json::Value::Kind::Object)
      fail("the top level must be an object, not " +
           std::string(root_.kindName()));
    KernelMetadata meta;
    meta.kernel = string("kernel", /*required=*/true);
    if (!isIdentifier(meta.kernel))
      fail("\"kernel\": \"" + meta.kernel + "\" is not a valid kernel name");
    meta.arch = string("arch", false);
    if (!meta.arch.empty() && !Target::parseAny(meta.arch))
      fail("\"arch\": \"" + meta.arch +
           "\" is not a target like \"sm_80\" or \"sm_90a\"");
    meta.numWarps = static_cast<int>(integer("num_warps", true, 1, 32, 4));
    meta.numStages = static_cast<int>(integer("num_stages", false, 0, 64, 3));
    meta.threadsPerBlock = 32 * meta.numWarps;
    if (root_.find("threads_per_block")) {
      std::int64_t threads = integer("threads_per_block", true, 1, 1024, 0);
      if (threads != meta.threadsPerBlock)
        fail("\"threads_per_block\" is " + std::to_string(threads) +
             " but 32 * num_warps is " + std::to_string(meta.threadsPerBlock));
    }
    meta.sharedBytes = static_cast<std::uint64_t>(
        integer("shared_bytes", true, 0, std::int64_t(1) << 32, 0));
    readParams(meta);
    readDescriptors(meta);
    readConstexprs(meta);
    meta.sourceHash = string("source_hash", false);
    meta.compilerVersion = string("compiler_version", false);
    return meta;
  }

private:
  [[noreturn]] void fail(const std::string &message) const {
    throw Error(std::string(origin_) + ": invalid kernel metadata: " + message);
  }

  const json::Value *member(const char *key, bool required) const {
    const json::Value *value = root_.find(key);
    if (!value && required)
      fail(std::string("missing field \"") + key + "\"");
    return value;
  }

  std::string string(const char *key, bool required) const {
    const json::Value *value = member(key, required);
    if (!value)
      return "";
    if (value->kind != json::Value::Kind::String)
      fail(std::string("\"") + key + "\" must be a string, not " +
           value->kindName());
    return value->string;
  }

  std::int64_t integer(const char *key, bool required, std::int64_t min,
                       std::int64_t max, std::int64_t fallback) const {
    const json::Value *value = member(key, required);
    if (!value)
      return fallback;
    if (value->kind != json::Value::Kind::Number || !value->isInteger)
      fail(std::string("\"") + key + "\" must be an integer, not " +
           (value->kind == json::Value::Kind::Number
                ? "a fraction or a huge number"
                : value->kindName()));
    if (value->integer < min || value->integer > max)
      fail(std::string("\"") + key + "\" is " + std::to_string(value->integer) +
           ", outside [" + std::to_string(min) + ", " + std::to_string(max) +
           "]");
    return value->integer;
  }

  void readParams(KernelMetadata &meta) const {
    const json::Value *params = member("params", true);
    if (params->kind != json::Value::Kind::Array)
      fail(std::string("\"params\" must be an array, not ") +
           params->kindName());
    for (std::size_t i = 0; i < params->array.size(); ++i) {
      const json::Value &p = params->array[i];
      std::string where = "\"params\"[" + std::to_string(i) + "]";
      if (p.kind != json::Value::Kind::Object)
        fail(where + " must be an object {\"name\", \"type\"}, not " +
             p.kindName());
      const json::Value *name = p.find("name"), *type = p.find("type");
      if (!name || name->kind != json::Value::Kind::String)
        fail(where + " needs a string \"name\"");
      if (!type || type->kind != json::Value::Kind::String)
        fail(where + " needs a string \"type\"");
      if (!isIdentifier(name->string))
        fail(where + ": \"" + name->string + "\" is not a valid name");
      std::optional<ParamType> parsed = ParamType::parse(type->string);
      if (!parsed)
        fail(where + " (" + name->string + "): unknown type \"" + type->string +
             "\"; expected a scalar (i1 i8 i16 i32 i64 u8 u16 u32 u64 f16 "
             "bf16 f32 f64) or a pointer to one (\"*f32\")");
      for (const KernelParam &earlier : meta.params)
        if (earlier.name == name->string)
          fail(where + ": duplicate parameter name \"" + name->string + "\"");
      KernelParam param{name->string, *parsed};
      readAssumptions(p, where + " (" + name->string + ")", param);
      meta.params.push_back(std::move(param));
    }
  }

  /// The optional "divisibility" and "equal_to_1" of a parameter.
  void readAssumptions(const json::Value &p, const std::string &where,
                       KernelParam &param) const {
    bool integer = !param.type.isPointer && isIntegerType(param.type.elem) &&
                   param.type.elem != ScalarType::I1;
    if (const json::Value *div = p.find("divisibility")) {
      if (div->kind != json::Value::Kind::Number || !div->isInteger ||
          div->integer < 1 || div->integer > (std::int64_t(1) << 30) ||
          (div->integer & (div->integer - 1)) != 0)
        fail(where + ": \"divisibility\" must be a power of two from 1 to "
                     "2^30");
      if (div->integer > 1 && !integer && !param.type.isPointer)
        fail(where +
             ": \"divisibility\" applies to pointers and integers, "
             "not " +
             param.type.str());
      param.divisibility = static_cast<std::uint32_t>(div->integer);
    }
    if (const json::Value *one = p.find("equal_to_1")) {
      if (one->kind != json::Value::Kind::Bool)
        fail(where + ": \"equal_to_1\" must be true or false");
      if (one->boolean && !integer)
        fail(where + ": \"equal_to_1\" applies to integers, not " +
             param.type.str());
      param.equalToOne = one->boolean;
    }
  }

  /// The optional "descriptors": [{"name", "dtype", "block_shape",
  /// "first_param"}], each naming the run-time parameters it is passed as.
  void readDescriptors(KernelMetadata &meta) const {
    const json::Value *descriptors = member("descriptors", false);
    if (!descriptors)
      return;
    if (descriptors->kind != json::Value::Kind::Array)
      fail(std::string("\"descriptors\" must be an array, not ") +
           descriptors->kindName());
    for (std::size_t i = 0; i < descriptors->array.size(); ++i) {
      const json::Value &d = descriptors->array[i];
      std::string where = "\"descriptors\"[" + std::to_string(i) + "]";
      if (d.kind != json::Value::Kind::Object)
        fail(where + " must be an object, not " + d.kindName());
      const json::Value *name = d.find("name"), *dtype = d.find("dtype"),
                        *block = d.find("block_shape"),
                        *first = d.find("first_param");
      if (!name || name->kind != json::Value::Kind::String ||
          !isIdentifier(name->string))
        fail(where + " needs a \"name\" that is a valid name");
      TensorDescParam desc;
      desc.name = name->string;
      std::optional<ScalarType> elem =
          dtype && dtype->kind == json::Value::Kind::String
              ? parseScalarType(dtype->string)
              : std::nullopt;
      if (!elem)
        fail(where + " needs a \"dtype\" that is a scalar type (\"f16\")");
      desc.elem = *elem;
      if (!block || block->kind != json::Value::Kind::Array ||
          block->array.empty() || block->array.size() > 5)
        fail(where + " needs a \"block_shape\" of 1 to 5 sizes");
      for (const json::Value &dim : block->array) {
        if (dim.kind != json::Value::Kind::Number || !dim.isInteger ||
            dim.integer < 1 || dim.integer > (std::int64_t(1) << 20))
          fail(where + ": \"block_shape\" holds sizes from 1 to 2^20");
        desc.blockShape.push_back(dim.integer);
      }
      if (!first || first->kind != json::Value::Kind::Number ||
          !first->isInteger || first->integer < 0 ||
          static_cast<std::size_t>(first->integer) + desc.numParams() >
              meta.params.size())
        fail(where + " needs a \"first_param\" such that its " +
             std::to_string(desc.numParams()) +
             " parameters are in \"params\"");
      desc.firstParam = static_cast<std::size_t>(first->integer);
      // Its parameters: the base pointer, an i32 per dimension, an i64 per
      // dimension but the last.
      std::size_t rank = desc.blockShape.size();
      for (std::size_t k = 0; k < desc.numParams(); ++k) {
        ParamType expected{k == 0, k == 0      ? desc.elem
                                   : k <= rank ? ScalarType::I32
                                               : ScalarType::I64};
        if (!(meta.params[desc.firstParam + k].type == expected))
          fail(where + ": parameter " + std::to_string(desc.firstParam + k) +
               " is " + meta.params[desc.firstParam + k].type.str() +
               "; the descriptor passes " + expected.str() + " there");
      }
      meta.descriptors.push_back(std::move(desc));
    }
  }

  void readConstexprs(KernelMetadata &meta) const {
    const json::Value *constexprs = member("constexprs", false);
    if (!constexprs)
      return;
    if (constexprs->kind != json::Value::Kind::Object)
      fail(std::string("\"constexprs\" must be an object, not ") +
           constexprs->kindName());
    for (const auto &[name, value] : constexprs->object) {
      std::string where = "\"constexprs\".\"" + name + "\"";
      switch (value.kind) {
      case json::Value::Kind::Bool:
        meta.constexprs[name] = value.boolean;
        break;
      case json::Value::Kind::Number:
        if (value.isInteger)
          meta.constexprs[name] = value.integer;
        else
          meta.constexprs[name] = value.number;
        break;
      case json::Value::Kind::String:
        if (value.string == "inf")
          meta.constexprs[name] = std::numeric_limits<double>::infinity();
        else if (value.string == "-inf")
          meta.constexprs[name] = -std::numeric_limits<double>::infinity();
        else if (value.string == "nan")
          meta.constexprs[name] = std::numeric_limits<double>::quiet_NaN();
        else
          fail(where + ": the string \"" + value.string +
               "\" is not a value (only \"inf\", \"-inf\" and \"nan\" are)");
        break;
      default:
        fail(where + " must be a number or a boolean, not " + value.kindName());
      }
    }
  }

  const json::Value &root_;
  std::string_view origin_;
};

} // namespace

std::string KernelMetadata::toJson() const {
  std::ostringstream os;
  os << "{\n";
  os << "  \"kernel\": " << json::quote(kernel) << ",\n";
  os << "  \"arch\": " << json::quote(arch) << ",\n";
  os << "  \"num_warps\": " << numWarps << ",\n";
  os << "  \"num_stages\": " << numStages << ",\n";
  os << "  \"threads_per_block\": " << 32 * numWarps << ",\n";
  os << "  \"shared_bytes\": " << sharedBytes << ",\n";
  os << "  \"params\": [";
  for (std::size_t i = 0; i < params.size(); ++i) {
    os << (i ? ",\n    " : "\n    ")
       << "{\"name\": " << json::quote(params[i].name)
       << ", \"type\": " << json::quote(params[i].type.str());
    if (params[i].divisibility > 1)
      os << ", \"divisibility\": " << params[i].divisibility;
    if (params[i].equalToOne)
      os << ", \"equal_to_1\": true";
    os << "}";
  }
  os << (params.empty() ? "],\n" : "\n  ],\n");
  if (!descriptors.empty()) {
    os << "  \"descriptors\": [";
    for (std::size_t i = 0; i < descriptors.size(); ++i) {
      const TensorDescParam &d = descriptors[i];
      os << (i ? ",\n    " : "\n    ") << "{\"name\": " << json::quote(d.name)
         << ", \"dtype\": " << json::quote(scalarTypeName(d.elem))
         << ", \"block_shape\": [";
      for (std::size_t k = 0; k < d.blockShape.size(); ++k)
        os << (k ? ", " : "") << d.blockShape[k];
      os << "], \"first_param\": " << d.firstParam << "}";
    }
    os << "\n  ],\n";
  }
  os << "  \"constexprs\": {";
  bool first = true;
  for (const auto &[name, value] : constexprs) {
    os << (first ? "" : ", ") << json::quote(name) << ": "
       << constexprJson(value);
    first = false;
  }
  os << "},\n";
  os << "  \"source_hash\": " << json::quote(sourceHash) << ",\n";
  os << "  \"compiler_version\": " << json::quote(compilerVersion) << "\n";
  os << "}\n";
  return os.str();
}

KernelMetadata KernelMetadata::fromJson(std::string_view text,
                                        std::string_view origin) {
  json::Value root;
  std::string error;
  if (!json::parse(text, root, error))
    throw Error(std::string(origin) + ": invalid kernel metadata: " + error);
  return MetadataReader(root, origin).read();
}

KernelMetadata KernelMetadata::readFile(const std::string &path) {
  return fromJson(detail::readWholeFile(path, "kernel metadata"), path);
}

void KernelMetadata::writeFile(const std::string &path) const {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    throw Error("cannot write kernel metadata '" + path +
                "': " + std::strerror(errno));
  out << toJson();
  out.flush();
  if (!out)
    throw Error("cannot write kernel metadata '" + path + "'");
}

std::string KernelMetadata::signature() const {
  std::string out = kernel + "(";
  for (std::size_t i = 0; i < params.size(); ++i)
    out += (i ? ", " : "") + params[i].name + ": " + params[i].type.str();
  return out + ")";
}

bool KernelMetadata::operator==(const KernelMetadata &other) const {
  return kernel == other.kernel && arch == other.arch &&
         numWarps == other.numWarps && numStages == other.numStages &&
         threadsPerBlock == other.threadsPerBlock &&
         sharedBytes == other.sharedBytes && params == other.params &&
         descriptors == other.descriptors && constexprs == other.constexprs &&
         sourceHash == other.sourceHash &&
         compilerVersion == other.compilerVersion;
}

std::string tilec::metadataPathFor(const std::string &binaryPath) {
  std::size_t slash = binaryPath.find_last_of('/');
  std::size_t dot = binaryPath.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) ||
      dot == (slash == std::string::npos ? 0 : slash + 1))
    return binaryPath + ".json";
  return binaryPath.substr(0, dot) + ".json";
}
