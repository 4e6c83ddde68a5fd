#pragma once
// One benchmark case of one run: its identity and at most one value per metric kind.

#include <optional>
#include <vector>

#include "benchhist/model/benchmark_id.hpp"
#include "benchhist/model/metric.hpp"

namespace benchhist {

struct BenchmarkResult {
  BenchmarkId id;
  std::vector<MetricValue> metrics;

  const MetricValue* find(MetricKind kind) const noexcept {
    for (const auto& m : metrics)
      if (m.kind == kind) return &m;
    return nullptr;
  }
  friend bool operator==(const BenchmarkResult&, const BenchmarkResult&) = default;
};

}  // namespace benchhist
