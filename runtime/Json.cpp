//===- Json.cpp - A small JSON reader and writer for the runtime ----------===//
//
// A recursive-descent parser for RFC 8259 JSON with a nesting limit, precise
// error positions and locale-independent number conversion (std::from_chars),
// plus the string quoting the metadata writer uses.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <charconv>

using namespace tilec;
using namespace tilec::json;

namespace {

constexpr int kMaxDepth = 64;

/// The recursive-descent parser over one input text.
class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  bool parseDocument(Value &out, std::string &error) {
    skipSpace();
    bool ok = parseValue(out, 0);
    if (ok) {
      skipSpace();
      if (pos_ != text_.size())
        ok = fail("unexpected text after the JSON value");
    }
    if (!ok)
      error = position() + ": " + error_;
    return ok;
  }

private:
  bool fail(const std::string &message) {
    if (error_.empty()) {
      error_ = message;
      errorPos_ = pos_;
    }
    return false;
  }

  std::string position() const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < errorPos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return "line " + std::to_string(line) + ", column " +
           std::to_string(column);
  }

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }

  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      ++pos_;
  }

  std::string describeHere() const {
    if (atEnd())
      return "the end of the input";
    unsigned char c = static_cast<unsigned char>(peek());
    if (c >= 0x20 && c < 0x7f)
      return std::string("'") + char(c) + "'";
    return "byte " + std::to_string(c);
  }

  bool parseValue(Value &out, int depth) {
    if (depth > kMaxDepth)
      return fail("JSON nested deeper than " + std::to_string(kMaxDepth) +
                  " levels");
    switch (peek()) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"':
      out.kind = Value::Kind::String;
      return parseString(out.string);
    case 't':
      out.kind = Value::Kind::Bool;
      out.boolean = true;
      return parseWord("true");
    case 'f':
      out.kind = Value::Kind::Bool;
      out.boolean = false;
      return parseWord("false");
    case 'n':
      out.kind = Value::Kind::Null;
      return parseWord("null");
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return parseNumber(out);
      return fail("expected a JSON value, found " + describeHere());
    }
  }

  bool parseWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      return fail("expected a JSON value, found " + describeHere());
    pos_ += word.size();
    return true;
  }

  /// The comma-separated items of an object or an array, from its opening
  /// bracket to \p close; \p parseItem reads one item (\p container names
  /// the object or array in messages).
  template <typename ParseItem>
  bool parseItems(char close, const char *container, ParseItem parseItem) {
    ++pos_; // '{' or '['
    skipSpace();
    if (peek() == close) {
      ++pos_;
      return true;
    }
    while (true) {
      skipSpace();
      if (!parseItem())
        return false;
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == close) {
        ++pos_;
        return true;
      }
      return fail(std::string("expected ',' or '") + close + "' in " +
                  container + ", found " + describeHere());
    }
  }

  bool parseObject(Value &out, int depth) {
    out.kind = Value::Kind::Object;
    return parseItems('}', "an object", [&] {
      if (peek() != '"')
        return fail("expected a string key, found " + describeHere());
      std::size_t keyPos = pos_;
      std::string key;
      if (!parseString(key))
        return false;
      if (out.find(key)) {
        pos_ = keyPos;
        return fail("duplicate key \"" + key + "\"");
      }
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after a key, found " + describeHere());
      ++pos_;
      skipSpace();
      Value member;
      if (!parseValue(member, depth + 1))
        return false;
      out.object.emplace_back(std::move(key), std::move(member));
      return true;
    });
  }

  bool parseArray(Value &out, int depth) {
    out.kind = Value::Kind::Array;
    return parseItems(']', "an array", [&] {
      Value element;
      if (!parseValue(element, depth + 1))
        return false;
      out.array.push_back(std::move(element));
      return true;
    });
  }

  bool parseHex4(unsigned &out) {
    out = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      unsigned digit;
      if (c >= '0' && c <= '9')
        digit = c - '0';
      else if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      else
        return fail("expected four hex digits after \\u");
      out = out * 16 + digit;
      ++pos_;
    }
    return true;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  bool parseString(std::string &out) {
    ++pos_; // '"'
    while (true) {
      if (atEnd())
        return fail("unterminated string");
      char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("control character in a string (escape it)");
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      char e = peek();
      ++pos_;
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned low;
          if (peek() != '\\' || text_.substr(pos_ + 1, 1) != "u")
            return fail("unpaired UTF-16 surrogate in \\u escape");
          pos_ += 2;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("unpaired UTF-16 surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return fail("unpaired UTF-16 surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos_;
        return fail("invalid escape in a string");
      }
    }
  }

  bool parseNumber(Value &out) {
    std::size_t start = pos_;
    auto digits = [&] {
      std::size_t from = pos_;
      while (!atEnd() && peek() >= '0' && peek() <= '9')
        ++pos_;
      return pos_ - from;
    };
    bool integral = true;
    if (peek() == '-')
      ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (digits() == 0) {
      return fail("invalid number");
    }
    if (peek() == '.') {
      integral = false;
      ++pos_;
      if (digits() == 0)
        return fail("invalid number: expected digits after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos_;
      if (peek() == '+' || peek() == '-')
        ++pos_;
      if (digits() == 0)
        return fail("invalid number: expected digits in the exponent");
    }
    const char *first = text_.data() + start, *last = text_.data() + pos_;
    out.kind = Value::Kind::Number;
    out.number = 0;
    std::from_chars_result r = std::from_chars(first, last, out.number);
    if (r.ec == std::errc::result_out_of_range) {
      pos_ = start;
      return fail("number out of range");
    }
    out.isInteger = false;
    if (integral) {
      std::int64_t value = 0;
      if (std::from_chars(first, last, value).ec == std::errc()) {
        out.isInteger = true;
        out.integer = value;
      }
    }
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string error_;
  std::size_t errorPos_ = 0;
};

} // namespace

const Value *Value::find(std::string_view key) const {
  for (const auto &member : object)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

const char *Value::kindName() const {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "a value";
}

bool tilec::json::parse(std::string_view text, Value &out, std::string &error) {
  out = Value();
  return Parser(text).parseDocument(out, error);
}

std::string tilec::json::quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        static const char kHex[] = "0123456789abcdef";
        out += "\\u00";
        out += kHex[(c >> 4) & 15];
        out += kHex[c & 15];
      } else {
        out += c;
      }
    }
  }
  out += '"';
  return out;
}
