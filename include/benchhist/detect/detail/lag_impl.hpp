#pragma once
// Comparison-base lag (docs/statistics.md#comparison-base-lag). See
// include/benchhist/detect/lag.hpp.
// Implementation of detect/lag.hpp, compiled by lib/detect/lag.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"

#include "benchhist/detect/lag.hpp"

#include <algorithm>

#include "benchhist/error.hpp"

namespace benchhist::detect {

BENCHHIST_DETECT_INLINE bool is_sibling_set(const DiscriminantSet& finding_set, const DiscriminantSet& other) noexcept {
  return other.engine == finding_set.engine && other.target_triple == finding_set.target_triple &&
         other.machine_key != finding_set.machine_key;
}

namespace detail {
BENCHHIST_DETAIL_BEGIN

BENCHHIST_DETAIL_INLINE bool shows_mismatch(std::int64_t base_ref_index, std::int64_t comparison_base_index, const DiscriminantSet& set,
                    std::span<const SiblingCleanPoint> points) {
  return std::any_of(points.begin(), points.end(), [&](const SiblingCleanPoint& p) {
    return is_sibling_set(set, p.set) && p.has_same_benchmark_and_metric && comparison_base_index < p.topo &&
           p.topo <= base_ref_index;
  });
}

BENCHHIST_DETAIL_END
}  // namespace detail

BENCHHIST_DETECT_INLINE ComparisonBaseLag comparison_base_lag(std::int64_t base_ref_index, std::int64_t comparison_base_index,
                                      const DiscriminantSet& finding_set,
                                      std::span<const SiblingCleanPoint> loaded_evidence, const SiblingFetch& fetch) {
  ComparisonBaseLag lag;
  lag.commits_behind = base_ref_index - comparison_base_index;
  if (lag.commits_behind <= 0) return lag;
  if (detail::shows_mismatch(base_ref_index, comparison_base_index, finding_set, loaded_evidence)) {
    lag.reason = LagReason::discriminant_set_mismatch;
    return lag;
  }
  lag.reason = LagReason::no_recent_base_data;
  if (!fetch) return lag;
  // Advisory only: a failed fetch or parse degrades to the other reason, never to an error.
  try {
    const auto fetched = fetch();
    if (fetched && detail::shows_mismatch(base_ref_index, comparison_base_index, finding_set, *fetched))
      lag.reason = LagReason::discriminant_set_mismatch;
  } catch (const Error&) {
  }
  return lag;
}

}  // namespace benchhist::detect
