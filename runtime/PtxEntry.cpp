//===- PtxEntry.cpp - The parameters of a PTX .entry ----------------------===//
//
// A small reader of one `.entry NAME( .param ..., ... )` header of PTX
// text: each parameter's state-space type (`.u64`, `.f32`, `.b8`, ...) and
// optional array extent give its size in bytes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/PtxEntry.h"

#include <cctype>

using namespace tilec;

namespace {

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%';
}

/// The position just after `.entry KERNEL(` in \p ptx, or npos.
std::size_t findEntry(std::string_view ptx, std::string_view kernel) {
  std::size_t pos = 0;
  while ((pos = ptx.find(".entry", pos)) != std::string_view::npos) {
    std::size_t p = pos + 6;
    pos = p;
    if (p >= ptx.size() || !std::isspace(static_cast<unsigned char>(ptx[p])))
      continue;
    while (p < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[p])))
      ++p;
    if (ptx.substr(p, kernel.size()) != kernel)
      continue;
    p += kernel.size();
    if (p < ptx.size() && isIdentifierChar(ptx[p]))
      continue;
    while (p < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[p])))
      ++p;
    if (p < ptx.size() && ptx[p] == '(')
      return p + 1;
  }
  return std::string_view::npos;
}

/// The bytes of a PTX fundamental type (".u64" -> 8), or 0.
std::uint64_t typeBytes(std::string_view type) {
  static const struct {
    std::string_view name;
    std::uint64_t bytes;
  } kTypes[] = {{".b8", 1},   {".u8", 1},  {".s8", 1},  {".b16", 2},
                {".u16", 2},  {".s16", 2}, {".f16", 2}, {".bf16", 2},
                {".b32", 4},  {".u32", 4}, {".s32", 4}, {".f32", 4},
                {".b64", 8},  {".u64", 8}, {".s64", 8}, {".f64", 8},
                {".f16x2", 4}};
  for (const auto &t : kTypes)
    if (t.name == type)
      return t.bytes;
  return 0;
}

std::vector<std::string_view> splitWords(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    std::size_t start = i;
    while (i < text.size() &&
           !std::isspace(static_cast<unsigned char>(text[i])))
      ++i;
    if (i > start)
      words.push_back(text.substr(start, i - start));
  }
  return words;
}

/// One parameter declaration (".param .u64 .ptr .global .align 1
/// k_param_0", ".param .align 2 .b8 k_param_3[2]"), or nullopt.
std::optional<detail::PtxParam> readParam(std::string_view decl) {
  using Kind = detail::PtxParam::Kind;
  std::vector<std::string_view> words = splitWords(decl);
  if (words.size() < 3 || words.front() != ".param")
    return std::nullopt;
  detail::PtxParam param;
  bool pointer = false;
  for (std::size_t i = 1; i + 1 < words.size(); ++i) {
    if (words[i] == ".align") {
      ++i; // Skip the alignment value.
      continue;
    }
    if (words[i] == ".ptr")
      pointer = true;
    if (std::uint64_t bytes = typeBytes(words[i])) {
      param.bytes = bytes;
      char letter = words[i][1];
      param.kind = letter == 'f'                    ? Kind::Float
                   : letter == 'u' || letter == 's' ? Kind::Integer
                                                    : Kind::Bits;
    }
  }
  if (param.bytes == 0)
    return std::nullopt;
  if (pointer)
    param.kind = Kind::Pointer;
  std::string_view name = words.back();
  std::size_t bracket = name.find('[');
  if (bracket == std::string_view::npos)
    return param;
  std::uint64_t count = 0;
  for (std::size_t i = bracket + 1; i < name.size() && name[i] != ']'; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i])) ||
        count > (std::uint64_t(1) << 32))
      return std::nullopt;
    count = count * 10 + std::uint64_t(name[i] - '0');
  }
  param.bytes *= count;
  param.kind = Kind::Bits;
  return param;
}

/// The offsets of the parameter list of `.entry KERNEL(...)` in \p ptx:
/// just after its `(` and at its `)`; std::nullopt without one.
std::optional<std::pair<std::size_t, std::size_t>>
findParamList(std::string_view ptx, std::string_view kernel) {
  std::size_t start = findEntry(ptx, kernel);
  if (start == std::string_view::npos)
    return std::nullopt;
  std::size_t close = ptx.find(')', start);
  if (close == std::string_view::npos)
    return std::nullopt;
  return std::make_pair(start, close);
}

} // namespace

std::optional<std::vector<detail::PtxParam>>
detail::parsePtxEntryParams(std::string_view ptx, std::string_view kernel) {
  auto range = findParamList(ptx, kernel);
  if (!range)
    return std::nullopt;
  std::string_view list =
      ptx.substr(range->first, range->second - range->first);
  std::vector<PtxParam> params;
  if (splitWords(list).empty())
    return params;
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t comma = list.find(',', pos);
    std::size_t stop = comma == std::string_view::npos ? list.size() : comma;
    std::optional<PtxParam> param = readParam(list.substr(pos, stop - pos));
    if (!param)
      return std::nullopt;
    params.push_back(*param);
    if (comma == std::string_view::npos)
      break;
    pos = comma + 1;
  }
  return params;
}

std::optional<std::pair<std::size_t, std::size_t>>
detail::findPtxEntryDirectives(std::string_view ptx, std::string_view kernel) {
  auto params = findParamList(ptx, kernel);
  if (!params)
    return std::nullopt;
  std::size_t close = params->second;
  std::size_t body = ptx.find('{', close);
  if (body == std::string_view::npos)
    return std::nullopt;
  return std::make_pair(close + 1, body - close - 1);
}

std::string detail::describePtxEntryMismatch(std::string_view ptx,
                                             const KernelMetadata &meta) {
  std::string who = "kernel '" + meta.kernel + "'";
  std::optional<std::vector<PtxParam>> params =
      parsePtxEntryParams(ptx, meta.kernel);
  if (!params)
    return who + " is not a .entry of the PTX (with a parameter list that "
                 "reads): the metadata's \"kernel\" must name a .visible "
                 ".entry of the PTX";
  if (params->size() != meta.params.size())
    return who + ": the metadata lists " + std::to_string(meta.params.size()) +
           " parameters (" + meta.signature() + ") but the PTX .entry has " +
           std::to_string(params->size()) + " (a stale .json?)";
  for (std::size_t i = 0; i < params->size(); ++i) {
    const KernelParam &param = meta.params[i];
    const PtxParam &declared = (*params)[i];
    std::string which = who + ": parameter " + std::to_string(i) + " ('" +
                        param.name + "', " + param.type.str() + ")";
    std::uint64_t expected =
        param.type.isPointer ? 8 : scalarTypeBytes(param.type.elem);
    if (declared.bytes != expected)
      return which + " has " + std::to_string(expected) +
             " bytes in the metadata but " + std::to_string(declared.bytes) +
             " in the PTX .entry (a stale .json?)";
    using Kind = PtxParam::Kind;
    bool isFloat = !param.type.isPointer && isFloatType(param.type.elem);
    const char *conflict = nullptr;
    if (declared.kind == Kind::Pointer && !param.type.isPointer)
      conflict = "a pointer";
    else if (declared.kind == Kind::Float && !isFloat)
      conflict = "a float";
    else if (declared.kind == Kind::Integer && isFloat)
      conflict = "an integer";
    if (conflict)
      return which + " is " + conflict + " in the PTX .entry (a stale .json?)";
  }
  return "";
}
