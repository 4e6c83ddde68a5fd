#include "benchhist/engines/criterion.hpp"

#include <string>
#include <vector>

#include "benchhist/model/ascii.hpp"
#include "common.hpp"

namespace benchhist::engines {
namespace {

using detail::JsonValue;

struct Estimate {
  double point = 0;
  Interval interval;
};

// `{point_estimate, confidence_interval{lower_bound, upper_bound}}` (docs/formats.md#criterion).
// Bounds may be negative (a bootstrap bound of a near-zero estimate can be); the point
// estimate, a time per iteration, may not.
Estimate read_estimate(const JsonValue& v, const std::string& where) {
  detail::require_object(v, where);
  Estimate e;
  e.point = detail::require_number(v, "point_estimate", where);
  const std::string ci_where = where + "/confidence_interval";
  const JsonValue& ci = detail::require_object(detail::require_member(v, "confidence_interval", where), ci_where);
  e.interval.low = detail::require_number(ci, "lower_bound", ci_where, true);
  e.interval.high = detail::require_number(ci, "upper_bound", ci_where, true);
  if (e.interval.low > e.interval.high)
    throw detail::JsonProblem(ci_where + " has lower_bound " + std::to_string(e.interval.low) +
                              " above upper_bound " + std::to_string(e.interval.high));
  return e;
}

// Absent and null both mean "not estimated" (Criterion writes `"slope": null`).
const JsonValue* optional_member(const JsonValue& obj, std::string_view name) {
  const JsonValue* m = obj.find(name);
  return (m && !m->is_null()) ? m : nullptr;
}

BenchmarkId read_identity(const JsonValue& doc) {
  detail::require_object(doc, "");
  const std::string group = detail::require_string(doc, "group_id", "");
  // function_id null/absent → absent segment (docs/formats.md#criterion; the reference failed
  // here).
  const std::optional<std::string> function = detail::optional_string(doc, "function_id", "");
  const std::optional<std::string> value = detail::optional_string(doc, "value_str", "");

  std::vector<std::string> segments;
  if (!group.empty()) segments.push_back(group);  // group and function are not trimmed
  if (function && !function->empty()) segments.push_back(*function);
  if (value) {
    const std::string_view trimmed = ascii::trim(*value);
    if (!trimmed.empty()) segments.emplace_back(trimmed);
  }
  if (segments.empty()) segments.push_back(group);
  return BenchmarkId(std::move(segments));
}

MetricValue read_wall_time(const JsonValue& doc) {
  detail::require_object(doc, "");
  // Slope preferred: fitted across iteration counts, far less sensitive to a slow first
  // iteration; the silent fallback to mean is specified (docs/formats.md#criterion, user guide
  // "Which number").
  const JsonValue* chosen = optional_member(doc, "slope");
  std::string where = "/slope";
  if (!chosen) {
    chosen = &detail::require_member(doc, "mean", "");
    where = "/mean";
  }
  const Estimate e = read_estimate(*chosen, where);
  MetricValue m;
  m.kind = MetricKind::wall_time;
  m.value = e.point;
  m.interval = e.interval;
  if (const JsonValue* sd = optional_member(doc, "std_dev")) {
    detail::require_object(*sd, "/std_dev");
    m.std_dev = detail::require_number(*sd, "point_estimate", "/std_dev");
  }
  return m;
}

}  // namespace

BenchmarkResult parse_criterion_case(std::string_view benchmark_json, std::string_view estimates_json,
                                     const std::filesystem::path& case_dir) {
  const auto bench_file = case_dir / "benchmark.json";
  const auto est_file = case_dir / "estimates.json";
  BenchmarkResult r;
  r.id = detail::with_parse_context(bench_file, [&] { return read_identity(detail::parse_json(benchmark_json)); });
  r.metrics.push_back(
      detail::with_parse_context(est_file, [&] { return read_wall_time(detail::parse_json(estimates_json)); }));
  return r;
}

BenchmarkResult read_criterion_case(const std::filesystem::path& case_dir) {
  const auto bench_file = case_dir / "benchmark.json";
  const auto est_file = case_dir / "estimates.json";
  std::error_code ec;
  const bool has_bench = std::filesystem::is_regular_file(bench_file, ec);
  const bool has_est = std::filesystem::is_regular_file(est_file, ec);
  if (!has_bench || !has_est) {
    const auto& missing = has_bench ? est_file : bench_file;
    const char* present = has_bench ? "benchmark.json" : "estimates.json";
    if (!has_bench && !has_est)
      detail::throw_parse_error(case_dir, "the Criterion case directory holds neither benchmark.json nor estimates.json");
    detail::throw_parse_error(
        missing, std::string("the Criterion case directory has ") + present + " but no " +
                     missing.filename().string() + "; the case was only half written",
        "the benchmark run was interrupted or Criterion failed while saving this case; re-run "
        "the benchmarks and collect again");
  }
  const std::string bench = detail::read_text_file(bench_file, Engine::criterion);
  const std::string est = detail::read_text_file(est_file, Engine::criterion);
  return parse_criterion_case(bench, est, case_dir);
}

}  // namespace benchhist::engines
