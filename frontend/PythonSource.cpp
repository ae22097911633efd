//===- PythonSource.cpp - The Triton code of a Python file ----------------===//
//
// Splits a Python file into logical lines (brackets, backslashes and strings
// continue a line), groups them into top-level statements (a line at column
// 0 and the indented lines after it), attaches decorators to the `def` they
// decorate, and keeps the lines of the statements tilec compiles
// (PythonSource.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/PythonSource.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

using namespace tilec;

namespace {
/// A top-level statement: physical lines [first, last] (0-based), and the
/// text of its first line from its first character on.
struct Statement {
  size_t first = 0, last = 0;
  llvm::StringRef head;
};

/// Scans Python's lexical structure enough to find where a logical line
/// ends: strings (with escapes, single or triple quoted), comments,
/// bracket depth and backslash continuations.
class LogicalLineScanner {
public:
  explicit LogicalLineScanner(llvm::ArrayRef<llvm::StringRef> lines)
      : lines(lines) {}

  /// The last physical line of the logical line that starts on line
  /// \p first at column \p col.
  size_t findEnd(size_t first, size_t col) {
    quote = 0;
    triple = false;
    depth = 0;
    size_t line = first;
    while (true) {
      bool continued =
          scanLine(lines[line].rtrim("\r"), line == first ? col : 0);
      if ((continued || quote || depth > 0) && line + 1 < lines.size()) {
        ++line;
        continue;
      }
      return line;
    }
  }

private:
  /// Scans one physical line from column \p col; whether it ends with a
  /// backslash continuation (outside strings and comments).
  bool scanLine(llvm::StringRef text, size_t col) {
    for (size_t k = col; k < text.size(); ++k) {
      char c = text[k];
      if (quote) {
        if (c == '\\') {
          if (k + 1 == text.size())
            return true; // an escaped newline: the string goes on
          ++k;
        } else if (c == quote &&
                   (!triple || text.substr(k, 3) == std::string(3, quote))) {
          k += triple ? 2 : 0;
          quote = 0;
        }
        continue;
      }
      if (c == '#')
        break;
      if (c == '"' || c == '\'') {
        quote = c;
        triple = text.substr(k, 3) == std::string(3, c);
        k += triple ? 2 : 0;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        depth = depth > 0 ? depth - 1 : 0;
      } else if (c == '\\' && k + 1 == text.size()) {
        return true;
      }
    }
    // A single-quoted string ends at the end of its line (Python rejects
    // that; it is host code, so be lenient).
    if (quote && !triple)
      quote = 0;
    return false;
  }

