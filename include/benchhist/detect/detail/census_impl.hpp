#pragma once
// The census reason of one series (docs/statistics.md#census).
// Implementation of detect/census.hpp, compiled by lib/detect/census.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/census.hpp"

namespace benchhist::detect {

BENCHHIST_DETECT_INLINE std::optional<UnjudgedReason> unjudged_reason(const ReasonInputs& in) noexcept {
  if (!in.present_at_context) return UnjudgedReason::ghost;
  if (in.matches_ignore_prefix) return UnjudgedReason::ignored;
  if (in.mode == AnalysisMode::history) {
    if (in.active_points < min_series_points)
      return in.active_start > 0 ? UnjudgedReason::too_few_points_since_blessing : UnjudgedReason::too_few_points;
    return std::nullopt;
  }
  if (!in.context_point) return UnjudgedReason::not_measured_on_branch;
  if (in.base_levels < min_series_points) {
    // UPSTREAM (OPEN-2): only when the blessing drain caused the shortfall.
    if (in.blessed && in.base_levels_before_blessing >= min_series_points)
      return UnjudgedReason::too_few_base_commits_since_blessing;
    return UnjudgedReason::too_few_base_commits;
  }
  if (in.regime_unresolved) return UnjudgedReason::current_base_regime_unresolved;
  return std::nullopt;
}

}  // namespace benchhist::detect
