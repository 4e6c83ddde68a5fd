// docs/formats.md#charts charts. The plot follows the rasciigraph 0.3.0 algorithm step by step so
// the glyphs match the reference's reports.

#include "benchhist/report/chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace benchhist::report {

namespace {

ChartColumns mean_columns(const std::vector<double>& sums, const std::vector<std::size_t>& counts) {
  ChartColumns out(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i)
    if (counts[i]) out[i] = sums[i] / static_cast<double>(counts[i]);
  return out;
}

// printf("%*.*f"): right-aligned, half-to-even on exact ties (106.5 → `106`).
std::string label(double v, int width, int precision) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%*.*f", width, precision, v);
  return buf;
}

}  // namespace

ChartColumns history_columns(const std::vector<ChartPoint>& points, std::size_t target,
                             std::size_t max_columns) {
  if (points.empty()) return {};
  if (max_columns < 1) max_columns = 1;
  const std::size_t first = points.front().index;
  std::size_t last = first;
  for (const auto& p : points) last = std::max(last, p.index);
  const std::size_t end = std::max(last, target);
  const std::size_t span = end - first;
  const std::size_t width = std::min(span + 1, max_columns);
  std::vector<double> sums(width, 0.0);
  std::vector<std::size_t> counts(width, 0);
  for (const auto& p : points) {
    if (p.index < first) continue;  // unsorted input: never index before column 0
    std::size_t col = 0;
    if (span > 0) col = (p.index - first) * (width - 1) / span;
    sums[col] += p.value;
    ++counts[col];
  }
  return mean_columns(sums, counts);
}

ChartColumns branch_columns(double baseline, const std::vector<ChartPoint>& points) {
  ChartColumns out;
  out.push_back(baseline);
  if (points.empty()) return out;
  std::size_t tip = 0;
  for (const auto& p : points) tip = std::max(tip, p.index);
  const std::size_t lo = tip >= branch_tail_commits ? tip - branch_tail_commits : 0;
  const std::size_t n = tip - lo + 1;
  std::vector<double> sums(n, 0.0);
  std::vector<std::size_t> counts(n, 0);
  for (const auto& p : points) {
    if (p.index < lo) continue;
    sums[p.index - lo] += p.value;
    ++counts[p.index - lo];
  }
  auto tail = mean_columns(sums, counts);
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

ChartColumns finding_columns(const FindingChart& chart, bool branch, std::size_t max_columns) {
  if (branch && chart.baseline) return branch_columns(*chart.baseline, chart.points);
  return history_columns(chart.points, chart.target_index, max_columns);
}

std::optional<std::string> plot_chart(const ChartColumns& columns) {
  constexpr int height = 4;
  constexpr std::size_t offset = 3;
  std::size_t finite = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  for (const auto& c : columns) {
    if (!c || !std::isfinite(*c)) continue;
    ++finite;
    min = std::min(min, *c);
    max = std::max(max, *c);
  }
  if (finite < 2) return std::nullopt;
  auto is_value = [&](std::size_t i) { return columns[i] && std::isfinite(*columns[i]); };

  const std::size_t n = columns.size();
  const double interval = std::fabs(max - min);
  const double ratio = interval != 0 ? height / interval : 1.0;
  const double min2 = std::round(min * ratio);  // half away from zero, as Rust's f64::round
  const double max2 = std::round(max * ratio);
  const long imin2 = static_cast<long>(min2);
  const long imax2 = static_cast<long>(max2);
  const long rows = std::labs(imax2 - imin2);

  int precision = 2;
  double logmax = std::log10(std::max(std::fabs(min), std::fabs(max)));
  if (min == 0 && max == 0) logmax = -1;
  if (logmax < 0) {
    if (std::fmod(logmax, 1.0) != 0)
      precision += static_cast<int>(std::fabs(logmax));
    else
      precision += static_cast<int>(std::fabs(logmax) - 1);
  } else if (logmax > 2) {
    precision = 0;
  }
  const int lw = static_cast<int>(std::max(label(max, 0, precision).size(),
                                           label(min, 0, precision).size())) + 1;

  std::vector<std::vector<std::string>> grid(static_cast<std::size_t>(rows) + 1,
                                             std::vector<std::string>(n + offset, " "));
  for (long r = 0; r <= rows; ++r) {
    const double magnitude =
        rows > 0 ? max - static_cast<double>(r) * interval / static_cast<double>(rows)
                 : static_cast<double>(imin2 + r);
    std::string text = label(magnitude, lw, precision);
    const std::size_t h = static_cast<std::size_t>(std::max<long>(static_cast<long>(offset) - static_cast<long>(text.size()), 0));
    grid[static_cast<std::size_t>(r)][h] = std::move(text);
    grid[static_cast<std::size_t>(r)][offset - 1] = "\u2524";  // ┤
  }
  auto row_of = [&](double v) {
    const long y = static_cast<long>(std::round(v * ratio)) - imin2;
    return static_cast<std::size_t>(rows - y);
  };
  if (is_value(0)) grid[row_of(*columns[0])][offset - 1] = "\u253c";  // ┼

  for (std::size_t x = 0; x + 1 < n; ++x) {
    const std::size_t cell = offset + x;
    const bool ha = is_value(x), hb = is_value(x + 1);
    if (!ha && !hb) continue;
    if (!hb) {
      grid[row_of(*columns[x])][cell] = "\u2500";  // ─
      continue;
    }
    if (!ha) {
      grid[row_of(*columns[x + 1])][cell] = "\u2500";
      continue;
    }
    const std::size_t ra = row_of(*columns[x]);
    const std::size_t rb = row_of(*columns[x + 1]);
    if (ra == rb) {
      grid[ra][cell] = "\u2500";
      continue;
    }
    if (ra < rb) {  // a above b (smaller row index is higher)
      grid[ra][cell] = "\u256e";  // ╮
      grid[rb][cell] = "\u2570";  // ╰
    } else {
      grid[ra][cell] = "\u256f";  // ╯
      grid[rb][cell] = "\u256d";  // ╭
    }
    for (std::size_t r = std::min(ra, rb) + 1; r < std::max(ra, rb); ++r) grid[r][cell] = "\u2502";  // │
  }

  std::string out;
  for (std::size_t r = 0; r < grid.size(); ++r) {
    if (r) out += '\n';
    for (const auto& c : grid[r]) out += c;
  }
  // Drop the last character (a whole code point: the final cell is a blank or a glyph).
  if (!out.empty()) {
    std::size_t i = out.size() - 1;
    while (i > 0 && (static_cast<unsigned char>(out[i]) & 0xC0) == 0x80) --i;
    out.erase(i);
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace benchhist::report
