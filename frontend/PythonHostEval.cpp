//===- PythonHostEval.cpp - Module-level values of a Python file ----------===//
//
// A tokenizer and recursive-descent parser for one Python expression into a
// small tree, and an evaluator over HostValue (PythonHostEval.h). Bounded:
// nesting is limited, integer arithmetic checks for overflow, and strings
// and sequences never grow beyond the input's size times a small factor.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/PythonHostEval.h"
#include "tilec/Support/FloorDivision.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdlib>
#include <memory>

using namespace tilec;

HostValue HostValue::ofBool(bool b) {
  HostValue v;
  v.kind = Kind::Bool;
  v.boolean = b;
  return v;
}

HostValue HostValue::ofInt(int64_t i) {
  HostValue v;
  v.kind = Kind::Int;
  v.integer = i;
  return v;
}

HostValue HostValue::ofFloat(double f) {
  HostValue v;
  v.kind = Kind::Float;
  v.real = f;
  return v;
}

HostValue HostValue::ofString(std::string s) {
  HostValue v;
  v.kind = Kind::String;
  v.text = std::move(s);
  return v;
}

HostValue HostValue::ofSequence(std::vector<HostValue> items) {
  HostValue v;
  v.kind = Kind::Sequence;
  v.items = std::move(items);
  return v;
}

bool HostValue::isTruthy() const {
  switch (kind) {
  case Kind::None:
    return false;
  case Kind::Bool:
    return boolean;
  case Kind::Int:
    return integer != 0;
  case Kind::Float:
    return real != 0;
  case Kind::String:
    return !text.empty();
  case Kind::Sequence:
    return !items.empty();
  }
  return false;
}

std::string HostValue::repr() const {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return boolean ? "True" : "False";
  case Kind::Int:
    return std::to_string(integer);
  case Kind::Float: {
    // The shortest spelling that reads back as the same double, as Python.
    if (!std::isfinite(real))
      return std::isnan(real) ? "nan" : real > 0 ? "inf" : "-inf";
    std::string text;
    for (int digits = 1; digits <= 17; ++digits) {
      text = llvm::formatv("{0}", llvm::format("%.*g", digits, real)).str();
      if (std::strtod(text.c_str(), nullptr) == real)
        break;
    }
    if (text.find_first_of(".e") == std::string::npos)
      text += ".0";
    return text;
  }
  case Kind::String:
    return "'" + text + "'";
  case Kind::Sequence: {
    std::string s = "(";
    for (size_t i = 0; i < items.size(); ++i)
      s += (i ? ", " : "") + items[i].repr();
    return s + (items.size() == 1 ? ",)" : ")");
  }
  }
  return "";
}

const HostValue *HostScope::lookup(const std::string &name) const {
  auto it = names.find(name);
  return it == names.end() ? nullptr : &it->second;
}

void HostScope::assign(llvm::StringRef name, std::optional<HostValue> value) {
  if (value)
    names[name.str()] = std::move(*value);
  else
    names.erase(name.str());
}

std::optional<std::string> HostScope::readEnvironment(const std::string &name) {
  const char *value = std::getenv(name.c_str());
  std::string entry = value ? name + "=" + value : name + " unset";
  if (!llvm::is_contained(environmentReads, entry))
    environmentReads.push_back(entry);
  if (!value)
    return std::nullopt;
  return std::string(value);
}

namespace {
//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

enum class Tok { Name, Number, String, Op, End };

struct Token {
  Tok kind = Tok::End;
  std::string text; // a name, an operator, a number's spelling, a string
};

/// Splits \p text into tokens; false (with \p why) on a character tilec
/// does not read (f-strings, bytes, comments are fine: they end the text).
bool tokenize(llvm::StringRef text, std::vector<Token> &tokens,
              std::string &why) {
  static const char *const kOps[] = {"**", "//", "==", "!=", "<=", ">=", "(",
                                     ")",  "[",  "]",  ",",  ".",  ":",  "+",
                                     "-",  "*",  "/",  "%",  "<",  ">"};
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (llvm::isSpace(c) || c == '\\') {
      ++i;
      continue;
    }
    if (c == '#')
      break;
    if (llvm::isAlpha(c) || c == '_') {
      size_t j = i;
      while (j < text.size() && (llvm::isAlnum(text[j]) || text[j] == '_'))
        ++j;
      llvm::StringRef word = text.slice(i, j);
      // A string prefix (r"...", f"...", b'...').
      if (j < text.size() && (text[j] == '"' || text[j] == '\'') &&
          word.size() <= 2) {
        if (word.lower() != "r") {
          why = "a '" + word.str() + "' string";
          return false;
        }
        i = j; // a raw string: read as a plain one below
        continue;
      }
      tokens.push_back({Tok::Name, word.str()});
      i = j;
      continue;
    }
    if (llvm::isDigit(c) ||
        (c == '.' && i + 1 < text.size() && llvm::isDigit(text[i + 1]))) {
      size_t j = i;
      while (j < text.size() &&
             (llvm::isAlnum(text[j]) || text[j] == '.' || text[j] == '_' ||
              ((text[j] == '+' || text[j] == '-') &&
               (text[j - 1] == 'e' || text[j - 1] == 'E'))))
        ++j;
      tokens.push_back({Tok::Number, text.slice(i, j).str()});
      i = j;
      continue;
    }
    if (c == '"' || c == '\'') {
      bool triple = text.substr(i, 3) == std::string(3, c);
      size_t j = i + (triple ? 3 : 1);
      std::string value;
      while (true) {
        if (j >= text.size()) {
          why = "an unterminated string";
          return false;
        }
        if (text[j] == '\\' && j + 1 < text.size()) {
          char e = text[j + 1];
          value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
          j += 2;
          continue;
        }
        if (text[j] == c &&
            (!triple || text.substr(j, 3) == std::string(3, c))) {
          j += triple ? 3 : 1;
          break;
        }
        value += text[j++];
      }
      // Adjacent literals concatenate.
      if (!tokens.empty() && tokens.back().kind == Tok::String)
        tokens.back().text += value;
      else
        tokens.push_back({Tok::String, value});
      i = j;
      continue;
    }
    bool matched = false;
    for (const char *op : kOps)
      if (text.substr(i).starts_with(op)) {
        tokens.push_back({Tok::Op, op});
        i += llvm::StringRef(op).size();
        matched = true;
        break;
      }
    if (!matched) {
      why = "the character '" + std::string(1, c) + "'";
      return false;
    }
  }
  tokens.push_back({Tok::End, ""});
  return true;
}

