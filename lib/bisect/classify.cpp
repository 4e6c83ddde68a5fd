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

double band_half_width(const StepLevels& levels, std::size_t measurements) noexcept {
  // 3 × the typical residual is the residual_noise gate's own multiple; the median of k values
  // scatters about 1/√k as much. A quarter of the step keeps a noiseless series (residual 0, a
  // counted metric) from calling every value that is not bit-identical ambiguous.
  const double k = static_cast<double>(std::max<std::size_t>(measurements, 1));
  const double noise = 3.0 * levels.residual / std::sqrt(k);
  return std::max(noise, std::abs(levels.latest - levels.baseline) / 4.0);
}

Level classify(std::span<const double> values, const StepLevels& levels) {
  if (values.empty()) return Level::ambiguous;
  const double median = detect::median(std::vector<double>(values.begin(), values.end()));
  const double h = band_half_width(levels, values.size());
  const bool in_old = std::abs(median - levels.baseline) <= h;
  const bool in_new = std::abs(median - levels.latest) <= h;
  if (in_old == in_new) return Level::ambiguous;
  return in_old ? Level::old_level : Level::new_level;
}

}  // namespace benchhist::bisect
