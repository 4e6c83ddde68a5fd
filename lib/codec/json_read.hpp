#pragma once
// Private to lib/codec: strict, path-aware extraction from a parsed Boost.JSON document for the
// record decoders. A failure is a DecodeFailure carrying `<json path>: <what>`, e.g.
// `results[3].metrics[0].value: expected a number`; the decoder wraps it into the public
// Error naming the key (docs/formats.md#read-compatibility).

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/model/timestamp.hpp"

namespace benchhist::detail {

struct DecodeFailure {
  std::string cause;
};

[[noreturn]] inline void fail(const std::string& path, std::string_view what) {
  throw DecodeFailure{(path.empty() ? std::string("(top level)") : path) + ": " + std::string(what)};
}

inline std::string child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}
inline std::string index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// Builds the DOM like boost::json::parser does, except that doubles are converted from their
// source text with std::from_chars. Boost.JSON 1.81 converts numbers imprecisely (about one
// in ten typical values lands one ULP off), which would break the writer's shortest
// round-trip guarantee: decode(encode(run)) must reproduce every value exactly.
class PreciseHandler {
 public:
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

  PreciseHandler() { st.reset(); }

  bool on_document_begin(boost::system::error_code&) { return true; }
  bool on_document_end(boost::system::error_code&) { return true; }
  bool on_array_begin(boost::system::error_code&) {
    open_level();  // arrays get an (unused) level so object levels stay aligned
    return true;
  }
  bool on_array_end(std::size_t n, boost::system::error_code&) {
    --depth;
    st.push_array(n);
    return true;
  }
  bool on_object_begin(boost::system::error_code&) {
    open_level();
    return true;
  }
  bool on_object_end(std::size_t n, boost::system::error_code&) {
    --depth;
    st.push_object(n);
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    st.push_string(s);
    return true;
  }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    st.push_chars(s);
    key.append(s.data(), s.size());
    return true;
  }
  // A repeated member is refused (as serde does) instead of silently keeping one of them.
  bool on_key(boost::json::string_view s, std::size_t, boost::system::error_code& ec) {
    key.append(s.data(), s.size());
    auto& seen = keys[depth - 1];
    for (const auto& k : seen) {
      if (k == key) {
        problem = "duplicate member \"" + key + "\"";
        ec = boost::json::error::syntax;
        return false;
      }
    }
    seen.push_back(key);
    key.clear();
    st.push_key(s);
    return true;
  }
  bool on_number_part(boost::json::string_view s, boost::system::error_code&) {
    number.append(s.data(), s.size());
    return true;
  }
  bool on_int64(std::int64_t i, boost::json::string_view, boost::system::error_code&) {
    number.clear();
    st.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, boost::json::string_view, boost::system::error_code&) {
    number.clear();
    st.push_uint64(u);
    return true;
  }
  bool on_double(double d, boost::json::string_view s, boost::system::error_code&) {
    number.append(s.data(), s.size());
    double exact = 0;
    const auto res = std::from_chars(number.data(), number.data() + number.size(), exact);
    // Out of range (1e400, 1e-400): keep Boost's value; the decoder refuses non-finite ones.
    st.push_double(res.ec == std::errc() && res.ptr == number.data() + number.size() ? exact : d);
    number.clear();
    return true;
  }
  bool on_bool(bool b, boost::system::error_code&) {
    st.push_bool(b);
    return true;
  }
  bool on_null(boost::system::error_code&) {
    st.push_null();
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::system::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::system::error_code&) { return true; }

  boost::json::value_stack st;
  std::string number;                          // text of the number being parsed
  std::string key;                             // text of the key being parsed
  // Member names per open container, keys[0..depth). Levels are cleared, not destroyed, so
  // a document's thousand objects reuse a few vectors instead of allocating their own.
  std::vector<std::vector<std::string>> keys;
  std::size_t depth = 0;
  std::string problem;                         // set when the handler itself refused

 private:
  void open_level() {
    if (depth == keys.size()) keys.emplace_back();
    keys[depth++].clear();
  }
};

