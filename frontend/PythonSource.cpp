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
#include "tilec/Frontend/PythonHostEval.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

using namespace tilec;

namespace {
/// A top-level statement: physical lines [first, last] (0-based), and the
/// text of its first line from its first character on.
struct Statement {
  size_t first = 0, last = 0;
  /// The last physical line of the statement's first logical line.
  size_t headLast = 0;
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

/// The statements of the block of lines [first, last] whose statements
/// start at column `indent` (0 for the file), in order.
std::vector<Statement> splitStatements(llvm::ArrayRef<llvm::StringRef> lines,
                                       size_t first, size_t last,
                                       size_t indent) {
  std::vector<Statement> statements;
  LogicalLineScanner scanner(lines);
  for (size_t i = first; i <= last && i < lines.size();) {
    llvm::StringRef text = lines[i].rtrim("\r");
    llvm::StringRef stripped = text.ltrim(" \t\f");
    if (stripped.empty() || stripped.starts_with("#")) {
      ++i;
      continue;
    }
    size_t col = text.size() - stripped.size();
    size_t end = std::min(scanner.findEnd(i, col), last);
    if (col <= indent || statements.empty())
      statements.push_back({i, end, end, stripped});
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

/// `NAME = expr` or `NAME: T = expr` (one target): NAME and expr.
std::optional<std::pair<std::string, std::string>>
readAssignment(llvm::StringRef text) {
  auto isNameChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  llvm::StringRef name = text.take_while(isNameChar);
  if (name.empty() || llvm::isDigit(name[0]))
    return std::nullopt;
  llvm::StringRef rest = text.drop_front(name.size()).ltrim();
  if (rest.consume_front(":")) {
    size_t eq = rest.find('=');
    if (eq == llvm::StringRef::npos)
      return std::nullopt;
    rest = rest.drop_front(eq);
  }
  if (!rest.consume_front("=") || rest.starts_with("="))
    return std::nullopt;
  return std::make_pair(name.str(), rest.trim().str());
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
  if (auto assignment = readAssignment(head))
    names.push_back(assignment->first);
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
/// The first logical line of statement \p s, its physical lines joined.
std::string getHeadText(llvm::ArrayRef<llvm::StringRef> lines,
                        const Statement &s) {
  std::string text = s.head.rtrim("\r").str();
  for (size_t line = s.first + 1; line <= s.headLast; ++line)
    text += " " + lines[line].rtrim("\r").trim().str();
  return text;
}

/// The position of the first ':' of \p text outside brackets and strings
/// (the end of an `if` header), or npos.
size_t findHeaderColon(llvm::StringRef text) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      return llvm::StringRef::npos;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ':' && depth == 0) {
      return i;
    }
  }
  return llvm::StringRef::npos;
}

/// The keyword a clause of an `if` statement starts with ("if", "elif",
/// "else"), or "".
llvm::StringRef getClauseKeyword(llvm::StringRef head) {
  for (llvm::StringRef keyword : {"if", "elif", "else"})
    if (head.starts_with(keyword) &&
        (head.size() == keyword.size() ||
         !(llvm::isAlnum(head[keyword.size()]) || head[keyword.size()] == '_')))
      return keyword;
  return "";
}

/// The name an import gives `triton.language` or one of Triton's function
/// modules (libdevice, tl.math), with the module's dotted name; std::nullopt
/// for other statements: `import triton.language.extra.libdevice as
/// tldevice`, `from triton.language.extra.cuda import libdevice as ld`,
/// `import triton.language as language`.
std::optional<std::pair<std::string, std::string>>
readModuleAlias(llvm::StringRef head) {
  static const char *const kModules[] = {
      "triton.language", "triton.language.extra.libdevice",
      "triton.language.extra.cuda.libdevice", "triton.language.math"};
  llvm::SmallVector<llvm::StringRef> words;
  llvm::SplitString(head.split('#').first, words);
  std::string module;
  if (words.size() == 4 && words[0] == "import" && words[2] == "as")
    module = words[1].str();
  else if (words.size() == 6 && words[0] == "from" && words[2] == "import" &&
           words[4] == "as")
    module = (words[1] + "." + words[3]).str();
  else
    return std::nullopt;
  if (!llvm::is_contained(kModules, module))
    return std::nullopt;
  return std::make_pair(words.back().str(), module);
}

/// The walk over a file's statements that decides what to keep.
class Extractor {
public:
  Extractor(llvm::ArrayRef<llvm::StringRef> lines, HostCode *host)
      : lines(lines), keep(lines.size(), false), host(host) {}

