#pragma once
// The one loader of the spec vectors (every vector test, in every area, reads through it) and
// the number comparisons with the tolerances of vectors/README.md.

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <string_view>
#include <fstream>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "benchhist/model/metric.hpp"

namespace bhtest {

namespace json = boost::json;

// Boost.JSON 1.81 parses decimals with a fast path that can be one ulp off, but the vectors
// pin many values bit for bit. So every non-integer literal outside strings is re-quoted with a
// marker before parsing and converted later with strtod (correctly rounded).
inline constexpr std::string_view number_marker = "#num:";

inline std::string quote_decimals(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      out += ch;
      if (ch == '\\' && i + 1 < text.size()) out += text[++i];
      else if (ch == '"') in_string = false;
      continue;
    }
    if (ch == '"') {
      in_string = true;
      out += ch;
      continue;
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
      std::size_t j = i;
      while (j < text.size() && std::string_view("0123456789+-.eE").find(text[j]) != std::string_view::npos) ++j;
      const std::string tok = text.substr(i, j - i);
      if (tok.find_first_of(".eE") != std::string::npos) out += "\"" + std::string(number_marker) + tok + "\"";
      else out += tok;
      i = j - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

inline json::array load_vectors(const std::string& file) {
  const std::string path = std::string(BH_TEST_DATA_DIR) + "/vectors/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) FAIL("cannot open vector file " << path);
  std::stringstream ss;
  ss << in.rdbuf();
  return json::parse(quote_decimals(ss.str())).as_array();
}

// erfc-derived values: 1e-9 relative; everything else 1e-12 relative; 1e-12 absolute near 0.
inline constexpr double tol_erfc = 1e-9;
inline constexpr double tol_exact = 1e-12;

inline bool close(double actual, double expected, double rel) {
  if (actual == expected) return true;
  if (std::isnan(actual) && std::isnan(expected)) return true;
  const double diff = std::fabs(actual - expected);
  return diff <= rel * std::fabs(expected) || diff <= 1e-12;
}

inline double num(const json::value& v) {
  if (v.is_string() && std::string_view(v.as_string()).starts_with(number_marker)) {
    const std::string tok(std::string_view(v.as_string()).substr(number_marker.size()));
    return std::strtod(tok.c_str(), nullptr);
  }
  if (v.is_double()) return v.as_double();
  if (v.is_int64()) return static_cast<double>(v.as_int64());
  if (v.is_uint64()) return static_cast<double>(v.as_uint64());
  FAIL("expected a number, got " << json::serialize(v));
  return 0;
}

inline std::vector<double> numbers(const json::value& v) {
  std::vector<double> out;
  for (const auto& e : v.as_array()) out.push_back(num(e));
  return out;
}

inline std::vector<double> expand_rle(const json::value& v) {
  std::vector<double> out;
  for (const auto& run : v.as_array()) {
    const auto& r = run.as_array();
    out.insert(out.end(), static_cast<std::size_t>(num(r[1])), num(r[0]));
  }
  return out;
}

inline std::vector<double> series_of(const json::object& c) {
  if (c.contains("series")) return numbers(c.at("series"));
  return expand_rle(c.at("series_rle"));
}

inline std::vector<std::optional<benchhist::Interval>> intervals_of(const json::object& c) {
  std::vector<std::optional<benchhist::Interval>> out;
  if (!c.contains("intervals")) return out;
  for (const auto& e : c.at("intervals").as_array()) {
    if (e.is_null()) out.emplace_back();
    else out.push_back(benchhist::Interval{num(e.as_array()[0]), num(e.as_array()[1])});
  }
  return out;
}

inline std::string str(const json::value& v) { return std::string(v.as_string()); }

#define BH_CHECK_CLOSE(actual, expected, rel)                                               \
  do {                                                                                     \
    const double bh_a_ = (actual), bh_e_ = (expected);                                     \
    INFO(#actual << " = " << std::setprecision(17) << bh_a_ << " expected " << bh_e_);                              \
    CHECK(::bhtest::close(bh_a_, bh_e_, (rel)));                                           \
  } while (0)

}  // namespace bhtest
