#include "common.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace benchhist::engines::detail {

std::string read_text_file(const std::filesystem::path& file, std::string_view engine) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw_harvest_error(engine, file, std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) throw_harvest_error(engine, file, "read failed");
  return std::move(buf).str();
}

BenchmarkId split_identity(std::string_view name, std::string_view separator) {
  // An empty name would be an id that no report can show and no --benchmark can select.
  if (name.empty()) throw JsonProblem("a benchmark name is empty", "give every benchmark a name, then run it again");
  std::vector<std::string> segments;
  std::size_t start = 0;
  for (;;) {
    const auto at = name.find(separator, start);
    std::string_view seg = name.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start);
    if (!seg.empty()) segments.emplace_back(seg);
    if (at == std::string_view::npos) break;
    start = at + separator.size();
  }
  if (segments.empty()) segments.emplace_back(name);
  return BenchmarkId(std::move(segments));
}

void throw_identity_collision(std::string_view earlier_name, std::string_view name, const BenchmarkId& id,
                              std::string_view separator) {
  const std::string sep(separator);
  throw JsonProblem("two benchmarks in this file, '" + std::string(earlier_name) + "' and '" + std::string(name) +
                        "', become the same benchmark id '" + id.qualified() + "' (a name is split on '" + sep +
                        "' into the id's segments, and empty segments are dropped)",
                    "rename one of them so that the names differ in more than their '" + sep +
                        "' separators; stored under one id, one result would replace the other");
}

double to_nanoseconds(double value, double ns_per_unit, std::string_view where, std::string_view unit) {
  const double ns = value * ns_per_unit;
  if (!std::isfinite(ns)) {
    std::ostringstream v;
    v << value;
    throw JsonProblem(std::string(where) + " is " + v.str() + " " + std::string(unit) +
                          ", too large to store as nanoseconds",
                      "this is no real measurement: check the harness's output for a unit or overflow error, "
                      "then re-run the benchmarks");
  }
  return ns;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::optional<double> usable_slope(const JsonValue& obj, std::string_view name) {
  const JsonValue* m = obj.find(name);
  if (!m || m->is_null()) return std::nullopt;
  const std::string where = "/" + std::string(name);
  if (!m->is_number())
    throw JsonProblem(where + " must be a number or null but is " + std::string(JsonValue::type_name(m->type())));
  if (!std::isfinite(m->number())) return std::nullopt;
  return checked_number(*m, where);
}

std::optional<Interval> optional_interval(const JsonValue& obj, std::string_view low_name,
                                          std::string_view high_name) {
  const JsonValue* low = obj.find(low_name);
  const JsonValue* high = obj.find(high_name);
  const bool has_low = low && !low->is_null();
  const bool has_high = high && !high->is_null();
  if (!has_low && !has_high) return std::nullopt;
  if (has_low != has_high)
    throw JsonProblem("/" + std::string(has_low ? low_name : high_name) + " is present but /" +
                      std::string(has_low ? high_name : low_name) + " is not; an interval needs both bounds");
  Interval iv;
  iv.low = checked_number(*low, "/" + std::string(low_name), true);
  iv.high = checked_number(*high, "/" + std::string(high_name), true);
  if (iv.low > iv.high)
    throw JsonProblem("/" + std::string(low_name) + " (" + low->text() + ") is above /" + std::string(high_name) +
                      " (" + high->text() + ")");
  return iv;
}

}  // namespace benchhist::engines::detail
