//===- InlineAsm.cpp - Rules of elementwise inline asm --------------------===//

#include "tilec/Support/InlineAsm.h"

#include <cctype>

namespace tilec {
namespace {

bool isRegisterClass(char c) {
  return std::string_view("rlhcfd").find(c) != std::string_view::npos;
}

bool isDigits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

/// Reads the decimal number at the start of `text` (advancing it), capped
/// so a long run of digits cannot overflow.
int64_t readNumber(std::string_view &text) {
  int64_t value = 0;
  while (!text.empty() && std::isdigit(static_cast<unsigned char>(text[0]))) {
    value = std::min<int64_t>(value * 10 + (text[0] - '0'), 1 << 30);
    text.remove_prefix(1);
  }
  return value;
}

bool isSpace(char c) { return c == ' ' || c == '\t'; }

std::string_view trimSpaces(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

} // namespace

std::string parseAsmConstraints(std::string_view constraints,
                                AsmConstraints &result) {
  result = AsmConstraints();
  enum class Part { Outputs, Inputs, Clobbers } part = Part::Outputs;
  if (constraints.empty())
    return "";
  size_t start = 0;
  while (start <= constraints.size()) {
    size_t end = constraints.find(',', start);
    if (end == std::string_view::npos)
      end = constraints.size();
    std::string_view entry = trimSpaces(constraints.substr(start, end - start));
    start = end + 1;
    if (entry.empty())
      return "an empty entry (two commas in a row, or one at an end)";
    if (entry[0] == '~') {
      if (entry.size() < 4 || entry[1] != '{' || entry.back() != '}' ||
          entry.substr(2, entry.size() - 3).find_first_of("{} ") !=
              std::string_view::npos)
        return "clobber " + quoted(entry) + " is not of the form ~{name}";
      part = Part::Clobbers;
      continue;
    }
    if (part == Part::Clobbers)
      return "operand " + quoted(entry) +
             " after a clobber: operands come "
             "first, clobbers last";
    if (entry[0] == '=') {
      if (part != Part::Outputs)
        return "output " + quoted(entry) +
               " after an input: outputs come first";
      std::string_view code = entry.substr(1);
      if (!code.empty() && code[0] == '&')
        code.remove_prefix(1);
      if (code.size() != 1 || !isRegisterClass(code[0]))
        return "output " + quoted(entry) +
               " is not '=' (or '=&') and one register class of r, l, h, "
               "c, f, d";
      ++result.outputs;
      continue;
    }
    part = Part::Inputs;
    if (isDigits(entry)) {
      std::string_view digits = entry;
      int64_t tied = readNumber(digits);
      if (tied >= result.outputs)
        return "input " + quoted(entry) + " ties to output " +
               std::string(entry) +
               ", which does not exist: " + std::to_string(result.outputs) +
               " output" + (result.outputs == 1 ? " comes" : "s come") +
               " first";
      result.inputTies.push_back(tied);
      continue;
    }
    if (entry.size() != 1 || !isRegisterClass(entry[0]))
      return "input " + quoted(entry) +
             " is not one register class of r, l, h, c, f, d, or the number "
             "of an output it is tied to";
    result.inputTies.push_back(-1);
  }
  return "";
}

std::string removeAsmConstraintSpaces(std::string_view constraints) {
  std::string result;
  for (char c : constraints)
    if (!isSpace(c))
      result.push_back(c);
  return result;
}

std::string checkAsmTemplate(std::string_view asmString, int64_t operands) {
  std::string_view rest = asmString;
  while (true) {
    size_t dollar = rest.find('$');
    if (dollar == std::string_view::npos)
      return "";
    rest.remove_prefix(dollar + 1);
    if (!rest.empty() && rest[0] == '$') {
      rest.remove_prefix(1);
      continue;
    }
    bool braced = !rest.empty() && rest[0] == '{';
    if (braced)
      rest.remove_prefix(1);
    if (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0])))
      return "'$' must be followed by an operand number ($0, ${0}) or by "
             "'$' (a literal dollar sign)";
    std::string_view digits = rest;
    int64_t number = readNumber(rest);
    digits = digits.substr(0, digits.size() - rest.size());
    if (braced) {
      if (!rest.empty() && rest[0] == ':')
        return "operand modifiers (${N:x}) are not supported";
      if (rest.empty() || rest[0] != '}')
        return "'${' is not closed by '}' after the operand number";
      rest.remove_prefix(1);
    }
    if (number >= operands)
      return "operand $" + std::string(digits) + " does not exist: " +
             (operands == 0 ? std::string("the constraints name none")
                            : "the constraints name $0 to $" +
                                  std::to_string(operands - 1));
  }
}

} // namespace tilec
