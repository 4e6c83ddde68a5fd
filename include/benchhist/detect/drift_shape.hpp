#pragma once
// The drift's shape guard of history detection (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step):
// a line through a step fits it nearly as well as the step itself when the step is small
// against the noise, and its rise, measured end to end, is larger than the step's median
// difference, so without this a step at the noise limit was reported as "drift accumulated
// since the first commit". A drift keeps rising within the levels either side of the split that
// would best explain the series as a step; a step is flat within them. It can only remove drift
// candidates.

#include <cstddef>
#include <optional>
#include <span>

namespace benchhist::detect {

inline constexpr double drift_within_share = 0.5;  // inclusive >=: the levels keep half the slope

// Slope of the series within its two levels: the Theil-Sen slopes of x[0..split) and
// x[split..n), weighted by their precision (a Theil-Sen slope of m equally spaced points has a
// variance proportional to 1/m^3). nullopt when either side has fewer than two points.
std::optional<double> slope_within_levels(std::span<const double> x, std::size_t split);

// The gate's value for a series whose fitted line has `line_slope` (non-zero): the share of that
// slope the levels either side of the series' best step split keep (new_level_start,
// detect/level_start.hpp). nullopt when the series is too short for a split (n < 2 min_regime),
// then the gate abstains.
std::optional<double> drift_within_levels_share(std::span<const double> x, double line_slope);

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/drift_shape_impl.hpp"
#endif
