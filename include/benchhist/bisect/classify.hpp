#pragma once
// Classifying a newly measured value (docs/bisect.md#classifying-a-value): at the old level, at
// the new level, or honestly neither. Pure: no I/O.
//
// Each level has a band of half-width 3 × the step's typical residual (detect::step_residual,
// the measure the change-point ladder's `residual_noise` gate uses), narrowed by √k when the
// value is the median of k measurements, and never narrower than a quarter of the step. A value
// inside exactly one band is at that level; inside both or neither it is ambiguous.

#include <cstddef>
#include <span>
#include <string_view>

#include "benchhist/analysis/reconstruction.hpp"

namespace benchhist::bisect {

enum class Level { old_level, new_level, ambiguous };
std::string_view to_string(Level level) noexcept;

// The two levels of a step and the series' own scatter around them, in the series' unit.
struct StepLevels {
  double baseline = 0;  // the old level (the finding's baseline)
  double latest = 0;    // the new level (the finding's latest)
  double residual = 0;  // the step's typical residual (median absolute residual, not rescaled)
};

// The levels of the finding whose new level starts at full-series point `point_index`: the
// residual is detect::step_residual over the series' analysed view split there. Throws
// Error{usage} when point_index is outside the analysed view.
StepLevels step_levels(const analysis::Series& series, double baseline, double latest, std::size_t point_index);

// The half-width of each level's band for the median of `measurements` values.
double band_half_width(const StepLevels& levels, std::size_t measurements) noexcept;

// The level of the median of `values` (empty → ambiguous).
Level classify(std::span<const double> values, const StepLevels& levels);

}  // namespace benchhist::bisect
