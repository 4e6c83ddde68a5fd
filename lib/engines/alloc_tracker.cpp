#include "benchhist/engines/alloc_tracker.hpp"

#include "common.hpp"

namespace benchhist::engines {
namespace {

MetricValue metric(MetricKind kind, double value, std::optional<Interval> interval) {
  MetricValue m;
  m.kind = kind;
  m.value = value;
  m.interval = interval;  // std_dev is never set for this engine (docs/formats.md#alloc_tracker)
  return m;
}

std::optional<BenchmarkResult> read_operation(const detail::JsonValue& doc) {
  detail::require_object(doc, "");
  const std::string operation = detail::require_string(doc, "operation", "");
  // Intervals are validated even when the operation is then dropped: a malformed file is
  // an error whatever its slopes say.
  const auto bytes_iv = detail::optional_interval(doc, "interval_low_bytes_per_iteration",
                                                  "interval_high_bytes_per_iteration");
  const auto count_iv = detail::optional_interval(doc, "interval_low_allocations_per_iteration",
                                                  "interval_high_allocations_per_iteration");
  const auto peak_iv = detail::optional_interval(doc, "interval_low_peak_bytes", "interval_high_peak_bytes");
  const auto bytes = detail::usable_slope(doc, "slope_bytes_per_iteration");
  const auto count = detail::usable_slope(doc, "slope_allocations_per_iteration");
  const auto peak = detail::usable_slope(doc, "slope_peak_bytes");
  // The per-iteration slope is the value; totals are never a fallback (user guide "Which
  // number is taken"), so a zero-iteration operation disappears whole.
  if (!bytes || !count) return std::nullopt;

  BenchmarkResult r;
  r.id = BenchmarkId({operation});
  r.metrics.push_back(metric(MetricKind::allocated_bytes, *bytes, bytes_iv));
  r.metrics.push_back(metric(MetricKind::allocation_count, *count, count_iv));
  // An unavailable peak (no span recorded one, process-scoped spans, no_peak()) drops only
  // this metric — missing peaks are not zero measurements.
  if (peak) r.metrics.push_back(metric(MetricKind::peak_outstanding_bytes, *peak, peak_iv));
  return r;
}

}  // namespace

std::optional<BenchmarkResult> parse_alloc_tracker(std::string_view json, const std::filesystem::path& file) {
  return detail::with_parse_context(file, [&] { return read_operation(detail::parse_json(json)); });
}

std::optional<BenchmarkResult> read_alloc_tracker(const std::filesystem::path& file) {
  return parse_alloc_tracker(detail::read_text_file(file, Engine::alloc_tracker), file);
}

}  // namespace benchhist::engines
