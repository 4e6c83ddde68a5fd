#pragma once
// The drift's shape guard (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step).
// Implementation of detect/drift_shape.hpp, compiled by lib/detect/drift_shape.cpp (or inline
// everywhere with BENCHHIST_HEADER_ONLY, see detect/detail/config.hpp).

#include "benchhist/detect/detail/config.hpp"
#include "benchhist/detect/drift_shape.hpp"

#include <cstdint>
#include <vector>

#include "benchhist/detect/level_start.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"

namespace benchhist::detect {

BENCHHIST_DETECT_INLINE std::optional<double> slope_within_levels(std::span<const double> x, std::size_t split) {
  if (split < 2 || split + 2 > x.size()) return std::nullopt;
  const auto before = theil_sen(x.first(split));
  const auto after = theil_sen(x.subspan(split));
  if (!before || !after) return std::nullopt;
  const auto a = static_cast<double>(split), b = static_cast<double>(x.size() - split);
  const double wa = a * a * a, wb = b * b * b;
  return (wa * before->slope + wb * after->slope) / (wa + wb);
}

BENCHHIST_DETECT_INLINE std::optional<double> drift_within_levels_share(std::span<const double> x, double line_slope) {
  if (x.size() < 2 * min_regime_points || line_slope == 0) return std::nullopt;
  const std::vector<std::int64_t> ranks = doubled_ranks(x);
  const auto within = slope_within_levels(x, new_level_start(x, ranks, min_regime_points));
  if (!within) return std::nullopt;
  return *within / line_slope;
}

}  // namespace benchhist::detect
