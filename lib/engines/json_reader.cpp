#include "json_reader.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace benchhist::engines::detail {

const JsonValue* JsonValue::find(std::string_view name) const noexcept {
  for (const auto& [k, v] : members_)
    if (k == name) return &v;
  return nullptr;
}

std::string_view JsonValue::type_name(Type t) noexcept {
  switch (t) {
    case Type::null: return "null";
    case Type::boolean: return "a boolean";
    case Type::number: return "a number";
    case Type::string: return "a string";
    case Type::array: return "an array";
    case Type::object: return "an object";
  }
  return "a value";
}

class Parser {
 public:
  Parser(std::string_view text, const JsonReadOptions& options) : s_(text), options_(options) {}

  JsonValue document() {
    validate_utf8();
    skip_ws();
    if (pos_ >= s_.size()) fail("the file is empty (expected a JSON document)");
    JsonValue v = value(0);
    skip_ws();
    if (pos_ < s_.size()) fail("unexpected content after the JSON document");
    return v;
  }

 private:
  static constexpr int max_depth = 128;

  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }

  [[noreturn]] void fail_at(std::size_t at, const std::string& what) const {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < at && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw JsonProblem("invalid JSON at line " + std::to_string(line) + ", column " +
                      std::to_string(col) + ": " + what);
  }

  [[noreturn]] void truncated() const {
    fail("unexpected end of file (the file is truncated)");
  }

  void validate_utf8() const {
    std::size_t i = 0;
    const auto* p = reinterpret_cast<const unsigned char*>(s_.data());
    while (i < s_.size()) {
      unsigned char c = p[i];
      std::size_t n = 0;
      std::uint32_t cp = 0;
      if (c < 0x80) {
        ++i;
        continue;
      } else if ((c & 0xE0) == 0xC0) {
        n = 1, cp = c & 0x1F;
      } else if ((c & 0xF0) == 0xE0) {
        n = 2, cp = c & 0x0F;
      } else if ((c & 0xF8) == 0xF0) {
        n = 3, cp = c & 0x07;
      } else {
        fail_at(i, "the file is not valid UTF-8");
      }
      for (std::size_t k = 1; k <= n; ++k) {
        if (i + k >= s_.size() || (p[i + k] & 0xC0) != 0x80) fail_at(i, "the file is not valid UTF-8");
        cp = (cp << 6) | (p[i + k] & 0x3F);
      }
      const bool overlong = (n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000);
      if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        fail_at(i, "the file is not valid UTF-8");
      i += n + 1;
    }
  }

  void skip_ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }

  void expect_literal(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) != lit) {
      if (pos_ + lit.size() > s_.size() && lit.starts_with(s_.substr(pos_))) truncated();
      fail("unexpected character");
    }
    pos_ += lit.size();
  }

  JsonValue value(int depth) {
    if (depth > max_depth) fail("nesting deeper than 128 levels");
    skip_ws();
    if (pos_ >= s_.size()) truncated();
    JsonValue v;
    const char c = s_[pos_];
    switch (c) {
      case '{': object(v, depth); break;
      case '[': array(v, depth); break;
      case '"':
        v.type_ = JsonValue::Type::string;
        v.text_ = string();
        break;
      case 't':
        expect_literal("true");
        v.type_ = JsonValue::Type::boolean;
        v.bool_ = true;
        break;
      case 'f':
        expect_literal("false");
        v.type_ = JsonValue::Type::boolean;
        break;
      case 'n': expect_literal("null"); break;
      default:
        if (options_.non_finite_literals && non_finite_literal(v)) {
          break;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
          number(v);
        } else if (c == 'N' || c == 'I') {
          fail("non-finite numbers (NaN, Infinity) are not valid JSON");
        } else {
          fail(std::string("unexpected character '") + c + "'");
        }
    }
    return v;
  }

  // NaN, -NaN, Infinity, -Infinity at pos_ (only with JsonReadOptions::non_finite_literals).
  bool non_finite_literal(JsonValue& v) {
    const bool negative = s_[pos_] == '-';
    const std::size_t at = pos_ + (negative ? 1 : 0);
    for (std::string_view lit : {std::string_view("NaN"), std::string_view("Infinity")}) {
      if (s_.substr(at, lit.size()) != lit) {
        if (at + lit.size() > s_.size() && at < s_.size() && lit.starts_with(s_.substr(at))) truncated();
        continue;
      }
      v.type_ = JsonValue::Type::number;
      v.text_ = std::string(s_.substr(pos_, at - pos_ + lit.size()));
      const double d = lit == "NaN" ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
      v.number_ = negative ? -d : d;
      pos_ = at + lit.size();
      return true;
    }
    return false;
  }

  void object(JsonValue& v, int depth) {
    v.type_ = JsonValue::Type::object;
    ++pos_;  // '{'
    skip_ws();
    if (pos_ >= s_.size()) truncated();
    if (s_[pos_] == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_ws();
      if (pos_ >= s_.size()) truncated();
      if (s_[pos_] != '"') fail("expected a member name in double quotes");
      std::string key = string();
      skip_ws();
      if (pos_ >= s_.size()) truncated();
      if (s_[pos_] != ':') fail("expected ':' after a member name");
      ++pos_;
      JsonValue member = value(depth + 1);
      v.members_.emplace_back(std::move(key), std::move(member));
      skip_ws();
      if (pos_ >= s_.size()) truncated();
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return;
      }
      fail("expected ',' or '}' in an object");
    }
  }

  void array(JsonValue& v, int depth) {
    v.type_ = JsonValue::Type::array;
    ++pos_;  // '['
    skip_ws();
    if (pos_ >= s_.size()) truncated();
    if (s_[pos_] == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      v.items_.push_back(value(depth + 1));
      skip_ws();
      if (pos_ >= s_.size()) truncated();
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] == ']') {
        ++pos_;
        return;
      }
      fail("expected ',' or ']' in an array");
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) truncated();
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else fail("invalid \\u escape");
    }
    return v;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
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

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) truncated();
      const char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20) fail("unescaped control character in a string");
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= s_.size()) truncated();
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (s_.substr(pos_, 2) != "\\u") fail("unpaired UTF-16 surrogate in a \\u escape");
            pos_ += 2;
            const std::uint32_t lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("unpaired UTF-16 surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("unpaired UTF-16 surrogate in a \\u escape");
          }
          append_utf8(out, cp);
          break;
        }
        default: fail("invalid escape sequence in a string");
      }
    }
  }

  void number(JsonValue& v) {
    const std::size_t start = pos_;
    auto digit = [&] { return pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; };
    bool negative = false;
    if (s_[pos_] == '-') {
      negative = true;
      ++pos_;
      if (pos_ >= s_.size()) truncated();
    }
    if (!digit()) fail("invalid number");
    if (s_[pos_] == '0') {
      ++pos_;
      if (digit()) fail("invalid number (leading zero)");
    } else {
      while (digit()) ++pos_;
    }
    bool integral = true;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      integral = false;
      ++pos_;
      if (pos_ >= s_.size()) truncated();
      if (!digit()) fail("invalid number (no digit after '.')");
      while (digit()) ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (pos_ >= s_.size()) truncated();
      if (!digit()) fail("invalid number (no digit in the exponent)");
      while (digit()) ++pos_;
    }
    const std::string_view lit = s_.substr(start, pos_ - start);
    v.type_ = JsonValue::Type::number;
    v.text_ = std::string(lit);
    double d = 0;
    const auto r = std::from_chars(lit.data(), lit.data() + lit.size(), d);
    if (r.ec == std::errc::result_out_of_range) {
      d = overflows(lit) ? std::numeric_limits<double>::infinity() : 0.0;
      if (negative) d = -d;
    } else if (r.ec != std::errc() || r.ptr != lit.data() + lit.size()) {
      fail_at(start, "invalid number");
    }
    v.number_ = d;
    if (integral && !negative) {
      std::uint64_t u = 0;
      const auto ru = std::from_chars(lit.data(), lit.data() + lit.size(), u);
      if (ru.ec == std::errc() && ru.ptr == lit.data() + lit.size()) v.uint_ = u;
    }
  }

  // For a literal from_chars reported out of range: does its magnitude exceed a double
  // (→ ±inf) rather than fall below the smallest subnormal (→ ±0)?
  static bool overflows(std::string_view lit) {
    std::size_t i = (lit.front() == '-') ? 1 : 0;
    long long magnitude = 0;  // decimal exponent of the leading significant digit, roughly
    bool seen_significant = false;
    long long int_digits = 0, leading_frac_zeros = 0;
    for (; i < lit.size() && lit[i] >= '0' && lit[i] <= '9'; ++i) {
      if (lit[i] != '0') seen_significant = true;
      if (seen_significant) ++int_digits;
    }
    if (i < lit.size() && lit[i] == '.') {
      for (++i; i < lit.size() && lit[i] >= '0' && lit[i] <= '9'; ++i) {
        if (!seen_significant && lit[i] == '0') ++leading_frac_zeros;
        else seen_significant = true;
      }
    }
    long long exp = 0;
    if (i < lit.size() && (lit[i] == 'e' || lit[i] == 'E')) {
      ++i;
      bool neg = false;
      if (i < lit.size() && (lit[i] == '+' || lit[i] == '-')) neg = lit[i++] == '-';
      for (; i < lit.size(); ++i) {
        if (exp < 100000) exp = exp * 10 + (lit[i] - '0');
      }
      if (neg) exp = -exp;
    }
    magnitude = (int_digits > 0 ? int_digits : -leading_frac_zeros) + exp;
    return magnitude > 0;
  }

  std::string_view s_;
  JsonReadOptions options_;
  std::size_t pos_ = 0;
};