  void processBlock(size_t first, size_t last, size_t indent);
  std::string finish(llvm::StringRef kernel);

private:
  void addHostName(llvm::StringRef head, const std::string &why = "");
  /// The `if` statement whose clauses are statements[i...]; returns the
  /// index of its last clause.
  size_t processIf(llvm::ArrayRef<Statement> statements, size_t i);

  /// Module-level `if`s nested deeper than this are host code (Python's
  /// own parser stops near 100 levels); the walk's recursion stays small.
  static constexpr unsigned kMaxIfNesting = 64;
  unsigned ifNesting = 0;

  llvm::ArrayRef<llvm::StringRef> lines;
  std::vector<bool> keep;
  HostCode *host;
  HostScope scope;
  std::vector<JitFunction> functions;
  /// Undecorated `def`s, which a later `NAME = triton.jit(NAME)` makes
  /// `@triton.jit` functions: that decorator is then written on the (not
  /// kept, so empty) line above the `def`, with the def's indentation.
  std::map<std::string, JitFunction> plainDefs;
  std::map<size_t, std::string> decoratorLines;
  /// Lines written instead of the (not kept) text: `pass` for the header of
  /// a chosen clause.
  std::map<size_t, std::string> replacements;
};

void Extractor::addHostName(llvm::StringRef head, const std::string &why) {
  if (!host)
    return;
  size_t before = host->names.size();
  addDefinedName(head, host->names);
  if (!why.empty())
    for (size_t i = before; i < host->names.size(); ++i)
      host->whyUndecided[host->names[i]] = why;
}

size_t Extractor::processIf(llvm::ArrayRef<Statement> statements, size_t i) {
  size_t end = i;
  while (end + 1 < statements.size()) {
    llvm::StringRef keyword = getClauseKeyword(statements[end + 1].head);
    if (keyword != "elif" && keyword != "else")
      break;
    ++end;
  }
  std::optional<size_t> chosen;
  std::string why;
  if (ifNesting >= kMaxIfNesting)
    why = "it is nested more than " + std::to_string(kMaxIfNesting) +
          " levels deep";
  for (size_t c = i; c <= end && !chosen && why.empty(); ++c) {
    std::string head = getHeadText(lines, statements[c]);
    llvm::StringRef keyword = getClauseKeyword(head);
    size_t colon = findHeaderColon(head);
    if (colon == llvm::StringRef::npos) {
      why = "tilec cannot read its header";
      break;
    }
    if (keyword == "else") {
      chosen = c;
      break;
    }
    llvm::StringRef condition =
        llvm::StringRef(head).slice(keyword.size(), colon);
    std::string reason;
    std::optional<HostValue> value = scope.evaluate(condition, reason);
    if (!value)
      why = "its condition has " + reason + ", which tilec cannot evaluate";
    else if (value->isTruthy())
      chosen = c;
  }
  auto bodyOf = [&](const Statement &clause) {
    std::string head = getHeadText(lines, clause);
    size_t colon = findHeaderColon(head);
    // `if X: stmt` on one line: no block to keep.
    bool inlineBody =
        colon == llvm::StringRef::npos ||
        !llvm::StringRef(head).drop_front(colon + 1).trim().empty();
    return inlineBody ? std::optional<std::pair<size_t, size_t>>()
                      : std::make_pair(clause.headLast + 1, clause.last);
  };
  if (!why.empty()) {
    // Undecided: every name any clause defines is the host code's.
    std::string note = "under the module-level 'if' on line " +
                       std::to_string(statements[i].first + 1) + "; " + why;
    for (size_t c = i; c <= end; ++c)
      for (size_t line = statements[c].first; line <= statements[c].last;
           ++line)
        addHostName(lines[line].trim(), note);
    return end;
  }
  if (!chosen)
    return end;
  const Statement &clause = statements[*chosen];
  auto body = bodyOf(clause);
  if (!body) {
    for (size_t line = clause.first; line <= clause.last; ++line)
      addHostName(lines[line].trim());
    return end;
  }
  // The header becomes `pass` at its indentation: the lexer then closes
  // the blocks of the kept lines above before the clause's block opens.
  llvm::StringRef headerLine = lines[clause.first];
  replacements[clause.first] =
      headerLine.take_front(headerLine.size() - headerLine.ltrim().size())
          .str() +
      "pass";
  for (size_t line = body->first; line <= body->second; ++line) {
    llvm::StringRef text = lines[line].rtrim("\r");
    llvm::StringRef stripped = text.ltrim(" \t\f");
    if (stripped.empty() || stripped.starts_with("#"))
      continue;
    ++ifNesting;
    processBlock(body->first, body->second, text.size() - stripped.size());
    --ifNesting;
    break;
  }
  return end;
}

void Extractor::processBlock(size_t first, size_t last, size_t indent) {
  std::vector<Statement> statements =
      splitStatements(lines, first, last, indent);
  for (size_t i = 0; i < statements.size(); ++i) {
    const Statement &s = statements[i];
    if (std::string name = readDefName(s.head); !name.empty())
      plainDefs[name] = {name, s.first, s.last};
    if (std::string name = readJitWrap(s.head); !name.empty()) {
      auto def = plainDefs.find(name);
      if (def != plainDefs.end() && def->second.first > 0) {
        functions.push_back(def->second);
        llvm::StringRef defLine = lines[def->second.first];
        decoratorLines[def->second.first - 1] =
            defLine.take_front(defLine.size() - defLine.ltrim().size()).str() +
            "@triton.jit";
        if (host)
          llvm::erase(host->names, name);
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
      else
        addHostName(statements[j].head);
      i = j;
      continue;
    }
    if (isConstexprGlobal(s.head)) {
      for (size_t line = s.first; line <= s.last; ++line)
        keep[line] = true;
      continue;
    }
    if (getClauseKeyword(s.head) == "if") {
      i = processIf(statements, i);
      continue;
    }
    if (auto alias = readModuleAlias(s.head)) {
      if (host && alias->second == "triton.language")
        host->languageAliases.push_back(alias->first);
      else if (host)
        host->moduleAliases.push_back(alias->first);
      continue;
    }
    // A host assignment: its value, when tilec can work it out, serves
    // later conditions (`TRITON3 = int(triton.__version__[0]) >= 3`).
    if (s.headLast == s.last)
      if (auto assignment = readAssignment(getHeadText(lines, s))) {
        std::string why;
        scope.assign(assignment->first,
                     scope.evaluate(assignment->second, why));
      }
    addHostName(s.head);
    // Names a compound statement defines (`try: ... except: ...`, `for`):
    // host code decides them too.
    for (size_t line = s.first + 1; line <= s.last; ++line)
      addHostName(lines[line].trim());
  }
}

std::string Extractor::finish(llvm::StringRef kernel) {
  std::vector<bool> keptDecorator(lines.size(), false);
  for (size_t f : selectFunctions(functions, lines, kernel)) {
    for (size_t line = functions[f].first; line <= functions[f].last; ++line)
      keep[line] = true;
    if (functions[f].first > 0 && decoratorLines.count(functions[f].first - 1))
      keptDecorator[functions[f].first - 1] = true;
  }
  if (host)
    host->environmentReads = scope.getEnvironmentReads();
  std::string result;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i)
      result += '\n';
    if (keep[i])
      result += lines[i];
    else if (keptDecorator[i])
      result += decoratorLines[i];
    else if (auto it = replacements.find(i); it != replacements.end())
      result += it->second;
  }
  return result;
}
} // namespace

bool tilec::isJitDecoratorName(llvm::StringRef name) {
  return name == "triton.jit" || name == "jit" || name == "tilec.jit";
}

std::string tilec::extractTritonCode(llvm::StringRef text,
                                     llvm::StringRef kernel, HostCode *host) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  Extractor extractor(lines, host);
  extractor.processBlock(0, lines.size() - 1, 0);
  return extractor.finish(kernel);
}

std::string tilec::describeHostEnvironment(llvm::StringRef text) {
  HostCode host;
  extractTritonCode(text, "", &host);
  std::string lines;
  for (const std::string &entry : host.environmentReads)
    lines += entry + "\n";
  return lines;
}
