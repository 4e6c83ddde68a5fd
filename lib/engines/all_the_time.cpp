#include "benchhist/engines/all_the_time.hpp"

#include "common.hpp"

namespace benchhist::engines {
namespace {

std::optional<BenchmarkResult> read_operation(const detail::JsonValue& doc) {
  detail::require_object(doc, "");
  const std::string operation = detail::require_string(doc, "operation", "");
  const auto interval = detail::optional_interval(doc, "interval_low_processor_time_nanos",
                                                  "interval_high_processor_time_nanos");
  const auto slope = detail::usable_slope(doc, "slope_processor_time_nanos");
  if (!slope) return std::nullopt;  // dropped whole, no fallback to totals (docs/formats.md#all_the_time)

  MetricValue m;
  m.kind = MetricKind::processor_time;
  m.value = *slope;  // nanoseconds as written
  m.interval = interval;
  BenchmarkResult r;
  r.id = BenchmarkId({operation});
  r.metrics.push_back(m);
  return r;
}

}  // namespace

std::optional<BenchmarkResult> parse_all_the_time(std::string_view json, const std::filesystem::path& file) {
  return detail::with_parse_context(file, [&] { return read_operation(detail::parse_json(json)); });
}

std::optional<BenchmarkResult> read_all_the_time(const std::filesystem::path& file) {
  return parse_all_the_time(detail::read_text_file(file, Engine::all_the_time), file);
}

}  // namespace benchhist::engines