// Parses `text` (strict JSON: no comments, no trailing commas); a syntax error becomes
// `invalid JSON at line L, column C: <reason>`.
//
// The document lives in one monotonic arena (freed whole with the value): a run's DOM is a
// thousand small strings, objects and arrays, and allocating and freeing each of them was a
// tenth of decoding a run. The arena's first block is the text's size, about what the DOM takes.
inline boost::json::value parse_document(std::string_view text) {
  boost::json::basic_parser<PreciseHandler> p(boost::json::parse_options{});
  p.handler().st.reset(boost::json::make_shared_resource<boost::json::monotonic_resource>(std::max<std::size_t>(text.size(), 1024)));
  boost::system::error_code ec;
  std::size_t used = p.write_some(false, text.data(), text.size(), ec);
  if (!ec && used != text.size()) ec = boost::json::error::extra_data;
  if (ec) {
    if (used > text.size()) used = text.size();
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < used; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    const std::string& handler_problem = p.handler().problem;
    throw DecodeFailure{"invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(col) +
                        ": " + (handler_problem.empty() ? ec.message() : handler_problem)};
  }
  return p.handler().st.release();
}

// The accessors returning a reference take the path by value: a `const std::string&` bound to a
// temporary (`as_object(doc, "")`) beside the returned reference is what gcc 13+ reports as
// -Wdangling-reference, although the result refers into `v` only.
inline const boost::json::object& as_object(const boost::json::value& v, std::string_view path) {
  if (!v.is_object()) fail(std::string(path), "expected an object");
  return v.get_object();
}

inline const boost::json::array& as_array(const boost::json::value& v, std::string_view path) {
  if (!v.is_array()) fail(std::string(path), "expected an array");
  return v.get_array();
}

// nullptr when the member is absent.
inline const boost::json::value* find(const boost::json::object& o, std::string_view key) {
  auto it = o.find(key);
  return it == o.end() ? nullptr : &it->value();
}

// nullptr when the member is absent or null.
inline const boost::json::value* find_non_null(const boost::json::object& o, std::string_view key) {
  const auto* v = find(o, key);
  return (v == nullptr || v->is_null()) ? nullptr : v;
}

inline const boost::json::value& required(const boost::json::object& o, std::string_view key,
                                          std::string_view path) {
  const auto* v = find(o, key);
  if (v == nullptr) fail(child(std::string(path), key), "missing");
  return *v;
}

inline std::string as_string(const boost::json::value& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected a string");
  const auto& s = v.get_string();
  return std::string(s.data(), s.size());
}

// Nullable strings: absent and null both read as nullopt (serde's Option semantics).
inline std::optional<std::string> nullable_string(const boost::json::object& o, std::string_view key,
                                                  const std::string& path) {
  const auto* v = find_non_null(o, key);
  if (v == nullptr) return std::nullopt;
  return as_string(*v, child(path, key));
}

inline bool as_bool(const boost::json::value& v, const std::string& path) {
  if (!v.is_bool()) fail(path, "expected true or false");
  return v.get_bool();
}

// Any JSON number (integers accepted, docs/formats.md#records preamble); must be finite.
inline double as_number(const boost::json::value& v, const std::string& path) {
  double d = 0;
  if (v.is_double()) {
    d = v.get_double();
  } else if (v.is_int64()) {
    d = static_cast<double>(v.get_int64());
  } else if (v.is_uint64()) {
    d = static_cast<double>(v.get_uint64());
  } else {
    fail(path, "expected a number");
  }
  if (!std::isfinite(d)) fail(path, "expected a finite number");
  return d;
}

inline std::optional<double> optional_number(const boost::json::object& o, std::string_view key,
                                             const std::string& path) {
  const auto* v = find_non_null(o, key);
  if (v == nullptr) return std::nullopt;
  return as_number(*v, child(path, key));
}

inline std::int64_t as_int(const boost::json::value& v, const std::string& path) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64() && v.get_uint64() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    return static_cast<std::int64_t>(v.get_uint64());
  fail(path, "expected an integer");
}

inline std::uint64_t as_uint(const boost::json::value& v, const std::string& path) {
  if (v.is_uint64()) return v.get_uint64();
  if (v.is_int64() && v.get_int64() >= 0) return static_cast<std::uint64_t>(v.get_int64());
  fail(path, "expected a non-negative integer");
}

inline Timestamp as_timestamp(const boost::json::value& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected an RFC 3339 timestamp string");
  const auto& s = v.get_string();
  const auto t = parse_rfc3339(std::string_view(s.data(), s.size()));
  if (!t) fail(path, "expected an RFC 3339 timestamp, got \"" + std::string(s.data(), s.size()) + "\"");
  return *t;
}

inline std::vector<std::string> string_array(const boost::json::value& v, const std::string& path) {
  const auto& a = as_array(v, path);
  std::vector<std::string> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out.push_back(as_string(a[i], index(path, i)));
  return out;
}

}  // namespace benchhist::detail