//===----------------------------------------------------------------------===//
// Expression tree
//===----------------------------------------------------------------------===//

struct Node {
  enum class Kind {
    Literal,
    Name,
    Attribute,
    Call,
    Subscript,
    Slice,
    Unary,
    Binary,
    Compare,
    And,
    Or,
    Not,
    IfElse,
    Sequence
  };
  Kind kind;
  std::string name; // a name, an attribute, an operator
  HostValue value;  // a literal
  std::vector<std::unique_ptr<Node>> children;
  std::vector<std::string> compareOps;
  std::vector<std::string> keywords; // a call's keyword names ("" = positional)
  explicit Node(Kind kind) : kind(kind) {}
};
using NodePtr = std::unique_ptr<Node>;

/// Recursive descent over Python's expression grammar (the part above).
class ExprParser {
public:
  ExprParser(std::vector<Token> tokens, std::string &why)
      : tokens(std::move(tokens)), why(why) {}

  NodePtr parseAll() {
    NodePtr e = parseTuple();
    if (e && tok().kind != Tok::End)
      return fail(describeTok() + " where an expression ends");
    return e;
  }

private:
  static constexpr int kMaxDepth = 64;

  const Token &tok() const { return tokens[pos]; }
  /// The token at the cursor, for messages.
  std::string describeTok() const {
    return tok().kind == Tok::End ? "the end of the expression"
                                  : "'" + tok().text + "'";
  }
  bool isOp(llvm::StringRef op) const {
    return tok().kind == Tok::Op && tok().text == op;
  }
  bool isName(llvm::StringRef name) const {
    return tok().kind == Tok::Name && tok().text == name;
  }
  bool consumeOp(llvm::StringRef op) {
    if (!isOp(op))
      return false;
    ++pos;
    return true;
  }
  NodePtr fail(std::string message) {
    if (why.empty())
      why = std::move(message);
    return nullptr;
  }

  /// expr (',' expr)* [','] : a tuple when there is a comma.
  NodePtr parseTuple() {
    NodePtr first = parseExpr();
    if (!first || !isOp(","))
      return first;
    auto seq = std::make_unique<Node>(Node::Kind::Sequence);
    seq->children.push_back(std::move(first));
    while (consumeOp(",")) {
      if (isOp(")") || isOp("]") || tok().kind == Tok::End)
        break;
      NodePtr next = parseExpr();
      if (!next)
        return nullptr;
      seq->children.push_back(std::move(next));
    }
    return seq;
  }

  NodePtr parseExpr() {
    if (++depth > kMaxDepth)
      return fail("an expression nested too deeply");
    NodePtr e = parseIfElse();
    --depth;
    return e;
  }

  NodePtr parseIfElse() {
    NodePtr value = parseOr();
    if (!value || !isName("if"))
      return value;
    ++pos;
    NodePtr cond = parseOr();
    if (!cond)
      return nullptr;
    if (!isName("else"))
      return fail("a conditional expression without 'else'");
    ++pos;
    NodePtr other = parseExpr();
    if (!other)
      return nullptr;
    auto n = std::make_unique<Node>(Node::Kind::IfElse);
    n->children.push_back(std::move(cond));
    n->children.push_back(std::move(value));
    n->children.push_back(std::move(other));
    return n;
  }

