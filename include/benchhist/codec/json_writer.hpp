#pragma once
// A small pretty JSON writer with the spelling every record and JSON report uses
// (docs/formats.md#records preamble, docs/formats.md#records):
//  * 2-space indentation, members in the order the caller writes them, `"key": value`;
//  * empty containers as `{}` / `[]`;
//  * "inline" objects on one line as `{ "kind": "x", "value": 4.0 }` (the layout of metric
//    entries in the docs/formats.md#run-record example);
//  * floating-point numbers in shortest round-trip form that always carries a fractional
//    part or an exponent (`36.0`, `26.92998067163995`, `1e16`, `1.5e-7`), the same layout
//    serde_json/ryu uses, so stores written by either tool read the same; non-finite values
//    throw (JSON cannot carry them and a stored NaN would poison analysis);
//  * integers as integers; strings escaped like serde_json (`\"`, `\\`, `\n`, ..., `\u001f`),
//    non-ASCII UTF-8 written as is;
//  * no trailing newline (docs/reports.md#choices-on-open-items).
// Boost.JSON's serializer is not used because it spells 2.5 as `2.5E0`.

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::codec::json {

// `36.0`, `0.1`, `1e16`, `-1.5e-7`.
// Throws Error{internal} when v is NaN or infinite; `what` names the field (message and subject).
std::string format_double(double v, std::string_view what = {});
// `"..."` with JSON escapes.
std::string quote(std::string_view s);

class Writer {
 public:
  explicit Writer(int indent = 2) : indent_(indent) {}

  // Containers. Inside an object, call key() before every value (including containers).
  // Throws Error{internal} (any writing member below) when misused: a value without a key, two
  // keys in a row, a mismatched close, a second top-level value; value(double) also for NaN/inf.
  Writer& begin_object();
  Writer& begin_inline_object();  // members on one line: `{ "a": 1, "b": 2 }`
  Writer& end_object();
  Writer& begin_array();
  Writer& begin_inline_array();  // elements on one line: `[1, 2]`
  Writer& end_array();

  Writer& key(std::string_view k);

  Writer& value(std::string_view s);
  Writer& value(const char* s) { return value(std::string_view(s)); }
  Writer& value(const std::string& s) { return value(std::string_view(s)); }
  Writer& value(bool b);
  Writer& value(double d);
  Writer& value(std::int64_t i);
  Writer& value(std::uint64_t u);
  // Every other integer type (int, unsigned, long long, size_t, ...) writes as an integer.
  template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>)
  Writer& value(T i) {
    if constexpr (std::is_signed_v<T>) {
      return value(static_cast<std::int64_t>(i));
    } else {
      return value(static_cast<std::uint64_t>(i));
    }
  }
  Writer& null();
  // A pre-rendered JSON token (e.g. a number spelled elsewhere). Not validated.
  Writer& raw(std::string_view token);

  // Convenience: key + value.
  template <class T>
  Writer& member(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }
  Writer& null_member(std::string_view k) {
    key(k);
    return null();
  }

  // The finished document.
  // Throws Error{internal} when containers are still open (str() and take()).
  const std::string& str() const;
  std::string take();

 private:
  struct Frame {
    bool object;
    bool inline_layout;
    std::size_t count = 0;
    bool awaiting_value = false;  // object: key written, value pending
  };
  void before_value();
  void newline_indent(std::size_t depth);
  Writer& open(char c, bool object, bool inline_layout);
  Writer& close(char c, bool object);

  int indent_;
  std::string out_;
  std::vector<Frame> stack_;
  std::string last_key_;  // names the field in a non-finite-number error
  bool done_ = false;
};

}  // namespace benchhist::codec::json
