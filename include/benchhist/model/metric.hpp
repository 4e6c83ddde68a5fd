#pragma once
// Metric kinds and measured values (docs/formats.md#run-record, #metric-kinds). Every kind is
// lower-is-better.

#include <array>
#include <cmath>
#include <optional>
#include <string_view>

#include "benchhist/model/engine.hpp"

namespace benchhist {

enum class MetricKind {
  wall_time,
  processor_time,
  instruction_count,
  conditional_branches,
  indirect_branches,
  allocated_bytes,
  allocation_count,
  peak_outstanding_bytes,
};

// Canonical kind order (docs/formats.md#metric-kinds table order; peak_outstanding_bytes last,
// docs/formats.md#metric-kinds).
inline constexpr std::array<MetricKind, 8> all_metric_kinds{
    MetricKind::wall_time,         MetricKind::processor_time,   MetricKind::instruction_count,
    MetricKind::conditional_branches, MetricKind::indirect_branches, MetricKind::allocated_bytes,
    MetricKind::allocation_count,  MetricKind::peak_outstanding_bytes};

constexpr std::string_view to_string(MetricKind k) noexcept {
  switch (k) {
    case MetricKind::wall_time: return "wall_time";
    case MetricKind::processor_time: return "processor_time";
    case MetricKind::instruction_count: return "instruction_count";
    case MetricKind::conditional_branches: return "conditional_branches";
    case MetricKind::indirect_branches: return "indirect_branches";
    case MetricKind::allocated_bytes: return "allocated_bytes";
    case MetricKind::allocation_count: return "allocation_count";
    case MetricKind::peak_outstanding_bytes: return "peak_outstanding_bytes";
  }
  return "wall_time";
}

// Metric tokens match exactly (case-sensitive), docs/formats.md#metric-kinds.
constexpr std::optional<MetricKind> parse_metric_kind(std::string_view token) noexcept {
  for (MetricKind k : all_metric_kinds)
    if (token == to_string(k)) return k;
  return std::nullopt;
}

// Display unit.
constexpr std::string_view unit_of(MetricKind k) noexcept {
  switch (k) {
    case MetricKind::wall_time:
    case MetricKind::processor_time: return "ns";
    case MetricKind::allocated_bytes:
    case MetricKind::peak_outstanding_bytes: return "bytes";
    default: return "count";
  }
}

constexpr Engine engine_of(MetricKind k) noexcept {
  switch (k) {
    case MetricKind::wall_time: return Engine::criterion;
    case MetricKind::processor_time: return Engine::all_the_time;
    case MetricKind::instruction_count:
    case MetricKind::conditional_branches:
    case MetricKind::indirect_branches: return Engine::callgrind;
    default: return Engine::alloc_tracker;
  }
}

inline constexpr std::string_view metric_names_list =
    "wall_time, processor_time, instruction_count, conditional_branches, indirect_branches, "
    "allocated_bytes, allocation_count, peak_outstanding_bytes";

struct Interval {
  double low = 0;
  double high = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
};

// What makes an interval unfit to store or to judge, or nullopt: a bound that is not a finite
// number (JSON holds none, and a NaN fails every comparison a gate makes), or low above high.
// One definition for the record's writer and reader (run_problem) and both detectors' input
// checks, each of which words the message for its own context.
enum class IntervalDefect { not_finite, inverted };
inline std::optional<IntervalDefect> interval_defect(const Interval& iv) noexcept {
  if (!std::isfinite(iv.low) || !std::isfinite(iv.high)) return IntervalDefect::not_finite;
  if (iv.low > iv.high) return IntervalDefect::inverted;
  return std::nullopt;
}

// One per-iteration measurement of one kind. std_dev is recorded but never read by analysis.
struct MetricValue {
  MetricKind kind = MetricKind::wall_time;
  double value = 0;
  std::optional<double> std_dev;
  std::optional<Interval> interval;
  friend bool operator==(const MetricValue&, const MetricValue&) = default;
};

}  // namespace benchhist
