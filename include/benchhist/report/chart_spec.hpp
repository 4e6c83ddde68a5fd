#pragma once
// What a graphical chart marks, from the report model: a finding's series with its verdict
// (levels, split, drift window, observed-range band, blessing, tip), or a series alone. The HTML
// report and the documentation figures both build their charts here, so a verdict is drawn the
// same way wherever it appears (report/svg_chart.hpp draws the spec).

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "benchhist/report/analysis_report.hpp"
#include "benchhist/report/svg_chart.hpp"

namespace benchhist::report {

// A verdict's geometry in chart indices (docs/formats.md#charts indices: first-parent positions).
struct ChartOverlay {
  std::optional<FindingMethod> method{};  // nullopt: the series alone
  Direction direction = Direction::regression;
  double baseline = 0;  // change point: before median; drift: fitted start; branch: range edge
  double latest = 0;    // change point: after median; drift: fitted end; branch: the tip value
  std::optional<std::size_t> split_index{};    // change point: first index of the new level
  std::optional<std::size_t> analysed_from{};  // first analysed index (drift: the window start)
  std::optional<std::size_t> blessed_index{};  // the re-baselining blessing's commit
  std::optional<std::pair<double, double>> range{};  // branch: observed current-base range
  std::optional<std::size_t> range_from{};     // branch: first index of the current regime
  std::optional<std::size_t> tip_index{};      // branch: the context commit's index
  bool quiet = false;  // drawn for a verdict that reported nothing (branch: the band alone)
};

ChartOverlay overlay_of(const Finding& finding);

// `points` ascending by index; `target` the analyzed commit's index (trailing gap). Marks get
// tooltips naming the commit, its subject and time when `line` (index = chart index) has them.
svg::ChartSpec chart_spec(const std::vector<ChartPoint>& points, std::size_t target, MetricKind kind,
                          const ChartOverlay& overlay, const std::vector<LineCommit>* line);

// A finding's chart (its FindingChart with overlay_of), titled with the benchmark and metric.
// Branch charts show the whole base window, not the text chart's 28-commit tail.
svg::ChartSpec finding_chart_spec(const Finding& finding, const std::vector<LineCommit>* line);

// The tooltip of one observation: `<commit> · <value> <unit>`, then the subject and the time
// (`dirty snapshot` appended for dirty points).
std::string point_tooltip(const ChartPoint& point, MetricKind kind, const std::vector<LineCommit>* line);

}  // namespace benchhist::report