  NodePtr parseBoolChain(Node::Kind kind, llvm::StringRef word,
                         NodePtr (ExprParser::*next)()) {
    NodePtr first = (this->*next)();
    if (!first || !isName(word))
      return first;
    auto n = std::make_unique<Node>(kind);
    n->children.push_back(std::move(first));
    while (isName(word)) {
      ++pos;
      NodePtr operand = (this->*next)();
      if (!operand)
        return nullptr;
      n->children.push_back(std::move(operand));
    }
    return n;
  }
  NodePtr parseOr() {
    return parseBoolChain(Node::Kind::Or, "or", &ExprParser::parseAnd);
  }
  NodePtr parseAnd() {
    return parseBoolChain(Node::Kind::And, "and", &ExprParser::parseNot);
  }

  NodePtr parseNot() {
    if (!isName("not"))
      return parseCompare();
    ++pos;
    if (++depth > kMaxDepth)
      return fail("an expression nested too deeply");
    NodePtr operand = parseNot();
    --depth;
    if (!operand)
      return nullptr;
    auto n = std::make_unique<Node>(Node::Kind::Not);
    n->children.push_back(std::move(operand));
    return n;
  }

  /// The comparison operator at the cursor ("not in", "is not", ...), or "".
  std::string readCompareOp() {
    static const char *const kOps[] = {"==", "!=", "<=", ">=", "<", ">"};
    for (const char *op : kOps)
      if (consumeOp(op))
        return op;
    if (isName("in")) {
      ++pos;
      return "in";
    }
    if (isName("is")) {
      ++pos;
      if (isName("not")) {
        ++pos;
        return "is not";
      }
      return "is";
    }
    if (isName("not") && tokens[pos + 1].kind == Tok::Name &&
        tokens[pos + 1].text == "in") {
      pos += 2;
      return "not in";
    }
    return "";
  }

  NodePtr parseCompare() {
    NodePtr first = parseArith();
    if (!first)
      return nullptr;
    std::string op = readCompareOp();
    if (op.empty())
      return first;
    auto n = std::make_unique<Node>(Node::Kind::Compare);
    n->children.push_back(std::move(first));
    while (!op.empty()) {
      NodePtr next = parseArith();
      if (!next)
        return nullptr;
      n->compareOps.push_back(op);
      n->children.push_back(std::move(next));
      op = readCompareOp();
    }
    return n;
  }

  NodePtr binary(std::string op, NodePtr lhs, NodePtr rhs) {
    auto n = std::make_unique<Node>(Node::Kind::Binary);
    n->name = std::move(op);
    n->children.push_back(std::move(lhs));
    n->children.push_back(std::move(rhs));
    return n;
  }

