#pragma once
// Classifying a newly measured value (docs/bisect.md#classifying-a-value): at the old level, at
// the new level, or honestly neither. Pure: no I/O.
//
// The value's position along the step (0 = old level, 1 = new level) is compared with half-way:
// within one standard error of it (the series' scatter, detect::step_residual — the measure the
// change-point ladder's `residual_noise` gate uses — for the median of k values, plus the
// levels' own error when they were measured again; at least 5 % of the step) it cannot be told;
// more than three standard errors (at least a quarter of the step) beyond either level it is
// something else. Both are ambiguous; everything else is the nearer level.

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
  // How many measurements each level is the median of: 0 for the finding's stored levels (many
  // points), the confirmation's --repeat once the ends were measured again.
  std::size_t level_measurements = 0;
};

// The levels of the finding whose new level starts at full-series point `point_index`: the
// residual is detect::step_residual over the series' analysed view split there. Throws
// Error{usage} when point_index is outside the analysed view.
StepLevels step_levels(const analysis::Series& series, double baseline, double latest, std::size_t point_index);

// The level of the median of `values` (empty, or a zero step → ambiguous).
Level classify(std::span<const double> values, const StepLevels& levels);

}  // namespace benchhist::bisect