  llvm::ArrayRef<llvm::StringRef> lines;
  char quote = 0;
  bool triple = false;
  int depth = 0;
};

/// The top-level statements of the file, in order.
std::vector<Statement> splitStatements(llvm::ArrayRef<llvm::StringRef> lines) {
  std::vector<Statement> statements;
  LogicalLineScanner scanner(lines);
  for (size_t i = 0; i < lines.size();) {
    llvm::StringRef text = lines[i].rtrim("\r");
    llvm::StringRef stripped = text.ltrim(" \t\f");
    if (stripped.empty() || stripped.starts_with("#")) {
      ++i;
      continue;
    }
    size_t col = text.size() - stripped.size();
    size_t end = scanner.findEnd(i, col);
    if (col == 0 || statements.empty())
      statements.push_back({i, end, stripped});
    else
      statements.back().last = end;
    i = end + 1;
  }
  return statements;
}

/// The dotted name at the start of \p text ("triton.jit" of
/// "triton.jit(debug=True)"), spaces around the dots dropped.
std::string readDottedName(llvm::StringRef text) {
  std::string name;
  text = text.ltrim();
  while (!text.empty() && (llvm::isAlnum(text[0]) || text[0] == '_' ||
                           text[0] == '.' || text[0] == ' ')) {
    if (text[0] != ' ')
      name += text[0];
    text = text.drop_front();
  }
  return name;
}

bool isJitDecorator(llvm::StringRef head) {
  return isJitDecoratorName(readDottedName(head.drop_front())); // '@'
}

/// A dotted name of a Triton function: `tl.X`, `tl.math.X`,
/// `triton.language.X`, `libdevice.X` (`from triton.language.extra import
/// libdevice`).
bool isTritonFunctionPath(llvm::StringRef name) {
  return name.contains('.') &&
         (name.starts_with("tl.") || name.starts_with("triton.language.") ||
          name.starts_with("libdevice."));
}

/// `NAME = [tl.]constexpr(...)`, `NAME: [tl.]constexpr = ...`, or an alias
/// of a Triton function, `NAME = libdevice.tanh`.
bool isConstexprGlobal(llvm::StringRef head) {
  llvm::StringRef rest = head;
  size_t nameLength = 0;
  while (nameLength < rest.size() &&
         (llvm::isAlnum(rest[nameLength]) || rest[nameLength] == '_'))
    ++nameLength;
  if (nameLength == 0 || llvm::isDigit(rest[0]))
    return false;
  rest = rest.drop_front(nameLength).ltrim();
  if (rest.consume_front(":")) {
    std::string annotation = readDottedName(rest);
    return llvm::StringRef(annotation).ends_with("constexpr") &&
           rest.contains('=');
  }
  if (!rest.consume_front("=") || rest.starts_with("="))
    return false;
  llvm::StringRef value = rest.ltrim();
  std::string callee = readDottedName(value);
  // `NAME = libdevice.tanh`: an alias of a Triton function.
  if (isTritonFunctionPath(callee) && value.trim().size() == callee.size())
    return true;
  if (callee != "constexpr" && !llvm::StringRef(callee).ends_with(".constexpr"))
    return false;
  // The callee is called: `tl.constexpr(...)`.
  size_t paren = value.find('(');
  return paren != llvm::StringRef::npos &&
         readDottedName(value.take_front(paren)) == callee;
}
/// `NAME = triton.jit(NAME)` (or `jit(NAME)`): NAME, else "".
std::string readJitWrap(llvm::StringRef head) {
  auto isNameChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  std::string name = head.take_while(isNameChar).str();
  if (name.empty() || llvm::isDigit(name[0]))
    return "";
  llvm::StringRef rest = head.drop_front(name.size()).ltrim();
  if (!rest.consume_front("=") || rest.starts_with("="))
    return "";
  rest = rest.ltrim();
  std::string callee = readDottedName(rest);
  if (!isJitDecoratorName(callee))
    return "";
  size_t paren = rest.find('(');
  if (paren == llvm::StringRef::npos)
    return "";
  llvm::StringRef arg = rest.drop_front(paren + 1);
  size_t close = arg.find(')');
  if (close == llvm::StringRef::npos || arg.drop_front(close + 1).trim() != "")
    return "";
  return arg.take_front(close).trim() == name ? name : "";
}

/// A `@triton.jit` function: its name and its lines (decorators included).
struct JitFunction {
  std::string name;
  size_t first = 0, last = 0;
};

/// The name of `def NAME(...)`; "" for another statement.
std::string readDefName(llvm::StringRef head) {
  if (!head.consume_front("def") || head.empty() || !llvm::isSpace(head[0]))
    return "";
  head = head.ltrim();
  return head.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; })
      .str();
}

/// Adds the name that the statement starting with `head` defines, if any:
/// `NAME = ...`, `NAME: T = ...`, `def NAME`, `class NAME`.
void addDefinedName(llvm::StringRef head, std::vector<std::string> &names) {
  auto isNameChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  if (head.consume_front("def ") || head.consume_front("class ")) {
    std::string name = head.ltrim().take_while(isNameChar).str();
    if (!name.empty())
      names.push_back(name);
    return;
  }
  llvm::StringRef name = head.take_while(isNameChar);
  if (name.empty() || llvm::isDigit(name[0]))
    return;
  llvm::StringRef rest = head.drop_front(name.size()).ltrim();
  if (rest.consume_front(":"))
    rest = rest.drop_until([](char c) { return c == '='; });
  if (rest.starts_with("=") && !rest.starts_with("=="))
    names.push_back(name.str());
}

/// The identifiers of `text` (in code, comments and strings alike).
std::set<std::string> collectWords(llvm::StringRef text) {
  std::set<std::string> words;
  while (!text.empty()) {
    text = text.drop_until([](char c) { return llvm::isAlpha(c) || c == '_'; });
    llvm::StringRef word =
        text.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    if (!word.empty())
      words.insert(word.str());
    text = text.drop_front(word.size());
  }
  return words;
}