  NodePtr parseArith() {
    NodePtr lhs = parseTerm();
    while (lhs && (isOp("+") || isOp("-"))) {
      std::string op = tok().text;
      ++pos;
      NodePtr rhs = parseTerm();
      if (!rhs)
        return nullptr;
      lhs = binary(op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  NodePtr parseTerm() {
    NodePtr lhs = parseUnary();
    while (lhs && (isOp("*") || isOp("/") || isOp("//") || isOp("%"))) {
      std::string op = tok().text;
      ++pos;
      NodePtr rhs = parseUnary();
      if (!rhs)
        return nullptr;
      lhs = binary(op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  NodePtr parseUnary() {
    if (isOp("-") || isOp("+")) {
      std::string op = tok().text;
      ++pos;
      if (++depth > kMaxDepth)
        return fail("an expression nested too deeply");
      NodePtr operand = parseUnary();
      --depth;
      if (!operand)
        return nullptr;
      auto n = std::make_unique<Node>(Node::Kind::Unary);
      n->name = op;
      n->children.push_back(std::move(operand));
      return n;
    }
    NodePtr base = parsePostfix();
    if (base && isOp("**"))
      return fail("'**'");
    return base;
  }

  NodePtr parsePostfix() {
    NodePtr e = parseAtom();
    while (e) {
      if (consumeOp(".")) {
        if (tok().kind != Tok::Name)
          return fail("'.' without a name after it");
        auto n = std::make_unique<Node>(Node::Kind::Attribute);
        n->name = tok().text;
        ++pos;
        n->children.push_back(std::move(e));
        e = std::move(n);
      } else if (consumeOp("(")) {
        auto n = std::make_unique<Node>(Node::Kind::Call);
        n->children.push_back(std::move(e));
        while (!consumeOp(")")) {
          std::string keyword;
          if (tok().kind == Tok::Name && tokens[pos + 1].kind == Tok::Op &&
              tokens[pos + 1].text == "=") {
            keyword = tok().text;
            pos += 2;
          }
          NodePtr arg = parseExpr();
          if (!arg)
            return nullptr;
          if (isName("for"))
            return fail("a generator expression");
          n->children.push_back(std::move(arg));
          n->keywords.push_back(keyword);
          if (!consumeOp(",") && !isOp(")"))
            return fail(describeTok() + " in a call's arguments");
        }
        e = std::move(n);
      } else if (consumeOp("[")) {
        auto n = std::make_unique<Node>(Node::Kind::Subscript);
        n->children.push_back(std::move(e));
        NodePtr index = parseIndex();
        if (!index)
          return nullptr;
        if (!consumeOp("]"))
          return fail("a subscript without ']'");
        n->children.push_back(std::move(index));
        e = std::move(n);
      } else {
        break;
      }
    }
    return e;
  }

  /// An index, or a slice `[lo]:[hi]` (a Slice node with null bounds).
  NodePtr parseIndex() {
    NodePtr lo;
    if (!isOp(":")) {
      lo = parseExpr();
      if (!lo)
        return nullptr;
      if (!isOp(":"))
        return lo;
    }
    ++pos; // ':'
    NodePtr hi;
    if (!isOp("]") && !isOp(":")) {
      hi = parseExpr();
      if (!hi)
        return nullptr;
    }
    if (isOp(":"))
      return fail("a slice with a step");
    auto n = std::make_unique<Node>(Node::Kind::Slice);
    n->children.push_back(std::move(lo));
    n->children.push_back(std::move(hi));
    return n;
  }

  NodePtr literal(HostValue value) {
    auto n = std::make_unique<Node>(Node::Kind::Literal);
    n->value = std::move(value);
    ++pos;
    return n;
  }

  NodePtr parseAtom() {
    const Token &t = tok();
    switch (t.kind) {
    case Tok::End:
      return fail("an expression that ends too early");
    case Tok::String:
      return literal(HostValue::ofString(t.text));
    case Tok::Number:
      return parseNumber(t.text);
    case Tok::Name: {
      if (t.text == "True" || t.text == "False")
        return literal(HostValue::ofBool(t.text == "True"));
      if (t.text == "None")
        return literal(HostValue::none());
      if (t.text == "lambda" || t.text == "await" || t.text == "yield")
        return fail("'" + t.text + "'");
      auto n = std::make_unique<Node>(Node::Kind::Name);
      n->name = t.text;
      ++pos;
      return n;
    }
    case Tok::Op:
      break;
    }
    if (isOp("(") || isOp("[")) {
      std::string close = isOp("(") ? ")" : "]";
      bool list = isOp("[");
      ++pos;
      if (++depth > kMaxDepth)
        return fail("an expression nested too deeply");
      if (consumeOp(close)) {
        --depth;
        return std::make_unique<Node>(Node::Kind::Sequence);
      }
      NodePtr inner = parseTuple();
      --depth;
      if (!inner)
        return nullptr;
      if (isName("for"))
        return fail("a comprehension");
      if (!consumeOp(close))
        return fail(describeTok() + " where '" + close + "' belongs");
      if (list && inner->kind != Node::Kind::Sequence) {
        auto seq = std::make_unique<Node>(Node::Kind::Sequence);
        seq->children.push_back(std::move(inner));
        return seq;
      }
      return inner;
    }
    return fail("'" + t.text + "'");
  }

  NodePtr parseNumber(llvm::StringRef spelling) {
    std::string digits;
    for (char c : spelling)
      if (c != '_')
        digits += c;
    llvm::StringRef text(digits);
    int64_t i = 0;
    if (!text.getAsInteger(0, i) || (text.size() > 2 && text[0] == '0' &&
                                     (text[1] == 'o' || text[1] == 'O') &&
                                     !text.drop_front(2).getAsInteger(8, i)))
      return literal(HostValue::ofInt(i));
    double f = 0;
    if (!text.getAsDouble(f))
      return literal(HostValue::ofFloat(f));
    return fail("the number '" + spelling.str() + "'");
  }

  std::vector<Token> tokens;
  size_t pos = 0;
  int depth = 0;
  std::string &why;
};

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

using Kind = HostValue::Kind;
using Result = std::optional<HostValue>;

/// "os.environ.get" for a chain of names and attributes; "" otherwise.
std::string getDottedPath(const Node &n) {
  if (n.kind == Node::Kind::Name)
    return n.name;
  if (n.kind == Node::Kind::Attribute) {
    std::string base = getDottedPath(*n.children[0]);
    return base.empty() ? "" : base + "." + n.name;
  }
  return "";
}

bool isNumber(const HostValue &v) {
  return v.kind == Kind::Bool || v.kind == Kind::Int || v.kind == Kind::Float;
}
double asDouble(const HostValue &v) {
  return v.kind == Kind::Float  ? v.real
         : v.kind == Kind::Bool ? double(v.boolean)
                                : double(v.integer);
}
bool isIntegral(const HostValue &v) {
  return v.kind == Kind::Bool || v.kind == Kind::Int;
}
int64_t asInt(const HostValue &v) {
  return v.kind == Kind::Bool ? int64_t(v.boolean) : v.integer;
}

/// The leading numbers of a version string: "3.6.0" -> (3, 6, 0),
/// "2.1.0+cu121" -> (2, 1, 0) (what version checks compare).
HostValue parseVersion(llvm::StringRef text) {
  std::vector<HostValue> parts;
  llvm::SmallVector<llvm::StringRef> pieces;
  text.split(pieces, '.');
  for (llvm::StringRef piece : pieces) {
    llvm::StringRef digits = piece.take_while(llvm::isDigit);
    int64_t value = 0;
    if (digits.empty() || digits.size() > 9 || digits.getAsInteger(10, value))
      break;
    parts.push_back(HostValue::ofInt(value));
    if (digits.size() != piece.size())
      break;
  }
  return HostValue::ofSequence(std::move(parts));
}

class Evaluator {
public:
  Evaluator(HostScope &scope, std::string &why, size_t budget)
      : scope(scope), why(why), budget(budget) {}

  Result eval(const Node &n) {
    switch (n.kind) {
    case Node::Kind::Literal:
      return n.value;
    case Node::Kind::Name:
    case Node::Kind::Attribute:
      return evalReference(n);
    case Node::Kind::Call:
      return evalCall(n);
    case Node::Kind::Subscript:
      return evalSubscript(n);
    case Node::Kind::Slice:
      return fail("a slice outside a subscript");
    case Node::Kind::Unary:
      return evalUnary(n);
    case Node::Kind::Binary:
      return evalBinary(n);
    case Node::Kind::Compare:
      return evalCompare(n);
    case Node::Kind::And:
    case Node::Kind::Or: {
      bool isAnd = n.kind == Node::Kind::And;
      Result value;
      for (const NodePtr &child : n.children) {
        value = eval(*child);
        if (!value)
          return std::nullopt;
        if (value->isTruthy() != isAnd)
          return value;
      }
      return value;
    }
    case Node::Kind::Not: {
      Result value = eval(*n.children[0]);
      if (!value)
        return std::nullopt;
      return HostValue::ofBool(!value->isTruthy());
    }
    case Node::Kind::IfElse: {
      Result cond = eval(*n.children[0]);
      if (!cond)
        return std::nullopt;
      return eval(*n.children[cond->isTruthy() ? 1 : 2]);
    }
    case Node::Kind::Sequence: {
      std::vector<HostValue> items;
      for (const NodePtr &child : n.children) {
        Result item = eval(*child);
        if (!item)
          return std::nullopt;
        items.push_back(std::move(*item));
      }
      return HostValue::ofSequence(std::move(items));
    }
    }
    return fail("an expression");
  }

private:
  Result fail(std::string message) {
    if (why.empty())
      why = std::move(message);
    return std::nullopt;
  }

  /// A string or sequence result, if it stays within the budget.
  Result sized(HostValue v) {
    size_t size = v.kind == Kind::String ? v.text.size() : v.items.size();
    if (size > budget)
      return fail("a value larger than the expression");
    return v;
  }

  Result evalReference(const Node &n) {
    std::string path = getDottedPath(n);
    if (path.empty()) {
      // An attribute of a computed value: no such attributes are read.
      return fail("the attribute '" + n.name + "'");
    }
    if (const HostValue *v = scope.lookup(path))
      return *v;
    if (path == "triton.__version__")
      return HostValue::ofString(kTritonLanguageVersion);
    return fail("'" + path + "'");
  }

  /// Reads environment variable \p key with \p fallback when unset
  /// (`os.environ.get`, `os.getenv`); no fallback gives None.
  Result readEnvironment(const HostValue &key, const HostValue *fallback) {
    if (key.kind != Kind::String)
      return fail("an environment variable name that is not a string");
    std::optional<std::string> value = scope.readEnvironment(key.text);
    if (value)
      return HostValue::ofString(*value);
    return fallback ? *fallback : HostValue::none();
  }

  Result evalCall(const Node &n) {
    const Node &callee = *n.children[0];
    std::string path = getDottedPath(callee);
    for (const std::string &keyword : n.keywords)
      if (!keyword.empty())
        return fail("the keyword argument '" + keyword + "'");
    // map(int, parts): the function is a name, not a value.
    if (path == "map" && n.children.size() == 3)
      return evalMap(*n.children[1], *n.children[2]);
    std::vector<HostValue> args;
    for (size_t i = 1; i < n.children.size(); ++i) {
      Result arg = eval(*n.children[i]);
      if (!arg)
        return std::nullopt;
      args.push_back(std::move(*arg));
    }
    // A method of a value ("3.6".split(".")), unless the path is a function
    // tilec knows (os.environ.get).
    if (callee.kind == Node::Kind::Attribute && !isKnownFunction(path)) {
      std::string selfWhy;
      Evaluator inner(scope, selfWhy, budget);
      Result self = inner.eval(*callee.children[0]);
      if (!self)
        return fail(path.empty() ? selfWhy : "a call of '" + path + "'");
      return callMethod(*self, callee.name, args);
    }
    if (path.empty())
      return fail("a call of a computed value");
    return callFunction(path, args);
  }

  /// `map(f, items)` with f one of int, float, str, bool: a sequence.
  Result evalMap(const Node &function, const Node &items) {
    std::string name = getDottedPath(function);
    if (!llvm::is_contained({"int", "float", "str", "bool"}, name))
      return fail("map of '" + name + "'");
    Result values = eval(items);
    if (!values)
      return std::nullopt;
    if (values->kind != Kind::Sequence)
      return fail("map over " + values->repr());
    std::vector<HostValue> mapped;
    for (const HostValue &value : values->items) {
      Result item = callFunction(name, value);
      if (!item)
        return std::nullopt;
      mapped.push_back(std::move(*item));
    }
    return HostValue::ofSequence(std::move(mapped));
  }

  static bool isKnownFunction(llvm::StringRef path) {
    return llvm::is_contained({"os.environ.get", "os.getenv", "environ.get",
                               "getenv", "version.parse",
                               "packaging.version.parse", "Version",
                               "version.Version", "packaging.version.Version"},
                              path);
  }

  Result callFunction(llvm::StringRef path, llvm::ArrayRef<HostValue> args) {
    auto arity = [&](size_t lo, size_t hi) {
      return args.size() >= lo && args.size() <= hi;
    };
    if (path == "os.environ.get" || path == "os.getenv" ||
        path == "environ.get" || path == "getenv") {
      if (!arity(1, 2))
        return fail("'" + path.str() + "' with " + std::to_string(args.size()) +
                    " arguments");
      return readEnvironment(args[0], args.size() == 2 ? &args[1] : nullptr);
    }
    if (isKnownFunction(path)) { // version parsing
      if (!arity(1, 1) || args[0].kind != Kind::String)
        return fail("'" + path.str() + "' of a non-string");
      return parseVersion(args[0].text);
    }
    if (path == "int") {
      if (!arity(1, 1))
        return fail("'int' with a base");
      const HostValue &v = args[0];
      if (isIntegral(v))
        return HostValue::ofInt(asInt(v));
      if (v.kind == Kind::Float && std::isfinite(v.real) &&
          std::fabs(v.real) < 9.2e18)
        return HostValue::ofInt(int64_t(v.real));
      int64_t i = 0;
      if (v.kind == Kind::String &&
          !llvm::StringRef(v.text).trim().getAsInteger(10, i))
        return HostValue::ofInt(i);
      return fail("int(" + v.repr() + ")");
    }
    if (path == "float") {
      if (!arity(1, 1))
        return fail("'float' with several arguments");
      if (isNumber(args[0]))
        return HostValue::ofFloat(asDouble(args[0]));
      double f = 0;
      if (args[0].kind == Kind::String &&
          !llvm::StringRef(args[0].text).trim().getAsDouble(f))
        return HostValue::ofFloat(f);
      return fail("float(" + args[0].repr() + ")");
    }
    if (path == "bool" && arity(1, 1))
      return HostValue::ofBool(args[0].isTruthy());
    if (path == "str" && arity(1, 1))
      return args[0].kind == Kind::String ? args[0]
                                          : HostValue::ofString(args[0].repr());
    if (path == "len" && arity(1, 1)) {
      if (args[0].kind == Kind::String)
        return HostValue::ofInt(args[0].text.size());
      if (args[0].kind == Kind::Sequence)
        return HostValue::ofInt(args[0].items.size());
      return fail("len(" + args[0].repr() + ")");
    }
    if ((path == "tuple" || path == "list") && arity(1, 1)) {
      if (args[0].kind == Kind::Sequence)
        return args[0];
      if (args[0].kind == Kind::String) {
        std::vector<HostValue> chars;
        for (char c : args[0].text)
          chars.push_back(HostValue::ofString(std::string(1, c)));
        return HostValue::ofSequence(std::move(chars));
      }
      return fail(path.str() + "(" + args[0].repr() + ")");
    }
    if ((path == "min" || path == "max") && !args.empty()) {
      llvm::ArrayRef<HostValue> items = args;
      if (args.size() == 1 && args[0].kind == Kind::Sequence)
        items = args[0].items;
      if (items.empty())
        return fail(path.str() + " of nothing");
      HostValue best = items[0];
      for (const HostValue &item : items.drop_front()) {
        std::optional<int> order = compare(item, best);
        if (!order)
          return std::nullopt;
        if (path == "min" ? *order < 0 : *order > 0)
          best = item;
      }
      return best;
    }
    return fail("a call of '" + path.str() + "'");
  }

  Result callMethod(const HostValue &self, llvm::StringRef method,
                    llvm::ArrayRef<HostValue> args) {
    if (self.kind != Kind::String)
      return fail("the method '" + method.str() + "' of " + self.repr());
    llvm::StringRef text = self.text;
    auto stringArg = [&](size_t i) -> const std::string * {
      return i < args.size() && args[i].kind == Kind::String ? &args[i].text
                                                             : nullptr;
    };
    if (method == "split" && args.size() <= 1) {
      std::vector<HostValue> parts;
      llvm::SmallVector<llvm::StringRef> pieces;
      if (args.empty()) {
        llvm::SplitString(text, pieces);
      } else if (const std::string *sep = stringArg(0); sep && !sep->empty()) {
        text.split(pieces, *sep);
      } else {
        return fail("split with " + args[0].repr());
      }
      for (llvm::StringRef piece : pieces)
        parts.push_back(HostValue::ofString(piece.str()));
      return sized(HostValue::ofSequence(std::move(parts)));
    }
    if (args.empty()) {
      if (method == "strip")
        return HostValue::ofString(text.trim().str());
      if (method == "lower")
        return HostValue::ofString(text.lower());
      if (method == "upper")
        return HostValue::ofString(text.upper());
      if (method == "isdigit")
        return HostValue::ofBool(!text.empty() &&
                                 llvm::all_of(text, llvm::isDigit));
    }
    if (const std::string *arg = stringArg(0); arg && args.size() == 1) {
      if (method == "startswith")
        return HostValue::ofBool(text.starts_with(*arg));
      if (method == "endswith")
        return HostValue::ofBool(text.ends_with(*arg));
    }
    return fail("the string method '" + method.str() + "'");
  }

  Result evalSubscript(const Node &n) {
    const Node &base = *n.children[0];
    const Node &index = *n.children[1];
    std::string path = getDottedPath(base);
    if ((path == "os.environ" || path == "environ") && !scope.lookup(path)) {
      Result key = eval(index);
      if (!key)
        return std::nullopt;
      if (key->kind != Kind::String)
        return fail("os.environ[" + key->repr() + "]");
      std::optional<std::string> value = scope.readEnvironment(key->text);
      if (!value)
        return fail("os.environ['" + key->text + "'] of an unset variable");
      return HostValue::ofString(*value);
    }
    Result self = eval(base);
    if (!self)
      return std::nullopt;
    if (self->kind != Kind::String && self->kind != Kind::Sequence)
      return fail("a subscript of " + self->repr());
    int64_t size =
        self->kind == Kind::String ? self->text.size() : self->items.size();
    auto element = [&](int64_t i) {
      return self->kind == Kind::String
                 ? HostValue::ofString(std::string(1, self->text[i]))
                 : self->items[i];
    };
    auto bound = [&](const Node *e,
                     int64_t fallback) -> std::optional<int64_t> {
      if (!e)
        return fallback;
      Result v = eval(*e);
      if (!v)
        return std::nullopt;
      if (!isIntegral(*v)) {
        fail("an index " + v->repr());
        return std::nullopt;
      }
      int64_t i = asInt(*v);
      if (i < 0)
        i = std::max<int64_t>(i + size, 0);
      return std::min(i, size);
    };
    if (index.kind == Node::Kind::Slice) {
      std::optional<int64_t> lo = bound(index.children[0].get(), 0);
      std::optional<int64_t> hi = bound(index.children[1].get(), size);
      if (!lo || !hi)
        return std::nullopt;
      if (self->kind == Kind::String)
        return HostValue::ofString(*hi > *lo ? self->text.substr(*lo, *hi - *lo)
                                             : "");
      std::vector<HostValue> items;
      for (int64_t i = *lo; i < *hi; ++i)
        items.push_back(self->items[i]);
      return HostValue::ofSequence(std::move(items));
    }
    Result key = eval(index);
    if (!key)
      return std::nullopt;
    if (!isIntegral(*key))
      return fail("an index " + key->repr());
    int64_t i = asInt(*key);
    if (i < 0)
      i += size;
    if (i < 0 || i >= size)
      return fail("an index out of range");
    return element(i);
  }

  Result evalUnary(const Node &n) {
    Result v = eval(*n.children[0]);
    if (!v)
      return std::nullopt;
    if (!isNumber(*v))
      return fail("'" + n.name + "' on " + v->repr());
    if (n.name == "+")
      return isIntegral(*v) ? HostValue::ofInt(asInt(*v)) : *v;
    if (v->kind == Kind::Float)
      return HostValue::ofFloat(-v->real);
    if (asInt(*v) == INT64_MIN)
      return fail("an integer that overflows");
    return HostValue::ofInt(-asInt(*v));
  }

  Result evalBinary(const Node &n) {
    Result lhs = eval(*n.children[0]);
    if (!lhs)
      return std::nullopt;
    Result rhs = eval(*n.children[1]);
    if (!rhs)
      return std::nullopt;
    const std::string &op = n.name;
    if (op == "+" && lhs->kind == rhs->kind &&
        (lhs->kind == Kind::String || lhs->kind == Kind::Sequence)) {
      HostValue sum = *lhs;
      sum.text += rhs->text;
      llvm::append_range(sum.items, rhs->items);
      return sized(std::move(sum));
    }
    if (op == "%" && lhs->kind == Kind::String)
      return fail("'%' formatting");
    if (!isNumber(*lhs) || !isNumber(*rhs))
      return fail("'" + op + "' on " + lhs->repr() + " and " + rhs->repr());
    if (isIntegral(*lhs) && isIntegral(*rhs) && op != "/") {
      int64_t a = asInt(*lhs), b = asInt(*rhs), r = 0;
      bool overflow = false;
      if (op == "+")
        overflow = llvm::AddOverflow(a, b, r);
      else if (op == "-")
        overflow = llvm::SubOverflow(a, b, r);
      else if (op == "*")
        overflow = llvm::MulOverflow(a, b, r);
      else if (b == 0)
        return fail("a division by zero");
      else if (a == INT64_MIN && b == -1)
        overflow = true;
      else
        r = op == "//" ? floorDivide(a, b) : floorModulo(a, b);
      if (overflow)
        return fail("an integer that overflows");
      return HostValue::ofInt(r);
    }
    double a = asDouble(*lhs), b = asDouble(*rhs);
    if ((op == "/" || op == "//" || op == "%") && b == 0)
      return fail("a division by zero");
    if (op == "+")
      return HostValue::ofFloat(a + b);
    if (op == "-")
      return HostValue::ofFloat(a - b);
    if (op == "*")
      return HostValue::ofFloat(a * b);
    if (op == "/")
      return HostValue::ofFloat(a / b);
    if (op == "//")
      return HostValue::ofFloat(std::floor(a / b));
    return HostValue::ofFloat(floorModulo(a, b));
  }

  /// -1, 0 or 1 for values Python orders (numbers, strings, sequences of
  /// them); std::nullopt (with `why`) for others.
  std::optional<int> compare(const HostValue &a, const HostValue &b) {
    if (isNumber(a) && isNumber(b)) {
      if (isIntegral(a) && isIntegral(b))
        return asInt(a) < asInt(b) ? -1 : asInt(a) > asInt(b);
      double x = asDouble(a), y = asDouble(b);
      return x < y ? -1 : x > y;
    }
    if (a.kind == Kind::String && b.kind == Kind::String)
      return a.text < b.text ? -1 : a.text > b.text;
    if (a.kind == Kind::Sequence && b.kind == Kind::Sequence) {
      for (size_t i = 0; i < a.items.size() && i < b.items.size(); ++i) {
        std::optional<int> order = compare(a.items[i], b.items[i]);
        if (!order || *order != 0)
          return order;
      }
      return a.items.size() < b.items.size() ? -1
                                             : a.items.size() > b.items.size();
    }
    fail("an ordering of " + a.repr() + " and " + b.repr());
    return std::nullopt;
  }

  bool equals(const HostValue &a, const HostValue &b) {
    if (isNumber(a) && isNumber(b))
      return isIntegral(a) && isIntegral(b) ? asInt(a) == asInt(b)
                                            : asDouble(a) == asDouble(b);
    if (a.kind != b.kind)
      return false;
    if (a.kind == Kind::None)
      return true;
    if (a.kind == Kind::String)
      return a.text == b.text;
    if (a.items.size() != b.items.size())
      return false;
    for (size_t i = 0; i < a.items.size(); ++i)
      if (!equals(a.items[i], b.items[i]))
        return false;
    return true;
  }

  Result evalCompare(const Node &n) {
    Result lhs = eval(*n.children[0]);
    if (!lhs)
      return std::nullopt;
    for (size_t i = 0; i < n.compareOps.size(); ++i) {
      Result rhs = eval(*n.children[i + 1]);
      if (!rhs)
        return std::nullopt;
      const std::string &op = n.compareOps[i];
      bool holds = false;
      if (op == "==" || op == "!=") {
        holds = equals(*lhs, *rhs) == (op == "==");
      } else if (op == "is" || op == "is not") {
        // Only `x is None` / `x is not None` (and True/False) are meaningful.
        if (rhs->kind != Kind::None && rhs->kind != Kind::Bool)
          return fail("'" + op + "' with " + rhs->repr());
        holds = (lhs->kind == rhs->kind &&
                 (lhs->kind == Kind::None || lhs->boolean == rhs->boolean)) ==
                (op == "is");
      } else if (op == "in" || op == "not in") {
        bool found = false;
        if (rhs->kind == Kind::String && lhs->kind == Kind::String)
          found = llvm::StringRef(rhs->text).contains(lhs->text);
        else if (rhs->kind == Kind::Sequence)
          found = llvm::any_of(rhs->items, [&](const HostValue &item) {
            return equals(*lhs, item);
          });
        else
          return fail("'in' on " + rhs->repr());
        holds = found == (op == "in");
      } else {
        std::optional<int> order = compare(*lhs, *rhs);
        if (!order)
          return std::nullopt;
        holds = op == "<"    ? *order < 0
                : op == "<=" ? *order <= 0
                : op == ">"  ? *order > 0
                             : *order >= 0;
      }
      if (!holds)
        return HostValue::ofBool(false);
      lhs = std::move(rhs);
    }
    return HostValue::ofBool(true);
  }

  HostScope &scope;
  std::string &why;
  size_t budget;
};
} // namespace

std::optional<HostValue> HostScope::evaluate(llvm::StringRef text,
                                             std::string &why) {
  why.clear();
  std::vector<Token> tokens;
  if (!tokenize(text, tokens, why))
    return std::nullopt;
  ExprParser parser(std::move(tokens), why);
  NodePtr tree = parser.parseAll();
  if (!tree)
    return std::nullopt;
  // Strings and sequences may not outgrow the text much (split, '+').
  Evaluator evaluator(*this, why, 4 * text.size() + 64);
  return evaluator.eval(*tree);
}
