#include "benchhist/codec/json_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>

#include "benchhist/error.hpp"

namespace benchhist::codec::json {
namespace {

[[noreturn]] void misuse(const char* what) {
  throw Error(ErrorKind::internal, std::string("JSON writer misuse: ") + what);
}

}  // namespace

std::string format_double(double v, std::string_view what) {
  if (!std::isfinite(v)) {
    std::string msg = "cannot write a non-finite number";
    if (!what.empty()) msg += " for " + std::string(what);
    throw Error(ErrorKind::internal, msg, std::string(what), {},
                "non-finite measurements must be dropped before a record is written");
  }
  // Shortest round-trip digits from to_chars, laid out like ryu (serde_json) does.
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  if (res.ec != std::errc()) misuse("to_chars failed");
  std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  std::string out;
  if (sci.front() == '-') {
    out.push_back('-');
    sci.remove_prefix(1);
  }
  const std::size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos))
    if (c != '.') digits.push_back(c);
  const int exp10 = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());
  const int n = static_cast<int>(digits.size());
  const int k = exp10 - (n - 1);  // value = digits * 10^k
  const int kk = n + k;           // position of the decimal point within digits
  if (k >= 0 && kk <= 16) {
    out += digits;
    out.append(static_cast<std::size_t>(k), '0');
    out += ".0";
  } else if (kk > 0 && kk <= 16) {
    out += digits.substr(0, static_cast<std::size_t>(kk));
    out += '.';
    out += digits.substr(static_cast<std::size_t>(kk));
  } else if (kk > -5 && kk <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-kk), '0');
    out += digits;
  } else if (n == 1) {
    out += digits;
    out += 'e';
    out += std::to_string(kk - 1);
  } else {
    out += digits[0];
    out += '.';
    out += digits.substr(1);
    out += 'e';
    out += std::to_string(kk - 1);
  }
  return out;
}

std::string quote(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 0xf]);
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
  return out;
}

void Writer::newline_indent(std::size_t depth) {
  out_.push_back('\n');
  out_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

void Writer::before_value() {
  if (stack_.empty()) {
    if (done_) misuse("a second top-level value");
    return;
  }
  Frame& f = stack_.back();
  if (f.object) {
    if (!f.awaiting_value) misuse("a value inside an object without a key");
    f.awaiting_value = false;
    return;
  }
  if (f.count > 0) out_ += f.inline_layout ? ", " : ",";
  if (!f.inline_layout) newline_indent(stack_.size());
  ++f.count;
}

Writer& Writer::open(char c, bool object, bool inline_layout) {
  before_value();
  // Everything nested inside a one-line container stays on that line.
  if (!stack_.empty() && stack_.back().inline_layout) inline_layout = true;
  out_.push_back(c);
  stack_.push_back(Frame{object, inline_layout});
  return *this;
}

Writer& Writer::close(char c, bool object) {
  if (stack_.empty() || stack_.back().object != object) misuse("mismatched container close");
  const Frame f = stack_.back();
  if (f.awaiting_value) misuse("a key without a value");
  stack_.pop_back();
  if (f.count > 0) {
    if (!f.inline_layout) {
      newline_indent(stack_.size());
    } else if (object) {
      out_.push_back(' ');
    }
  }
  out_.push_back(c);
  if (stack_.empty()) done_ = true;
  return *this;
}

Writer& Writer::begin_object() { return open('{', true, false); }
Writer& Writer::begin_inline_object() { return open('{', true, true); }
Writer& Writer::end_object() { return close('}', true); }
Writer& Writer::begin_array() { return open('[', false, false); }
Writer& Writer::begin_inline_array() { return open('[', false, true); }
Writer& Writer::end_array() { return close(']', false); }

Writer& Writer::key(std::string_view k) {
  if (stack_.empty() || !stack_.back().object) misuse("a key outside an object");
  Frame& f = stack_.back();
  if (f.awaiting_value) misuse("two keys in a row");
  if (f.count > 0) out_.push_back(',');
  if (f.inline_layout) {
    out_.push_back(' ');
  } else {
    newline_indent(stack_.size());
  }
  out_ += quote(k);
  out_ += ": ";
  last_key_ = std::string(k);
  ++f.count;
  f.awaiting_value = true;
  return *this;
}

Writer& Writer::raw(std::string_view token) {
  before_value();
  out_ += token;
  if (stack_.empty()) done_ = true;
  return *this;
}

Writer& Writer::value(std::string_view s) { return raw(quote(s)); }
Writer& Writer::value(bool b) { return raw(b ? "true" : "false"); }
Writer& Writer::value(double d) {
  return raw(format_double(d, last_key_));
}
Writer& Writer::value(std::int64_t i) { return raw(std::to_string(i)); }
Writer& Writer::value(std::uint64_t u) { return raw(std::to_string(u)); }
Writer& Writer::null() { return raw("null"); }

const std::string& Writer::str() const {
  if (!stack_.empty()) misuse("the document still has open containers");
  return out_;
}

std::string Writer::take() {
  if (!stack_.empty()) misuse("the document still has open containers");
  done_ = false;
  return std::move(out_);
}

}  // namespace benchhist::codec::json