/// The indices of the functions to keep: all of them, or, when `kernel`
/// names one, it and the functions whose names occur in a kept one (an
/// over-approximation of the helpers it calls).
std::vector<size_t> selectFunctions(llvm::ArrayRef<JitFunction> functions,
                                    llvm::ArrayRef<llvm::StringRef> lines,
                                    llvm::StringRef kernel) {
  std::vector<size_t> all(functions.size());
  for (size_t i = 0; i < functions.size(); ++i)
    all[i] = i;
  auto isKernel = [&](const JitFunction &f) { return f.name == kernel; };
  if (kernel.empty() || llvm::none_of(functions, isKernel))
    return all;
  std::vector<size_t> selected;
  std::vector<bool> taken(functions.size(), false);
  for (size_t i = 0; i < functions.size(); ++i)
    if (isKernel(functions[i])) {
      selected.push_back(i);
      taken[i] = true;
    }
  for (size_t next = 0; next < selected.size(); ++next) {
    const JitFunction &f = functions[selected[next]];
    std::set<std::string> words;
    for (size_t line = f.first; line <= f.last; ++line) {
      std::set<std::string> lineWords = collectWords(lines[line]);
      words.insert(lineWords.begin(), lineWords.end());
    }
    for (size_t i = 0; i < functions.size(); ++i)
      if (!taken[i] && words.count(functions[i].name)) {
        selected.push_back(i);
        taken[i] = true;
      }
  }
  std::sort(selected.begin(), selected.end());
  return selected;
}
} // namespace

bool tilec::isJitDecoratorName(llvm::StringRef name) {
  return name == "triton.jit" || name == "jit" || name == "tilec.jit";
}

std::string tilec::extractTritonCode(llvm::StringRef text,
                                     llvm::StringRef kernel,
                                     std::vector<std::string> *hostNames) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  std::vector<bool> keep(lines.size(), false);
  std::vector<JitFunction> functions;
  std::vector<Statement> statements = splitStatements(lines);
  // Undecorated `def`s, which a later `NAME = triton.jit(NAME)` makes
  // `@triton.jit` functions: that decorator is then written on the (not
  // kept, so empty) line above the `def`.
  std::map<std::string, JitFunction> plainDefs;
  std::vector<size_t> decoratorLines;
  for (size_t i = 0; i < statements.size(); ++i) {
    const Statement &s = statements[i];
    if (std::string name = readDefName(s.head); !name.empty())
      plainDefs[name] = {name, s.first, s.last};
    if (std::string name = readJitWrap(s.head); !name.empty()) {
      auto def = plainDefs.find(name);
      if (def != plainDefs.end() && def->second.first > 0) {
        functions.push_back(def->second);
        decoratorLines.push_back(def->second.first - 1);
        if (hostNames)
          llvm::erase(*hostNames, name);
        continue;
      }
    }
    if (s.head.starts_with("@")) {
      // Decorators, then the statement they decorate.
      size_t j = i;
      bool jit = false;
      while (j < statements.size() && statements[j].head.starts_with("@"))
        jit |= isJitDecorator(statements[j++].head);
      if (j == statements.size())
        break;
      if (jit)
        functions.push_back(
            {readDefName(statements[j].head), s.first, statements[j].last});
      else if (hostNames)
        addDefinedName(statements[j].head, *hostNames);
      i = j;
      continue;
    }
    if (isConstexprGlobal(s.head)) {
      for (size_t line = s.first; line <= s.last; ++line)
        keep[line] = true;
    } else if (hostNames) {
      addDefinedName(s.head, *hostNames);
      // Names a compound statement defines (`if FAST: def exp(x): ...`,
      // `try: ... except: ...`): host code decides them too.
      for (size_t line = s.first + 1; line <= s.last; ++line)
        addDefinedName(lines[line].trim(), *hostNames);
    }
  }
  std::vector<bool> keptDecorator(lines.size(), false);
  for (size_t f : selectFunctions(functions, lines, kernel)) {
    for (size_t line = functions[f].first; line <= functions[f].last; ++line)
      keep[line] = true;
    for (size_t line : decoratorLines)
      if (line + 1 == functions[f].first)
        keptDecorator[line] = true;
  }
  std::string result;
  result.reserve(text.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i)
      result += '\n';
    if (keep[i])
      result += lines[i];
    else if (keptDecorator[i])
      result += "@triton.jit";
  }
  return result;
}