JsonValue parse_json(std::string_view text, const JsonReadOptions& options) { return Parser(text, options).document(); }

namespace {
std::string member_path(std::string_view where, std::string_view name) {
  std::string p(where);
  p += '/';
  p += name;
  return p;
}
std::string shown(std::string_view where) { return where.empty() ? std::string("the document") : std::string(where); }
}  // namespace

const JsonValue& require_object(const JsonValue& v, std::string_view where) {
  if (!v.is_object())
    throw JsonProblem(shown(where) + " must be an object but is " +
                      std::string(JsonValue::type_name(v.type())));
  return v;
}

const JsonValue& require_member(const JsonValue& obj, std::string_view name, std::string_view where) {
  const JsonValue* m = obj.find(name);
  if (!m) throw JsonProblem("required member " + member_path(where, name) + " is missing");
  return *m;
}

std::string require_string(const JsonValue& obj, std::string_view name, std::string_view where) {
  const JsonValue& m = require_member(obj, name, where);
  if (!m.is_string())
    throw JsonProblem(member_path(where, name) + " must be a string but is " +
                      std::string(JsonValue::type_name(m.type())));
  return m.text();
}

std::optional<std::string> optional_string(const JsonValue& obj, std::string_view name,
                                           std::string_view where) {
  const JsonValue* m = obj.find(name);
  if (!m || m->is_null()) return std::nullopt;
  if (!m->is_string())
    throw JsonProblem(member_path(where, name) + " must be a string or null but is " +
                      std::string(JsonValue::type_name(m->type())));
  return m->text();
}

double checked_number(const JsonValue& v, std::string_view where, bool allow_negative) {
  if (!v.is_number())
    throw JsonProblem(shown(where) + " must be a number but is " +
                      std::string(JsonValue::type_name(v.type())));
  const double d = v.number();
  if (!std::isfinite(d))
    throw JsonProblem(shown(where) + " is not a finite number (" + v.text() + ")");
  if (!allow_negative && d < 0)
    throw JsonProblem(shown(where) + " is negative (" + v.text() + "); a time, count or size cannot be negative");
  return d;
}

double require_number(const JsonValue& obj, std::string_view name, std::string_view where,
                      bool allow_negative) {
  return checked_number(require_member(obj, name, where), member_path(where, name), allow_negative);
}

}  // namespace benchhist::engines::detail
