// Classifying a value against a step's two levels (docs/bisect.md#classifying-a-value).
#include "benchhist/bisect/classify.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "benchhist/detect/stats.hpp"
#include "benchhist/error.hpp"

namespace benchhist::bisect {

std::string_view to_string(Level level) noexcept {
  switch (level) {
    case Level::old_level: return "old level";
    case Level::new_level: return "new level";
    case Level::ambiguous: return "ambiguous";
  }
  return "ambiguous";
}

StepLevels step_levels(const analysis::Series& series, double baseline, double latest, std::size_t point_index) {
  const std::size_t first = series.analysed_first();
  if (point_index <= first || point_index >= series.points.size())
    throw Error(ErrorKind::usage,
                "point " + std::to_string(point_index) + " of the series " + series.key.label() +
                    " does not split its analysed view (points " + std::to_string(first) + " to " +
                    std::to_string(series.points.size()) + ")",
                series.key.label(), {}, "pass the finding's first point at the new level");
  std::vector<double> view;
  view.reserve(series.points.size() - first);
  for (std::size_t i = first; i < series.points.size(); ++i) view.push_back(series.points[i].value);
  // The residual_noise gate's measure (docs/statistics.md#residuals): the scatter the finding
  // was judged against, so a bisect value is held to the same noise as the step itself.
  const auto residual = detect::step_residual(view, point_index - first);
  return StepLevels{baseline, latest, residual.value_or(0.0)};
}

Level classify(std::span<const double> values, const StepLevels& levels) {
  const double step = levels.latest - levels.baseline;
  if (values.empty() || step == 0) return Level::ambiguous;
  const double median = detect::median(std::vector<double>(values.begin(), values.end()));
  // Where the value sits along the step (0 = old level, 1 = new level), and one standard error of
  // that position: the series' scatter (a median absolute deviation, × 1.4826 for a standard
  // deviation) for the median of k values, plus the levels' own when they were measured too.
  const double at = (median - levels.baseline) / step;
  const double k = static_cast<double>(values.size());
  const double r = static_cast<double>(levels.level_measurements);
  const double error =
      1.4826 * levels.residual * std::sqrt(1.0 / k + (r > 0 ? 1.0 / r : 0.0)) / std::abs(step);
  // Beyond both levels by more than three standard errors (at least a quarter of the step):
  // something else is going on, and calling it either level would be a guess.
  const double beyond = std::max(3.0 * error, 0.25);
  if (at < -beyond || at > 1 + beyond) return Level::ambiguous;
  // Within one standard error of half-way: the value cannot honestly be told to either side.
  if (std::abs(at - 0.5) <= std::max(error, 0.05)) return Level::ambiguous;
  return at < 0.5 ? Level::old_level : Level::new_level;
}

}  // namespace benchhist::bisect
