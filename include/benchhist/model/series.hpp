#pragma once
// A series' identity and the size limits every stage applies to it (docs/statistics.md#constants,
// #ranking-and-determinism).
// Header-only.

#include <compare>
#include <cstddef>
#include <string>

#include "benchhist/model/benchmark_id.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/metric.hpp"

namespace benchhist {

inline constexpr std::size_t min_series_points = 10;         // MIN_SERIES_POINTS: fewer is not judged
inline constexpr std::size_t max_series_points = 1000;       // MAX_SERIES_POINTS: history analyses the newest 1,000
inline constexpr std::size_t max_branch_base_commits = 128;  // MAX_BRANCH_BASE_COMMITS: branch base window

// One series: a discriminant set, a benchmark and a metric.
struct SeriesKey {
  DiscriminantSet set;
  BenchmarkId id;
  MetricKind kind = MetricKind::wall_time;
  // docs/statistics.md#ranking-and-determinism: set (engine token, triple, machine key as byte
  // strings), id segments, then metric kind in declaration order.
  friend std::strong_ordering operator<=>(const SeriesKey& a, const SeriesKey& b) {
    if (auto c = a.set <=> b.set; c != 0) return c;
    if (auto c = a.id <=> b.id; c != 0) return c;
    return static_cast<int>(a.kind) <=> static_cast<int>(b.kind);
  }
  friend bool operator==(const SeriesKey&, const SeriesKey&) = default;
  std::string label() const { return set.label() + " " + id.qualified() + " " + std::string(to_string(kind)); }
};

}  // namespace benchhist
