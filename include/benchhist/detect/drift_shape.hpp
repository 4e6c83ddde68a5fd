#pragma once
// The drift's shape guard of history detection (docs/divergences.md#s6--a-drift-is-a-slope-not-a-step):
// a line through a step fits it nearly as well as the step itself when the step is small
// against the noise, and its rise, measured end to end, is larger than the step's median
// difference, so without this a step at the noise limit was reported as "drift accumulated
// since the first commit". A drift keeps rising within the two levels the change-point ladder
// found; a step is flat within them. It can only remove drift candidates.

#include <cstddef>
#include <optional>
#include <span>

namespace benchhist::detect {

inline constexpr double drift_within_share = 0.5;  // inclusive >=

// The share of the pairs i < j that lie within one level — both before `level_start` (the
// change-point ladder's estimate of where a new level begins, ChangePointStage::level_start) or
// both from it on — whose slope is at least half the line's, in the line's direction (compared as
// x_j - h·j >= x_i - h·i with h = line_slope / 2, <= when the line falls), each pair weighted by
// its lag j - i (a slope over a longer lag is more precise). It is at least 0.5 exactly when the
// lag-weighted median of the within-level slopes — the rank (Wilcoxon-score) regression slope
// pooled over the two levels — is at least half the line's. Counted by merge sort in O(n log n).
// nullopt, and the gate abstains, when the slope is 0 or the levels hold no pair.
std::optional<double> drift_within_levels_share(std::span<const double> x, double line_slope, std::size_t level_start);

}  // namespace benchhist::detect

#ifdef BENCHHIST_HEADER_ONLY
#include "benchhist/detect/detail/drift_shape_impl.hpp"
#endif
