#pragma once
// The drift's shape guard of history detection (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step):
// a line through a step fits it nearly as well as the step itself when the step is small
// against the noise, and its rise, measured end to end, is larger than the step's median
// difference, so without this a step at the noise limit was reported as "drift accumulated
// since the first commit". A drift keeps rising within the two levels the change-point ladder
// found, at least as steeply as half the line and by at least as much as it jumps between
// them; a step is flat within them. It can only remove drift candidates.

#include <cstddef>
#include <optional>
#include <span>

namespace benchhist::detect {

inline constexpr double drift_within_share = 0.5;  // inclusive >=

// The share of the pairs i < j that lie within one level — both before `level_start` (the
// change-point ladder's estimate of where a new level begins, ChangePointStage::level_start) or
// both from it on — whose slope is at least `reference_slope`, in its direction (compared as
// x_j - h·j >= x_i - h·i with h = reference_slope, <= when it is negative), each pair weighted by
// its lag j - i (a slope over a longer lag is more precise). It is at least 0.5 exactly when the
// lag-weighted median of the within-level slopes — the rank (Wilcoxon-score) regression slope
// pooled over the two levels — is at least `reference_slope`. Counted by merge sort in O(n log n).
// nullopt when the reference slope is 0 or the levels hold no pair.
std::optional<double> drift_within_levels_share(std::span<const double> x, double reference_slope,
                                                std::size_t level_start);

// The balance slope: the within-level slope h at which the rise it makes over the whole window,
// h·(n - 1), equals the jump it leaves between the levels, median(x_i - h·i, i >= level_start) -
// median(x_i - h·i, i < level_start), both measured in `direction` (its sign: up or down). A
// series rises more within its levels than between them exactly when its within-level slope is
// at least this. Returned as a slope of x (so negated when `direction` is negative); nullopt when
// a level is empty or `direction` is 0.
std::optional<double> drift_balance_slope(std::span<const double> x, double direction, std::size_t level_start);

// What S6 demands of the within-level slope of a line of slope `line_slope`: the steeper of half
// the line's slope and the balance slope. The first alone misses a step whose longer level
// happens to rise: the robust line then follows that level, so half its slope is a low bar, and
// the jump, which the line does not see, is left unweighed. nullopt when drift_balance_slope is.
std::optional<double> drift_shape_demand(std::span<const double> x, double line_slope, std::size_t level_start);

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/drift_shape_impl.hpp"
#endif
