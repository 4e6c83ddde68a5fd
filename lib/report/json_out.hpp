#pragma once
// Internal pretty JSON writer for the report outputs: 2-space indent and layout as
// serde_json's pretty printer (what the reference wrote), numbers via json_number().
// (The core helper's codec/json_writer.hpp was not committed when this area was written;
// this writer stays private to lib/report so switching later is local.)

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/report/value_format.hpp"

namespace benchhist::report::detail {

class JsonOut {
 public:
  JsonOut& begin_object() { open('{'); return *this; }
  JsonOut& end_object() { close('}'); return *this; }
  JsonOut& begin_array() { open('['); return *this; }
  JsonOut& end_array() { close(']'); return *this; }

  JsonOut& key(std::string_view k) {
    separator();
    string_literal(k);
    out_ += ": ";
    after_key_ = true;
    return *this;
  }

  JsonOut& value(std::string_view s) { pre_value(); string_literal(s); return *this; }
  JsonOut& value(const char* s) { return value(std::string_view(s)); }
  JsonOut& value(const std::string& s) { return value(std::string_view(s)); }
  JsonOut& value(bool b) { pre_value(); out_ += b ? "true" : "false"; return *this; }
  JsonOut& value(double d) { pre_value(); out_ += json_number(d); return *this; }
  JsonOut& value(std::uint64_t n) { pre_value(); out_ += std::to_string(n); return *this; }
  JsonOut& null() { pre_value(); out_ += "null"; return *this; }

  template <class T>
  JsonOut& member(std::string_view k, const T& v) { key(k); return value(v); }
  template <class T>
  JsonOut& optional_member(std::string_view k, const std::optional<T>& v) {
    if (v) member(k, *v);
    return *this;
  }

  std::string str() && { return std::move(out_); }

 private:
  struct Frame {
    bool empty = true;
  };

  void open(char c) {
    pre_value();
    out_ += c;
    stack_.push_back({});
  }
  void close(char c) {
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty) {
      out_ += '\n';
      indent();
    }
    out_ += c;
  }
  // Before an array element or a member key: comma, newline, indentation.
  void separator() {
    if (stack_.empty()) return;
    if (!stack_.back().empty) out_ += ',';
    stack_.back().empty = false;
    out_ += '\n';
    indent();
  }
  void pre_value() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    separator();
  }
  void indent() { out_.append(stack_.size() * 2, ' '); }

  void string_literal(std::string_view s) {
    static const char* hex = "0123456789abcdef";
    out_ += '"';
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      switch (ch) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        default:
          if (c < 0x20) {
            out_ += "\\u00";
            out_ += hex[c >> 4];
            out_ += hex[c & 15];
          } else {
            out_ += ch;
          }
      }
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
};

}  // namespace benchhist::report::detail
