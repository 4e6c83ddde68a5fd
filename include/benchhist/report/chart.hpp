#pragma once
// The topology-true chart of docs/formats.md#charts: one column per first-parent commit, gaps
// kept (a commit without a measurement is a broken line, a trailing gap is "no newer
// data"), grouped into at most 48 columns, drawn asciigraph-style in plain characters.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/report/analysis_report.hpp"

namespace benchhist::report {

inline constexpr std::size_t max_chart_columns = 48;
inline constexpr std::size_t branch_tail_commits = 28;  // tip − 28 … tip, plus the baseline

// One value per column; std::nullopt marks a gap.
using ChartColumns = std::vector<std::optional<double>>;

// History findings and examine: `points` ascending by index (several per index allowed),
// `target` the trailing index (context commit / analyzed tip). Columns span first..max(last,
// target), at most `max_columns` wide; each point goes to column
// floor((index − first) × (width − 1) / span) and a column is the mean of its points.
ChartColumns history_columns(const std::vector<ChartPoint>& points, std::size_t target,
                             std::size_t max_columns = max_chart_columns);

// Branch findings: column 0 is the baseline, then one column per first-parent index from
// tip − 28 (not below 0) through tip, tip = the last point's index (≤ 30 columns).
ChartColumns branch_columns(double baseline, const std::vector<ChartPoint>& points);

// Columns of a finding's chart as docs/formats.md#charts prescribes for its method.
ChartColumns finding_columns(const FindingChart& chart, bool branch,
                             std::size_t max_columns = max_chart_columns);

// The plot (height 4, label column, `┤`/`┼` axis). nullopt when fewer than two finite
// values exist. Rows are joined by '\n'; no trailing newline; only the last row loses its
// final blank cell (rasciigraph 0.3.0 behaviour).
std::optional<std::string> plot_chart(const ChartColumns& columns);

}  // namespace benchhist::report
